// Splice payloads packed without a Value tree (splice/payloads.hpp).
#include "cantonlite/splice/payloads.hpp"

#include <gtest/gtest.h>

#include "cantonlite/model/packed_writer.hpp"

namespace cantonlite::splice::payloads {
namespace {

using model::Decimal;
using model::Name;

TapFacts a_tap() {
    return TapFacts{.receiver = Name("alice::1220aa"),
                    .amount = *Decimal::parse("1234.5678901234"),
                    .amulet = Name("00c0ffee")};
}

TEST(TapFacts, AreReadBackFromTheValuesTheyMake) {
    const TapFacts tap = a_tap();
    const auto read = TapFacts::of(tap.argument(), tap.result());
    ASSERT_TRUE(read);
    EXPECT_EQ(read->receiver, tap.receiver);
    EXPECT_EQ(read->amount, tap.amount);
    EXPECT_EQ(read->amulet, tap.amulet);
    // The values are Splice's: the argument {receiver, amount}; the result the amulet made and a
    // mint's metadata.
    EXPECT_EQ(model::unpack(tap.argument()),
              Value::record({{"receiver", Value::party("alice::1220aa")},
                             {"amount", Value::numeric(tap.amount)}}));
    EXPECT_EQ(model::unpack(tap.result()),
              Value::record({{"amuletSum", single("amulet", Value::contract_id("00c0ffee"))},
                             {"meta", Value::some(holding_tx_meta(TxKind::mint, "tapped faucet",
                                                                  std::nullopt, std::nullopt))}}));
}

// Values a tap's facts do not make byte for byte are not a tap's: a state file keeps them whole.
TEST(TapFacts, AreNotReadFromOtherValues) {
    const TapFacts tap = a_tap();
    const model::PackedValue empty;
    const model::PackedValue other_meta = model::pack(
        Value::record({{"amuletSum", single("amulet", Value::contract_id("00c0ffee"))},
                       {"meta", Value::some(holding_tx_meta(TxKind::mint, "another reason",
                                                            std::nullopt, std::nullopt))}}));
    const model::PackedValue extra_field =
        model::pack(Value::record({{"receiver", Value::party("alice::1220aa")},
                                   {"amount", Value::numeric(tap.amount)},
                                   {"note", Value::text_value("x")}}));
    const model::PackedValue text_receiver =
        model::pack(Value::record({{"receiver", Value::text_value("alice::1220aa")},
                                   {"amount", Value::numeric(tap.amount)}}));
    EXPECT_FALSE(TapFacts::of(tap.argument(), other_meta));
    EXPECT_FALSE(TapFacts::of(extra_field, tap.result()));
    EXPECT_FALSE(TapFacts::of(text_receiver, tap.result()));
    EXPECT_FALSE(TapFacts::of(tap.result(), tap.argument()));
    EXPECT_FALSE(TapFacts::of(empty, tap.result()));
    EXPECT_FALSE(TapFacts::of(tap.argument(), empty));
    EXPECT_FALSE(TapFacts::of(model::pack(Value::unit()), tap.result()));
}

}  // namespace
}  // namespace cantonlite::splice::payloads
