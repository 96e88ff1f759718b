#include "cantonlite/http/api_error.hpp"

namespace cantonlite::http {

int http_status(ErrorKind kind) {
    switch (kind) {
        case ErrorKind::invalid_argument:
        case ErrorKind::failed_precondition:
        case ErrorKind::out_of_range:
            return 400;
        case ErrorKind::unauthenticated:
            return 401;
        case ErrorKind::permission_denied:
            return 403;
        case ErrorKind::not_found:
            return 404;
        case ErrorKind::already_exists:
            return 409;
        case ErrorKind::content_too_large:
            return 413;
        case ErrorKind::too_many_requests:
            return 429;
        case ErrorKind::internal:
            return 500;
        case ErrorKind::unimplemented:
            return 501;
        case ErrorKind::unavailable:
            return 503;
    }
    return 500;
}

ApiError::ApiError(ErrorKind kind, std::string code, const std::string& message, KeyValues context,
                   KeyValues resources)
    : std::runtime_error(message),
      kind_(kind),
      code_(std::move(code)),
      context_(std::move(context)),
      resources_(std::move(resources)) {}

}  // namespace cantonlite::http
