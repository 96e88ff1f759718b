// The browser page's data (GET /_cantonlite/v1/overview) and the page itself (GET /).
#include "cantonlite/app/overview.hpp"

#include <string>

#include <gtest/gtest.h>

#include "../areas/admin/admin_test_support.hpp"

namespace cantonlite::app::overview_test {
namespace {

using areas::admin::admintest::LiveFixture;
using nlohmann::json;

class Overview : public LiveFixture {
  protected:
    json overview() { return admin("GET", "/overview"); }
    static const json& of(const json& list, const std::string& key, const std::string& prefix) {
        for (const json& entry : list) {
            if (entry.at(key).get<std::string>().rfind(prefix, 0) == 0) return entry;
        }
        static const json none;
        return none;
    }
};

TEST_F(Overview, HoldingsAreEachPartysUnlockedAmuletsAndTheirSum) {
    const json before = of(overview()["holdings"], "party", "alice::");
    ASSERT_TRUE(before.is_object());

    steps({{"step", "mint"}, {"owner", "alice"}, {"amount", "7.5"}});

    const json after = of(overview()["holdings"], "party", "alice::");
    EXPECT_EQ(after["amulets"], before["amulets"].get<int>() + 1);
    EXPECT_EQ(model::Decimal::parse(after["amount"].get<std::string>())->to_compact_string(),
              (*model::Decimal::parse(before["amount"].get<std::string>()) +
               *model::Decimal::parse("7.5"))
                  .to_compact_string());
}

TEST_F(Overview, TheLatestUpdatesComeFirstAndNameWhatTheyDid) {
    steps({{"step", "mint"}, {"owner", "bob"}, {"amount", "1"}});
    const json updates = overview()["updates"];
    ASSERT_FALSE(updates.empty());
    EXPECT_EQ(updates[0]["offset"], ledger_end());
    EXPECT_EQ(updates[0]["kind"], "transaction");
    EXPECT_EQ(updates[1]["offset"], ledger_end() - 1);
    EXPECT_LE(updates.size(), 20U);
    EXPECT_FALSE(updates[0]["roots"].empty());
}

TEST_F(Overview, OffersAndVoteRequestsAreTheOnesTheAppsList) {
    const json o = overview();
    const json offers =
        json::parse(as_user("alice", "GET", areas::admin::admintest::offers).body)["offers"];
    std::size_t alices = 0;
    for (const json& offer : o["transfer_offers"]) {
        const std::string sender = offer["sender"], receiver = offer["receiver"];
        if (sender.rfind("alice::", 0) == 0 || receiver.rfind("alice::", 0) == 0) ++alices;
        EXPECT_FALSE(offer["tracking_id"].get<std::string>().empty());
    }
    EXPECT_EQ(alices, offers.size());
    const json votes = json::parse(
        call("GET", "/api/scan/v0/admin/sv/voterequests").body)["dso_rules_vote_requests"];
    ASSERT_EQ(o["vote_requests"].size(), votes.size());
    EXPECT_EQ(o["vote_requests"][0]["action"], "ARC_DsoRules / SRARC_OffboardSv");
}

TEST_F(Overview, RightsAreEachUsersLedgerRights) {
    const json rights = overview()["rights"];
    const json& dave = of(rights, "user", "dave");
    EXPECT_EQ(dave["can_read_as"].size(), 2U);
    EXPECT_EQ(dave["validator"], nullptr);  // no LocalNet validator named: every validator's
    EXPECT_EQ(of(rights, "user", "auditor")["can_read_as_any_party"], true);
}

TEST_F(Overview, ThePageIsServedAtTheRootWhateverFaultsAreSet) {
    admin("POST", "/faults", {{"route", "*"}, {"error_status", 503}});
    const http::Response page = call("GET", "/");
    EXPECT_EQ(page.status, 200);
    EXPECT_EQ(page.content_type, "text/html; charset=utf-8");
    EXPECT_NE(page.body.find("<title>cantonlite</title>"), std::string::npos);
    EXPECT_EQ(page.body.find("http://"), std::string::npos);  // no external assets
    EXPECT_EQ(page.body.find("https://"), std::string::npos);
    EXPECT_EQ(call("GET", "/nothing/here").status, 404);
}

}  // namespace
}  // namespace cantonlite::app::overview_test
