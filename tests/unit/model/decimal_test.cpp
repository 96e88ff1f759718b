#include "cantonlite/model/decimal.hpp"

#include <cstdint>
#include <string>

#include <gtest/gtest.h>

namespace cantonlite::model::decimal_test {
namespace {

constexpr std::int64_t one = 10'000'000'000;  // units of 1.0

// 10^28 - 1, the largest whole number a Numeric 10 holds, in units.
Int128 largest_whole_units() {
    Int128 n = 1;
    for (int i = 0; i < 28; ++i) n *= 10;
    return (n - 1) * one;
}

struct ParseCase {
    std::string text;
    std::int64_t units;
};

class DecimalParses : public testing::TestWithParam<ParseCase> {};

TEST_P(DecimalParses, ToTheExpectedUnits) {
    const ParseCase& c = GetParam();

    const auto d = Decimal::parse(c.text);

    ASSERT_TRUE(d.has_value()) << c.text;
    EXPECT_TRUE(d->units() == c.units) << c.text;
}

INSTANTIATE_TEST_SUITE_P(
    Valid, DecimalParses,
    testing::Values(ParseCase{"100", 100 * one}, ParseCase{"-2.5", -25 * one / 10},
                    ParseCase{"0.0000190259", 190'259}, ParseCase{"0", 0}, ParseCase{"-0", 0},
                    ParseCase{"-0.0", 0}, ParseCase{"0.0000000001", 1},
                    ParseCase{"-0.0000000001", -1}, ParseCase{"150.0000000000", 150 * one},
                    ParseCase{"10.5", 105 * one / 10}, ParseCase{"007.50", 75 * one / 10},
                    ParseCase{"123456789.123456789", 1'234'567'891'234'567'890}));

class DecimalRejects : public testing::TestWithParam<std::string> {};

TEST_P(DecimalRejects, AsNotANumeric10) {
    const std::string& text = GetParam();

    EXPECT_FALSE(Decimal::parse(text).has_value()) << text;
}

INSTANTIATE_TEST_SUITE_P(Malformed, DecimalRejects,
                         testing::Values("", "-", "+", "+1", ".", "1.", ".5", "-.5", "1e3", "1E3",
                                         "1.5e-3", " 1", "1 ", "1 000", "1,5", "--1", "1.2.3",
                                         "0x10", "abc", "1-", "NaN", "Infinity"));

INSTANTIATE_TEST_SUITE_P(TooLong, DecimalRejects,
                         testing::Values("0.00000000001", "1.00000000000",
                                         "10000000000000000000000000000",
                                         "-10000000000000000000000000000"));

TEST(Decimal, AcceptsTwentyEightIntegerDigitsAndTenFractionDigits) {
    const auto d = Decimal::parse("9999999999999999999999999999.9999999999");

    ASSERT_TRUE(d.has_value());
    EXPECT_TRUE(d->units() == largest_whole_units() + one - 1);
    EXPECT_EQ(d->to_scaled_string(), "9999999999999999999999999999.9999999999");
}

TEST(Decimal, LeadingZerosDoNotCountAsIntegerDigits) {
    const auto d = Decimal::parse("00000000000000000000000000000001");

    ASSERT_TRUE(d.has_value());
    EXPECT_EQ(d->to_scaled_string(), "1.0000000000");
}

struct FormatCase {
    std::string text;
    std::string scaled;   // to_scaled_string
    std::string compact;  // to_compact_string
};

class DecimalFormats : public testing::TestWithParam<FormatCase> {};

TEST_P(DecimalFormats, WithAllTenDecimals) {
    const FormatCase& c = GetParam();

    EXPECT_EQ(Decimal::parse(c.text)->to_scaled_string(), c.scaled);
}

TEST_P(DecimalFormats, WithTrailingZerosStripped) {
    const FormatCase& c = GetParam();

    EXPECT_EQ(Decimal::parse(c.text)->to_compact_string(), c.compact);
}

INSTANTIATE_TEST_SUITE_P(
    Values, DecimalFormats,
    testing::Values(FormatCase{"100", "100.0000000000", "100.0"},
                    FormatCase{"0.0000190259", "0.0000190259", "0.0000190259"},
                    FormatCase{"-2.5", "-2.5000000000", "-2.5"},
                    FormatCase{"-0.5", "-0.5000000000", "-0.5"},
                    FormatCase{"0", "0.0000000000", "0.0"}, FormatCase{"-0", "0.0000000000", "0.0"},
                    FormatCase{"150.0000000000", "150.0000000000", "150.0"},
                    FormatCase{"999.99", "999.9900000000", "999.99"},
                    FormatCase{"0.0000000001", "0.0000000001", "0.0000000001"},
                    FormatCase{"-0.0000000001", "-0.0000000001", "-0.0000000001"},
                    FormatCase{"10", "10.0000000000", "10.0"},
                    FormatCase{"-9999999999999999999999999999.9999999999",
                               "-9999999999999999999999999999.9999999999",
                               "-9999999999999999999999999999.9999999999"}));

TEST(Decimal, DefaultIsZero) {
    const Decimal d;

    EXPECT_EQ(d.to_scaled_string(), "0.0000000000");
}

TEST(Decimal, FromUnitsCountsTenBillionths) {
    const Decimal d = Decimal::from_units(25);

    EXPECT_EQ(d.to_scaled_string(), "0.0000000025");
}

TEST(Decimal, AddsAndSubtractsExactly) {
    const Decimal a = *Decimal::parse("0.1");
    const Decimal b = *Decimal::parse("0.2");

    EXPECT_EQ((a + b).to_scaled_string(), "0.3000000000");
    EXPECT_EQ((a - b).to_compact_string(), "-0.1");
}

TEST(Decimal, OrdersByValueNotByText) {
    const Decimal smaller = *Decimal::parse("9.5");
    const Decimal larger = *Decimal::parse("10");

    EXPECT_LT(smaller, larger);
    EXPECT_EQ(*Decimal::parse("10"), *Decimal::parse("10.0000000000"));
}

}  // namespace
}  // namespace cantonlite::model::decimal_test
