#pragma once
// The claim checks of a token whose signature has verified: time, audience, user, scopes.

#include <cstdint>
#include <optional>
#include <string_view>

#include <nlohmann/json.hpp>

#include "cantonlite/auth/jwt_verifier.hpp"

namespace cantonlite::auth {

// The Claims of `payload` (a JSON object), or why they are refused: exp, when present, must be a
// number > now_seconds, nbf and iat numbers <= now_seconds; aud, when present, a string or an array
// of strings that contains `audience` (when given, aud is then required); sub, when present, a
// string; scope a space-separated string and scp a string or an array of strings; and the user id
// (the "https://canton-network" daml_user when it is a non-empty string, else sub) non-empty.
[[nodiscard]] Verification check_claims(nlohmann::json payload, std::int64_t now_seconds,
                                        std::optional<std::string_view> audience);

}  // namespace cantonlite::auth
