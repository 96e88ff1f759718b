#pragma once
// Response: what a handler answers; the session adds the transport headers and writes it.

#include <string>
#include <string_view>
#include <vector>

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

    [[nodiscard]] static Response json(int status, std::string body);
    [[nodiscard]] static Response text(int status, std::string body);
    [[nodiscard]] static Response empty(int status);

    // The value of the first extra header named `name` (case-insensitive), if any.
    [[nodiscard]] std::optional<std::string_view> header(std::string_view name) const;
};

}  // namespace cantonlite::http
