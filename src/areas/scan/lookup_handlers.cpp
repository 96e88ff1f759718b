// Vote requests, transfer command counters and ANS entries (splice-behavior.md ops 7-10, scan
// side).
#include <algorithm>
#include <cctype>

#include "cantonlite/areas/scan/scan_handlers.hpp"
#include "cantonlite/areas/scan/scan_json.hpp"
#include "cantonlite/areas/splice_request.hpp"
#include "cantonlite/http/json_text.hpp"
#include "cantonlite/splice/splice_views.hpp"

namespace cantonlite::areas::scan {
namespace {

using http::ApiError;
using http::ErrorKind;

std::string lowercase(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
    return s;
}

// {"entry": AnsEntry} of an entry the DSO provides itself (no contract, no expiry).
std::string dso_provided_entry(const std::string& user, const std::string& name) {
    std::string out = R"({"entry":{"contract_id":null,)";
    http::append_string_field(out, "user", user, true);
    http::append_string_field(out, "name", name);
    out += R"(,"url":"","description":"","expires_at":null}})";
    return out;
}

bool is_sv_entry_name(std::string_view name, std::string_view suffix) {
    if (name.size() <= suffix.size() || !name.ends_with(suffix)) return false;
    const std::string_view label = name.substr(0, name.size() - suffix.size());
    return std::all_of(label.begin(), label.end(),
                       [](unsigned char c) { return std::isalnum(c) || c == '_' || c == '-'; });
}

// {"<key>": ContractWithState}: the contract and the synchronizer it is on (null in flight).
http::Response contract_with_state(std::string_view key, const store::ContractState& state) {
    std::string out = "{";
    http::append_json_string(out, key);
    out += ':';
    append_contract_with_state(out, state);
    out += '}';
    return http::Response::json(200, std::move(out));
}

}  // namespace

http::Response get_vote_request(const Store& store, const Context& ctx) {
    const std::string& id = ctx.params.get("vote_request_contract_id");
    const model::ContractPtr request = splice::views(store).vote_request_by_tracking_cid(id);
    if (!request) throw ApiError(ErrorKind::not_found, "", "No VoteRequest found contract: " + id);
    std::string out = R"({"dso_rules_vote_request":)";
    append_contract(out, *request);
    out += '}';
    return http::Response::json(200, std::move(out));
}

http::Response list_vote_requests(const Store& store, const Context& /*ctx*/) {
    std::string out = R"({"dso_rules_vote_requests":[)";
    bool first = true;
    for (const model::ContractPtr& request : splice::views(store).active_vote_requests()) {
        if (!first) out += ',';
        first = false;
        append_contract(out, *request);
    }
    out += "]}";
    return http::Response::json(200, std::move(out));
}

http::Response get_transfer_command_counter(const Store& store, const Context& ctx) {
    const std::string& party = ctx.params.get("party");
    check_party(party);
    const auto counter = splice::views(store).transfer_command_counter_of(party);
    if (!counter) {
        throw ApiError(
            ErrorKind::not_found, "",
            "No TransferCommandCounter found for party: " + party + ", use 0 for the nonce")
            .as_returned();
    }
    return contract_with_state("transfer_command_counter", *counter);
}

http::Response get_transfer_preapproval(const Store& store, const Context& ctx) {
    const std::string& party = ctx.params.get("party");
    check_party(party);
    const auto preapproval = splice::views(store).transfer_preapproval_of(party);
    if (!preapproval) {
        throw ApiError(ErrorKind::not_found, "", "No TransferPreapproval found for party: " + party)
            .as_returned();
    }
    return contract_with_state("transfer_preapproval", *preapproval);
}

http::Response get_ans_entry_by_name(const Store& store, const Context& ctx) {
    const std::string& name = ctx.params.get("name");
    const model::Network& n = store.network();
    const std::string acronym = lowercase(n.ans_acronym);
    if (name == "dso." + acronym)
        return http::Response::json(200, dso_provided_entry(n.dso_party, name));
    const std::string sv_suffix = ".sv." + acronym;
    if (is_sv_entry_name(name, sv_suffix)) {
        for (const auto& sv : n.svs) {
            if (lowercase(sv.name) + sv_suffix == name)
                return http::Response::json(200, dso_provided_entry(sv.party, name));
        }
    }
    const auto entry = splice::views(store).ans_entry(name, store.now());
    if (!entry) {
        throw ApiError(ErrorKind::not_found, "", "No ans entry found for name: " + name)
            .as_returned();
    }
    std::string out = "{\"entry\":{";
    http::append_string_field(out, "contract_id", entry->contract->contract_id, true);
    http::append_string_field(out, "user", entry->user);
    http::append_string_field(out, "name", entry->name);
    http::append_string_field(out, "url", entry->url);
    http::append_string_field(out, "description", entry->description);
    http::append_string_field(out, "expires_at", model::format_offset_date_time(entry->expires_at));
    out += "}}";
    return http::Response::json(200, std::move(out));
}

}  // namespace cantonlite::areas::scan
