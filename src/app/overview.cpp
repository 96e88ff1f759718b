#include "cantonlite/app/overview.hpp"

#include <algorithm>
#include <set>
#include <string>
#include <variant>
#include <vector>

#include "cantonlite/model/timestamp.hpp"
#include "cantonlite/model/value_json.hpp"
#include "cantonlite/splice/splice_views.hpp"

namespace cantonlite::app {
namespace {

using nlohmann::json;
using nlohmann::ordered_json;

// The parties whose holdings the page lists: the users', the external parties', the validator's,
// the SVs' and the DSO's, each once, in that order.
std::vector<std::string> listed_parties(const model::Network& n) {
    std::vector<std::string> out;
    std::set<std::string> seen;
    const auto add = [&](const std::string& p) {
        if (!p.empty() && seen.insert(p).second) out.push_back(p);
    };
    for (const model::User& u : n.users) add(u.party);
    for (const auto& [party, key] : n.external_keys) add(party);
    add(n.validator_party);
    for (const model::SuperValidator& sv : n.svs) add(sv.party);
    add(n.dso_party);
    return out;
}

ordered_json rights_json(const model::Network& n) {
    ordered_json out = ordered_json::array();
    for (const model::User& u : n.users) {
        out.push_back(
            {{"user", u.id},
             {"party", u.party},
             {"wallet", u.wallet},
             {"validator", u.validator.empty() ? ordered_json() : ordered_json(u.validator)},
             {"can_act_as", u.rights.can_act_as},
             {"can_read_as", u.rights.can_read_as},
             {"can_read_as_any_party", u.rights.can_read_as_any_party},
             {"participant_admin", u.rights.participant_admin}});
    }
    return out;
}

ordered_json holdings_json(const splice::SpliceViews& views,
                           const std::vector<std::string>& parties, std::size_t limit) {
    ordered_json out = ordered_json::array();
    for (const std::string& party : parties) {
        if (out.size() >= limit) break;
        const auto amulets = views.unlocked_amulets_of(party);
        model::Decimal total;
        for (const model::ContractPtr& c : amulets) {
            total = total + splice::HoldingRow{.contract = c, .owner = model::Name(party)}.amount();
        }
        out.push_back(
            {{"party", party}, {"amulets", amulets.size()}, {"amount", total.to_compact_string()}});
    }
    return out;
}

// What a transaction did, by its root nodes: "Splice.Amulet:Amulet create",
// "Splice.AmuletRules:AmuletRules AmuletRules_Transfer".
ordered_json roots_json(const store::Transaction& tx) {
    ordered_json out = ordered_json::array();
    for (const int id : store::roots(tx)) {
        const store::Node& node = tx.nodes[static_cast<std::size_t>(id)];
        if (const auto* c = store::created(node)) {
            out.push_back(c->contract->template_id().qualified_name() + " create");
        } else if (const auto* e = store::exercised(node)) {
            out.push_back(e->template_id().qualified_name() + " " + e->choice.str());
        }
    }
    return out;
}

ordered_json updates_json(const store::LedgerStore& store, std::size_t limit) {
    ordered_json out = ordered_json::array();
    for (store::Offset o = store.ledger_end(); o >= 1 && out.size() < limit; --o) {
        if (const store::UpdatePtr update = store.update_at(o))
            out.push_back(update_row_json(*update));
    }
    return out;
}

ordered_json offers_json(const splice::SpliceViews& views, const std::vector<std::string>& parties,
                         std::size_t limit) {
    ordered_json out = ordered_json::array();
    std::set<std::string> seen;
    for (const std::string& party : parties) {
        for (const model::ContractPtr& c : views.transfer_offers_of(party)) {
            if (out.size() >= limit) return out;
            if (!seen.insert(c->contract_id.str()).second) continue;
            out.push_back(offer_row_json(*c));
        }
    }
    return out;
}

ordered_json votes_json(const splice::SpliceViews& views, std::size_t limit) {
    ordered_json out = ordered_json::array();
    for (const model::ContractPtr& c : views.active_vote_requests()) {
        if (out.size() >= limit) break;
        const json p = payload_json(*c);
        const json votes = payload_field(p, "/votes");
        // "ARC_DsoRules / SRARC_OffboardSv": the action's tag, and its inner action's when it has
        // one (dsoAction, amuletRulesAction).
        std::string action = payload_field(p, "/action/tag").is_string()
                                 ? p["action"]["tag"].get<std::string>()
                                 : std::string();
        if (const json inner = payload_field(p, "/action/value"); inner.is_object()) {
            for (const auto& [_, v] : inner.items()) {
                if (v.is_object() && v.contains("tag") && v["tag"].is_string()) {
                    action += " / " + v["tag"].get<std::string>();
                }
            }
        }
        out.push_back({{"contract_id", c->contract_id.str()},
                       {"requester", payload_field(p, "/requester")},
                       {"action", action},
                       {"vote_before", payload_field(p, "/voteBefore")},
                       {"votes", votes.is_array() || votes.is_object() ? votes.size() : 0}});
    }
    return out;
}

}  // namespace

json payload_json(const model::Contract& c) {
    json doc = json::parse(model::value_json(c.argument, model::ValueEncoding::api_compressed),
                           nullptr, false);
    return doc.is_discarded() ? json() : doc;
}

json payload_field(const json& payload, const char* pointer) {
    const json::json_pointer path(pointer);
    return payload.contains(path) ? payload.at(path) : json();
}

ordered_json offer_row_json(const model::Contract& offer) {
    const json p = payload_json(offer);
    return {{"contract_id", offer.contract_id.str()},
            {"sender", payload_field(p, "/sender")},
            {"receiver", payload_field(p, "/receiver")},
            {"amount", payload_field(p, "/amount/amount")},
            {"tracking_id", payload_field(p, "/trackingId")},
            {"description", payload_field(p, "/description")},
            {"expires_at", payload_field(p, "/expiresAt")}};
}

ordered_json update_row_json(const store::Update& update) {
    ordered_json entry{{"offset", store::offset_of(update)},
                       {"update_id", store::update_id_of(update).str()},
                       {"record_time", model::format_instant(store::record_time_of(update))}};
    if (const auto* tx = std::get_if<store::Transaction>(&update)) {
        entry["kind"] = "transaction";
        ordered_json submitters = ordered_json::array();
        for (const model::Name& p : tx->submitters.names()) submitters.push_back(p.str());
        entry["submitters"] = submitters;
        entry["roots"] = roots_json(*tx);
    } else if (const auto* r = std::get_if<store::Reassignment>(&update)) {
        entry["kind"] =
            r->kind == store::Reassignment::Kind::assign ? "assignment" : "unassignment";
    } else {
        entry["kind"] = "migration";
    }
    return entry;
}

ordered_json overview_json(const store::LedgerStore& store, const std::string& token_command,
                           std::size_t limit) {
    const model::Network& n = store.network();
    const splice::SpliceViews& views = splice::views(store);
    const std::vector<std::string> parties = listed_parties(n);
    return {{"ledger_end", store.ledger_end()},
            {"ledger_time", model::format_instant(store.now())},
            {"rights", rights_json(n)},
            {"holdings", holdings_json(views, parties, limit)},
            {"updates", updates_json(store, std::min<std::size_t>(limit, 20))},
            {"transfer_offers", offers_json(views, parties, limit)},
            {"vote_requests", votes_json(views, limit)},
            {"token_command", token_command}};
}

}  // namespace cantonlite::app
