#pragma once
// The JSON bodies of the Scan API, written as text straight from each contract's packed argument
// (no DOM per request). Key order as in scan.yaml / common-external.yaml; absent optionals as null.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cantonlite/model/contract.hpp"
#include "cantonlite/model/value_json.hpp"
#include "cantonlite/store/ledger_store.hpp"
#include "cantonlite/store/update.hpp"

namespace cantonlite::areas::scan {

// Spec: common-external.yaml Contract. payload in ApiCodecCompressed JSON; created_at as
// Instant.toString.
void append_contract(std::string& out, const model::Contract& c);

// Spec: common-internal.yaml ContractWithState {"contract": Contract, "domain_id": the synchronizer
// (null in flight)}; and MaybeCachedContractWithState, whose contract is null when `cached` (the
// client has it).
void append_contract_with_state(std::string& out, const store::ContractState& state,
                                bool cached = false);

// Spec: scan.yaml CreatedEvent: `create_arguments` in `encoding` (codegen compact JSON for
// holdings queries, protobuf JSON for import updates); created_at as OffsetDateTime; sorted
// signatories and observers.
void append_created_event(std::string& out, const model::Contract& c, std::string_view event_id,
                          model::ValueEncoding encoding);

// Spec: scan.yaml ActiveContract (v1 holdings state).
void append_active_contract(std::string& out, const model::Contract& c,
                            const std::optional<std::string>& created_in_update_id);

// Spec: scan.yaml UpdateHistoryTransaction for an import update (op 2): update_id = contract id,
// fixed offset and record time, one created event "<cid>:0" in protobuf JSON.
void append_import_update(std::string& out, const store::ImportUpdate& update);

// scan.yaml DamlValueEncoding.
enum class DamlValueEncoding { compact_json, protobuf_json };

// Spec: scan.yaml UpdateHistoryItemV2 (getUpdateHistoryV2, getUpdateByIdV2), as ScanHttpEncodings
// writes it with its V1 rules then updateV1ToUpdateV2 (splice-behavior.md §3): a transaction
// without `offset`, event ids "<update id>:<node id>" without '#', events_by_id sorted by id as
// strings, record_time with six fraction digits, effective_at as Instant.toString, no
// external_transaction_hash; a reassignment keeps offset "000000000000000001". Daml values in
// `encoding`. REQUIRES: `update` is a Transaction or a Reassignment.
void append_update_history_item_v2(std::string& out, const store::Update& update,
                                   DamlValueEncoding encoding);

}  // namespace cantonlite::areas::scan
