#include "cantonlite/http/request.hpp"

#include <gtest/gtest.h>

namespace cantonlite::http::request_test {
namespace {

TEST(Request, PathIsTheTargetWithoutItsQuery) {
    const Request request{.method = "GET", .target = "/api/scan/v0/lsu?a=1&b=2"};

    EXPECT_EQ(request.path(), "/api/scan/v0/lsu");
}

TEST(Request, PathIsTheWholeTargetWithoutQuery) {
    const Request request{.method = "GET", .target = "/api/scan/v0/lsu"};

    EXPECT_EQ(request.path(), "/api/scan/v0/lsu");
}

TEST(Request, HeaderLooksUpNamesCaseInsensitively) {
    const Request request{.headers = {{"Content-Type", "application/json"}}};

    EXPECT_EQ(request.header("content-type"), "application/json");
    EXPECT_EQ(request.header("CONTENT-TYPE"), "application/json");
}

TEST(Request, HeaderReturnsTheFirstOfRepeatedHeaders) {
    const Request request{.headers = {{"X-A", "first"}, {"x-a", "second"}}};

    EXPECT_EQ(request.header("X-A"), "first");
}

TEST(Request, HeaderIsNulloptWhenAbsent) {
    const Request request{.headers = {{"Host", "h"}}};

    EXPECT_FALSE(request.header("Authorization").has_value());
}

TEST(Iequals, ComparesAsciiCaseInsensitively) {
    EXPECT_TRUE(iequals("TraceParent", "traceparent"));
    EXPECT_FALSE(iequals("traceparent", "traceparent2"));
    EXPECT_FALSE(iequals("a-b", "a_b"));
    EXPECT_TRUE(iequals("", ""));
}

}  // namespace
}  // namespace cantonlite::http::request_test
