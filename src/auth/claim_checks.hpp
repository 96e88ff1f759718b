#pragma once
// The claim checks of a token whose signature has verified: time, audience, user, scopes.

#include <cstdint>
#include <optional>
#include <string_view>

#include <nlohmann/json.hpp>

#include "cantonlite/auth/jwt_verifier.hpp"

namespace cantonlite::auth {

// What a payload (a JSON object) says, read once: a token is verified many times, and only
// its time and audience depend on the moment and the route.
struct ClaimSet {
    // exp, nbf or iat: absent, a number, or something else.
    struct Time {
        bool present = false;
        bool number = false;
        double value = 0;
    };
    Time exp, nbf, iat;
    bool audiences_valid = true;  // aud absent, a string or an array of strings
    std::string problem;          // sub, scope, scp or the user id refused, after time and aud
    Claims claims;                // with every audience, whatever `problem` says
};
[[nodiscard]] ClaimSet read_claims(const nlohmann::json& payload);

// The Claims of `set`, or why they are refused: exp, when present, must be a number >
// now_seconds, nbf and iat numbers <= now_seconds; aud, when present, a string or an array of
// strings that contains `audience` (when given, aud is then required); sub, when present, a
// string; scope a space-separated string and scp a string or an array of strings; and the user id
// (the "https://canton-network" daml_user when it is a non-empty string, else sub) non-empty.
[[nodiscard]] Verification check_claims(const ClaimSet& set, std::int64_t now_seconds,
                                        std::optional<std::string_view> audience);

}  // namespace cantonlite::auth
