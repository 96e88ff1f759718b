#pragma once
// ValidatorAuth: the validator's two auth extractors (AuthenticationOnly for the scan proxy,
// UserWallet for the wallet), per ../shared/docs/reference/splice-behavior.md §5.

#include <string>
#include <string_view>

#include "cantonlite/auth/jwt_verifier.hpp"
#include "cantonlite/http/request.hpp"
#include "cantonlite/model/network.hpp"

namespace cantonlite::areas::validator {

inline constexpr std::string_view wallet_realm = "splice wallet realm";
inline constexpr std::string_view scan_proxy_realm = "splice scan proxy realm";

// Built at start-up from the network's users and auth settings; thread-safe.
class ValidatorAuth {
  public:
    // `role`: the LocalNet validator (model::localnet_validators) this is, whose wallet users
    // alone it serves; "" serves every wallet user. Throws std::invalid_argument for unusable
    // keys in the auth settings.
    explicit ValidatorAuth(const model::Network& network, std::string role = {});

    // The claims of the request's valid bearer token. Throws http::ApiError unauthenticated, code
    // "missing" or "invalid", context {"realm": realm}: the area renders Pekko's 401.
    [[nodiscard]] auth::Claims authenticate(const http::Request& request,
                                            std::string_view realm) const;

    // The onboarded wallet user the request's token names. Throws as authenticate, then 404
    // "No wallet found for user '<u>' for operation '<operation>'" (also for another LocalNet
    // validator's user: this validator has no wallet of theirs), then 403
    // "Authorization Failed for <u>" when the user cannot act as their wallet party.
    [[nodiscard]] const model::User& wallet_user(const http::Request& request,
                                                 std::string_view operation_id) const;

  private:
    const model::Network& network_;
    std::string role_;
    auth::JwtVerifier verifier_;
};

}  // namespace cantonlite::areas::validator
