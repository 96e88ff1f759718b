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

// POST /v2/holdings/state (getHoldingsStateAtV2, Splice 0.9): as /v1/holdings/state with string
// page tokens and at most 1000 owners.
[[nodiscard]] http::Response post_holdings_state_v2(const Store& store, const Context& ctx);

// POST /v1/state/acs (getAcsSnapshotAtV1, Splice 0.6): as /v2/state/acs with int64 page tokens.
[[nodiscard]] http::Response post_state_acs_v1(const Store& store, const Context& ctx);

// POST /v2/state/acs (getAcsSnapshotAtV2, Splice 0.9): one page of every contract of a snapshot,
// optionally only those of party_ids (stakeholders) and templates ("<package name>:<Module>:
// <Entity>"), as ActiveContracts, with string page tokens.
[[nodiscard]] http::Response post_state_acs_v2(const Store& store, const Context& ctx);

// GET /v0/state/acs/snapshot-timestamp-after?after=&migration_id= (getDateOfFirstSnapshotAfter):
// the first snapshot after `after` of that migration or a later one.
[[nodiscard]] http::Response get_snapshot_timestamp_after(const Store& store, const Context& ctx);

// POST /v2/updates (getUpdateHistoryV2): transactions and reassignments after (migration id,
// record time), without import updates, in compact or protobuf JSON.
[[nodiscard]] http::Response post_updates_v2(const Store& store, const Context& ctx);

// GET /v2/updates/{update_id} (getUpdateByIdV2): one item of that history.
[[nodiscard]] http::Response get_update_by_id_v2(const Store& store, const Context& ctx);
// GET /v2/updates/hash/{hash}: the transaction an external party signed this hash of (64 hex
// digits), as UpdateHistoryItemV2WithHash.
[[nodiscard]] http::Response get_update_by_hash(const Store& store, const Context& ctx);

// GET /v0/voterequests/{vote_request_contract_id} (lookupDsoRulesVoteRequest, op 8): by tracking
// cid.
[[nodiscard]] http::Response get_vote_request(const Store& store, const Context& ctx);

// GET /v0/admin/sv/voterequests (listDsoRulesVoteRequests, op 10): every active VoteRequest.
[[nodiscard]] http::Response list_vote_requests(const Store& store, const Context& ctx);

// GET /v0/transfer-command-counter/{party} (lookupTransferCommandCounterByParty).
[[nodiscard]] http::Response get_transfer_command_counter(const Store& store, const Context& ctx);

// GET /v0/transfer-preapprovals/by-party/{party} (lookupTransferPreapprovalByParty).
[[nodiscard]] http::Response get_transfer_preapproval(const Store& store, const Context& ctx);

// POST /v0/amulet-rules (getAmuletRules): {"amulet_rules_update": MaybeCachedContractWithState},
// its contract null when the request names it as cached.
[[nodiscard]] http::Response post_amulet_rules(const Store& store, const Context& ctx);
// POST /v0/open-and-issuing-mining-rounds (getOpenAndIssuingMiningRounds): every active round by
// contract id, those the request names as cached without their contract, and the TTL (the
// smallest tick).
[[nodiscard]] http::Response post_open_and_issuing_mining_rounds(const Store& store,
                                                                 const Context& ctx);
// GET /v0/featured-apps/{provider_party_id} (lookupFeaturedAppRight): the provider's
// FeaturedAppRight, or {"featured_app_right": null}; 400 for a malformed party. The scan proxy's
// route answers the same.
[[nodiscard]] http::Response get_featured_app_right(const Store& store, const Context& ctx);
// The scan proxy's GET /v0/scan-proxy/amulet-rules ({"amulet_rules": ContractWithState}) and
// GET /v0/scan-proxy/open-and-issuing-mining-rounds (lists of ContractWithState, by round).
[[nodiscard]] http::Response get_amulet_rules_proxy(const Store& store, const Context& ctx);
[[nodiscard]] http::Response get_open_and_issuing_mining_rounds_proxy(const Store& store,
                                                                      const Context& ctx);

