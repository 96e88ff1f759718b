#include "cantonlite/areas/splice_area.hpp"

#include <nlohmann/json.hpp>

namespace cantonlite::areas {

http::Response is_live(const http::RequestContext& /*ctx*/) {
    return http::Response::empty(200);
}

std::string splice_error_body(const std::string& message) {
    return nlohmann::json{{"error", message}}.dump();
}

http::Response SpliceArea::render_error(const http::ApiError& error) const {
    return http::Response::json(http::http_status(error.kind()), splice_error_body(error.what()));
}

http::Response SpliceArea::render_decode_error(const http::DecodeError& error) const {
    return http::Response::json(400, splice_error_body(error.what()));
}

}  // namespace cantonlite::areas
