#include "cantonlite/http/response.hpp"

#include <utility>

namespace cantonlite::http {

Response Response::json(int status, std::string body) {
    return Response{
        .status = status, .content_type = std::string(json_content_type), .body = std::move(body)};
}

Response Response::text(int status, std::string body) {
    return Response{
        .status = status, .content_type = std::string(text_content_type), .body = std::move(body)};
}

Response Response::empty(int status) {
    return Response{.status = status};
}

std::optional<std::string_view> Response::header(std::string_view name) const {
    for (const Header& h : headers) {
        if (iequals(h.name, name)) return h.value;
    }
    return std::nullopt;
}

}  // namespace cantonlite::http
