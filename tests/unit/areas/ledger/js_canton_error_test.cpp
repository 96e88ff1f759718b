#include "cantonlite/areas/ledger/js_canton_error.hpp"

#include <functional>
#include <regex>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cantonlite/areas/ledger/ledger_area.hpp"
#include "cantonlite/http/path.hpp"
#include "cantonlite/model/network.hpp"
#include "cantonlite/store/ledger_store.hpp"
#include "http/error_kind_name.hpp"

namespace cantonlite::areas::ledger::js_canton_error_test {
namespace {

using http::ApiError;
using http::DecodeError;
using http::ErrorKind;
using nlohmann::json;
using nlohmann::ordered_json;

const std::string tid = "99e67812af315256ef9a02a9fdb94646";

// The key order of circe's derived JsCantonError codec (canton-ledger-behavior.md §5.1).
const std::vector<std::string> js_canton_error_keys{
    "code",      "cause",         "correlationId", "traceId",   "context",
    "resources", "errorCategory", "grpcCodeValue", "retryInfo", "definiteAnswer"};

std::vector<std::string> keys_of(const ordered_json& object) {
    std::vector<std::string> keys;
    for (const auto& [key, _] : object.items()) keys.push_back(key);
    return keys;
}

// --- category_of ---------------------------------------------------------------------------

struct CategoryCase {
    ErrorKind kind;
    int id;
    int grpc_code;
    bool redacted;
    bool retryable;
};

class CategoryOf : public testing::TestWithParam<CategoryCase> {};

TEST_P(CategoryOf, MatchesCantonsCategoryTable) {
    const CategoryCase& c = GetParam();

    const ErrorCategory category = category_of(c.kind);

    EXPECT_EQ(category.id, c.id);
    EXPECT_EQ(category.grpc_code, c.grpc_code);
    EXPECT_EQ(category.redacted, c.redacted);
    EXPECT_EQ(category.retryable, c.retryable);
}

// canton-ledger-behavior.md §5.3.
INSTANTIATE_TEST_SUITE_P(
    Kinds, CategoryOf,
    testing::Values(CategoryCase{ErrorKind::invalid_argument, 8, 3, false, false},
                    CategoryCase{ErrorKind::failed_precondition, 9, 9, false, false},
                    CategoryCase{ErrorKind::out_of_range, 12, 11, false, true},
                    CategoryCase{ErrorKind::unauthenticated, 6, 16, true, false},
                    CategoryCase{ErrorKind::permission_denied, 7, 7, true, false},
                    CategoryCase{ErrorKind::not_found, 11, 5, false, false},
                    CategoryCase{ErrorKind::already_exists, 10, 6, false, false},
                    CategoryCase{ErrorKind::too_many_requests, 2, 10, false, true},
                    CategoryCase{ErrorKind::content_too_large, 2, 10, false, true},
                    CategoryCase{ErrorKind::internal, 4, 13, true, false},
                    CategoryCase{ErrorKind::unimplemented, 14, 12, true, false},
                    CategoryCase{ErrorKind::unavailable, 1, 14, false, true}),
    http::KindParamName{});

// --- js_canton_error -----------------------------------------------------------------------

TEST(JsCantonError, WritesAllTenKeysInCircesOrder) {
    const ApiError error(ErrorKind::not_found, "UPDATE_NOT_FOUND",
                         "Update not found, or not visible.");

    const ordered_json body = js_canton_error(error, tid);

    EXPECT_EQ(keys_of(body), js_canton_error_keys);
}

TEST(JsCantonError, RedactedFormAlsoWritesAllTenKeysInOrder) {
    const ApiError error(ErrorKind::permission_denied, "PERMISSION_DENIED", "no");

    const ordered_json body = js_canton_error(error, tid);

    EXPECT_EQ(keys_of(body), js_canton_error_keys);
}

TEST(JsCantonError, UpdateNotFoundCarriesContextAndResource) {
    const ApiError error(ErrorKind::not_found, "UPDATE_NOT_FOUND",
                         "Update not found, or not visible.", {}, {{"OFFSET", "42"}});

    const json body = js_canton_error(error, tid);

    EXPECT_EQ(body, json::parse(R"json({
        "code": "UPDATE_NOT_FOUND",
        "cause": "Update not found, or not visible.",
        "correlationId": null,
        "traceId": "99e67812af315256ef9a02a9fdb94646",
        "context": {"category": "11", "definite_answer": "false",
                    "tid": "99e67812af315256ef9a02a9fdb94646"},
        "resources": [["ErrorResource(OFFSET)", "42"]],
        "errorCategory": 11,
        "grpcCodeValue": 5,
        "retryInfo": null,
        "definiteAnswer": null
    })json"));
}

// The docs example of canton-ledger-behavior.md §5.1, without the participant's logger properties.
TEST(JsCantonError, InvalidArgumentMatchesTheDocsExample) {
    const ApiError error(ErrorKind::invalid_argument, "INVALID_ARGUMENT",
                         "The submitted request has invalid arguments: Cannot unassign contract",
                         {{"test", "JsonV2Tests"}});

    const json body = js_canton_error(error, tid);

    EXPECT_EQ(body, json::parse(R"json({
        "cause": "The submitted request has invalid arguments: Cannot unassign contract",
        "code": "INVALID_ARGUMENT",
        "context": {"category": "8", "definite_answer": "false", "test": "JsonV2Tests",
                    "tid": "99e67812af315256ef9a02a9fdb94646"},
        "correlationId": null, "definiteAnswer": null, "errorCategory": 8, "grpcCodeValue": 3,
        "resources": [], "retryInfo": null, "traceId": "99e67812af315256ef9a02a9fdb94646"
    })json"));
}

// Endpoints.handleListLimit: JsCantonError.fromErrorCode of MaximumNumberOfElements (§5.1 B).
TEST(JsCantonError, AnErrorOfTheJsonLayerHasItsOwnContextAndADefiniteAnswer) {
    const ApiError error =
        ApiError(ErrorKind::content_too_large, "JSON_API_MAXIMUM_LIST_ELEMENTS_NUMBER_REACHED",
                 "The number of matching elements (201) is greater than the node limit (200).")
            .built_by_json_layer();

    const json body = js_canton_error(error, tid);

    EXPECT_EQ(body, json::parse(R"json({
        "code": "JSON_API_MAXIMUM_LIST_ELEMENTS_NUMBER_REACHED",
        "cause": "The number of matching elements (201) is greater than the node limit (200).",
        "correlationId": "99e67812af315256ef9a02a9fdb94646",
        "traceId": "99e67812af315256ef9a02a9fdb94646",
        "context": {}, "resources": [], "errorCategory": 2, "grpcCodeValue": 10,
        "retryInfo": "1 second", "definiteAnswer": false
    })json"));
}

TEST(JsCantonError, MissingFieldKeepsItsOwnContextBeforeTheStandardEntries) {
    const ApiError error(ErrorKind::invalid_argument, "MISSING_FIELD",
                         "The submitted command is missing a mandatory field: event_format",
                         {{"field_name", "event_format"}});

    const ordered_json body = js_canton_error(error, tid);

    EXPECT_EQ(keys_of(body.at("context")),
              (std::vector<std::string>{"field_name", "category", "definite_answer", "tid"}));
    EXPECT_EQ(body.at("context").at("field_name"), "event_format");
}

struct RetryCase {
    ErrorKind kind;
    json retry_info;
};

class JsCantonErrorRetryInfo : public testing::TestWithParam<RetryCase> {};

TEST_P(JsCantonErrorRetryInfo, IsOneSecondForRetryableCategoriesElseNull) {
    const RetryCase& c = GetParam();
    const ApiError error(c.kind, "SOME_CODE", "message");

    const ordered_json body = js_canton_error(error, tid);

    EXPECT_EQ(json(body.at("retryInfo")), c.retry_info);
}

INSTANTIATE_TEST_SUITE_P(Kinds, JsCantonErrorRetryInfo,
                         testing::Values(RetryCase{ErrorKind::unavailable, "1 second"},
                                         RetryCase{ErrorKind::too_many_requests, "1 second"},
                                         RetryCase{ErrorKind::out_of_range, "1 second"},
                                         RetryCase{ErrorKind::invalid_argument, nullptr},
                                         RetryCase{ErrorKind::failed_precondition, nullptr},
                                         RetryCase{ErrorKind::not_found, nullptr},
                                         RetryCase{ErrorKind::already_exists, nullptr}),
                         http::KindParamName{});

struct RedactedCase {
    ErrorKind kind;
    int grpc_code;
};

class JsCantonErrorRedacted : public testing::TestWithParam<RedactedCase> {};

TEST_P(JsCantonErrorRedacted, HidesCodeCauseContextAndResources) {
    const RedactedCase& c = GetParam();
    const ApiError error(c.kind, "SECRET_CODE", "secret cause", {{"user", "alice"}},
                         {{"PARTY", "alice::1"}});

    const json body = js_canton_error(error, tid);

    EXPECT_EQ(body, (json{{"code", "NA"},
                          {"cause", "A security-sensitive error has been received"},
                          {"correlationId", tid},
                          {"traceId", tid},
                          {"context", json::object()},
                          {"resources", json::array()},
                          {"errorCategory", -1},
                          {"grpcCodeValue", c.grpc_code},
                          {"retryInfo", nullptr},
                          {"definiteAnswer", nullptr}}));
}

INSTANTIATE_TEST_SUITE_P(Kinds, JsCantonErrorRedacted,
                         testing::Values(RedactedCase{ErrorKind::unauthenticated, 16},
                                         RedactedCase{ErrorKind::permission_denied, 7},
                                         RedactedCase{ErrorKind::internal, 13},
                                         RedactedCase{ErrorKind::unimplemented, 12}),
                         http::KindParamName{});

TEST(NewTraceId, IsThirtyTwoLowerCaseHexDigits) {
    const std::string id = new_trace_id();

    EXPECT_TRUE(std::regex_match(id, std::regex("[0-9a-f]{32}"))) << id;
}

TEST(NewTraceId, DiffersBetweenCalls) {
    const std::string first = new_trace_id();
    const std::string second = new_trace_id();

    EXPECT_NE(first, second);
}

// --- LedgerArea: how the ledger family renders its errors -----------------------------------

// The ledger area with one route that runs what the test hands it.
class TestLedgerArea : public LedgerArea {
  public:
    TestLedgerArea(const store::LedgerStore& store, std::function<http::Response()> action)
        : LedgerArea(store) {
        add_route("POST", "/v2/test/throwing-route",
                  [action = std::move(action)](const http::RequestContext&) { return action(); });
    }

