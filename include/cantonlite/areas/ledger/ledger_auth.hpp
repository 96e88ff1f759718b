#pragma once
// LedgerAuth: the JSON Ledger API's token handling
// (../shared/docs/reference/canton-ledger-behavior.md §7).

#include <string>
#include <vector>

#include "cantonlite/auth/jwt_verifier.hpp"
#include "cantonlite/http/request.hpp"
#include "cantonlite/model/network.hpp"

namespace cantonlite::areas::ledger {

// Who calls: the user of a valid token, or nobody (no token, or one that does not verify: the
// ledger treats it as absent and fails later, with 401).
struct Caller {
    const model::User* user = nullptr;
};

// Built once from the network; thread-safe.
class LedgerAuth {
  public:
    // Throws std::invalid_argument for unusable keys.
    explicit LedgerAuth(const model::Network& network);

    // The JSON security stage: the token from "Authorization: Bearer" or
    // "Sec-WebSocket-Protocol: jwt.token.<JWT>". A verified token whose user the participant does
    // not know: 403 (redacted, context ledger_api_error "invalid token").
    [[nodiscard]] Caller identify(const http::Request& request) const;

    // The gRPC layer: 401 (redacted) when auth is on and nobody calls; then 403 (redacted) unless
    // the user may read as every party of `parties` (CanReadAs or CanActAs) and, when
    // `any_party`, as any party (CanReadAsAnyParty). Nothing is checked when auth is off.
    void authorize(const Caller& caller, const std::vector<std::string>& parties,
                   bool any_party) const;

    // The parties whose submissions the caller may see (all when auth is off or CanReadAsAnyParty).
    [[nodiscard]] bool enabled() const { return network_.auth.ledger_auth; }

  private:
    const model::Network& network_;
    auth::JwtVerifier verifier_;
};

}  // namespace cantonlite::areas::ledger
