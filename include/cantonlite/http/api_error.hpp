#pragma once
// The two exceptions a handler throws; each area turns them into its own error body.

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace cantonlite::http {

// Why a request understood by the server cannot be served. Each kind has one HTTP status (and,
// for the ledger area, one Canton error category and gRPC code).
enum class ErrorKind {
    invalid_argument,     // 400
    failed_precondition,  // 400
    out_of_range,         // 400
    unauthenticated,      // 401
    permission_denied,    // 403
    not_found,            // 404
    already_exists,       // 409
    content_too_large,    // 413
    too_many_requests,    // 429
    internal,             // 500
    unimplemented,        // 501
    unavailable,          // 503
};

// The HTTP status of a kind, as the real services map it (Splice ErrorHandler, Canton
// GrpcHttpErrorCodes).
[[nodiscard]] int http_status(ErrorKind kind);

using KeyValues = std::vector<std::pair<std::string, std::string>>;

// The request is understood but cannot be served.
//   throw ApiError{ErrorKind::not_found, "UPDATE_NOT_FOUND", "Update not found, or not visible."};
// `code` is the real service's error code where it has one (Canton), else empty. `context` and
// `resources` carry the extra details of a Canton error; the Splice areas ignore them.
class ApiError : public std::runtime_error {
  public:
    ApiError(ErrorKind kind, std::string code, const std::string& message, KeyValues context = {},
             KeyValues resources = {});

    ErrorKind kind() const { return kind_; }
    const std::string& code() const { return code_; }
    const KeyValues& context() const { return context_; }
    const KeyValues& resources() const { return resources_; }

    // Canton errors are DamlErrorWithDefiniteAnswer (context "definite_answer": "false") except the
    // contextualized ones (NON_POSITIVE_OFFSET, ...), which carry no definite answer.
    bool definite_answer() const { return definite_answer_; }
    ApiError& without_definite_answer() {
        definite_answer_ = false;
        return *this;
    }

    // Canton's JSON layer builds some errors itself (JsCantonError.fromErrorCode) instead of
    // receiving them from its gRPC layer: their body carries only the error's own context and a
    // definiteAnswer of its own.
    bool from_json_layer() const { return from_json_layer_; }
    ApiError& built_by_json_layer() {
        from_json_layer_ = true;
        return *this;
    }

    // An error that reaches the JSON API as a plain gRPC status, without Canton's ErrorInfo (the
    // participant's party allocation rejects so): the body carries its description as its code.
    bool plain_status() const { return plain_status_; }
    ApiError& as_plain_status() {
        plain_status_ = true;
        return *this;
    }

    // The correlation id a Canton error carries (a command's submission id), when not its trace
    // id's.
    const std::string& correlation_id() const { return correlation_id_; }
    ApiError& with_correlation_id(std::string id) {
        correlation_id_ = std::move(id);
        return *this;
    }
    // A Splice handler returns some errors as a response of its operation (guardrail marshals them
    // compactly) and throws the others (HttpErrorHandler prints those indented). True for the
    // returned ones.
    bool returned() const { return returned_; }
    ApiError& as_returned() {
        returned_ = true;
        return *this;
    }

  private:
    ErrorKind kind_;
    std::string code_;
    KeyValues context_;
    KeyValues resources_;
    std::string correlation_id_;
    bool definite_answer_ = true;
    bool from_json_layer_ = false;
    bool plain_status_ = false;
    bool returned_ = false;
};

// The request cannot be decoded: malformed JSON, a missing or mistyped field, a bad parameter, an
// unsupported Content-Type. what() is the complete text the area puts in its body; status() is
// 400 unless the framework the area emulates says otherwise (Pekko: 404 for a missing query
// parameter, 415 for an unsupported Content-Type).
//   throw DecodeError{"Invalid value for: body (Long at 'offset')"};
class DecodeError : public std::runtime_error {
  public:
    explicit DecodeError(const std::string& text, int status = 400)
        : std::runtime_error(text), text_(text), status_(status) {}
    int status() const { return status_; }
    // The whole text, NUL bytes included (what() ends at the first).
    const std::string& text() const { return text_; }

  private:
    std::string text_;
    int status_;
};

}  // namespace cantonlite::http
