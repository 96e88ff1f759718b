// libFuzzer target: the JWT verifier on any token (HS256 with the default network's secret and
// audience): a verdict, never a crash; and a token it accepts must be one the secret signed, so
// the fuzzer must not find a forgery.
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <string>

#include "cantonlite/auth/jwt_verifier.hpp"
#include "fuzz_targets.hpp"

namespace cantonlite::fuzz::fuzz_jwt {

namespace {

const cantonlite::auth::JwtVerifier& verifier() {
    static const cantonlite::auth::JwtVerifier v(cantonlite::model::AuthSettings{
        .hs256_secret = "fuzz-secret", .audience = "https://fuzz.example"});
    return v;
}

}  // namespace

int initialize() {
    return 0;
}

int test_one_input(const std::uint8_t* data, std::size_t size) {
    const std::string_view token(reinterpret_cast<const char*>(data), size);
    const auto verdict = verifier().verify(token, 1'800'000'000, true);
    // Nothing in the corpus is signed with the secret: an accepted token is a forgery.
    if (verdict.claims) {
        std::cerr << "accepted a token not signed with the secret: " << token << "\n";
        std::abort();
    }
    (void)verifier().verify(token, 1'800'000'000, false);
    return 0;
}

}  // namespace cantonlite::fuzz::fuzz_jwt
