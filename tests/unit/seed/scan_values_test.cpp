// Values read back from a Scan's encodings (cantonlite fork): an update served in protobuf_json
// and compact_json comes back whole; a contract served in compact_json alone comes back as every
// compact encoding writes it.
#include "seed/scan_values.hpp"

#include <gtest/gtest.h>

#include "cantonlite/model/packed_value.hpp"
#include "cantonlite/model/value_json.hpp"

namespace cantonlite::seed::scan_values_test {
namespace {

using model::Decimal;
using model::Timestamp;
using model::Value;
using model::ValueEncoding;

// A parsed document that outlives the element handed out.
struct Parsed {
    simdjson::dom::parser parser;
    simdjson::dom::element root;
    explicit Parsed(const std::string& text) : root(parser.parse(text).value()) {}
};

const std::string party_a = "alice::1220" + std::string(64, 'a');
const std::string contract = "00" + std::string(64, 'c') + "ca101220" + std::string(64, 'd');

// Every kind, nested: what a Splice contract or choice holds.
Value every_kind() {
    return Value::record(
        {{"owner", Value::party(party_a)},
         {"amount", Value::numeric(*Decimal::parse("100.5"))},
         {"round", Value::record({{"number", Value::int64(12)}})},
         {"note", Value::text_value("12 apples")},
         {"digits", Value::text_value("x")},
         {"cid", Value::contract_id(contract)},
         {"at", Value::timestamp(Timestamp{1'735'689'600'123'456})},
         {"day", Value::date(20'000)},
         {"flag", Value::boolean(true)},
         {"nothing", Value::none()},
         {"some", Value::some(Value::text_value("x"))},
         {"nested", Value::some(Value::none())},
         {"list", Value::list({Value::int64(1), Value::int64(2)})},
         {"empty", Value::list({})},
         {"map", Value::text_map({{"k", Value::party(party_a)}})},
         {"gen",
          Value::gen_map({{Value::party(party_a), Value::record({{"n", Value::int64(1)}})}})},
         {"choice", Value::variant("Some", Value::record({{"x", Value::numeric(Decimal())}}))},
         {"kind", Value::enumeration("Red")},
         {"unit", Value::unit()}});
}

std::string encode(const Value& v, ValueEncoding e) {
    return value_json(pack(v), e);
}

TEST(ScanValues, AnUpdateServedInBothEncodingsComesBackWhole) {
    const Value v = every_kind();
    const Parsed typed(encode(v, ValueEncoding::protobuf));
    const Parsed labelled(encode(v, ValueEncoding::codegen));

    EXPECT_EQ(value_from_protobuf_json(typed.root, &labelled.root), v);
}

TEST(ScanValues, WithoutCompactJsonARecordIsLabelledByPosition) {
    const Value v = Value::record({{"a", Value::party(party_a)}, {"b", Value::int64(3)}});
    const Parsed typed(encode(v, ValueEncoding::protobuf));
    const Value read = value_from_protobuf_json(typed.root, nullptr);
    EXPECT_EQ(read, Value::record({{"_1", Value::party(party_a)}, {"_2", Value::int64(3)}}));
}

// An update read in protobuf_json alone, once the labels of its places were learnt from one read
// in both encodings, is packed straight from the JSON as the whole value would be.
TEST(ScanValues, AValueOfLearntPlacesIsPackedWithTheirLabels) {
    const Value v = every_kind();
    const Parsed typed(encode(v, ValueEncoding::protobuf));
    RecordLabels labels;
    EXPECT_FALSE(labels.packed(typed.root, "Splice.Amulet:Amulet/create").has_value());

    labels.learn(v, "Splice.Amulet:Amulet/create");
    const auto packed = labels.packed(typed.root, "Splice.Amulet:Amulet/create");
    ASSERT_TRUE(packed.has_value());
    EXPECT_EQ(packed->bytes(), pack(v).bytes());
    EXPECT_EQ(unpack(*packed), v);
    // Another place, or a record of another shape at a learnt one, is not known.
    EXPECT_FALSE(labels.packed(typed.root, "Splice.Amulet:Amulet/archive").has_value());
    const Parsed shorter(
        encode(Value::record({{"owner", Value::party(party_a)}}), ValueEncoding::protobuf));
    EXPECT_FALSE(labels.packed(shorter.root, "Splice.Amulet:Amulet/create").has_value());
    // A malformed value is refused as such, whatever its labels.
    const Parsed malformed(R"({"record":{"fields":[{"value":{"int64":"x"}}]}})");
    EXPECT_THROW((void)labels.packed(malformed.root, "elsewhere"), ScanValueError);
}

TEST(ScanValues, AContractInCompactJsonAloneIsWrittenBackAsItCame) {
    // Every kind but a nested Optional: compact_json writes Some None as [], which reads as an
    // empty List, and the Ledger API's encoding writes the two apart ([[]] and []).
    Value v = every_kind();
    v.items.erase(v.items.begin() + 11);
    v.labels.erase(v.labels.begin() + 11);
    for (const ValueEncoding e :
         {ValueEncoding::codegen, ValueEncoding::api_compressed, ValueEncoding::ledger}) {
        const Parsed compact(encode(v, ValueEncoding::codegen));
        const Value read = value_from_compact_json(compact.root);
        EXPECT_EQ(encode(read, e), encode(v, e)) << static_cast<int>(e);
    }
}

TEST(ScanValues, CompactJsonScalarsAreTypedByTheirShape) {
    const auto read = [](const std::string& text) {
        const Parsed parsed(text);
        return value_from_compact_json(parsed.root);
    };
    EXPECT_EQ(read("\"" + party_a + "\"").kind, Value::Kind::party);
    EXPECT_EQ(read("\"" + contract + "\"").kind, Value::Kind::contract_id);
    EXPECT_EQ(read("\"100.0000000000\"").kind, Value::Kind::numeric);
    EXPECT_EQ(read("\"-0.0000190259\"").kind, Value::Kind::numeric);
    EXPECT_EQ(read("\"0E-10\"").kind, Value::Kind::numeric);  // Java's BigDecimal.toString
    EXPECT_EQ(read("\"1E-10\"").kind, Value::Kind::numeric);
    EXPECT_EQ(read("\"12\"").kind, Value::Kind::int64);
    EXPECT_EQ(read("\"2025-01-31\"").kind, Value::Kind::date);
    EXPECT_EQ(read("\"2025-01-01T00:00:00Z\"").kind, Value::Kind::timestamp);
    // What no type writes back the same stays a text.
    EXPECT_EQ(read("\"1.5\"").kind, Value::Kind::text);
    EXPECT_EQ(read("\"012\"").kind, Value::Kind::text);
    EXPECT_EQ(read("\"99999999999999999999\"").kind, Value::Kind::text);
    EXPECT_EQ(read("\"alice::1220ab\"").kind, Value::Kind::text);
    EXPECT_EQ(read("\"Hello\"").kind, Value::Kind::text);
    EXPECT_EQ(read("null").kind, Value::Kind::optional);
    EXPECT_EQ(read("{\"tag\":\"A\",\"value\":{}}").kind, Value::Kind::variant);
    EXPECT_EQ(read("[[\"a\",1],[\"b\",2]]").kind, Value::Kind::gen_map);
    EXPECT_EQ(read("[1,2]").kind, Value::Kind::list);
}

TEST(ScanValues, EmptyContainersWhoseRepeatedFieldProtobufOmits) {
    for (const auto& [text, kind] : std::vector<std::pair<std::string, Value::Kind>>{
             {R"({"genMap":{}})", Value::Kind::gen_map},
             {R"({"textMap":{}})", Value::Kind::text_map},
             {R"({"list":{}})", Value::Kind::list},
             {R"({"record":{}})", Value::Kind::record}}) {
        const Parsed typed(text);
        const Value v = value_from_protobuf_json(typed.root, nullptr);
        EXPECT_EQ(v.kind, kind) << text;
        EXPECT_TRUE(v.items.empty()) << text;
    }
}

TEST(ScanValues, WhatIsNotProtobufJsonIsRefusedWithItsPlace) {
    const auto refusal = [](const char* text) -> std::string {
        try {
            const Parsed parsed(text);
            (void)value_from_protobuf_json(parsed.root, nullptr);
        } catch (const ScanValueError& e) {
            return e.what();
        }
        return "read";
    };
    EXPECT_EQ(refusal("{\"record\":{\"fields\":[{\"value\":{\"int64\":\"x\"}}]}}"),
              "/record/fields/0/value/int64: is not a 64-bit integer");
    EXPECT_EQ(refusal("{\"record\":{\"fields\":[{\"value\":{\"unit\":{}}},{\"value\":{\"list\":"
                      "{\"elements\":[{\"text\":\"a\"},{\"optional\":{\"value\":{\"genMap\":"
                      "{\"entries\":[{\"key\":{\"text\":1}}]}}}}]}}}]}}"),
              "/record/fields/1/value/list/elements/1/optional/value/genMap/entries/0/key/text: "
              "is not a string");
    EXPECT_EQ(refusal("{\"textMap\":{\"entries\":[{\"key\":\"k\",\"value\":{\"record\":"
                      "{\"fields\":{}}}}]}}"),
              "/textMap/entries/0/value/record/fields: is not an array");
    EXPECT_EQ(refusal("{\"colour\":\"red\"}"), "/: has no known kind \"colour\"");
    EXPECT_EQ(refusal("[1]"), "/: is not a protobuf_json value such as {\"text\": \"x\"}");
    EXPECT_EQ(refusal("{\"variant\":{\"value\":{\"unit\":{}}}}"),
              "/variant: has no \"constructor\"");
}

TEST(ScanValues, DeepNestingIsRefusedNotOverflowed) {
    std::string deep;
    for (int i = 0; i < 300; ++i) deep += "{\"list\":{\"elements\":[";
    deep += "{\"unit\":{}}";
    for (int i = 0; i < 300; ++i) deep += "]}}";
    const Parsed typed(deep);
    EXPECT_THROW((void)value_from_protobuf_json(typed.root, nullptr), ScanValueError);
    std::string compact(300, '[');
    compact += std::string(300, ']');
    const Parsed nested(compact);
    EXPECT_THROW((void)value_from_compact_json(nested.root), ScanValueError);
}

}  // namespace
}  // namespace cantonlite::seed::scan_values_test