// The token-standard registry (token-metadata-v1.yaml), on Scan's /registry and the scan-proxy:
// GET /registry/metadata/v1/info (getRegistryInfo): the DSO as admin.
[[nodiscard]] http::Response get_registry_info(const Store& store, const Context& ctx);
// GET /registry/metadata/v1/instruments (listInstruments): Amulet, never paged.
[[nodiscard]] http::Response list_instruments(const Store& store, const Context& ctx);
// GET /registry/metadata/v1/instruments/{instrumentId} (getInstrument).
[[nodiscard]] http::Response get_instrument(const Store& store, const Context& ctx);
// POST /registry/transfer-instruction/v1/transfer-factory (transfer-instruction-v1.yaml
// getTransferFactory): the ExternalPartyAmuletRules as the factory of the transfer that
// choiceArguments (a TransferFactory_Transfer in Daml-LF JSON) describes, its kind (self, direct
// to a receiver with a TransferPreapproval, else offer) and the choice context: the AmuletRules,
// the latest usable OpenMiningRound and the receiver's TransferPreapproval, disclosed with the
// factory. 400 for choiceArguments that do not decode or a malformed receiver, 404 without a
// usable round.
[[nodiscard]] http::Response post_transfer_factory(const Store& store, const Context& ctx);
// POST /registry/transfer-instruction/v1/{transferInstructionId}/choice-contexts/{accept,reject,
// withdraw} (getTransferInstruction{Accept,Reject,Withdraw}Context): what the choice on an
// active AmuletTransferInstruction needs, as ChoiceContextBuilder.getTwoStepTransferContext builds
// it: expire-lock, the latest usable OpenMiningRound and the AmuletRules, disclosed with the
// LockedAmulet. 404 for an unknown instruction or without a usable round; once the lock has
// expired and the amulet was unlocked, 404 for accept and {"expire-lock": false} alone for the
// others.
enum class TransferInstructionChoice { accept, reject, withdraw };
[[nodiscard]] http::Response post_transfer_instruction_choice_context(
    const Store& store, const Context& ctx, TransferInstructionChoice choice);

// GET /v0/ans-entries/by-name/{name} (lookupAnsEntryByName).
[[nodiscard]] http::Response get_ans_entry_by_name(const Store& store, const Context& ctx);

// GET /v0/history/bulk/acs (listBulkAcsSnapshotObjects, pre-alpha): the latest snapshot at or
// before at_or_before_record_time, as Scan's bulk storage objects: {"record_time", "object_refs":
// [{"url", "digest"}]}, each url this Scan's download of the object.
[[nodiscard]] http::Response get_bulk_acs(const Store& store, const Context& ctx);

// POST /v0/history/bulk/updates (listBulkUpdateHistoryObjects, pre-alpha): the objects of the
// update history's segments (the updates between two snapshots) between start_record_time and
// end_record_time, as UpdateHistoryBulkStorage lists them: {"object_refs": [{"url", "digest"}],
// "next_page_token"}.
[[nodiscard]] http::Response post_bulk_updates(const Store& store, const Context& ctx);

// GET /v0/history/bulk/download/{object_key}: the bytes of a bulk object (zstd), 404 when there
// is no such object.
[[nodiscard]] http::Response get_bulk_download(const Store& store, const Context& ctx);

// Splice 0.9's internal bulk endpoints. POST /v0/history/bulk/checksums (getBulkObjectChecksums):
// {"checksums": [{"value"}]}, each object's digest in the order of object_keys, null for a key of
// no object. GET /v0/history/bulk/progress (getBulkObjectsProgress):
// {"beyond_requested_record_time"}, whether bulk storage reaches record_time.
[[nodiscard]] http::Response post_bulk_checksums(const Store& store, const Context& ctx);
[[nodiscard]] http::Response get_bulk_progress(const Store& store, const Context& ctx);

}  // namespace cantonlite::areas::scan
