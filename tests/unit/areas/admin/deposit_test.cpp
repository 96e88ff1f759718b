// A deposit driven through the admin API, seen by every API: mint to alice, an offer from alice to
// bob, bob accepts and alice's wallet completes the transfer. Op 1, op 3, op 4, op 6 and Scan's
// holdings summaries all agree on what happened.
#include "areas/admin/admin_test_support.hpp"

namespace cantonlite::areas::admin::deposit_test {
namespace {

using admintest::alice;
using admintest::bob;
using admintest::LiveFixture;
using admintest::offers;
using nlohmann::json;

const std::string next_snapshot = "2025-01-20T03:00:00Z";  // Scan's first one at run time

class Deposit : public LiveFixture {
  protected:
    // The offers' tracking ids in op 4 as `user`.
    std::vector<std::string> tracking_ids(const std::string& user) {
        const json body = json::parse(as_user(user, "GET", offers).body);
        std::vector<std::string> out;
        for (const json& o : body.at("offers")) out.push_back(o.at("payload").at("trackingId"));
        return out;
    }

    // Scan's holdings summary (v1) of alice and bob at the run time's first snapshot, by party.
    std::map<std::string, json> summaries(const std::string& path) {
        const http::Response r = call("POST", path,
                                      json{{"migration_id", 1},
                                           {"record_time", next_snapshot},
                                           {"owner_party_ids", {alice, bob}}}
                                          .dump(),
                                      {{"Authorization", bearer("alice")}});
        EXPECT_EQ(r.status, 200) << path << ": " << r.body;
        std::map<std::string, json> out;
        const json body = json::parse(r.body);
        for (const json& s : body.at("summaries")) out[s.at("party_id")] = s;
        return out;
    }

    // Bob's holdings in Scan's snapshot (op 3), contract id -> initial amount.
    std::map<std::string, std::string> bob_holdings() {
        const http::Response r = call("POST", "/api/scan/v1/holdings/state",
                                      json{{"migration_id", 1},
                                           {"record_time", next_snapshot},
                                           {"page_size", 1000},
                                           {"owner_party_ids", {bob}}}
                                          .dump());
        EXPECT_EQ(r.status, 200) << r.body;
        std::map<std::string, std::string> out;
        const json body = json::parse(r.body);
        for (const json& e : body.at("created_events")) {
            const json& args = e.at("create_arguments");
            if (args.contains("owner"))
                out[e.at("contract_id")] = args.at("amount").at("initialAmount");
        }
        return out;
    }

    static double unlocked(const json& summary) {
        return std::stod(summary.at("total_unlocked_coin").get<std::string>());
    }
};

TEST_F(Deposit, EveryApiSeesTheSameDeposit) {
    // Baseline: the network as the seed left it, at Scan's next snapshot.
    admin("POST", "/snapshots");
    admin("POST", "/time", {{"set", "2025-01-20T03:00:01Z"}});
    const auto summary_before = summaries("/api/scan/v1/holdings/summary");
    const auto bob_before = bob_holdings();
    admin("POST", "/snapshots/1/revert");

    // alice gets 100 and offers bob 40.
    const json offered = steps(json::array(
        {json{{"step", "mint"}, {"owner", "alice"}, {"amount", "100"}, {"as", "deposit-coin"}},
         json{{"step", "create_transfer_offer"},
              {"sender", "alice"},
              {"receiver", "bob"},
              {"amount", "40"},
              {"expires_at", "2025-02-01T00:00:00Z"},
              {"tracking_id", "deposit-1"},
              {"as", "deposit-offer"}}}));
    EXPECT_EQ(tracking_ids("bob"),
              (std::vector<std::string>{"lunch-0111", "concert-tickets", "deposit-1"}));

    // bob accepts; alice's wallet completes the transfer at once.
    const json accepted =
        steps(json{{"step", "accept_transfer_offer"}, {"offer", "deposit-offer"}});
    const json& result = accepted.at("results")[0];
    ASSERT_TRUE(result.contains("automation")) << result.dump();
    EXPECT_EQ(result.at("automation")[0].at("automation"), "complete_accepted_transfer_offer");
    EXPECT_EQ(result.at("updates").size(), 2U);  // the accept, then the completion
    const std::int64_t completion = result.at("updates")[1].at("offset");

    // Op 4: the offer is gone for both.
    EXPECT_EQ(tracking_ids("bob"), (std::vector<std::string>{"lunch-0111", "concert-tickets"}));
    EXPECT_EQ(tracking_ids("alice"), (std::vector<std::string>{"lunch-0111", "concert-tickets"}));

    // Op 1: bob sees the completion create his 40-amulet under AcceptedTransferOffer_Complete.
    const http::Response tx = as_user(
        "bob", "POST", "/v2/updates/transaction-by-offset",
        json{{"offset", completion},
             {"transactionFormat",
              {{"eventFormat", {{"filtersByParty", {{bob, json::object()}}}, {"verbose", false}}},
               {"transactionShape", "TRANSACTION_SHAPE_LEDGER_EFFECTS"}}}}
            .dump());
    ASSERT_EQ(tx.status, 200) << tx.body;
    std::vector<std::string> choices;
    std::string bob_amulet;
    const json transaction = json::parse(tx.body).at("transaction");
    for (const json& e : transaction.at("events")) {
        if (e.contains("ExercisedEvent")) choices.push_back(e["ExercisedEvent"].at("choice"));
        if (e.contains("CreatedEvent") &&
            e["CreatedEvent"].at("createArgument").at("owner") == bob) {
            bob_amulet = e["CreatedEvent"].at("contractId");
            EXPECT_EQ(e["CreatedEvent"].at("createArgument").at("amount").at("initialAmount"),
                      "40.0000000000");
        }
    }
    // The batch on alice's WalletAppInstall is hers and the validator's; bob witnesses from the
    // AcceptedTransferOffer he signed, down to the archive of alice's input amulet.
    EXPECT_EQ(choices, (std::vector<std::string>{"AcceptedTransferOffer_Complete",
                                                 "AmuletRules_Transfer", "Archive"}));
    ASSERT_FALSE(bob_amulet.empty());

    // Op 3 and the holdings summaries (Scan, and op 6 through the validator's scan proxy), at
    // Scan's next snapshot.
    admin("POST", "/time", {{"set", "2025-01-20T03:00:01Z"}});
    auto bob_after = bob_holdings();
    EXPECT_EQ(bob_after.at(bob_amulet), "40.0000000000");
    bob_after.erase(bob_amulet);
    EXPECT_EQ(bob_after, bob_before);
    const auto scan_after = summaries("/api/scan/v1/holdings/summary");
    const auto proxy_after = summaries("/api/validator/v1/scan-proxy/holdings/summary");
    EXPECT_EQ(scan_after, proxy_after);
    EXPECT_DOUBLE_EQ(unlocked(scan_after.at(bob)) - unlocked(summary_before.at(bob)), 40.0);
    EXPECT_DOUBLE_EQ(unlocked(scan_after.at(alice)) - unlocked(summary_before.at(alice)), 60.0);
}

}  // namespace
}  // namespace cantonlite::areas::admin::deposit_test
