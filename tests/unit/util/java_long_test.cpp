#include "cantonlite/util/java_long.hpp"

#include <cstdint>
#include <limits>
#include <optional>
#include <string_view>

#include <gtest/gtest.h>

namespace cantonlite::util::java_long_test {
namespace {

// Long.parseLong's documented behaviour: an optional sign, then decimal digits, nothing else.
TEST(JavaParseLong, ReadsASignThenDigits) {
    EXPECT_EQ(java_parse_long("0"), 0);
    EXPECT_EQ(java_parse_long("42"), 42);
    EXPECT_EQ(java_parse_long("+42"), 42);
    EXPECT_EQ(java_parse_long("-42"), -42);
    EXPECT_EQ(java_parse_long("007"), 7);
    EXPECT_EQ(java_parse_long("9223372036854775807"), std::numeric_limits<std::int64_t>::max());
    EXPECT_EQ(java_parse_long("-9223372036854775808"), std::numeric_limits<std::int64_t>::min());
}

TEST(JavaParseLong, RefusesAnythingElse) {
    for (const std::string_view text :
         {"", "+", "-", "+-1", "-+1", "--1", " 1", "1 ", "\t1", "\n1", "\v1", "\f1", "\r1", "1.0",
          "1e3", "0x10", "١", "9223372036854775808", "-9223372036854775809"}) {
        EXPECT_EQ(java_parse_long(text), std::nullopt) << '"' << text << '"';
    }
}

}  // namespace
}  // namespace cantonlite::util::java_long_test
