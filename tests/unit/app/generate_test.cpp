#include "cantonlite/app/generate.hpp"

#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cantonlite/app/cli.hpp"
#include "cantonlite/model/timestamp.hpp"
#include "cantonlite/seed/seed_loader.hpp"

namespace cantonlite::app::generate_test {
namespace {

using nlohmann::json;

constexpr GenerateSpec small{.parties = 6, .amulets = 40, .updates = 200, .seed = 7};

std::string generated(const GenerateSpec& spec) {
    std::ostringstream out;
    write_generated_seed(out, spec);
    return out.str();
}

TEST(WriteGeneratedSeed, LoadsAsASeed) {
    const json document = json::parse(generated(small));

    const auto store = seed::load_seed(document, "generated.json");

    // The bootstrap, then one transaction per step but the two snapshots.
    EXPECT_EQ(store->ledger_end(), 1 + small.amulets + small.updates);
    EXPECT_EQ(store->snapshot_times().size(), 2U);
    EXPECT_GT(store->active_counts().at("splice-amulet:Splice.Amulet:Amulet"), 0U);
}

TEST(WriteGeneratedSeed, MakesOneUserPerPartyWithWalletsForTheFirstHalf) {
    const json document = json::parse(generated(small));

    const json& users = document["users"];
    ASSERT_EQ(users.size(), 6U);
    for (std::size_t i = 0; i < users.size(); ++i) {
        EXPECT_EQ(users[i]["id"], "party-" + std::to_string(i));
        EXPECT_EQ(users[i]["wallet"], i < 3) << i;
    }
}

TEST(WriteGeneratedSeed, MintsFirstThenMixesTheOtherKinds) {
    const json document = json::parse(generated(small));

    std::set<std::string> later_kinds;
    const json& steps = document["steps"];
    ASSERT_EQ(steps.size(), 40U + 200U + 2U);
    std::size_t mints = 0;
    for (const json& s : steps) mints += s["step"] == "mint" ? 1 : 0;
    EXPECT_EQ(mints, 40U);
    for (std::size_t i = 41; i < steps.size(); ++i) later_kinds.insert(steps[i]["step"]);
    for (const char* kind : {"transfer", "create_transfer_offer", "create_buy_traffic_request",
                             "register_ans_entry", "transfer_command", "snapshot"}) {
        EXPECT_TRUE(later_kinds.contains(kind)) << kind;
    }
}

TEST(WriteGeneratedSeed, StepsAreOneSecondApart) {
    const json document = json::parse(generated(small));

    const json& steps = document["steps"];
    const auto start =
        *model::parse_timestamp(document["network"]["start_time"].get<std::string>());
    for (std::size_t i = 0; i < steps.size(); ++i) {
        const auto at = model::parse_timestamp(steps[i]["at"].get<std::string>());
        ASSERT_TRUE(at.has_value()) << steps[i];
        EXPECT_EQ(at->micros, start.micros + static_cast<std::int64_t>(i + 1) * 1'000'000) << i;
    }
}

TEST(WriteGeneratedSeed, SameSeedGivesTheSameBytes) {
    EXPECT_EQ(generated(small), generated(small));
}

TEST(WriteGeneratedSeed, DifferentSeedsDiffer) {
    GenerateSpec other = small;
    other.seed = 8;

    EXPECT_NE(generated(small), generated(other));
}

TEST(WriteGeneratedSeed, OnePartyWithoutStepsStillLoads) {
    const json document = json::parse(generated({.parties = 1, .amulets = 0, .updates = 0}));

    const auto store = seed::load_seed(document, "generated.json");

    EXPECT_EQ(store->network().users.size(), 1U);
    EXPECT_EQ(store->snapshot_times().size(), 1U);
}

TEST(WriteGeneratedSeed, OnePartyTransfersToItself) {
    const json document = json::parse(generated({.parties = 1, .amulets = 5, .updates = 50}));

    EXPECT_NO_THROW((void)seed::load_seed(document, "generated.json"));
}

TEST(ParseCommandLine, GenerateTakesSizesAndSeed) {
    const CommandLine cli = parse_command_line(
        {"generate", "--parties", "3", "--amulets=2", "--updates", "1", "--seed", "9"});

    EXPECT_EQ(cli.command, Command::generate);
    EXPECT_EQ(cli.generate.parties, 3);
    EXPECT_EQ(cli.generate.amulets, 2);
    EXPECT_EQ(cli.generate.updates, 1);
    EXPECT_EQ(cli.generate.seed, 9U);
}

TEST(ParseCommandLine, GenerateNeedsItsSizes) {
    std::string error;
    try {
        (void)parse_command_line({"generate", "--parties", "3", "--amulets", "2"});
    } catch (const UsageError& e) {
        error = e.what();
    }

    EXPECT_EQ(error, "--updates: is required (see --help)");
}

}  // namespace
}  // namespace cantonlite::app::generate_test
