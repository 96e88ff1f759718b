// The auth matrix of POST /v2/updates/transaction-by-offset over the default network
// (canton-ledger-behavior.md §7 and §5): which tokens the participant accepts, which user rights
// read which parties, the redacted 401/403 bodies, and the order of the selector, token and
// authorization checks (§1, §3.1, §5.4).
#include <cstdint>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cantonlite/app/application.hpp"
#include "cantonlite/app/token.hpp"
#include "cantonlite/seed/seed_loader.hpp"
#include "ledger_test_support.hpp"

namespace cantonlite::areas::ledger::ledger_auth_test {
namespace {

using nlohmann::json;

// The default network's token settings (docs/default-network.md "At a glance").
const std::string secret = "unsafe";
const std::string audience = "https://canton.network.global";

// Offsets of the default network: the mints of alice, bob and carol.
constexpr int alice_mint = 2;
constexpr int bob_mint = 3;

const std::string config_dir = std::string(CANTONLITE_SOURCE_DIR) + "/config";

std::int64_t now_seconds() {
    return auth::wall_clock_seconds();
}

// ---- HS256 tokens of any content, signed with auth/jwt_signer.hpp ----

std::string b64url(const std::string& bytes) {
    return auth::base64url_encode(bytes);
}

std::string hs256_sign(const json& header, const json& claims, const std::string& key) {
    return auth::sign_hs256(key, header.dump(), claims.dump());
}

const json hs256_header = {{"alg", "HS256"}, {"typ", "JWT"}};

// A user token as an IdP would issue it: sub, the configured audience, valid for an hour.
json user_claims(const std::string& user) {
    const std::int64_t now = now_seconds();
    return {{"sub", user}, {"aud", json::array({audience})}, {"iat", now}, {"exp", now + 3600}};
}

std::string forged(const json& claims, const std::string& key = secret) {
    return hs256_sign(hs256_header, claims, key);
}

// ---- requests ----

json by_offset(int offset, const std::vector<std::string>& parties) {
    return {{"offset", offset}, {"requestingParties", parties}};
}

json any_party_format(int offset, json by_party = json::object()) {
    return {{"offset", offset},
            {"transactionFormat",
             {{"transactionShape", "TRANSACTION_SHAPE_ACS_DELTA"},
              {"eventFormat",
               {{"filtersByParty", std::move(by_party)},
                {"filtersForAnyParty", {{"cumulative", json::array()}}}}}}}};
}

json party_format(int offset, const std::string& party) {
    json by_party = json::object();
    by_party[party] = {{"cumulative", json::array()}};
    return {{"offset", offset},
            {"transactionFormat",
             {{"transactionShape", "TRANSACTION_SHAPE_ACS_DELTA"},
              {"eventFormat", {{"filtersByParty", by_party}}}}}};
}

http::Request request(const std::string& body, std::vector<http::Header> headers = {}) {
    return http::Request{.method = "POST",
                         .target = "/v2/updates/transaction-by-offset",
                         .headers = std::move(headers),
                         .body = body};
}

http::Header bearer(const std::string& token) {
    return {"Authorization", "Bearer " + token};
}

class LedgerAuthTest : public LedgerSuite {
  protected:
    static void SetUpTestSuite() {
        serve(seed::load_seed_file(config_dir + "/default-network.json"));
    }

    static http::Response post(const json& body, std::vector<http::Header> headers = {}) {
        return router_->handle(request(body.dump(), std::move(headers)));
    }

