#pragma once
// ScanArea: the Splice Scan API under /api/scan (spec: scan.yaml, common-external.yaml).

#include "cantonlite/areas/release.hpp"
#include "cantonlite/areas/splice_area.hpp"
#include "cantonlite/store/ledger_store.hpp"

namespace cantonlite::areas::scan {

// The scan area: its route table, read top-down against scan.yaml. Needs no token; a bearer
// token that a client sends anyway is ignored, as the real Scan ignores it. A route that
// `profile`'s Splice release does not have answers as an unknown path does.
class ScanArea : public SpliceArea {
  public:
    explicit ScanArea(const store::LedgerStore& store, const ApiProfile& profile = {});
};

}  // namespace cantonlite::areas::scan
