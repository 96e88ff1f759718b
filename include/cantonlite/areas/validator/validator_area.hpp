#pragma once
// ValidatorArea: the Splice Validator API under /api/validator (wallet and scan-proxy).

#include <string>

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
    const store::LedgerStore& store_;
    ValidatorAuth auth_;
};

}  // namespace cantonlite::areas::validator
