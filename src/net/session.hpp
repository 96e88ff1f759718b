#pragma once
// Session: one HTTP/1.1 connection; SessionHub: what all sessions of a server share.

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/empty_body.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/string_body.hpp>

#include "cantonlite/http/router.hpp"
#include "cantonlite/net/server.hpp"

namespace cantonlite::net {

class Session;
struct WebSocketState;

// The router, the options and the live sessions of one server. Thread-safe.
class SessionHub {
  public:
    // Flushes of the access log are deferred onto `ioc`.
    SessionHub(const http::Router& router, const ServerOptions& options,
               boost::asio::io_context& ioc);

    const http::Router& router() const { return router_; }
    const ServerOptions& options() const { return options_; }
    bool stopping() const { return stopping_.load(); }

    // Hands `record` to options().access_log and, when options().access_log_flush is set, defers
    // one call of it until the handlers ready now have run (one per burst of responses).
    void log_access(const AccessRecord& record);

    // Registers a session; returns false (and registers nothing) once stopping.
    bool add(const std::shared_ptr<Session>& session);
    void remove(const Session* session);

    // The sessions open now.
    std::size_t size();

    // Whether another session may be added under options().max_connections. When not, `resume`
    // is kept and runs once, on the thread that removes a session, as soon as one may.
    bool has_room_or_wait(std::function<void()> resume);

    // Closes every session now, busy or not (the grace period is over).
    void close_all();

    // Marks the hub stopping and asks every idle session to close. `on_drained` runs once, on the
    // thread that removes the last session (or here, if none is left).
    void begin_stop(std::function<void()> on_drained);

  private:
    std::vector<std::shared_ptr<Session>> live_sessions();  // REQUIRES: mutex_ held

    const http::Router& router_;
    const ServerOptions options_;
    boost::asio::io_context& ioc_;
    std::atomic<bool> flush_deferred_{false};  // a flush of the access log is queued
    std::atomic<bool> stopping_{false};
    std::mutex mutex_;
    std::unordered_map<const Session*, std::weak_ptr<Session>> sessions_;  // guarded by mutex_
    std::function<void()> on_drained_;                                     // guarded by mutex_
    std::function<void()> on_room_;  // the listener, waiting for room; guarded by mutex_
};

// One accepted connection: reads requests one after another, answers each through the router in
// the order they came, and closes on error, timeout, Connection: close or server stop. A request
// a route upgrades to a WebSocket turns the connection into that stream until either side closes.
// Owned by its pending asynchronous operations (shared_ptr); runs on its own strand.
class Session : public std::enable_shared_from_this<Session> {
  public:
    Session(boost::asio::ip::tcp::socket&& socket, std::shared_ptr<SessionHub> hub);
    ~Session();

    // Registers with the hub and starts reading. Closes at once when the server is stopping.
    void start();

    // Closes the connection unless a request is being handled. Safe from any thread.
    void close_if_idle();

    // Closes the connection, abandoning any request in flight. Safe from any thread.
    void close_now();

  private:
    using Parser = boost::beast::http::request_parser<boost::beast::http::string_body>;

    void read_header();
    void start_request();  // the request's first bytes are in buffer_: its read_timeout runs
    void on_header(boost::beast::error_code ec);
    void send_continue();
    void read_body();
    void on_body(boost::beast::error_code ec);
    // Writes the response; a HEAD response keeps its Content-Length but drops its body. An
    // injected fault's delay is waited first; a reset sends nothing and resets the connection.
    void respond(http::Response response, bool keep_alive, bool head = false);
    void reset_connection();
    void on_written(boost::beast::error_code ec, bool keep_alive);
    void reject(boost::beast::error_code ec);  // answers an unreadable request, then closes
    void shut_down();
    void log_access();

    // After a 101: the route's MessageStream over a WebSocket on this connection. One read is
    // always pending (the client's messages, its close); one write at a time sends the stream's
    // messages in order; between them the stream is polled every ws_poll_interval.
    void upgrade(http::Response response);
    void on_accepted(boost::beast::error_code ec);
    void ws_read();
    void ws_send(http::MessageStream::Output out);
    void ws_flush();
    void ws_poll_later();

    boost::beast::tcp_stream stream_;
    boost::asio::steady_timer delay_timer_;  // an injected fault's delay
    static constexpr std::size_t read_buffer_bytes = 16 * 1024;
    boost::beast::flat_buffer buffer_;
    std::optional<Parser> parser_;
    // The header of a request that asks to upgrade to a WebSocket, kept for the handshake.
    std::optional<boost::beast::http::request<boost::beast::http::empty_body>> upgrade_request_;
    std::unique_ptr<WebSocketState> ws_;                                      // once upgraded
    boost::beast::http::response<boost::beast::http::string_body> response_;  // being written
    std::shared_ptr<SessionHub> hub_;
    std::string remote_;
    bool busy_ = false;  // a request is between its header and its written response
    std::chrono::steady_clock::time_point started_;
    std::chrono::steady_clock::time_point request_deadline_;  // its first byte + read_timeout
    std::string method_ = "-";
    std::string target_ = "-";
    int status_ = 0;
    std::size_t bytes_ = 0;
    std::string_view area_;   // of the response being written (http::Response::area)
    std::string_view route_;  // likewise
};

}  // namespace cantonlite::net
