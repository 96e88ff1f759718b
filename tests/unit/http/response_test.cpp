#include "cantonlite/http/response.hpp"

#include <gtest/gtest.h>

namespace cantonlite::http::response_test {
namespace {

TEST(Response, JsonSetsStatusContentTypeAndBody) {
    const Response response = Response::json(404, R"({"error":"x"})");

    EXPECT_EQ(response.status, 404);
    EXPECT_EQ(response.content_type, "application/json");
    EXPECT_EQ(response.body, R"({"error":"x"})");
    EXPECT_TRUE(response.headers.empty());
}

TEST(Response, TextIsPlainUtf8) {
    const Response response = Response::text(400, "Invalid value for: body");

    EXPECT_EQ(response.status, 400);
    EXPECT_EQ(response.content_type, "text/plain; charset=UTF-8");
    EXPECT_EQ(response.body, "Invalid value for: body");
}

TEST(Response, EmptyHasNoContentTypeAndNoBody) {
    const Response response = Response::empty(200);

    EXPECT_EQ(response.status, 200);
    EXPECT_EQ(response.content_type, "");
    EXPECT_EQ(response.body, "");
}

TEST(Response, HeaderLooksUpExtraHeadersCaseInsensitively) {
    Response response = Response::empty(405);
    response.headers.push_back({"Allow", "GET"});

    EXPECT_EQ(response.header("allow"), "GET");
    EXPECT_FALSE(response.header("WWW-Authenticate").has_value());
}

}  // namespace
}  // namespace cantonlite::http::response_test
