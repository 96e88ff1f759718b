#pragma once
// Server: the HTTP/1.1 listener, its io threads and its connections (Beast stays behind this seam).

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "cantonlite/http/router.hpp"

namespace cantonlite::net {

// One answered request, as the access log sees it.
struct AccessRecord {
    std::string_view method;  // "-" when the request could not be parsed
    std::string_view target;  // "-" likewise
    int status = 0;
    std::size_t bytes = 0;    // response body bytes
    std::int64_t micros = 0;  // from the request's header being read to its response written
    std::string_view area;    // http::Response::area: the area's prefix, empty when none answered
    std::string_view route;   // http::Response::route: the route's pattern, empty when none matched
    std::string_view remote;  // "127.0.0.1:50312"
};

struct ServerOptions {
    std::string address = "127.0.0.1";               // interface to listen on
    std::uint16_t port = 7575;                       // 0: any free port (see Server::port())
    int io_threads = 1;                              // threads running the io_context
    std::chrono::milliseconds read_timeout{30'000};  // one request, from its first byte to its last
    std::chrono::milliseconds idle_timeout{60'000};  // between requests on a kept-alive connection
    std::uint32_t max_header_bytes = 16 * 1024;      // request line and headers; over: 431
    std::uint64_t max_body_bytes = 8 * 1024 * 1024;  // over: 413
    std::chrono::milliseconds shutdown_grace{5'000};  // in-flight requests get this long on stop()
    // At most this many connections at once (0: no cap). At the cap the server accepts no more
    // until one closes; new connections wait in the kernel's backlog, as Pekko's max-connections.
    std::size_t max_connections = 0;
    std::string server_header = "cantonlite";  // value of the Server response header
    // More listeners on `address` (`serve --localnet`), each answered by a router of its own that
    // must outlive the server; the options above apply to each.
    struct AlsoListen {
        std::uint16_t port = 0;  // 0: any free port (see Server::port(i))
        const http::Router* router = nullptr;
    };
    std::vector<AlsoListen> also_listen;
    std::function<void(const AccessRecord&)> access_log;  // called once per response; may be empty
    // When set, access_log may hold its lines until this is called: on an io thread once the
    // responses that were ready together have been logged (one call per burst, not per response),
    // and once more when the server has stopped.
    std::function<void()> access_log_flush;
};

// An HTTP/1.1 server answering every request through a Router. Keep-alive, pipelined requests
// answered in order, Expect: 100-continue, read and idle timeouts, header and body limits.
// Owns its io_context and threads. start(), stop() and port() are thread-safe.
class Server {
  public:
    // `router` must outlive the server.
    Server(ServerOptions options, const http::Router& router);
    ~Server();  // stops (without grace) and joins
    Server(const Server&) = delete;
    Server& operator=(const Server&) = delete;

    // Binds every listener, listens and starts the io threads. Throws std::system_error, naming
    // the address and port, when one cannot be bound (in use, not local, ...); nothing listens
    // then.
    void start();

    // The bound port: of the main listener, or of options.also_listen[i - 1].
    // REQUIRES: start() returned.
    [[nodiscard]] std::uint16_t port(std::size_t i = 0) const;

    // The connections open now, on every listener.
    [[nodiscard]] std::size_t open_connections() const;

    // Begins a graceful stop and returns at once: no new connections; idle connections are closed;
    // requests in flight are answered (with Connection: close), for at most shutdown_grace.
    void stop();

    // Calls stop() on SIGINT or SIGTERM, from the io threads: before start(), a signal that comes
    // first stops the server once start() runs them. A signal after a stop closes the connections
    // left at once, rather than after shutdown_grace.
    void stop_on_signals();

    // Blocks until the io threads have finished (after stop()), then flushes the access log.
    void wait();

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace cantonlite::net
