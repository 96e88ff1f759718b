#pragma once
// JsCantonError: the body of every non-decode error of the Canton JSON Ledger API v2.

#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "cantonlite/http/api_error.hpp"

namespace cantonlite::areas::ledger {

// A Canton error category: its number, its gRPC status code, whether its details are redacted on
// the wire, and its retry hint (docs/reference/canton-ledger-behavior.md §5.3).
struct ErrorCategory {
    int id;
    int grpc_code;
    bool redacted;
    bool retryable;
};

// The HTTP status the JSON API gives a gRPC status code (Canton GrpcHttpErrorCodes, §5.3).
[[nodiscard]] int http_status_of_grpc(int grpc_code);

// The HTTP status of an error: its category's, except the list limit's 413.
[[nodiscard]] int http_status_of(const http::ApiError& error);

// The category a handler's error kind stands for.
[[nodiscard]] ErrorCategory category_of(http::ErrorKind kind);

// The JsCantonError object, all ten keys, as a Canton 3.5 participant writes it for an error that
// came back from its gRPC layer (canton-ledger-behavior.md §5.1 A). Redacted categories become the
// "security-sensitive" form with code NA. An error built by the JSON layer has the §5.1 B form.
// `trace_id` is the request's 32-hex trace id.
[[nodiscard]] nlohmann::ordered_json js_canton_error(const http::ApiError& error,
                                                     std::string_view trace_id);

// A fresh random 32-hex-digit trace id.
[[nodiscard]] std::string new_trace_id();

// The trace id of a W3C `traceparent` header ("00-<32 hex>-<16 hex>-<2 hex>"); nullopt when the
// header is not a valid one (upper case, all-zero ids, version ff, wrong lengths).
[[nodiscard]] std::optional<std::string> trace_id_of_traceparent(std::string_view header);

}  // namespace cantonlite::areas::ledger
