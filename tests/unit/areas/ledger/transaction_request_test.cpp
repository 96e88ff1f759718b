#include "cantonlite/areas/ledger/transaction_request.hpp"

#include <string>

#include <gtest/gtest.h>

#include "cantonlite/http/api_error.hpp"

namespace cantonlite::areas::ledger::transaction_request_test {
namespace {

using Kind = CumulativeFilter::Kind;

// The detail of the DecodeError `body` raises, or "" when it decodes.
std::string decode_error_of(std::string_view body) {
    try {
        (void)decode_transaction_by_offset(body);
    } catch (const http::DecodeError& error) {
        return error.text();
    }
    return "";
}

std::string body_error(std::string_view detail) {
    return "Invalid value for: body (" + std::string(detail) + ")";
}

TEST(TransactionRequest, DecodesRequestingPartiesOnly) {
    const auto request =
        decode_transaction_by_offset(R"({"offset":7,"requestingParties":["a::1","b::2"]})");

    EXPECT_EQ(request.offset, 7);
    EXPECT_EQ(request.requesting_parties, (std::vector<std::string>{"a::1", "b::2"}));
    EXPECT_FALSE(request.transaction_format.has_value());
}

TEST(TransactionRequest, DecodesFiltersByPartyWithEveryFilterKind) {
    const auto request = decode_transaction_by_offset(R"({"offset":3,"transactionFormat":{
        "transactionShape":"TRANSACTION_SHAPE_LEDGER_EFFECTS","eventFormat":{"verbose":true,
        "filtersByParty":{"alice::1":{"cumulative":[
          {"identifierFilter":{"Empty":{}}},
          {"identifierFilter":{"WildcardFilter":{"value":{"includeCreatedEventBlob":true}}}},
          {"identifierFilter":{"TemplateFilter":{"value":{"templateId":"#splice-amulet:Splice.Amulet:Amulet"}}}},
          {"identifierFilter":{"InterfaceFilter":{"value":{"interfaceId":"abc123:Splice.Api:Holding",
            "includeInterfaceView":true}}}},
          {}]}}}}})");

    ASSERT_TRUE(request.transaction_format.has_value());
    const TransactionFormat& format = *request.transaction_format;
    EXPECT_EQ(format.transaction_shape, TransactionShape::ledger_effects);
    ASSERT_TRUE(format.event_format.has_value());
    EXPECT_TRUE(format.event_format->verbose);
    EXPECT_FALSE(format.event_format->filters_for_any_party.has_value());
    const auto& filters = format.event_format->filters_by_party.at("alice::1").cumulative;
    ASSERT_EQ(filters.size(), 5U);
    EXPECT_EQ(filters[0].kind, Kind::empty);
    EXPECT_EQ(filters[1].kind, Kind::wildcard);
    EXPECT_TRUE(filters[1].include_created_event_blob);
    EXPECT_EQ(filters[2].kind, Kind::template_filter);
    ASSERT_TRUE(filters[2].identifier.has_value());
    EXPECT_EQ(filters[2].identifier->package, "#splice-amulet");
    EXPECT_EQ(filters[2].identifier->module_name, "Splice.Amulet");
    EXPECT_EQ(filters[2].identifier->entity_name, "Amulet");
    EXPECT_EQ(filters[3].kind, Kind::interface_filter);
    EXPECT_EQ(filters[3].identifier->package, "abc123");
    EXPECT_TRUE(filters[3].include_interface_view);
    EXPECT_FALSE(filters[3].include_created_event_blob);
    EXPECT_EQ(filters[4].kind, Kind::empty);
}

TEST(TransactionRequest, DecodesFiltersForAnyParty) {
    const auto request = decode_transaction_by_offset(R"({"offset":1,"transactionFormat":{
        "transactionShape":"TRANSACTION_SHAPE_ACS_DELTA",
        "eventFormat":{"filtersForAnyParty":{}}}})");

    const auto& format = request.transaction_format.value();
    EXPECT_EQ(format.transaction_shape, TransactionShape::acs_delta);
    ASSERT_TRUE(format.event_format->filters_for_any_party.has_value());
    EXPECT_TRUE(format.event_format->filters_for_any_party->cumulative.empty());
    EXPECT_TRUE(format.event_format->filters_by_party.empty());
    EXPECT_FALSE(format.event_format->verbose);
}

struct ValidCase {
    std::string body;
    std::int64_t offset;
    std::size_t parties;
    bool has_format;
};

class TransactionRequestValidBody : public testing::TestWithParam<ValidCase> {};

TEST_P(TransactionRequestValidBody, Decodes) {
    const auto request = decode_transaction_by_offset(GetParam().body);

    EXPECT_EQ(request.offset, GetParam().offset);
    EXPECT_EQ(request.requesting_parties.size(), GetParam().parties);
    EXPECT_EQ(request.transaction_format.has_value(), GetParam().has_format);
}

