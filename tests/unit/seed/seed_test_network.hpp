#pragma once
// Test helper: a small network for seed tests (wallet users, SVs, a second synchronizer) and
// readers that turn what a seed committed into JSON that tests compare as JSON.

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "cantonlite/seed/seed_loader.hpp"
#include "cantonlite/store/ledger_store.hpp"

namespace cantonlite::seed::seedtest {

using nlohmann::json;

// What a load left: each update's id, the time, the active contracts' ids (two loads of one seed
// compare equal).
struct LoadedState {
    std::vector<std::string> update_ids;
    std::int64_t now = 0;
    std::vector<std::string> active;
    bool operator==(const LoadedState&) const = default;
};

inline LoadedState state_of(const store::LedgerStore& s) {
    LoadedState out{.now = s.now().micros};
    for (store::Offset o = 1; o <= s.ledger_end(); ++o)
        out.update_ids.push_back(store::update_id_of(*s.update_at(o)).str());
    for (const auto& c : s.active_contracts()) out.active.push_back(c->contract_id.str());
    return out;
}

// Party ids, in the order they sort (upper case before lower case).
inline const std::string dso = "DSO::1220aa";
inline const std::string alice = "alice::1220a1";
inline const std::string bob = "bob::1220b0";
inline const std::string carol = "carol::1220c0";  // a user without a wallet
inline const std::string da2 = "digital-asset-2::1220e1";
inline const std::string provider = "provider::1220d0";
inline const std::string sv2 = "sv-2::1220e2";
inline const std::string sv3 = "sv-3::1220e3";
inline const std::string validator = "validator::1220bb";

inline const std::string global_synchronizer = "global-domain::1220f0";
inline const std::string private_synchronizer = "private-synchronizer::1220f1";
inline const std::string participant = "PAR::participant1::1220f2";
inline const std::string start_time = "2025-01-01T00:00:00Z";
inline constexpr std::int64_t start_micros = 1'735'689'600'000'000;  // start_time
inline constexpr std::int64_t second = 1'000'000;

inline json network_json() {
    return {{"dso_party", dso},
            {"svs",
             {{{"name", "Digital-Asset-2"}, {"party", da2}},
              {{"name", "Sv-2"}, {"party", sv2}},
              {{"name", "Sv-3"}, {"party", sv3}}}},
            {"synchronizer_id", global_synchronizer},
            {"other_synchronizers", {private_synchronizer}},
            {"participant_id", participant},
            {"validator_party", validator},
            {"parties", {{"provider", provider}}},
            {"start_time", start_time}};
}

inline json users_json() {
    return {{{"id", "alice"}, {"party", alice}, {"wallet", true}},
            {{"id", "bob"}, {"party", bob}, {"wallet", true}},
            {{"id", "carol"}, {"party", carol}}};
}

// A seed of the test network with `steps`.
inline json seed_with(json steps, json network = network_json()) {
    return {{"network", std::move(network)}, {"users", users_json()}, {"steps", std::move(steps)}};
}

// A braced list of steps is an array: as a json, a one-step list would be that step under clang,
// which takes {x} for a copy of x.
inline json seed_with(std::initializer_list<json> steps, json network = network_json()) {
    return seed_with(json(std::vector<json>(steps)), std::move(network));
}

inline std::unique_ptr<store::LedgerStore> load(const json& document) {
    return load_seed(document, "test-seed");
}

// The transaction at `offset`. REQUIRES: the update there is a transaction.
inline const store::Transaction& transaction_at(const store::LedgerStore& s, store::Offset offset) {
    return std::get<store::Transaction>(*s.update_at(offset));
}

// The update at `offset` as the given alternative. REQUIRES: it is one.
template <typename T>
const T& update_as(const store::LedgerStore& s, store::Offset offset) {
    return std::get<T>(*s.update_at(offset));
}

// The contract created by node `node` of the transaction at `offset`.
inline model::ContractPtr created_at(const store::LedgerStore& s, store::Offset offset, int node) {
    const store::Transaction& tx = transaction_at(s, offset);
    return std::get<store::CreatedNode>(tx.nodes.at(static_cast<std::size_t>(node)).event).contract;
}

inline const store::ExercisedNode& exercised_at(const store::LedgerStore& s, store::Offset offset,
                                                int node) {
    const store::Transaction& tx = transaction_at(s, offset);
    return *store::exercised(tx.nodes.at(static_cast<std::size_t>(node)));
}

// "<package name>:<Module>:<Entity>".
inline std::string template_name(const model::TemplateId& t) {
    return t.package_name + ":" + t.module_name + ":" + t.entity_name;
}

// One node: what it creates (template, signatories, observers) or exercises (choice, template,
// contract, consuming, acting parties, children, last descendant), and its witnesses.
inline json node_json(const store::Transaction& tx, const store::Node& node) {
    if (const auto* c = std::get_if<store::CreatedNode>(&node.event)) {
        return {{"node", node.node_id},
                {"create", template_name(c->contract->template_id())},
                {"signatories", c->contract->signatories},
                {"observers", model::NameSet(c->contract->observers())},
                {"witnesses", node.witnesses}};
    }
    const auto& e = *store::exercised(node);
    return {{"node", node.node_id},
            {"exercise", e.choice},
            {"template", template_name(e.template_id())},
            {"contract", e.contract_id},
            {"consuming", e.consuming},
            {"acting_parties", e.acting_parties},
            {"children", store::children(tx, node.node_id)},
            {"last_descendant", e.last_descendant},
            {"witnesses", node.witnesses}};
}

// The tree of a transaction: its roots and its nodes in pre-order.
inline json tree_json(const store::Transaction& tx) {
    json nodes = json::array();
    for (const store::Node& n : tx.nodes) nodes.push_back(node_json(tx, n));
    return {{"roots", store::roots(tx)}, {"nodes", nodes}};
}

}  // namespace cantonlite::seed::seedtest
