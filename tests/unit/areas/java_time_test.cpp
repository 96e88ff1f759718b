// java.time's parsers as the Splice apps run them. Every expectation was produced by the JDK
// itself (OpenJDK 17 and Temurin 25 gave the same): OffsetDateTime.parse, Instant.parse, the
// guardrail decoder (ODT, else Instant at UTC) and Daml's Timestamp.fromInstant (FLOOR).
#include "cantonlite/areas/java_time.hpp"

#include <string>

#include <gtest/gtest.h>

namespace cantonlite::areas::java_time_test {
namespace {

struct Accepted {
    std::string input;
    std::string odt;     // OffsetDateTime.toString() of the decoded value
    std::string canton;  // CantonTimestamp: ISO instant, or the conversion's error
};

class GuardrailDateTimeAccepts : public testing::TestWithParam<Accepted> {};

TEST_P(GuardrailDateTimeAccepts, AsJavaDoes) {
    const auto parsed = parse_guardrail_date_time(GetParam().input);
    ASSERT_TRUE(std::holds_alternative<JavaDateTime>(parsed))
        << GetParam().input << ": " << std::get<std::string>(parsed);
    const JavaDateTime& t = std::get<JavaDateTime>(parsed);
    EXPECT_EQ(t.text, GetParam().odt);
    const auto ts = daml_timestamp(t);
    const std::string canton = std::holds_alternative<model::Timestamp>(ts)
                                   ? model::format_instant(std::get<model::Timestamp>(ts))
                                   : std::get<std::string>(ts);
    EXPECT_EQ(canton, GetParam().canton);
}

INSTANTIATE_TEST_SUITE_P(
    Jdk, GuardrailDateTimeAccepts,
    testing::Values(
        Accepted{"2024-01-01T00:00:00Z", "2024-01-01T00:00Z", "2024-01-01T00:00:00Z"},
        Accepted{"2024-01-01T00:00:00+02:00", "2024-01-01T00:00+02:00", "2023-12-31T22:00:00Z"},
        Accepted{"2024-01-01T00:00:00+02", "2024-01-01T00:00+02:00", "2023-12-31T22:00:00Z"},
        Accepted{"2024-01-01T00:00:00-00:00", "2024-01-01T00:00Z", "2024-01-01T00:00:00Z"},
        Accepted{"2024-01-01T00:00:00+18:00", "2024-01-01T00:00+18:00", "2023-12-31T06:00:00Z"},
        Accepted{"2024-01-01T00:00:00+05:30", "2024-01-01T00:00+05:30", "2023-12-31T18:30:00Z"},
        Accepted{"2024-01-01t00:00:00z", "2024-01-01T00:00Z", "2024-01-01T00:00:00Z"},
        Accepted{"2024-01-01T00:00:00.1Z", "2024-01-01T00:00:00.100Z", "2024-01-01T00:00:00.100Z"},
        Accepted{"2024-01-01T00:00:00.123456Z", "2024-01-01T00:00:00.123456Z",
                 "2024-01-01T00:00:00.123456Z"},
        Accepted{"2024-01-01T00:00:00.1234567Z", "2024-01-01T00:00:00.123456700Z",
                 "2024-01-01T00:00:00.123456Z"},
        Accepted{"2024-01-01T00:00:00.123456789Z", "2024-01-01T00:00:00.123456789Z",
                 "2024-01-01T00:00:00.123456Z"},
        Accepted{"2024-01-01T00:00:00.Z", "2024-01-01T00:00Z", "2024-01-01T00:00:00Z"},
        Accepted{"+10000-01-01T00:00:00Z", "+10000-01-01T00:00Z",
                 "cannot convert instant +10000-01-01T00:00:00Z into Timestamp:out of bound "
                 "Timestamp 253402300800000000"},
        Accepted{"0000-01-01T00:00:00Z", "0000-01-01T00:00Z",
                 "cannot convert instant 0000-01-01T00:00:00Z into Timestamp:out of bound "
                 "Timestamp -62167219200000000"},
        Accepted{"0001-01-01T00:00:00Z", "0001-01-01T00:00Z", "0001-01-01T00:00:00Z"},
        Accepted{"0001-01-01T00:00:00+01:00", "0001-01-01T00:00+01:00",
                 "cannot convert instant 0000-12-31T23:00:00Z into Timestamp:out of bound "
                 "Timestamp -62135600400000000"},
        Accepted{"9999-12-31T23:59:59.999999Z", "9999-12-31T23:59:59.999999Z",
                 "9999-12-31T23:59:59.999999Z"},
        Accepted{"9999-12-31T23:59:59.9999999Z", "9999-12-31T23:59:59.999999900Z",
                 "9999-12-31T23:59:59.999999Z"},
        Accepted{"9999-12-31T23:59:59.999999-01:00", "9999-12-31T23:59:59.999999-01:00",
                 "cannot convert instant +10000-01-01T00:59:59.999999Z into Timestamp:out of "
                 "bound Timestamp 253402304399999999"},
        Accepted{"-0001-01-01T00:00:00Z", "-0001-01-01T00:00Z",
                 "cannot convert instant -0001-01-01T00:00:00Z into Timestamp:out of bound "
                 "Timestamp -62198755200000000"},
        Accepted{"2024-12-31T23:59:60Z", "2024-12-31T23:59:59Z", "2024-12-31T23:59:59Z"},
        Accepted{"2024-01-01T24:00:00Z", "2024-01-02T00:00Z", "2024-01-02T00:00:00Z"},
        Accepted{"2024-01-01T00:00Z", "2024-01-01T00:00Z", "2024-01-01T00:00:00Z"},
        Accepted{"2024-05-01T10:00:00.000000Z", "2024-05-01T10:00Z", "2024-05-01T10:00:00Z"},
        Accepted{"2024-05-01T10:00:30Z", "2024-05-01T10:00:30Z", "2024-05-01T10:00:30Z"},
        Accepted{"2024-05-01T10:00:00.5+01:00", "2024-05-01T10:00:00.500+01:00",
                 "2024-05-01T09:00:00.500Z"},
        Accepted{"+999999999-12-31T23:59:59Z", "+999999999-12-31T23:59:59Z",
                 "cannot convert instant +999999999-12-31T23:59:59Z into Timestamp:Overflow"}));

struct Rejected {
    std::string input;
    std::string message;  // the Instant parser's DateTimeParseException message
};

class GuardrailDateTimeRejects : public testing::TestWithParam<Rejected> {};

TEST_P(GuardrailDateTimeRejects, WithTheInstantParsersMessage) {
    const auto parsed = parse_guardrail_date_time(GetParam().input);
    ASSERT_TRUE(std::holds_alternative<std::string>(parsed)) << GetParam().input;
    EXPECT_EQ(std::get<std::string>(parsed), GetParam().message);
}

std::string at(const std::string& text, int index) {
    return "Text '" + text + "' could not be parsed at index " + std::to_string(index);
}

INSTANTIATE_TEST_SUITE_P(
    Jdk, GuardrailDateTimeRejects,
    testing::Values(
        Rejected{"2024-01-01T00:00:00+0200", at("2024-01-01T00:00:00+0200", 19)},
        Rejected{"2024-01-01T00:00:00+19:00", at("2024-01-01T00:00:00+19:00", 0)},
        Rejected{"2024-01-01T00:00:00", at("2024-01-01T00:00:00", 19)},
        Rejected{"2024-01-01T00:00:00.1234567891Z", at("2024-01-01T00:00:00.1234567891Z", 29)},
        Rejected{"2024-01-01 00:00:00Z", at("2024-01-01 00:00:00Z", 10)},
        Rejected{"2024-01-01T00:00:00 02:00", at("2024-01-01T00:00:00 02:00", 19)},
        Rejected{"10000-01-01T00:00:00Z", at("10000-01-01T00:00:00Z", 0)},
        Rejected{"+2024-01-01T00:00:00Z", at("+2024-01-01T00:00:00Z", 0)},
        Rejected{"-0000-01-01T00:00:00Z", at("-0000-01-01T00:00:00Z", 0)},
        Rejected{"-24-01-01T00:00:00Z", at("-24-01-01T00:00:00Z", 1)},
        Rejected{"2024-1-01T00:00:00Z", at("2024-1-01T00:00:00Z", 5)},
        Rejected{"2024-01-01T12:00:60Z", at("2024-01-01T12:00:60Z", 0)},
        Rejected{"2024-01-01T24:00Z", at("2024-01-01T24:00Z", 16)},
        Rejected{"2024-13-01T00:00:00Z", at("2024-13-01T00:00:00Z", 0)},
        Rejected{"2024-02-30T00:00:00Z", at("2024-02-30T00:00:00Z", 0)},
        Rejected{"abc", at("abc", 0)}, Rejected{"", at("", 0)},
        Rejected{"2024-01-01", at("2024-01-01", 10)},
        Rejected{"2024-01-01T00Z", at("2024-01-01T00Z", 13)},
        Rejected{"2024-01-01T00:00:00+02:60", at("2024-01-01T00:00:00+02:60", 19)},
        Rejected{"2024-01-01T00:00:00Z ",
                 "Text '2024-01-01T00:00:00Z ' could not be parsed, "
                 "unparsed text found at index 20"},
        Rejected{"2024-01-01T00:00:00+02:00:0",
                 "Text '2024-01-01T00:00:00+02:00:0' could not be "
                 "parsed, unparsed text found at index 25"},
        Rejected{"2024-01-01T00:00:00+24:00",
                 "Text '2024-01-01T00:00:00+24:00' could not be parsed: Value out of range: "
                 "Hour[0-23], Minute[0-59], Second[0-59]"},
        Rejected{std::string(70, 'x'),
                 "Text '" + std::string(64, 'x') + "...' could not be parsed at index 0"}));

// Instant.parse itself: seconds are required (HttpScanHandler.parseTimestamp's parser).
TEST(JavaInstant, NeedsSeconds) {
    EXPECT_EQ(std::get<std::string>(parse_java_instant("2024-01-01T00:00Z")),
              at("2024-01-01T00:00Z", 16));
    EXPECT_EQ(std::get<std::string>(parse_java_instant("2024-01-01T00:00:00+02")),
              at("2024-01-01T00:00:00+02", 19));
    const auto t = parse_java_instant("2024-01-01T00:00:00+02:00");
    ASSERT_TRUE(std::holds_alternative<JavaDateTime>(t));
    EXPECT_EQ(std::get<JavaDateTime>(t).text, "2023-12-31T22:00Z");
}

}  // namespace
}  // namespace cantonlite::areas::java_time_test
