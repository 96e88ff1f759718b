#include "cantonlite/auth/jwt_signer.hpp"

#include <string>

#include <gtest/gtest.h>

namespace cantonlite::auth::jwt_signer_test {
namespace {

struct Base64Case {
    std::string bytes;
    std::string encoded;
};

class Base64url : public testing::TestWithParam<Base64Case> {};

TEST_P(Base64url, EncodesWithoutPadding) {
    EXPECT_EQ(base64url_encode(GetParam().bytes), GetParam().encoded);
}

INSTANTIATE_TEST_SUITE_P(Rfc4648, Base64url,
                         testing::Values(Base64Case{"", ""}, Base64Case{"f", "Zg"},
                                         Base64Case{"fo", "Zm8"}, Base64Case{"foo", "Zm9v"},
                                         Base64Case{"foob", "Zm9vYg"},
                                         Base64Case{"fooba", "Zm9vYmE"},
                                         Base64Case{"foobar", "Zm9vYmFy"},
                                         Base64Case{"\xfb\xff", "-_8"}));

TEST(HmacSha256, MatchesRfc4231TestCase1) {
    const std::string key(20, '\x0b');

    const std::string mac = hmac_sha256(key, "Hi There");

    EXPECT_EQ(base64url_encode(mac), "sDRMYdjbOFNcqK_OrwvxK4gdwgDJgz2nJuk3bC4yz_c");
}

// RFC 7515 Appendix A.1: the example HS256 JWS, byte for byte (its header and claims have CRLFs).
TEST(SignHs256, MatchesRfc7515AppendixA1) {
    std::string key;
    const std::string hex =
        "0323354b2b0fa5bc837e0665777ba68f5ab328e6f054c928a90f84b2d2502ebfd3fb5a92d20647ef968ab4c37"
        "7623d223d2e2172052e4f08c0cd9af567d080a3";
    for (std::size_t i = 0; i < hex.size(); i += 2) {
        key += static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16));
    }

    const std::string token = sign_hs256(
        key, "{\"typ\":\"JWT\",\r\n \"alg\":\"HS256\"}",
        "{\"iss\":\"joe\",\r\n \"exp\":1300819380,\r\n \"http://example.com/is_root\":true}");

    EXPECT_EQ(token,
              "eyJ0eXAiOiJKV1QiLA0KICJhbGciOiJIUzI1NiJ9."
              "eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9pc19yb290"
              "Ijp0cnVlfQ."
              "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk");
}

}  // namespace
}  // namespace cantonlite::auth::jwt_signer_test
