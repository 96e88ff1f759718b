// User and party management reads over the default network, from Canton release-line-3.5:
// JsUserManagementService (L110-133 getUser with identity-provider-id, L191-212 listUserRights,
// L294-298 listUsers with pageSize/pageToken), UserManagementServiceAuthorization (L54-60,
// L94-100 userReaderClaims: the caller's own user, else AdminOrIdpAdmin; L69-74 listUsers:
// AdminOrIdpAdmin), ApiUserManagementService (L605-613 toProtoUser, L615-630 toProtoRight,
// L274-310 listUsers paging, Utils.handleResult's UserNotFound: "<operation> failed for unknown
// user \"<id>\""), IdString.scala UserId (1-128 of [a-zA-Z0-9@^$.!`-#+'~_|:()]);
// JsPartyManagementService (L204-224), PartyManagementServiceAuthorization (L36-43
// listKnownParties: AdminOrIdpAdmin, CanReadAsAnyParty is not enough; L26-29 getParticipantId:
// Public), ApiPartyManagementService (L197-251 paging: ORDER BY party, 10000 at most, prefix
// filter-party; L1167-1177 toProtoPartyDetails), Member.scala ParticipantId.toLf (no "PAR::").
// The JSON API's fallbacks: EndpointsCompanion.notFound (L75-84) and tapir 1.11.7's
// DefaultRejectHandler (405 "Method Not Allowed", no Allow header).

#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cantonlite/areas/ledger/ledger_area.hpp"
#include "cantonlite/http/path.hpp"
#include "ledger_test_support.hpp"

namespace cantonlite::areas::ledger::user_handlers_test {
namespace {

using nlohmann::json;

const std::string admin = "ledger-api-user";
const std::string validator_party =
    "validator-1::1220d2b40032aef27989dd2c44bedfe887441a2f14d0f5702d96d0bb62479be9d367";

class UserHandlersTest : public LedgerSuite {
  protected:
    static void SetUpTestSuite() { serve_default_network(); }

    static http::Response get(const std::string& target, const std::string& user = "alice") {
        return call("GET", target, "", user);
    }
};

// ---- GET /v2/users/{user-id} ----

TEST_F(UserHandlersTest, AUserReadsItselfWithoutAdminRights) {
    const http::Response r = get("/v2/users/alice");

    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(r.body, R"({"user":{"id":"alice","primaryParty":")" + alice +
                          R"(","isDeactivated":false,"metadata":{"resourceVersion":"0",)"
                          R"("annotations":{}},"identityProviderId":"",)"
                          R"("primaryPartyAuthentication":false}})");
    EXPECT_EQ(r.body, get("/v2/authenticated-user").body);
}

TEST_F(UserHandlersTest, AnotherUserNeedsParticipantAdmin) {
    expect_redacted(get("/v2/users/bob"), 403, 7);
    expect_redacted(get("/v2/users/nobody"), 403, 7);  // the claims come before the lookup
    EXPECT_EQ(json::parse(get("/v2/users/bob", admin).body)["user"]["primaryParty"], bob);
}

TEST_F(UserHandlersTest, AnUnknownUserIsNotFoundForAnAdmin) {
    const http::Response r = get("/v2/users/nobody", admin);

    expect_error(r, 404, "USER_NOT_FOUND", "getting user failed for unknown user \"nobody\"");
    EXPECT_EQ(json::parse(r.body)["resources"],
              json::parse(R"j([["ErrorResource(USER)","nobody"]])j"));
    EXPECT_EQ(json::parse(r.body)["errorCategory"], 11);
}

TEST_F(UserHandlersTest, AMalformedUserIdIsRefusedBeforeTheClaims) {
    const std::string cause =
        "The submitted request has invalid arguments: Malformed user-id: User ID \"bad user\" "
        "does not match regex \"[a-zA-Z0-9@^$.!`\\-#+'~_|:\\(\\)]{1,128}\"";
    expect_error(get("/v2/users/bad%20user", ""), 400, "INVALID_ARGUMENT", cause);
    expect_error(get("/v2/users/" + std::string(129, 'a'), admin), 400, "INVALID_ARGUMENT",
                 "The submitted request has invalid arguments: Malformed user-id: User ID \"" +
                     std::string(129, 'a') +
                     "\" does not match regex \"[a-zA-Z0-9@^$.!`\\-#+'~_|:\\(\\)]{1,128}\"");
}

TEST_F(UserHandlersTest, WithoutATokenIsUnauthenticated) {
    expect_redacted(get("/v2/users/alice", ""), 401, 16);
    expect_redacted(get("/v2/users/alice/rights", ""), 401, 16);
}

// ---- GET /v2/users/{user-id}/rights ----

TEST_F(UserHandlersTest, AUserListsItsOwnRights) {
    const http::Response r = get("/v2/users/dave/rights", "dave");

    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(
        json::parse(r.body),
        json::parse(R"({"rights":[{"kind":{"CanActAs":{"value":{"party":")" + dave +
                    R"("}}}},{"kind":{"CanReadAs":{"value":{"party":")" + alice +
                    R"("}}}},{"kind":{"CanReadAs":{"value":{"party":")" + bob + R"("}}}}]})"));
}

