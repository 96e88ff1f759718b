#pragma once
// RegistryArea: the token standard's registry API that Scan serves at its root, /registry
// (splice-api-token-metadata-v1: token-metadata-v1.yaml; splice-api-token-transfer-instruction-v1:
// transfer-instruction-v1.yaml's transfer factory), for the one instrument the DSO administers,
// Amulet.

#include "cantonlite/areas/splice_area.hpp"
#include "cantonlite/store/ledger_store.hpp"

namespace cantonlite::areas::scan {

// No token is needed (Scan's routes have no auth); errors are Splice's {"error": "..."}.
class RegistryArea : public SpliceArea {
  public:
    explicit RegistryArea(const store::LedgerStore& store);
};

}  // namespace cantonlite::areas::scan