    static http::Response post_as(const json& body, const std::string& user) {
        return post(body, {bearer(token(user))});
    }
};

// The keys of a JsCantonError in circe's order (§5.1).
const std::vector<std::string> error_keys = {
    "code",      "cause",         "correlationId", "traceId",   "context",
    "resources", "errorCategory", "grpcCodeValue", "retryInfo", "definiteAnswer"};

// The keys of a JSON object in the order the body writes them.
std::vector<std::string> keys_of(const std::string& body) {
    std::vector<std::string> keys;
    const nlohmann::ordered_json object = nlohmann::ordered_json::parse(body);
    for (const auto& [key, _] : object.items()) keys.push_back(key);
    return keys;
}

// A redacted (security-sensitive) JsCantonError: §5.1 A.
void expect_redacted(const http::Response& r, int status, int grpc_code, const json& context) {
    EXPECT_EQ(r.status, status) << r.body;
    EXPECT_EQ(r.content_type, "application/json");
    const json e = json::parse(r.body);
    EXPECT_EQ(keys_of(r.body), error_keys);
    EXPECT_EQ(e["code"], "NA");
    EXPECT_EQ(e["cause"], "A security-sensitive error has been received");
    EXPECT_EQ(e["errorCategory"], -1);
    EXPECT_EQ(e["grpcCodeValue"], grpc_code);
    EXPECT_EQ(e["context"], context);
    EXPECT_EQ(e["resources"], json::array());
    EXPECT_TRUE(e["traceId"].is_string());
    EXPECT_FALSE(e["traceId"].get<std::string>().empty());
    EXPECT_EQ(e["correlationId"], e["traceId"]);  // reads: both are the trace id
    EXPECT_EQ(e["retryInfo"], nullptr);
    EXPECT_EQ(e["definiteAnswer"], nullptr);
}

void expect_unauthenticated(const http::Response& r) {
    expect_redacted(r, 401, 16, json::object());
}

void expect_permission_denied(const http::Response& r) {
    expect_redacted(r, 403, 7, json::object());
}

void expect_invalid_token(const http::Response& r) {
    expect_redacted(r, 403, 7, {{"ledger_api_error", "invalid token"}});
}

const std::string neither_cause =
    "The submitted request has invalid arguments: Either transaction_format or requesting_parties "
    "is required. Please use either backwards compatible arguments (requesting_parties) or "
    "transaction_format.";
const std::string both_cause =
    "The submitted request has invalid arguments: Both transaction_format and requesting_parties "
    "are set. Please use either backwards compatible arguments (requesting_parties) or "
    "transaction_format but not both.";

void expect_invalid_argument(const http::Response& r, const std::string& cause) {
    EXPECT_EQ(r.status, 400) << r.body;
    EXPECT_EQ(r.content_type, "application/json");
    const json e = json::parse(r.body);
    EXPECT_EQ(e["code"], "INVALID_ARGUMENT");
    EXPECT_EQ(e["cause"], cause);
    EXPECT_EQ(e["errorCategory"], 8);
    EXPECT_EQ(e["grpcCodeValue"], 3);
}

// ================================ tokens (§7.2, §7.3) ================================

TEST_F(LedgerAuthTest, TheForgedTokensAreValidWithTheRightSecretAudienceAndTime) {
    // The control for the refused tokens below: the same signer with everything right works.
    const http::Response r =
        post(by_offset(alice_mint, {alice}), {bearer(forged(user_claims("alice")))});

    EXPECT_EQ(r.status, 200) << r.body;
}

TEST_F(LedgerAuthTest, NoTokenIsARedactedUnauthenticated) {
    expect_unauthenticated(post(by_offset(alice_mint, {alice})));
}

TEST_F(LedgerAuthTest, AMalformedTokenCountsAsNoToken) {
    expect_unauthenticated(post(by_offset(alice_mint, {alice}), {bearer("not-a-jwt")}));
    expect_unauthenticated(post(by_offset(alice_mint, {alice}), {bearer("a.b.c")}));
}

TEST_F(LedgerAuthTest, ATokenSignedWithAnotherSecretIsUnauthenticated) {
    const std::string token = forged(user_claims("alice"), "not-the-secret");

    expect_unauthenticated(post(by_offset(alice_mint, {alice}), {bearer(token)}));
}

TEST_F(LedgerAuthTest, ATokenWithoutASignatureIsUnauthenticated) {
    const std::string token = b64url(json({{"alg", "none"}, {"typ", "JWT"}}).dump()) + "." +
                              b64url(user_claims("alice").dump()) + ".";

    expect_unauthenticated(post(by_offset(alice_mint, {alice}), {bearer(token)}));
}

TEST_F(LedgerAuthTest, AnExpiredTokenIsUnauthenticated) {
    json claims = user_claims("alice");
    claims["iat"] = now_seconds() - 7200;
    claims["exp"] = now_seconds() - 3600;

    expect_unauthenticated(post(by_offset(alice_mint, {alice}), {bearer(forged(claims))}));
}

TEST_F(LedgerAuthTest, ATokenNotYetValidIsUnauthenticated) {
    json claims = user_claims("alice");
    claims["nbf"] = now_seconds() + 3600;

    expect_unauthenticated(post(by_offset(alice_mint, {alice}), {bearer(forged(claims))}));
}

TEST_F(LedgerAuthTest, ATokenForAnotherAudienceIsUnauthenticated) {
    json claims = user_claims("alice");
    claims["aud"] = json::array({"https://some-other-service.example"});

    expect_unauthenticated(post(by_offset(alice_mint, {alice}), {bearer(forged(claims))}));
}

// §7.3: with a target audience configured, aud must contain it; the participant audience and the
// daml_ledger_api scope only count when no target is configured.
TEST_F(LedgerAuthTest, TheLedgerApiScopeDoesNotReplaceTheConfiguredAudience) {
    json claims = user_claims("alice");
    claims["aud"] =
        json::array({"https://daml.com/jwt/aud/participant/" + store_->network().participant_id});
    claims["scope"] = "daml_ledger_api";

    expect_unauthenticated(post(by_offset(alice_mint, {alice}), {bearer(forged(claims))}));
}

TEST_F(LedgerAuthTest, ATokenWithoutSubjectIsUnauthenticated) {
    json claims = user_claims("alice");
    claims.erase("sub");

    expect_unauthenticated(post(by_offset(alice_mint, {alice}), {bearer(forged(claims))}));
}

TEST_F(LedgerAuthTest, AValidTokenOfAnUnknownUserIsAnInvalidTokenPermissionDenied) {
    // §7.4: user resolution fails in the JSON security stage: 403 with ledger_api_error.
    const std::string token = forged(user_claims("mallory"));

    expect_invalid_token(post(by_offset(alice_mint, {alice}), {bearer(token)}));
}

TEST_F(LedgerAuthTest, TheUnknownUserFailsBeforeTheBodyIsRead) {
    // §1: the security logic runs before the body decode and the selector check.
    const std::string token = forged(user_claims("mallory"));

    expect_invalid_token(router_->handle(request(R"({"offset":)", {bearer(token)})));
    expect_invalid_token(post({{"offset", alice_mint}}, {bearer(token)}));
}

// ================================ transport (§7.1) ================================

TEST_F(LedgerAuthTest, TheTokenMayComeAsAWebSocketProtocol) {
    const http::Response r = post(by_offset(alice_mint, {alice}),
                                  {{"Sec-WebSocket-Protocol", "jwt.token." + token("alice")}});

    EXPECT_EQ(r.status, 200) << r.body;
}

TEST_F(LedgerAuthTest, TheWebSocketTokenMayComeWithTheDamlProtocol) {
    const http::Response r =
        post(by_offset(alice_mint, {alice}),
             {{"Sec-WebSocket-Protocol", "jwt.token." + token("alice") + ", daml.ws.auth"}});

    EXPECT_EQ(r.status, 200) << r.body;
}

TEST_F(LedgerAuthTest, AWebSocketProtocolWithoutATokenIsUnauthenticated) {
    expect_unauthenticated(
        post(by_offset(alice_mint, {alice}), {{"Sec-WebSocket-Protocol", "daml.ws.auth"}}));
}

TEST_F(LedgerAuthTest, TheBearerTokenWinsOverTheWebSocketOne) {
    // bob's bearer token is used, and bob may not read alice.
    expect_permission_denied(
        post(by_offset(alice_mint, {alice}),
             {bearer(token("bob")), {"Sec-WebSocket-Protocol", "jwt.token." + token("alice")}}));
}

TEST_F(LedgerAuthTest, TheBearerSchemeIsCaseInsensitive) {
    const http::Response r =
        post(by_offset(alice_mint, {alice}), {{"Authorization", "bearer " + token("alice")}});

    EXPECT_EQ(r.status, 200) << r.body;
}

TEST_F(LedgerAuthTest, AnotherAuthorizationSchemeIsIgnored) {
    expect_unauthenticated(
        post(by_offset(alice_mint, {alice}), {{"Authorization", "Basic YWxpY2U6c2VjcmV0"}}));
    const http::Response r = post(by_offset(alice_mint, {alice}),
                                  {{"Authorization", "Basic YWxpY2U6c2VjcmV0"},
                                   {"Sec-WebSocket-Protocol", "jwt.token." + token("alice")}});
    EXPECT_EQ(r.status, 200) << r.body;
}

// ================================ rights (§7.4) ================================

TEST_F(LedgerAuthTest, ActAsRightsAllowReadingTheOwnParty) {
    EXPECT_EQ(post_as(by_offset(alice_mint, {alice}), "alice").status, 200);
    // dave acts as dave: authorized, but nothing at alice's mint is dave's.
    const http::Response r = post_as(by_offset(alice_mint, {dave}), "dave");
    EXPECT_EQ(r.status, 404) << r.body;
    EXPECT_EQ(json::parse(r.body)["code"], "UPDATE_NOT_FOUND");
}

TEST_F(LedgerAuthTest, AUserWithoutRightsForThePartyIsDenied) {
    expect_permission_denied(post_as(by_offset(alice_mint, {bob}), "alice"));
    expect_permission_denied(post_as(by_offset(bob_mint, {alice, bob}), "bob"));
    expect_permission_denied(post_as(party_format(alice_mint, carol), "alice"));
}

TEST_F(LedgerAuthTest, ReadAsRightsAllowReadingThoseParties) {
    const http::Response a = post_as(by_offset(alice_mint, {alice}), "dave");
    const http::Response b = post_as(by_offset(bob_mint, {bob}), "dave");
    const http::Response both = post_as(by_offset(bob_mint, {alice, bob, dave}), "dave");

    EXPECT_EQ(a.status, 200) << a.body;
    EXPECT_EQ(b.status, 200) << b.body;
    EXPECT_EQ(both.status, 200) << both.body;
    expect_permission_denied(post_as(by_offset(alice_mint, {alice, carol}), "dave"));
}

TEST_F(LedgerAuthTest, ReadAsAnyPartyReadsEveryParty) {
    // auditor acts as nobody and reads as any party.
    const http::Response r = post_as(by_offset(alice_mint, {alice}), "auditor");

    EXPECT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(post_as(party_format(bob_mint, bob), "auditor").status, 200);
}

TEST_F(LedgerAuthTest, FiltersForAnyPartyNeedCanReadAsAnyParty) {
    expect_permission_denied(post_as(any_party_format(alice_mint), "alice"));
    expect_permission_denied(post_as(any_party_format(alice_mint), "dave"));

    const http::Response r = post_as(any_party_format(alice_mint), "auditor");
    EXPECT_EQ(r.status, 200) << r.body;
}

TEST_F(LedgerAuthTest, FiltersForAnyPartyAlsoCheckTheNamedParties) {
    json by_party = json::object();
    by_party[alice] = {{"cumulative", json::array()}};

    EXPECT_EQ(post_as(any_party_format(alice_mint, by_party), "auditor").status, 200);
    // dave may read alice, but not as any party.
    expect_permission_denied(post_as(any_party_format(alice_mint, by_party), "dave"));
}

// ================================ order of the checks (§1, §3.1, §3.2, §5.4) ================

TEST_F(LedgerAuthTest, TheSelectorIsCheckedBeforeTheToken) {
    json both = by_offset(alice_mint, {alice});
    both["transactionFormat"] = party_format(alice_mint, alice)["transactionFormat"];

    expect_invalid_argument(post({{"offset", alice_mint}}), neither_cause);
    expect_invalid_argument(post(both), both_cause);
    expect_invalid_argument(post({{"offset", alice_mint}}, {bearer("not-a-jwt")}), neither_cause);
    expect_invalid_argument(
        post({{"offset", alice_mint}}, {bearer(forged(user_claims("alice"), "wrong"))}),
        neither_cause);
}

TEST_F(LedgerAuthTest, TheSelectorIsCheckedBeforeThePartyRights) {
    expect_invalid_argument(
        post_as({{"offset", alice_mint}, {"requestingParties", json::array()}}, "alice"),
        neither_cause);
    json both = by_offset(alice_mint, {bob});
    both["transactionFormat"] = party_format(alice_mint, bob)["transactionFormat"];
    expect_invalid_argument(post_as(both, "alice"), both_cause);
}

TEST_F(LedgerAuthTest, AnUndecodableBodyWithoutTokenIsPlainText) {
    const http::Response r = router_->handle(request(R"({"offset":)"));

    EXPECT_EQ(r.status, 400);
    EXPECT_EQ(r.content_type, "text/plain; charset=UTF-8");
}

TEST_F(LedgerAuthTest, TheTokenIsCheckedBeforeTheOffset) {
    // §3.4: NON_POSITIVE_OFFSET only once authorization passed.
    expect_unauthenticated(post(by_offset(0, {alice})));
    expect_permission_denied(post_as(by_offset(0, {bob}), "alice"));
    const http::Response r = post_as(by_offset(0, {alice}), "alice");
    EXPECT_EQ(r.status, 400) << r.body;
    EXPECT_EQ(json::parse(r.body)["code"], "NON_POSITIVE_OFFSET");
}

TEST_F(LedgerAuthTest, TheRightsAreCheckedBeforeThePartyIsValidated) {
    // §3.2: a bad party usually fails earlier with PERMISSION_DENIED.
    expect_permission_denied(post_as(party_format(alice_mint, "a!"), "alice"));
}

TEST_F(LedgerAuthTest, AnUnknownOffsetIsOnlyNotFoundForAnAuthenticatedCaller) {
    expect_unauthenticated(post(by_offset(100000, {alice})));
    const http::Response r = post_as(by_offset(100000, {alice}), "alice");
    EXPECT_EQ(r.status, 404) << r.body;
}

// ================================ ledger auth off (§7.2 "none configured") ================

class LedgerAuthOffTest : public LedgerSuite {
  protected:
    static void SetUpTestSuite() {
        std::ifstream file(config_dir + "/default-network.json");
        json document = json::parse(file);
        document["auth"]["ledger_auth"] = false;
        serve(seed::load_seed(document, "default-network-without-ledger-auth", config_dir));
    }

