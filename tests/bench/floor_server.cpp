// cantonlite_floor_server: the bench's floor for small GETs, a minimal Boost.Beast HTTP/1.1 server
// on cantonlite's stack (Asio, Beast, nlohmann, the same compiler flags), shaped as Beast's
// example/http/server/async: async accept, one strand per connection, keep-alive, a 30 s read
// timeout, no logging. Every request, whatever its method and path, is answered 200
// {"dso_party_id":"<party>"}, serialized with nlohmann per request as cantonlite's handler does.
// SIGTERM or SIGINT stops it.
//
// Usage: cantonlite_floor_server --port P --party PARTY [--threads N]
#include <chrono>
#include <csignal>
#include <cstdint>
#include <iostream>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <boost/asio/dispatch.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <nlohmann/json.hpp>

namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace bhttp = beast::http;
using tcp = asio::ip::tcp;

// One connection: read a request, answer it, again while the client keeps the connection.
class Session : public std::enable_shared_from_this<Session> {
  public:
    Session(tcp::socket&& socket, const std::string& party)
        : stream_(std::move(socket)), party_(party) {}

    void run() {
        asio::dispatch(stream_.get_executor(), [self = shared_from_this()] { self->read(); });
    }

  private:
    void read() {
        request_ = {};
        stream_.expires_after(std::chrono::seconds(30));
        bhttp::async_read(
            stream_, buffer_, request_,
            [self = shared_from_this()](beast::error_code ec, std::size_t) { self->on_read(ec); });
    }

    void on_read(beast::error_code ec) {
        if (ec) return close();
        response_ = {bhttp::status::ok, request_.version()};
        response_.set(bhttp::field::server, "cantonlite-floor");
        response_.set(bhttp::field::content_type, "application/json");
        response_.keep_alive(request_.keep_alive());
        response_.body() = nlohmann::json{{"dso_party_id", party_}}.dump();
        response_.prepare_payload();
        bhttp::async_write(stream_, response_,
                           [self = shared_from_this()](beast::error_code write_ec, std::size_t) {
                               if (write_ec || !self->response_.keep_alive()) return self->close();
                               self->read();
                           });
    }

    void close() {
        beast::error_code ignored;
        stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
    }

    beast::tcp_stream stream_;
    beast::flat_buffer buffer_;
    bhttp::request<bhttp::string_body> request_;
    bhttp::response<bhttp::string_body> response_;
    const std::string& party_;
};

// Accepts connections until the io_context stops; each gets its own strand.
class Listener : public std::enable_shared_from_this<Listener> {
  public:
    Listener(asio::io_context& ioc, const tcp::endpoint& endpoint, const std::string& party)
        : ioc_(ioc), acceptor_(asio::make_strand(ioc)), party_(party) {
        acceptor_.open(endpoint.protocol());
        acceptor_.set_option(asio::socket_base::reuse_address(true));
        acceptor_.bind(endpoint);
        acceptor_.listen(asio::socket_base::max_listen_connections);
    }

    void accept() {
        acceptor_.async_accept(asio::make_strand(ioc_),
                               [self = shared_from_this()](beast::error_code ec, tcp::socket s) {
                                   if (!ec)
                                       std::make_shared<Session>(std::move(s), self->party_)->run();
                                   self->accept();
                               });
    }

  private:
    asio::io_context& ioc_;
    tcp::acceptor acceptor_;
    const std::string& party_;
};

struct Options {
    std::uint16_t port = 0;
    std::string party;
    int threads = 2;  // as the bench's daemon (--io-threads 2)
};

Options parse_options(int argc, char** argv) {
    Options o;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (i + 1 >= argc) throw std::runtime_error(a + " needs a value");
        const std::string value = argv[++i];
        if (a == "--port") {
            o.port = static_cast<std::uint16_t>(std::stoi(value));
        } else if (a == "--party") {
            o.party = value;
        } else if (a == "--threads") {
            o.threads = std::max(1, std::stoi(value));
        } else {
            throw std::runtime_error("unknown argument " + a);
        }
    }
    if (o.port == 0 || o.party.empty()) throw std::runtime_error("--port and --party are required");
    return o;
}

}  // namespace

int main(int argc, char** argv) {
    try {
        const Options o = parse_options(argc, argv);
        asio::io_context ioc(o.threads);
        std::make_shared<Listener>(ioc, tcp::endpoint(asio::ip::make_address("127.0.0.1"), o.port),
                                   o.party)
            ->accept();
        asio::signal_set signals(ioc, SIGINT, SIGTERM);
        signals.async_wait([&ioc](beast::error_code, int) { ioc.stop(); });
        std::vector<std::thread> threads;
        for (int i = 1; i < o.threads; ++i) threads.emplace_back([&ioc] { ioc.run(); });
        ioc.run();
        for (auto& t : threads) t.join();
        return 0;
    } catch (const std::exception& e) {
        std::cerr << "cantonlite_floor_server: " << e.what() << "\n";
        return 1;
    }
}
