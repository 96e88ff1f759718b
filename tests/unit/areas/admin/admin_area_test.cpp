// The admin API (/_cantonlite/v1/): steps, the ledger clock and its automation, snapshots,
// reverts, resets, the network as it stands, and who may write.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>
#include <set>
#include <thread>

#include "areas/admin/admin_test_support.hpp"

namespace cantonlite::areas::admin::admin_area_test {
namespace {

using admintest::alice;
using admintest::base;
using admintest::bob;
using admintest::LiveFixture;
using admintest::offers;
using nlohmann::json;

const std::string seed_end_time = "2025-01-20T00:00:00Z";  // the default network's clock

json mint(const std::string& owner, const std::string& amount, const std::string& label = "") {
    json step{{"step", "mint"}, {"owner", owner}, {"amount", amount}};
    if (!label.empty()) step["as"] = label;
    return step;
}

std::vector<std::string> tracking_ids(const http::Response& r) {
    EXPECT_EQ(r.status, 200) << r.body.substr(0, 300);
    std::vector<std::string> out;
    const json body = json::parse(r.body);
    for (const json& o : body.at("offers")) {
        out.push_back(o.at("payload").at("trackingId").get<std::string>());
    }
    return out;
}

json transaction_by_offset(std::int64_t offset, const std::string& party) {
    return {{"offset", offset},
            {"transactionFormat",
             {{"eventFormat", {{"filtersByParty", {{party, json::object()}}}, {"verbose", false}}},
              {"transactionShape", "TRANSACTION_SHAPE_LEDGER_EFFECTS"}}}};
}

class AdminSteps : public LiveFixture {};

// ---- POST /steps ----------------------------------------------------------------------------

TEST_F(AdminSteps, OneStepAnswersItsUpdateAndItsContractByLabel) {
    const std::int64_t before = ledger_end();
    const json answer = steps(mint("alice", "12.5", "fresh-coin"));

    EXPECT_EQ(answer.at("ledger_end"), before + 1);
    ASSERT_EQ(answer.at("results").size(), 1U);
    const json& result = answer.at("results")[0];
    EXPECT_EQ(result.at("index"), 0);
    EXPECT_EQ(result.at("step"), "mint");
    ASSERT_EQ(result.at("updates").size(), 1U);
    EXPECT_EQ(result.at("updates")[0].at("offset"), before + 1);
    EXPECT_EQ(result.at("updates")[0].at("update_id"), network_->store().update_id_for(before + 1));
    EXPECT_EQ(result.at("updates")[0].at("record_time"), "2025-01-20T00:00:01Z");
    ASSERT_EQ(result.at("created").size(), 1U);
    EXPECT_EQ(result.at("contracts").at("fresh-coin"), result.at("created")[0]);
    EXPECT_EQ(result.at("archived"), json::array());
}

TEST_F(AdminSteps, LabelsOfTheSeedAndOfEarlierWritesNameContracts) {
    const json first = steps(mint("alice", "100", "w1"));
    const json locked = steps(json{{"step", "lock"},
                                   {"amulet", "w1"},
                                   {"amount", "30"},
                                   {"holders", {"provider"}},
                                   {"expires_at", "2031-01-01T00:00:00Z"},
                                   {"as", "w1-locked"},
                                   {"change_as", "w1-change"}});
    const json& result = locked.at("results")[0];
    EXPECT_EQ(result.at("archived"), json::array({first.at("results")[0].at("created")[0]}));
    EXPECT_TRUE(result.at("contracts").contains("w1-locked"));
    EXPECT_TRUE(result.at("contracts").contains("w1-change"));

    // A label of the seed: bob-coin-7 is an active amulet of the default network.
    const json seeded = steps(json{{"step", "transfer"},
                                   {"sender", "bob"},
                                   {"inputs", {"bob-coin-7"}},
                                   {"outputs", {{{"receiver", "alice"}, {"amount", "1"}}}}});
    EXPECT_EQ(seeded.at("results")[0].at("archived").size(), 1U);
}

TEST_F(AdminSteps, ABatchAppliesAllOrNothing) {
    const std::int64_t before = ledger_end();
    const json described = json::parse(call("GET", base + "/network").body);

    const std::string error =
        admin_error("POST", "/steps", 400,
                    json::array({mint("alice", "1", "half"), mint("bob", "2"),
                                 json{{"step", "lock"}, {"amulet", "no-such-coin"}}})
                        .dump());

    EXPECT_EQ(error, "step 2 (lock): /2/amulet: unknown contract 'no-such-coin'");
    EXPECT_EQ(ledger_end(), before);
    EXPECT_EQ(json::parse(call("GET", base + "/network").body), described);
    // The label of the batch's first step was undone with it.
    EXPECT_EQ(admin_error("POST", "/steps", 400,
                          json{{"step", "unlock"}, {"locked_amulet", "half"}}.dump()),
              "step 0 (unlock): /locked_amulet: unknown contract 'half'");
    // And the batch applies once it is right.
    const json ok = steps(json::array({mint("alice", "1", "half"), mint("bob", "2")}));
    EXPECT_EQ(ok.at("ledger_end"), before + 2);
    EXPECT_EQ(ok.at("results").size(), 2U);
}

TEST_F(AdminSteps, AStepThatCannotApplyGetsTheSeedLoadersLine) {
    EXPECT_EQ(admin_error("POST", "/steps", 400, mint("nobody", "1").dump()),
              "step 0 (mint): /owner: unknown party 'nobody'");
    EXPECT_EQ(admin_error("POST", "/steps", 400, mint("alice", "-3").dump()),
              "step 0 (mint): /amount: must be positive");
    EXPECT_EQ(admin_error("POST", "/steps", 400,
                          json{{"step", "transfer"},
                               {"sender", "alice"},
                               {"inputs", {"alice-coin-4"}},
                               {"outputs", {{{"receiver", "bob"}, {"amount", "1000000"}}}}}
                              .dump()),
              "step 0 (transfer): /outputs: the outputs (1000000.0) exceed the inputs (500.0)");
    // An archived contract.
    EXPECT_EQ(admin_error("POST", "/steps", 400,
                          json{{"step", "unlock"}, {"locked_amulet", "alice-coin-1"}}.dump()),
              "step 0 (unlock): /locked_amulet: unknown contract 'alice-coin-1'");
}

TEST_F(AdminSteps, BodiesThatAreNotStepsAre400) {
    EXPECT_EQ(admin_error("POST", "/steps", 400, "{not json").substr(0, 27),
              "the body is not valid JSON:");
    EXPECT_EQ(admin_error("POST", "/steps", 400, "42"),
              "the body must be a step object or an array of steps, got 42");
    EXPECT_EQ(admin_error("POST", "/steps", 400, R"([{"step": "mintt"}])").substr(0, 55),
              "step 0 (mintt): /0/step: unknown step kind 'mintt' (one");
    EXPECT_EQ(admin_error("POST", "/steps", 400, R"(["mint"])"),
              "step 0 (?): /0: must be an object, got \"mint\"");
    EXPECT_EQ(steps(json::array()).at("results"), json::array());
}

TEST_F(AdminSteps, UnknownAdminPathsAnd405sLookLikeTheOtherAreas) {
    EXPECT_EQ(call("GET", base + "/nothing").status, 404);
    const http::Response r = call("DELETE", base + "/steps");
    EXPECT_EQ(r.status, 405);
    EXPECT_EQ(r.header("Allow"), "POST");
}

// ---- parties and users at run time ------------------------------------------------------------

TEST_F(AdminSteps, ANewWalletUserGetsAPartyAWalletAndLedgerRights) {
    const json answer = steps(json::array(
        {json{{"step", "add_user"}, {"id", "zoe"}, {"wallet", true}}, mint("zoe", "5")}));
    const json& added = answer.at("results")[0];
    const std::string zoe = added.at("parties").at("zoe");
    EXPECT_EQ(zoe.substr(0, 9), "zoe::1220");
    EXPECT_EQ(added.at("created").size(), 1U);  // the WalletAppInstall

    const http::Response wallet = as_user("zoe", "GET", offers);
    EXPECT_EQ(wallet.status, 200) << wallet.body;
    EXPECT_EQ(json::parse(wallet.body).at("offers"), json::array());

    const http::Response tx = as_user(
        "zoe", "POST", "/v2/updates/transaction-by-offset",
        transaction_by_offset(answer.at("results")[1].at("updates")[0].at("offset"), zoe).dump());
    EXPECT_EQ(tx.status, 200) << tx.body;

    const json network = json::parse(call("GET", base + "/network").body);
    const auto& users = network.at("users");
    EXPECT_TRUE(std::any_of(users.begin(), users.end(), [](const json& u) {
        return u.at("id") == "zoe";
    })) << users.dump();
}

TEST_F(AdminSteps, ANewPartyCanBeNamedByItsAlias) {
    const json answer = steps(json::array({json{{"step", "add_party"}, {"alias", "exchange"}},
                                           mint("exchange", "7", "exchange-coin")}));
    const std::string party = answer.at("results")[0].at("parties").at("exchange");
    EXPECT_EQ(party.substr(0, 14), "exchange::1220");
    EXPECT_EQ(admin_error("POST", "/steps", 400,
                          json{{"step", "add_party"}, {"alias", "exchange"}}.dump()),
              "step 0 (add_party): /alias: 'exchange' names a party already");
    EXPECT_EQ(
        admin_error("POST", "/steps", 400, json{{"step", "add_user"}, {"id", "alice"}}.dump()),
        "step 0 (add_user): /id: user 'alice' exists");
    EXPECT_EQ(
        admin_error("POST", "/steps", 400, json{{"step", "add_party"}, {"alias", "a b"}}.dump()),
        "step 0 (add_party): /alias: must be letters, digits, '-' or '_' (at most 185)");
}

// An external party: its id is the hint and its key's fingerprint (a real Canton onboarding's key
// and fingerprint, tests/unit/interactive/external_party_test.cpp).
TEST_F(AdminSteps, AnExternalPartyIsNamedByItsKeysFingerprint) {
    const std::string key = "MCowBQYDK2VwAyEAX6tUMQgoR9gYiS07A0WiK+HUtN59ned0VmMzgDRSV+8=";
    const json answer = steps(
        json::array({json{{"step", "add_party"}, {"alias", "alice-ext"}, {"external_key", key}},
                     mint("alice-ext", "7", "external-coin")}));
    EXPECT_EQ(answer.at("results")[0].at("parties").at("alice-ext"),
              "alice-ext::1220e69a6459cb90397e012f93c19c57cb94c95f26d18474d3c43392f3fd01e33dd9");
    // The raw key is the same key.
    EXPECT_EQ(
        steps(json::array({json{{"step", "add_party"},
                                {"party",
                                 "other::1220e69a6459cb90397e012f93c19c57cb94c95f26d18"
                                 "474d3c43392f3fd01e33dd9"},
                                {"external_key", "X6tUMQgoR9gYiS07A0WiK+HUtN59ned0VmMzgDRSV+8="}}}))
            .at("results")
            .size(),
        1U);
    EXPECT_EQ(
        admin_error("POST", "/steps", 400,
                    json{{"step", "add_party"},
                         {"party", "bob::1220aa"},
                         {"external_key", "X6tUMQgoR9gYiS07A0WiK+HUtN59ned0VmMzgDRSV+8="}}
                        .dump()),
        "step 0 (add_party): /party: must be <hint>::1220e69a6459cb90397e012f93c19c57cb94c95f26d"
        "18474d3c43392f3fd01e33dd9, the external key's fingerprint");
    EXPECT_EQ(
        admin_error("POST", "/steps", 400,
                    json{{"step", "add_party"}, {"alias", "x"}, {"external_key", "AAAA"}}.dump()),
        "step 0 (add_party): /external_key: must be the base64 of an Ed25519 public key (32 "
        "bytes, or its 44-byte DER SubjectPublicKeyInfo)");
}

// ---- the ledger clock -----------------------------------------------------------------------

class AdminTime : public LiveFixture {};

TEST_F(AdminTime, GetsAdvancesAndSetsTheClock) {
    EXPECT_EQ(admin("GET", "/time").at("now"), seed_end_time);
    EXPECT_EQ(admin("GET", "/time").at("next_scan_snapshot"), "2025-01-20T03:00:00Z");
    EXPECT_EQ(admin("POST", "/time", {{"advance", "PT1H30M"}}).at("now"), "2025-01-20T01:30:00Z");
    EXPECT_EQ(admin("POST", "/time", {{"set", "2025-01-21T00:00:00Z"}}).at("now"),
              "2025-01-21T00:00:00Z");
    EXPECT_EQ(admin("GET", "/time").at("now"), "2025-01-21T00:00:00Z");
    // Steps commit after the clock.
    EXPECT_EQ(steps(mint("alice", "1")).at("results")[0].at("updates")[0].at("record_time"),
              "2025-01-21T00:00:01Z");
}

TEST_F(AdminTime, SettingItBackIsAConflictAndBadBodiesAre400) {
    EXPECT_EQ(admin_error("POST", "/time", 409, R"({"set": "2025-01-19T00:00:00Z"})"),
              "the ledger clock is at 2025-01-20T00:00:00Z; it cannot be set back to "
              "2025-01-19T00:00:00Z");
    EXPECT_EQ(admin_error("POST", "/time", 409, R"({"advance": "-PT1S"})"),
              "the ledger clock is at 2025-01-20T00:00:00Z; it cannot be set back to "
              "2025-01-19T23:59:59Z");
    EXPECT_EQ(admin_error("POST", "/time", 400, R"({"advance": "1 hour"})"),
              "advance: '1 hour' is not an ISO-8601 duration such as PT1H, PT30M or P1D");
    EXPECT_EQ(admin_error("POST", "/time", 400, R"({"set": "yesterday"})"),
              "set: 'yesterday' is not an RFC 3339 time such as 2025-01-01T00:00:00Z");
    EXPECT_EQ(admin_error("POST", "/time", 400, R"({"advance": "PT1H", "set": "x"})"),
              R"(give exactly one of {"advance": "PT1H"} and {"set": "2025-01-01T00:00:00Z"})");
    EXPECT_EQ(admin_error("POST", "/time", 400, R"({"advance": 3600})"),
              "advance must be a string");
    EXPECT_EQ(admin_error("POST", "/time", 400, ""), "the body must be a JSON object");
    EXPECT_EQ(admin("GET", "/time").at("now"), seed_end_time);
}

TEST_F(AdminTime, TheWalletAutomationExpiresAnOfferThatIsPastItsExpiry) {
    // offer-concert (bob -> alice) expired on 2025-01-15 but was never archived.
    EXPECT_EQ(tracking_ids(as_user("alice", "GET", offers)),
              (std::vector<std::string>{"lunch-0111", "concert-tickets"}));

    const json answer = admin("POST", "/time", {{"advance", "PT1M"}});

    EXPECT_EQ(tracking_ids(as_user("alice", "GET", offers)),
              (std::vector<std::string>{"lunch-0111"}));
    EXPECT_EQ(tracking_ids(as_user("bob", "GET", offers)),
              (std::vector<std::string>{"lunch-0111"}));
    const json& automation = answer.at("automation");
    const auto expired = std::find_if(automation.begin(), automation.end(), [](const json& a) {
        return a.at("automation") == "expire_transfer_offer";
    });
    ASSERT_NE(expired, automation.end()) << automation.dump();
    // The transaction is the wallet's: WalletAppInstall_TransferOffer_Expire by the validator on
    // the install of the sender (bob), whose child TransferOffer_Expire archives the offer.
    const http::Response tx = as_user("bob", "POST", "/v2/updates/transaction-by-offset",
                                      transaction_by_offset(expired->at("offset"), bob).dump());
    ASSERT_EQ(tx.status, 200) << tx.body;
    const json events = json::parse(tx.body).at("transaction").at("events");
    ASSERT_EQ(events.size(), 2U) << events.dump();
    EXPECT_EQ(events[0].at("ExercisedEvent").at("choice"), "WalletAppInstall_TransferOffer_Expire");
    EXPECT_EQ(events[0].at("ExercisedEvent").at("consuming"), false);
    EXPECT_EQ(events[1].at("ExercisedEvent").at("choice"), "TransferOffer_Expire");
    EXPECT_EQ(events[1].at("ExercisedEvent").at("consuming"), true);
    EXPECT_EQ(events[1].at("ExercisedEvent").at("choiceArgument"), json({{"actor", bob}}));
    EXPECT_EQ(events[1].at("ExercisedEvent").at("actingParties"), json::array({bob}));
    EXPECT_EQ(json::parse(tx.body).at("transaction").at("recordTime"), "2025-01-20T00:00:00Z");
}

TEST_F(AdminTime, AnOfferExpiresOnceTheAutomationDelayHasPassed) {
    steps(json{{"step", "create_transfer_offer"},
               {"sender", "alice"},
               {"receiver", "bob"},
               {"amount", "3"},
               {"expires_at", "2025-01-20T01:00:00Z"},
               {"tracking_id", "soon"}});
    admin("POST", "/time", {{"set", "2025-01-20T01:00:04Z"}});  // 4 s after: not yet
    EXPECT_EQ(tracking_ids(as_user("alice", "GET", offers)),
              (std::vector<std::string>{"lunch-0111", "soon"}));
    const json answer = admin("POST", "/time", {{"set", "2025-01-20T02:00:00Z"}});
    EXPECT_EQ(tracking_ids(as_user("alice", "GET", offers)),
              (std::vector<std::string>{"lunch-0111"}));
    // Committed when the automation acted: 5 s after the expiry, not when the clock stopped.
    EXPECT_EQ(answer.at("automation")[0].at("record_time"), "2025-01-20T01:00:05Z");
}

TEST_F(AdminTime, TheWalletAutomationExpiresABuyTrafficRequest) {
    const std::string status =
        "/api/validator/v0/wallet/buy-traffic-requests/traffic-alice-2/status";
    EXPECT_EQ(json::parse(as_user("alice", "POST", status).body).at("status"), "created");

    admin("POST", "/time", {{"set", "2030-01-02T00:00:00Z"}});

    const http::Response after = as_user("alice", "POST", status);
    ASSERT_EQ(after.status, 200) << after.body;
    EXPECT_EQ(
        json::parse(after.body),
        json({{"status", "failed"}, {"failure_reason", "expired"}, {"rejection_reason", nullptr}}));
}

TEST_F(AdminTime, TheSvAutomationExpiresAnAnsEntryAndScanTakesItsSnapshots) {
    const json answer = admin("POST", "/time", {{"advance", "PT7H"}});
    std::set<std::string> kinds;
    for (const json& a : answer.at("automation")) kinds.insert(a.at("automation"));
    EXPECT_TRUE(kinds.contains("expire_ans_entry")) << answer.dump();
    // Scan's default period is 3 hours, on the hours that are multiples of it.
    EXPECT_EQ(answer.at("scan_snapshots"),
              json::parse(R"([{"migration_id": 1, "record_time": "2025-01-20T03:00:00Z"},
                              {"migration_id": 1, "record_time": "2025-01-20T06:00:00Z"}])"));
    const http::Response ts = call(
        "GET",
        "/api/scan/v0/state/acs/snapshot-timestamp?before=2025-01-20T07:00:00Z&migration_id=1");
    EXPECT_EQ(json::parse(ts.body).at("record_time"), "2025-01-20T06:00:00Z") << ts.body;
}

// ---- snapshots, revert, reset ---------------------------------------------------------------

class AdminSnapshots : public LiveFixture {
  protected:
    // Answers of every area that the changes below touch.
    std::vector<std::string> answers() {
        std::vector<std::string> out;
        for (const char* user : {"alice", "bob"}) out.push_back(as_user(user, "GET", offers).body);
        for (std::int64_t offset = ledger_end() - 2; offset <= ledger_end() + 3; ++offset) {
            out.push_back(
                call("POST", "/v2/updates/transaction-by-offset",
                     transaction_by_offset(offset, alice).dump(),
                     {{"Authorization", bearer("alice")},
                      {"traceparent", "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"}})
                    .body);
        }
        out.push_back(call("GET", base + "/network").body);
        out.push_back(call("GET", base + "/time").body);
        out.push_back(call("POST", "/api/scan/v0/holdings/summary",
                           json{{"migration_id", 1},
                                {"record_time", "2025-01-20T03:00:00Z"},
                                {"owner_party_ids", {alice, bob}}}
                               .dump())
                          .body);
        out.push_back(call("GET", "/api/scan/v0/ans-entries/by-name/alice.unverified.ans").body);
        return out;
    }

