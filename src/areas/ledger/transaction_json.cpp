#include "cantonlite/areas/ledger/transaction_json.hpp"

#include <array>
#include <utility>

#include "cantonlite/http/json_text.hpp"
#include "cantonlite/model/ids.hpp"
#include "cantonlite/model/value_json.hpp"

namespace cantonlite::areas::ledger {
namespace {

using http::append_int_field;
using http::append_key;
using http::append_null_field;
using http::append_raw_field;
using http::append_string_field;
using http::append_strings_field;

// implementedInterfaces: the ids of the interfaces asked for.
void append_interface_ids(std::string& out, const EventView& e) {
    std::vector<std::string> ids;
    for (const InterfaceView& i : e.interfaces) ids.push_back(i.interface_id);
    append_strings_field(out, "implementedInterfaces", ids);
}

// interfaceViews: one JsInterfaceView per interface; a view that cannot be computed has a failed
// viewStatus and null value, as Canton renders a view error.
void append_interface_views(std::string& out, const model::Contract& c, const EventView& e) {
    append_key(out, "interfaceViews");
    out += '[';
    for (std::size_t k = 0; k < e.interfaces.size(); ++k) {
        if (k > 0) out += ',';
        const InterfaceView& i = e.interfaces[k];
        const std::optional<std::string> value = i.instance->view(c);
        out += '{';
        append_string_field(out, "interfaceId", i.interface_id, true);
        append_key(out, "viewStatus");
        out += '{';
        append_int_field(out, "code", value ? 0 : 3, true);
        append_string_field(out, "message",
                            value ? "" : "The contract's argument does not have the view's fields");
        append_raw_field(out, "details", "[]");
        out += '}';
        if (value) {
            append_raw_field(out, "viewValue", *value);
            append_string_field(out, "implementationPackageId", c.template_id().package_id);
        } else {
            append_null_field(out, "viewValue");
            append_null_field(out, "implementationPackageId");
        }
        out += '}';
    }
    out += ']';
}

// A W3C traceparent derived from the update id: stable for a transaction, as a stored one is.
std::string traceparent(const std::string& update_id) {
    const std::string hash = model::sha256_hex("trace/" + update_id);
    return "00-" + hash.substr(0, 32) + "-" + hash.substr(32, 16) + "-01";
}

}  // namespace

void append_created_event_object(std::string& out, std::int64_t offset, const EventView& e) {
    const model::Contract& c = *std::get<store::CreatedNode>(e.node->event).contract;
    const model::TemplateId t = c.template_id();
    out += '{';
    append_int_field(out, "offset", offset, true);
    append_int_field(out, "nodeId", e.node->node_id);
    append_string_field(out, "contractId", c.contract_id);
    append_string_field(out, "templateId", t.to_string());
    append_null_field(out, "contractKey");
    append_string_field(out, "contractKeyHash", "");
    append_key(out, "createArgument");
    model::append_value_json(out, c.argument, model::ValueEncoding::ledger);
    append_string_field(out, "createdEventBlob",
                        e.include_created_event_blob ? model::created_event_blob(c) : "");
    append_interface_views(out, c, e);
    append_strings_field(out, "witnessParties", e.witness_parties);
    append_strings_field(out, "signatories", c.signatories);
    append_strings_field(out, "observers", c.observers());
    append_string_field(out, "createdAt", model::format_instant(c.created_at));
    append_string_field(out, "packageName", t.package_name);
    append_string_field(out, "representativePackageId", t.package_id);
    append_raw_field(out, "acsDelta", e.acs_delta ? "true" : "false");
    out += '}';
}

void append_archived_event_object(std::string& out, std::int64_t offset, const EventView& e) {
    const auto& x = *store::exercised(*e.node);
    const model::TemplateId t = x.template_id();
    out += '{';
    append_int_field(out, "offset", offset, true);
    append_int_field(out, "nodeId", e.node->node_id);
    append_string_field(out, "contractId", x.contract_id);
    append_string_field(out, "templateId", t.to_string());
    append_strings_field(out, "witnessParties", e.witness_parties);
    append_string_field(out, "packageName", t.package_name);
    append_interface_ids(out, e);
    out += '}';
}

void append_exercised_event_object(std::string& out, std::int64_t offset, const EventView& e) {
    const auto& x = *store::exercised(*e.node);
    const model::TemplateId t = x.template_id();
    out += '{';
    append_int_field(out, "offset", offset, true);
    append_int_field(out, "nodeId", e.node->node_id);
    append_string_field(out, "contractId", x.contract_id);
    append_string_field(out, "templateId", t.to_string());
    if (const auto interface = x.interface_id()) {
        append_string_field(out, "interfaceId", interface->to_string());
    } else {
        append_null_field(out, "interfaceId");
    }
    append_string_field(out, "choice", x.choice);
    append_key(out, "choiceArgument");
    model::append_value_json(out, x.choice_argument, model::ValueEncoding::ledger);
    append_strings_field(out, "actingParties", x.acting_parties);
    append_raw_field(out, "consuming", x.consuming ? "true" : "false");
    append_strings_field(out, "witnessParties", e.witness_parties);
    append_int_field(out, "lastDescendantNodeId", x.last_descendant);
    append_key(out, "exerciseResult");
    model::append_value_json(out, x.exercise_result, model::ValueEncoding::ledger);
    append_string_field(out, "packageName", t.package_name);
    append_interface_ids(out, e);
    append_raw_field(out, "acsDelta", e.acs_delta ? "true" : "false");
    out += '}';
}

namespace {

// scala.collection.Hashing.improve, over the bits of a Java int.
std::uint32_t scala_improve_hash(std::int32_t key) {
    auto h = static_cast<std::uint32_t>(key);
    h = h + ~(h << 9U);
    h = h ^ (h >> 14U);
    h = h + (h << 4U);
    return h ^ (h >> 10U);
}

// The iteration order of a CHAMP trie node at `shift` (immutable.HashMap, ChampBaseIterator): the
// entries alone in their 5-bit slot first, by slot, then each shared slot's sub-node, by slot,
// depth first. Below the last level a collision node keeps insertion order.
void append_champ_order(const std::vector<std::pair<std::uint32_t, std::size_t>>& entries,
                        unsigned shift, std::vector<std::size_t>& out) {
    if (shift > 30U) {
        for (const auto& e : entries) out.push_back(e.second);
        return;
    }
    std::array<std::vector<std::pair<std::uint32_t, std::size_t>>, 32> slots;
    for (const auto& e : entries) slots.at((e.first >> shift) & 31U).push_back(e);
    for (const auto& slot : slots) {
        if (slot.size() == 1) out.push_back(slot.front().second);
    }
    for (const auto& slot : slots) {
        if (slot.size() > 1) append_champ_order(slot, shift + 5U, out);
    }
}

}  // namespace

std::vector<std::size_t> scala_int_map_order(const std::vector<std::int32_t>& keys) {
    std::vector<std::size_t> order;
    if (keys.size() <= 4) {
        // Map1 to Map4 keep insertion order.
        for (std::size_t i = 0; i < keys.size(); ++i) order.push_back(i);
        return order;
    }
    std::vector<std::pair<std::uint32_t, std::size_t>> entries;
    for (std::size_t i = 0; i < keys.size(); ++i)
        entries.emplace_back(scala_improve_hash(keys[i]), i);
    append_champ_order(entries, 0U, order);
    return order;
}

std::string traceparent_of(const std::string& update_id) {
    return traceparent(update_id);
}

namespace {

// The fields a transaction and a transaction tree open with: '{', updateId, commandId (to its
// submitters only), workflowId, effectiveAt.
void append_transaction_head(std::string& out, const TransactionView& view,
                             const std::string& update_id) {
    const store::Transaction& tx = *view.transaction;
    out += '{';
    append_string_field(out, "updateId", update_id, true);
    append_string_field(out, "commandId", view.submitter_visible ? tx.command_id.view() : "");
    append_string_field(out, "workflowId", tx.workflow_id);
    append_string_field(out, "effectiveAt", model::format_instant(tx.effective_at));
}

// And where both go on: synchronizerId, traceContext, recordTime.
void append_transaction_where(std::string& out, const store::Transaction& tx,
                              const std::string& update_id) {
    append_string_field(out, "synchronizerId", tx.synchronizer_id);
    append_key(out, "traceContext");
    out += '{';
    append_string_field(out, "traceparent", traceparent(update_id), true);
    append_null_field(out, "tracestate");
    out += '}';
    append_string_field(out, "recordTime", model::format_instant(tx.record_time));
}

}  // namespace

void append_transaction_object(std::string& out, const TransactionView& view,
                               bool with_transaction_hash) {
    const store::Transaction& tx = *view.transaction;
    const std::string update_id = tx.update_id().str();
    append_transaction_head(out, view, update_id);
    append_key(out, "events");
    out += '[';
    for (std::size_t i = 0; i < view.events.size(); ++i) {
        if (i > 0) out += ',';
        const EventView& e = view.events[i];
        switch (e.kind) {
            case EventView::Kind::created:
                out += R"({"CreatedEvent":)";
                append_created_event_object(out, tx.offset, e);
                out += '}';
                break;
            case EventView::Kind::archived:
                out += R"({"ArchivedEvent":)";
                append_archived_event_object(out, tx.offset, e);
                out += '}';
                break;
            case EventView::Kind::exercised:
                out += R"({"ExercisedEvent":)";
                append_exercised_event_object(out, tx.offset, e);
                out += '}';
                break;
        }
    }
    out += ']';
    append_int_field(out, "offset", tx.offset);
    append_transaction_where(out, tx, update_id);
    // The hash an external party signed, in hex (Canton 3.6 repeats it as transactionHash).
    const auto append_hash = [&](std::string_view key) {
        if (tx.external_transaction_hash.empty()) {
            append_null_field(out, key);
        } else {
            append_string_field(out, key, tx.external_transaction_hash.view());
        }
    };
    append_hash("externalTransactionHash");
    if (const auto cost = tx.paid_traffic_cost(); view.submitter_visible && cost) {
        append_int_field(out, "paidTrafficCost", *cost);
    } else {
        append_null_field(out, "paidTrafficCost");
    }
    if (with_transaction_hash) append_hash("transactionHash");
    out += '}';
}

std::string transaction_response(const TransactionView& view) {
    std::string out = R"({"transaction":)";
    append_transaction_object(out, view, false);
    out += '}';
    return out;
}

void append_transaction_tree_object(std::string& out, const TransactionView& view) {
    const store::Transaction& tx = *view.transaction;
    const std::string update_id = tx.update_id().str();
    append_transaction_head(out, view, update_id);
    append_int_field(out, "offset", tx.offset);
    // LegacyDTOs.toTransactionTree: the created and exercised events (an archive, in the
    // ACS_DELTA shape, is no tree event: `collect` skips it) by node id, in a Scala Map.
    std::vector<const EventView*> events;
    std::vector<std::int32_t> node_ids;
    for (const EventView& e : view.events) {
        if (e.kind == EventView::Kind::archived) continue;
        events.push_back(&e);
        node_ids.push_back(e.node->node_id);
    }
    append_key(out, "eventsById");
    out += '{';
    bool first = true;
    for (const std::size_t i : scala_int_map_order(node_ids)) {
        if (!std::exchange(first, false)) out += ',';
        const EventView& e = *events[i];
        append_key(out, std::to_string(node_ids[i]), true);
        if (e.kind == EventView::Kind::created) {
            out += R"({"CreatedTreeEvent":{"value":)";
            append_created_event_object(out, tx.offset, e);
        } else {
            out += R"({"ExercisedTreeEvent":{"value":)";
            append_exercised_event_object(out, tx.offset, e);
        }
        out += "}}";
    }
    out += '}';
    append_transaction_where(out, tx, update_id);
    out += '}';
}

std::string transaction_tree_response(const TransactionView& view) {
    std::string out = R"({"transaction":)";
    append_transaction_tree_object(out, view);
    out += '}';
    return out;
}

}  // namespace cantonlite::areas::ledger
