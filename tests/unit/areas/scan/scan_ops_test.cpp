// The scan operations across the board: routes and methods, and the shipped default network
// (config/default-network.json) answering with the ids docs/default-network.md lists.
#include <algorithm>
#include <filesystem>
#include <memory>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "areas/scan/scan_test_support.hpp"

namespace cantonlite::areas::scan::scan_ops_test {
namespace {

using namespace scantest;  // NOLINT: the shared test network, steps and readers

// ---- methods (splice-behavior.md §0.1) -------------------------------------------------------

struct RouteCase {
    std::string method;  // a method the route does not have
    std::string target;
    std::string allowed;
};

class ScanOpsWrongMethod : public testing::TestWithParam<RouteCase> {};

TEST_P(ScanOpsWrongMethod, IsNotAllowed) {
    const ScanClient api(seed_with(json::array()));

    const Response response = api.send(GetParam().method, GetParam().target, "");

    EXPECT_EQ(response.status, 405) << GetParam().target;
    EXPECT_EQ(response.content_type, "text/plain; charset=UTF-8");
    EXPECT_EQ(response.body, "HTTP method not allowed, supported methods: " + GetParam().allowed);
    EXPECT_EQ(response.header("Allow"), GetParam().allowed);
}

INSTANTIATE_TEST_SUITE_P(
    Routes, ScanOpsWrongMethod,
    testing::Values(RouteCase{"GET", "/api/scan/v0/backfilling/import-updates", "POST"},
                    RouteCase{"GET", "/api/scan/v0/holdings/state", "POST"},
                    RouteCase{"GET", "/api/scan/v1/holdings/state", "POST"},
                    RouteCase{"GET", "/api/scan/v0/holdings/summary", "POST"},
                    RouteCase{"PUT", "/api/scan/v1/holdings/summary", "POST"},
                    RouteCase{
                        "POST",
                        "/api/scan/v0/state/acs/snapshot-timestamp?before=2025-01-02T00:00:00Z"
                        "&migration_id=0",
                        "GET"},
                    RouteCase{"POST", "/api/scan/v0/transfer-command-counter/alice::1220a1", "GET"},
                    RouteCase{"POST", "/api/scan/v0/ans-entries/by-name/dso.ans", "GET"},
                    RouteCase{"DELETE", "/api/scan/v0/voterequests/00ab", "GET"},
                    RouteCase{"POST", "/api/scan/v0/admin/sv/voterequests", "GET"}));

// ---- the default network (docs/default-network.md) -------------------------------------------

const std::string dn_dso =
    "DSO::1220fb89d62774bd5b3fd8a11c1b22c8c5453e8286c3cf7add515c98d7bca192ef18";
const std::string dn_alice =
    "alice::12202bd806c97f0e00af1a1fc3328fa763a9269723c8db8fac4f93af71db186d6e90";
const std::string dn_bob =
    "bob::122081b637d8fcd2c6da6359e6963113a1170de795e4b725b84d1e0b4cfd9ec58ce9";
const std::string dn_carol =
    "carol::12204c26d9074c27d89ede59270c0ac14b71e071b15239519f75474b2f3ba63481f5";
const std::string dn_validator =
    "validator-1::1220d2b40032aef27989dd2c44bedfe887441a2f14d0f5702d96d0bb62479be9d367";
const std::string dn_provider =
    "provider::12205c4c1964340aca5b65393bbe9d3249cdd71be26665b3320ad694f034f2743283";
const std::string dn_eng2 =
    "digital-asset-eng-2::122060b875b03d1250f164b09ea92b2ba3a61cf0ffa38730d91f2c8a46b85d0bd44f";
const std::string dn_global =
    "global-domain::1220b1431ef217342db44d516bb9befde802be7d8899637d290895fa58880f19accc";

const std::string dn_alice_counter =
    "00dd4fba6f02f44859f530bcf272b173fbe446fd6349ee04fac385b1827c14d834ca1012204db18dd89addf6ab0d04"
    "cf"
    "292ee2d5ab55fc3a08c7005ebfedb262541633b17e";
const std::string dn_carol_counter =
    "0075029927c92bd55d15920f9a2419389a45fdb8affc965e56178ecd18e915d233ca10122019fd7f4ccab122b450b6"
    "75"
    "338868480ee6267fd2dbef43b24a2413765fc9e6f5";
const std::string dn_ans_alice =
    "00bba45e0bf7508bf8a2f68c346eb1f32473a3011ffe647de4265103249e836e42ca101220bcb476515d308cd6db28"
    "a1"
    "9826593cf0f4feab9a1f8e8552caf16e74ba220490";
const std::string dn_vote_offboard_original =
    "002cc5bb2a6ad9f9e3093a0e9f459f9e2300ea95ca11240e79a8a66fd352a91145ca1012208772d95a0149de4db99c"
    "15"
    "c0b0a02af0801fbd4ff1acf9c3a4490749e1dd0f51";
const std::string dn_vote_offboard_current =
    "00258c39325ec46ac9061b03e115a2e98f0849abfb35ee55b9b6ead90ee42cab07ca1012202b4d7285a5e31224c2c7"
    "5f"
    "91a67dadbe122b6bbad09002a33a4ab3fddf3e8137";
const std::string dn_vote_weight =
    "00ce75888784b1c79def3e35caa22d358f98e8cd90870c2c33e67335133d8031deca101220fb7eaa11673d929de9ae"
    "ee"
    "4f8afac80f51932d8cf0c88fc69ad3a972e2955428";
const std::string dn_vote_duplicate =
    "00bea40cb81c7a2de2861178db0f0a5ce3ac637ed1e850e055c773e9af53d192f0ca1012205320594a18c327740ad3"
    "9a"
    "d98463f6e87fdffac85070f97675948d4b671c7244";

class DefaultNetworkScan : public testing::Test {
  protected:
    static void SetUpTestSuite() {
        api_ = new ScanClient(seed::load_seed_file(std::filesystem::path(CANTONLITE_SOURCE_DIR) /
                                                   "config" / "default-network.json"));
    }
    static void TearDownTestSuite() {
        delete api_;
        api_ = nullptr;
    }
    static const ScanClient& api() { return *api_; }

