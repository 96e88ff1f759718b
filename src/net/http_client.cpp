#include "cantonlite/net/http_client.hpp"

#include <utility>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/error.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/http/write.hpp>

namespace cantonlite::net {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace bhttp = beast::http;
using tcp = asio::ip::tcp;

namespace {

std::string seconds_text(std::chrono::milliseconds d) {
    if (d.count() % 1000 == 0) return std::to_string(d.count() / 1000) + " s";
    return std::to_string(d.count()) + " ms";
}

// The Host header: "host:port", with an IPv6 address in brackets.
std::string host_header(const ClientRequest& request) {
    const bool ipv6 = request.host.find(':') != std::string::npos;
    return (ipv6 ? "[" + request.host + "]" : request.host) + ":" + std::to_string(request.port);
}

// Runs the operations started on `ioc` until they are done; the io_context is reused afterwards.
void run_all(asio::io_context& ioc) {
    ioc.restart();
    ioc.run();
}

// The one line of a failed exchange (after connecting).
std::string exchange_failure(beast::error_code ec, const ClientOptions& options) {
    if (ec == beast::error::timeout)
        return "no whole answer within " + seconds_text(options.response_timeout);
    if (ec == bhttp::error::end_of_stream || ec == bhttp::error::partial_message ||
        ec == asio::error::eof || ec == asio::error::connection_reset) {
        return "the connection was closed before a whole answer arrived";
    }
    if (ec == bhttp::error::body_limit) {
        return "the answer is longer than " + std::to_string(options.max_body_bytes) + " bytes";
    }
    return ec.message();
}

}  // namespace

ClientResponse send_request(const ClientRequest& request, const ClientOptions& options) {
    asio::io_context ioc;
    beast::error_code ec;

    // Name lookup is getaddrinfo, bounded by the resolver's own timeouts.
    tcp::resolver resolver(ioc);
    const tcp::resolver::results_type endpoints =
        resolver.resolve(request.host, std::to_string(request.port), ec);
    if (ec) throw ClientError("cannot resolve \"" + request.host + "\": " + ec.message());

    beast::tcp_stream stream(ioc);
    stream.expires_after(options.connect_timeout);
    stream.async_connect(endpoints,
                         [&ec](beast::error_code e, const tcp::endpoint& /*unused*/) { ec = e; });
    run_all(ioc);
    if (ec == beast::error::timeout)
        throw ClientError("no connection within " + seconds_text(options.connect_timeout));
    if (ec) throw ClientError(ec.message());

    bhttp::request<bhttp::string_body> req;
    if (const bhttp::verb verb = bhttp::string_to_verb(request.method);
        verb != bhttp::verb::unknown) {
        req.method(verb);
    } else {
        req.method_string(request.method);
    }
    req.target(request.target);
    req.version(11);
    req.set(bhttp::field::host, host_header(request));
    for (const http::Header& h : request.headers) req.insert(h.name, h.value);
    req.body() = request.body;
    req.keep_alive(false);
    req.prepare_payload();

    // One deadline for the whole exchange: writing the request and reading the answer.
    stream.expires_after(options.response_timeout);
    bhttp::async_write(stream, req, [&ec](beast::error_code e, std::size_t /*unused*/) { ec = e; });
    run_all(ioc);
    if (ec) throw ClientError(exchange_failure(ec, options));

    beast::flat_buffer buffer;
    bhttp::response_parser<bhttp::string_body> parser;
    parser.body_limit(options.max_body_bytes);
    if (req.method() == bhttp::verb::head) parser.skip(true);
    bhttp::async_read(stream, buffer, parser,
                      [&ec](beast::error_code e, std::size_t /*unused*/) { ec = e; });
    run_all(ioc);
    if (ec) throw ClientError(exchange_failure(ec, options));

    beast::error_code ignored;
    stream.socket().shutdown(tcp::socket::shutdown_both, ignored);

    bhttp::response<bhttp::string_body> res = parser.release();
    ClientResponse out;
    out.status = static_cast<int>(res.result_int());
    if (const auto it = res.find(bhttp::field::content_type); it != res.end()) {
        out.content_type = std::string(it->value());
    }
    out.body = std::move(res.body());
    return out;
}

}  // namespace cantonlite::net
