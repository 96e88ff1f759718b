#pragma once
// Test helper for the validator area (/api/validator): the scan test network with wallet users and
// HS256 auth, the wallet and scan-proxy seed steps, and bearer tokens good and bad.

#include <chrono>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <nlohmann/json.hpp>

#include "areas/scan/scan_test_support.hpp"
#include "cantonlite/app/token.hpp"

namespace cantonlite::areas::validator {

namespace scantest = scan::scantest;

namespace valtest {

using http::Header;
using http::Response;
using nlohmann::json;
using scantest::ScanClient;

// ---- the test network ---------------------------------------------------------------------

// A wallet user whose ledger rights do not let it act as its own party.
inline const std::string erin = "erin::1220e0";
// A user with neither a wallet nor the right to act as anyone.
inline const std::string dave = "dave::1220d1";

inline const std::string secret = "validator-test-secret";
inline const std::string audience = "https://validator.test.example";

inline const std::string wallet_realm = "splice wallet realm";
inline const std::string scan_proxy_realm = "splice scan proxy realm";

inline const std::string missing_text =
    "The resource requires authentication, which was not supplied with the request";
inline const std::string invalid_text = "The supplied authentication is invalid";

// alice and bob have wallets; carol has none; erin has one but may only read as herself; dave
// has no wallet and may only read.
inline json users_json() {
    json users = scantest::users_json();
    users.push_back({{"id", "dave"},
                     {"party", dave},
                     {"rights", {{"can_act_as", json::array()}, {"can_read_as_any_party", true}}}});
    users.push_back({{"id", "erin"},
                     {"party", erin},
                     {"wallet", true},
                     {"rights", {{"can_act_as", json::array()}, {"can_read_as", {"erin"}}}}});
    return users;
}

// A seed of the scan test network with HS256 auth (`secret`, `audience`) and `steps`.
inline json seed_with(json steps) {
    return {{"network", scantest::network_json()},
            {"users", users_json()},
            {"auth", {{"hs256", {{"secret", secret}}}, {"audience", audience}}},
            {"steps", std::move(steps)}};
}

// A braced list of steps is an array (a one-step list would be that step under clang).
inline json seed_with(std::initializer_list<json> steps) {
    return seed_with(json(std::vector<json>(steps)));
}

// ---- wallet steps (docs/seed-format.md "Wallet") ------------------------------------------

inline json create_offer(const std::string& sender, const std::string& receiver,
                         const std::string& amount, const std::string& expires_at,
                         const std::string& label) {
    return {{"step", "create_transfer_offer"},
            {"sender", sender},
            {"receiver", receiver},
            {"amount", amount},
            {"description", "offer " + label},
            {"expires_at", expires_at},
            {"tracking_id", "tracking-" + label},
            {"as", label}};
}

inline json accept_offer(const std::string& offer) {
    return {{"step", "accept_transfer_offer"}, {"offer", offer}};
}

inline json withdraw_offer(const std::string& offer) {
    return {{"step", "withdraw_transfer_offer"}, {"offer", offer}, {"reason", "changed my mind"}};
}

inline json expire_offer(const std::string& offer) {
    return {{"step", "expire_transfer_offer"}, {"offer", offer}};
}

// A buy-traffic request of `user` whose tracking id is also its label.
inline json create_traffic(const std::string& user, const std::string& tracking_id,
                           const std::string& expires_at = "2030-01-01T00:00:00Z") {
    return {{"step", "create_buy_traffic_request"},
            {"user", user},
            {"traffic_amount", 200000},
            {"tracking_id", tracking_id},
            {"expires_at", expires_at},
            {"as", tracking_id}};
}

inline json complete_traffic(const std::string& request) {
    return {{"step", "complete_buy_traffic_request"}, {"request", request}};
}

inline json cancel_traffic(const std::string& request, const std::string& reason) {
    return {{"step", "cancel_buy_traffic_request"}, {"request", request}, {"reason", reason}};
}

inline json expire_traffic(const std::string& request) {
    return {{"step", "expire_buy_traffic_request"}, {"request", request}};
}

// ---- the validator network ----------------------------------------------------------------

inline const std::string first_snapshot = "2025-01-02T00:00:00Z";     // migration 0
inline const std::string second_snapshot = "2025-01-03T00:00:00Z";    // migration 0
inline const std::string migrated_snapshot = "2025-01-04T00:00:00Z";  // migration 1
inline const std::string ledger_clock = "2025-01-10T00:00:00Z";
inline const std::string cancel_reason =
    "out of funds: the wallet's amulets do not cover the price of 200000 bytes of traffic";

// Holdings: bob's 50, alice's 100 locked 30 for provider (70 change); snapshot 1; alice's 5;
// snapshot 2; migration 1 and snapshot 3. Counters: alice's, carol's (left in flight). ANS:
// alice's (live), bob's (expired before the clock). Transfer offers, in creation order: live
// alice -> bob (created at .5 s), stale bob -> alice (expired, never archived), accepted alice ->
// bob, withdrawn bob -> alice, alice -> carol expired by its step, live bob -> carol. Buy-traffic
// requests of alice: traffic-created, -completed, -cancelled, -expired; of bob: traffic-bob.
// Transfer preapprovals: alice's, provided by the validator operator.
inline json network_seed() {
    using scantest::at;
    return seed_with(
        {at(scantest::mint("bob", "50", "bob-coin"), "2025-01-01T01:00:00Z"),
         at(scantest::mint("alice", "100", "alice-coin"), "2025-01-01T01:10:00Z"),
         at(scantest::lock("alice-coin", "30", "alice-locked", "alice-change"),
            "2025-01-01T02:00:00Z"),
         scantest::snapshot_at(first_snapshot),
         at(scantest::mint("alice", "5", "alice-coin-2"), "2025-01-02T10:00:00Z"),
         scantest::snapshot_at(second_snapshot),
         at(scantest::migrate(), "2025-01-03T12:00:00Z"),
         scantest::snapshot_at(migrated_snapshot),
         at(scantest::transfer_command("alice", "alice-counter"), "2025-01-04T01:00:00Z"),
         scantest::transfer_command("carol", "carol-counter"),
         scantest::unassign("carol-counter", scantest::private_synchronizer),
         scantest::register_ans("alice", "alice.unverified.ans", "2030-01-01T00:00:00Z",
                                "alice-ans"),
         scantest::register_ans("bob", "bob.unverified.ans", "2025-01-05T00:00:00Z", "bob-ans"),
         at(create_offer("alice", "bob", "10", "2030-06-30T00:00:00Z", "offer-live"),
            "2025-01-04T10:00:00.5Z"),
         create_offer("bob", "alice", "20", "2025-01-05T00:00:00Z", "offer-stale"),
         create_offer("alice", "bob", "25", "2030-06-30T00:00:00Z", "offer-accepted"),
         accept_offer("offer-accepted"),
         create_offer("bob", "alice", "5", "2030-06-30T00:00:00Z", "offer-withdrawn"),
         withdraw_offer("offer-withdrawn"),
         create_offer("alice", "carol", "30", "2025-01-04T12:00:00Z", "offer-expired"),
         at(expire_offer("offer-expired"), "2025-01-04T13:00:00Z"),
         create_offer("bob", "carol", "7", "2030-06-30T00:00:00Z", "offer-bob-carol"),
         create_traffic("alice", "traffic-created"),
         create_traffic("alice", "traffic-completed"),
         complete_traffic("traffic-completed"),
         create_traffic("alice", "traffic-cancelled"),
         cancel_traffic("traffic-cancelled", cancel_reason),
         create_traffic("alice", "traffic-expired", "2025-01-05T00:00:00Z"),
         at(expire_traffic("traffic-expired"), "2025-01-05T01:00:00Z"),
         create_traffic("bob", "traffic-bob"),
         {{"step", "create_transfer_preapproval"},
          {"receiver", "alice"},
          {"expires_at", "2030-01-01T00:00:00Z"}},
         scantest::advance_time_to(ledger_clock)});
}

// The router over the validator network, loaded once.
inline const ScanClient& api() {
    static const ScanClient client(network_seed());
    return client;
}

// ---- tokens -------------------------------------------------------------------------------

inline std::int64_t now_seconds() {
    return std::chrono::duration_cast<std::chrono::seconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

// Base64url without padding, written here so that bad tokens do not depend on the code under test.
inline std::string base64url(const std::string& bytes) {
    std::string out(4 * ((bytes.size() + 2) / 3) + 1, '\0');
    const int n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                  reinterpret_cast<const unsigned char*>(bytes.data()),
                                  static_cast<int>(bytes.size()));
    out.resize(static_cast<std::size_t>(n));
    while (!out.empty() && out.back() == '=') out.pop_back();
    for (char& c : out) c = c == '+' ? '-' : c == '/' ? '_' : c;
    return out;
}

inline std::string hmac(const EVP_MD* digest, const std::string& key, const std::string& data) {
    unsigned char mac[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    HMAC(digest, key.data(), static_cast<int>(key.size()),
         reinterpret_cast<const unsigned char*>(data.data()), data.size(), mac, &length);
    return std::string(reinterpret_cast<const char*>(mac), length);
}

// A compact JWS of `claims` with the header {"alg": alg, "typ": "JWT"}: HS256 or HS384 under
// `key`; alg "none" has an empty signature.
inline std::string jwt(const json& claims, const std::string& key = secret,
                       const std::string& alg = "HS256") {
    const std::string signing_input =
        base64url(json{{"alg", alg}, {"typ", "JWT"}}.dump()) + "." + base64url(claims.dump());
    if (alg == "none") return signing_input + ".";
    const EVP_MD* digest = alg == "HS384" ? EVP_sha384() : EVP_sha256();
    return signing_input + "." + base64url(hmac(digest, key, signing_input));
}

// The claims of a token for `user` that the test network accepts: sub, aud, iat, exp (in an
// hour).
inline json claims_for(const std::string& user) {
    const std::int64_t now = now_seconds();
    return {{"sub", user}, {"aud", audience}, {"iat", now - 10}, {"exp", now + 3600}};
}

// `claims` without `key`.
inline json without(json claims, const std::string& key) {
    claims.erase(key);
    return claims;
}

inline Header bearer(const std::string& token) {
    return {"Authorization", "Bearer " + token};
}

// A token for the user `user_id` of the client's network, made by `cantonlite token`'s function.
inline Header token_of(const ScanClient& client, const std::string& user_id) {
    return bearer(app::make_token(client.store().network(), user_id, now_seconds() - 10, 3600));
}

// A valid token for any user id, known to the network or not.
inline Header token_for(const std::string& user_id) {
    return bearer(jwt(claims_for(user_id)));
}

// ---- answers ------------------------------------------------------------------------------

// Success when the answer is Pekko's 401 for `realm`: plain text `text` (missing_text or
// invalid_text) and WWW-Authenticate: Bearer realm="<realm>".
inline testing::AssertionResult is_unauthorized(const Response& response, const std::string& text,
                                                const std::string& realm) {
    const std::string challenge = "Bearer realm=\"" + realm + "\"";
    const auto header = response.header("WWW-Authenticate");
    if (response.status == 401 && response.content_type.starts_with("text/plain") &&
        response.body == text && header && *header == challenge) {
        return testing::AssertionSuccess();
    }
    return testing::AssertionFailure()
           << "expected 401 text/plain '" << text << "' with WWW-Authenticate: " << challenge
           << ", got " << response.status << " '" << response.content_type << "' '" << response.body
           << "' WWW-Authenticate: " << (header ? std::string(*header) : "<none>");
}

}  // namespace valtest
}  // namespace cantonlite::areas::validator
