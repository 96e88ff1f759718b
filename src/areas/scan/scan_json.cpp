#include "cantonlite/areas/scan/scan_json.hpp"

#include <algorithm>

#include "cantonlite/http/json_text.hpp"
#include "cantonlite/model/value_json.hpp"

namespace cantonlite::areas::scan {
namespace {

using http::append_int_field;
using http::append_key;
using http::append_raw_field;
using http::append_string_array;
using http::append_string_field;

// The first fields every scan event shares: ids, template and package.
void append_event_head(std::string& out, const model::Contract& c) {
    append_string_field(out, "contract_id", c.contract_id);
    const model::TemplateId t = c.template_id();
    append_string_field(out, "template_id", t.to_string());
    append_string_field(out, "package_name", t.package_name);
}

void append_parties(std::string& out, const model::Contract& c) {
    append_key(out, "signatories");
    append_string_array(out, c.signatories);
    append_key(out, "observers");
    append_string_array(out, c.observers());
}

}  // namespace

void append_contract(std::string& out, const model::Contract& c) {
    out += '{';
    append_string_field(out, "template_id", c.template_id().to_string(), true);
    append_string_field(out, "contract_id", c.contract_id);
    append_key(out, "payload");
    model::append_value_json(out, c.argument, model::ValueEncoding::api_compressed);
    append_string_field(out, "created_event_blob", model::created_event_blob(c));
    append_string_field(out, "created_at", model::format_instant(c.created_at));
    out += '}';
}

void append_contract_with_state(std::string& out, const store::ContractState& state, bool cached) {
    out += R"({"contract":)";
    if (cached) {
        out += "null";
    } else {
        append_contract(out, *state.contract);
    }
    if (state.synchronizer_id.empty()) {
        http::append_null_field(out, "domain_id");  // in flight between synchronizers
    } else {
        append_string_field(out, "domain_id", state.synchronizer_id);
    }
    out += '}';
}

void append_created_event(std::string& out, const model::Contract& c, std::string_view event_id,
                          model::ValueEncoding encoding) {
    out += '{';
    append_string_field(out, "event_type", "created_event", true);
    append_string_field(out, "event_id", event_id);
    append_event_head(out, c);
    append_key(out, "create_arguments");
    model::append_value_json(out, c.argument, encoding);
    append_string_field(out, "created_at", model::format_offset_date_time(c.created_at));
    append_parties(out, c);
    out += '}';
}

void append_active_contract(std::string& out, const model::Contract& c,
                            const std::optional<std::string>& created_in_update_id) {
    out += '{';
    if (created_in_update_id) {
        append_string_field(out, "created_in_update_id", *created_in_update_id, true);
    } else {
        http::append_null_field(out, "created_in_update_id", true);
    }
    append_string_field(out, "contract_id", c.contract_id);
    const model::TemplateId t = c.template_id();
    append_string_field(out, "template_id", t.to_string());
    append_string_field(out, "package_name", t.package_name);
    append_key(out, "create_arguments");
    model::append_value_json(out, c.argument, model::ValueEncoding::codegen);
    append_string_field(out, "created_at", model::format_offset_date_time(c.created_at));
    append_parties(out, c);
    out += '}';
}

void append_import_update(std::string& out, const store::ImportUpdate& update) {
    const model::Contract& c = *update.contract;
    const std::string event_id = c.contract_id + ":0";
    out += '{';
    append_string_field(out, "update_id", c.contract_id, true);
    append_int_field(out, "migration_id", update.migration_id);
    append_string_field(out, "workflow_id", "canton-network-acs-import-" + c.contract_id);
    append_string_field(out, "record_time", "0001-01-01T00:00:00.000000Z");
    append_string_field(out, "synchronizer_id", update.synchronizer_id);
    append_string_field(out, "effective_at", model::format_instant(c.created_at));
    append_string_field(out, "offset", "000000000000000001");
    append_key(out, "root_event_ids");
    append_string_array(out, std::vector<std::string_view>{event_id});
    append_key(out, "events_by_id");
    out += '{';
    append_key(out, event_id, true);
    append_created_event(out, c, event_id, model::ValueEncoding::protobuf);
    out += "}}";
}

namespace {

// LegacyOffset.Api.fromLong(1): what V1 writes for every offset.
constexpr std::string_view consistent_offset = "000000000000000001";

model::ValueEncoding value_encoding(DamlValueEncoding encoding) {
    return encoding == DamlValueEncoding::compact_json ? model::ValueEncoding::codegen
                                                       : model::ValueEncoding::protobuf;
}

std::string event_id(const std::string& update_id, int node_id) {
    return update_id + ":" + std::to_string(node_id);
}

void append_event_ids(std::string& out, const std::string& update_id, const std::vector<int>& ids) {
    out += '[';
    for (std::size_t i = 0; i < ids.size(); ++i) {
        if (i > 0) out += ',';
        http::append_json_string(out, event_id(update_id, ids[i]));
    }
    out += ']';
}

void append_exercised_event(std::string& out, const store::ExercisedNode& x,
                            const std::vector<int>& children, const std::string& id,
                            const std::string& update_id, DamlValueEncoding encoding) {
    out += '{';
    append_string_field(out, "event_type", "exercised_event", true);
    append_string_field(out, "event_id", id);
    append_string_field(out, "contract_id", x.contract_id);
    const model::TemplateId t = x.template_id();
    append_string_field(out, "template_id", t.to_string());
    append_string_field(out, "package_name", t.package_name);
    append_string_field(out, "choice", x.choice);
    append_key(out, "choice_argument");
    model::append_value_json(out, x.choice_argument, value_encoding(encoding));
    append_key(out, "child_event_ids");
    append_event_ids(out, update_id, children);
    append_key(out, "exercise_result");
    model::append_value_json(out, x.exercise_result, value_encoding(encoding));
    append_raw_field(out, "consuming", x.consuming ? "true" : "false");
    append_key(out, "acting_parties");
    append_string_array(out, x.acting_parties);
    if (const auto interface = x.interface_id()) {
        append_string_field(out, "interface_id", interface->to_string());
    } else {
        http::append_null_field(out, "interface_id");
    }
    out += '}';
}

void append_transaction_v2(std::string& out, const store::Transaction& tx,
                           DamlValueEncoding encoding) {
    const std::string update_id = tx.update_id().str();
    out += '{';
    append_string_field(out, "update_id", update_id, true);
    append_int_field(out, "migration_id", tx.migration_id);
    append_string_field(out, "workflow_id", tx.workflow_id);
    append_string_field(out, "record_time", model::format_micros(tx.record_time));
    append_string_field(out, "synchronizer_id", tx.synchronizer_id);
    append_string_field(out, "effective_at", model::format_instant(tx.effective_at));
    append_key(out, "root_event_ids");
    append_event_ids(out, update_id, store::roots(tx));
    // events_by_id: a SortedMap of the ids as strings ("u:10" sorts before "u:2").
    std::vector<std::pair<std::string, const store::Node*>> events;
    events.reserve(tx.nodes.size());
    for (const store::Node& node : tx.nodes) {
        events.emplace_back(event_id(update_id, node.node_id), &node);
    }
    std::sort(events.begin(), events.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    append_key(out, "events_by_id");
    out += '{';
    for (std::size_t i = 0; i < events.size(); ++i) {
        const auto& [id, node] = events[i];
        append_key(out, id, i == 0);
        if (const auto* c = std::get_if<store::CreatedNode>(&node->event)) {
            append_created_event(out, *c->contract, id, value_encoding(encoding));
        } else {
            append_exercised_event(out, *store::exercised(*node),
                                   store::children(tx, node->node_id), id, update_id, encoding);
        }
    }
    out += '}';
    // The hash an external party signed, when it was executed by interactive submission;
    // omitted otherwise (OmitNullString).
    if (!tx.external_transaction_hash.empty())
        append_string_field(out, "external_transaction_hash", tx.external_transaction_hash.view());
    out += '}';
}

void append_reassignment(std::string& out, const store::Reassignment& r,
                         DamlValueEncoding encoding) {
    const std::string update_id = r.update_id().str();
    out += '{';
    append_string_field(out, "update_id", update_id, true);
    append_string_field(out, "offset", consistent_offset);
    append_string_field(out, "record_time", model::format_micros(r.record_time));
    append_key(out, "event");
    out += '{';
    append_string_field(out, "submitter", r.submitter, true);
    append_string_field(out, "source_synchronizer", r.source_synchronizer);
    if (r.kind == store::Reassignment::Kind::assign) {
        append_string_field(out, "target_synchronizer", r.target_synchronizer);
        append_int_field(out, "migration_id", r.migration_id);
        append_string_field(out, "unassign_id", r.unassign_id);
        append_key(out, "created_event");
        append_created_event(out, *r.contract, event_id(update_id, 0), value_encoding(encoding));
        append_int_field(out, "reassignment_counter", r.reassignment_counter);
    } else {
        append_int_field(out, "migration_id", r.migration_id);
        append_string_field(out, "target_synchronizer", r.target_synchronizer);
        append_string_field(out, "unassign_id", r.unassign_id);
        append_int_field(out, "reassignment_counter", r.reassignment_counter);
        append_string_field(out, "contract_id", r.contract->contract_id);
    }
    out += "}}";
}

}  // namespace

void append_update_history_item_v2(std::string& out, const store::Update& update,
                                   DamlValueEncoding encoding) {
    if (const auto* tx = std::get_if<store::Transaction>(&update)) {
        append_transaction_v2(out, *tx, encoding);
    } else {
        append_reassignment(out, std::get<store::Reassignment>(update), encoding);
    }
}

}  // namespace cantonlite::areas::scan
