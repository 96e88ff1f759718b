// `serve --clock now`: the ledger time moves to the wall clock at start and a mining round opens
// around it, so that a client that picks its round by its own clock (the wallet SDK) finds one.
#include "cantonlite/app/wall_clock.hpp"

#include <memory>

#include <gtest/gtest.h>

#include "cantonlite/model/packed_value.hpp"
#include "cantonlite/splice/splice_views.hpp"

namespace cantonlite::app::wall_clock_test {
namespace {

model::Timestamp at(const char* text) {
    return *model::parse_timestamp(text);
}

// Whether an OpenMiningRound is open at `t`: opensAt <= t < targetClosesAt.
bool round_open_at(const store::LedgerStore& store, model::Timestamp t) {
    for (const store::ContractState& r : splice::views(store).open_rounds()) {
        const model::Value v = model::unpack(r.contract->argument);
        std::int64_t opens = 0;
        std::int64_t closes = 0;
        for (std::size_t i = 0; i < v.labels.size(); ++i) {
            if (v.labels[i] == "opensAt") opens = v.items[i].number;
            if (v.labels[i] == "targetClosesAt") closes = v.items[i].number;
        }
        if (opens <= t.micros && t.micros < closes) return true;
    }
    return false;
}

class WallClock : public ::testing::Test {
  protected:
    std::unique_ptr<seed::LiveNetwork> network_ =
        seed::LiveNetwork::load_file(CANTONLITE_SOURCE_DIR "/config/default-network.json");
};

TEST_F(WallClock, TheLedgerTimeMovesToTheWallClockAndARoundOpensAroundIt) {
    const model::Timestamp wall = at("2030-01-01T00:00:00.750Z");
    ASSERT_FALSE(round_open_at(network_->store(), wall));

    const model::Timestamp t = start_at_wall_clock(*network_, wall);

    EXPECT_GE(t.micros, at("2030-01-01T00:00:00Z").micros);  // whole seconds
    EXPECT_LT(t.micros, at("2030-01-01T00:00:02Z").micros);
    EXPECT_TRUE(round_open_at(network_->store(), t));
    EXPECT_TRUE(round_open_at(network_->store(), at("2030-01-01T23:00:00Z")));  // for a day
}

TEST_F(WallClock, ARestartOpensNoSecondRoundAndNeverMovesTheClockBack) {
    const model::Timestamp t = start_at_wall_clock(*network_, at("2030-01-01T00:00:00Z"));
    const std::int64_t end = network_->store().ledger_end();

    EXPECT_EQ(start_at_wall_clock(*network_, at("2030-01-01T00:00:00Z")).micros, t.micros);
    EXPECT_EQ(network_->store().ledger_end(), end);
    EXPECT_EQ(start_at_wall_clock(*network_, at("2029-01-01T00:00:00Z")).micros, t.micros);
    EXPECT_EQ(network_->store().ledger_end(), end);
}

}  // namespace
}  // namespace cantonlite::app::wall_clock_test