TEST_F(UserHandlersTest, TheAdminsRightsIncludeParticipantAdminAndReadAsAnyParty) {
    const http::Response r = get("/v2/users/ledger-api-user/rights", admin);

    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(r.body, R"({"rights":[{"kind":{"CanActAs":{"value":{"party":")" + validator_party +
                          R"("}}}},{"kind":{"CanReadAsAnyParty":{"value":{}}}},)"
                          R"({"kind":{"ParticipantAdmin":{"value":{}}}}]})");
}

TEST_F(UserHandlersTest, OthersRightsNeedParticipantAdmin) {
    expect_redacted(get("/v2/users/alice/rights", "auditor"), 403, 7);
    expect_error(get("/v2/users/nobody/rights", admin), 404, "USER_NOT_FOUND",
                 "list user rights failed for unknown user \"nobody\"");
}

// ---- GET /v2/users ----

TEST_F(UserHandlersTest, TheAdminListsUsersById) {
    const http::Response r = get("/v2/users", admin);

    ASSERT_EQ(r.status, 200) << r.body;
    const json body = json::parse(r.body);
    std::vector<std::string> ids;
    for (const json& u : body["users"]) ids.push_back(u["id"]);
    EXPECT_EQ(ids, (std::vector<std::string>{"alice", "auditor", "bob", "carol", "dave",
                                             "ledger-api-user"}));
    EXPECT_EQ(body["nextPageToken"], "");
}

TEST_F(UserHandlersTest, UsersComeInPagesWithATokenAfterAFullOne) {
    const json first = json::parse(get("/v2/users?pageSize=4", admin).body);
    ASSERT_EQ(first["users"].size(), 4U);
    // base64url (padded) of the proto {1: "carol"}.
    EXPECT_EQ(first["nextPageToken"], "CgVjYXJvbA==");

    const json second =
        json::parse(get("/v2/users?pageSize=4&pageToken=CgVjYXJvbA%3D%3D", admin).body);
    ASSERT_EQ(second["users"].size(), 2U);
    EXPECT_EQ(second["users"][0]["id"], "dave");
    EXPECT_EQ(second["nextPageToken"], "");
}

TEST_F(UserHandlersTest, ListingUsersChecksItsQueryThenTheClaims) {
    const http::Response text = get("/v2/users?pageSize=ten", "");
    EXPECT_EQ(text.status, 400);
    EXPECT_EQ(text.body, "Invalid value for: query parameter pageSize");
    expect_redacted(get("/v2/users", "alice"), 403, 7);
    expect_error(get("/v2/users?pageSize=-1", admin), 400, "INVALID_ARGUMENT",
                 "The submitted request has invalid arguments: Max page size must be non-negative");
    expect_error(get("/v2/users?pageToken=nope", admin), 400, "INVALID_ARGUMENT",
                 "The submitted request has invalid arguments: Invalid page token");
    EXPECT_EQ(json::parse(get("/v2/users?pageSize=5000", admin).body)["users"].size(), 6U);
}

// ---- GET /v2/parties ----

