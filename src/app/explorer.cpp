#include "cantonlite/app/explorer.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

#include "cantonlite/app/overview.hpp"
#include "cantonlite/model/timestamp.hpp"
#include "cantonlite/model/value_json.hpp"
#include "cantonlite/splice/splice_views.hpp"

namespace cantonlite::app {
namespace {

using nlohmann::json;
using nlohmann::ordered_json;

// Parties (a NameSet, or a contract's observers) as a list of their ids.
ordered_json names_json(std::span<const model::Name> names) {
    ordered_json out = ordered_json::array();
    for (const model::Name n : names) out.push_back(n.str());
    return out;
}

// A packed value as the Splice apps write a payload, as a document the page can walk; its text
// when that is no JSON document (a text that is not UTF-8).
ordered_json value_doc(const model::PackedValue& v) {
    std::string text = model::value_json(v, model::ValueEncoding::api_compressed);
    ordered_json doc = ordered_json::parse(text, nullptr, false);
    if (doc.is_discarded()) return text;
    return doc;
}

ordered_json node_json(const store::Transaction& tx, int id) {
    const store::Node& node = tx.nodes[static_cast<std::size_t>(id)];
    if (const auto* c = store::created(node)) {
        return {{"node_id", id},
                {"kind", "created"},
                {"contract_id", c->contract->contract_id.str()},
                {"template", c->contract->template_id().qualified_name()},
                {"signatories", names_json(c->contract->signatories)},
                {"observers", names_json(c->contract->observers())},
                {"argument", value_doc(c->contract->argument)}};
    }
    const store::ExercisedNode& e = *store::exercised(node);
    ordered_json children = ordered_json::array();
    for (const int child : store::children(tx, id)) children.push_back(node_json(tx, child));
    ordered_json out{{"node_id", id},
                     {"kind", "exercised"},
                     {"contract_id", e.contract_id.str()},
                     {"template", e.template_id().qualified_name()}};
    if (const auto i = e.interface_id()) out["interface"] = i->qualified_name();
    out["choice"] = e.choice.str();
    out["consuming"] = e.consuming;
    out["acting_parties"] = names_json(e.acting_parties);
    out["argument"] = value_doc(e.choice_argument);
    out["result"] = value_doc(e.exercise_result);
    out["children"] = std::move(children);
    return out;
}

std::optional<store::Offset> offset_of_key(const store::LedgerStore& store, std::string_view key) {
    if (!key.empty() && key.size() <= 18 &&
        std::all_of(key.begin(), key.end(), [](char c) { return c >= '0' && c <= '9'; })) {
        const store::Offset o = std::stoll(std::string(key));
        if (o >= 1 && o <= store.ledger_end()) return o;
        return std::nullopt;
    }
    return store.offset_of_update(key);
}

ordered_json update_json(const store::LedgerStore& store, std::string_view key) {
    const std::optional<store::Offset> offset = offset_of_key(store, key);
    const store::UpdatePtr update = offset ? store.update_at(*offset) : nullptr;
    if (!update) return nullptr;
    ordered_json out = update_row_json(*update);
    if (const auto* tx = std::get_if<store::Transaction>(update.get())) {
        out["effective_at"] = model::format_instant(tx->effective_at);
        out["command_id"] = tx->command_id.str();
        out["workflow_id"] = tx->workflow_id.str();
        out["synchronizer_id"] = tx->synchronizer_id.str();
        if (!tx->external_transaction_hash.view().empty())
            out["external_transaction_hash"] = tx->external_transaction_hash.str();
        ordered_json events = ordered_json::array();
        for (const int root : store::roots(*tx)) events.push_back(node_json(*tx, root));
        out["events"] = std::move(events);
    } else if (const auto* r = std::get_if<store::Reassignment>(update.get())) {
        out["contract_id"] = r->contract->contract_id.str();
        out["template"] = r->contract->template_id().qualified_name();
        out["submitter"] = r->submitter.str();
        out["source_synchronizer"] = r->source_synchronizer.str();
        out["target_synchronizer"] = r->target_synchronizer.str();
        out["reassignment_counter"] = r->reassignment_counter;
    }
    return out;
}

ordered_json where_json(const store::LedgerStore& store, store::Offset offset) {
    return {{"offset", offset}, {"update_id", store.update_id_for(offset)}};
}

ordered_json contract_json(const store::LedgerStore& store, std::string_view id) {
    const std::optional<store::ContractState> state = store.contract(id);
    if (!state) return nullptr;
    const model::Contract& c = *state->contract;
    ordered_json created = where_json(store, state->created_offset());
    created["at"] = model::format_instant(c.created_at);
    const auto archived = state->archived_offset();
    return {{"contract_id", c.contract_id.str()},
            {"template", c.template_id().qualified_name()},
            {"package", c.template_id().package_name.str()},
            {"signatories", names_json(c.signatories)},
            {"observers", names_json(c.observers())},
            {"argument", value_doc(c.argument)},
            {"created", std::move(created)},
            {"archived", archived ? where_json(store, *archived) : ordered_json()}};
}

// The party `key` names: a party of the network, a user's id (its party) or an alias.
std::optional<std::string> party_of_key(const model::Network& n, std::string_view key) {
    if (key.empty()) return std::nullopt;
    for (const model::User& u : n.users) {
        if (u.party == key) return u.party;
    }
    for (const model::User& u : n.users) {
        if (u.id == key && !u.party.empty()) return u.party;
    }
    if (const auto it = n.parties.find(std::string(key)); it != n.parties.end()) return it->second;
    // Any other party that some contract or update names (an interned Name).
    if (key.find("::") != std::string_view::npos && model::Name::find(key)) return std::string(key);
    return std::nullopt;
}

// A list of at most `limit` entries, and how many there were.
struct Listed {
    ordered_json entries = ordered_json::array();
    std::size_t total = 0;

