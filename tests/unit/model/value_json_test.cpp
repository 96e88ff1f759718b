#include "cantonlite/model/value_json.hpp"

#include <cstdint>
#include <limits>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace cantonlite::model::value_json_test {
namespace {

using OrderedJson = nlohmann::ordered_json;

// The text value_json writes for `v` in `encoding`, as a document.
OrderedJson encoded(const Value& v, ValueEncoding encoding) {
    return OrderedJson::parse(value_json(pack(v), encoding));
}
OrderedJson to_codegen_json(const Value& v) {
    return encoded(v, ValueEncoding::codegen);
}
OrderedJson to_api_compressed_json(const Value& v) {
    return encoded(v, ValueEncoding::api_compressed);
}
OrderedJson to_protobuf_json(const Value& v) {
    return encoded(v, ValueEncoding::protobuf);
}
OrderedJson to_ledger_json(const Value& v) {
    return encoded(v, ValueEncoding::ledger);
}

// Succeeds when `actual` is the JSON of `expected_text`, with its object keys in the same order.
testing::AssertionResult same_json_in_order(const OrderedJson& actual,
                                            std::string_view expected_text) {
    const auto expected = OrderedJson::parse(expected_text);
    if (nlohmann::json::parse(actual.dump()) != nlohmann::json::parse(expected_text)) {
        return testing::AssertionFailure()
               << "\n  got:  " << actual.dump() << "\n  want: " << expected.dump();
    }
    if (actual.dump() != expected.dump()) {
        return testing::AssertionFailure()
               << "same JSON, other key order\n  got:  " << actual.dump()
               << "\n  want: " << expected.dump();
    }
    return testing::AssertionSuccess();
}

Value time(std::string_view rfc3339) {
    return Value::timestamp(*parse_timestamp(rfc3339));
}

Value number(std::string_view decimal) {
    return Value::numeric(*Decimal::parse(decimal));
}

// Splice.Amulet:Amulet (splice-behavior.md §4.3).
Value amulet(std::string dso, std::string owner, std::string_view amount, std::int64_t round) {
    return Value::record(
        {{"dso", Value::party(std::move(dso))},
         {"owner", Value::party(std::move(owner))},
         {"amount",
          Value::record({{"initialAmount", number(amount)},
                         {"createdAt", Value::record({{"number", Value::int64(round)}})},
                         {"ratePerRound", Value::record({{"rate", number("0.0000190259")}})}})}});
}

// Splice.Wallet.TransferOffer:TransferOffer, the op 4 example of §4.3.
Value transfer_offer() {
    return Value::record(
        {{"sender", Value::party("alice::12201d5a…94c3e2")},
         {"receiver", Value::party("bob::12201d5a…94c3e2")},
         {"dso", Value::party("DSO::1220fb89…ef18")},
         {"amount",
          Value::record({{"amount", number("10")}, {"unit", Value::enumeration("AmuletUnit")}})},
         {"description", Value::text_value("lunch")},
         {"expiresAt", time("2024-06-02T12:00:00Z")},
         {"trackingId", Value::text_value("5f0c7c5e-8b0d-4a53-9f43-1b2d6f6c2a10")}});
}

Value reason(std::string url, std::string body) {
    return Value::record(
        {{"url", Value::text_value(std::move(url))}, {"body", Value::text_value(std::move(body))}});
}

// Splice.DsoRules:VoteRequest, the ops 8/10 example of §4.3 (votes is a GenMap).
Value vote_request() {
    const Value offboard =
        Value::variant("SRARC_OffboardSv", Value::record({{"sv", Value::party("sv-3::1220aa…")}}));
    const Value vote =
        Value::record({{"sv", Value::party("digital-asset-2::122063…da31")},
                       {"accept", Value::boolean(true)},
                       {"reason", reason("", "I accept, as I requested the vote.")},
                       {"optCastAt", Value::some(time("2024-09-11T10:28:09.304591Z"))}});
    return Value::record(
        {{"dso", Value::party("DSO::1220ebe7…1afb")},
         {"requester", Value::text_value("Digital-Asset-2")},
         {"action", Value::variant("ARC_DsoRules", Value::record({{"dsoAction", offboard}}))},
         {"reason", reason("https://forum.example/offboard-sv3", "SV3 is leaving")},
         {"voteBefore", time("2024-09-18T10:27:52.300591Z")},
         {"votes", Value::gen_map({{Value::text_value("Digital-Asset-2"), vote}})},
         {"trackingCid", Value::none()},
         {"targetEffectiveAt", Value::none()}});
}

TEST(ValueJsonCodegen, WritesTheAmuletCreateArgumentsOfHoldingsState) {
    const Value v = amulet(
        "DSO::1220fb89d62774bd5b3fd8a11c1b22c8c5453e8286c3cf7add515c98d7bca192ef18",
        "alice::12201d5aa725ec9491490fd860e86f849358604f6fd387053771cafb90384a94c3e2", "100", 12);

    const OrderedJson j = to_codegen_json(v);

    EXPECT_TRUE(same_json_in_order(j, R"json(
        {"dso":"DSO::1220fb89d62774bd5b3fd8a11c1b22c8c5453e8286c3cf7add515c98d7bca192ef18",
         "owner":"alice::12201d5aa725ec9491490fd860e86f849358604f6fd387053771cafb90384a94c3e2",
         "amount":{"initialAmount":"100.0000000000","createdAt":{"number":"12"},
                   "ratePerRound":{"rate":"0.0000190259"}}})json"));
}

TEST(ValueJsonCodegen, WritesTheLockedAmuletCreateArguments) {
    const Value v = Value::record(
        {{"amulet", amulet("DSO::1220fb89…ef18", "alice::12201d5a…94c3e2", "25", 15)},
         {"lock", Value::record(
                      {{"holders", Value::list({Value::party("provider::1220aa…")})},
                       {"expiresAt", time("2024-06-01T12:00:00Z")},
                       {"optContext", Value::some(Value::text_value("payment for order 17"))}})}});

    const OrderedJson j = to_codegen_json(v);

    EXPECT_TRUE(same_json_in_order(j, R"json(
        {"amulet":{"dso":"DSO::1220fb89…ef18","owner":"alice::12201d5a…94c3e2",
                   "amount":{"initialAmount":"25.0000000000","createdAt":{"number":"15"},
                             "ratePerRound":{"rate":"0.0000190259"}}},
         "lock":{"holders":["provider::1220aa…"],"expiresAt":"2024-06-01T12:00:00Z",
                 "optContext":"payment for order 17"}})json"));
}

TEST(ValueJsonCodegen, WritesInt64FieldsAsStrings) {
    const Value v =
        Value::record({{"dso", Value::party("DSO::1220fb89…ef18")},
                       {"endUserParty", Value::party("alice::12201d5a…94c3e2")},
                       {"expiresAt", time("2024-06-01T12:05:00Z")},
                       {"trackingId", Value::text_value("myTrackingId")},
                       {"trafficAmount", Value::int64(200'000)},
                       {"memberId", Value::text_value("PAR::alice-validator::1220c3…")},
                       {"synchronizerId", Value::text_value("global-domain::1220be58…471a")},
                       {"migrationId", Value::int64(0)}});

    const OrderedJson j = to_codegen_json(v);

    EXPECT_TRUE(same_json_in_order(j, R"json(
        {"dso":"DSO::1220fb89…ef18","endUserParty":"alice::12201d5a…94c3e2",
         "expiresAt":"2024-06-01T12:05:00Z","trackingId":"myTrackingId","trafficAmount":"200000",
         "memberId":"PAR::alice-validator::1220c3…","synchronizerId":"global-domain::1220be58…471a",
         "migrationId":"0"})json"));
}

TEST(ValueJsonApiCompressed, WritesTheTransferOfferPayload) {
    const OrderedJson j = to_api_compressed_json(transfer_offer());

    EXPECT_TRUE(same_json_in_order(j, R"json(
        {"sender":"alice::12201d5a…94c3e2","receiver":"bob::12201d5a…94c3e2",
         "dso":"DSO::1220fb89…ef18","amount":{"amount":"10.0","unit":"AmuletUnit"},
         "description":"lunch","expiresAt":"2024-06-02T12:00:00Z",
         "trackingId":"5f0c7c5e-8b0d-4a53-9f43-1b2d6f6c2a10"})json"));
}

TEST(ValueJsonApiCompressed, WritesTheTransferCommandCounterPayload) {
    const Value v = Value::record({{"dso", Value::party("DSO::1220fb89…ef18")},
                                   {"sender", Value::party("alice::1220ab12…")},
                                   {"nextNonce", Value::int64(1)}});

    const OrderedJson j = to_api_compressed_json(v);

    EXPECT_TRUE(same_json_in_order(
        j, R"json({"dso":"DSO::1220fb89…ef18","sender":"alice::1220ab12…","nextNonce":"1"})json"));
}

TEST(ValueJsonApiCompressed, WritesTheVoteRequestPayloadWithVotesAsPairsAndNullOptionals) {
    const OrderedJson j = to_api_compressed_json(vote_request());

    EXPECT_TRUE(same_json_in_order(j, R"json(
        {"dso":"DSO::1220ebe7…1afb","requester":"Digital-Asset-2",
         "action":{"tag":"ARC_DsoRules","value":{"dsoAction":{"tag":"SRARC_OffboardSv",
                   "value":{"sv":"sv-3::1220aa…"}}}},
         "reason":{"url":"https://forum.example/offboard-sv3","body":"SV3 is leaving"},
         "voteBefore":"2024-09-18T10:27:52.300591Z",
         "votes":[["Digital-Asset-2",{"sv":"digital-asset-2::122063…da31","accept":true,
                   "reason":{"url":"","body":"I accept, as I requested the vote."},
                   "optCastAt":"2024-09-11T10:28:09.304591Z"}]],
         "trackingCid":null,"targetEffectiveAt":null})json"));
}

TEST(ValueJsonProtobuf, WritesTheImportUpdateCreateArgumentsPositionally) {
    const Value v = amulet("DSO::1220fb89…ef18", "alice::1220ab12…", "100", 12);

    const OrderedJson j = to_protobuf_json(v);

    EXPECT_TRUE(same_json_in_order(j, R"json(
        {"record": {"fields": [
          {"value": {"party": "DSO::1220fb89…ef18"}},
          {"value": {"party": "alice::1220ab12…"}},
          {"value": {"record": {"fields": [
            {"value": {"numeric": "100.0000000000"}},
            {"value": {"record": {"fields": [{"value": {"int64": "12"}}]}}},
            {"value": {"record": {"fields": [{"value": {"numeric": "0.0000190259"}}]}}}
          ]}}}
        ]}})json"));
}

TEST(ValueJsonProtobuf, WritesVariantsEnumsAndGenMapsOfTheVoteRequest) {
    const OrderedJson j = to_protobuf_json(vote_request());

    const OrderedJson& fields = j.at("record").at("fields");
    ASSERT_EQ(fields.size(), 8u);
    EXPECT_TRUE(same_json_in_order(fields[2], R"json(
        {"value":{"variant":{"constructor":"ARC_DsoRules","value":{"record":{"fields":[
          {"value":{"variant":{"constructor":"SRARC_OffboardSv","value":{"record":{"fields":[
            {"value":{"party":"sv-3::1220aa…"}}]}}}}}]}}}}})json"));
    EXPECT_TRUE(same_json_in_order(fields[5].at("value").at("genMap").at("entries")[0].at("key"),
                                   R"json({"text":"Digital-Asset-2"})json"));
    EXPECT_TRUE(same_json_in_order(fields[6], R"json({"value":{"optional":{}}})json"));
}

TEST(ValueJsonLedger, WritesTheIouCreateArgument) {
    const Value v = Value::record({{"issuer", Value::party("Alice::1220…")},
                                   {"owner", Value::party("Alice::1220…")},
                                   {"currency", Value::text_value("USD")},
                                   {"amount", number("999.99")},
                                   {"observers", Value::list({})}});

    const OrderedJson j = to_ledger_json(v);

    EXPECT_TRUE(same_json_in_order(j, R"json(
        {"issuer":"Alice::1220…","owner":"Alice::1220…","currency":"USD",
         "amount":"999.9900000000","observers":[]})json"));
}

TEST(ValueJsonLedger, DropsTrailingNoneFieldsOfTheVoteRequest) {
    const OrderedJson j = to_ledger_json(vote_request());

    EXPECT_FALSE(j.contains("trackingCid"));
    EXPECT_FALSE(j.contains("targetEffectiveAt"));
    EXPECT_EQ(j.at("voteBefore"), "2024-09-18T10:27:52.300591Z");
    EXPECT_EQ(j.back(), j.at("votes"));
}

TEST(ValueJsonLedger, KeepsNoneFieldsThatAreFollowedByAValue) {
    const Value v = Value::record({{"first", Value::none()},
                                   {"second", Value::int64(1)},
                                   {"third", Value::none()},
                                   {"fourth", Value::none()}});

    const OrderedJson j = to_ledger_json(v);

    EXPECT_TRUE(same_json_in_order(j, R"json({"first":null,"second":"1"})json"));
}

TEST(ValueJsonLedger, DropsTrailingNonesInNestedRecordsToo) {
    const Value inner = Value::record({{"a", Value::some(Value::int64(1))}, {"b", Value::none()}});
    const Value v = Value::record({{"inner", inner},
                                   {"list", Value::list({Value::none(), inner})},
                                   {"empty", Value::record({{"only", Value::none()}})}});

    const OrderedJson j = to_ledger_json(v);

    EXPECT_TRUE(
        same_json_in_order(j, R"json({"inner":{"a":"1"},"list":[null,{"a":"1"}],"empty":{}})json"));
}

TEST(ValueJsonCompactForms, KeepTrailingNoneFieldsAsNull) {
    const Value v = Value::record({{"a", Value::int64(1)}, {"b", Value::none()}});

    EXPECT_TRUE(same_json_in_order(to_codegen_json(v), R"json({"a":"1","b":null})json"));
    EXPECT_TRUE(same_json_in_order(to_api_compressed_json(v), R"json({"a":"1","b":null})json"));
}

// One value in all four encodings.
struct EncodingCase {
    Value value;
    std::string codegen;
    std::string api_compressed;
    std::string ledger;
    std::string protobuf;
};

void PrintTo(const EncodingCase& c, std::ostream* os) {
    *os << to_protobuf_json(c.value).dump();
}

class ValueJsonEncodes : public testing::TestWithParam<EncodingCase> {};

TEST_P(ValueJsonEncodes, AsCodegenJson) {
    const EncodingCase& c = GetParam();

    EXPECT_TRUE(same_json_in_order(to_codegen_json(c.value), c.codegen));
}

TEST_P(ValueJsonEncodes, AsApiCompressedJson) {
    const EncodingCase& c = GetParam();

    EXPECT_TRUE(same_json_in_order(to_api_compressed_json(c.value), c.api_compressed));
}

TEST_P(ValueJsonEncodes, AsLedgerJson) {
    const EncodingCase& c = GetParam();

    EXPECT_TRUE(same_json_in_order(to_ledger_json(c.value), c.ledger));
}

TEST_P(ValueJsonEncodes, AsProtobufJson) {
    const EncodingCase& c = GetParam();

    EXPECT_TRUE(same_json_in_order(to_protobuf_json(c.value), c.protobuf));
}

INSTANTIATE_TEST_SUITE_P(
    Scalars, ValueJsonEncodes,
    testing::Values(
        EncodingCase{Value::unit(), "{}", "{}", "{}", R"({"unit":{}})"},
        EncodingCase{Value::boolean(true), "true", "true", "true", R"({"bool":true})"},
        EncodingCase{Value::boolean(false), "false", "false", "false", R"({"bool":false})"},
        EncodingCase{Value::int64(12), R"("12")", R"("12")", R"("12")", R"({"int64":"12"})"},
        EncodingCase{Value::int64(0), R"("0")", R"("0")", R"("0")", R"({"int64":"0"})"},
        EncodingCase{Value::int64(std::numeric_limits<std::int64_t>::min()),
                     R"("-9223372036854775808")", R"("-9223372036854775808")",
                     R"("-9223372036854775808")", R"({"int64":"-9223372036854775808"})"},
        EncodingCase{Value::text_value("lunch"), R"("lunch")", R"("lunch")", R"("lunch")",
                     R"({"text":"lunch"})"},
        EncodingCase{Value::text_value(""), R"("")", R"("")", R"("")", R"({"text":""})"},
        EncodingCase{Value::party("alice::1220ab12"), R"("alice::1220ab12")",
                     R"("alice::1220ab12")", R"("alice::1220ab12")",
                     R"({"party":"alice::1220ab12"})"},
        EncodingCase{Value::contract_id("00c1a5ca10"), R"("00c1a5ca10")", R"("00c1a5ca10")",
                     R"("00c1a5ca10")", R"({"contractId":"00c1a5ca10"})"},
        EncodingCase{Value::date(19'875), R"("2024-06-01")", R"("2024-06-01")", R"("2024-06-01")",
                     R"({"date":19875})"},
        EncodingCase{Value::date(-719'162), R"("0001-01-01")", R"("0001-01-01")", R"("0001-01-01")",
                     R"({"date":-719162})"},
        EncodingCase{Value::enumeration("AmuletUnit"), R"("AmuletUnit")", R"("AmuletUnit")",
                     R"("AmuletUnit")", R"({"enum":{"constructor":"AmuletUnit"}})"}));

// Codegen keeps BigDecimal's scale of 10 (and its E notation below 10^-6), ApiCodecCompressed
// strips trailing zeros, the ledger and protobuf print all ten decimals.
INSTANTIATE_TEST_SUITE_P(
    Numerics, ValueJsonEncodes,
    testing::Values(EncodingCase{number("100"), R"("100.0000000000")", R"("100.0")",
                                 R"("100.0000000000")", R"({"numeric":"100.0000000000"})"},
                    EncodingCase{number("0.0000190259"), R"("0.0000190259")", R"("0.0000190259")",
                                 R"("0.0000190259")", R"({"numeric":"0.0000190259"})"},
                    EncodingCase{number("-2.5"), R"("-2.5000000000")", R"("-2.5")",
                                 R"("-2.5000000000")", R"({"numeric":"-2.5000000000"})"},
                    EncodingCase{number("0.000001"), R"("0.0000010000")", R"("0.000001")",
                                 R"("0.0000010000")", R"({"numeric":"0.0000010000"})"},
                    EncodingCase{number("0"), R"("0E-10")", R"("0.0")", R"("0.0000000000")",
                                 R"({"numeric":"0.0000000000"})"},
                    EncodingCase{number("-0"), R"("0E-10")", R"("0.0")", R"("0.0000000000")",
                                 R"({"numeric":"0.0000000000"})"},
                    EncodingCase{number("0.0000000001"), R"("1E-10")", R"("0.0000000001")",
                                 R"("0.0000000001")", R"({"numeric":"0.0000000001"})"},
                    EncodingCase{number("-0.0000000015"), R"("-1.5E-9")", R"("-0.0000000015")",
                                 R"("-0.0000000015")", R"({"numeric":"-0.0000000015"})"},
                    EncodingCase{number("0.0000009999"), R"("9.999E-7")", R"("0.0000009999")",
                                 R"("0.0000009999")", R"({"numeric":"0.0000009999"})"},
                    EncodingCase{number("0.000000001"), R"("1.0E-9")", R"("0.000000001")",
                                 R"("0.0000000010")", R"({"numeric":"0.0000000010"})"}));

// Codegen and ApiCodecCompressed print Instant forms (0, 3 or 6 digits), the ledger the fewest
// digits, protobuf the micros since the epoch.
INSTANTIATE_TEST_SUITE_P(
    Timestamps, ValueJsonEncodes,
    testing::Values(
        EncodingCase{time("2024-09-11T10:28:09.304591Z"), R"("2024-09-11T10:28:09.304591Z")",
                     R"("2024-09-11T10:28:09.304591Z")", R"("2024-09-11T10:28:09.304591Z")",
                     R"({"timestamp":"1726050489304591"})"},
        EncodingCase{time("2024-09-11T10:28:09.3Z"), R"("2024-09-11T10:28:09.300Z")",
                     R"("2024-09-11T10:28:09.300Z")", R"("2024-09-11T10:28:09.3Z")",
                     R"({"timestamp":"1726050489300000"})"},
        EncodingCase{time("2024-09-11T10:28:09.1234Z"), R"("2024-09-11T10:28:09.123400Z")",
                     R"("2024-09-11T10:28:09.123400Z")", R"("2024-09-11T10:28:09.1234Z")",
                     R"({"timestamp":"1726050489123400"})"},
        EncodingCase{time("2024-06-01T10:00:00Z"), R"("2024-06-01T10:00:00Z")",
                     R"("2024-06-01T10:00:00Z")", R"("2024-06-01T10:00:00Z")",
                     R"({"timestamp":"1717236000000000"})"},
        EncodingCase{time("1969-12-31T23:59:59.999999Z"), R"("1969-12-31T23:59:59.999999Z")",
                     R"("1969-12-31T23:59:59.999999Z")", R"("1969-12-31T23:59:59.999999Z")",
                     R"({"timestamp":"-1"})"}));

INSTANTIATE_TEST_SUITE_P(
    Containers, ValueJsonEncodes,
    testing::Values(
        EncodingCase{Value::list({}), "[]", "[]", "[]", R"({"list":{}})"},
        EncodingCase{Value::list({Value::int64(2), Value::int64(1)}), R"(["2","1"])",
                     R"(["2","1"])", R"(["2","1"])",
                     R"({"list":{"elements":[{"int64":"2"},{"int64":"1"}]}})"},
        EncodingCase{Value::text_map({}), "{}", "{}", "{}", R"({"textMap":{}})"},
        EncodingCase{Value::text_map({{"b", Value::int64(1)}, {"a", Value::int64(2)}}),
                     R"({"b":"1","a":"2"})", R"({"b":"1","a":"2"})", R"({"b":"1","a":"2"})",
                     R"({"textMap":{"entries":[{"key":"b","value":{"int64":"1"}},)"
                     R"({"key":"a","value":{"int64":"2"}}]}})"},
        EncodingCase{Value::text_map({{"", Value::int64(1)}}), R"({"":"1"})", R"({"":"1"})",
                     R"({"":"1"})", R"({"textMap":{"entries":[{"value":{"int64":"1"}}]}})"},
        EncodingCase{Value::gen_map({}), "[]", "[]", "[]", R"({"genMap":{}})"},
        EncodingCase{Value::gen_map({{Value::text_value("k"), Value::boolean(true)},
                                     {Value::text_value("j"), Value::boolean(false)}}),
                     R"([["k",true],["j",false]])", R"([["k",true],["j",false]])",
                     R"([["k",true],["j",false]])",
                     R"({"genMap":{"entries":[{"key":{"text":"k"},"value":{"bool":true}},)"
                     R"({"key":{"text":"j"},"value":{"bool":false}}]}})"},
        EncodingCase{Value::record({}), "{}", "{}", "{}", R"({"record":{}})"},
        EncodingCase{Value::record({{"z", Value::unit()}, {"a", Value::boolean(true)}}),
                     R"({"z":{},"a":true})", R"({"z":{},"a":true})", R"({"z":{},"a":true})",
                     R"({"record":{"fields":[{"value":{"unit":{}}},{"value":{"bool":true}}]}})"},
        EncodingCase{Value::variant("Bar", Value::int64(42)), R"({"tag":"Bar","value":"42"})",
                     R"({"tag":"Bar","value":"42"})", R"({"tag":"Bar","value":"42"})",
                     R"({"variant":{"constructor":"Bar","value":{"int64":"42"}}})"},
        EncodingCase{Value::variant("Quux", Value::none()), R"({"tag":"Quux","value":null})",
                     R"({"tag":"Quux","value":null})", R"({"tag":"Quux","value":null})",
                     R"({"variant":{"constructor":"Quux","value":{"optional":{}}}})"}));

// Codegen and ApiCodecCompressed follow the Daml-LF JSON spec, the ledger Canton's transcode
// codec (every nested level an array); see NestedOptionals in value_json.cpp.
INSTANTIATE_TEST_SUITE_P(
    Optionals, ValueJsonEncodes,
    testing::Values(EncodingCase{Value::none(), "null", "null", "null", R"({"optional":{}})"},
                    EncodingCase{Value::some(Value::int64(1)), R"("1")", R"("1")", R"("1")",
                                 R"({"optional":{"value":{"int64":"1"}}})"},
                    EncodingCase{Value::some(Value::none()), "[]", "[]", "[[]]",
                                 R"({"optional":{"value":{"optional":{}}}})"},
                    EncodingCase{Value::some(Value::some(Value::int64(1))), R"(["1"])", R"(["1"])",
                                 R"([["1"]])",
                                 R"({"optional":{"value":{"optional":{"value":{"int64":"1"}}}}})"},
                    EncodingCase{
                        Value::some(Value::some(Value::none())), "[[]]", "[[]]", "[[[]]]",
                        R"({"optional":{"value":{"optional":{"value":{"optional":{}}}}}})"},
                    EncodingCase{Value::some(Value::some(Value::some(Value::int64(1)))),
                                 R"([["1"]])", R"([["1"]])", R"([[["1"]]])",
                                 R"({"optional":{"value":{"optional":{"value":{"optional":)"
                                 R"({"value":{"int64":"1"}}}}}}})"},
                    EncodingCase{Value::some(Value::list({})), "[]", "[]", "[]",
                                 R"({"optional":{"value":{"list":{}}}})"},
                    EncodingCase{Value::list({Value::none(), Value::some(Value::int64(1))}),
                                 R"([null,"1"])", R"([null,"1"])", R"([null,"1"])",
                                 R"({"list":{"elements":[{"optional":{}},)"
                                 R"({"optional":{"value":{"int64":"1"}}}]}})"}));

}  // namespace
}  // namespace cantonlite::model::value_json_test