TEST_F(UserHandlersTest, TheAdminListsTheKnownPartiesById) {
    const http::Response r = get("/v2/parties", admin);

    ASSERT_EQ(r.status, 200) << r.body;
    const json body = json::parse(r.body);
    ASSERT_GE(body["partyDetails"].size(), 6U);
    std::vector<std::string> parties;
    for (const json& p : body["partyDetails"]) parties.push_back(p["party"]);
    EXPECT_TRUE(std::is_sorted(parties.begin(), parties.end()));
    EXPECT_NE(std::find(parties.begin(), parties.end(), alice), parties.end());
    EXPECT_NE(std::find(parties.begin(), parties.end(), validator_party), parties.end());
    EXPECT_EQ(body["partyDetails"][0],
              json::parse(R"({"party":")" + parties[0] +
                          R"(","isLocal":true,"localMetadata":{"resourceVersion":"",)"
                          R"("annotations":{}},"identityProviderId":""})"));
    EXPECT_EQ(body["nextPageToken"], "");
}

TEST_F(UserHandlersTest, ReadingAsAnyPartyDoesNotListParties) {
    expect_redacted(get("/v2/parties", "auditor"), 403, 7);
}

TEST_F(UserHandlersTest, PartiesAreFilteredByPrefixAndPaged) {
    const json alices = json::parse(get("/v2/parties?filter-party=alice", admin).body);
    ASSERT_EQ(alices["partyDetails"].size(), 1U);
    EXPECT_EQ(alices["partyDetails"][0]["party"], alice);

    const json page = json::parse(get("/v2/parties?pageSize=1", admin).body);
    ASSERT_EQ(page["partyDetails"].size(), 1U);
    const std::string token = page["nextPageToken"];
    EXPECT_FALSE(token.empty());
    const json next = json::parse(get("/v2/parties?pageSize=1&pageToken=" + token, admin).body);
    EXPECT_GT(next["partyDetails"][0]["party"].get<std::string>(),
              page["partyDetails"][0]["party"].get<std::string>());
}

TEST_F(UserHandlersTest, APageOfPartiesHasAMaximum) {
    expect_error(get("/v2/parties?pageSize=10001", admin), 400, "INVALID_ARGUMENT",
                 "The submitted request has invalid arguments: Page size must not exceed the "
                 "server's maximum of 10000");
    expect_error(get("/v2/parties?pageSize=-1", admin), 400, "INVALID_ARGUMENT",
                 "The submitted request has invalid arguments: Page size must be non-negative");
}

TEST_F(UserHandlersTest, OnePartyForThoseWhoMayOperateAsIt) {
    const http::Response r = get("/v2/parties/" + alice + "?parties=" + bob, "dave");

    ASSERT_EQ(r.status, 200) << r.body;
    const json body = json::parse(r.body);
    ASSERT_EQ(body["partyDetails"].size(), 2U);
    EXPECT_EQ(body["partyDetails"][0]["party"], alice);
    EXPECT_EQ(body["partyDetails"][1]["party"], bob);
    expect_redacted(get("/v2/parties/" + alice, "carol"), 403, 7);
    expect_redacted(get("/v2/parties/" + alice + "?parties=nobody%3A%3A1220", "dave"), 403, 7);
}

TEST_F(UserHandlersTest, UnknownPartiesAreLeftOut) {
    const json body = json::parse(get("/v2/parties/nobody%3A%3A1220?parties=" + alice, admin).body);

    ASSERT_EQ(body["partyDetails"].size(), 1U);
    EXPECT_EQ(body["partyDetails"][0]["party"], alice);
}

// ---- GET /v2/parties/participant-id ----

TEST_F(UserHandlersTest, TheParticipantIdIsItsUniqueIdentifier) {
    const http::Response r = get("/v2/parties/participant-id", "carol");

    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(r.body, R"({"participantId":"participant1::)"
                      R"(122056e00d8eef432e448963fb33d31cbc989835384ec290868e0a0f7573b254b1af"})");
    expect_redacted(get("/v2/parties/participant-id", ""), 401, 16);
}

// ---- the JSON API's own answers ----

