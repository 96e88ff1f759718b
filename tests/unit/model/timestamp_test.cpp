#include "cantonlite/model/timestamp.hpp"

#include <array>
#include <cstdint>
#include <cstdio>
#include <string>

#include <gtest/gtest.h>

namespace cantonlite::model::timestamp_test {
namespace {

constexpr std::int64_t second = 1'000'000;

// 2024-05-01T10:00:00Z in microseconds since the epoch.
constexpr std::int64_t may_first_2024 = 1'714'557'600 * second;

TEST(Timestamp, ParsesUtcAndPrintsOffsetDateTime) {
    const auto t = parse_timestamp("2024-05-01T10:00:00Z");

    ASSERT_TRUE(t.has_value());
    EXPECT_EQ(format_offset_date_time(*t), "2024-05-01T10:00:00Z");
}

TEST(Timestamp, ParsesTheEpochAsZero) {
    const auto t = parse_timestamp("1970-01-01T00:00:00Z");

    ASSERT_TRUE(t.has_value());
    EXPECT_EQ(t->micros, 0);
}

TEST(Timestamp, ParsesToMicrosecondsSinceTheEpoch) {
    const auto t = parse_timestamp("2024-05-01T10:00:00Z");

    ASSERT_TRUE(t.has_value());
    EXPECT_EQ(t->micros, may_first_2024);
}

struct ParseCase {
    std::string text;
    std::int64_t micros;
};

class TimestampParsesValid : public testing::TestWithParam<ParseCase> {};

TEST_P(TimestampParsesValid, ToTheExpectedInstant) {
    const ParseCase& c = GetParam();

    const auto t = parse_timestamp(c.text);

    ASSERT_TRUE(t.has_value()) << c.text;
    EXPECT_EQ(t->micros, c.micros) << c.text;
}

INSTANTIATE_TEST_SUITE_P(Offsets, TimestampParsesValid,
                         testing::Values(ParseCase{"2024-05-01T12:00:00+02:00", may_first_2024},
                                         ParseCase{"2024-05-01T05:30:00-04:30", may_first_2024},
                                         ParseCase{"2024-05-01T10:00:00+00:00", may_first_2024},
                                         ParseCase{"2024-05-01T10:00:00-00:00", may_first_2024},
                                         ParseCase{"2024-05-02T09:59:00+23:59", may_first_2024},
                                         ParseCase{"2024-05-01t10:00:00z", may_first_2024},
                                         ParseCase{"2024-05-01T00:00:00-10:00", may_first_2024}));

INSTANTIATE_TEST_SUITE_P(
    Fractions, TimestampParsesValid,
    testing::Values(ParseCase{"2024-05-01T10:00:00.5Z", may_first_2024 + 500'000},
                    ParseCase{"2024-05-01T12:00:00.5+02:00", may_first_2024 + 500'000},
                    ParseCase{"2024-05-01T10:00:00.12Z", may_first_2024 + 120'000},
                    ParseCase{"2024-05-01T10:00:00.123Z", may_first_2024 + 123'000},
                    ParseCase{"2024-05-01T10:00:00.000001Z", may_first_2024 + 1},
                    ParseCase{"2024-05-01T10:00:00.123456Z", may_first_2024 + 123'456},
                    ParseCase{"2024-05-01T10:00:00.0Z", may_first_2024},
                    ParseCase{"2024-05-01T10:00:00.000000Z", may_first_2024},
                    ParseCase{"2024-05-01T10:00:00.123456000Z", may_first_2024 + 123'456},
                    ParseCase{"2024-05-01T10:00:00.999999000000Z", may_first_2024 + 999'999}));

INSTANTIATE_TEST_SUITE_P(
    Calendar, TimestampParsesValid,
    testing::Values(ParseCase{"2024-02-29T00:00:00Z", 1'709'164'800 * second},
                    ParseCase{"2000-02-29T00:00:00Z", 951'782'400 * second},
                    ParseCase{"2023-12-31T23:59:59Z", 1'704'067'199 * second},
                    ParseCase{"1969-12-31T23:59:59Z", -1 * second},
                    ParseCase{"1969-12-31T23:59:59.999999Z", -1},
                    ParseCase{"1970-01-01T01:00:00+01:00", 0},
                    ParseCase{"0001-01-01T00:00:00Z", -62'135'596'800 * second},
                    ParseCase{"9999-12-31T23:59:59.999999Z", 253'402'300'799 * second + 999'999}));

class TimestampRejects : public testing::TestWithParam<std::string> {};

TEST_P(TimestampRejects, AsNotRfc3339) {
    const std::string& text = GetParam();

    const auto t = parse_timestamp(text);

    EXPECT_FALSE(t.has_value()) << text << " parsed as " << (t ? t->micros : 0);
}

INSTANTIATE_TEST_SUITE_P(ImpossibleDates, TimestampRejects,
                         testing::Values("2023-02-29T00:00:00Z", "1900-02-29T00:00:00Z",
                                         "2024-02-30T00:00:00Z", "2024-04-31T00:00:00Z",
                                         "2024-13-01T00:00:00Z", "2024-00-10T00:00:00Z",
                                         "2024-01-00T00:00:00Z", "2024-01-32T00:00:00Z"));

INSTANTIATE_TEST_SUITE_P(ImpossibleTimes, TimestampRejects,
                         testing::Values("2024-05-01T24:00:00Z", "2024-05-01T10:60:00Z",
                                         "2024-05-01T10:00:60Z", "2024-05-01T10:00:00+24:00",
                                         "2024-05-01T10:00:00+01:60"));

INSTANTIATE_TEST_SUITE_P(MissingParts, TimestampRejects,
                         testing::Values("", "2024-05-01", "2024-05-01 10:00:00Z",
                                         "2024-05-01T10:00Z", "2024-05-01T10Z",
                                         "2024-05-01T10:00:00", "2024-05-01T10:00:00.5",
                                         "2024-05-01T10:00:00+02", "2024-05-01T10:00:00+0200",
                                         "2024-05-01T10:00:00.Z"));

INSTANTIATE_TEST_SUITE_P(Malformed, TimestampRejects,
                         testing::Values("24-05-01T10:00:00Z", "2024-5-01T10:00:00Z",
                                         "2024-05-01T1:00:00Z", "2024/05/01T10:00:00Z",
                                         "2024-05-01T10:00:00ZZ", "2024-05-01T10:00:00Z ",
                                         " 2024-05-01T10:00:00Z", "+2024-05-01T10:00:00Z",
                                         "2024-05-01T10:00:00,5Z", "2024-05-01T10:00:00UTC"));

INSTANTIATE_TEST_SUITE_P(SubMicrosecond, TimestampRejects,
                         testing::Values("2024-05-01T10:00:00.1234567Z",
                                         "2024-05-01T10:00:00.000000001Z",
                                         "2024-05-01T10:00:00.0000005+02:00"));

struct FormatCase {
    std::int64_t micros;
    std::string offset_date_time;  // format_offset_date_time
    std::string instant;           // format_instant
    std::string fixed_micros;      // format_micros
};

class TimestampFormats : public testing::TestWithParam<FormatCase> {};

TEST_P(TimestampFormats, AsOffsetDateTime) {
    const FormatCase& c = GetParam();

    EXPECT_EQ(format_offset_date_time(Timestamp{c.micros}), c.offset_date_time);
}

TEST_P(TimestampFormats, AsInstant) {
    const FormatCase& c = GetParam();

    EXPECT_EQ(format_instant(Timestamp{c.micros}), c.instant);
}

TEST_P(TimestampFormats, AsFixedMicros) {
    const FormatCase& c = GetParam();

    EXPECT_EQ(format_micros(Timestamp{c.micros}), c.fixed_micros);
}

INSTANTIATE_TEST_SUITE_P(
    WholeSeconds, TimestampFormats,
    testing::Values(FormatCase{0, "1970-01-01T00:00:00Z", "1970-01-01T00:00:00Z",
                               "1970-01-01T00:00:00.000000Z"},
                    FormatCase{may_first_2024, "2024-05-01T10:00:00Z", "2024-05-01T10:00:00Z",
                               "2024-05-01T10:00:00.000000Z"},
                    FormatCase{1'709'164'800 * second, "2024-02-29T00:00:00Z",
                               "2024-02-29T00:00:00Z", "2024-02-29T00:00:00.000000Z"}));

// ISO_INSTANT prints 0, 3 or 6 fraction digits; ISO_OFFSET_DATE_TIME the fewest that are needed.
INSTANTIATE_TEST_SUITE_P(
    Fractions, TimestampFormats,
    testing::Values(FormatCase{may_first_2024 + 500'000, "2024-05-01T10:00:00.5Z",
                               "2024-05-01T10:00:00.500Z", "2024-05-01T10:00:00.500000Z"},
                    FormatCase{may_first_2024 + 120'000, "2024-05-01T10:00:00.12Z",
                               "2024-05-01T10:00:00.120Z", "2024-05-01T10:00:00.120000Z"},
                    FormatCase{may_first_2024 + 123'000, "2024-05-01T10:00:00.123Z",
                               "2024-05-01T10:00:00.123Z", "2024-05-01T10:00:00.123000Z"},
                    FormatCase{may_first_2024 + 1'000, "2024-05-01T10:00:00.001Z",
                               "2024-05-01T10:00:00.001Z", "2024-05-01T10:00:00.001000Z"},
                    FormatCase{may_first_2024 + 123'400, "2024-05-01T10:00:00.1234Z",
                               "2024-05-01T10:00:00.123400Z", "2024-05-01T10:00:00.123400Z"},
                    FormatCase{may_first_2024 + 1, "2024-05-01T10:00:00.000001Z",
                               "2024-05-01T10:00:00.000001Z", "2024-05-01T10:00:00.000001Z"},
                    FormatCase{1'726'050'489 * second + 304'591, "2024-09-11T10:28:09.304591Z",
                               "2024-09-11T10:28:09.304591Z", "2024-09-11T10:28:09.304591Z"},
                    FormatCase{1'726'050'489 * second + 300'000, "2024-09-11T10:28:09.3Z",
                               "2024-09-11T10:28:09.300Z", "2024-09-11T10:28:09.300000Z"}));

INSTANTIATE_TEST_SUITE_P(
    BeforeTheEpoch, TimestampFormats,
    testing::Values(FormatCase{-1, "1969-12-31T23:59:59.999999Z", "1969-12-31T23:59:59.999999Z",
                               "1969-12-31T23:59:59.999999Z"},
                    FormatCase{-second, "1969-12-31T23:59:59Z", "1969-12-31T23:59:59Z",
                               "1969-12-31T23:59:59.000000Z"},
                    FormatCase{-500'000, "1969-12-31T23:59:59.5Z", "1969-12-31T23:59:59.500Z",
                               "1969-12-31T23:59:59.500000Z"},
                    FormatCase{-86'400 * second, "1969-12-31T00:00:00Z", "1969-12-31T00:00:00Z",
                               "1969-12-31T00:00:00.000000Z"},
                    FormatCase{-86'400 * second - 1, "1969-12-30T23:59:59.999999Z",
                               "1969-12-30T23:59:59.999999Z", "1969-12-30T23:59:59.999999Z"},
                    FormatCase{-62'135'596'800 * second, "0001-01-01T00:00:00Z",
                               "0001-01-01T00:00:00Z", "0001-01-01T00:00:00.000000Z"}));

// format_micros against printf's fields (the year, month, day, hours, minutes and seconds as
// %04d-%02d-%02dT%02d:%02d:%02d, the micros as %06d) over instants of years 0001-9999, each
// digit of each field moving; and format_date alike.
TEST(Timestamp, FormatsEveryFieldAsPrintfWould) {
    const std::int64_t first = parse_timestamp("0001-01-01T00:00:00Z")->micros;
    const std::int64_t last = parse_timestamp("9999-12-31T23:59:59.999999Z")->micros;
    std::uint64_t x = 88172645463325252ULL;
    for (int i = 0; i < 20000; ++i) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        const std::int64_t micros =
            first + static_cast<std::int64_t>(x % static_cast<std::uint64_t>(last - first + 1));
        const std::string text = format_micros(Timestamp{micros});
        const auto back = parse_timestamp(text);
        ASSERT_TRUE(back.has_value()) << text;
        EXPECT_EQ(back->micros, micros) << text;
        const std::int64_t days =
            (micros - (((micros % 86'400'000'000) + 86'400'000'000) % 86'400'000'000)) /
            86'400'000'000;
        EXPECT_EQ(format_date(days), text.substr(0, 10)) << text;
        std::array<char, 64> expected{};
        int y = 0;
        unsigned mo = 0, d = 0, h = 0, mi = 0, se = 0, us = 0;
        ASSERT_EQ(
            std::sscanf(text.c_str(), "%d-%u-%uT%u:%u:%u.%uZ", &y, &mo, &d, &h, &mi, &se, &us), 7)
            << text;
        std::snprintf(expected.data(), expected.size(), "%04d-%02u-%02uT%02u:%02u:%02u.%06uZ", y,
                      mo, d, h, mi, se, us);
        EXPECT_EQ(text, expected.data());
    }
}

class TimestampRoundTrips : public testing::TestWithParam<std::string> {};

TEST_P(TimestampRoundTrips, ThroughParseAndFormatInstant) {
    const std::string& text = GetParam();

    const auto t = parse_timestamp(text);

    ASSERT_TRUE(t.has_value()) << text;
    EXPECT_EQ(format_instant(*t), text);
}

INSTANTIATE_TEST_SUITE_P(InstantForms, TimestampRoundTrips,
                         testing::Values("2024-09-11T10:28:09.304591Z", "2024-09-11T10:28:09.300Z",
                                         "2024-09-11T10:28:09Z", "0001-01-01T00:00:00Z",
                                         "9999-12-31T23:59:59.999999Z",
                                         "1900-03-01T00:00:00.001Z"));

TEST(Timestamp, OrdersByInstantNotByText) {
    const auto earlier = parse_timestamp("2024-05-01T11:00:00+02:00");
    const auto later = parse_timestamp("2024-05-01T10:00:00Z");

    ASSERT_TRUE(earlier && later);
    EXPECT_LT(*earlier, *later);
}

struct DateCase {
    std::string text;
    std::int64_t days;
};

class TimestampDates : public testing::TestWithParam<DateCase> {};

TEST_P(TimestampDates, FormatAsIsoLocalDate) {
    const DateCase& c = GetParam();

    EXPECT_EQ(format_date(c.days), c.text);
}

TEST_P(TimestampDates, ParseToDaysSinceTheEpoch) {
    const DateCase& c = GetParam();

    EXPECT_EQ(parse_date(c.text), c.days);
}

INSTANTIATE_TEST_SUITE_P(Days, TimestampDates,
                         testing::Values(DateCase{"1970-01-01", 0}, DateCase{"2024-06-01", 19'875},
                                         DateCase{"2024-02-29", 19'782}, DateCase{"1969-12-31", -1},
                                         DateCase{"0001-01-01", -719'162},
                                         DateCase{"9999-12-31", 2'932'896}));

class TimestampRejectsDate : public testing::TestWithParam<std::string> {};

TEST_P(TimestampRejectsDate, AsNotYearMonthDay) {
    const std::string& text = GetParam();

    EXPECT_FALSE(parse_date(text).has_value()) << text;
}

INSTANTIATE_TEST_SUITE_P(Malformed, TimestampRejectsDate,
                         testing::Values("", "2024-06", "2024-6-01", "24-06-01", "2024/06/01",
                                         "2024-06-01T00:00:00Z", "2024-06-01 ", " 2024-06-01",
                                         "+2024-06-01", "2023-02-29", "2024-13-01", "2024-00-01",
                                         "2024-04-31", "2024-01-00"));

// ---- parse_duration_micros: java.time.Duration.parse ----------------------------------------

TEST(ParseDuration, ReadsDaysHoursMinutesAndSeconds) {
    constexpr std::int64_t s = 1'000'000;
    EXPECT_EQ(parse_duration_micros("PT1H"), 3600 * s);
    EXPECT_EQ(parse_duration_micros("PT30M"), 1800 * s);
    EXPECT_EQ(parse_duration_micros("P1D"), 86'400 * s);
    EXPECT_EQ(parse_duration_micros("P2DT3H4M5S"), (2 * 86'400 + 3 * 3600 + 4 * 60 + 5) * s);
    EXPECT_EQ(parse_duration_micros("PT0.5S"), s / 2);
    EXPECT_EQ(parse_duration_micros("PT1,25S"), s + s / 4);
    EXPECT_EQ(parse_duration_micros("PT0.000001S"), 1);
    EXPECT_EQ(parse_duration_micros("PT0.000001000S"), 1);
    EXPECT_EQ(parse_duration_micros("pt1h"), 3600 * s);
    EXPECT_EQ(parse_duration_micros("PT0S"), 0);
}

TEST(ParseDuration, ReadsSigns) {
    constexpr std::int64_t s = 1'000'000;
    EXPECT_EQ(parse_duration_micros("-PT10S"), -10 * s);
    EXPECT_EQ(parse_duration_micros("PT-10S"), -10 * s);
    EXPECT_EQ(parse_duration_micros("+PT1H-30M"), 1800 * s);
    EXPECT_EQ(parse_duration_micros("-PT1H-30M"), -1800 * s);
}

TEST(ParseDuration, RefusesWhatJavaRefuses) {
    for (const char* bad : {"",
                            "P",
                            "PT",
                            "1H",
                            "PT1",
                            "PT1H1H",
                            "PT1S1M",
                            "P1H",
                            "PT1D",
                            "P1W",
                            "P1Y",
                            "P1M",
                            "PT1.5H",
                            "PT.5S",
                            "PT1.S",
                            "PT0.0000001S",
                            "PT1.1234567891S",
                            "PT 1H",
                            "PT1H ",
                            "PT99999999999999999999S",
                            "P106751991167301D"}) {
        EXPECT_EQ(parse_duration_micros(bad), std::nullopt) << bad;
    }
}

}  // namespace
}  // namespace cantonlite::model::timestamp_test
