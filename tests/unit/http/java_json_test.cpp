#include "cantonlite/http/java_json.hpp"

#include <string>
#include <variant>

#include <gtest/gtest.h>

namespace cantonlite::http::java_json_test {
namespace {

using Reason = JsonRefusal::Reason;

// The refusal of `text`; fails the test when the text is read.
JsonRefusal refusal_of(std::string_view text, std::size_t context = 6) {
    auto result = read_java_json(text, context);
    if (const auto* refused = std::get_if<JsonRefusal>(&result)) return *refused;
    ADD_FAILURE() << "read: " << std::get<nlohmann::json>(result).dump();
    return {};
}

TEST(JavaJson, ReadsJson) {
    const auto result = read_java_json(R"({"a": [1, "b", null]})");
    ASSERT_TRUE(std::holds_alternative<nlohmann::json>(result));
    EXPECT_EQ(std::get<nlohmann::json>(result), nlohmann::json::parse(R"({"a":[1,"b",null]})"));
}

TEST(JavaJson, RefusesMalformedTextInJawnsWords) {
    const JsonRefusal refused = refusal_of(R"({"a":1,})");
    EXPECT_EQ(refused.reason, Reason::malformed);
    EXPECT_EQ(refused.detail, R"(expected " got '}' (line 1, column 8))");
    EXPECT_EQ(refusal_of("[1,2,3,4,5,6,7,8,9,x]", 10).detail,
              "expected json value got 'x]' (line 1, column 20)");
}

// nlohmann ends its input at a NUL byte and skips a byte order mark; jawn reads both and refuses
// them.
TEST(JavaJson, ANulByteOrAByteOrderMarkIsMalformed) {
    EXPECT_EQ(refusal_of(std::string("{}\0", 3)).reason, Reason::malformed);
    EXPECT_EQ(refusal_of("\xEF\xBB\xBF{}").reason, Reason::malformed);
}

// What jawn reads and nlohmann refuses is read as Java holds it: bytes that are not UTF-8 become
// U+FFFD, and a lone surrogate's escape '?'.
TEST(JavaJson, ReadsWhatJawnReads) {
    const auto bad_utf8 = read_java_json("[\"a\xFF\"]");
    ASSERT_TRUE(std::holds_alternative<nlohmann::json>(bad_utf8));
    EXPECT_EQ(std::get<nlohmann::json>(bad_utf8)[0], "a\xEF\xBF\xBD");
    const auto surrogate = read_java_json(R"(["\uD800"])");
    ASSERT_TRUE(std::holds_alternative<nlohmann::json>(surrogate));
    EXPECT_EQ(std::get<nlohmann::json>(surrogate)[0], "?");
}

// jawn keeps a number beyond a double; nlohmann cannot hold it.
TEST(JavaJson, ANumberBeyondADoubleIsOutOfRange) {
    const JsonRefusal refused = refusal_of(R"({"a": 1e400})");
    EXPECT_EQ(refused.reason, Reason::number_out_of_range);
    EXPECT_EQ(refused.detail, "number overflow parsing '1e400'");
}

// jawn reads the whole text before anything looks at a number: malformed text is malformed, though
// a number in it is beyond a double.
TEST(JavaJson, MalformedTextWithAHugeNumberIsMalformed) {
    const JsonRefusal refused = refusal_of(R"({"a": 1e400,)");
    EXPECT_EQ(refused.reason, Reason::malformed);
    EXPECT_EQ(refused.detail, "exhausted input");
}

TEST(JavaJson, RefusesDeepNestingBeforeParsing) {
    const JsonRefusal refused = refusal_of(std::string(3'000'000, '['));
    EXPECT_EQ(refused.reason, Reason::too_deep);
    EXPECT_EQ(refused.detail, "nesting deeper than 1000 levels");
}

}  // namespace
}  // namespace cantonlite::http::java_json_test
