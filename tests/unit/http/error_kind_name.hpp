#pragma once
// Test helper: ErrorKind names for parameterized test names and failure messages.

#include <ostream>
#include <string>

#include "cantonlite/http/api_error.hpp"

namespace cantonlite::http {

// "NotFound" for ErrorKind::not_found: a valid GoogleTest parameter name.
inline std::string error_kind_name(ErrorKind kind) {
    switch (kind) {
        case ErrorKind::invalid_argument:
            return "InvalidArgument";
        case ErrorKind::failed_precondition:
            return "FailedPrecondition";
        case ErrorKind::out_of_range:
            return "OutOfRange";
        case ErrorKind::unauthenticated:
            return "Unauthenticated";
        case ErrorKind::permission_denied:
            return "PermissionDenied";
        case ErrorKind::not_found:
            return "NotFound";
        case ErrorKind::already_exists:
            return "AlreadyExists";
        case ErrorKind::content_too_large:
            return "ContentTooLarge";
        case ErrorKind::too_many_requests:
            return "TooManyRequests";
        case ErrorKind::internal:
            return "Internal";
        case ErrorKind::unimplemented:
            return "Unimplemented";
        case ErrorKind::unavailable:
            return "Unavailable";
    }
    return "Unknown";
}

// Lets GoogleTest print an ErrorKind by name.
inline void PrintTo(ErrorKind kind, std::ostream* os) {
    *os << error_kind_name(kind);
}

// The parameter-name generator of a table whose rows have a `kind` member.
struct KindParamName {
    template <typename Info>
    std::string operator()(const Info& info) const {
        return error_kind_name(info.param.kind);
    }
};

}  // namespace cantonlite::http
