// JwtVerifier against tokens made here with OpenSSL: the auth matrix of splice-behavior.md §5.2.
#include "cantonlite/auth/jwt_verifier.hpp"
#include "cantonlite/auth/jwt_signer.hpp"

#include <chrono>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>
#include <nlohmann/json.hpp>

#include "cantonlite/app/token.hpp"
#include "cantonlite/seed/seed_loader.hpp"

namespace cantonlite::auth::jwt_verifier_test {
namespace {

using nlohmann::json;

constexpr std::int64_t now = 1'700'000'000;
constexpr const char* audience = "https://validator.example.com";
constexpr const char* secret = "test-secret";

struct PkeyFree {
    void operator()(EVP_PKEY* key) const { EVP_PKEY_free(key); }
};
using Pkey = std::unique_ptr<EVP_PKEY, PkeyFree>;

json claims_for(const std::string& sub) {
    return {{"sub", sub}, {"aud", audience}, {"exp", now + 3600}};
}

std::string signing_input(const json& header, const json& claims) {
    return base64url_encode(header.dump()) + "." + base64url_encode(claims.dump());
}

// A signed token: `input` "." base64url(HMAC-SHA256(key, input)).
std::string hs256_signed(const std::string& input, const std::string& key = secret) {
    return input + "." + base64url_encode(hmac_sha256(key, input));
}

std::string hs256_token(const json& claims, const std::string& key = secret) {
    return hs256_signed(signing_input({{"alg", "HS256"}, {"typ", "JWT"}}, claims), key);
}

std::string rs256_token(EVP_PKEY* key, const json& claims, const std::string& kid = "") {
    json header = {{"alg", "RS256"}, {"typ", "JWT"}};
    if (!kid.empty()) header["kid"] = kid;
    const std::string input = signing_input(header, claims);
    const std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx(EVP_MD_CTX_new(),
                                                                      EVP_MD_CTX_free);
    std::size_t length = 0;
    EVP_DigestSignInit(ctx.get(), nullptr, EVP_sha256(), nullptr, key);
    EVP_DigestSign(ctx.get(), nullptr, &length,
                   reinterpret_cast<const unsigned char*>(input.data()), input.size());
    std::string signature(length, '\0');
    EVP_DigestSign(ctx.get(), reinterpret_cast<unsigned char*>(signature.data()), &length,
                   reinterpret_cast<const unsigned char*>(input.data()), input.size());
    signature.resize(length);
    return input + "." + base64url_encode(signature);
}

std::string public_pem(EVP_PKEY* key) {
    const std::unique_ptr<BIO, decltype(&BIO_free)> bio(BIO_new(BIO_s_mem()), BIO_free);
    PEM_write_bio_PUBKEY(bio.get(), key);
    char* data = nullptr;
    const long length = BIO_get_mem_data(bio.get(), &data);
    return std::string(data, static_cast<std::size_t>(length));
}

std::string big_number(EVP_PKEY* key, const char* name) {
    BIGNUM* bn = nullptr;
    EVP_PKEY_get_bn_param(key, name, &bn);
    std::string bytes(static_cast<std::size_t>(BN_num_bytes(bn)), '\0');
    BN_bn2bin(bn, reinterpret_cast<unsigned char*>(bytes.data()));
    BN_free(bn);
    return base64url_encode(bytes);
}

json jwk(EVP_PKEY* key, const std::string& kid) {
    return {{"kty", "RSA"},
            {"kid", kid},
            {"use", "sig"},
            {"alg", "RS256"},
            {"n", big_number(key, OSSL_PKEY_PARAM_RSA_N)},
            {"e", big_number(key, OSSL_PKEY_PARAM_RSA_E)}};
}

model::AuthSettings hs256_settings() {
    return model::AuthSettings{.hs256_secret = secret, .audience = audience};
}

// The reason a verifier with `settings` refuses `token` at `now`, or "accepted".
std::string refusal(const model::AuthSettings& settings, const std::string& token) {
    const Verification v = JwtVerifier(settings).verify(token, now);
    return v.claims ? "accepted" : v.reason;
}

// ---- HS256 ----

TEST(JwtVerifierHs256, AcceptsAValidToken) {
    const Verification v =
        JwtVerifier(hs256_settings()).verify(hs256_token(claims_for("alice")), now);

    ASSERT_TRUE(v.claims) << v.reason;
    EXPECT_EQ(v.claims->user_id, "alice");
    EXPECT_EQ(v.claims->subject, "alice");
    EXPECT_EQ(v.claims->audiences, std::vector<std::string>{audience});
    EXPECT_TRUE(v.claims->scopes.empty());
}

TEST(JwtVerifierHs256, AVerifiedTokenIsCheckedAgainstTheClockEachTime) {
    const JwtVerifier verifier(hs256_settings());
    const std::string token = hs256_token(claims_for("alice"));
    ASSERT_TRUE(verifier.verify(token, now).claims);

    // Its signature is not verified again, but it still expires, and its audience still counts.
    EXPECT_TRUE(verifier.verify(token, now + 3599).claims);
    EXPECT_FALSE(verifier.verify(token, now + 3600).claims);
    json other = claims_for("alice");
    other["aud"] = "https://elsewhere.example.com";
    const std::string elsewhere = hs256_token(other);
    EXPECT_TRUE(verifier.verify(elsewhere, now, false).claims);
    EXPECT_FALSE(verifier.verify(elsewhere, now, true).claims);
}

TEST(JwtVerifierHs256, AVerifiedTokenWithBadClaimsIsRefusedAgainInTheSameOrder) {
    const JwtVerifier verifier(hs256_settings());
    json claims = claims_for("alice");
    claims["sub"] = 7;
    const std::string token = hs256_token(claims);

    // The time is checked before the other claims, each time.
    EXPECT_EQ(verifier.verify(token, now).reason, "sub is not a string");
    EXPECT_EQ(verifier.verify(token, now).reason, "sub is not a string");
    EXPECT_EQ(verifier.verify(token, now + 3600).reason, "expired");
    claims["aud"] = 3;
    const std::string bad_aud = hs256_token(claims);
    EXPECT_EQ(verifier.verify(bad_aud, now).reason, "aud is not a string or an array of strings");
    EXPECT_EQ(verifier.verify(bad_aud, now).reason, "aud is not a string or an array of strings");
}

TEST(JwtVerifierHs256, ARefusedTokenIsRefusedAgain) {
    const JwtVerifier verifier(hs256_settings());
    const std::string forged = hs256_token(claims_for("alice"), "other-secret");

    EXPECT_FALSE(verifier.verify(forged, now).claims);
    EXPECT_FALSE(verifier.verify(forged, now).claims);
}

TEST(JwtVerifierHs256, RejectsAWrongSecret) {
    EXPECT_EQ(refusal(hs256_settings(), hs256_token(claims_for("alice"), "other-secret")),
              "bad signature");
}

TEST(JwtVerifierHs256, RejectsATamperedPayload) {
    const std::string token = hs256_token(claims_for("alice"));
    const std::string forged = hs256_token(claims_for("admin"));
    const std::size_t a = token.find('.');
    const std::size_t b = forged.find('.');
    const std::string spliced = token.substr(0, a) + forged.substr(b, forged.rfind('.') - b) +
                                token.substr(token.rfind('.'));

    EXPECT_EQ(refusal(hs256_settings(), spliced), "bad signature");
}

TEST(JwtVerifierHs256, RejectsAlgNone) {
    const std::string unsigned_token = signing_input({{"alg", "none"}}, claims_for("alice")) + ".";

    EXPECT_EQ(refusal(hs256_settings(), unsigned_token), "alg none is not accepted");
}

TEST(JwtVerifierHs256, RejectsOtherAlgs) {
    const std::string token = signing_input({{"alg", "HS512"}}, claims_for("alice")) + ".AAAA";

    EXPECT_EQ(refusal(hs256_settings(), token), "alg HS512 is not accepted");
}

TEST(JwtVerifierHs256, RejectsAlgNoneInAnyCase) {
    const std::string token = signing_input({{"alg", "NONE"}}, claims_for("alice")) + ".";

    EXPECT_EQ(refusal(hs256_settings(), token), "alg NONE is not accepted");
}

TEST(JwtVerifierHs256, KeepsTheAlgOfTheReasonOnOneLogLine) {
    const std::string token = signing_input({{"alg", "x\ny"}}, claims_for("alice")) + ".";

    EXPECT_EQ(refusal(hs256_settings(), token), "alg x?y is not accepted");
}

TEST(JwtVerifierHs256, RefusesAnEmptySecret) {
    const model::AuthSettings settings{.hs256_secret = "", .audience = audience};

    EXPECT_THROW(JwtVerifier{settings}, std::invalid_argument);
}

// ---- claims (HS256-signed) ----

struct ClaimCase {
    std::string name;
    json claims;
    bool check_audience = true;
    std::string user_id;  // "" when the token must be refused
    std::string reason;   // expected reason of a refusal
};

class JwtVerifierClaims : public testing::TestWithParam<ClaimCase> {};

TEST_P(JwtVerifierClaims, DecideAsTheReferenceSays) {
    const ClaimCase& c = GetParam();

    const Verification v =
        JwtVerifier(hs256_settings()).verify(hs256_token(c.claims), now, c.check_audience);

    if (c.user_id.empty()) {
        EXPECT_FALSE(v.claims);
        EXPECT_EQ(v.reason, c.reason);
    } else {
        ASSERT_TRUE(v.claims) << v.reason;
        EXPECT_EQ(v.claims->user_id, c.user_id);
    }
}

json with(json claims, const json& patch) {
    claims.merge_patch(patch);
    return claims;
}

const json alice = claims_for("alice");

INSTANTIATE_TEST_SUITE_P(
    Matrix, JwtVerifierClaims,
    testing::Values(
        ClaimCase{"Expired", with(alice, {{"exp", now - 1}}), true, "", "expired"},
        ClaimCase{"ExpiresNow", with(alice, {{"exp", now}}), true, "", "expired"},
        ClaimCase{"ExpInTheFuture", with(alice, {{"exp", now + 1}}), true, "alice", ""},
        ClaimCase{"FractionalExp", with(alice, {{"exp", now + 0.5}}), true, "alice", ""},
        ClaimCase{"NoExp", with(alice, {{"exp", nullptr}}), true, "alice", ""},
        ClaimCase{"ExpNotANumber", with(alice, {{"exp", "tomorrow"}}), true, "",
                  "exp is not a number"},
        ClaimCase{"NbfInTheFuture", with(alice, {{"nbf", now + 1}}), true, "",
                  "not valid yet (nbf is in the future)"},
        ClaimCase{"NbfNow", with(alice, {{"nbf", now}}), true, "alice", ""},
        ClaimCase{"NbfNotANumber", with(alice, {{"nbf", true}}), true, "", "nbf is not a number"},
        ClaimCase{"IatInTheFuture", with(alice, {{"iat", now + 60}}), true, "",
                  "issued in the future (iat)"},
        ClaimCase{"IatNow", with(alice, {{"iat", now}}), true, "alice", ""},
        ClaimCase{"IatNotANumber", with(alice, {{"iat", "x"}}), true, "", "iat is not a number"},
        ClaimCase{"AudStringNotMatching", with(alice, {{"aud", "https://other"}}), true, "",
                  "wrong audience"},
        ClaimCase{"AudArrayContainingIt", with(alice, {{"aud", {"https://other", audience}}}), true,
                  "alice", ""},
        ClaimCase{"AudArrayWithoutIt", with(alice, {{"aud", {"https://other"}}}), true, "",
                  "wrong audience"},
        ClaimCase{"NoAud", with(alice, {{"aud", nullptr}}), true, "", "no audience (aud)"},
        ClaimCase{"AudNotAString", with(alice, {{"aud", 7}}), true, "",
                  "aud is not a string or an array of strings"},
        ClaimCase{"AnyAudWhenNotChecked", with(alice, {{"aud", "https://other"}}), false, "alice",
                  ""},
        ClaimCase{"NoAudWhenNotChecked", with(alice, {{"aud", nullptr}}), false, "alice", ""},
        ClaimCase{"DamlUserWinsOverSub",
                  with(alice, {{"https://canton-network", {{"daml_user", "bob"}}}}), true, "bob",
                  ""},
        ClaimCase{
            "DamlUserWithoutSub",
            with(alice, {{"sub", nullptr}, {"https://canton-network", {{"daml_user", "bob"}}}}),
            true, "bob", ""},
        ClaimCase{"EmptyDamlUserFallsBackToSub",
                  with(alice, {{"https://canton-network", {{"daml_user", ""}}}}), true, "alice",
                  ""},
        ClaimCase{"NoSubAndNoDamlUser", with(alice, {{"sub", nullptr}}), true, "",
                  "no user (neither daml_user nor sub)"},
        ClaimCase{"EmptySub", with(alice, {{"sub", ""}}), true, "",
                  "no user (neither daml_user nor sub)"},
        ClaimCase{"SubNotAString", with(alice, {{"sub", 42}}), true, "", "sub is not a string"}),
    [](const testing::TestParamInfo<ClaimCase>& info) { return info.param.name; });

TEST(JwtVerifierScopes, SplitsScopeAtSpaces) {
    const json claims = with(alice, {{"scope", "daml_ledger_api  wallet"}});

    const Verification v = JwtVerifier(hs256_settings()).verify(hs256_token(claims), now);

    ASSERT_TRUE(v.claims) << v.reason;
    EXPECT_EQ(v.claims->scopes, (std::vector<std::string>{"daml_ledger_api", "wallet"}));
}

TEST(JwtVerifierScopes, TakesScpAsAnArrayAfterScope) {
    const json claims = with(alice, {{"scope", "a b"}, {"scp", {"b", "c"}}});

    const Verification v = JwtVerifier(hs256_settings()).verify(hs256_token(claims), now);

    ASSERT_TRUE(v.claims) << v.reason;
    EXPECT_EQ(v.claims->scopes, (std::vector<std::string>{"a", "b", "c"}));
}

TEST(JwtVerifierScopes, TakesScpAsAString) {
    const Verification v = JwtVerifier(hs256_settings())
                               .verify(hs256_token(with(alice, {{"scp", "daml_ledger_api"}})), now);

    ASSERT_TRUE(v.claims) << v.reason;
    EXPECT_EQ(v.claims->scopes, std::vector<std::string>{"daml_ledger_api"});
}

TEST(JwtVerifierScopes, NoScopeIsEmpty) {
    const Verification v = JwtVerifier(hs256_settings()).verify(hs256_token(alice), now);

    ASSERT_TRUE(v.claims) << v.reason;
    EXPECT_TRUE(v.claims->scopes.empty());
}

// ---- malformed tokens ----

struct MalformedCase {
    std::string name;
    std::string token;
    std::string reason;  // after "malformed token: "
};

class JwtVerifierMalformed : public testing::TestWithParam<MalformedCase> {};

TEST_P(JwtVerifierMalformed, IsRefusedAsMalformed) {
    const Verification v = JwtVerifier(hs256_settings()).verify(GetParam().token, now);

    EXPECT_FALSE(v.claims);
    EXPECT_EQ(v.reason, "malformed token: " + GetParam().reason);
}

const std::string good = hs256_token(alice);
const std::string good_header = good.substr(0, good.find('.'));
const std::string good_rest = good.substr(good.find('.'));
const std::string parts = "expected three dot-separated parts";
const std::string not_json = "header is not a base64url JSON object";

INSTANTIATE_TEST_SUITE_P(
    Cases, JwtVerifierMalformed,
    testing::Values(
        MalformedCase{"Empty", "", parts},
        MalformedCase{"TwoParts", good.substr(0, good.rfind('.')), parts},
        MalformedCase{"FourParts", good + ".AAAA", parts},
        MalformedCase{"BadBase64Header", "!!!!" + good_rest, not_json},
        MalformedCase{"PaddedHeader", good_header + "=" + good_rest, not_json},
        MalformedCase{"BadBase64Signature", good + "*", "signature is not base64url"},
        MalformedCase{"BadBase64Payload", good_header + ".a$b" + good.substr(good.rfind('.')),
                      "payload is not base64url"},
        MalformedCase{"HeaderNotJson", base64url_encode("not json") + good_rest, not_json},
        MalformedCase{"HeaderNotAnObject", base64url_encode("[\"HS256\"]") + good_rest, not_json},
        MalformedCase{"HeaderWithoutAlg", base64url_encode("{\"typ\":\"JWT\"}") + good_rest,
                      "header has no string alg"},
        MalformedCase{"KidNotAString", base64url_encode(R"({"alg":"HS256","kid":1})") + good_rest,
                      "header kid is not a string"},
        MalformedCase{"HeaderWithCrit",
                      base64url_encode(R"({"alg":"HS256","crit":["exp"],"exp":1})") + good_rest,
                      "header crit is not supported"},
        MalformedCase{"TooLong", good + std::string(70'000, 'A'), "longer than 64 KiB"}),
    [](const testing::TestParamInfo<MalformedCase>& info) { return info.param.name; });

TEST(JwtVerifierPayload, RefusesAPayloadThatIsNotJson) {
    const std::string token =
        hs256_signed(base64url_encode(R"({"alg":"HS256"})") + "." + base64url_encode("not json"));

    EXPECT_EQ(refusal(hs256_settings(), token),
              "malformed token: payload is not a base64url JSON object");
}

// ---- RS256 ----

class JwtVerifierRs256 : public testing::Test {
  protected:
    static void SetUpTestSuite() {
        key_a_ = EVP_RSA_gen(2048);
        key_b_ = EVP_RSA_gen(2048);
    }
    static void TearDownTestSuite() {
        EVP_PKEY_free(key_a_);
        EVP_PKEY_free(key_b_);
        key_a_ = key_b_ = nullptr;
    }

    static model::AuthSettings pem_settings() {
        return model::AuthSettings{.rs256_keys = {{.kid = "pem-a", .pem = public_pem(key_a_)}},
                                   .audience = audience};
    }
    static model::AuthSettings jwks_settings() {
        const json jwks = {{"keys", {jwk(key_a_, "kid-a"), jwk(key_b_, "kid-b")}}};
        return model::AuthSettings{.jwks_json = jwks.dump(), .audience = audience};
    }

    static EVP_PKEY* key_a_;
    static EVP_PKEY* key_b_;
};

EVP_PKEY* JwtVerifierRs256::key_a_ = nullptr;
EVP_PKEY* JwtVerifierRs256::key_b_ = nullptr;

TEST_F(JwtVerifierRs256, VerifiesWithAPemKey) {
    const Verification v = JwtVerifier(pem_settings()).verify(rs256_token(key_a_, alice), now);

    ASSERT_TRUE(v.claims) << v.reason;
    EXPECT_EQ(v.claims->user_id, "alice");
}

TEST_F(JwtVerifierRs256, PemKeyRefusesAnotherKeysSignature) {
    EXPECT_EQ(refusal(pem_settings(), rs256_token(key_b_, alice)), "bad signature");
}

TEST_F(JwtVerifierRs256, JwksChoosesTheKeyByKid) {
    const JwtVerifier verifier(jwks_settings());

    const Verification a = verifier.verify(rs256_token(key_a_, alice, "kid-a"), now);
    const Verification b = verifier.verify(rs256_token(key_b_, alice, "kid-b"), now);

    EXPECT_TRUE(a.claims) << a.reason;
    EXPECT_TRUE(b.claims) << b.reason;
}

TEST_F(JwtVerifierRs256, JwksRefusesASignatureByTheOtherKid) {
    EXPECT_EQ(refusal(jwks_settings(), rs256_token(key_b_, alice, "kid-a")), "bad signature");
}

TEST_F(JwtVerifierRs256, JwksRefusesAnUnknownKid) {
    EXPECT_EQ(refusal(jwks_settings(), rs256_token(key_a_, alice, "kid-c")), "unknown kid 'kid-c'");
}

TEST_F(JwtVerifierRs256, TokenWithoutKidTriesEveryKey) {
    EXPECT_EQ(refusal(jwks_settings(), rs256_token(key_b_, alice)), "accepted");
}

TEST_F(JwtVerifierRs256, RefusesHs256SignedWithThePublicKey) {
    const std::string confused = hs256_token(alice, public_pem(key_a_));

    EXPECT_EQ(refusal(pem_settings(), confused),
              "alg HS256 is not accepted (no HS256 secret configured)");
}

TEST_F(JwtVerifierRs256, Hs256OnlyRefusesRs256) {
    EXPECT_EQ(refusal(hs256_settings(), rs256_token(key_a_, alice)),
              "alg RS256 is not accepted (no RSA key configured)");
}

TEST_F(JwtVerifierRs256, ChecksClaimsAfterTheSignature) {
    EXPECT_EQ(refusal(pem_settings(), rs256_token(key_a_, with(alice, {{"exp", now}}))), "expired");
}

TEST_F(JwtVerifierRs256, BadPemNamesTheKid) {
    const model::AuthSettings settings{.rs256_keys = {{.kid = "broken", .pem = "not a pem"}}};

    try {
        const JwtVerifier verifier(settings);
        FAIL() << "expected std::invalid_argument";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("'broken'"), std::string::npos) << e.what();
    }
}

TEST_F(JwtVerifierRs256, BadJwksKeyNamesTheKid) {
    const json jwks = {{"keys", {jwk(key_a_, "kid-a"), with(jwk(key_b_, "kid-b"), {{"n", "**"}})}}};
    const model::AuthSettings settings{.jwks_json = jwks.dump()};

    try {
        const JwtVerifier verifier(settings);
        FAIL() << "expected std::invalid_argument";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("'kid-b'"), std::string::npos) << e.what();
    }
}

TEST_F(JwtVerifierRs256, JwksThatIsNotJsonIsRefused) {
    const model::AuthSettings settings{.jwks_json = "{\"keys\": ["};

    EXPECT_THROW(JwtVerifier{settings}, std::invalid_argument);
}

TEST_F(JwtVerifierRs256, JwksSkipsKeysOfOtherTypes) {
    const json jwks = {{"keys", {{{"kty", "EC"}, {"kid", "ec"}}, jwk(key_a_, "kid-a")}}};
    const model::AuthSettings settings{.jwks_json = jwks.dump(), .audience = audience};

    EXPECT_EQ(refusal(settings, rs256_token(key_a_, alice, "kid-a")), "accepted");
}

// ---- `cantonlite token` ----

TEST(JwtVerifierCantonliteToken, VerifiesUnderTheDefaultNetworksSettings) {
    const auto store = seed::load_seed_file(std::filesystem::path(CANTONLITE_SOURCE_DIR) /
                                            "config" / "default-network.json");
    const model::Network& network = store->network();
    const std::int64_t issued_at = wall_clock_seconds();
    const std::string token = app::make_token(network, "alice", issued_at, 86'400);

    const Verification v = JwtVerifier(network.auth).verify(token, wall_clock_seconds());

    ASSERT_TRUE(v.claims) << v.reason;
    EXPECT_EQ(v.claims->user_id, "alice");
    EXPECT_EQ(v.claims->scopes, std::vector<std::string>{"daml_ledger_api"});
}

TEST(JwtVerifierWallClock, IsTheSystemClock) {
    const auto before = std::chrono::duration_cast<std::chrono::seconds>(
                            std::chrono::system_clock::now().time_since_epoch())
                            .count();

    const std::int64_t t = wall_clock_seconds();

    EXPECT_GE(t, before);
    EXPECT_LE(t, before + 5);
}

}  // namespace
}  // namespace cantonlite::auth::jwt_verifier_test
