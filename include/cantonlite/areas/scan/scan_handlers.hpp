#pragma once
// The handlers of the scan area, grouped as in scan.yaml. Each reads the store and answers with
// the real Scan's body; errors are thrown (http::ApiError, http::DecodeError) for the area to
// render.

#include "cantonlite/http/api_error.hpp"
#include "cantonlite/http/response.hpp"
#include "cantonlite/http/route_table.hpp"
#include "cantonlite/store/ledger_store.hpp"

namespace cantonlite::areas::scan {

using Store = store::LedgerStore;
using Context = http::RequestContext;

// GET /v0/lsu (getLsu): {"lsu": Lsu} or {"lsu": null} when no upgrade is announced.
[[nodiscard]] http::Response get_lsu(const Store& store, const Context& ctx);

// GET /v0/dso-party-id (getDsoPartyId): {"dso_party_id": "DSO::1220…"}.
[[nodiscard]] http::Response get_dso_party_id(const Store& store, const Context& ctx);

// POST /v0/backfilling/import-updates (getImportUpdates, op 2): the import updates of a migration
// by contract id, strictly after after_update_id, at most limit.
[[nodiscard]] http::Response post_import_updates(const Store& store, const Context& ctx);

// POST /v0/holdings/state (getHoldingsStateAt, op 3) and POST /v1/holdings/state: one page of the
// Amulet and LockedAmulet contracts owned by owner_party_ids in a snapshot.
[[nodiscard]] http::Response post_holdings_state_v0(const Store& store, const Context& ctx);
[[nodiscard]] http::Response post_holdings_state_v1(const Store& store, const Context& ctx);

// POST /v0/holdings/summary and POST /v1/holdings/summary: per owner, the sums of their holdings.
[[nodiscard]] http::Response post_holdings_summary_v0(const Store& store, const Context& ctx);
[[nodiscard]] http::Response post_holdings_summary_v1(const Store& store, const Context& ctx);

// GET /v0/state/acs/snapshot-timestamp?before=&migration_id= (getDateOfMostRecentSnapshotBefore).
[[nodiscard]] http::Response get_snapshot_timestamp(const Store& store, const Context& ctx);

// GET /v0/voterequests/{vote_request_contract_id} (lookupDsoRulesVoteRequest, op 8): by tracking
// cid.
[[nodiscard]] http::Response get_vote_request(const Store& store, const Context& ctx);

// GET /v0/admin/sv/voterequests (listDsoRulesVoteRequests, op 10): every active VoteRequest.
[[nodiscard]] http::Response list_vote_requests(const Store& store, const Context& ctx);

// GET /v0/transfer-command-counter/{party} (lookupTransferCommandCounterByParty).
[[nodiscard]] http::Response get_transfer_command_counter(const Store& store, const Context& ctx);

// GET /v0/ans-entries/by-name/{name} (lookupAnsEntryByName).
[[nodiscard]] http::Response get_ans_entry_by_name(const Store& store, const Context& ctx);

}  // namespace cantonlite::areas::scan
