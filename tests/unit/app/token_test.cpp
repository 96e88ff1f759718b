#include "cantonlite/app/token.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <nlohmann/json.hpp>

#include "cantonlite/app/cli.hpp"

namespace cantonlite::app::token_test {
namespace {

using nlohmann::json;

constexpr std::int64_t issued_at = 1'700'000'000;

model::Network network() {
    model::Network n{.dso_party = "DSO::1220ab"};
    n.users = {model::User{.id = "alice", .party = "alice::1220a1", .wallet = true},
               model::User{.id = "bob", .party = "bob::1220b0"}};
    n.auth.hs256_secret = "test-secret";
    n.auth.audience = "https://canton.network.global";
    return n;
}

std::vector<std::string> parts_of(const std::string& token) {
    std::vector<std::string> parts{""};
    for (const char c : token) {
        if (c == '.') {
            parts.emplace_back();
        } else {
            parts.back() += c;
        }
    }
    return parts;
}

// Decodes base64url without padding with OpenSSL's standard-alphabet decoder.
std::string base64url_decode(std::string text) {
    for (char& c : text) c = c == '-' ? '+' : c == '_' ? '/' : c;
    while (text.size() % 4 != 0) text += '=';
    std::string out(text.size() / 4 * 3, '\0');
    const int n = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                  reinterpret_cast<const unsigned char*>(text.data()),
                                  static_cast<int>(text.size()));
    EXPECT_GE(n, 0);
    const std::size_t padding = static_cast<std::size_t>(std::count(text.begin(), text.end(), '='));
    out.resize(static_cast<std::size_t>(n) - padding);
    return out;
}

std::string openssl_hmac(const std::string& key, const std::string& data) {
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()),
         reinterpret_cast<const unsigned char*>(data.data()), data.size(), digest, &length);
    return std::string(reinterpret_cast<const char*>(digest), length);
}

// The what() of the TokenError that making a token for `user` throws, or "".
std::string token_error(const model::Network& n, const std::string& user) {
    try {
        (void)make_token(n, user, issued_at, 60);
    } catch (const TokenError& e) {
        return e.what();
    }
    return "";
}

TEST(MakeToken, HasThreeBase64urlParts) {
    const std::string token = make_token(network(), "alice", issued_at, 3600);

    const auto parts = parts_of(token);
    ASSERT_EQ(parts.size(), 3U);
    for (const std::string& p : parts) {
        EXPECT_FALSE(p.empty());
        EXPECT_EQ(
            p.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"),
            std::string::npos)
            << p;
    }
}

TEST(MakeToken, HeaderSaysHs256Jwt) {
    const auto parts = parts_of(make_token(network(), "alice", issued_at, 3600));

    EXPECT_EQ(json::parse(base64url_decode(parts[0])), (json{{"alg", "HS256"}, {"typ", "JWT"}}));
}

TEST(MakeToken, ClaimsNameTheUserTheAudienceAndTheLifetime) {
    const auto parts = parts_of(make_token(network(), "bob", issued_at, 3600));

    EXPECT_EQ(json::parse(base64url_decode(parts[1])),
              (json{{"sub", "bob"},
                    {"aud", "https://canton.network.global"},
                    {"iat", issued_at},
                    {"exp", issued_at + 3600},
                    {"scope", "daml_ledger_api"}}));
}

TEST(MakeToken, SignatureVerifiesWithOpenSslHmac) {
    const auto parts = parts_of(make_token(network(), "alice", issued_at, 3600));

    const std::string signature = base64url_decode(parts[2]);

    EXPECT_EQ(signature, openssl_hmac("test-secret", parts[0] + "." + parts[1]));
    EXPECT_NE(signature, openssl_hmac("other-secret", parts[0] + "." + parts[1]));
}

TEST(MakeToken, UnknownUserNamesTheKnownOnes) {
    EXPECT_EQ(token_error(network(), "carol"), "--user: unknown user 'carol' (users: alice, bob)");
}

TEST(MakeToken, UnknownUserOfANetworkWithoutUsers) {
    EXPECT_EQ(token_error(model::Network{}, "carol"), "--user: unknown user 'carol' (users: none)");
}

TEST(MakeToken, NeedsAnHs256Secret) {
    model::Network n = network();
    n.auth.hs256_secret.reset();

    EXPECT_NE(token_error(n, "alice").find("no HS256 secret"), std::string::npos);
}

TEST(ParseCommandLine, TokenTakesUserConfigSeedAndLifetime) {
    const CommandLine cli = parse_command_line(
        {"token", "--user", "alice", "--config=c.json", "--seed", "s.json", "--expires-in", "60"});

    EXPECT_EQ(cli.command, Command::token);
    EXPECT_EQ(cli.user, "alice");
    EXPECT_EQ(cli.config, "c.json");
    EXPECT_EQ(cli.settings, (std::vector<std::pair<std::string, std::string>>{{"seed", "s.json"}}));
    EXPECT_EQ(cli.expires_in, 60);
}

TEST(ParseCommandLine, TokenLivesADayByDefault) {
    EXPECT_EQ(parse_command_line({"token", "--user", "alice"}).expires_in, 86'400);
}

struct TokenUsageCase {
    std::vector<std::string> args;
    std::string error;
};

class ParseTokenRejects : public testing::TestWithParam<TokenUsageCase> {};

TEST_P(ParseTokenRejects, NamingTheFlag) {
    std::string error;
    try {
        (void)parse_command_line(GetParam().args);
    } catch (const UsageError& e) {
        error = e.what();
    }

    EXPECT_EQ(error, GetParam().error);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, ParseTokenRejects,
    testing::Values(TokenUsageCase{{"token"}, "--user: is required (see --help)"},
                    TokenUsageCase{{"token", "--user="}, "--user: must not be empty"},
                    TokenUsageCase{
                        {"token", "--user", "a", "--expires-in", "0"},
                        "--expires-in: must be an integer from 1 to 316224000, got \"0\""},
                    TokenUsageCase{{"token", "--user", "a", "--port", "1"},
                                   "--port: unknown flag (see --help)"}));

}  // namespace
}  // namespace cantonlite::app::token_test
