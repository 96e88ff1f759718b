#include "session.hpp"

#include <array>
#include <ctime>
#include <deque>
#include <iterator>
#include <string_view>
#include <utility>

#include <spdlog/spdlog.h>
#include <boost/asio/defer.hpp>
#include <boost/asio/dispatch.hpp>
#include <boost/asio/post.hpp>
#include <boost/beast/core/buffers_to_string.hpp>
#include <boost/beast/core/read_size.hpp>
#include <boost/beast/http/empty_body.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/write.hpp>
#include <boost/beast/websocket.hpp>

namespace cantonlite::net {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace bhttp = beast::http;
using tcp = asio::ip::tcp;

namespace {

// An HTTP-date for the Date header ("Sun, 06 Nov 1994 08:49:37 GMT"), formatted once per second
// and thread (gmtime_r takes the time zone lock).
std::string_view http_date() {
    thread_local std::time_t formatted_at = -1;
    thread_local std::array<char, 64> text{};
    thread_local std::size_t length = 0;
    const std::time_t now = std::time(nullptr);
    if (now != formatted_at) {
        std::tm utc{};
        gmtime_r(&now, &utc);
        length = std::strftime(text.data(), text.size(), "%a, %d %b %Y %H:%M:%S GMT", &utc);
        formatted_at = now;
    }
    return {text.data(), length};
}

std::string endpoint_text(const tcp::socket& socket) {
    beast::error_code ec;
    const tcp::endpoint ep = socket.remote_endpoint(ec);
    if (ec) return "-";
    return ep.address().to_string() + ":" + std::to_string(ep.port());
}

http::Request to_request(bhttp::request<bhttp::string_body>&& req) {
    http::Request out{.method = std::string(req.method_string()),
                      .target = std::string(req.target())};
    out.headers.reserve(static_cast<std::size_t>(std::distance(req.begin(), req.end())));
    for (const auto& field : req) {
        out.headers.push_back({std::string(field.name_string()), std::string(field.value())});
    }
    out.body = std::move(req.body());
    return out;
}

// Errors that end a connection without an answer: the peer left, or the timer fired.
bool is_quiet_close(beast::error_code ec) {
    return ec == bhttp::error::end_of_stream || ec == bhttp::error::partial_message ||
           ec == beast::error::timeout || ec == asio::error::operation_aborted ||
           ec == asio::error::connection_reset || ec == asio::error::eof;
}

}  // namespace

// The WebSocket of an upgraded session, over the session's own TCP stream.
struct WebSocketState {
    explicit WebSocketState(beast::tcp_stream& stream, std::shared_ptr<http::MessageStream> s)
        : ws(stream), poll_timer(stream.get_executor()), messages(std::move(s)) {}