  private:
    static const ScanClient* api_;
};

const ScanClient* DefaultNetworkScan::api_ = nullptr;

json dn_summary(const std::string& party, const std::string& unlocked, const std::string& locked,
                const std::string& total) {
    return {{"party_id", party},
            {"total_unlocked_coin", unlocked},
            {"total_locked_coin", locked},
            {"total_coin_holdings", total}};
}

TEST_F(DefaultNetworkScan, ImportUpdatesOfMigrationOneAreTwentyContractsByContractId) {
    const Response response =
        api().post("/api/scan/v0/backfilling/import-updates",
                   {{"migration_id", 1}, {"after_update_id", ""}, {"limit", 1000}});

    ASSERT_EQ(response.status, 200) << response.body;
    const json transactions = body_of(response).at("transactions");
    ASSERT_EQ(transactions.size(), 20U);
    std::vector<std::string> ids;
    for (const json& t : transactions) {
        ids.push_back(t.at("update_id").get<std::string>());
        EXPECT_EQ(t.at("workflow_id"), "canton-network-acs-import-" + ids.back());
        EXPECT_EQ(t.at("migration_id"), 1);
    }
    EXPECT_TRUE(std::is_sorted(ids.begin(), ids.end()));
}

TEST_F(DefaultNetworkScan, MigrationZeroHasNoImportUpdates) {
    const Response response =
        api().post("/api/scan/v0/backfilling/import-updates",
                   {{"migration_id", 0}, {"after_update_id", ""}, {"limit", 10}});

    EXPECT_EQ(body_of(response), (json{{"transactions", json::array()}}));
}

struct DnSnapshotCase {
    int migration = 0;
    std::string time;
    std::vector<std::string> alice, bob, carol, validator;  // unlocked, locked
};

class DefaultNetworkSummaries : public DefaultNetworkScan,
                                public testing::WithParamInterface<DnSnapshotCase> {};

json expected_summaries(const DnSnapshotCase& c) {
    json out = json::array();
    const std::vector<std::pair<std::string, std::vector<std::string>>> parties = {
        {dn_alice, c.alice}, {dn_bob, c.bob}, {dn_carol, c.carol}, {dn_validator, c.validator}};
    for (const auto& [party, amounts] : parties) {
        out.push_back(dn_summary(party, amounts[0], amounts[1], amounts[2]));
    }
    return out;
}

// docs/default-network.md "Snapshots and holdings"; provider (a lock holder) has no summary.
TEST_P(DefaultNetworkSummaries, MatchTheDocumentedTotals) {
    const DnSnapshotCase& c = GetParam();

    const Response response =
        api().post("/api/scan/v1/holdings/summary",
                   summary_request(c.migration, c.time,
                                   {dn_alice, dn_bob, dn_carol, dn_validator, dn_provider}));

    ASSERT_EQ(response.status, 200) << response.body;
    EXPECT_EQ(body_of(response).at("record_time"), c.time);
    EXPECT_EQ(sorted_summaries(body_of(response)), expected_summaries(c));
}

INSTANTIATE_TEST_SUITE_P(
    Snapshots, DefaultNetworkSummaries,
    testing::Values(DnSnapshotCase{0,
                                   "2025-01-02T00:00:00Z",
                                   {"560.0000000000", "300.0000000000", "860.0000000000"},
                                   {"600.0000000000", "40.0000000000", "640.0000000000"},
                                   {"250.0000000000", "0.0000000000", "250.0000000000"},
                                   {"5000.0000000000", "0.0000000000", "5000.0000000000"}},
                    DnSnapshotCase{0,
                                   "2025-01-05T00:00:00Z",
                                   {"560.0000000000", "300.0000000000", "860.0000000000"},
                                   {"450.0000000000", "40.0000000000", "490.0000000000"},
                                   {"400.0000000000", "0.0000000000", "400.0000000000"},
                                   {"5000.0000000000", "0.0000000000", "5000.0000000000"}},
                    DnSnapshotCase{1,
                                   "2025-01-11T00:00:00Z",
                                   {"560.0000000000", "300.0000000000", "860.0000000000"},
                                   {"450.0000000000", "40.0000000000", "490.0000000000"},
                                   {"475.0000000000", "0.0000000000", "475.0000000000"},
                                   {"5000.0000000000", "0.0000000000", "5000.0000000000"}},
                    DnSnapshotCase{1,
                                   "2025-01-15T00:00:00Z",
                                   {"500.0000000000", "300.0000000000", "800.0000000000"},
                                   {"700.0000000000", "40.0000000000", "740.0000000000"},
                                   {"535.0000000000", "0.0000000000", "535.0000000000"},
                                   {"5000.0000000000", "0.0000000000", "5000.0000000000"}},
                    DnSnapshotCase{1,
                                   "2025-01-20T00:00:00Z",
                                   {"500.0000000000", "300.0000000000", "800.0000000000"},
                                   {"690.0000000000", "40.0000000000", "730.0000000000"},
                                   {"535.0000000000", "0.0000000000", "535.0000000000"},
                                   {"5010.0000000000", "0.0000000000", "5010.0000000000"}}));

TEST_F(DefaultNetworkScan, TheFirstSnapshotsSevenRowsFillAPageOfSeven) {
    const json request =
        holdings_request(0, "2025-01-02T00:00:00Z", {dn_alice, dn_bob, dn_carol, dn_validator}, 7);

    const Response response = api().post("/api/scan/v0/holdings/state", request);

    ASSERT_EQ(response.status, 200) << response.body;
    EXPECT_EQ(body_of(response).at("created_events").size(), 7U);
    EXPECT_EQ(body_of(response).at("next_page_token"), 7);
}

TEST_F(DefaultNetworkScan, TheLockHolderOwnsNothing) {
    const Response response =
        api().post("/api/scan/v0/holdings/state",
                   holdings_request(1, "2025-01-20T00:00:00Z", json::array({dn_provider}), 100));

    ASSERT_EQ(response.status, 200) << response.body;
    EXPECT_EQ(body_of(response).at("created_events"), json::array());
    EXPECT_EQ(body_of(response).at("next_page_token"), nullptr);
}

TEST_F(DefaultNetworkScan, AtOrBeforeFindsTheEarlierSnapshot) {
    json request = holdings_request(0, "2025-01-04T00:00:00Z", json::array({dn_alice}), 10);
    request["record_time_match"] = "at_or_before";

    const Response response = api().post("/api/scan/v1/holdings/state", request);

    ASSERT_EQ(response.status, 200) << response.body;
    EXPECT_EQ(body_of(response).at("record_time"), "2025-01-02T00:00:00Z");
}

TEST_F(DefaultNetworkScan, SnapshotTimestampBeforeTheSecondMigrationSnapshot) {
    const Response response = api().get(
        "/api/scan/v0/state/acs/snapshot-timestamp?before=2025-01-12T00:00:00Z&migration_id=1");

    EXPECT_EQ(body_of(response), (json{{"record_time", "2025-01-11T00:00:00Z"}}));
}

TEST_F(DefaultNetworkScan, NoSnapshotOfMigrationOneBeforeItsFirst) {
    const Response response = api().get(
        "/api/scan/v0/state/acs/snapshot-timestamp?before=2025-01-10T00:00:00Z&migration_id=1");

    EXPECT_TRUE(is_error(response, 404, "No snapshots found before 2025-01-10T00:00Z"));
}

TEST_F(DefaultNetworkScan, AlicesCounterHasNextNonceTwo) {
    const Response response =
        api().get("/api/scan/v0/transfer-command-counter/" + percent_encoded(dn_alice));

    ASSERT_EQ(response.status, 200) << response.body;
    const json counter = body_of(response).at("transfer_command_counter");
    EXPECT_EQ(counter.at("contract").at("contract_id"), dn_alice_counter);
    EXPECT_EQ(counter.at("contract").at("payload"),
              (json{{"dso", dn_dso}, {"sender", dn_alice}, {"nextNonce", "2"}}));
    EXPECT_EQ(counter.at("domain_id"), dn_global);
}

TEST_F(DefaultNetworkScan, CarolsCounterIsInFlight) {
    const Response response = api().get("/api/scan/v0/transfer-command-counter/" + dn_carol);

    ASSERT_EQ(response.status, 200) << response.body;
    const json counter = body_of(response).at("transfer_command_counter");
    EXPECT_EQ(counter.at("contract").at("contract_id"), dn_carol_counter);
    EXPECT_EQ(counter.at("domain_id"), nullptr);
}

TEST_F(DefaultNetworkScan, BobHasNoCounter) {
    const Response response = api().get("/api/scan/v0/transfer-command-counter/" + dn_bob);

    EXPECT_TRUE(
        is_error(response, 404,
                 "No TransferCommandCounter found for party: " + dn_bob + ", use 0 for the nonce"));
}

TEST_F(DefaultNetworkScan, AlicesAnsEntryIsLive) {
    const Response response = api().get("/api/scan/v0/ans-entries/by-name/alice.unverified.ans");

    ASSERT_EQ(response.status, 200) << response.body;
    EXPECT_EQ(body_of(response).at("entry").at("contract_id"), dn_ans_alice);
    EXPECT_EQ(body_of(response).at("entry").at("user"), dn_alice);
}

TEST_F(DefaultNetworkScan, BobsShopEntryHasExpired) {
    const Response response = api().get("/api/scan/v0/ans-entries/by-name/bob-shop.unverified.ans");

    EXPECT_TRUE(is_error(response, 404, "No ans entry found for name: bob-shop.unverified.ans"));
}

TEST_F(DefaultNetworkScan, SvEntryNamesTheSv) {
    const Response response =
        api().get("/api/scan/v0/ans-entries/by-name/digital-asset-eng-2.sv.ans");

    EXPECT_EQ(body_of(response), (json{{"entry",
                                        {{"contract_id", nullptr},
                                         {"user", dn_eng2},
                                         {"name", "digital-asset-eng-2.sv.ans"},
                                         {"url", ""},
                                         {"description", ""},
                                         {"expires_at", nullptr}}}}));
}

TEST_F(DefaultNetworkScan, TheOriginalOffboardVoteIdFindsItsCurrentIncarnation) {
    const Response response = api().get("/api/scan/v0/voterequests/" + dn_vote_offboard_original);

    ASSERT_EQ(response.status, 200) << response.body;
    const json contract = body_of(response).at("dso_rules_vote_request");
    EXPECT_EQ(contract.at("contract_id"), dn_vote_offboard_current);
    EXPECT_EQ(contract.at("payload").at("trackingCid"), dn_vote_offboard_original);
}

class DefaultNetworkVoteNotFound : public DefaultNetworkScan,
                                   public testing::WithParamInterface<std::string> {};

TEST_P(DefaultNetworkVoteNotFound, IsNotFound) {
    const Response response = api().get("/api/scan/v0/voterequests/" + GetParam());

    EXPECT_TRUE(is_error(response, 404, "No VoteRequest found contract: " + GetParam()));
}

INSTANTIATE_TEST_SUITE_P(Ids, DefaultNetworkVoteNotFound,
                         testing::Values(dn_vote_offboard_current, dn_vote_duplicate));

TEST_F(DefaultNetworkScan, TheWeightVoteFindsItself) {
    const Response response = api().get("/api/scan/v0/voterequests/" + dn_vote_weight);

    ASSERT_EQ(response.status, 200) << response.body;
    EXPECT_EQ(body_of(response).at("dso_rules_vote_request").at("contract_id"), dn_vote_weight);
}

TEST_F(DefaultNetworkScan, ListsTheOffboardVoteThenTheWeightVote) {
    const Response response = api().get("/api/scan/v0/admin/sv/voterequests");

    ASSERT_EQ(response.status, 200) << response.body;
    std::vector<std::string> ids;
    const json body = body_of(response);
    for (const json& c : body.at("dso_rules_vote_requests")) {
        ids.push_back(c.at("contract_id").get<std::string>());
    }
    EXPECT_EQ(ids, (std::vector<std::string>{dn_vote_offboard_current, dn_vote_weight}));
}

}  // namespace
}  // namespace cantonlite::areas::scan::scan_ops_test