    void change_things() {
        steps(json::array({mint("alice", "10", "later-coin"),
                           json{{"step", "add_user"}, {"id", "yan"}, {"wallet", true}},
                           json{{"step", "create_transfer_offer"},
                                {"sender", "alice"},
                                {"receiver", "bob"},
                                {"amount", "2"},
                                {"expires_at", "2026-01-01T00:00:00Z"},
                                {"tracking_id", "later"}}}));
        admin("POST", "/time", {{"advance", "PT5H"}});
    }
};

TEST_F(AdminSnapshots, ARevertRestoresEveryAnswerByteForByte) {
    const std::vector<std::string> before = answers();
    const json snapshot = admin("POST", "/snapshots");
    EXPECT_EQ(snapshot.at("id"), "1");

    change_things();
    EXPECT_NE(answers(), before);

    const json reverted = admin("POST", "/snapshots/1/revert");
    EXPECT_EQ(reverted.at("now"), seed_end_time);
    EXPECT_EQ(answers(), before);
    // The same ids come again: the id sequence was restored too.
    const json first = steps(mint("alice", "10", "later-coin"));
    admin("POST", "/snapshots/1/revert");
    EXPECT_EQ(steps(mint("alice", "10", "later-coin")), first);
}

TEST_F(AdminSnapshots, ARevertDropsTheSnapshotsTakenAfterItAndKeepsItsOwn) {
    EXPECT_EQ(admin("POST", "/snapshots").at("id"), "1");
    change_things();
    EXPECT_EQ(admin("POST", "/snapshots").at("id"), "2");
    steps(mint("bob", "1"));

    admin("POST", "/snapshots/1/revert");
    EXPECT_EQ(admin_error("POST", "/snapshots/2/revert", 404),
              "no snapshot '2': it was never taken, or a revert or reset dropped it");
    EXPECT_EQ(admin("GET", "/snapshots").at("snapshots").size(), 1U);
    // Ids are never reused, and the kept snapshot can be reverted to again.
    EXPECT_EQ(admin("POST", "/snapshots").at("id"), "3");
    change_things();
    admin("POST", "/snapshots/1/revert");
    EXPECT_EQ(admin("GET", "/time").at("now"), seed_end_time);
}

TEST_F(AdminSnapshots, ResetGoesBackToTheSeed) {
    const std::vector<std::string> seeded = answers();
    admin("POST", "/snapshots");
    change_things();
    const json answer = admin("POST", "/reset");
    EXPECT_EQ(answer.at("now"), seed_end_time);
    EXPECT_EQ(answers(), seeded);
    EXPECT_EQ(admin("GET", "/snapshots").at("snapshots"), json::array());
    EXPECT_EQ(admin_error("POST", "/snapshots/1/revert", 404).substr(0, 16), "no snapshot '1':");
    // The users added since are gone with it.
    EXPECT_EQ(call("GET", base + "/network").body.find("\"yan\""), std::string::npos);
}

// ---- the network as it stands ---------------------------------------------------------------

TEST_F(AdminSteps, NetworkIsWhatDescribeJsonPrints) {
    const http::Response r = call("GET", base + "/network");
    EXPECT_EQ(r.status, 200);
    EXPECT_EQ(r.body, app::describe_json(network_->store()).dump(2));
    steps(mint("alice", "1"));
    EXPECT_NE(call("GET", base + "/network").body, r.body);
}

// ---- who may write --------------------------------------------------------------------------

class ClosedAdmin : public LiveFixture {
  protected:
    ClosedAdmin() : LiveFixture(closed("")) {}
    static AdminOptions closed(std::string token) {
        AdminOptions options = admintest::open_options();
        options.open = false;
        options.token = std::move(token);
        return options;
    }
};

TEST_F(ClosedAdmin, WithoutATokenEveryEndpointIs403) {
    for (const auto& [method, path] :
         std::vector<std::pair<std::string, std::string>>{{"POST", "/steps"},
                                                          {"GET", "/time"},
                                                          {"POST", "/time"},
                                                          {"POST", "/snapshots"},
                                                          {"GET", "/snapshots"},
                                                          {"POST", "/snapshots/1/revert"},
                                                          {"POST", "/reset"},
                                                          {"GET", "/network"}}) {
        const http::Response r = call(method, base + path, "{}", {{"Authorization", "Bearer x"}});
        EXPECT_EQ(r.status, 403) << method << " " << path;
        EXPECT_EQ(json::parse(r.body).at("error"),
                  "the admin API is closed on a non-loopback listener: set admin.token "
                  "(CANTONLITE_ADMIN_TOKEN, --admin-token) and send it as a bearer token");
    }
    // The real APIs are not affected.
    EXPECT_EQ(call("GET", "/api/scan/v0/dso-party-id").status, 200);
}

class TokenAdmin : public LiveFixture {
  protected:
    TokenAdmin() : LiveFixture(ClosedAdminOptions()) {}
    static AdminOptions ClosedAdminOptions() {
        AdminOptions options = admintest::open_options();
        options.open = false;
        options.token = "s3cret";
        return options;
    }
};

TEST_F(TokenAdmin, TheBearerSecretOpensIt) {
    const std::string needs = "this admin API needs the header Authorization: Bearer <admin.token>";
    EXPECT_EQ(json::parse(call("GET", base + "/time").body).at("error"), needs);
    EXPECT_EQ(call("GET", base + "/time", "", {{"Authorization", "Bearer s3cre"}}).status, 403);
    EXPECT_EQ(call("GET", base + "/time", "", {{"Authorization", "Bearer s3cret!"}}).status, 403);
    EXPECT_EQ(call("GET", base + "/time", "", {{"Authorization", "Bearer s3cret"}}).status, 200);
    EXPECT_EQ(call("POST", base + "/steps", mint("alice", "1").dump(),
                   {{"Authorization", "bearer s3cret"}})
                  .status,
              200);
}

TEST(AdminAddress, LoopbackListenersAreOpen) {
    EXPECT_TRUE(is_loopback_address("127.0.0.1"));
    EXPECT_TRUE(is_loopback_address("127.1.2.3"));
    EXPECT_TRUE(is_loopback_address("::1"));
    EXPECT_TRUE(is_loopback_address("localhost"));
    EXPECT_FALSE(is_loopback_address("0.0.0.0"));
    EXPECT_FALSE(is_loopback_address("::"));
    EXPECT_FALSE(is_loopback_address("192.168.1.10"));
}

// ---- readers while writers write ------------------------------------------------------------

// Readers on the read routes of every area while writers post batches: every answer is whole
// (a batch of two mints is seen entirely or not at all) and no request fails. Run under
// ThreadSanitizer to check the locking.
TEST_F(AdminSteps, ReadersNeverSeeHalfABatch) {
    const std::int64_t start = ledger_end();
    std::atomic<bool> done{false};
    std::atomic<int> failures{0};
    std::atomic<int> odd_ends{0};
    std::atomic<int> reads{0};
    std::set<std::int64_t> ends_seen_by_reader;
    std::mutex seen_mutex;
    std::atomic<std::int64_t> latest_seen{0};

    std::vector<std::thread> readers;
    for (int r = 0; r < 3; ++r) {
        readers.emplace_back([&] {
            while (!done.load()) {
                const std::int64_t end =
                    json::parse(call("GET", base + "/time").body).at("ledger_end");
                if ((end - start) % 2 != 0) ++odd_ends;
                {
                    const std::lock_guard lock(seen_mutex);
                    ends_seen_by_reader.insert(end);
                }
                std::int64_t seen = latest_seen.load();
                while (seen < end && !latest_seen.compare_exchange_weak(seen, end)) {
                }
                const http::Response responses[] = {
                    as_user("alice", "GET", offers),
                    as_user("alice", "POST", "/v2/updates/transaction-by-offset",
                            transaction_by_offset(end, alice).dump()),
                    call("GET", "/api/scan/v0/ans-entries/by-name/alice.unverified.ans"),
                    call("GET", base + "/network"),
                    call("POST", "/api/validator/v1/scan-proxy/holdings/summary",
                         json{{"migration_id", 1},
                              {"record_time", "2025-01-20T00:00:00Z"},
                              {"owner_party_ids", {alice}}}
                             .dump(),
                         {{"Authorization", bearer("alice")}})};
                for (const http::Response& resp : responses) {
                    if (resp.status >= 500) ++failures;
                }
                ++reads;
            }
        });
    }
    std::vector<std::thread> writers;
    for (int w = 0; w < 2; ++w) {
        writers.emplace_back([&, w] {
            for (int i = 0; i < 60; ++i) {
                const json batch = json::array(
                    {mint("alice", std::to_string(i + 1)), mint("bob", std::to_string(w + 1))});
                const http::Response r = call("POST", base + "/steps", batch.dump());
                if (r.status != 200) ++failures;
                // Now and then, wait (boundedly) until a reader has seen this write, so that the
                // readers provably ran between the writes.
                if (w == 0 && i % 10 == 0 && r.status == 200) {
                    const std::int64_t end = json::parse(r.body).at("ledger_end");
                    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
                    while (latest_seen.load() < end && std::chrono::steady_clock::now() < until) {
                        std::this_thread::yield();
                    }
                }
            }
        });
    }
    for (std::thread& t : writers) t.join();
    done = true;
    for (std::thread& t : readers) t.join();

    EXPECT_EQ(failures.load(), 0);
    EXPECT_EQ(odd_ends.load(), 0);
    EXPECT_EQ(ledger_end(), start + 240);
    EXPECT_GT(reads.load(), 0);
    // The readers ran while the writers wrote: they saw the ledger at several ends.
    EXPECT_GE(ends_seen_by_reader.size(), 6U);
}

}  // namespace
}  // namespace cantonlite::areas::admin::admin_area_test
