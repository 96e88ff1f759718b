// Scan's amulet rules, mining rounds and featured apps, and the scan proxy's forms of them, from
// Splice 0.6.12 (tellary/splice@48c36f27):
// - apps/scan/.../admin/http/HttpScanHandler.scala getAmuletRules (l.318-349: the contract null
//   when the request names it as cached; the cached domain id unread),
//   getOpenAndIssuingMiningRounds (l.226-259, selectRoundsToRespondWith: every active round keyed
//   by its contract id, cached ones without their contract; tryComputeTimeToLive: the smallest
//   tick), lookupFeaturedAppRight (l.446-461: PartyId.tryFromProtoPrimitive, then the right or
//   None);
// - apps/validator/.../HttpScanProxyHandler.scala lookupFeaturedAppRight (l.63-80),
//   getOpenAndIssuingMiningRounds (l.82-101: two lists, by round number, no TTL), getAmuletRules
//   (l.152-163: {"amulet_rules": ContractWithState}); every route needs a valid token.
// Shapes: scan.yaml GetAmuletRulesResponse, GetOpenAndIssuingMiningRoundsResponse,
// LookupFeaturedAppRightResponse; scan-proxy.yaml GetAmuletRulesProxyResponse,
// GetOpenAndIssuingMiningRoundsProxyResponse; common-internal.yaml MaybeCachedContractWithState.
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "areas/scan/scan_test_support.hpp"
#include "areas/validator/validator_test_support.hpp"

namespace cantonlite::areas::scan::scan_amulet_test {
namespace {

using namespace scantest;  // NOLINT: the shared test network, steps and readers

const std::string rounds_path = "/api/scan/v0/open-and-issuing-mining-rounds";
const std::string rules_path = "/api/scan/v0/amulet-rules";
const std::string featured_path = "/api/scan/v0/featured-apps/";
const std::string proxy = "/api/validator/v0/scan-proxy";

json open_round(int round, const std::string& label) {
    return {{"step", "open_mining_round"}, {"round", round}, {"as", label}};
}

json feature_app(const std::string& provider, const std::string& label) {
    return {{"step", "feature_app"}, {"provider", provider}, {"as", label}};
}

// Rounds 7, 5 and 6 (created in that order); the validator's featured app right.
json amulet_steps() {
    return json::array({open_round(7, "round-7"), open_round(5, "round-5"),
                        open_round(6, "round-6"), feature_app("validator", "featured")});
}

class ScanAmuletTest : public ::testing::Test {
  protected:
    // HS256 auth on (the scan proxy needs a token; Scan ignores it).
    ScanAmuletTest() : client_(validator::valtest::seed_with(amulet_steps())) {}

    [[nodiscard]] std::vector<model::ContractPtr> rounds() const {
        return all_created(client_.store(), "OpenMiningRound");
    }

    [[nodiscard]] std::string rules_cid() const {
        return all_created(client_.store(), "AmuletRules").front()->contract_id.str();
    }

    ScanClient client_;
};

TEST_F(ScanAmuletTest, AmuletRulesAreTheContractWithItsSynchronizer) {
    const Response r = client_.post(rules_path, json::object());

    ASSERT_EQ(r.status, 200) << r.body;
    const json body = body_of(r);
    EXPECT_EQ(body["amulet_rules_update"]["contract"]["contract_id"], rules_cid());
    EXPECT_EQ(
        body["amulet_rules_update"]["contract"]["template_id"].get<std::string>().substr(
            body["amulet_rules_update"]["contract"]["template_id"].get<std::string>().find(':')),
        ":Splice.AmuletRules:AmuletRules");
    EXPECT_EQ(body["amulet_rules_update"]["domain_id"], global_synchronizer);
}

TEST_F(ScanAmuletTest, CachedAmuletRulesComeWithoutTheirContract) {
    const Response r = client_.post(rules_path, {{"cached_amulet_rules_contract_id", rules_cid()},
                                                 {"cached_amulet_rules_domain_id", "x"}});

    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(r.body, R"({"amulet_rules_update":{"contract":null,"domain_id":")" +
                          global_synchronizer + R"("}})");
}

TEST_F(ScanAmuletTest, OutdatedCachedAmuletRulesComeWithTheContract) {
    const Response r = client_.post(rules_path, {{"cached_amulet_rules_contract_id", "00ff"}});

    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(body_of(r)["amulet_rules_update"]["contract"]["contract_id"], rules_cid());
}

TEST_F(ScanAmuletTest, AmuletRulesRefuseAFieldOfTheWrongType) {
    EXPECT_TRUE(is_rejection(client_.post(rules_path, {{"cached_amulet_rules_contract_id", 5}}),
                             400,
                             malformed("DecodingFailure at .cached_amulet_rules_contract_id: Got "
                                       "value '5' with wrong type, expecting string")));
}

TEST_F(ScanAmuletTest, TheAmuletRulesRouteIsAPost) {
    const Response r = client_.get(rules_path);

    EXPECT_TRUE(is_rejection(r, 405, "HTTP method not allowed, supported methods: POST"));
}

