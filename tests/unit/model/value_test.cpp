#include "cantonlite/model/value.hpp"

#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace cantonlite::model::value_test {
namespace {

using Kind = Value::Kind;

TEST(Value, DefaultIsUnit) {
    const Value v;

    EXPECT_EQ(v.kind, Kind::unit);
    EXPECT_EQ(v, Value::unit());
}

TEST(Value, ScalarsKeepTheirPayload) {
    EXPECT_EQ(Value::boolean(true).number, 1);
    EXPECT_EQ(Value::boolean(false).number, 0);
    EXPECT_EQ(Value::int64(-12).number, -12);
    EXPECT_EQ(Value::numeric(*Decimal::parse("2.5")).decimal, *Decimal::parse("2.5"));
    EXPECT_EQ(Value::timestamp(Timestamp{1'500'000}).number, 1'500'000);
    EXPECT_EQ(Value::date(19'875).number, 19'875);
}

TEST(Value, TextLikeValuesKeepTheTextAndTheirKind) {
    const Value text = Value::text_value("lunch");
    const Value party = Value::party("alice::1220ab12");
    const Value cid = Value::contract_id("00c1a5");

    EXPECT_EQ(text.kind, Kind::text);
    EXPECT_EQ(party.kind, Kind::party);
    EXPECT_EQ(cid.kind, Kind::contract_id);
    EXPECT_EQ(party.text, "alice::1220ab12");
    EXPECT_NE(text, Value::party("lunch"));
}

TEST(Value, NoneHasNoItemsAndSomeHasOne) {
    const Value none = Value::none();
    const Value some = Value::some(Value::int64(1));

    EXPECT_EQ(none.kind, Kind::optional);
    EXPECT_TRUE(none.items.empty());
    EXPECT_EQ(some.kind, Kind::optional);
    EXPECT_EQ(some.items, std::vector<Value>{Value::int64(1)});
}

TEST(Value, OptionalMapsStdOptional) {
    EXPECT_EQ(Value::optional(std::nullopt), Value::none());
    EXPECT_EQ(Value::optional(Value::text_value("x")), Value::some(Value::text_value("x")));
}

TEST(Value, ListKeepsElementOrder) {
    const Value list = Value::list({Value::int64(2), Value::int64(1)});

    EXPECT_EQ(list.kind, Kind::list);
    EXPECT_EQ(list.items, (std::vector<Value>{Value::int64(2), Value::int64(1)}));
}

TEST(Value, TextMapSplitsKeysAndValues) {
    const Value map = Value::text_map({{"b", Value::int64(1)}, {"a", Value::int64(2)}});

    EXPECT_EQ(map.kind, Kind::text_map);
    EXPECT_EQ(map.labels, (std::vector<std::string>{"b", "a"}));
    EXPECT_EQ(map.items, (std::vector<Value>{Value::int64(1), Value::int64(2)}));
}

TEST(Value, GenMapInterleavesKeysAndValues) {
    const Value map = Value::gen_map({{Value::text_value("k"), Value::boolean(true)}});

    EXPECT_EQ(map.kind, Kind::gen_map);
    EXPECT_TRUE(map.labels.empty());
    EXPECT_EQ(map.items, (std::vector<Value>{Value::text_value("k"), Value::boolean(true)}));
}

TEST(Value, RecordKeepsDeclarationOrder) {
    const Value record = Value::record({{"sender", Value::party("a")}, {"amount", Value::unit()}});

    EXPECT_EQ(record.kind, Kind::record);
    EXPECT_EQ(record.labels, (std::vector<std::string>{"sender", "amount"}));
    EXPECT_EQ(record.items, (std::vector<Value>{Value::party("a"), Value::unit()}));
}

TEST(Value, VariantHasConstructorAndOneValue) {
    const Value variant = Value::variant("ARC_DsoRules", Value::unit());

    EXPECT_EQ(variant.kind, Kind::variant);
    EXPECT_EQ(variant.text, "ARC_DsoRules");
    EXPECT_EQ(variant.items, std::vector<Value>{Value::unit()});
}

TEST(Value, EnumerationHasOnlyAConstructor) {
    const Value e = Value::enumeration("AmuletUnit");

    EXPECT_EQ(e.kind, Kind::enumeration);
    EXPECT_EQ(e.text, "AmuletUnit");
    EXPECT_TRUE(e.items.empty());
}

TEST(Value, FieldFindsARecordFieldByLabel) {
    const Value record =
        Value::record({{"dso", Value::party("DSO::1")}, {"owner", Value::party("alice::1")}});

    const Value* owner = record.field("owner");

    ASSERT_NE(owner, nullptr);
    EXPECT_EQ(*owner, Value::party("alice::1"));
}

TEST(Value, FieldIsNullForAnUnknownLabel) {
    const Value record = Value::record({{"dso", Value::party("DSO::1")}});

    EXPECT_EQ(record.field("owner"), nullptr);
}

TEST(Value, EqualityComparesNestedValues) {
    const Value a = Value::record({{"amount", Value::record({{"rate", Value::int64(1)}})}});
    const Value b = Value::record({{"amount", Value::record({{"rate", Value::int64(2)}})}});

    EXPECT_EQ(a, a);
    EXPECT_NE(a, b);
}

}  // namespace
}  // namespace cantonlite::model::value_test
