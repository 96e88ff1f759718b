#include "cantonlite/http/java_json.hpp"

#include "cantonlite/http/json_nesting.hpp"

#include <cmath>
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

// Equal values of equal types all the way down: nlohmann's == takes 1, 1u and 1.0 for one value.
void expect_same(const nlohmann::json& read, const nlohmann::json& expected,
                 const std::string& at) {
    ASSERT_EQ(read.type(), expected.type())
        << at << ": " << read.dump() << " vs " << expected.dump();
    if (read.is_object()) {
        ASSERT_EQ(read.size(), expected.size()) << at;
        for (auto it = expected.begin(); it != expected.end(); ++it) {
            ASSERT_TRUE(read.contains(it.key())) << at << "." << it.key();
            expect_same(read.at(it.key()), it.value(), at + "." + it.key());
        }
    } else if (read.is_array()) {
        ASSERT_EQ(read.size(), expected.size()) << at;
        for (std::size_t i = 0; i < read.size(); ++i)
            expect_same(read[i], expected[i], at + "[" + std::to_string(i) + "]");
    } else if (read.is_number_float()) {
        // bit for bit: -0.0 stays -0.0
        EXPECT_EQ(std::signbit(read.get<double>()), std::signbit(expected.get<double>())) << at;
        EXPECT_EQ(read.get<double>(), expected.get<double>()) << at;
    } else {
        EXPECT_EQ(read, expected) << at;
    }
}

// Whatever reads the text (simdjson first, when it can), the value is the one nlohmann's own parse
// gives: the same types (a non-negative integer unsigned, a negative one signed, -0 an integer and
// -0.0 a double), the same strings, and the last of two equal keys.
TEST(JavaJson, ReadsAsNlohmannReads) {
    for (const std::string_view text : {
             R"({"a": [1, -1, 0, -0, 0.0, -0.0, 1.5, 1e2, 1E-2, -1e2, 2.5e+3]})",
             R"([9223372036854775807, 9223372036854775808, 18446744073709551615,
                 -9223372036854775808, 18446744073709551616, -9223372036854775809,
                 123456789012345678901234567890, 0.1, 1.7976931348623157e308, 5e-324, 4.9e-325])",
             R"({"k": 1, "k": 2, "b": {"k": [true, false, null]}})",
             R"(["\u0000", "\"\\\/\b\f\n\r\t", "\u00e9\u20ac\ud83d\ude00", "é€😀", ""])",
             R"("top")",
             "42",
             "-42",
             "true",
             "null",
             "  {}  ",
             "[]",
             "[[[[]]]]",
             R"({"":"", "a b":{"c":[{}]}})",
         }) {
        SCOPED_TRACE(text);
        const auto result = read_java_json(text);
        ASSERT_TRUE(std::holds_alternative<nlohmann::json>(result));
        expect_same(std::get<nlohmann::json>(result), nlohmann::json::parse(text), "$");
    }
}

// What nlohmann refuses is refused whichever parser looks first: a control character unescaped, a
// leading zero, a trailing comma, text after the value.
TEST(JavaJson, RefusesWhatNlohmannRefuses) {
    for (const std::string& text :
         {std::string("[\"a\x01\"]"), std::string("[01]"), std::string("[1,]"),
          std::string("{} {}"), std::string("[1.]"), std::string("[.5]"), std::string("[+1]"),
          std::string("{'a':1}"), std::string("[1e]"), std::string("[\"\\x\"]"), std::string("")}) {
        SCOPED_TRACE(text);
        EXPECT_EQ(refusal_of(text).reason, Reason::malformed);
    }
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

// `levels` arrays inside one another around a 1, with `padding` spaces before it.
std::string nested(std::size_t levels, std::size_t padding = 0) {
    return std::string(levels, '[') + std::string(padding, ' ') + "1" + std::string(levels, ']');
}

TEST(JavaJson, ReadsWellFormedJsonNestedToTheLimit) {
    for (const std::size_t padding : {std::size_t{0}, std::size_t{2} << 20}) {  // < and > 1 MiB
        const auto read = read_java_json(nested(max_json_nesting, padding), 6);
        ASSERT_TRUE(std::holds_alternative<nlohmann::json>(read)) << padding;
        const nlohmann::json* v = &std::get<nlohmann::json>(read);
        for (std::size_t level = 0; level < max_json_nesting; ++level) v = &v->at(0);
        EXPECT_EQ(*v, 1);
    }
}

TEST(JavaJson, RefusesWellFormedJsonNestedBeyondTheLimit) {
    for (const std::size_t padding : {std::size_t{0}, std::size_t{2} << 20}) {
        const JsonRefusal refused = refusal_of(nested(max_json_nesting + 1, padding));
        EXPECT_EQ(refused.reason, Reason::too_deep);
        EXPECT_EQ(refused.detail, "nesting deeper than 1000 levels");
    }
}

}  // namespace
}  // namespace cantonlite::http::java_json_test
