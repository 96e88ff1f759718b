#include "cantonlite/areas/splice_area.hpp"

#include <functional>
#include <stdexcept>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cantonlite/http/path.hpp"
#include "http/error_kind_name.hpp"

namespace cantonlite::areas::splice_area_test {
namespace {

using http::ApiError;
using http::DecodeError;
using http::ErrorKind;
using http::Request;
using http::RequestContext;
using http::Response;

// A Splice area whose only route throws whatever the test hands it.
class ThrowingSpliceArea : public SpliceArea {
  public:
    explicit ThrowingSpliceArea(std::function<Response()> action)
        : SpliceArea("/api/test/", "/api/test") {
        add_route("GET", "/v0/thing",
                  [action = std::move(action)](const RequestContext&) { return action(); });
        add_route("GET", "/livez", is_live);
    }

    Response get(const std::string& target) const {
        const Request request{.method = "GET", .target = target};
        return handle(request, *http::split_path(request.path()));
    }
};

struct KindCase {
    ErrorKind kind;
    int status;
};

class SpliceAreaRendersApiError : public testing::TestWithParam<KindCase> {};

TEST_P(SpliceAreaRendersApiError, AsErrorJsonWithTheKindsStatus) {
    const KindCase& c = GetParam();
    const ThrowingSpliceArea area([&]() -> Response {
        throw ApiError(c.kind, "IGNORED_CODE", "No VoteRequest found contract: 00ab",
                       {{"ignored", "context"}}, {{"IGNORED", "resource"}});
    });

    const Response response = area.get("/api/test/v0/thing");

    EXPECT_EQ(response.status, c.status);
    EXPECT_EQ(response.content_type, "application/json");
    EXPECT_EQ(nlohmann::json::parse(response.body),
              (nlohmann::json{{"error", "No VoteRequest found contract: 00ab"}}));
}

INSTANTIATE_TEST_SUITE_P(
    Kinds, SpliceAreaRendersApiError,
    testing::Values(KindCase{ErrorKind::invalid_argument, 400},
                    KindCase{ErrorKind::failed_precondition, 400},
                    KindCase{ErrorKind::out_of_range, 400},
                    KindCase{ErrorKind::permission_denied, 403},
                    KindCase{ErrorKind::not_found, 404}, KindCase{ErrorKind::already_exists, 409},
                    KindCase{ErrorKind::too_many_requests, 429}, KindCase{ErrorKind::internal, 500},
                    KindCase{ErrorKind::unimplemented, 501}, KindCase{ErrorKind::unavailable, 503}),
    http::KindParamName{});

TEST(SpliceArea, RendersUnauthenticatedAsPekkosPlainTextChallenge) {
    const ThrowingSpliceArea area([]() -> Response {
        throw ApiError(ErrorKind::unauthenticated, "invalid", "invalid",
                       {{"realm", "splice wallet realm"}});
    });

    const Response response = area.get("/api/test/v0/thing");

    EXPECT_EQ(response.status, 401);
    EXPECT_EQ(response.content_type, "text/plain; charset=UTF-8");
    EXPECT_EQ(response.body, "The supplied authentication is invalid");
    EXPECT_EQ(response.header("WWW-Authenticate"), R"(Bearer realm="splice wallet realm")");
}

TEST(SpliceArea, RendersAMissingTokenAsTheMissingCredentialsText) {
    const ThrowingSpliceArea area([]() -> Response {
        throw ApiError(ErrorKind::unauthenticated, "missing", "missing",
                       {{"realm", "splice scan proxy realm"}});
    });

    const Response response = area.get("/api/test/v0/thing");

    EXPECT_EQ(response.status, 401);
    EXPECT_EQ(response.body,
              "The resource requires authentication, which was not supplied with the request");
    EXPECT_EQ(response.header("WWW-Authenticate"), R"(Bearer realm="splice scan proxy realm")");
}

// A thrown error reaches HttpErrorHandler.completeErrorResponse, which writes
// `encodeErrorResponse(ErrorResponse(message)).toString`: circe's spaces2 (HttpErrorHandler.scala
// 131-142 at Splice 0.6.12; circe Json.scala: toString = spaces2).
TEST(SpliceArea, AThrownErrorIsIndentedAsCirceSpaces2) {
    const ThrowingSpliceArea area([]() -> Response {
        throw ApiError(ErrorKind::invalid_argument, "", "Limit must be at least 1.");
    });

    const Response response = area.get("/api/test/v0/thing");

    EXPECT_EQ(response.body, "{\n  \"error\" : \"Limit must be at least 1.\"\n}");
}

// A returned error (`Response.NotFound(ErrorResponse(...))`) goes through guardrail's
// jsonEntityMarshaller, whose printer is Printer.noSpaces (AkkaHttpGenerator.scala 161-175).
TEST(SpliceArea, AReturnedErrorIsCompact) {
    const ThrowingSpliceArea area([]() -> Response {
        throw ApiError(ErrorKind::not_found, "", "No ans entry found for name: x").as_returned();
    });

    const Response response = area.get("/api/test/v0/thing");

    EXPECT_EQ(response.status, 404);
    EXPECT_EQ(response.content_type, "application/json");
    EXPECT_EQ(response.body, R"({"error":"No ans entry found for name: x"})");
}

// A DecodeError is a Pekko rejection, which RejectionHandler.default answers in plain text with
// the error's status.
TEST(SpliceArea, RendersADecodeErrorAsPlainTextWithItsStatus) {
    const ThrowingSpliceArea area([]() -> Response {
        throw DecodeError("Request is missing required query parameter 'before'", 404);
    });

    const Response response = area.get("/api/test/v0/thing");

    EXPECT_EQ(response.status, 404);
    EXPECT_EQ(response.content_type, "text/plain; charset=UTF-8");
    EXPECT_EQ(response.body, "Request is missing required query parameter 'before'");
}

TEST(SpliceArea, RendersAnUnexpectedExceptionAsTheGeneric500) {
    const ThrowingSpliceArea area([]() -> Response { throw std::out_of_range("vector::at"); });

    const Response response = area.get("/api/test/v0/thing");

    EXPECT_EQ(response.status, 500);
    EXPECT_EQ(response.content_type, "application/json");
    EXPECT_EQ(nlohmann::json::parse(response.body),
              (nlohmann::json{{"error", "An unexpected error occurred."}}));
}

TEST(SpliceArea, LivezIsOkWithEmptyBodyAndNoContentType) {
    const ThrowingSpliceArea area([] { return Response::empty(204); });

    const Response response = area.get("/api/test/livez");

    EXPECT_EQ(response.status, 200);
    EXPECT_EQ(response.content_type, "");
    EXPECT_EQ(response.body, "");
    EXPECT_TRUE(response.headers.empty());
}

TEST(SpliceErrorBody, EscapesTheMessageAsAJsonString) {
    const std::string body = http::error_body("Invalid unique identifier `\"x\\y` with\nnewline");

    EXPECT_EQ(nlohmann::json::parse(body),
              (nlohmann::json{{"error", "Invalid unique identifier `\"x\\y` with\nnewline"}}));
}

TEST(SpliceErrorBody, IsCompactJson) {
    EXPECT_EQ(http::error_body("Summary not found for given parameters"),
              R"({"error":"Summary not found for given parameters"})");
}

// circe's Printer escapes every ISO control character, U+007F-U+009F too, in lower-case hex, and
// writes other non-ASCII text as it is (Printer.scala writeEscapedChar, escapeNonAscii = false).
TEST(SpliceErrorBody, EscapesControlCharactersAsCirceDoes) {
    EXPECT_EQ(http::error_body("a\x01"
                               "b\x7f c\xc2\x85 \xc3\xa9",
                               http::ErrorLayout::indented),
              "{\n  \"error\" : \"a\\u0001b\\u007f c\\u0085 \xc3\xa9\"\n}");
}

}  // namespace
}  // namespace cantonlite::areas::splice_area_test
