#include "cantonlite/app/token.hpp"

#include <nlohmann/json.hpp>

#include "cantonlite/auth/jwt_signer.hpp"

namespace cantonlite::app {
namespace {

std::string known_users(const model::Network& network) {
    std::string list;
    for (const model::User& u : network.users) list += (list.empty() ? "" : ", ") + u.id;
    return list.empty() ? "none" : list;
}

}  // namespace

std::string make_token(const model::Network& network, std::string_view user_id,
                       std::int64_t issued_at, std::int64_t expires_in) {
    if (network.find_user(user_id) == nullptr) {
        throw TokenError("--user: unknown user '" + std::string(user_id) +
                         "' (users: " + known_users(network) + ")");
    }
    if (!network.auth.hs256_secret) {
        throw TokenError(
            "auth: the network has no HS256 secret (auth.hs256.secret), so cantonlite cannot sign "
            "tokens; tokens for its RS256 keys come from the holder of the private key");
    }
    const nlohmann::ordered_json header = {{"alg", "HS256"}, {"typ", "JWT"}};
    const nlohmann::ordered_json claims = {{"sub", user_id},
                                           {"aud", network.auth.audience},
                                           {"iat", issued_at},
                                           {"exp", issued_at + expires_in},
                                           {"scope", "daml_ledger_api"}};
    return auth::sign_hs256(*network.auth.hs256_secret, header.dump(), claims.dump());
}

}  // namespace cantonlite::app
