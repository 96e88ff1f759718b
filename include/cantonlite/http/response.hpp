#pragma once
// Response: what a handler answers; the session adds the transport headers and writes it.

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "cantonlite/http/message_stream.hpp"
#include "cantonlite/http/request.hpp"

namespace cantonlite::http {

inline constexpr std::string_view json_content_type = "application/json";
inline constexpr std::string_view text_content_type = "text/plain; charset=UTF-8";

// One HTTP response. An empty content_type means no Content-Type header (bodyless answers).
// Content-Length, Server, Date and Connection are the session's business, not the handler's.
struct Response {
    int status = 200;
    std::string content_type;
    std::string body;
    std::vector<Header> headers;  // extra headers: Allow, WWW-Authenticate, ...

    // What answered, for metrics (set by the router and the area; empty where nothing did): the
    // prefix of the area ("/api/scan/") and the pattern of the route that matched
    // ("/api/scan/v0/voterequests/{vote_request_contract_id}"), never the raw path. Both point into
    // the router, which outlives every response.
    std::string_view area;
    std::string_view route;

    // Injected faults (http::FaultTable): the session waits `delay` before it sends this answer,
    // and with `reset` sends none and resets the connection instead.
    std::chrono::milliseconds delay{0};
    bool reset = false;

    // Set when the answer is not known yet (a write waiting for the journal's sync): the session
    // calls it once with a callback, and sends the response that callback is given, from any
    // thread, later. The io thread serves other connections meanwhile. The rest of this response
    // is ignored.
    using Completion = std::function<void(Response)>;
    std::function<void(Completion)> deferred;

    // Set when the request asked to upgrade to a WebSocket and the route takes it: the session
    // answers 101 Switching Protocols (with `subprotocol` as Sec-WebSocket-Protocol when not
    // empty), then runs the stream over the socket. The rest of this response is ignored.
    std::shared_ptr<MessageStream> stream;
    std::string subprotocol;

    [[nodiscard]] static Response json(int status, std::string body);
    [[nodiscard]] static Response text(int status, std::string body);
    [[nodiscard]] static Response empty(int status);

    // The value of the first extra header named `name` (case-insensitive), if any.
    [[nodiscard]] std::optional<std::string_view> header(std::string_view name) const;
};

}  // namespace cantonlite::http
