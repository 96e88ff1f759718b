#pragma once
// A small synchronous HTTP/1.1 client, over TCP or TLS: one request per connection, every step
// time-bounded (Beast stays behind this seam, as for the server).

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "cantonlite/http/request.hpp"

namespace cantonlite::net {

// Where a remote API lives: http[s]://host[:port][/base/path].
struct Url {
    bool tls = false;         // https
    std::string host;         // a name or address; an IPv6 address without brackets ("::1")
    std::uint16_t port = 80;  // 80 or 443 when the URL names none
    std::string base_path;    // "/base/path" without a trailing slash; "" when none
};

// Reads `text` as http://host[:port][/path] or https://...; a bracketed IPv6 host
// ("http://[::1]:8080") is kept without its brackets. Anything else (another scheme, user
// information, a query or fragment, no host, a bad port or host) gives nullopt, and `why`
// (unless null) is set to one line saying what is wrong.
[[nodiscard]] std::optional<Url> parse_url(std::string_view text, std::string* why);

// One request to send. Host, Content-Length and Connection are the client's business; a
// Content-Type for a non-empty body goes in `headers`.
struct ClientRequest {
    std::string method = "GET";
    std::string host;  // name or address; an IPv6 address without brackets ("::1")
    std::uint16_t port = 80;
    bool tls = false;          // https: the server's certificate and host name are always verified
    std::string target = "/";  // origin-form: path plus optional "?query"
    std::vector<http::Header> headers;
    std::string body;
};

// The room an answer's body has after its end (in ClientResponse::body's capacity): a JSON parser
// that reads past the end (simdjson reads up to 64 bytes) then parses it where it is, with no copy.
inline constexpr std::size_t body_padding = 64;

// The answer: any status, with its body, Content-Type and Retry-After ("" when there is none).
struct ClientResponse {
    int status = 0;
    std::string content_type;
    std::string retry_after;  // as sent: seconds or an HTTP date
    std::string body;
};

struct ClientOptions {
    std::chrono::milliseconds connect_timeout{30'000};    // name lookup aside: connecting
    std::chrono::milliseconds response_timeout{120'000};  // writing the request, reading the answer
    std::uint64_t max_body_bytes = 256ULL * 1024 * 1024;  // longer answers are an error
    std::string ca_file;  // TLS: a PEM file of trust anchors added to the system's; "" = none
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

// How send_with_retries waits between tries.
struct RetryPolicy {
    int max_attempts = 6;                          // the first try included
    std::chrono::milliseconds first_backoff{200};  // doubled after each failed try
    std::chrono::milliseconds max_backoff{5'000};
};

// Told before each wait of send_with_retries: the try that failed (1 for the first), why
// (the ClientError's text, or "HTTP 503") and how long the wait is.
using RetryObserver =
    std::function<void(int attempt, const std::string& reason, std::chrono::milliseconds backoff)>;

// Sends `request` (meant for idempotent ones) until the answer is not transient: no answer (a
// ClientError) or a status 429, 502, 503 or 504 is tried again, at most policy.max_attempts
// tries in all. Each wait is the backoff with jitter (between half of it and all of it), or the
// Retry-After of a 429 or 503 when it is in seconds, capped at max_backoff. `stop` (may be null)
// is checked before each try and during each wait, at least every 100 ms, and ends the loop with
// ClientError("stopped"); a try under way runs to its end (options' timeouts). `on_retry` may be
// empty. Returns the last answer, transient or not, or throws the last try's ClientError.
[[nodiscard]] ClientResponse send_with_retries(const ClientRequest& request,
                                               const ClientOptions& options,
                                               const RetryPolicy& policy,
                                               const std::atomic<bool>* stop,
                                               const RetryObserver& on_retry);

}  // namespace cantonlite::net
