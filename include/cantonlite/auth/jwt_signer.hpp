#pragma once
// Signing compact JWS tokens with HS256, beside their verification (jwt_verifier.hpp): the tokens
// `cantonlite token` hands out, and those the tests sign.

#include <string>
#include <string_view>

namespace cantonlite::auth {

// Base64url without padding (RFC 7515 §2).
[[nodiscard]] std::string base64url_encode(std::string_view bytes);

// The raw 32-byte HMAC-SHA256 of `data` under `key` (OpenSSL). Throws std::runtime_error if
// OpenSSL fails.
[[nodiscard]] std::string hmac_sha256(std::string_view key, std::string_view data);

// base64url(header) "." base64url(claims) "." base64url(HMAC-SHA256(secret, the first two)):
// the compact JWS of RFC 7515 §7.1 with RFC 7518 §3.2's HS256, of header and claims texts as they
// are given (the verifier must refuse a bad header, so none is checked here).
[[nodiscard]] std::string sign_hs256(std::string_view secret, std::string_view header_json,
                                     std::string_view claims_json);

}  // namespace cantonlite::auth
