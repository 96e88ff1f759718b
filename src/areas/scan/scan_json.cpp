#include "cantonlite/areas/scan/scan_json.hpp"

#include "cantonlite/http/json_text.hpp"

namespace cantonlite::areas::scan {
namespace {

using http::append_int_field;
using http::append_key;
using http::append_raw_field;
using http::append_string_field;

// The first fields every scan event shares: ids, template and package.
void append_event_head(std::string& out, const model::Contract& c) {
    append_string_field(out, "contract_id", c.contract_id);
    append_string_field(out, "template_id", c.template_id.to_string());
    append_string_field(out, "package_name", c.template_id.package_name);
}

void append_parties(std::string& out, const model::Contract& c) {
    append_key(out, "signatories");
    append_string_array(out, c.signatories);
    append_key(out, "observers");
    append_string_array(out, c.observers);
}

}  // namespace

void append_string_array(std::string& out, const std::vector<std::string>& items) {
    out += '[';
    for (std::size_t i = 0; i < items.size(); ++i) {
        if (i > 0) out += ',';
        http::append_json_string(out, items[i]);
    }
    out += ']';
}

void append_contract(std::string& out, const model::Contract& c) {
    out += '{';
    append_string_field(out, "template_id", c.template_id.to_string(), true);
    append_string_field(out, "contract_id", c.contract_id);
    append_raw_field(out, "payload", c.api_json);
    append_string_field(out, "created_event_blob", model::created_event_blob(c));
    append_string_field(out, "created_at", model::format_instant(c.created_at));
    out += '}';
}

void append_created_event(std::string& out, const model::Contract& c, std::string_view event_id,
                          std::string_view create_arguments) {
    out += '{';
    append_string_field(out, "event_type", "created_event", true);
    append_string_field(out, "event_id", event_id);
    append_event_head(out, c);
    append_raw_field(out, "create_arguments", create_arguments);
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
    append_string_field(out, "template_id", c.template_id.to_string());
    append_string_field(out, "package_name", c.template_id.package_name);
    append_raw_field(out, "create_arguments", c.codegen_json);
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
    append_string_array(out, {event_id});
    append_key(out, "events_by_id");
    out += '{';
    append_key(out, event_id, true);
    append_created_event(out, c, event_id, c.protobuf_json);
    out += "}}";
}

}  // namespace cantonlite::areas::scan
