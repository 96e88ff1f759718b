#pragma once
// A small synchronous HTTP/1.1 client: one request per connection, every step time-bounded
// (Beast stays behind this seam, as for the server).

#include <chrono>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "cantonlite/http/request.hpp"

namespace cantonlite::net {

// One request to send. Host, Content-Length and Connection are the client's business; a
// Content-Type for a non-empty body goes in `headers`.
struct ClientRequest {
    std::string method = "GET";
    std::string host;  // name or address; an IPv6 address without brackets ("::1")
    std::uint16_t port = 80;
    std::string target = "/";  // origin-form: path plus optional "?query"
    std::vector<http::Header> headers;
    std::string body;
};

// The answer: any status, with its body and Content-Type ("" when there is none).
struct ClientResponse {
    int status = 0;
    std::string content_type;
    std::string body;
};

struct ClientOptions {
    std::chrono::milliseconds connect_timeout{30'000};    // name lookup aside: connecting
    std::chrono::milliseconds response_timeout{120'000};  // writing the request, reading the answer
    std::uint64_t max_body_bytes = 256ULL * 1024 * 1024;  // longer answers are an error
};

// No answer was had: the host is unknown, the connection was refused or dropped, a timeout
// expired, or what came back is not HTTP. what() is one line saying why ("Connection refused").
class ClientError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

// Connects, sends `request`, reads the whole response and closes. Throws ClientError.
[[nodiscard]] ClientResponse send_request(const ClientRequest& request,
                                          const ClientOptions& options = {});

}  // namespace cantonlite::net
