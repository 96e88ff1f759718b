#include "cantonlite/model/packed_value.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cantonlite/model/name.hpp"
#include "cantonlite/model/packed_writer.hpp"
#include "cantonlite/model/value_json.hpp"

namespace cantonlite::model::packed_value_test {
namespace {

using nlohmann::json;

Value number(std::string_view decimal) {
    return Value::numeric(*Decimal::parse(decimal));
}

// One value of every kind, nested, with the extremes of each number.
std::vector<Value> every_kind() {
    return {
        Value::unit(),
        Value::boolean(true),
        Value::boolean(false),
        Value::int64(0),
        Value::int64(-1),
        Value::int64(std::numeric_limits<std::int64_t>::max()),
        Value::int64(std::numeric_limits<std::int64_t>::min()),
        number("0"),
        number("-0.0000000001"),
        number("9999999999999999999999999999.9999999999"),
        number("-9999999999999999999999999999.9999999999"),
        Value::text_value(""),
        Value::text_value("l\u00fcnch \"quoted\"\n"),
        Value::party("alice::1220ab"),
        Value::contract_id("00" + std::string(64, 'a')),
        Value::timestamp(Timestamp{-62135596800000000}),
        Value::date(-719162),
        Value::none(),
        Value::some(Value::none()),
        Value::some(Value::some(Value::int64(1))),
        Value::list({}),
        Value::list({Value::int64(1), Value::text_value("two")}),
        Value::text_map({{"", Value::unit()}, {"k", Value::int64(2)}}),
        Value::gen_map({{Value::int64(1), Value::party("bob::1220cd")}}),
        Value::record({}),
        Value::record({{"a", Value::none()}, {"b", Value::record({{"c", Value::none()}})}}),
        Value::variant("Ctor", Value::list({Value::unit()})),
        Value::enumeration("Red"),
    };
}

TEST(PackedValue, UnpacksToTheValueItPacked) {
    for (const Value& v : every_kind()) {
        EXPECT_EQ(unpack(pack(v)), v) << value_json(pack(v), ValueEncoding::protobuf);
    }
}

// Values of every length around the inline limit (7 bytes) survive copies, moves and
// assignments, in both forms.
TEST(PackedValue, ShortAndLongValuesCopyAndMoveAlike) {
    static_assert(sizeof(PackedValue) == 8);
    for (std::size_t n = 0; n <= 20; ++n) {
        const Value v = Value::text_value(std::string(n, 'x'));  // kind, length, then n bytes
        const PackedValue packed = pack(v);
        PackedValue copy = packed;
        EXPECT_EQ(copy, packed);
        PackedValue moved = std::move(copy);
        EXPECT_EQ(unpack(moved), v) << n;
        EXPECT_EQ(unpack(copy), Value::unit());  // a moved-from value is Unit
        PackedValue assigned;
        assigned = packed;
        const PackedValue& same = assigned;
        assigned = same;  // self-assignment keeps it
        EXPECT_EQ(unpack(assigned), v) << n;
        PackedValue long_one = pack(Value::text_value(std::string(40, 'y')));
        long_one = std::move(assigned);
        EXPECT_EQ(unpack(long_one), v) << n;
    }
}

// A copy into storage the caller keeps (as a transaction's block keeps its exercises' values)
// reads the same; an inline one takes no storage; copies of it own their bytes, so they outlive
// the storage.
TEST(PackedValue, ACopyIntoStorageReadsTheSameAndItsCopiesOwnTheirBytes) {
    for (std::size_t n = 0; n <= 20; ++n) {
        const Value v = Value::text_value(std::string(n, 'x'));
        const PackedValue packed = pack(v);
        const std::size_t size = packed.external_size();
        EXPECT_EQ(size % 4, 0U) << n;
        EXPECT_EQ(size == 0, packed.size() <= 7) << n;
        auto storage = std::make_unique<std::uint32_t[]>(size / 4 + 1);
        PackedValue copy;
        {
            PackedValue into = packed.copy_into(storage.get());
            EXPECT_EQ(into, packed) << n;
            EXPECT_EQ(unpack(into), v) << n;
            copy = into;
            PackedValue moved = std::move(into);
            EXPECT_EQ(unpack(moved), v) << n;
        }
        std::fill_n(storage.get(), size / 4 + 1, 0xFFFFFFFFU);
        storage.reset();
        EXPECT_EQ(unpack(copy), v) << n;
    }
}

TEST(PackedValue, FieldAtReadsOneFieldPastValuesOfEveryKind) {
    std::vector<std::pair<std::string, Value>> fields;
    for (const Value& v : every_kind()) fields.emplace_back("f" + std::to_string(fields.size()), v);
    fields.emplace_back("inner", Value::record({{"x", Value::int64(1)}, {"last", number("2.5")}}));
    const PackedValue packed = pack(Value::record(fields));

    EXPECT_EQ(field_at(packed, {"inner", "last"}), number("2.5"));
    EXPECT_EQ(field_at(packed, {"f1"}), Value::boolean(true));
    EXPECT_EQ(field_at(packed, {"inner"}), fields.back().second);
    EXPECT_FALSE(field_at(packed, {"inner", "missing"}).has_value());
    EXPECT_FALSE(field_at(packed, {"f21", "x"}).has_value());  // a list, not a record
    EXPECT_FALSE(field_at(packed, {"a label nothing interned"}).has_value());
}

TEST(PackedValue, TheDefaultIsUnit) {
    EXPECT_EQ(unpack(PackedValue()), Value::unit());
    EXPECT_EQ(PackedValue(), pack(Value::unit()));
}

TEST(PackedValue, EqualValuesPackToEqualBytes) {
    const std::vector<Value> values = every_kind();
    for (std::size_t i = 0; i < values.size(); ++i) {
        for (std::size_t j = 0; j < values.size(); ++j) {
            EXPECT_EQ(pack(values[i]) == pack(values[j]), values[i] == values[j]) << i << " " << j;
        }
    }
}

// A text that is a Name (a party's id quoted in metadata, a vocabulary interned by its writer) is
// kept as the Name's id: the same value, a few bytes, and equal to the same text packed inline.
TEST(PackedValue, ATextThatIsANameIsKeptAsItsId) {
    const std::string text = "packed-text-test::1220" + std::string(64, 'e');
    const Value v = Value::record({{"sender", Value::text_value(text)}});
    const PackedValue inline_text = pack(v);
    (void)Name(text);

    const PackedValue as_name = pack(v);

    EXPECT_GE(inline_text.size(), text.size());
    EXPECT_LE(as_name.size(), 12U);
    EXPECT_EQ(unpack(as_name), v);
    EXPECT_EQ(field_at(as_name, {"sender"}), Value::text_value(text));
    for (const auto e : {ValueEncoding::ledger, ValueEncoding::protobuf, ValueEncoding::codegen})
        EXPECT_EQ(value_json(as_name, e), value_json(inline_text, e));
    EXPECT_EQ(as_name, inline_text);
    EXPECT_NE(as_name, pack(Value::record({{"sender", Value::party(text)}})));
}

// Text-map keys (metadata keys such as splice.lfdecentralizedtrust.org/tx-kind) are Names.
TEST(PackedValue, TextMapKeysAreNames) {
    const std::string key(60, 'k');
    const Value v = Value::text_map({{key, Value::int64(1)}, {"", Value::int64(2)}});

    const PackedValue packed = pack(v);

    EXPECT_LE(packed.size(), 16U);
    EXPECT_EQ(unpack(packed), v);
    EXPECT_EQ(json::parse(value_json(packed, ValueEncoding::ledger)),
              (json{{key, "1"}, {"", "2"}}));
}

// A value written node by node with Names interned once (a step compiler's fixed labels) has the
// bytes pack() gives the same Value: every kind a step writes so, a text kept as a Name included.
TEST(PackedValue, AValueWrittenNodeByNodeIsTheValuePacked) {
    const Name owner("writer-test::1220" + std::string(64, 'a'));
    const Name cid("00" + std::string(64, 'b'));
    const Name word("writer-test word");
    const Value expected = Value::record(
        {{"owner", Value::party(owner.str())},
         {"amount", number("-12.5")},
         {"round", Value::int64(-3)},
         {"amulet", Value::contract_id(cid.str())},
         {"meta", Value::some(Value::text_map({{"kind", Value::text_value(word.str())}}))}});

    const PackedValue written = packed::write([&](packed::Writer& w) {
        w.record(5);
        w.name(Name("owner"));
        w.party(owner);
        w.name(Name("amount"));
        w.numeric(*Decimal::parse("-12.5"));
        w.name(Name("round"));
        w.int64(-3);
        w.name(Name("amulet"));
        w.contract_id(cid);
        w.name(Name("meta"));
        w.some();
        w.text_map(1);
        w.name(Name("kind"));
        w.text_node(word);
    });

    EXPECT_EQ(written.bytes(), pack(expected).bytes());
    EXPECT_EQ(unpack(written), expected);
}

// The point of the form: an Amulet argument is a fraction of any of its JSON encodings.
TEST(PackedValue, AnAmuletTakesAFractionOfItsJson) {
    const std::string party = "party-17::1220" + std::string(64, 'c');
    const Value amulet = Value::record(
        {{"dso", Value::party("DSO::1220" + std::string(64, 'd'))},
         {"owner", Value::party(party)},
         {"amount",
          Value::record({{"initialAmount", number("116.28")},
                         {"createdAt", Value::record({{"number", Value::int64(3)}})},
                         {"ratePerRound", Value::record({{"rate", number("0.0000190259")}})}})}});
    const PackedValue packed = pack(amulet);
    EXPECT_LE(packed.size(), 48U);
    EXPECT_GE(value_json(packed, ValueEncoding::codegen).size(), 5 * packed.size());
}

}  // namespace
}  // namespace cantonlite::model::packed_value_test