INSTANTIATE_TEST_SUITE_P(
    TransactionRequest, TransactionRequestValidBody,
    testing::Values(
        ValidCase{R"({"offset":5,"requestingParties":[],"transactionFormat":null})", 5, 0, false},
        ValidCase{R"({"offset":"5","requestingParties":["p"]})", 5, 1, false},
        ValidCase{R"({"offset":5.0})", 5, 0, false}, ValidCase{R"({"offset":1e2})", 100, 0, false},
        ValidCase{R"({})", 0, 0, false},
        ValidCase{R"({"offset":2,"unknown":{"x":[1]},"requestingParties":["p"]})", 2, 1, false},
        ValidCase{
            R"({"offset":2,"transactionFormat":{"transactionShape":"TRANSACTION_SHAPE_UNSPECIFIED"}})",
            2, 0, true},
        ValidCase{R"({"offset":2,"transactionFormat":{"eventFormat":null,
                     "transactionShape":"TRANSACTION_SHAPE_ACS_DELTA"}})",
                  2, 0, true},
        ValidCase{R"({"offset":9223372036854775807})", 9223372036854775807, 0, false}));

struct ErrorCase {
    std::string body;
    std::string detail;
};

class TransactionRequestDecodeError : public testing::TestWithParam<ErrorCase> {};

TEST_P(TransactionRequestDecodeError, HasExactText) {
    EXPECT_EQ(decode_error_of(GetParam().body), body_error(GetParam().detail));
}

const std::string shapes =
    "Supported values: [TRANSACTION_SHAPE_UNSPECIFIED, TRANSACTION_SHAPE_ACS_DELTA, "
    "TRANSACTION_SHAPE_LEDGER_EFFECTS]";
const std::string identifier_format =
    "not matching the expected format (<package>:<moduleName>:<entityName>)";

