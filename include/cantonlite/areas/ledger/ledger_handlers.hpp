#pragma once
// The handlers of the ledger area (openapi.yaml, JSON Ledger API v2).

#include "cantonlite/areas/ledger/ledger_auth.hpp"
#include "cantonlite/http/response.hpp"
#include "cantonlite/http/route_table.hpp"
#include "cantonlite/store/ledger_store.hpp"

namespace cantonlite::areas::ledger {

// POST /v2/updates/transaction-by-offset (op 1): the transaction at an offset, as the requested
// parties see it, in the steps and order of a Canton 3.5 participant
// (../shared/docs/reference/canton-ledger-behavior.md §1, §3, §5).
[[nodiscard]] http::Response post_transaction_by_offset(const store::LedgerStore& store,
                                                        const LedgerAuth& auth,
                                                        const http::RequestContext& ctx);

}  // namespace cantonlite::areas::ledger
