#include "cantonlite/http/route_table.hpp"

#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace cantonlite::http::route_table_test {
namespace {

// A handler that answers with `name` as its text body, so a test can tell which route matched.
Handler answer(std::string name) {
    return [name](const RequestContext&) { return Response::text(200, name); };
}

// Calls the matched handler; REQUIRES: m.handler.
std::string call(const RouteTable::Match& m) {
    const Request request{.method = "GET", .target = "/"};
    return (*m.handler)(RequestContext{.request = request, .params = m.params}).body;
}

TEST(RouteTable, MatchesLiteralPath) {
    RouteTable table;
    table.add("GET", "/api/scan/v0/lsu", answer("lsu"));

    const auto m = table.match("GET", {"api", "scan", "v0", "lsu"});

    ASSERT_NE(m.handler, nullptr);
    EXPECT_EQ(call(m), "lsu");
    EXPECT_TRUE(m.allowed.empty());
}

TEST(RouteTable, MatchesPathParameter) {
    RouteTable table;
    table.add("GET", "/api/scan/v0/voterequests/{vote_request_contract_id}", answer("vote"));

    const auto m = table.match("GET", {"api", "scan", "v0", "voterequests", "00ab::cd"});

    ASSERT_NE(m.handler, nullptr);
    EXPECT_EQ(m.params.get("vote_request_contract_id"), "00ab::cd");
}

TEST(RouteTable, MatchesSeveralPathParameters) {
    RouteTable table;
    table.add("GET", "/a/{first}/b/{second}", answer("ab"));

    const auto m = table.match("GET", {"a", "1", "b", "2"});

    ASSERT_NE(m.handler, nullptr);
    EXPECT_EQ(m.params.get("first"), "1");
    EXPECT_EQ(m.params.get("second"), "2");
}

TEST(RouteTable, ParameterDoesNotMatchAnEmptySegment) {
    RouteTable table;
    table.add("GET", "/party/{party}", answer("party"));

    const auto m = table.match("GET", {"party", ""});

    EXPECT_EQ(m.handler, nullptr);
    EXPECT_TRUE(m.allowed.empty());
}

TEST(RouteTable, UnknownPathHasNoHandlerAndNoAllowedMethods) {
    RouteTable table;
    table.add("GET", "/api/scan/v0/lsu", answer("lsu"));

    const auto m = table.match("GET", {"api", "scan", "v0", "nope"});

    EXPECT_EQ(m.handler, nullptr);
    EXPECT_TRUE(m.allowed.empty());
}

TEST(RouteTable, DoesNotMatchAPrefixOrALongerPath) {
    RouteTable table;
    table.add("GET", "/api/scan/v0/lsu", answer("lsu"));

    EXPECT_EQ(table.match("GET", {"api", "scan", "v0"}).handler, nullptr);
    EXPECT_EQ(table.match("GET", {"api", "scan", "v0", "lsu", ""}).handler, nullptr);
    EXPECT_EQ(table.match("GET", {"api", "scan", "v0", "lsu", "x"}).handler, nullptr);
}

TEST(RouteTable, MatchesMethodCaseSensitively) {
    RouteTable table;
    table.add("GET", "/livez", answer("livez"));

    const auto m = table.match("get", {"livez"});

    EXPECT_EQ(m.handler, nullptr);
    EXPECT_EQ(m.allowed, std::vector<std::string>{"GET"});
}

TEST(RouteTable, WrongMethodListsTheAllowedMethodsOnce) {
    RouteTable table;
    table.add("GET", "/x/{id}", answer("get param"));
    table.add("GET", "/x/fixed", answer("get literal"));
    table.add("POST", "/x/{id}", answer("post"));
    table.add("PUT", "/y", answer("other path"));

    const auto m = table.match("DELETE", {"x", "fixed"});

    EXPECT_EQ(m.handler, nullptr);
    EXPECT_EQ(m.allowed, (std::vector<std::string>{"GET", "POST"}));
}

TEST(RouteTable, MatchingMethodClearsAllowed) {
    RouteTable table;
    table.add("POST", "/x", answer("post"));
    table.add("GET", "/x", answer("get"));

    const auto m = table.match("GET", {"x"});

    ASSERT_NE(m.handler, nullptr);
    EXPECT_EQ(call(m), "get");
    EXPECT_TRUE(m.allowed.empty());
}

TEST(RouteTable, LiteralBeatsParameterWhateverTheOrderOfAdding) {
    RouteTable param_first;
    param_first.add("GET", "/v0/{party}", answer("param"));
    param_first.add("GET", "/v0/dso-party-id", answer("literal"));
    RouteTable literal_first;
    literal_first.add("GET", "/v0/dso-party-id", answer("literal"));
    literal_first.add("GET", "/v0/{party}", answer("param"));

    EXPECT_EQ(call(param_first.match("GET", {"v0", "dso-party-id"})), "literal");
    EXPECT_EQ(call(literal_first.match("GET", {"v0", "dso-party-id"})), "literal");
    EXPECT_EQ(call(literal_first.match("GET", {"v0", "alice"})), "param");
}

TEST(RouteTable, LiteralAtTheFirstDifferingSegmentWins) {
    RouteTable table;
    table.add("GET", "/a/{x}/c", answer("param then literal"));
    table.add("GET", "/a/b/{y}", answer("literal then param"));

    const auto m = table.match("GET", {"a", "b", "c"});

    ASSERT_NE(m.handler, nullptr);
    EXPECT_EQ(call(m), "literal then param");
    EXPECT_EQ(m.params.get("y"), "c");
}

TEST(RouteTable, ComparesDecodedSegmentsExactly) {
    RouteTable table;
    table.add("GET", "/by-name/{name}", answer("name"));

    const auto m = table.match("GET", {"by-name", "alice/bob"});

    ASSERT_NE(m.handler, nullptr);
    EXPECT_EQ(m.params.get("name"), "alice/bob");
}

TEST(RouteTable, KeepsRoutesInTheOrderAdded) {
    RouteTable table;
    table.add("GET", "/b", answer("b"));
    table.add("POST", "/a/{id}", answer("a"));

    ASSERT_EQ(table.routes().size(), 2U);
    EXPECT_EQ(table.routes()[0].method, "GET");
    EXPECT_EQ(table.routes()[0].pattern, "/b");
    EXPECT_EQ(table.routes()[1].pattern, "/a/{id}");
    EXPECT_EQ(table.routes()[1].segments, (std::vector<std::string>{"a", "{id}"}));
}

TEST(RouteTable, RejectsADuplicateRoute) {
    RouteTable table;
    table.add("GET", "/v0/lsu", answer("first"));

    EXPECT_THROW(table.add("GET", "/v0/lsu", answer("second")), std::invalid_argument);
}

TEST(RouteTable, AcceptsTheSamePatternForAnotherMethod) {
    RouteTable table;
    table.add("GET", "/v0/lsu", answer("get"));

    EXPECT_NO_THROW(table.add("POST", "/v0/lsu", answer("post")));
}

TEST(RouteTable, TheRootIsARouteOfItsOwn) {
    RouteTable table;
    table.add("GET", "/", answer("root"));
    table.add("GET", "/metrics", answer("metrics"));

    const auto root = table.match("GET", {});
    ASSERT_NE(root.handler, nullptr);
    EXPECT_EQ(*root.pattern, "/");
    EXPECT_EQ(*table.match("GET", {"metrics"}).pattern, "/metrics");
    EXPECT_EQ(table.match("GET", {""}).handler, nullptr);
}

class RouteTableRejectsPattern : public testing::TestWithParam<std::string> {};

TEST_P(RouteTableRejectsPattern, AsInvalidArgument) {
    const std::string& pattern = GetParam();
    RouteTable table;

    EXPECT_THROW(table.add("GET", pattern, answer("x")), std::invalid_argument) << pattern;
}

INSTANTIATE_TEST_SUITE_P(Malformed, RouteTableRejectsPattern,
                         testing::Values("", "v0/lsu", "/v0//lsu", "/v0/lsu/", "/v0/{}", "/v0/{id",
                                         "/v0/id}", "/v0/a{id}", "/v0/%zz"));

}  // namespace
}  // namespace cantonlite::http::route_table_test
