#include "cantonlite/http/json_nesting.hpp"

#include <string>

#include <gtest/gtest.h>

namespace cantonlite::http::json_nesting_test {
namespace {

std::string nested(std::size_t levels) {
    return std::string(levels, '[') + std::string(levels, ']');
}

TEST(JsonNesting, CountsArraysAndObjectsInsideOneAnother) {
    EXPECT_FALSE(nests_deeper_than(R"({"a":[1,{"b":[]}]})", 4));
    EXPECT_TRUE(nests_deeper_than(R"({"a":[1,{"b":[]}]})", 3));
    EXPECT_FALSE(nests_deeper_than("[[],[],[]]", 2));
    EXPECT_FALSE(nests_deeper_than("7", 0));
}

TEST(JsonNesting, SkipsBracketsInsideStrings) {
    EXPECT_FALSE(nests_deeper_than(R"(["[[[{{{", "\"[[[", "\\", {"k[[": 1}])", 2));
    EXPECT_TRUE(nests_deeper_than(R"(["\\", [[1]]])", 2));
}

TEST(JsonNesting, TheLimitIsAThousandLevels) {
    EXPECT_EQ(max_json_nesting, 1000U);
    EXPECT_FALSE(nests_deeper_than(nested(1000)));
    EXPECT_TRUE(nests_deeper_than(nested(1001)));
    EXPECT_TRUE(nests_deeper_than(std::string(4'000'000, '[')));  // malformed, and too deep
}

}  // namespace
}  // namespace cantonlite::http::json_nesting_test
