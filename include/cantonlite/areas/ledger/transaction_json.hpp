#pragma once
// The JSON of JsGetTransactionResponse (openapi.yaml), spliced from the store's encodings, in the
// field order Canton's circe codecs write (../shared/docs/reference/canton-ledger-behavior.md §4).

#include <cstdint>
#include <string>
#include <vector>

#include "cantonlite/splice/interfaces.hpp"
#include "cantonlite/store/update.hpp"

namespace cantonlite::areas::ledger {

// An interface a matching filter asked to render (includeInterfaceView) that the event's template
// implements: its view on a created event, its id in implementedInterfaces on an archive.
struct InterfaceView {
    std::string interface_id;  // package-id form
    const splice::InterfaceInstance* instance = nullptr;
};

// One event of the answer: a node of the transaction as one reader sees it.
struct EventView {
    enum class Kind { created, archived, exercised };
    Kind kind = Kind::created;
    const store::Node* node = nullptr;
    std::vector<model::Name> witness_parties;  // what the reader may see of the node's witnesses
    bool acs_delta = false;                    // created/exercised: also in the ACS_DELTA shape
    bool include_created_event_blob = false;   // created: a matching filter asked for it
    std::vector<InterfaceView> interfaces;     // sorted by interface id
};

// What a request sees of a transaction: its events in node order, and whether the submission
// details (commandId, paidTrafficCost) are for one of the reader's parties.
struct TransactionView {
    const store::Transaction* transaction = nullptr;
    std::vector<EventView> events;
    bool submitter_visible = false;
};

// {"transaction": JsTransaction} for `view`. REQUIRES: view.transaction set, events non-empty.
[[nodiscard]] std::string transaction_response(const TransactionView& view);

// The JsTransaction object for `view`. `with_transaction_hash`: Canton 3.6 appends
// "transactionHash", the same as externalTransactionHash (null but for a transaction executed by
// interactive submission). REQUIRES: as above.
void append_transaction_object(std::string& out, const TransactionView& view,
                               bool with_transaction_hash);
// The CreatedEvent object (no {"CreatedEvent": ...} wrapper) of e.node, a created node, at
// `offset`.
void append_created_event_object(std::string& out, std::int64_t offset, const EventView& e);
// The ArchivedEvent object of e.node, a consuming exercise, at `offset`.
void append_archived_event_object(std::string& out, std::int64_t offset, const EventView& e);
// The ExercisedEvent object (no {"ExercisedEvent": ...} wrapper) of e.node, an exercise, at
// `offset`.
void append_exercised_event_object(std::string& out, std::int64_t offset, const EventView& e);

// Canton 3.5's legacy trees (LegacyDTOs.toTransactionTree, JsSchema.JsTransactionTree): the
// JsTransactionTree object of `view`, its created and exercised events in `eventsById` keyed by
// node id, each wrapped as {"CreatedTreeEvent":{"value":...}} or {"ExercisedTreeEvent":{...}}.
// REQUIRES: view.transaction set.
void append_transaction_tree_object(std::string& out, const TransactionView& view);
// {"transaction": JsTransactionTree} (JsGetTransactionTreeResponse) for `view`.
[[nodiscard]] std::string transaction_tree_response(const TransactionView& view);
// The order in which a Scala 2.13 immutable Map built from `keys` (distinct, in this order)
// iterates them, as indexes into `keys`: insertion order up to four keys (Map1 to Map4), else the
// HashMap's CHAMP order over Hashing.improve of each key. circe writes a Map in this order.
[[nodiscard]] std::vector<std::size_t> scala_int_map_order(const std::vector<std::int32_t>& keys);

// The W3C traceparent a stored update carries: derived from its update id.
[[nodiscard]] std::string traceparent_of(const std::string& update_id);

}  // namespace cantonlite::areas::ledger
