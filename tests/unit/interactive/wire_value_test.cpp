#include "cantonlite/interactive/wire_value.hpp"

#include <gtest/gtest.h>

#include "cantonlite/interactive/transaction_hash.hpp"

namespace cantonlite::interactive::wire_value_test {
namespace {

using model::Value;

Value every_kind() {
    return Value::record({
        {"unit", Value::unit()},
        {"yes", Value::boolean(true)},
        {"count", Value::int64(-42)},
        {"amount", Value::numeric(*model::Decimal::parse("12.5"))},
        {"memo", Value::text_value("hello")},
        {"owner", Value::party("alice::1220aa")},
        {"coin", Value::contract_id("00" + std::string(64, 'a'))},
        {"at", Value::timestamp(model::Timestamp{1729788226000000})},
        {"day", Value::date(20020)},
        {"none", Value::none()},
        {"some", Value::some(Value::text_value("x"))},
        {"list", Value::list({Value::int64(1), Value::int64(2)})},
        {"map", Value::text_map({{"k", Value::text_value("v")}})},
        {"gen", Value::gen_map({{Value::int64(5), Value::text_value("five")}})},
        {"choice", Value::variant("Some", Value::unit())},
        {"kind", Value::enumeration("AmuletUnit")},
    });
}

TEST(WireValue, EveryKindComesBackAsItWent) {
    const Value v = every_kind();
    EXPECT_EQ(from_wire(to_wire(v)), v);
}

TEST(WireValue, TypesStayApartOnTheWire) {
    // The hash tells Party from Text, Numeric from Text, a contract id from Text.
    const wire::Value w = to_wire(every_kind());
    const auto& fields = w.record().fields();
    EXPECT_TRUE(fields[3].value().has_numeric());
    EXPECT_EQ(fields[3].value().numeric(), "12.5000000000");  // Daml's Numeric 10 text
    EXPECT_TRUE(fields[4].value().has_text());
    EXPECT_TRUE(fields[5].value().has_party());
    EXPECT_TRUE(fields[6].value().has_contract_id());
    EXPECT_EQ(fields[0].label(), "unit");
    EXPECT_NE(value_encoding(to_wire(Value::party("p"))),
              value_encoding(to_wire(Value::text_value("p"))));
}

TEST(WireValue, ANumericOtherThanCanonicalNumeric10IsRefused) {
    wire::Value w;
    w.set_numeric("5.");  // Numeric 0
    EXPECT_THROW((void)from_wire(w), WireValueError);
    w.set_numeric("12.5");
    EXPECT_THROW((void)from_wire(w), WireValueError);
    w.set_numeric("12.5000000000");
    EXPECT_EQ(from_wire(w), Value::numeric(*model::Decimal::parse("12.5")));
}

TEST(WireValue, AValueWithoutItsSumOrTooDeepIsRefused) {
    EXPECT_THROW((void)from_wire(wire::Value{}), WireValueError);
    wire::Value deep;
    wire::Value* at = &deep;
    for (int i = 0; i < 150; ++i) at = at->mutable_optional()->mutable_value();
    at->mutable_unit();
    EXPECT_THROW((void)from_wire(deep), WireValueError);
}

}  // namespace
}  // namespace cantonlite::interactive::wire_value_test
