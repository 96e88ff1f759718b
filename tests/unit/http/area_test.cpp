#include "cantonlite/http/area.hpp"

#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cantonlite/http/path.hpp"

namespace cantonlite::http::area_test {
namespace {

// An area that renders errors as "<kind status> <family>: <message>" so a test sees which
// renderer ran and with what.
class RecordingArea : public Area {
  public:
    RecordingArea() : Area("/api/test/", "/api/test") {
        add_route("GET", "/ok", [](const RequestContext&) { return Response::text(200, "ok"); });
        add_route("GET", "/echo/{id}", [](const RequestContext& ctx) {
            return Response::text(200, ctx.params.get("id") + " " + ctx.request.method);
        });
        add_route("POST", "/echo/{id}", [](const RequestContext&) { return Response::empty(204); });
        add_route("GET", "/api-error", [](const RequestContext&) -> Response {
            throw ApiError(ErrorKind::not_found, "CODE", "nothing here");
        });
        add_route("GET", "/decode-error", [](const RequestContext&) -> Response {
            throw DecodeError("Invalid value for: query parameter parties");
        });
        add_route("GET", "/crash", [](const RequestContext&) -> Response {
            throw std::runtime_error("secret internals");
        });
    }

    Response get(const std::string& method, const std::string& target) const {
        const Request request{.method = method, .target = target, .headers = {{"Host", "h:1"}}};
        return handle(request, *split_path(request.path()));
    }

  protected:
    Response render_error(const ApiError& error, const Request& /*request*/) const override {
        return Response::text(http_status(error.kind()),
                              "api: " + error.code() + " " + error.what());
    }
    Response render_decode_error(const DecodeError& error) const override {
        return Response::text(400, std::string("decode: ") + error.what());
    }
};

TEST(Area, KeepsItsPrefix) {
    const RecordingArea area;

    EXPECT_EQ(area.prefix(), "/api/test/");
}

TEST(Area, PrependsTheBaseToEveryRoute) {
    const RecordingArea area;

    ASSERT_FALSE(area.routes().routes().empty());
    EXPECT_EQ(area.routes().routes()[0].pattern, "/api/test/ok");
}

TEST(Area, CallsTheMatchedHandlerWithItsParameters) {
    const RecordingArea area;

    const Response response = area.get("GET", "/api/test/echo/alice%3A%3A1220");

    EXPECT_EQ(response.status, 200);
    EXPECT_EQ(response.body, "alice::1220 GET");
}

TEST(Area, RendersAnApiErrorWithTheAreasRenderer) {
    const RecordingArea area;

    const Response response = area.get("GET", "/api/test/api-error");

    EXPECT_EQ(response.status, 404);
    EXPECT_EQ(response.body, "api: CODE nothing here");
}

TEST(Area, RendersADecodeErrorWithTheAreasRenderer) {
    const RecordingArea area;

    const Response response = area.get("GET", "/api/test/decode-error");

    EXPECT_EQ(response.status, 400);
    EXPECT_EQ(response.body, "decode: Invalid value for: query parameter parties");
}

TEST(Area, RendersAnyOtherExceptionAsAnInternalErrorWithoutItsText) {
    const RecordingArea area;

    const Response response = area.get("GET", "/api/test/crash");

    EXPECT_EQ(response.status, 500);
    EXPECT_EQ(response.body, "api:  An unexpected error occurred.");
}

TEST(Area, UnknownPathIsTheNotFoundJson) {
    const RecordingArea area;

    const Response response = area.get("GET", "/api/test/missing?x=1");

    EXPECT_EQ(response.status, 404);
    EXPECT_EQ(response.content_type, "application/json");
    EXPECT_EQ(nlohmann::json::parse(response.body),
              (nlohmann::json{{"error",
                               "The requested resource could not be found: "
                               "http://h:1/api/test/missing?x=1"}}));
}

TEST(Area, WrongMethodIsMethodNotAllowedWithAllowHeader) {
    const RecordingArea area;

    const Response response = area.get("DELETE", "/api/test/echo/1");

    EXPECT_EQ(response.status, 405);
    EXPECT_EQ(response.content_type, "text/plain; charset=UTF-8");
    EXPECT_EQ(response.body, "HTTP method not allowed, supported methods: GET, POST");
    EXPECT_EQ(response.header("Allow"), "GET, POST");
}

TEST(NotFoundResponse, NamesTheEffectiveRequestUri) {
    const Request request{
        .method = "GET", .target = "/api/scan/v0/nope", .headers = {{"HOST", "scan.local"}}};

    const Response response = not_found_response(request);

    EXPECT_EQ(response.status, 404);
    EXPECT_EQ(response.content_type, "application/json");
    EXPECT_EQ(nlohmann::json::parse(response.body),
              (nlohmann::json{{"error",
                               "The requested resource could not be found: "
                               "http://scan.local/api/scan/v0/nope"}}));
}

TEST(MethodNotAllowedResponse, ListsOneMethod) {
    const Response response = method_not_allowed_response({"GET"});

    EXPECT_EQ(response.status, 405);
    EXPECT_EQ(response.body, "HTTP method not allowed, supported methods: GET");
    EXPECT_EQ(response.header("allow"), "GET");
}

}  // namespace
}  // namespace cantonlite::http::area_test
