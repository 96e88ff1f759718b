#pragma once
// `cantonlite token`: HS256 JWTs that the loaded network's auth settings accept for a user (signed
// by auth/jwt_signer.hpp).

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

#include "cantonlite/model/network.hpp"

namespace cantonlite::app {

// No token can be made: the user is unknown or the network has no HS256 secret. what() is one
// line naming the flag or setting and the problem.
class TokenError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

// A signed JWT for `user_id`: header {"alg":"HS256","typ":"JWT"}, claims {"sub": user id, "aud":
// network.auth.audience, "iat": issued_at, "exp": issued_at + expires_in, "scope":
// "daml_ledger_api"}, signed with network.auth.hs256_secret. Times in seconds since the epoch.
// Throws TokenError when the network has no such user or no HS256 secret.
[[nodiscard]] std::string make_token(const model::Network& network, std::string_view user_id,
                                     std::int64_t issued_at, std::int64_t expires_in);

}  // namespace cantonlite::app
