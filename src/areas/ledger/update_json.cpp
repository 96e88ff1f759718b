#include "cantonlite/areas/ledger/update_json.hpp"

#include <algorithm>

#include "cantonlite/areas/ledger/transaction_json.hpp"
#include "cantonlite/http/api_error.hpp"
#include "cantonlite/http/json_text.hpp"
#include "cantonlite/model/timestamp.hpp"

namespace cantonlite::areas::ledger {
namespace {

using http::append_int_field;
using http::append_key;
using http::append_null_field;
using http::append_raw_field;
using http::append_string_field;
using http::append_strings_field;

void append_trace_context(std::string& out, const std::string& update_id) {
    append_key(out, "traceContext");
    out += '{';
    append_string_field(out, "traceparent", traceparent_of(update_id), true);
    append_null_field(out, "tracestate");
    out += '}';
}

// An event view of a contract outside a transaction's nodes (ACS, reassignments).
EventView contract_event(const store::Node& node, const ContractView& view, bool acs_delta) {
    return EventView{.kind = EventView::Kind::created,
                     .node = &node,
                     .witness_parties = view.witness_parties,
                     .acs_delta = acs_delta,
                     .include_created_event_blob = view.blob,
                     .interfaces = view.interfaces};
}

void append_created(std::string& out, std::string_view key, std::int64_t offset,
                    const EventView& e) {
    append_key(out, key);
    append_created_event_object(out, offset, e);
}

// UnassignedEvent (proto field order).
void append_unassigned_event(std::string& out, const store::Reassignment& r,
                             const ContractView& view) {
    const model::Contract& c = *r.contract;
    const model::TemplateId t = c.template_id();
    out += '{';
    append_string_field(out, "reassignmentId", r.unassign_id, true);
    append_string_field(out, "contractId", c.contract_id);
    append_string_field(out, "templateId", t.to_string());
    append_string_field(out, "source", r.source_synchronizer);
    append_string_field(out, "target", r.target_synchronizer);
    append_string_field(out, "submitter", r.submitter);
    append_int_field(out, "reassignmentCounter", r.reassignment_counter);
    append_null_field(out, "assignmentExclusivity");
    append_strings_field(out, "witnessParties", view.witness_parties);
    append_string_field(out, "packageName", t.package_name);
    append_int_field(out, "offset", r.offset);
    append_int_field(out, "nodeId", 0);
    out += '}';
}

// {"Reassignment":{"value":JsReassignment}}: one event, the unassignment or the assignment.
std::optional<std::string> reassignment_json(const store::Reassignment& r, const Reader& reader) {
    const std::optional<ContractView> view = view_contract(reader, *r.contract);
    if (!view) return std::nullopt;
    const bool unassign = r.kind == store::Reassignment::Kind::unassign;
    const std::string update_id = r.update_id().str();
    std::string out = R"({"Reassignment":{"value":{)";
    append_string_field(out, "updateId", update_id, true);
    append_string_field(out, "commandId", "");
    append_string_field(out, "workflowId", "");
    append_int_field(out, "offset", r.offset);
    append_key(out, "events");
    if (unassign) {
        out += R"([{"JsUnassignedEvent":{"value":)";
        append_unassigned_event(out, r, *view);
        out += "}}]";
    } else {
        const store::Node node{.event = store::CreatedNode{.contract = r.contract}, .node_id = 0};
        out += R"([{"JsAssignmentEvent":{)";
        append_string_field(out, "source", r.source_synchronizer, true);
        append_string_field(out, "target", r.target_synchronizer);
        append_string_field(out, "reassignmentId", r.unassign_id);
        append_string_field(out, "submitter", r.submitter);
        append_int_field(out, "reassignmentCounter", r.reassignment_counter);
        append_created(out, "createdEvent", r.offset, contract_event(node, *view, true));
        out += "}}]";
    }
    append_trace_context(out, update_id);
    append_string_field(out, "recordTime", model::format_instant(r.record_time));
    append_string_field(out, "synchronizerId", synchronizer_of(r));
    append_null_field(out, "paidTrafficCost");
    out += "}}}";
    return out;
}

}  // namespace

UpdateReader UpdateReader::make(const UpdateFormat& format, const model::Network& network) {
    UpdateReader r;
    if (format.include_transactions) {
        r.transactions = Reader::make(*format.include_transactions->event_format, network);
        r.shape = format.include_transactions->transaction_shape;
    }
    if (format.include_reassignments)
        r.reassignments = Reader::make(*format.include_reassignments, network);
    return r;
}

void validate_update_format(const UpdateFormat& format) {
    if (format.include_transactions)
        (void)validate_transaction_format(*format.include_transactions);
    if (format.include_reassignments) validate_event_format(*format.include_reassignments);
    // ParticipantAuthorizationTopologyFormat: requirePartyField(_, "parties").
    const auto& topology = format.include_topology_events;
    if (!topology || !topology->participant_authorization_parties) return;
    for (const std::string& p : *topology->participant_authorization_parties) {
        if (const auto error = lf_party_error(p)) {
            throw http::ApiError(http::ErrorKind::invalid_argument, "INVALID_FIELD",
                                 "The submitted command has a field with invalid value: Invalid "
                                 "field parties: " +
                                     *error,
                                 {{"field_name", "parties"}});
        }
    }
}

void check_known_update_format(const store::LedgerStore& store, const UpdateFormat& format) {
    if (format.include_transactions) check_known(store, *format.include_transactions->event_format);
    if (format.include_reassignments) check_known(store, *format.include_reassignments);
}

std::vector<std::string> parties_of(const UpdateFormat& format) {
    std::vector<std::string> parties;
    const auto add = [&](const std::vector<std::string>& more) {
        for (const auto& p : more) {
            if (std::find(parties.begin(), parties.end(), p) == parties.end()) parties.push_back(p);
        }
    };
    if (format.include_transactions && format.include_transactions->event_format)
        add(parties_of(*format.include_transactions->event_format));
    if (format.include_reassignments) add(parties_of(*format.include_reassignments));
    if (format.include_topology_events &&
        format.include_topology_events->participant_authorization_parties)
        add(*format.include_topology_events->participant_authorization_parties);
    return parties;
}

bool reads_any_party(const UpdateFormat& format) {
    const auto any = [](const EventFormat& e) { return e.filters_for_any_party.has_value(); };
    if (format.include_transactions && format.include_transactions->event_format &&
        any(*format.include_transactions->event_format))
        return true;
    if (format.include_reassignments && any(*format.include_reassignments)) return true;
    return format.include_topology_events &&
           format.include_topology_events->participant_authorization_parties &&
           format.include_topology_events->participant_authorization_parties->empty();
}

std::optional<std::string> update_json(const store::Update& update, const UpdateReader& r,
                                       const ApiProfile& release) {
    if (const auto* tx = std::get_if<store::Transaction>(&update)) {
        if (!r.transactions) return std::nullopt;
        const TransactionView view = project(*tx, *r.transactions, r.shape);
        if (view.events.empty()) return std::nullopt;
        if (r.trees) {
            // JsUpdateService.toGetUpdateTreesResponse: JsUpdateTree.TransactionTree.
            std::string out = R"({"TransactionTree":{"value":)";
            append_transaction_tree_object(out, view);
            out += "}}";
            return out;
        }
        std::string out = R"({"Transaction":{"value":)";
        append_transaction_object(out, view, release.canton_3_6());
        out += "}}";
        return out;
    }
    if (const auto* re = std::get_if<store::Reassignment>(&update)) {
        if (!r.reassignments) return std::nullopt;
        return reassignment_json(*re, *r.reassignments);
    }
    return std::nullopt;  // a migration: Scan's, not the participant's
}

std::string active_contract_json(const AcsEntry& entry, std::string_view continuation_token) {
    std::string out = "{";
    append_string_field(out, "workflowId", entry.workflow_id, true);
    append_key(out, "contractEntry");
    const store::Node node{.event = store::CreatedNode{.contract = entry.contract},
                           .node_id = entry.activated_node_id};
    const EventView created = contract_event(node, entry.view, true);
    if (entry.unassigned != nullptr) {
        out += R"({"JsIncompleteUnassigned":{)";
        append_key(out, "createdEvent", true);
        append_created_event_object(out, entry.activated_offset, created);
        append_key(out, "unassignedEvent");
        append_unassigned_event(out, *entry.unassigned, entry.view);
        out += "}}";
    } else {
        out += R"({"JsActiveContract":{)";
        append_key(out, "createdEvent", true);
        append_created_event_object(out, entry.activated_offset, created);
        append_string_field(out, "synchronizerId", entry.synchronizer_id);
        append_int_field(out, "reassignmentCounter", entry.reassignment_counter);
        out += "}}";
    }
    append_string_field(out, "streamContinuationToken", continuation_token);
    out += '}';
    return out;
}

std::string events_by_contract_id_json(const store::Transaction& created_in,
                                       const store::Node& create, const ContractView& view,
                                       const store::Transaction* archived_in,
                                       const store::Node* archive) {
    std::string out = R"({"created":{)";
    append_key(out, "createdEvent", true);
    append_created_event_object(out, created_in.offset, contract_event(create, view, true));
    append_string_field(out, "synchronizerId", created_in.synchronizer_id);
    out += '}';
    if (archived_in != nullptr && archive != nullptr) {
        const EventView archived{.kind = EventView::Kind::archived,
                                 .node = archive,
                                 .witness_parties = view.witness_parties,
                                 .interfaces = view.interfaces};
        out += R"(,"archived":{)";
        append_key(out, "archivedEvent", true);
        append_archived_event_object(out, archived_in->offset, archived);
        append_string_field(out, "synchronizerId", created_in.synchronizer_id);
        out += '}';
    } else {
        append_null_field(out, "archived");
    }
    out += '}';
    return out;
}

}  // namespace cantonlite::areas::ledger
