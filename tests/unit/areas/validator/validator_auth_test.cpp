// Validator authentication: every wallet and scan-proxy route needs a bearer JWT that the
// network's HS256 settings accept (splice-behavior.md §5.1, §5.2; §2 rows 4,5 and 6,7,9). Pekko's
// 401 is plain text with a WWW-Authenticate challenge naming the route family's realm.
#include <string>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "areas/validator/validator_test_support.hpp"

namespace cantonlite::areas::validator::validator_auth_test {
namespace {

using namespace valtest;  // NOLINT: the validator test network, steps and tokens
using scantest::alice;
using scantest::body_of;
using scantest::with;

struct Endpoint {
    std::string name;
    std::string method;
    std::string target;
    std::string body;
    std::string realm;
};

Endpoint list_offers() {
    return {"ListTransferOffers", "GET", "/api/validator/v0/wallet/transfer-offers", "",
            valtest::wallet_realm};
}

Endpoint buy_traffic_status() {
    return {"BuyTrafficRequestStatus", "POST",
            "/api/validator/v0/wallet/buy-traffic-requests/traffic-created/status", "",
            valtest::wallet_realm};
}

Endpoint holdings_summary() {
    return {"HoldingsSummary", "POST", "/api/validator/v1/scan-proxy/holdings/summary",
            scantest::summary_request(0, first_snapshot, {alice}).dump(),
            valtest::scan_proxy_realm};
}

Endpoint transfer_command_counter() {
    return {"TransferCommandCounter", "GET",
            "/api/validator/v0/scan-proxy/transfer-command-counter/" + alice, "",
            valtest::scan_proxy_realm};
}

Endpoint transfer_preapproval() {
    return {"TransferPreapproval", "GET",
            "/api/validator/v0/scan-proxy/transfer-preapprovals/by-party/" + alice, "",
            valtest::scan_proxy_realm};
}

Endpoint registry_instruments() {
    return {"RegistryInstruments", "GET",
            "/api/validator/v0/scan-proxy/registry/metadata/v1/instruments", "",
            valtest::scan_proxy_realm};
}

Endpoint ans_entry_by_name() {
    return {"AnsEntryByName", "GET",
            "/api/validator/v0/scan-proxy/ans-entries/by-name/alice.unverified.ans", "",
            valtest::scan_proxy_realm};
}

Endpoint dso_party_id() {
    return {"DsoPartyId", "GET", "/api/validator/v0/scan-proxy/dso-party-id", "",
            valtest::scan_proxy_realm};
}

std::vector<Endpoint> all_endpoints() {
    return {list_offers(),
            buy_traffic_status(),
            holdings_summary(),
            ans_entry_by_name(),
            transfer_command_counter(),
            transfer_preapproval(),
            registry_instruments(),
            dso_party_id()};
}

std::vector<Endpoint> scan_proxy_endpoints() {
    return {holdings_summary(),     transfer_command_counter(), transfer_preapproval(),
            registry_instruments(), ans_entry_by_name(),        dso_party_id()};
}

// A body goes with Content-Type: application/json, as the real clients send it.
Response send(const Endpoint& e, std::vector<Header> headers) {
    if (!e.body.empty()) headers.push_back({"Content-Type", "application/json"});
    return api().send(e.method, e.target, e.body, std::move(headers));
}

// An Authorization header, or none when `value` is empty.
struct Credentials {
    std::string name;
    std::string value;
};

std::vector<Header> headers_of(const Credentials& c) {
    if (c.value.empty()) return {};
    return {{"Authorization", c.value}};
}

std::string case_name(const testing::TestParamInfo<std::tuple<Endpoint, Credentials>>& info) {
    return std::get<0>(info.param).name + std::get<1>(info.param).name;
}

// ---- no credentials -----------------------------------------------------------------------

class ValidatorMissingCredentials
    : public testing::TestWithParam<std::tuple<Endpoint, Credentials>> {};

// Pekko's authenticateOAuth2 sees no bearer token: any other scheme counts as missing.
TEST_P(ValidatorMissingCredentials, AreRefusedWithTheRealmsChallenge) {
    const auto& [endpoint, credentials] = GetParam();

    const Response response = send(endpoint, headers_of(credentials));

    EXPECT_TRUE(is_unauthorized(response, missing_text, endpoint.realm));
}

INSTANTIATE_TEST_SUITE_P(Cases, ValidatorMissingCredentials,
                         testing::Combine(testing::ValuesIn(all_endpoints()),
                                          testing::Values(Credentials{"NoHeader", ""},
                                                          Credentials{"BasicScheme",
                                                                      "Basic YWxpY2U6c2VjcmV0"})),
                         case_name);

// ---- invalid tokens -----------------------------------------------------------------------

std::vector<Credentials> invalid_tokens() {
    const json good = claims_for("alice");
    json array_without_audience = good;
    array_without_audience["aud"] = {"https://other.example", "https://another.example"};
    json expired = good;
    expired["iat"] = now_seconds() - 7200;
    expired["exp"] = now_seconds() - 3600;
    json not_yet_valid = good;
    not_yet_valid["nbf"] = now_seconds() + 3600;
    json empty_sub = good;
    empty_sub["sub"] = "";
    const std::string signed_good = jwt(good);
    const std::string tampered = signed_good.substr(0, signed_good.find('.')) + "." +
                                 base64url(claims_for("bob").dump()) +
                                 signed_good.substr(signed_good.rfind('.'));
    return {
        {"WrongSecret", "Bearer " + jwt(good, "not-the-secret")},
        {"WrongAudience", "Bearer " + jwt(with(good, "aud", "https://other.example"))},
        {"AudienceArrayWithoutTheAudience", "Bearer " + jwt(array_without_audience)},
        {"NoAudience", "Bearer " + jwt(without(good, "aud"))},
        {"Expired", "Bearer " + jwt(expired)},
        {"NotYetValid", "Bearer " + jwt(not_yet_valid)},
        {"AlgNone", "Bearer " + jwt(good, "", "none")},
        {"AlgHs384", "Bearer " + jwt(good, secret, "HS384")},
        {"NoSubject", "Bearer " + jwt(without(good, "sub"))},
        {"EmptySubject", "Bearer " + jwt(empty_sub)},
        {"TamperedClaims", "Bearer " + tampered},
        {"NotAJwt", "Bearer not.a.jwt"},
        {"Garbage", "Bearer garbage"},
    };
}

class ValidatorInvalidToken : public testing::TestWithParam<std::tuple<Endpoint, Credentials>> {};

TEST_P(ValidatorInvalidToken, IsRefusedWithTheRealmsChallenge) {
    const auto& [endpoint, credentials] = GetParam();

    const Response response = send(endpoint, headers_of(credentials));

    EXPECT_TRUE(is_unauthorized(response, invalid_text, endpoint.realm));
}

INSTANTIATE_TEST_SUITE_P(Cases, ValidatorInvalidToken,
                         testing::Combine(testing::ValuesIn(all_endpoints()),
                                          testing::ValuesIn(invalid_tokens())),
                         case_name);

// ---- valid tokens -------------------------------------------------------------------------

class ValidatorValidToken : public testing::TestWithParam<Endpoint> {};

TEST_P(ValidatorValidToken, OfAWalletUserIsAccepted) {
    const Response response = send(GetParam(), {token_of(api(), "alice")});

    EXPECT_EQ(response.status, 200) << response.body;
    EXPECT_EQ(response.content_type, "application/json");
}

TEST_P(ValidatorValidToken, WithTheAudienceInAnArrayIsAccepted) {
    json claims = claims_for("alice");
    claims["aud"] = {"https://other.example", audience};

    const Response response = send(GetParam(), {bearer(jwt(claims))});

    EXPECT_EQ(response.status, 200) << response.body;
}

// exp is checked when present, not required (auth0 java-jwt).
TEST_P(ValidatorValidToken, WithoutExpiryIsAccepted) {
    const Response response = send(GetParam(), {bearer(jwt(without(claims_for("alice"), "exp")))});

    EXPECT_EQ(response.status, 200) << response.body;
}

INSTANTIATE_TEST_SUITE_P(Endpoints, ValidatorValidToken, testing::ValuesIn(all_endpoints()),
                         [](const testing::TestParamInfo<Endpoint>& info) {
                             return info.param.name;
                         });

class ScanProxyToken : public testing::TestWithParam<Endpoint> {};

// AuthenticationOnlyAuthExtractor: the token's user need not exist on the participant.
TEST_P(ScanProxyToken, OfAnUnknownUserIsAccepted) {
    const Response response = send(GetParam(), {token_for("nobody-at-all")});

    EXPECT_EQ(response.status, 200) << response.body;
}

TEST_P(ScanProxyToken, OfAUserWithoutWalletIsAccepted) {
    const Response response = send(GetParam(), {token_of(api(), "carol")});

    EXPECT_EQ(response.status, 200) << response.body;
}

TEST_P(ScanProxyToken, OfAUserThatCannotActIsAccepted) {
    const Response response = send(GetParam(), {token_of(api(), "dave")});

    EXPECT_EQ(response.status, 200) << response.body;
}

INSTANTIATE_TEST_SUITE_P(Endpoints, ScanProxyToken, testing::ValuesIn(scan_proxy_endpoints()),
                         [](const testing::TestParamInfo<Endpoint>& info) {
                             return info.param.name;
                         });

// ---- the user of a token ------------------------------------------------------------------

json daml_user_claims(const std::string& sub, const std::string& daml_user) {
    json claims = claims_for(sub);
    claims["https://canton-network"] = {{"daml_user", daml_user}};
    return claims;
}

TEST(ValidatorTokenUser, IsTheDamlUserClaimWhenPresent) {
    const Endpoint e = list_offers();

    const Response response = send(e, {bearer(jwt(daml_user_claims("nobody-at-all", "alice")))});

    ASSERT_EQ(response.status, 200) << response.body;
    EXPECT_EQ(body_of(response), body_of(send(e, {token_of(api(), "alice")})));
}

TEST(ValidatorTokenUser, TheDamlUserClaimWinsOverTheSubject) {
    const Response response =
        send(list_offers(), {bearer(jwt(daml_user_claims("alice", "carol")))});

    EXPECT_TRUE(scantest::is_error(
        response, 404, "No wallet found for user 'carol' for operation 'listTransferOffers'"));
}

TEST(ValidatorTokenUser, ADamlUserClaimWithoutSubjectIsEnough) {
    const json claims = without(daml_user_claims("", "alice"), "sub");

    const Response response = send(list_offers(), {bearer(jwt(claims))});

    EXPECT_EQ(response.status, 200) << response.body;
}

// ---- unauthenticated routes -----------------------------------------------------------------

TEST(ValidatorLivez, NeedsNoToken) {
    const Response response = api().get("/api/validator/livez");

    EXPECT_EQ(response.status, 200);
    EXPECT_EQ(response.body, "");
}

TEST(ValidatorLivez, IgnoresAnInvalidToken) {
    const Response response = api().get("/api/validator/livez", {bearer("not.a.jwt")});

    EXPECT_EQ(response.status, 200);
    EXPECT_EQ(response.body, "");
}

}  // namespace
}  // namespace cantonlite::areas::validator::validator_auth_test
