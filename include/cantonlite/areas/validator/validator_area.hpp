#pragma once
// ValidatorArea: the Splice Validator API under /api/validator (wallet and scan-proxy).

#include "cantonlite/areas/splice_area.hpp"
#include "cantonlite/store/ledger_store.hpp"

namespace cantonlite::areas::validator {

// The validator area: its route table, read top-down against validator-internal.yaml,
// wallet-external.yaml and scan-proxy.yaml.
class ValidatorArea : public SpliceArea {
  public:
    explicit ValidatorArea(const store::LedgerStore& store);

  private:
    const store::LedgerStore& store_;
};

}  // namespace cantonlite::areas::validator
