#pragma once
// What a request sees of the ledger's updates and contracts, and their JSON (openapi.yaml Update,
// JsReassignment, JsGetActiveContractsResponse, JsGetEventsByContractIdResponse), in the field
// order of Canton's circe codecs (../shared/docs/reference/canton-ledger-behavior.md §4).

#include <cstdint>
#include <optional>
#include <string>

#include "cantonlite/areas/ledger/event_filter.hpp"
#include "cantonlite/areas/ledger/ledger_handlers.hpp"
#include "cantonlite/areas/ledger/transaction_request.hpp"
#include "cantonlite/store/ledger_store.hpp"

namespace cantonlite::areas::ledger {

// A validated UpdateFormat resolved against the network: which kinds of update a request reads,
// and as whom.
struct UpdateReader {
    std::optional<Reader> transactions;
    TransactionShape shape = TransactionShape::acs_delta;
    std::optional<Reader> reassignments;
    // Canton 3.5's legacy /v2/updates/trees: a transaction is a {"TransactionTree":...} update.
    bool trees = false;

    // REQUIRES: the format passed validate_update_format and check_known_update_format.
    [[nodiscard]] static UpdateReader make(const UpdateFormat& format,
                                           const model::Network& network);
};

// FormatValidator.validate(UpdateFormat): each format present, in field order. Throws ApiError.
void validate_update_format(const UpdateFormat& format);
// checkUnknownIdentifiers over the transaction and reassignment formats. Throws ApiError (404).
void check_known_update_format(const store::LedgerStore& store, const UpdateFormat& format);
// The parties an update format reads as, and whether it reads as any party (authorization:
// RequiredClaims.updateFormatClaims; topology events with no parties read as any party).
[[nodiscard]] std::vector<std::string> parties_of(const UpdateFormat& format);
[[nodiscard]] bool reads_any_party(const UpdateFormat& format);

// The Update object ({"Transaction":{"value":...}} or {"Reassignment":{"value":...}}; with r.trees
// {"TransactionTree":{"value":JsTransactionTree}} for a transaction) of `update` as `r` sees it;
// nullopt when it sees nothing of it (migrations are not Ledger API updates).
[[nodiscard]] std::optional<std::string> update_json(const store::Update& update,
                                                     const UpdateReader& r,
                                                     const ApiProfile& release);

// The synchronizer a reassignment happens on: an unassignment's source, an assignment's target.
[[nodiscard]] inline model::Name synchronizer_of(const store::Reassignment& r) {
    return r.kind == store::Reassignment::Kind::unassign ? r.source_synchronizer
                                                         : r.target_synchronizer;
}

// One entry of the ACS at an offset: a contract that is active there, or in flight (unassigned
// and not yet assigned) between synchronizers.
struct AcsEntry {
    model::ContractPtr contract;
    ContractView view;
    std::string workflow_id;      // of the transaction that created it
    std::string synchronizer_id;  // where it is (active) or comes from (in flight)
    std::int64_t reassignment_counter = 0;
    std::int64_t activated_offset = 0;  // its create or latest assignment
    int activated_node_id = 0;
    const store::Reassignment* unassigned = nullptr;  // in flight: the unassignment
    store::UpdatePtr keep_alive;                      // owns *unassigned
};

// A JsGetActiveContractsResponse object.
[[nodiscard]] std::string active_contract_json(const AcsEntry& entry,
                                               std::string_view continuation_token);

// The JsGetEventsByContractIdResponse of a contract's create (at its transaction) and, when
// archived, its archive (node `archive` of `archived_in`).
[[nodiscard]] std::string events_by_contract_id_json(const store::Transaction& created_in,
                                                     const store::Node& create,
                                                     const ContractView& view,
                                                     const store::Transaction* archived_in,
                                                     const store::Node* archive);

}  // namespace cantonlite::areas::ledger