std::string filter_body(std::string_view identifier_filter) {
    return R"({"offset":1,"transactionFormat":{"transactionShape":"TRANSACTION_SHAPE_ACS_DELTA",
        "eventFormat":{"filtersByParty":{"p":{"cumulative":[{"identifierFilter":)" +
           std::string(identifier_filter) + "}]}}}}}";
}

INSTANTIATE_TEST_SUITE_P(
    TransactionRequest, TransactionRequestDecodeError,
    testing::Values(
        ErrorCase{"", "exhausted input"}, ErrorCase{R"({"offset":)", "exhausted input"},
        ErrorCase{"[]", "Missing required field at 'offset'"},
        ErrorCase{R"({"offset":1.5})", "Long at 'offset'"},
        ErrorCase{R"({"offset":null})", "Long at 'offset'"},
        ErrorCase{R"({"offset":"abc"})", "Long at 'offset'"},
        ErrorCase{R"({"offset":true})", "Long at 'offset'"},
        ErrorCase{R"({"offset":9223372036854775808})", "Long at 'offset'"},
        ErrorCase{R"({"offset":1,"requestingParties":"A"})",
                  R"(Got value '"A"' with wrong type, expecting array at 'requestingParties')"},
        ErrorCase{R"({"offset":1,"requestingParties":null})",
                  "Got value 'null' with wrong type, expecting array at 'requestingParties'"},
        ErrorCase{R"({"offset":1,"requestingParties":[1]})",
                  "Got value '1' with wrong type, expecting string at 'requestingParties[0]'"},
        ErrorCase{R"({"offset":1,"transactionFormat":{"transactionShape":"FOO"}})",
                  "Unrecognized enum value FOO. " + shapes + " at 'transactionShape'"},
        ErrorCase{R"({"offset":1,"transactionFormat":{"eventFormat":{}}})",
                  R"(Got value '{"Unrecognized":{"unrecognizedValue":0}}' with wrong type, )"
                  "expecting string at 'transactionShape'"},
        ErrorCase{R"({"offset":1,"transactionFormat":{"eventFormat":{"verbose":"yes"}}})",
                  R"(Got value '"yes"' with wrong type, expecting 'true' or 'false' at 'verbose')"},
        ErrorCase{R"({"offset":1,"transactionFormat":{"eventFormat":{"filtersByParty":[]}}})",
                  "Got value '[]' with wrong type, expecting object at 'filtersByParty'"},
        ErrorCase{
            R"({"offset":1,"transactionFormat":{"eventFormat":{"filtersByParty":{"p":{"cumulative":5}}}}})",
            "Got value '5' with wrong type, expecting array at 'cumulative'"},
        ErrorCase{filter_body(R"({"WildcardFilter":{}})"), "Missing required field at 'value'"},
        ErrorCase{filter_body(R"({"TemplateFilter":{"value":{"templateId":"x"}}})"),
                  "Invalid identifier format (x) " + identifier_format + " at 'templateId'"},
        ErrorCase{filter_body(R"({"TemplateFilter":{"value":{"templateId":"a:b:c:d"}}})"),
                  "Invalid identifier format (a:b:c:d) " + identifier_format + " at 'templateId'"},
        ErrorCase{filter_body(R"({"InterfaceFilter":{"value":{"interfaceId":"a:b"}}})"),
                  "Invalid identifier format (a:b) " + identifier_format + " at 'interfaceId'"},
        ErrorCase{filter_body(R"({"TemplateFilter":{"value":{"templateId":7}}})"),
                  "Got value '7' with wrong type, expecting string at 'templateId'"},
        ErrorCase{filter_body(R"({"WildcardFilter":{"value":{"includeCreatedEventBlob":1}}})"),
                  "Got value '1' with wrong type, expecting 'true' or 'false' at "
                  "'includeCreatedEventBlob'"}));

// The reference gives only the style of these texts (jawn's and circe's); assert the prefix.
class TransactionRequestApproximateDecodeError : public testing::TestWithParam<ErrorCase> {};

TEST_P(TransactionRequestApproximateDecodeError, StartsWithText) {
    const std::string error = decode_error_of(GetParam().body);

    EXPECT_EQ(error.rfind("Invalid value for: body (" + GetParam().detail, 0), 0U) << error;
    EXPECT_EQ(error.back(), ')');
}

INSTANTIATE_TEST_SUITE_P(
    TransactionRequest, TransactionRequestApproximateDecodeError,
    testing::Values(ErrorCase{"x", "expected json value got 'x"},
                    ErrorCase{"{} x", "expected whitespace or eof got"},
                    ErrorCase{R"({"offset" 1})", "expected : got"},
                    ErrorCase{"5", "Missing required field at 'offset'"},
                    ErrorCase{R"({"offset":1,"transactionFormat":5})", "Missing required field at"},
                    ErrorCase{filter_body(R"({"Other":{}})"), "JSON decoding to CNil"}));

// A number no double holds is a decode failure (400 text/plain), not an internal error.
TEST(TransactionRequest, NumberBeyondADoubleIsADecodeError) {
    EXPECT_EQ(decode_error_of(R"({"offset": 1e400})"),
              body_error("number overflow parsing '1e400'"));
}

// jawn reads the whole body before circe looks at a number: a malformed body is malformed, though
// a number in it is beyond a double.
TEST(TransactionRequest, AMalformedBodyWithAHugeNumberIsMalformed) {
    EXPECT_EQ(decode_error_of(R"({"offset": 1e400,)"), body_error("exhausted input"));
}

// nlohmann ends its input at a NUL byte; jawn reads on and refuses it (found by fuzz_parsers).
TEST(TransactionRequest, ANulByteAfterTheJsonIsMalformed) {
    const std::string error = decode_error_of(std::string("{\"offset\": 1}\0x", 15));

    EXPECT_EQ(error.rfind("Invalid value for: body (expected whitespace or eof got '", 0), 0U)
        << error;
    EXPECT_NE(error.find("(line 1, column 14))"), std::string::npos) << error;
}

// Canton reads the body as a Java String, bytes that are not UTF-8 becoming U+FFFD, and jawn keeps
// the escape of a lone surrogate, which Java writes out as '?'; nlohmann refuses both (found by
// fuzz_parsers).
TEST(TransactionRequest, TextThatJawnReadsAndNlohmannRefusesDecodes) {
    const auto request = decode_transaction_by_offset(
        "{\"offset\":7,\"requestingParties\":[\"a\xff\",\"b\\uD800\",\"c\\uDC00x\","
        "\"\\uD83D\\uDE00\",\"\\uDAAdzuDDDD\"]}");

    // The last: a high surrogate, then text that reads as an escape only after its 'z'.
    EXPECT_EQ(
        request.requesting_parties,
        (std::vector<std::string>{"a\xEF\xBF\xBD", "b?", "c?x", "\xF0\x9F\x98\x80", "?zuDDDD"}));
}

TEST(TransactionRequest, ALoneSurrogateDoesNotHideAMalformedBody) {
    EXPECT_EQ(decode_error_of("{\"offset\":\"\\uD800\",}"),
              body_error("expected \" got '}' (line 1, column 20)"));
}

// Bodies nesting beyond a thousand levels are refused before they are parsed (FIDELITY S3).
TEST(TransactionRequest, NestingBeyondAThousandLevelsIsRefused) {
    const std::string deep =
        R"({"offset":1,"x":)" + std::string(1000, '[') + std::string(1000, ']') + "}";

    EXPECT_EQ(decode_error_of(deep), body_error("nesting deeper than 1000 levels"));
}

// Java keeps a byte order mark as U+FEFF, where jawn expects a value; nlohmann skips it (found by
// fuzz_parsers).
TEST(TransactionRequest, AByteOrderMarkIsMalformed) {
    const std::string error = decode_error_of("\xEF\xBB\xBF{\"offset\":1}");

    EXPECT_EQ(error.rfind("Invalid value for: body (expected json value got '\xEF\xBB\xBF{", 0), 0U)
        << error;
}

TEST(TransactionRequest, ReportsLineAndColumnOfMalformedJson) {
    EXPECT_EQ(decode_error_of("{\n  x"), body_error("expected \" got 'x' (line 2, column 3)"));
}

}  // namespace
}  // namespace cantonlite::areas::ledger::transaction_request_test
