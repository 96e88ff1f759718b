// What a client asks the participant before reading the ledger (the wallet SDK's connect): the
// Ledger API version and features, the caller's own user, the connected synchronizers and the
// pruning offsets. From Canton release-line-3.5 (JsVersionService, ApiVersionService,
// JsUserManagementService.getCurrentUser, ApiUserManagementService.toProtoUser, JsStateService,
// ApiStateService, StateServiceAuthorization; the auth ITs GetLedgerApiVersionAuthIT,
// GetAuthenticatedUserAuthIT, GetLatestPrunedOffsetsAuthIT) over the default network.

#include <fstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cantonlite/app/application.hpp"
#include "cantonlite/seed/seed_loader.hpp"
#include "ledger_test_support.hpp"

namespace cantonlite::areas::ledger::participant_handlers_test {
namespace {

using nlohmann::json;

const std::string global_synchronizer =
    "global-domain::1220b1431ef217342db44d516bb9befde802be7d8899637d290895fa58880f19accc";
const std::string private_synchronizer =
    "private-synchronizer::12200ed66a9741e7b8a2a74d75fc02fd1d60e93d443c1cc2fda28161897f8be14dfe";

class ParticipantHandlersTest : public LedgerSuite {
  protected:
    static void SetUpTestSuite() { serve_default_network(); }

    static http::Response get(const std::string& target, const std::string& user = "alice") {
        return call("GET", target, "", user);
    }

    // GET `target` with a well-signed token for a user the participant does not know.
    static http::Response as_unknown_user(const std::string& target) {
        http::Request r{.method = "GET", .target = target};
        r.headers.push_back({"Authorization", "Bearer " + forged_user_token("mallory")});
        return router_->handle(r);
    }
};

// The features a participant reports with its default config (LedgerApiServer.getLedgerFeatures,
// UserManagementServiceConfig, PartyManagementServiceConfig, PackageServiceConfig,
// IndexServiceConfig: 15 s + 60 s), in the order the JSON API writes them.
json default_features() {
    return json::parse(R"({
        "experimental": {"staticTime": {"supported": false},
                         "commandInspectionService": {"supported": true}},
        "userManagement": {"supported": true, "maxRightsPerUser": 1000, "maxUsersPageSize": 1000},
        "partyManagement": {"maxPartiesPageSize": 10000},
        "offsetCheckpoint": {"maxOffsetCheckpointEmissionDelay":
                                 {"seconds": 75, "nanos": 0, "unknownFields": {"fields": {}}}},
        "packageFeature": {"maxVettedPackagesPageSize": 100}})");
}

// ---- /v2/version ----

TEST_F(ParticipantHandlersTest, TheVersionIsTheReleaseLinesCantonWithTheDefaultFeatures) {
    const http::Response r = get("/v2/version");

    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(json::parse(r.body), json({{"version", "3.5.10"}, {"features", default_features()}}));
    EXPECT_TRUE(r.body.starts_with(R"({"version":"3.5.10","features":{"experimental":)")) << r.body;
}

TEST_F(ParticipantHandlersTest, TheVersionNeedsNoToken) {
    // ApiVersionService has no authorization wrapper: even a refused token is answered.
    EXPECT_EQ(get("/v2/version", "").status, 200);
    http::Request bad{.method = "GET", .target = "/v2/version"};
    bad.headers.push_back({"Authorization", "Bearer not-a-jwt"});
    EXPECT_EQ(router_->handle(bad).status, 200);
}

TEST_F(ParticipantHandlersTest, TheVersionRefusesATokenOfAnUnknownUser) {
    // The JSON API resolves a user token before any service runs.
    expect_redacted(as_unknown_user("/v2/version"), 403, 7,
                    {{"ledger_api_error", "invalid token"}});
}

TEST(ParticipantVersion, Canton36ReportsItsOwnVersion) {
    const auto store =
        seed::load_seed_file(std::string(CANTONLITE_SOURCE_DIR) + "/config/default-network.json");
    const auto router = app::make_router(*store, ApiProfile{.release = Release::splice_0_9});
    const http::Response r =
        router->handle(http::Request{.method = "GET", .target = "/v2/version"});

    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(json::parse(r.body)["version"], "3.6.0");
    EXPECT_EQ(json::parse(r.body)["features"], default_features());
}

// ---- /v2/authenticated-user ----

TEST_F(ParticipantHandlersTest, TheAuthenticatedUserIsTheTokensUserWithEveryField) {
    const http::Response r = get("/v2/authenticated-user", "dave");

    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(r.body,
              R"({"user":{"id":"dave","primaryParty":")" + dave +
                  R"(","isDeactivated":false,"metadata":{"resourceVersion":"0","annotations":{}},)"
                  R"("identityProviderId":"","primaryPartyAuthentication":false}})");
}

TEST_F(ParticipantHandlersTest, TheAuthenticatedUserTakesTheDefaultIdentityProvider) {
    EXPECT_EQ(get("/v2/authenticated-user?identity-provider-id=", "alice").status, 200);
    // A default-provider user naming another provider: the store answers PermissionDenied.
    expect_redacted(get("/v2/authenticated-user?identity-provider-id=idp-1", "alice"), 403, 7);
}