TEST_F(UserHandlersTest, AnUnknownPathIsTheFallbackRoutesJson) {
    http::Request r{.method = "POST", .target = "/v2/nope?x=1"};
    r.headers.push_back({"Host", "localhost:7575"});

    const http::Response answer = router_->handle(r);

    EXPECT_EQ(answer.status, 404);
    EXPECT_EQ(answer.content_type, "application/json");
    EXPECT_EQ(answer.body,
              R"({"errors":["HttpMethod(POST), uri: http://localhost:7575/v2/nope?x=1"],)"
              R"("status":404,"ledgerApiError":null})");
}

// A Host header that is not UTF-8 (Java decodes it into U+FFFD) or holds control characters
// still gives a JSON body.
TEST_F(UserHandlersTest, TheFallbackRoutesJsonStaysValidWithAnyHost) {
    http::Request r{.method = "GET", .target = "/v2/nope"};
    r.headers.push_back({"Host", "h\xff\x7f\x01"});

    const http::Response answer = router_->handle(r);

    ASSERT_TRUE(json::accept(answer.body)) << answer.body;
    EXPECT_EQ(json::parse(answer.body)["errors"][0],
              "HttpMethod(GET), uri: http://h\xef\xbf\xbd\x7f\x01/v2/nope");
    EXPECT_NE(answer.body.find("\\u007f\\u0001"), std::string::npos) << answer.body;
}

TEST_F(UserHandlersTest, AWrongMethodIsTapirs405WithoutAllow) {
    const http::Response r = call("DELETE", "/v2/version", "", "alice");

    EXPECT_EQ(r.status, 405);
    EXPECT_EQ(r.content_type, "text/plain; charset=UTF-8");
    EXPECT_EQ(r.body, "Method Not Allowed");
    EXPECT_FALSE(r.header("Allow").has_value());
}

TEST_F(UserHandlersTest, APlainGetOfAWebSocketIsAnUnknownPath) {
    for (const std::string target : {"/v2/updates", "/v2/state/active-contracts"}) {
        http::Request r{.method = "GET", .target = target};
        r.headers.push_back({"Host", "localhost:7575"});
        const http::Response answer = router_->handle(r);
        EXPECT_EQ(answer.status, 404) << target;
        EXPECT_EQ(answer.body, R"({"errors":["HttpMethod(GET), uri: http://localhost:7575)" +
                                   target + R"("],"status":404,"ledgerApiError":null})");
    }
}

// Every route declares its claims; none but the version answers a caller without a token with
// data, whatever its path parameters (each GET of the table, on both release lines).
TEST_F(UserHandlersTest, NoGetRouteButTheVersionAnswersWithoutAToken) {
    for (const Release release : {Release::splice_0_6, Release::splice_0_9}) {
        const LedgerArea area(*store_, ApiProfile{.release = release});
        for (const http::RouteTable::Route& route : area.routes().routes()) {
            if (route.method != "GET" || route.pattern == "/v2/version") continue;
            std::string target;
            for (const std::string& segment : route.segments) {
                target += "/" + (segment.starts_with("{") ? std::string("alice") : segment);
            }
            http::Request r{.method = "GET", .target = target};
            r.websocket_upgrade = true;  // a WebSocket route answers its upgrade with 101 first
            const http::Response answer = area.handle(r, *http::split_path(target));
            if (answer.stream) {
                // The stream checks the claims on the request it reads: 401 there.
                const auto out = answer.stream->on_message(
                    R"({"beginExclusive":0,"activeAtOffset":0,"updateFormat":{"includeTransactions":)"
                    R"({"eventFormat":{"filtersByParty":{"alice":{}}},"transactionShape":)"
                    R"("TRANSACTION_SHAPE_ACS_DELTA"}},"eventFormat":{"filtersByParty":{"alice":{}}}})");
                ASSERT_EQ(out.messages.size(), 1U) << target;
                EXPECT_EQ(json::parse(out.messages[0])["grpcCodeValue"], 16) << target;
            } else {
                EXPECT_GE(answer.status, 400) << target << ": " << answer.body;
            }
        }
    }
}

}  // namespace
}  // namespace cantonlite::areas::ledger::user_handlers_test
