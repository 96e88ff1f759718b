#pragma once
// ValidatorArea: the Splice Validator API under /api/validator (wallet and scan-proxy).

#include <functional>
#include <string>
#include <string_view>

#include "cantonlite/areas/splice_area.hpp"
#include "cantonlite/areas/validator/validator_auth.hpp"
#include "cantonlite/store/ledger_store.hpp"

namespace cantonlite::areas::validator {

// The validator area: its route table, read top-down against validator-internal.yaml,
// wallet-external.yaml and scan-proxy.yaml. Owns the token verifier built from the network's
// auth settings.
class ValidatorArea : public SpliceArea {
  public:
    // `role`: the LocalNet validator this area is (serve --localnet), serving only its own wallet
    // users; "" (the main port) serves every wallet user. Throws std::invalid_argument for
    // unusable keys in the auth settings.
    explicit ValidatorArea(const store::LedgerStore& store, std::string role = {});

  private:
    // Who may call a route: the auth extractor of Splice's handler for it (splice-behavior.md §5).
    enum class Access {
        open,        // security: [] (livez, validator-user)
        scan_proxy,  // AuthenticationOnly: any valid token
        wallet,      // UserWallet: an onboarded wallet user, who can act as their party
    };
    // A handler, given the wallet user its token names (Access::wallet; otherwise null).
    using ValidatorHandler =
        std::function<http::Response(const http::RequestContext& ctx, const model::User* user)>;
    // Adds a route with its access, checked before the handler as the guardrail route's custom
    // extractor runs before the body is read; the only way this area adds one. `operation`: the
    // spec's operationId, which the wallet's 404 names.
    void route(std::string method, std::string_view path, std::string_view operation, Access access,
               ValidatorHandler handler);

    const store::LedgerStore& store_;
    ValidatorAuth auth_;
};

}  // namespace cantonlite::areas::validator