    static http::Response post(const json& body, std::vector<http::Header> headers = {}) {
        return router_->handle(request(body.dump(), std::move(headers)));
    }
};

TEST_F(LedgerAuthOffTest, TheSeedSwitchIsRead) {
    EXPECT_FALSE(store_->network().auth.ledger_auth);
}

TEST_F(LedgerAuthOffTest, NoTokenIsNeeded) {
    const http::Response r = post(by_offset(alice_mint, {alice}));

    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(json::parse(r.body)["transaction"]["offset"], alice_mint);
}

TEST_F(LedgerAuthOffTest, EveryPartyAndAnyPartyMayBeRead) {
    EXPECT_EQ(post(by_offset(bob_mint, {alice, bob, carol})).status, 200);
    EXPECT_EQ(post(any_party_format(alice_mint)).status, 200);
}

TEST_F(LedgerAuthOffTest, TokensAreIgnored) {
    // The wildcard auth service never looks at a token: neither a bad one nor an unknown user.
    EXPECT_EQ(post(by_offset(alice_mint, {alice}), {bearer("not-a-jwt")}).status, 200);
    EXPECT_EQ(post(by_offset(alice_mint, {alice}), {bearer(forged(user_claims("mallory")))}).status,
              200);
    EXPECT_EQ(
        post(by_offset(alice_mint, {alice}), {bearer(forged(user_claims("bob"), "wrong"))}).status,
        200);
}

TEST_F(LedgerAuthOffTest, TheOtherChecksStillApply) {
    expect_invalid_argument(post({{"offset", alice_mint}}), neither_cause);
    const http::Response r = post(by_offset(0, {alice}));
    EXPECT_EQ(r.status, 400) << r.body;
    EXPECT_EQ(json::parse(r.body)["code"], "NON_POSITIVE_OFFSET");
    EXPECT_EQ(post(by_offset(alice_mint, {bob})).status, 404);
}

}  // namespace
}  // namespace cantonlite::areas::ledger::ledger_auth_test