TEST_F(ParticipantHandlersTest, TheAuthenticatedUserNeedsAToken) {
    expect_redacted(get("/v2/authenticated-user", ""), 401, 16);
    // An unknown user is refused with the token, before USER_NOT_FOUND could answer.
    expect_redacted(as_unknown_user("/v2/authenticated-user"), 403, 7,
                    {{"ledger_api_error", "invalid token"}});
}

TEST(ParticipantAuthenticatedUser, WithoutLedgerAuthThereIsNoUserToName) {
    std::ifstream in(std::string(CANTONLITE_SOURCE_DIR) + "/config/default-network.json");
    json seed = json::parse(in);
    seed["auth"]["ledger_auth"] = false;
    const auto store = seed::load_seed(seed, "test-seed");
    const auto router = app::make_router(*store);
    const http::Response r =
        router->handle(http::Request{.method = "GET", .target = "/v2/authenticated-user"});

    EXPECT_EQ(r.status, 400) << r.body;
    const json e = json::parse(r.body);
    EXPECT_EQ(e["code"], "INVALID_TOKEN");
    EXPECT_EQ(e["cause"],
              "The submitted request is missing a user-id: requests with an empty user-id are "
              "only supported if there is an authenticated user");
    EXPECT_EQ(e["errorCategory"], 8);
    EXPECT_EQ(e["grpcCodeValue"], 3);
}

// ---- /v2/state/connected-synchronizers ----

TEST_F(ParticipantHandlersTest, EveryConnectedSynchronizerWithoutAPermissionWhenNoPartyIsAsked) {
    const http::Response r = get("/v2/state/connected-synchronizers", "carol");

    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(json::parse(r.body),
              json::parse(R"({"connectedSynchronizers": [
                  {"synchronizerAlias": "global", "synchronizerId": ")" +
                          global_synchronizer +
                          R"(", "permission": "PARTICIPANT_PERMISSION_UNSPECIFIED"},
                  {"synchronizerAlias": "private-synchronizer", "synchronizerId": ")" +
                          private_synchronizer +
                          R"(", "permission": "PARTICIPANT_PERMISSION_UNSPECIFIED"}]})"));
}

TEST_F(ParticipantHandlersTest, AHostedPartyHasSubmissionPermissionOnEverySynchronizer) {
    const http::Response r =
        get("/v2/state/connected-synchronizers?party=" + alice + "&participantId=", "alice");

    ASSERT_EQ(r.status, 200) << r.body;
    const json list = json::parse(r.body)["connectedSynchronizers"];
    ASSERT_EQ(list.size(), 2U);
    for (const json& s : list) EXPECT_EQ(s["permission"], "PARTICIPANT_PERMISSION_SUBMISSION");
}

TEST_F(ParticipantHandlersTest, APartyHostedNowhereHasNoSynchronizer) {
    const http::Response r =
        get("/v2/state/connected-synchronizers?party=nobody::1220ab", "auditor");

    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(json::parse(r.body), json::parse(R"({"connectedSynchronizers": []})"));
}

TEST_F(ParticipantHandlersTest, AskingForAPartyNeedsTheRightToOperateAsIt) {
    expect_redacted(get("/v2/state/connected-synchronizers", ""), 401, 16);
    expect_redacted(get("/v2/state/connected-synchronizers?party=" + bob, "alice"), 403, 7);
    EXPECT_EQ(get("/v2/state/connected-synchronizers?party=" + bob, "dave").status, 200);  // reads
    EXPECT_EQ(get("/v2/state/connected-synchronizers?party=" + bob, "auditor").status, 200);
}

TEST_F(ParticipantHandlersTest, AMalformedPartyIsAnInvalidFieldOnceAuthorized) {
    expect_redacted(get("/v2/state/connected-synchronizers?party=a%21", "alice"), 403, 7);
    expect_error(get("/v2/state/connected-synchronizers?party=a%21", "auditor"), 400,
                 "INVALID_FIELD",
                 "The submitted command has a field with invalid value: Invalid field party: non "
                 "expected character 0x21 in Daml-LF Party \"a!\"");
}

// ---- /v2/state/latest-pruned-offsets ----

TEST_F(ParticipantHandlersTest, NothingIsPruned) {
    const http::Response r = get("/v2/state/latest-pruned-offsets", "carol");

    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(
        r.body,
        R"({"participantPrunedUpToInclusive":0,"allDivulgedContractsPrunedUpToInclusive":0})");
}

TEST_F(ParticipantHandlersTest, ThePrunedOffsetsNeedAnyValidUserToken) {
    expect_redacted(get("/v2/state/latest-pruned-offsets", ""), 401, 16);
    expect_redacted(as_unknown_user("/v2/state/latest-pruned-offsets"), 403, 7,
                    {{"ledger_api_error", "invalid token"}});
}

}  // namespace
}  // namespace cantonlite::areas::ledger::participant_handlers_test
