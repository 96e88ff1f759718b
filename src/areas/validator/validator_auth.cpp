#include "cantonlite/areas/validator/validator_auth.hpp"

#include <algorithm>
#include <utility>

#include <spdlog/spdlog.h>

#include "cantonlite/http/api_error.hpp"

namespace cantonlite::areas::validator {
namespace {

[[noreturn]] void unauthenticated(std::string_view code, std::string_view realm) {
    throw http::ApiError(http::ErrorKind::unauthenticated, std::string(code), std::string(code),
                         {{"realm", std::string(realm)}});
}

}  // namespace

ValidatorAuth::ValidatorAuth(const model::Network& network, std::string role)
    : network_(network), role_(std::move(role)), verifier_(network.auth) {}

auth::Claims ValidatorAuth::authenticate(const http::Request& request,
                                         std::string_view realm) const {
    const auto token = request.bearer_token();  // any other scheme counts as missing (Pekko)
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
    if (user == nullptr || !user->wallet || !user->served_by(role_)) {
        throw http::ApiError(http::ErrorKind::not_found, "",
                             "No wallet found for user '" + claims.user_id + "' for operation '" +
                                 std::string(operation_id) + "'");
    }
    const auto& act_as = user->rights.can_act_as;
    if (std::find(act_as.begin(), act_as.end(), user->party) == act_as.end()) {
        throw http::ApiError(http::ErrorKind::permission_denied, "",
                             "Authorization Failed for " + claims.user_id)
            .as_returned();  // AuthExtractor completes it directly, compact
    }
    return *user;
}

}  // namespace cantonlite::areas::validator