    http::Response post(std::vector<http::Header> headers = {}) const {
        const http::Request request{
            .method = "POST", .target = "/v2/test/throwing-route", .headers = std::move(headers)};
        return handle(request, *http::split_path(request.path()));
    }
};

class LedgerAreaErrorTest : public testing::Test {
  protected:
    store::LedgerStore store_{model::Network{.dso_party = "DSO::1220ab"}, model::Timestamp{}};
};

TEST_F(LedgerAreaErrorTest, RendersApiErrorAsJsCantonErrorJson) {
    const TestLedgerArea area(store_, []() -> http::Response {
        throw ApiError(ErrorKind::not_found, "UPDATE_NOT_FOUND",
                       "Update not found, or not visible.", {}, {{"OFFSET", "42"}});
    });

    const http::Response response = area.post();

    EXPECT_EQ(response.status, 404);
    EXPECT_EQ(response.content_type, "application/json");
    const ordered_json body = ordered_json::parse(response.body);
    EXPECT_EQ(keys_of(body), js_canton_error_keys);
    EXPECT_EQ(body.at("code"), "UPDATE_NOT_FOUND");
    EXPECT_EQ(body.at("resources"),
              ordered_json::array({ordered_json::array({"ErrorResource(OFFSET)", "42"})}));
}

TEST_F(LedgerAreaErrorTest, GivesEachErrorAFreshTraceIdAlsoInContext) {
    const TestLedgerArea area(store_, []() -> http::Response {
        throw ApiError(ErrorKind::invalid_argument, "INVALID_ARGUMENT", "bad");
    });

    const json body = json::parse(area.post().body);

    ASSERT_TRUE(body.at("traceId").is_string());
    const std::string trace_id = body.at("traceId");
    EXPECT_TRUE(std::regex_match(trace_id, std::regex("[0-9a-f]{32}"))) << trace_id;
    EXPECT_EQ(body.at("context").at("tid"), trace_id);
}

// §7.1: a W3C traceparent is the request's trace context; its trace id is the error's tid.
TEST_F(LedgerAreaErrorTest, TakesTheTraceIdOfATraceparentHeader) {
    const TestLedgerArea area(store_, []() -> http::Response {
        throw ApiError(ErrorKind::not_found, "UPDATE_NOT_FOUND", "gone");
    });

    const json body = json::parse(
        area.post({{"traceparent", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"}})
            .body);

    EXPECT_EQ(body.at("traceId"), "4bf92f3577b34da6a3ce929d0e0e4736");
    EXPECT_EQ(body.at("context").at("tid"), "4bf92f3577b34da6a3ce929d0e0e4736");
}

TEST_F(LedgerAreaErrorTest, RedactedErrorsCarryTheTraceparentsTraceIdAsCorrelationId) {
    const TestLedgerArea area(store_, []() -> http::Response {
        throw ApiError(ErrorKind::unauthenticated, "UNAUTHENTICATED", "no token");
    });

    const json body = json::parse(
        area.post({{"traceparent", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"}})
            .body);

    EXPECT_EQ(body.at("correlationId"), "4bf92f3577b34da6a3ce929d0e0e4736");
    EXPECT_EQ(body.at("traceId"), "4bf92f3577b34da6a3ce929d0e0e4736");
}

TEST_F(LedgerAreaErrorTest, IgnoresAnInvalidTraceparent) {
    const TestLedgerArea area(store_, []() -> http::Response {
        throw ApiError(ErrorKind::not_found, "UPDATE_NOT_FOUND", "gone");
    });

    for (const char* invalid :
         {"00-00000000000000000000000000000000-00f067aa0ba902b7-01",
          "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01",
          "00-4bf92f3577b34da6a3ce929d0e0e473-00f067aa0ba902b7-01",
          "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", "garbage"}) {
        const json body = json::parse(area.post({{"traceparent", invalid}}).body);

        const std::string trace_id = body.at("traceId");
        EXPECT_TRUE(std::regex_match(trace_id, std::regex("[0-9a-f]{32}"))) << invalid;
        EXPECT_NE(trace_id, "4bf92f3577b34da6a3ce929d0e0e4736") << invalid;
    }
}

struct LedgerStatusCase {
    ErrorKind kind;
    int status;  // GrpcHttpErrorCodes of the category's gRPC code
};

class LedgerAreaStatus : public testing::TestWithParam<LedgerStatusCase> {};

TEST_P(LedgerAreaStatus, FollowsTheGrpcCodeOfTheCategory) {
    const LedgerStatusCase& c = GetParam();
    const store::LedgerStore store(model::Network{.dso_party = "DSO::1220ab"}, model::Timestamp{});
    const TestLedgerArea area(store,
                              [&]() -> http::Response { throw ApiError(c.kind, "CODE", "m"); });

    const http::Response response = area.post();

    EXPECT_EQ(response.status, c.status)
        << "grpcCodeValue " << json::parse(response.body)["grpcCodeValue"];
}

// canton-ledger-behavior.md §5.3: INVALID_ARGUMENT, FAILED_PRECONDITION, OUT_OF_RANGE -> 400;
// the list limit (ABORTED) -> 413 (Endpoints.handleListLimit);
// UNAUTHENTICATED -> 401; PERMISSION_DENIED -> 403; NOT_FOUND -> 404; ABORTED, ALREADY_EXISTS ->
// 409; INTERNAL -> 500; UNIMPLEMENTED -> 501; UNAVAILABLE -> 503.
INSTANTIATE_TEST_SUITE_P(Kinds, LedgerAreaStatus,
                         testing::Values(LedgerStatusCase{ErrorKind::invalid_argument, 400},
                                         LedgerStatusCase{ErrorKind::failed_precondition, 400},
                                         LedgerStatusCase{ErrorKind::out_of_range, 400},
                                         LedgerStatusCase{ErrorKind::unauthenticated, 401},
                                         LedgerStatusCase{ErrorKind::permission_denied, 403},
                                         LedgerStatusCase{ErrorKind::not_found, 404},
                                         LedgerStatusCase{ErrorKind::already_exists, 409},
                                         LedgerStatusCase{ErrorKind::too_many_requests, 409},
                                         LedgerStatusCase{ErrorKind::content_too_large, 413},
                                         LedgerStatusCase{ErrorKind::internal, 500},
                                         LedgerStatusCase{ErrorKind::unimplemented, 501},
                                         LedgerStatusCase{ErrorKind::unavailable, 503}),
                         http::KindParamName{});

TEST_F(LedgerAreaErrorTest, RendersUnauthenticatedAsRedacted401) {
    const TestLedgerArea area(store_, []() -> http::Response {
        throw ApiError(ErrorKind::unauthenticated, "UNAUTHENTICATED",
                       "The command is missing a (valid) JWT token");
    });

    const http::Response response = area.post();

    EXPECT_EQ(response.status, 401);
    const json body = json::parse(response.body);
    EXPECT_EQ(body.at("code"), "NA");
    EXPECT_EQ(body.at("cause"), "A security-sensitive error has been received");
    EXPECT_EQ(body.at("errorCategory"), -1);
    EXPECT_EQ(body.at("grpcCodeValue"), 16);
}

TEST_F(LedgerAreaErrorTest, RendersAnUnexpectedExceptionAsRedactedInternal) {
    const TestLedgerArea area(store_, []() -> http::Response { throw std::logic_error("bug"); });

    const http::Response response = area.post();

    EXPECT_EQ(response.status, 500);
    EXPECT_EQ(response.content_type, "application/json");
    const json body = json::parse(response.body);
    EXPECT_EQ(body.at("code"), "NA");
    EXPECT_EQ(body.at("cause"), "A security-sensitive error has been received");
    EXPECT_EQ(body.at("errorCategory"), -1);
    EXPECT_EQ(body.at("grpcCodeValue"), 13);
}

TEST_F(LedgerAreaErrorTest, RendersADecodeErrorAsPlainText400) {
    const TestLedgerArea area(store_, []() -> http::Response {
        throw DecodeError("Invalid value for: body (Long at 'offset')");
    });

    const http::Response response = area.post();

    EXPECT_EQ(response.status, 400);
    EXPECT_EQ(response.content_type, "text/plain; charset=UTF-8");
    EXPECT_EQ(response.body, "Invalid value for: body (Long at 'offset')");
}

TEST_F(LedgerAreaErrorTest, ServesThePrefixV2) {
    const LedgerArea area(store_);

    EXPECT_EQ(area.prefix(), "/v2/");
}

}  // namespace
}  // namespace cantonlite::areas::ledger::js_canton_error_test
