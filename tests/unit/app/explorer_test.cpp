// The explorer's views (GET /_cantonlite/v1/explore/{update,contract,party,search}).
#include "cantonlite/app/explorer.hpp"

#include <functional>
#include <string>

#include <gtest/gtest.h>

#include "../areas/admin/admin_test_support.hpp"

namespace cantonlite::app::explorer_test {
namespace {

using areas::admin::admintest::alice;
using areas::admin::admintest::LiveFixture;
using nlohmann::json;

class Explorer : public LiveFixture {
  protected:
    json explore(const std::string& what, const std::string& key) {
        return admin("GET", "/explore/" + what + (what == "search" ? "?q=" : "?id=") + key);
    }
    // The offset of the latest update whose roots include `root`; 0 when none.
    std::int64_t latest_with_root(const std::string& root) {
        for (std::int64_t o = ledger_end(); o >= 1; --o) {
            const json update = explore("update", std::to_string(o));
            for (const json& r : update["roots"]) {
                if (r.get<std::string>().find(root) != std::string::npos) return o;
            }
        }
        return 0;
    }
    // Every node of an update's tree, in pre-order.
    static std::vector<json> nodes(const json& update) {
        std::vector<json> out;
        const std::function<void(const json&)> walk = [&](const json& node) {
            out.push_back(node);
            if (node.contains("children")) {
                for (const json& child : node["children"]) walk(child);
            }
        };
        for (const json& root : update["events"]) walk(root);
        return out;
    }
};

TEST_F(Explorer, AnUpdateIsFoundByItsOffsetOrItsIdWithItsTree) {
    const json written = steps({{"step", "mint"}, {"owner", "alice"}, {"amount", "7"}});
    const std::int64_t end = ledger_end();

    const json by_offset = explore("update", std::to_string(end));
    const json by_id = explore("update", by_offset["update_id"]);

    EXPECT_EQ(by_offset, by_id);
    EXPECT_EQ(by_offset["offset"], end);
    EXPECT_EQ(by_offset["kind"], "transaction");
    const std::vector<json> all = nodes(by_offset);
    ASSERT_FALSE(all.empty());
    // Node ids are the pre-order, and the mint creates alice's amulet of 7.
    for (std::size_t i = 0; i < all.size(); ++i) EXPECT_EQ(all[i]["node_id"], i);
    const auto amulet = std::find_if(all.begin(), all.end(), [](const json& n) {
        return n["kind"] == "created" && n["template"] == "Splice.Amulet:Amulet";
    });
    ASSERT_NE(amulet, all.end()) << by_offset.dump();
    EXPECT_EQ((*amulet)["argument"]["owner"], alice);
    EXPECT_EQ((*amulet)["argument"]["amount"]["initialAmount"], "7.0");
}

TEST_F(Explorer, AnExerciseShowsItsChoiceArgumentResultAndChildren) {
    const std::int64_t transfer = latest_with_root("AmuletRules_Transfer");
    ASSERT_GT(transfer, 0);

    const json update = explore("update", std::to_string(transfer));

    const json& root = update["events"][0];
    EXPECT_EQ(root["kind"], "exercised");
    EXPECT_EQ(root["choice"], "AmuletRules_Transfer");
    EXPECT_EQ(root["consuming"], false);
    EXPECT_TRUE(root["argument"].contains("transfer")) << root["argument"].dump();
    EXPECT_TRUE(root["result"].is_object());
    ASSERT_FALSE(root["children"].empty());
    // The inputs it spent are consuming exercises under it, and their contracts are archived
    // by this update.
    std::size_t consumed = 0;
    for (const json& n : nodes(update)) {
        if (n["kind"] != "exercised" || !n["consuming"].get<bool>()) continue;
        ++consumed;
        const json contract = explore("contract", n["contract_id"]);
        EXPECT_EQ(contract["archived"]["offset"], transfer);
        EXPECT_EQ(contract["archived"]["update_id"], update["update_id"]);
    }
    EXPECT_GT(consumed, 0U);
}

TEST_F(Explorer, AContractSaysWhereItWasCreatedAndWhetherItIsArchived) {
    steps({{"step", "mint"}, {"owner", "alice"}, {"amount", "3"}});
    const json update = explore("update", std::to_string(ledger_end()));
    std::string cid;
    for (const json& n : nodes(update)) {
        if (n["kind"] == "created") cid = n["contract_id"];
    }
    ASSERT_FALSE(cid.empty());

    const json contract = explore("contract", cid);

    EXPECT_EQ(contract["template"], "Splice.Amulet:Amulet");
    EXPECT_EQ(contract["package"], "splice-amulet");
    EXPECT_EQ(contract["created"]["offset"], ledger_end());
    EXPECT_EQ(contract["created"]["update_id"], update["update_id"]);
    EXPECT_EQ(contract["archived"], nullptr);
    EXPECT_EQ(contract["argument"]["owner"], alice);
    EXPECT_EQ(contract["signatories"].size(), 2U);
}

TEST_F(Explorer, APartysPageHasItsHoldingsAndItsLatestUpdates) {
    const json before = explore("party", "alice");
    EXPECT_EQ(before["party"], alice);
    EXPECT_EQ(explore("party", alice), before);  // by user id or by party id

    steps({{"step", "mint"}, {"owner", "alice"}, {"amount", "2.5"}});
    const json after = explore("party", "alice");

    EXPECT_EQ(after["holdings"]["total"], before["holdings"]["total"].get<int>() + 1);
    EXPECT_EQ(
        model::Decimal::parse(after["holdings"]["amount"].get<std::string>())->to_compact_string(),
        (*model::Decimal::parse(before["holdings"]["amount"].get<std::string>()) +
         *model::Decimal::parse("2.5"))
            .to_compact_string());
    EXPECT_EQ(after["updates"][0]["offset"], ledger_end());
    // The default network gives alice a locked amulet, offers both ways and an ANS entry.
    EXPECT_EQ(after["locked"]["total"], 1);
    EXPECT_EQ(after["transfer_offers"]["total"], 2);
    EXPECT_EQ(after["ans_entries"]["total"], 1);
    EXPECT_EQ(after["ans_entries"]["entries"][0]["name"].get<std::string>().rfind("alice", 0), 0U);
    // Bob's page does not list alice's tap.
    const json bob = explore("party", "bob");
    EXPECT_NE(bob["updates"][0]["offset"], ledger_end());
}

TEST_F(Explorer, TheSearchBoxFindsUpdatesContractsAndParties) {
    const json update = explore("update", "3");
    const std::string cid = nodes(update).back()["contract_id"];

    EXPECT_EQ(explore("search", "3"), json({{"kind", "update"}, {"id", "3"}}));
    EXPECT_EQ(explore("search", update["update_id"])["kind"], "update");
    EXPECT_EQ(explore("search", cid), json({{"kind", "contract"}, {"id", cid}}));
    EXPECT_EQ(explore("search", "bob")["kind"], "party");
    EXPECT_EQ(explore("search", "%20alice%20")["id"], alice);
}

TEST_F(Explorer, WhatIsNotThereIsA404) {
    EXPECT_EQ(admin_error("GET", "/explore/update?id=0", 404), "no update '0'");
    EXPECT_EQ(admin_error("GET", "/explore/update?id=" + std::to_string(ledger_end() + 1), 404),
              "no update '" + std::to_string(ledger_end() + 1) + "'");
    EXPECT_EQ(admin_error("GET", "/explore/contract?id=00ff", 404), "no contract '00ff'");
    EXPECT_EQ(admin_error("GET", "/explore/party?id=nobody", 404), "no party 'nobody'");
    EXPECT_EQ(admin_error("GET", "/explore/search?q=nothing", 404), "nothing is named 'nothing'");
    EXPECT_EQ(admin_error("GET", "/explore/search", 404), "nothing is named ''");
    EXPECT_EQ(admin_error("GET", "/explore/ledger?id=1", 404), "nothing to explore as 'ledger'");
    EXPECT_EQ(admin_error("GET", "/explore/update?id=99999999999999999999", 404),
              "no update '99999999999999999999'");
}

}  // namespace
}  // namespace cantonlite::app::explorer_test
