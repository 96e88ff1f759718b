#pragma once
// The two JWS signature checks the verifier accepts (RFC 7518 §3.2 HS256, §3.3 RS256), by OpenSSL.

#include <string_view>

#include <openssl/types.h>

namespace cantonlite::auth {

// True when `signature` is the HMAC-SHA256 of `signing_input` under `secret`; the comparison takes
// the same time wherever the bytes differ.
[[nodiscard]] bool hs256_verifies(std::string_view secret, std::string_view signing_input,
                                  std::string_view signature);

// True when `signature` is an RSASSA-PKCS1-v1_5 SHA-256 signature of `signing_input` by `key`.
// REQUIRES: key is an RSA public key. Leaves OpenSSL's error queue empty.
[[nodiscard]] bool rs256_verifies(EVP_PKEY* key, std::string_view signing_input,
                                  std::string_view signature);

}  // namespace cantonlite::auth