TEST_F(ScanAmuletTest, EveryOpenRoundIsKeyedByItsContractIdWithTheSmallestTick) {
    const Response r =
        client_.post(rounds_path, {{"cached_open_mining_round_contract_ids", json::array()},
                                   {"cached_issuing_round_contract_ids", json::array()}});

    ASSERT_EQ(r.status, 200) << r.body;
    const json body = body_of(r);
    // The seed's rounds tick every 10 minutes (docs/seed-format.md "Mining rounds").
    EXPECT_EQ(body["time_to_live_in_microseconds"], 600000000);
    EXPECT_EQ(body["issuing_mining_rounds"], json::object());
    ASSERT_EQ(body["open_mining_rounds"].size(), 3U);
    for (const model::ContractPtr& round : rounds()) {
        const json& entry = body["open_mining_rounds"][round->contract_id.str()];
        EXPECT_EQ(entry["contract"]["contract_id"], round->contract_id.str());
        EXPECT_EQ(entry["domain_id"], global_synchronizer);
    }
    // The keys in the order guardrail writes them: the schema's.
    EXPECT_TRUE(
        r.body.starts_with(R"({"time_to_live_in_microseconds":600000000,"open_mining_rounds":{)"))
        << r.body;
}

TEST_F(ScanAmuletTest, CachedRoundsStayWithoutTheirContract) {
    const std::string cached = rounds().front()->contract_id.str();

    const Response r =
        client_.post(rounds_path, {{"cached_open_mining_round_contract_ids", {cached, "00ff"}},
                                   {"cached_issuing_round_contract_ids", json::array()}});

    ASSERT_EQ(r.status, 200) << r.body;
    const json body = body_of(r);
    EXPECT_EQ(body["open_mining_rounds"].size(), 3U);
    EXPECT_TRUE(body["open_mining_rounds"][cached]["contract"].is_null());
    EXPECT_EQ(body["open_mining_rounds"][cached]["domain_id"], global_synchronizer);
}

TEST_F(ScanAmuletTest, TheRoundsRequestNeedsBothLists) {
    EXPECT_TRUE(is_rejection(
        client_.post(rounds_path, {{"cached_open_mining_round_contract_ids", json::array()}}), 400,
        malformed(
            "DecodingFailure at .cached_issuing_round_contract_ids: Missing required field")));
}

TEST_F(ScanAmuletTest, WithoutAnOpenRoundTheTtlIsTheUnexpectedError) {
    const ScanClient bare(validator::valtest::seed_with(json::array()));

    EXPECT_TRUE(
        is_error(bare.post(rounds_path, {{"cached_open_mining_round_contract_ids", json::array()},
                                         {"cached_issuing_round_contract_ids", json::array()}}),
                 500, "An unexpected error occurred."));
}

TEST_F(ScanAmuletTest, AFeaturedProviderGetsItsRight) {
    const Response r = client_.get(featured_path + percent_encoded(validator));

    ASSERT_EQ(r.status, 200) << r.body;
    const json right = body_of(r)["featured_app_right"];
    EXPECT_EQ(right["contract_id"],
              all_created(client_.store(), "FeaturedAppRight").front()->contract_id.str());
    EXPECT_EQ(right["payload"]["provider"], validator);
}

TEST_F(ScanAmuletTest, AnotherProviderGetsNull) {
    const Response r = client_.get(featured_path + percent_encoded(alice));

    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(r.body, R"({"featured_app_right":null})");
}

TEST_F(ScanAmuletTest, AMalformedProviderIsABadRequest) {
    EXPECT_TRUE(is_error(client_.get(featured_path + "alice"), 400,
                         "Invalid unique identifier `alice` with missing namespace."));
}

// ---- the scan proxy ----

class ScanProxyAmuletTest : public ScanAmuletTest {
  protected:
    [[nodiscard]] Response proxy_get(const std::string& path) const {
        using namespace validator::valtest;  // NOLINT: the test network's tokens
        return client_.get(proxy + path, {bearer(jwt(claims_for("alice")))});
    }
};

TEST_F(ScanProxyAmuletTest, AmuletRulesAreAlwaysWhole) {
    const Response r = proxy_get("/amulet-rules");

    ASSERT_EQ(r.status, 200) << r.body;
    const json body = body_of(r);
    EXPECT_EQ(body["amulet_rules"]["contract"]["contract_id"], rules_cid());
    EXPECT_EQ(body["amulet_rules"]["domain_id"], global_synchronizer);
}

TEST_F(ScanProxyAmuletTest, OpenRoundsAreAListByRoundNumber) {
    const Response r = proxy_get("/open-and-issuing-mining-rounds");

    ASSERT_EQ(r.status, 200) << r.body;
    const json body = body_of(r);
    ASSERT_EQ(body["open_mining_rounds"].size(), 3U);
    std::vector<std::string> numbers;
    for (const json& round : body["open_mining_rounds"]) {
        numbers.push_back(round["contract"]["payload"]["round"]["number"]);
    }
    EXPECT_EQ(numbers, (std::vector<std::string>{"5", "6", "7"}));
    EXPECT_EQ(body["issuing_mining_rounds"], json::array());
    EXPECT_FALSE(body.contains("time_to_live_in_microseconds"));
}

TEST_F(ScanProxyAmuletTest, FeaturedAppsAnswerAsScan) {
    EXPECT_EQ(proxy_get("/featured-apps/" + percent_encoded(validator)).body,
              client_.get(featured_path + percent_encoded(validator)).body);
    EXPECT_EQ(proxy_get("/featured-apps/" + percent_encoded(alice)).body,
              R"({"featured_app_right":null})");
}

TEST_F(ScanProxyAmuletTest, EveryRouteNeedsAToken) {
    for (const std::string path :
         {"/amulet-rules", "/open-and-issuing-mining-rounds", "/featured-apps/alice"}) {
        EXPECT_EQ(client_.get(proxy + path).status, 401) << path;
    }
}

}  // namespace
}  // namespace cantonlite::areas::scan::scan_amulet_test
