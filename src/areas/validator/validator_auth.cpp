#include "cantonlite/areas/validator/validator_auth.hpp"

#include <algorithm>

#include <spdlog/spdlog.h>

#include "cantonlite/http/api_error.hpp"

namespace cantonlite::areas::validator {
namespace {

// The token of "Authorization: Bearer <token>" (scheme case-insensitive); any other scheme or
// none counts as missing, as Pekko's authenticateOAuth2 sees it.
std::optional<std::string_view> bearer_token(const http::Request& request) {
    const auto header = request.header("Authorization");
    if (!header || header->size() < 7 || !http::iequals(header->substr(0, 7), "Bearer "))
        return std::nullopt;
    std::string_view token = header->substr(7);
    while (!token.empty() && token.front() == ' ') token.remove_prefix(1);
    if (token.empty()) return std::nullopt;
    return token;
}

[[noreturn]] void unauthenticated(std::string_view code, std::string_view realm) {
    throw http::ApiError(http::ErrorKind::unauthenticated, std::string(code), std::string(code),
                         {{"realm", std::string(realm)}});
}

}  // namespace

ValidatorAuth::ValidatorAuth(const model::Network& network)
    : network_(network), verifier_(network.auth) {}

auth::Claims ValidatorAuth::authenticate(const http::Request& request,
                                         std::string_view realm) const {
    const auto token = bearer_token(request);
    if (!token) unauthenticated("missing", realm);
    auth::Verification v = verifier_.verify(*token, auth::wall_clock_seconds());
    if (!v.claims) {
        spdlog::warn("{} {}: token refused: {}", request.method, request.target, v.reason);
        unauthenticated("invalid", realm);
    }
    return std::move(*v.claims);
}

const model::User& ValidatorAuth::wallet_user(const http::Request& request,
                                              std::string_view operation_id) const {
    const auth::Claims claims = authenticate(request, wallet_realm);
    const model::User* user = network_.find_user(claims.user_id);
    if (user == nullptr || !user->wallet) {
        throw http::ApiError(http::ErrorKind::not_found, "",
                             "No wallet found for user '" + claims.user_id + "' for operation '" +
                                 std::string(operation_id) + "'");
    }
    const auto& act_as = user->rights.can_act_as;
    if (std::find(act_as.begin(), act_as.end(), user->party) == act_as.end()) {
        throw http::ApiError(http::ErrorKind::permission_denied, "",
                             "Authorization Failed for " + claims.user_id);
    }
    return *user;
}

}  // namespace cantonlite::areas::validator
