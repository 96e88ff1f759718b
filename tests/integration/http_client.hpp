#pragma once
// A raw-socket HTTP/1.1 client for tests: sends exact bytes, reads responses one by one.

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cantonlite::testing {

struct RawResponse {
    int status = 0;
    std::vector<std::pair<std::string, std::string>> headers;
    std::string body;

    // The value of the first header named `name` (case-insensitive), if any.
    [[nodiscard]] std::optional<std::string> header(std::string_view name) const;
};

// One TCP connection to 127.0.0.1:port. Not thread-safe; one per thread.
class HttpConnection {
  public:
    explicit HttpConnection(std::uint16_t port);
    ~HttpConnection();
    HttpConnection(const HttpConnection&) = delete;
    HttpConnection& operator=(const HttpConnection&) = delete;

    // Sends raw bytes. Returns false when the peer has closed.
    bool send(std::string_view bytes);

    // Reads the next response (Content-Length framed; HEAD-less). nullopt when the connection
    // closed or nothing arrived within `timeout`.
    [[nodiscard]] std::optional<RawResponse> read_response(
        std::chrono::milliseconds timeout = std::chrono::milliseconds(5000));

    // True when the server has closed the connection (EOF) within `timeout`.
    [[nodiscard]] bool closed_by_peer(
        std::chrono::milliseconds timeout = std::chrono::milliseconds(5000));

  private:
    bool fill(std::chrono::steady_clock::time_point deadline);  // reads more into buffer_

    int fd_ = -1;
    std::string buffer_;
    bool eof_ = false;
};

// A raw TCP connection to 127.0.0.1:port, for tests that hold many; -1 when it cannot be made
// (no descriptor left, refused). The caller closes it.
[[nodiscard]] int connect_raw(std::uint16_t port);

// A request as bytes: "<method> <target> HTTP/1.1", Host, the extra header lines, and the body
// with its Content-Length (when the body is non-empty or the method is POST).
[[nodiscard]] std::string make_request(std::string_view method, std::string_view target,
                                       std::string_view body = "",
                                       std::string_view extra_headers = "");

// One request on a fresh connection.
[[nodiscard]] std::optional<RawResponse> fetch(std::uint16_t port, std::string_view method,
                                               std::string_view target, std::string_view body = "",
                                               std::string_view extra_headers = "");

}  // namespace cantonlite::testing