    // `entry()` makes the entry, only when it is listed.
    template <typename Entry>
    void add(std::size_t limit, const Entry& entry) {
        if (total++ < limit) entries.push_back(entry());
    }
    [[nodiscard]] ordered_json done() && {
        return {{"total", total}, {"entries", std::move(entries)}};
    }
};

// Whether `party` saw `update`: a witness of one of its nodes, or a stakeholder of the contract
// it moved.
bool saw(const store::Update& update, model::Name party) {
    if (const auto* tx = std::get_if<store::Transaction>(&update)) {
        return std::any_of(tx->nodes.begin(), tx->nodes.end(),
                           [&](const store::Node& n) { return n.witnesses.contains(party); });
    }
    if (const auto* r = std::get_if<store::Reassignment>(&update))
        return r->contract->stakeholders.contains(party);
    return false;
}

ordered_json party_json(const store::LedgerStore& store, std::string_view key, std::size_t limit,
                        std::size_t scan) {
    const model::Network& n = store.network();
    const std::optional<std::string> party = party_of_key(n, key);
    if (!party) return nullptr;
    const std::optional<model::Name> name = model::Name::find(*party);
    const splice::SpliceViews& views = splice::views(store);

    Listed holdings;
    model::Decimal total;
    for (const model::ContractPtr& c : views.unlocked_amulets_of(*party)) {
        const splice::HoldingRow row{.contract = c, .owner = model::Name(*party)};
        const model::Decimal amount = row.amount();
        total = total + amount;
        holdings.add(limit, [&] {
            return ordered_json{{"contract_id", c->contract_id.str()},
                                {"amount", amount.to_compact_string()},
                                {"created_round", row.created_round()},
                                {"created_at", model::format_instant(c->created_at)}};
        });
    }
    Listed offers;
    for (const model::ContractPtr& c : views.transfer_offers_of(*party))
        offers.add(limit, [&] { return offer_row_json(*c); });

    // The other active contracts the party is a stakeholder of, in one pass.
    std::vector<model::ContractPtr> mine;
    if (name) {
        store.visit_created(0, [&](std::uint64_t, const store::ContractState& s) {
            if (!s.archived_offset() && s.contract->stakeholders.contains(*name))
                mine.push_back(s.contract);
            return true;
        });
    }
    Listed locked;
    Listed instructions;
    Listed ans;
    std::map<std::string, std::size_t> others;
    for (const model::ContractPtr& c : mine) {
        std::string tpl = c->template_id().qualified_name();
        const bool is_locked = tpl == "Splice.Amulet:LockedAmulet";
        const bool is_instruction =
            tpl == "Splice.AmuletTransferInstruction:AmuletTransferInstruction";
        const bool is_ans = tpl == "Splice.Ans:AnsEntry";
        if (!is_locked && !is_instruction && !is_ans) {
            // Amulets and TransferOffers are listed above, by their own indexes.
            if (tpl != "Splice.Amulet:Amulet" && tpl != "Splice.Wallet.TransferOffer:TransferOffer")
                ++others[std::move(tpl)];
            continue;
        }
        const json p = payload_json(*c);
        if (is_locked && payload_field(p, "/amulet/owner") == *party) {
            locked.add(limit, [&] {
                return ordered_json{{"contract_id", c->contract_id.str()},
                                    {"amount", payload_field(p, "/amulet/amount/initialAmount")},
                                    {"holders", payload_field(p, "/lock/holders")},
                                    {"expires_at", payload_field(p, "/lock/expiresAt")}};
            });
        } else if (is_instruction && (payload_field(p, "/transfer/sender") == *party ||
                                      payload_field(p, "/transfer/receiver") == *party)) {
            instructions.add(limit, [&] {
                return ordered_json{
                    {"contract_id", c->contract_id.str()},
                    {"sender", payload_field(p, "/transfer/sender")},
                    {"receiver", payload_field(p, "/transfer/receiver")},
                    {"amount", payload_field(p, "/transfer/amount")},
                    {"execute_before", payload_field(p, "/transfer/executeBefore")}};
            });
        } else if (is_ans && payload_field(p, "/user") == *party) {
            ans.add(limit, [&] {
                return ordered_json{{"contract_id", c->contract_id.str()},
                                    {"name", payload_field(p, "/name")},
                                    {"url", payload_field(p, "/url")},
                                    {"expires_at", payload_field(p, "/expiresAt")}};
            });
        } else {
            ++others[std::move(tpl)];
        }
    }
    ordered_json other = ordered_json::array();
    for (const auto& [tpl, count] : others) other.push_back({{"template", tpl}, {"count", count}});

    // Its latest updates, from the ledger end back.
    ordered_json updates = ordered_json::array();
    std::size_t scanned = 0;
    if (name) {
        for (store::Offset o = store.ledger_end();
             o >= 1 && updates.size() < limit && scanned < scan; --o, ++scanned) {
            const store::UpdatePtr u = store.update_at(o);
            if (u && saw(*u, *name)) updates.push_back(update_row_json(*u));
        }
    }
    ordered_json holdings_out = std::move(holdings).done();
    holdings_out["amount"] = total.to_compact_string();
    return {{"party", *party},
            {"holdings", std::move(holdings_out)},
            {"locked", std::move(locked).done()},
            {"transfer_offers", std::move(offers).done()},
            {"transfer_instructions", std::move(instructions).done()},
            {"ans_entries", std::move(ans).done()},
            {"other_contracts", std::move(other)},
            {"updates", std::move(updates)},
            {"updates_scanned", scanned}};
}

ordered_json search_json(const store::LedgerStore& store, std::string_view q) {
    while (!q.empty() && q.front() == ' ') q.remove_prefix(1);
    while (!q.empty() && q.back() == ' ') q.remove_suffix(1);
    if (q.empty()) return nullptr;
    if (offset_of_key(store, q)) return {{"kind", "update"}, {"id", std::string(q)}};
    if (store.contract(q)) return {{"kind", "contract"}, {"id", std::string(q)}};
    if (const auto party = party_of_key(store.network(), q))
        return {{"kind", "party"}, {"id", *party}};
    return nullptr;
}

}  // namespace

ordered_json explore_json(const store::LedgerStore& store, std::string_view what,
                          std::string_view key, std::size_t limit, std::size_t scan) {
    if (what == "update") return update_json(store, key);
    if (what == "contract") return contract_json(store, key);
    if (what == "party") return party_json(store, key, limit, scan);
    if (what == "search") return search_json(store, key);
    throw std::invalid_argument("nothing to explore as '" + std::string(what) + "'");
}

std::optional<std::string> explore_text(const store::LedgerStore& store, std::string_view what,
                                        std::string_view key) {
    const ordered_json found = explore_json(store, what, key);
    if (found.is_null()) return std::nullopt;
    return found.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace cantonlite::app