    beast::websocket::stream<beast::tcp_stream&> ws;
    asio::steady_timer poll_timer;
    std::shared_ptr<http::MessageStream> messages;
    beast::flat_buffer in;
    std::deque<std::string> out;  // out.front() is being written while writing
    bool writing = false;
    bool started = false;   // the client's first message came
    bool done = false;      // the stream said so: close once `out` is sent
    bool stopping = false;  // the server stops: close at once, 1001
    bool closing = false;   // our close frame is sent or being sent
    bool closed = false;    // the connection is over (read failed)
    bool poll_armed = false;
};

namespace {
// How often a stream that is open and idle is asked for more (the ledger may have moved).
constexpr std::chrono::milliseconds ws_poll_interval{20};
}  // namespace

SessionHub::SessionHub(const http::Router& router, const ServerOptions& options,
                       asio::io_context& ioc)
    : router_(router), options_(options), ioc_(ioc) {}

void SessionHub::log_access(const AccessRecord& record) {
    if (!options_.access_log) return;
    options_.access_log(record);
    if (!options_.access_log_flush || flush_deferred_.load(std::memory_order_relaxed) ||
        flush_deferred_.exchange(true)) {
        return;
    }
    // Deferred as a continuation: onto this io thread's own queue, behind the handlers that are
    // ready now, with no other thread woken for it. The hub outlives every run of the io_context.
    asio::defer(ioc_, [this] {
        flush_deferred_.store(false);
        options_.access_log_flush();
    });
}

bool SessionHub::add(const std::shared_ptr<Session>& session) {
    const std::lock_guard lock(mutex_);
    if (stopping_) return false;
    sessions_.emplace(session.get(), session);
    return true;
}

void SessionHub::remove(const Session* session) {
    std::function<void()> drained;
    std::function<void()> room;
    {
        const std::lock_guard lock(mutex_);
        sessions_.erase(session);
        if (stopping_ && sessions_.empty()) drained = std::exchange(on_drained_, nullptr);
        if (on_room_ && sessions_.size() < options_.max_connections) {
            room = std::exchange(on_room_, nullptr);
        }
    }
    if (drained) drained();
    if (room) room();
}

std::size_t SessionHub::size() {
    const std::lock_guard lock(mutex_);
    return sessions_.size();
}

bool SessionHub::has_room_or_wait(std::function<void()> resume) {
    const std::lock_guard lock(mutex_);
    if (options_.max_connections == 0 || sessions_.size() < options_.max_connections) return true;
    on_room_ = std::move(resume);
    return false;
}

std::vector<std::shared_ptr<Session>> SessionHub::live_sessions() {
    std::vector<std::shared_ptr<Session>> live;
    for (const auto& [_, weak] : sessions_) {
        if (auto s = weak.lock()) live.push_back(std::move(s));
    }
    return live;
}

void SessionHub::close_all() {
    std::vector<std::shared_ptr<Session>> live;
    {
        const std::lock_guard lock(mutex_);
        live = live_sessions();
    }
    for (const auto& s : live) s->close_now();
}

void SessionHub::begin_stop(std::function<void()> on_drained) {
    std::vector<std::shared_ptr<Session>> live;
    std::function<void()> drained;
    {
        const std::lock_guard lock(mutex_);
        stopping_ = true;
        live = live_sessions();
        if (sessions_.empty()) {
            drained = std::move(on_drained);
        } else {
            on_drained_ = std::move(on_drained);
        }
    }
    for (const auto& s : live) s->close_if_idle();
    if (drained) drained();
}

Session::Session(tcp::socket&& socket, std::shared_ptr<SessionHub> hub)
    : stream_(std::move(socket)),
      delay_timer_(stream_.get_executor()),
      hub_(std::move(hub)),
      remote_(endpoint_text(stream_.socket())) {
    // beast reads as much as the buffer has room for, and a flat_buffer that starts empty never
    // grows past 512 bytes when each request is consumed whole: a command's 6 KB body would take
    // a dozen reads. Room for most requests in one read.
    buffer_.reserve(read_buffer_bytes);
}

Session::~Session() {
    hub_->remove(this);
}

void Session::start() {
    if (!hub_->add(shared_from_this())) return;  // stopping: the socket closes with this session
    asio::dispatch(stream_.get_executor(), [self = shared_from_this()] { self->read_header(); });
}

void Session::close_if_idle() {
    asio::post(stream_.get_executor(), [self = shared_from_this()] {
        if (self->ws_) {  // a stream is never idle: say goodbye (1001) instead
            self->ws_->stopping = true;
            self->ws_->poll_timer.cancel();
            self->ws_flush();
            return;
        }
        if (!self->busy_) self->stream_.cancel();
    });
}

void Session::close_now() {
    asio::post(stream_.get_executor(), [self = shared_from_this()] {
        self->delay_timer_.cancel();
        self->stream_.close();
    });
}

// A request has read_timeout from its first byte to its last, header and body, however slowly
// it comes; before its first byte the connection is idle. A request already buffered (pipelined)
// starts at once.
void Session::read_header() {
    if (hub_->stopping()) return shut_down();
    const ServerOptions& options = hub_->options();
    parser_.emplace();
    parser_->header_limit(options.max_header_bytes);
    parser_->body_limit(options.max_body_bytes);
    method_ = target_ = "-";
    if (buffer_.size() > 0) return start_request();
    stream_.expires_after(options.idle_timeout);
    stream_.async_read_some(buffer_.prepare(beast::read_size(buffer_, 65536)),
                            [self = shared_from_this()](beast::error_code ec, std::size_t n) {
                                if (ec) return self->on_header(ec);
                                self->buffer_.commit(n);
                                self->start_request();
                            });
}

void Session::start_request() {
    request_deadline_ = std::chrono::steady_clock::now() + hub_->options().read_timeout;
    // Most headers come whole in the first read, and most bodies with them: parse them here
    // (eagerly: the body too) rather than through further asynchronous reads, whose completions
    // would be posted and whose timeouts would each set a timer.
    beast::error_code ec;
    parser_->eager(true);
    buffer_.consume(parser_->put(buffer_.data(), ec));
    if (ec != bhttp::error::need_more || parser_->is_header_done())
        return on_header(ec == bhttp::error::need_more ? beast::error_code{} : ec);
    stream_.expires_at(request_deadline_);
    bhttp::async_read_header(
        stream_, buffer_, *parser_,
        [self = shared_from_this()](beast::error_code ec, std::size_t) { self->on_header(ec); });
}

void Session::on_header(beast::error_code ec) {
    started_ = std::chrono::steady_clock::now();
    if (ec) return is_quiet_close(ec) ? shut_down() : reject(ec);
    busy_ = true;
    const auto& req = parser_->get();
    method_.assign(req.method_string());
    target_.assign(req.target());
    if (http::iequals(req[bhttp::field::expect], "100-continue")) return send_continue();
    read_body();
}

void Session::send_continue() {
    auto cont = std::make_shared<bhttp::response<bhttp::empty_body>>(bhttp::status::continue_, 11);
    bhttp::async_write(stream_, *cont,
                       [self = shared_from_this(), cont](beast::error_code ec, std::size_t) {
                           if (ec) return self->shut_down();
                           self->read_body();
                       });
}

void Session::read_body() {
    // A request without a body (a GET, mostly) is whole once its header is: answer it at once
    // rather than through another asynchronous read, whose completion would be posted.
    if (parser_->is_done()) return on_body({});
    stream_.expires_at(request_deadline_);
    bhttp::async_read(
        stream_, buffer_, *parser_,
        [self = shared_from_this()](beast::error_code ec, std::size_t) { self->on_body(ec); });
}

void Session::on_body(beast::error_code ec) {
    if (ec) return is_quiet_close(ec) ? shut_down() : reject(ec);
    auto req = parser_->release();
    const bool keep_alive = req.keep_alive() && !hub_->stopping();
    const bool head = req.method() == bhttp::verb::head;
    const bool upgrade = beast::websocket::is_upgrade(req);
    if (upgrade) upgrade_request_.emplace(req.base());
    http::Request request = to_request(std::move(req));
    request.websocket_upgrade = upgrade;
    if (head) {  // transparent HEAD where the area allows it: answered as GET, without the body
        request.method = "GET";
        request.head = true;
    }
    http::Response response;
    try {
        response = hub_->router().handle(request);
    } catch (const std::exception& e) {
        spdlog::error("{} {}: {}", method_, target_, e.what());
        response = http::Response::text(500, "There was an internal server error.");
    }
    if (response.deferred) {
        // The answer comes later, from another thread: back on this session's strand then.
        auto deferred = std::move(response.deferred);
        deferred([self = shared_from_this(), keep_alive, head, area = response.area,
                  route = response.route](http::Response r) {
            if (r.area.empty()) r.area = area;
            if (r.route.empty()) r.route = route;
            asio::post(self->stream_.get_executor(),
                       [self, r = std::move(r), keep_alive, head]() mutable {
                           self->respond(std::move(r), keep_alive, head);
                       });
        });
        return;
    }
    respond(std::move(response), keep_alive, head);
}

void Session::respond(http::Response response, bool keep_alive, bool head) {
    if (response.delay.count() > 0) {
        delay_timer_.expires_after(std::exchange(response.delay, {}));
        delay_timer_.async_wait([self = shared_from_this(), response = std::move(response),
                                 keep_alive, head](beast::error_code ec) mutable {
            if (ec) return self->shut_down();  // the server closed the session meanwhile
            self->respond(std::move(response), keep_alive, head);
        });
        return;
    }
    area_ = response.area;
    route_ = response.route;
    if (response.stream && upgrade_request_) return upgrade(std::move(response));
    upgrade_request_.reset();
    if (response.reset) {
        status_ = 444;  // nginx's code for a connection closed without an answer
        bytes_ = 0;
        return reset_connection();
    }
    // The message outlives this call in the session: one response is written at a time.
    auto& res = response_;
    res = bhttp::response<bhttp::string_body>(static_cast<bhttp::status>(response.status), 11);
    res.set(bhttp::field::server, hub_->options().server_header);
    res.set(bhttp::field::date, http_date());
    if (!response.content_type.empty()) res.set(bhttp::field::content_type, response.content_type);
    for (const auto& h : response.headers) res.insert(h.name, h.value);
    status_ = response.status;
    bytes_ = response.body.size();
    res.keep_alive(keep_alive);
    if (head) {
        res.content_length(response.body.size());
    } else {
        res.body() = std::move(response.body);
        res.prepare_payload();
    }
    stream_.expires_after(hub_->options().read_timeout);
    bhttp::async_write(stream_, res,
                       [self = shared_from_this(), keep_alive](beast::error_code ec, std::size_t) {
                           self->on_written(ec, keep_alive);
                       });
}

void Session::log_access() {
    if (!hub_->options().access_log) return;
    const auto micros = std::chrono::duration_cast<std::chrono::microseconds>(
                            std::chrono::steady_clock::now() - started_)
                            .count();
    hub_->log_access(AccessRecord{.method = method_,
                                  .target = target_,
                                  .status = status_,
                                  .bytes = bytes_,
                                  .micros = micros,
                                  .area = area_,
                                  .route = route_,
                                  .remote = remote_});
}

void Session::on_written(beast::error_code ec, bool keep_alive) {
    busy_ = false;
    log_access();
    if (ec || !keep_alive) return shut_down();
    read_header();
}

// ---- WebSocket ----

void Session::upgrade(http::Response response) {
    namespace ws = beast::websocket;
    status_ = 101;
    bytes_ = 0;
    stream_.expires_never();  // the WebSocket keeps its own timeouts
    ws_ = std::make_unique<WebSocketState>(stream_, std::move(response.stream));
    ws::stream_base::timeout timeouts{};
    timeouts.handshake_timeout = hub_->options().read_timeout;
    timeouts.idle_timeout = ws::stream_base::none();
    timeouts.keep_alive_pings = false;
    ws_->ws.set_option(timeouts);
    ws_->ws.set_option(ws::stream_base::decorator(
        [server = hub_->options().server_header,
         protocol = std::move(response.subprotocol)](ws::response_type& res) {
            res.set(bhttp::field::server, server);
            if (!protocol.empty()) res.set(bhttp::field::sec_websocket_protocol, protocol);
        }));
    ws_->ws.async_accept(*upgrade_request_, [self = shared_from_this()](beast::error_code ec) {
        self->on_accepted(ec);
    });
}

void Session::on_accepted(beast::error_code ec) {
    upgrade_request_.reset();
    if (ec) status_ = 400;  // Beast answered the failed handshake itself
    log_access();
    if (ec) return shut_down();
    ws_read();
}

void Session::ws_read() {
    ws_->in.clear();
    ws_->ws.async_read(ws_->in, [self = shared_from_this()](beast::error_code ec, std::size_t) {
        WebSocketState& w = *self->ws_;
        if (ec) {  // the client closed (Beast answered its close frame), or the socket is gone
            w.closed = true;
            w.poll_timer.cancel();
            return;
        }
        if (w.ws.got_text() && !w.done && !w.stopping) {
            const std::string text = beast::buffers_to_string(w.in.data());
            http::MessageStream::Output out;
            try {
                out = w.messages->on_message(text);
            } catch (const std::exception& e) {
                spdlog::error("{} {}: {}", self->method_, self->target_, e.what());
                out.done = true;
            }
            w.started = true;
            self->ws_send(std::move(out));
        }
        self->ws_read();
    });
}

void Session::ws_send(http::MessageStream::Output out) {
    for (std::string& m : out.messages) ws_->out.push_back(std::move(m));
    if (out.done) ws_->done = true;
    ws_flush();
}

void Session::ws_flush() {
    namespace ws = beast::websocket;
    WebSocketState& w = *ws_;
    if (w.writing || w.closed || w.closing) return;
    if (!w.stopping && !w.out.empty()) {
        w.writing = true;
        w.ws.text(true);
        w.ws.async_write(asio::buffer(w.out.front()),
                         [self = shared_from_this()](beast::error_code ec, std::size_t n) {
                             WebSocketState& s = *self->ws_;
                             s.writing = false;
                             s.out.pop_front();
                             self->bytes_ += n;
                             if (ec) {
                                 s.closed = true;
                                 s.poll_timer.cancel();
                                 return;
                             }
                             self->ws_flush();
                         });
        return;
    }
    if (w.done || w.stopping) {
        w.closing = true;
        w.poll_timer.cancel();
        w.ws.async_close(w.stopping ? ws::close_code::going_away : ws::close_code::normal,
                         [self = shared_from_this()](beast::error_code) {
                             // The pending read ends once the client answers the close.
                         });
        return;
    }
    if (w.started) ws_poll_later();
}

void Session::ws_poll_later() {
    WebSocketState& w = *ws_;
    if (w.poll_armed) return;
    w.poll_armed = true;
    w.poll_timer.expires_after(ws_poll_interval);
    w.poll_timer.async_wait([self = shared_from_this()](beast::error_code ec) {
        WebSocketState& s = *self->ws_;
        s.poll_armed = false;
        if (ec || s.closed || s.done || s.stopping) return;
        http::MessageStream::Output out;
        try {
            out = s.messages->poll();
        } catch (const std::exception& e) {
            spdlog::error("{} {}: {}", self->method_, self->target_, e.what());
            out.done = true;
        }
        self->ws_send(std::move(out));
    });
}

void Session::reset_connection() {
    // SO_LINGER with a zero timeout: close() sends RST, not FIN, and drops what is unsent.
    beast::error_code ignored;
    stream_.socket().set_option(asio::socket_base::linger(true, 0), ignored);
    stream_.close();
    on_written(asio::error::connection_reset, false);
}

void Session::reject(beast::error_code ec) {
    busy_ = true;
    if (ec == bhttp::error::body_limit) {
        return respond(http::Response::text(
                           413, "Request Content-Length exceeds the configured limit of " +
                                    std::to_string(hub_->options().max_body_bytes) + " bytes"),
                       false);
    }
    if (ec == bhttp::error::header_limit) {
        return respond(http::Response::text(
                           431, "HTTP header section exceeds the configured limit of " +
                                    std::to_string(hub_->options().max_header_bytes) + " bytes"),
                       false);
    }
    respond(http::Response::text(400, "Illegal request: " + ec.message()), false);
}

void Session::shut_down() {
    beast::error_code ignored;
    stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
    stream_.close();
}

}  // namespace cantonlite::net
