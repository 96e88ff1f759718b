#include "cantonlite/areas/ledger/js_canton_error.hpp"

#include <algorithm>
#include <array>
#include <random>

namespace cantonlite::areas::ledger {

using http::ErrorKind;

int http_status_of_grpc(int grpc_code) {
    switch (grpc_code) {
        case 3:   // INVALID_ARGUMENT
        case 9:   // FAILED_PRECONDITION
        case 11:  // OUT_OF_RANGE
            return 400;
        case 16:  // UNAUTHENTICATED
            return 401;
        case 7:  // PERMISSION_DENIED
            return 403;
        case 5:  // NOT_FOUND
            return 404;
        case 6:   // ALREADY_EXISTS
        case 10:  // ABORTED
            return 409;
        case 8:  // RESOURCE_EXHAUSTED
            return 429;
        case 1:  // CANCELLED
            return 499;
        case 12:  // UNIMPLEMENTED
            return 501;
        case 14:  // UNAVAILABLE
            return 503;
        case 4:  // DEADLINE_EXCEEDED
            return 504;
        default:  // UNKNOWN, INTERNAL, DATA_LOSS
            return 500;
    }
}

ErrorCategory category_of(ErrorKind kind) {
    switch (kind) {
        case ErrorKind::invalid_argument:
            return {.id = 8, .grpc_code = 3, .redacted = false, .retryable = false};
        case ErrorKind::failed_precondition:
            return {.id = 9, .grpc_code = 9, .redacted = false, .retryable = false};
        case ErrorKind::out_of_range:
            return {.id = 12, .grpc_code = 11, .redacted = false, .retryable = true};
        case ErrorKind::unauthenticated:
            return {.id = 6, .grpc_code = 16, .redacted = true, .retryable = false};
        case ErrorKind::permission_denied:
            return {.id = 7, .grpc_code = 7, .redacted = true, .retryable = false};
        case ErrorKind::not_found:
            return {.id = 11, .grpc_code = 5, .redacted = false, .retryable = false};
        case ErrorKind::already_exists:
            return {.id = 10, .grpc_code = 6, .redacted = false, .retryable = false};
        case ErrorKind::too_many_requests:
        case ErrorKind::content_too_large:  // ContentionOnSharedResources, answered with 413
            return {.id = 2, .grpc_code = 10, .redacted = false, .retryable = true};
        case ErrorKind::unimplemented:
            return {.id = 14, .grpc_code = 12, .redacted = true, .retryable = false};
        case ErrorKind::unavailable:
            return {.id = 1, .grpc_code = 14, .redacted = false, .retryable = true};
        case ErrorKind::internal:
            break;
    }
    return {.id = 4, .grpc_code = 13, .redacted = true, .retryable = false};
}

namespace {

// JsCantonError.fromErrorCode (canton-ledger-behavior.md §5.1 B): the error's own context, the
// resource keys as they are, both ids the trace id, and the error's definite answer.
nlohmann::ordered_json json_layer_error(const http::ApiError& error, const std::string& tid) {
    const ErrorCategory category = category_of(error.kind());
    nlohmann::ordered_json context = nlohmann::ordered_json::object();
    for (const auto& [key, value] : error.context()) context[key] = value;
    nlohmann::ordered_json resources = nlohmann::ordered_json::array();
    for (const auto& [key, value] : error.resources()) resources.push_back({key, value});
    nlohmann::ordered_json body;
    body["code"] = error.code();
    body["cause"] = std::string(error.what());
    body["correlationId"] = tid;
    body["traceId"] = tid;
    body["context"] = context;
    body["resources"] = resources;
    body["errorCategory"] = category.id;
    body["grpcCodeValue"] = category.grpc_code;
    body["retryInfo"] =
        category.retryable ? nlohmann::ordered_json("1 second") : nlohmann::ordered_json(nullptr);
    body["definiteAnswer"] =
        error.definite_answer() ? nlohmann::ordered_json(false) : nlohmann::ordered_json(nullptr);
    return body;
}

}  // namespace

int http_status_of(const http::ApiError& error) {
    if (error.kind() == ErrorKind::content_too_large) return 413;  // Endpoints.handleListLimit
    return http_status_of_grpc(category_of(error.kind()).grpc_code);
}

namespace {

// Endpoints' answer to a status without ErrorInfo: its description for a code, no ids.
nlohmann::ordered_json plain_status_error(const http::ApiError& error) {
    static constexpr std::array<const char*, 17> names{"OK",
                                                       "CANCELLED",
                                                       "UNKNOWN",
                                                       "INVALID_ARGUMENT",
                                                       "DEADLINE_EXCEEDED",
                                                       "NOT_FOUND",
                                                       "ALREADY_EXISTS",
                                                       "PERMISSION_DENIED",
                                                       "RESOURCE_EXHAUSTED",
                                                       "FAILED_PRECONDITION",
                                                       "ABORTED",
                                                       "OUT_OF_RANGE",
                                                       "UNIMPLEMENTED",
                                                       "INTERNAL",
                                                       "UNAVAILABLE",
                                                       "DATA_LOSS",
                                                       "UNAUTHENTICATED"};
    const int grpc = category_of(error.kind()).grpc_code;
    nlohmann::ordered_json body;
    body["code"] = error.what();
    body["cause"] = std::string(names.at(static_cast<std::size_t>(grpc))) + ": " + error.what();
    body["correlationId"] = nullptr;
    body["traceId"] = nullptr;
    body["context"] = nlohmann::ordered_json::object();
    body["resources"] = nlohmann::ordered_json::array();
    body["errorCategory"] = -1;
    body["grpcCodeValue"] = grpc;
    body["retryInfo"] = nullptr;
    body["definiteAnswer"] = nullptr;
    return body;
}

}  // namespace

nlohmann::ordered_json js_canton_error(const http::ApiError& error, std::string_view trace_id) {
    if (error.from_json_layer()) return json_layer_error(error, std::string(trace_id));
    if (error.plain_status()) return plain_status_error(error);
    const ErrorCategory category = category_of(error.kind());
    const std::string tid(trace_id);
    nlohmann::ordered_json context = nlohmann::ordered_json::object();
    nlohmann::ordered_json resources = nlohmann::ordered_json::array();
    // A redacted error keeps only what the JSON security stage adds itself (ledger_api_error);
    // details from the gRPC layer never cross (§5.1).
    for (const auto& [key, value] : error.context()) {
        if (!category.redacted || key == "ledger_api_error") context[key] = value;
    }
    if (!category.redacted) {
        context["category"] = std::to_string(category.id);
        if (error.definite_answer()) context["definite_answer"] = "false";
        context["tid"] = tid;
        for (const auto& [key, value] : error.resources()) {
            resources.push_back({"ErrorResource(" + key + ")", value});
        }
    }
    // Keys in the order circe's derived codec writes them.
    nlohmann::ordered_json body;
    body["code"] = category.redacted ? std::string("NA") : error.code();
    body["cause"] = category.redacted ? std::string("A security-sensitive error has been received")
                                      : std::string(error.what());
    body["correlationId"] = category.redacted ? nlohmann::ordered_json(tid)
                            : error.correlation_id().empty()
                                ? nlohmann::ordered_json(nullptr)
                                : nlohmann::ordered_json(error.correlation_id());
    body["traceId"] = tid;
    body["context"] = context;
    body["resources"] = resources;
    body["errorCategory"] = category.redacted ? -1 : category.id;
    body["grpcCodeValue"] = category.grpc_code;
    body["retryInfo"] =
        category.retryable ? nlohmann::ordered_json("1 second") : nlohmann::ordered_json(nullptr);
    body["definiteAnswer"] = nullptr;
    return body;
}

std::optional<std::string> trace_id_of_traceparent(std::string_view header) {
    const auto hex = [](std::string_view s) {
        return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
            return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
        });
    };
    const auto zeros = [](std::string_view s) {
        return std::all_of(s.begin(), s.end(), [](char c) { return c == '0'; });
    };
    // version "-" trace-id "-" parent-id "-" flags; a later version may append "-..." fields.
    if (header.size() < 55 || header[2] != '-' || header[35] != '-' || header[52] != '-')
        return std::nullopt;
    const std::string_view version = header.substr(0, 2);
    const std::string_view trace_id = header.substr(3, 32);
    const std::string_view parent_id = header.substr(36, 16);
    const std::string_view flags = header.substr(53, 2);
    if (!hex(version) || version == "ff" || !hex(trace_id) || zeros(trace_id) || !hex(parent_id) ||
        zeros(parent_id) || !hex(flags)) {
        return std::nullopt;
    }
    if (header.size() > 55 && (version == "00" || header[55] != '-')) return std::nullopt;
    return std::string(trace_id);
}

std::string new_trace_id() {
    thread_local std::mt19937_64 engine{std::random_device{}()};
    static constexpr std::array<char, 16> digits{'0', '1', '2', '3', '4', '5', '6', '7',
                                                 '8', '9', 'a', 'b', 'c', 'd', 'e', 'f'};
    std::string id(32, '0');
    std::uint64_t bits = 0;
    for (std::size_t i = 0; i < id.size(); ++i) {
        if (i % 16 == 0) bits = engine();
        id[i] = digits[bits & 0xF];
        bits >>= 4;
    }
    return id;
}

}  // namespace cantonlite::areas::ledger
