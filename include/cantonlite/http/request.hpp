#pragma once
// Request: an HTTP request as the areas see it, free of any socket or Beast type.

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace cantonlite::http {

struct Header {
    std::string name;  // as sent; compare case-insensitively
    std::string value;
};

// One parsed HTTP request. Plain data; the session fills it, handlers read it.
struct Request {
    std::string method;  // "GET", "POST", ... as sent
    std::string target;  // origin-form request target: path plus optional "?query"
    std::vector<Header> headers;
    std::string body;
    // A HEAD request, given to the areas as a GET (method "GET"): the session sends the answer's
    // headers without its body. The Splice areas refuse it as their routes do (Pekko's
    // transparent-head-requests is off there).
    bool head = false;
    // A GET asking to upgrade to a WebSocket (Connection: upgrade, Upgrade: websocket,
    // Sec-WebSocket-Key and -Version 13): a route that streams answers with Response::stream.
    bool websocket_upgrade = false;

    // The target without its query string.
    [[nodiscard]] std::string_view path() const;

    // The value of the first header named `name` (case-insensitive), if any.
    [[nodiscard]] std::optional<std::string_view> header(std::string_view name) const;

    // The token of "Authorization: Bearer <token>" (scheme case-insensitive, leading spaces
    // skipped); nullopt for no header, another scheme or an empty token.
    [[nodiscard]] std::optional<std::string_view> bearer_token() const;

    // The first query parameter `name`, decoded ('+' is a space, %XX escapes). nullopt when absent;
    // an empty optional string when present but empty or not decodable.
    [[nodiscard]] std::optional<std::string> query_param(std::string_view name) const;

    // Every value of query parameter `name`, in the order sent, decoded as query_param decodes
    // them (a repeated parameter, as tapir's query[List[String]] reads it).
    [[nodiscard]] std::vector<std::string> query_params(std::string_view name) const;
};

// ASCII case-insensitive equality, for header names and tokens.
[[nodiscard]] bool iequals(std::string_view a, std::string_view b);

}  // namespace cantonlite::http
