#include "cantonlite/model/json_fields.hpp"

#include <cstdint>
#include <functional>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace cantonlite::model::json_fields_test {
namespace {

using nlohmann::json;

// The what() of the JsonFieldError that `action` throws, or "" when it throws none.
std::string error_of(const std::function<void()>& action) {
    try {
        action();
    } catch (const JsonFieldError& e) {
        return e.what();
    }
    return "";
}

TEST(JsonFieldError, WhatIsPointerThenProblem) {
    const JsonFieldError error("/server/port", "is required");

    EXPECT_STREQ(error.what(), "/server/port: is required");
    EXPECT_EQ(error.pointer(), "/server/port");
    EXPECT_EQ(error.problem(), "is required");
}

TEST(JsonFieldError, NamesTheRootAsSlash) {
    const JsonFieldError error("", "must be an object, got []");

    EXPECT_STREQ(error.what(), "/: must be an object, got []");
    EXPECT_EQ(error.pointer(), "");
}

// A key may hold any character; the message stays on one line (found by fuzz_seed).
TEST(JsonFieldError, WritesControlCharactersOfTheKeyEscaped) {
    const JsonFieldError error("/network/a\nb\x01", "unknown key");

    EXPECT_STREQ(error.what(), "/network/a\\nb\\u0001: unknown key");
    EXPECT_EQ(error.pointer(), "/network/a\nb\x01");
}

TEST(JsonObject, RejectsANonObjectValue) {
    const json document = json::array({1, 2});

    const std::string error = error_of([&] { JsonObject(document, "/network"); });

    EXPECT_EQ(error, "/network: must be an object, got [1,2]");
}

TEST(JsonObject, PointerOfEscapesTildeAndSlash) {
    const json document = json::object();
    const JsonObject o(document, "/a");

    EXPECT_EQ(o.pointer_of("port"), "/a/port");
    EXPECT_EQ(o.pointer_of("a/b~c"), "/a/a~1b~0c");
}

TEST(JsonObject, HasIsFalseForAbsentAndNullMembers) {
    const json document = {{"present", 1}, {"nothing", nullptr}};
    const JsonObject o(document, "");

    EXPECT_TRUE(o.has("present"));
    EXPECT_FALSE(o.has("nothing"));
    EXPECT_FALSE(o.has("absent"));
}

TEST(JsonObject, ReadsARequiredString) {
    const json document = {{"dso_party", "DSO::1220ab"}};

    const std::string value = JsonObject(document, "/network").string("dso_party");

    EXPECT_EQ(value, "DSO::1220ab");
}

struct FieldErrorCase {
    std::string name;
    json document;
    std::function<void(const JsonObject&)> read;
    std::string error;
};

class JsonObjectFieldError : public testing::TestWithParam<FieldErrorCase> {};

TEST_P(JsonObjectFieldError, NamesThePointerAndTheProblem) {
    const FieldErrorCase& c = GetParam();
    const JsonObject o(c.document, "/network");

    const std::string error = error_of([&] { c.read(o); });

    EXPECT_EQ(error, c.error);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, JsonObjectFieldError,
    testing::Values(
        FieldErrorCase{"MissingString", json::object(),
                       [](const JsonObject& o) { (void)o.string("dso_party"); },
                       "/network/dso_party: is required"},
        FieldErrorCase{"NullString", json{{"dso_party", nullptr}},
                       [](const JsonObject& o) { (void)o.string("dso_party"); },
                       "/network/dso_party: is required"},
        FieldErrorCase{"EmptyString", json{{"dso_party", ""}},
                       [](const JsonObject& o) { (void)o.string("dso_party"); },
                       "/network/dso_party: must be a non-empty string, got \"\""},
        FieldErrorCase{"NumberForString", json{{"dso_party", 5}},
                       [](const JsonObject& o) { (void)o.string("dso_party"); },
                       "/network/dso_party: must be a non-empty string, got 5"},
        FieldErrorCase{"EmptyOptionalString", json{{"address", ""}},
                       [](const JsonObject& o) { (void)o.optional_string("address"); },
                       "/network/address: must be a non-empty string, got \"\""},
        FieldErrorCase{"MissingObject", json::object(),
                       [](const JsonObject& o) { (void)o.object("lsu"); },
                       "/network/lsu: is required"},
        FieldErrorCase{"StringForObject", json{{"lsu", "soon"}},
                       [](const JsonObject& o) { (void)o.object("lsu"); },
                       "/network/lsu: must be an object, got \"soon\""},
        FieldErrorCase{"ArrayForOptionalObject", json{{"lsu", json::array()}},
                       [](const JsonObject& o) { (void)o.optional_object("lsu"); },
                       "/network/lsu: must be an object, got []"},
        FieldErrorCase{"IntegerAboveMax", json{{"port", 65536}},
                       [](const JsonObject& o) { (void)o.integer("port", 0, 65535); },
                       "/network/port: must be an integer from 0 to 65535, got 65536"},
        FieldErrorCase{"IntegerBelowMin", json{{"port", -1}},
                       [](const JsonObject& o) { (void)o.integer("port", 0, 65535); },
                       "/network/port: must be an integer from 0 to 65535, got -1"},
        FieldErrorCase{"FloatForInteger", json{{"port", 7575.5}},
                       [](const JsonObject& o) { (void)o.integer("port", 0, 65535); },
                       "/network/port: must be an integer from 0 to 65535, got 7575.5"},
        FieldErrorCase{"StringForInteger", json{{"port", "7575"}},
                       [](const JsonObject& o) { (void)o.integer("port", 0, 65535); },
                       "/network/port: must be an integer from 0 to 65535, got \"7575\""},
        FieldErrorCase{"HugeUnsignedForInteger", json{{"port", UINT64_C(18446744073709551615)}},
                       [](const JsonObject& o) { (void)o.integer("port", 0, 65535); },
                       "/network/port: must be an integer from 0 to 65535, got "
                       "18446744073709551615"},
        FieldErrorCase{"OptionalIntegerOutOfRange", json{{"io_threads", 257}},
                       [](const JsonObject& o) { (void)o.optional_integer("io_threads", 0, 256); },
                       "/network/io_threads: must be an integer from 0 to 256, got 257"},
        FieldErrorCase{"MissingTimestamp", json::object(),
                       [](const JsonObject& o) { (void)o.timestamp("upgrade_time"); },
                       "/network/upgrade_time: is required"},
        FieldErrorCase{"TimestampWithoutOffset", json{{"upgrade_time", "2030-01-15T14:00:00"}},
                       [](const JsonObject& o) { (void)o.timestamp("upgrade_time"); },
                       "/network/upgrade_time: must be an RFC 3339 date-time such as "
                       "\"2024-05-01T10:00:00Z\", got \"2030-01-15T14:00:00\""},
        FieldErrorCase{"NumberForTimestamp", json{{"upgrade_time", 1700000000}},
                       [](const JsonObject& o) { (void)o.timestamp("upgrade_time"); },
                       "/network/upgrade_time: must be an RFC 3339 date-time such as "
                       "\"2024-05-01T10:00:00Z\", got 1700000000"},
        FieldErrorCase{"UnknownKey", json{{"dso_party", "DSO::1"}, {"dso_praty", "x"}},
                       [](const JsonObject& o) {
                           o.reject_unknown_keys({"dso_party", "lsu"});
                       },
                       "/network/dso_praty: unknown key"},
        FieldErrorCase{"UnknownKeyWithSlash", json{{"a/b", 1}},
                       [](const JsonObject& o) { o.reject_unknown_keys({"a"}); },
                       "/network/a~1b: unknown key"}),
    [](const testing::TestParamInfo<FieldErrorCase>& info) { return info.param.name; });

TEST(JsonObject, ObjectCarriesItsPointerIntoNestedErrors) {
    const json document = {{"lsu", {{"upgrade_time", nullptr}}}};
    const JsonObject network(document, "/network");

    const std::string error =
        error_of([&] { (void)network.object("lsu").timestamp("upgrade_time"); });

    EXPECT_EQ(error, "/network/lsu/upgrade_time: is required");
}

TEST(JsonObject, OptionalReadsReturnNulloptForAbsentAndNull) {
    const json document = {{"address", nullptr}, {"lsu", nullptr}, {"port", nullptr}};
    const JsonObject o(document, "");

    EXPECT_FALSE(o.optional_string("address").has_value());
    EXPECT_FALSE(o.optional_object("lsu").has_value());
    EXPECT_FALSE(o.optional_integer("port", 0, 65535).has_value());
    EXPECT_FALSE(o.optional_string("absent").has_value());
}

TEST(JsonObject, OptionalReadsReturnPresentValues) {
    const json document = {{"address", "0.0.0.0"}, {"lsu", json::object()}, {"port", 8080}};
    const JsonObject o(document, "");

    EXPECT_EQ(o.optional_string("address"), "0.0.0.0");
    ASSERT_TRUE(o.optional_object("lsu").has_value());
    EXPECT_EQ(o.optional_object("lsu")->pointer(), "/lsu");
    EXPECT_EQ(o.optional_integer("port", 0, 65535), 8080);
}

struct IntegerCase {
    json value;
    std::int64_t min;
    std::int64_t max;
    std::int64_t expected;
};

class JsonObjectIntegerInRange : public testing::TestWithParam<IntegerCase> {};

TEST_P(JsonObjectIntegerInRange, IsAccepted) {
    const IntegerCase& c = GetParam();
    const json document = {{"n", c.value}};

    const std::int64_t n = JsonObject(document, "").integer("n", c.min, c.max);

    EXPECT_EQ(n, c.expected);
}

INSTANTIATE_TEST_SUITE_P(
    Bounds, JsonObjectIntegerInRange,
    testing::Values(IntegerCase{0, 0, 65535, 0}, IntegerCase{65535, 0, 65535, 65535},
                    IntegerCase{-5, -10, 10, -5},
                    IntegerCase{std::uint64_t{4294967296}, 0, std::int64_t{1} << 32, 4294967296}));

TEST(JsonObject, ReadsARequiredTimestamp) {
    const json document = {{"upgrade_time", "2030-01-15T14:00:00Z"}};

    const Timestamp t = JsonObject(document, "").timestamp("upgrade_time");

    EXPECT_EQ(t.micros, std::int64_t{1'894'716'000} * 1'000'000);
}

TEST(JsonObject, AcceptsOnlyKnownKeys) {
    const json document = {{"level", "info"}, {"format", "json"}};
    const JsonObject o(document, "/log");

    EXPECT_NO_THROW(o.reject_unknown_keys({"level", "format"}));
}

TEST(DescribeJson, QuotesStrings) {
    EXPECT_EQ(describe_json(json("abc")), "\"abc\"");
}

TEST(DescribeJson, PrintsShortValuesWhole) {
    EXPECT_EQ(describe_json(json{{"a", 1}}), "{\"a\":1}");
}

TEST(DescribeJson, CutsLongValuesAtSixtyCharacters) {
    const std::string long_text(100, 'x');

    const std::string described = describe_json(json(long_text));

    EXPECT_EQ(described, "\"" + std::string(59, 'x') + "…");
}

}  // namespace
}  // namespace cantonlite::model::json_fields_test
