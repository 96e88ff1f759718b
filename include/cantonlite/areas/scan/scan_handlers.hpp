#pragma once
// The handlers of the scan area, grouped as in scan.yaml.

#include "cantonlite/http/response.hpp"
#include "cantonlite/http/route_table.hpp"
#include "cantonlite/store/ledger_store.hpp"

namespace cantonlite::areas::scan {

// GET /v0/lsu (scan.yaml getLsu): {"lsu": Lsu} or {"lsu": null} when no upgrade is announced.
[[nodiscard]] http::Response get_lsu(const store::LedgerStore& store,
                                     const http::RequestContext& ctx);

// GET /v0/dso-party-id (scan.yaml getDsoPartyId): {"dso_party_id": "DSO::1220…"}.
[[nodiscard]] http::Response get_dso_party_id(const store::LedgerStore& store,
                                              const http::RequestContext& ctx);

}  // namespace cantonlite::areas::scan
