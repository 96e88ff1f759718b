// Dispatch of seed steps, their shared helpers, and the bootstrap transaction.
#include <algorithm>
#include <map>

#include "cantonlite/splice/payloads.hpp"
#include "steps.hpp"

namespace cantonlite::seed {
namespace {

using StepFunction = void (*)(SeedContext&, const JsonObject&);

const std::map<std::string_view, StepFunction>& step_kinds() {
    static const std::map<std::string_view, StepFunction> kinds{
        {"mint", mint},
        {"lock", lock},
        {"unlock", unlock},
        {"transfer", transfer},
        {"create_transfer_offer", create_transfer_offer},
        {"accept_transfer_offer", accept_transfer_offer},
        {"withdraw_transfer_offer", withdraw_transfer_offer},
        {"expire_transfer_offer", expire_transfer_offer},
        {"create_buy_traffic_request", create_buy_traffic_request},
        {"complete_buy_traffic_request", complete_buy_traffic_request},
        {"cancel_buy_traffic_request", cancel_buy_traffic_request},
        {"expire_buy_traffic_request", expire_buy_traffic_request},
        {"register_ans_entry", register_ans_entry},
        {"renew_ans_entry", renew_ans_entry},
        {"request_vote", request_vote},
        {"cast_vote", cast_vote},
        {"close_vote", close_vote},
        {"transfer_command", transfer_command},
        {"create_transfer_preapproval", create_transfer_preapproval},
        {"create_transfer_instruction", create_transfer_instruction},
        {"feature_app", feature_app},
        {"open_mining_round", open_mining_round},
        {"add_party", add_party},
        {"add_user", add_user},
        {"grant_rights", grant_rights},
        {"create_user", create_user},
        {"delete_user", delete_user},
        {"grant_user_rights", grant_user_rights},
        {"revoke_user_rights", revoke_user_rights},
        {"update_user", update_user},
        {"reassign", reassign},
        {"unassign", unassign},
        {"assign", assign},
        {"migrate", migrate},
        {"snapshot", snapshot},
        {"advance_time", advance_time},
        {"transaction", raw_transaction},
        {"submit", submit_commands},
        {"execute", execute_prepared},
    };
    return kinds;
}

bool allowed_by(Commits commits, std::string_view key) {
    if (key == "step") return true;
    if (commits == Commits::nothing) return false;
    if (key == "at") return true;
    return commits == Commits::transaction && (key == "command_id" || key == "workflow_id");
}

}  // namespace

void run_step(SeedContext& ctx, const JsonObject& step) {
    const std::string kind = step.string("step");
    const auto it = step_kinds().find(kind);
    if (it == step_kinds().end()) {
        std::string known;
        for (const auto& [name, _] : step_kinds())
            known += (known.empty() ? "" : ", ") + std::string(name);
        throw model::JsonFieldError(step.pointer_of("step"),
                                    "unknown step kind '" + kind + "' (one of " + known + ")");
    }
    it->second(ctx, step);
}

void allow_keys(const JsonObject& step, Commits commits,
                std::initializer_list<std::string_view> own) {
    for (const auto& [key, _] : step.value().items()) {
        const bool mine = std::find(own.begin(), own.end(), key) != own.end();
        if (!mine && !allowed_by(commits, key))
            throw model::JsonFieldError(step.pointer_of(key), "unknown key");
    }
}

model::Decimal decimal_field(const JsonObject& o, std::string_view key, bool positive) {
    if (!o.has(key)) throw model::JsonFieldError(o.pointer_of(key), "is required");
    const nlohmann::json& v = o.value().at(std::string(key));
    const auto d =
        v.is_string() ? model::Decimal::parse(v.get_ref<const std::string&>()) : std::nullopt;
    if (!d) {
        throw model::JsonFieldError(o.pointer_of(key),
                                    "must be a decimal string such as \"100.5\" with at most "
                                    "10 decimals, got " +
                                        model::describe_json(v));
    }
    if (positive && *d <= model::Decimal())
        throw model::JsonFieldError(o.pointer_of(key), "must be positive");
    return *d;
}

model::Decimal optional_decimal(const JsonObject& o, std::string_view key,
                                model::Decimal fallback) {
    return o.has(key) ? decimal_field(o, key, true) : fallback;
}

std::string text_or_empty(const JsonObject& o, std::string_view key) {
    if (!o.has(key)) return "";
    const nlohmann::json& v = o.value().at(std::string(key));
    if (!v.is_string())
        throw model::JsonFieldError(o.pointer_of(key),
                                    "must be a string, got " + model::describe_json(v));
    return v.get<std::string>();
}

bool bool_field(const JsonObject& o, std::string_view key) {
    if (!o.has(key)) throw model::JsonFieldError(o.pointer_of(key), "is required");
    const nlohmann::json& v = o.value().at(std::string(key));
    if (!v.is_boolean()) throw model::JsonFieldError(o.pointer_of(key), "must be true or false");
    return v.get<bool>();
}

std::string party_id(const JsonObject& o, std::string_view key) {
    const std::string p = o.string(key);
    const std::size_t sep = p.find("::");
    if (sep == std::string::npos || sep == 0 || sep + 2 == p.size()) {
        throw model::JsonFieldError(
            o.pointer_of(key), "must be a party id such as \"alice::1220ab…\", got \"" + p + "\"");
    }
    return p;
}

std::string wallet_validator(const JsonObject& u, bool wallet) {
    if (!u.has("validator")) return {};
    std::string role = u.string("validator");
    const auto& known = model::localnet_validators;
    if (std::find(known.begin(), known.end(), role) == known.end()) {
        throw model::JsonFieldError(u.pointer_of("validator"),
                                    "must be a LocalNet validator: \"app-user\", "
                                    "\"app-provider\" or \"sv\", got \"" +
                                        role + "\"");
    }
    if (!wallet) {
        throw model::JsonFieldError(
            u.pointer_of("validator"),
            "names the validator of a wallet: the user needs \"wallet\": true");
    }
    return role;
}

model::LedgerRights parse_rights(const JsonObject& u, const Party& party,
                                 const PartyDirectory& directory) {
    model::LedgerRights out;
    const auto rights = u.optional_object("rights");
    if (!rights) {
        out.can_act_as = {party};
        return out;
    }
    rights->reject_unknown_keys(
        {"can_act_as", "can_read_as", "can_read_as_any_party", "participant_admin"});
    const auto resolve = [&](std::string_view key) {
        std::vector<std::string> parties;
        if (!rights->has(key)) return parties;
        const nlohmann::json& list = rights->value().at(std::string(key));
        if (!list.is_array()) {
            throw model::JsonFieldError(rights->pointer_of(key), "must be an array of strings");
        }
        for (std::size_t k = 0; k < list.size(); ++k) {
            const std::string pointer = rights->pointer_of(key) + "/" + std::to_string(k);
            if (!list[k].is_string() || list[k].get_ref<const std::string&>().empty()) {
                throw model::JsonFieldError(pointer, "must be a non-empty string");
            }
            parties.push_back(directory.resolve(list[k], pointer));
        }
        return parties;
    };
    out.can_act_as = resolve("can_act_as");
    out.can_read_as = resolve("can_read_as");
    if (rights->has("can_read_as_any_party")) {
        out.can_read_as_any_party = bool_field(*rights, "can_read_as_any_party");
    }
    if (rights->has("participant_admin")) {
        out.participant_admin = bool_field(*rights, "participant_admin");
    }
    return out;
}

std::string step_prefix(std::size_t index, const nlohmann::json& step) {
    const std::string kind = step.is_object() && step.contains("step") && step["step"].is_string()
                                 ? step["step"].get<std::string>()
                                 : "?";
    return "step " + std::to_string(index) + " (" + kind + "): ";
}

const model::Value& field_at(const model::Value& v, std::initializer_list<std::string_view> path,
                             const std::string& pointer) {
    const model::Value* cur = &v;
    for (const std::string_view label : path) {
        cur = cur->kind == model::Value::Kind::record ? cur->field(label) : nullptr;
        if (cur == nullptr) {
            throw model::JsonFieldError(
                pointer, "the contract's argument has no field " + std::string(label));
        }
    }
    return *cur;
}

store::CreateDraft wallet_install(const model::Network& n, const std::string& user_id,
                                  const Party& party) {
    namespace p = splice::payloads;
    store::CreateDraft draft{
        .template_id = p::wallet_app_install(n),
        .argument = p::wallet_app_install_value(n.dso_party, n.validator_party, user_id, party),
        .signatories = {n.validator_party}};
    if (party != n.validator_party) draft.signatories.push_back(party);
    return draft;
}

void bootstrap(SeedContext& ctx) {
    namespace p = splice::payloads;
    const model::Network& n = ctx.network();
    static const nlohmann::json no_ids = nlohmann::json::object();  // no command or workflow id
    auto d = ctx.draft(JsonObject(no_ids, ""), {n.dso_party, n.validator_party}, ctx.start_time);
    const int dso_rules = d.add(-1, store::CreateDraft{.template_id = p::dso_rules(n),
                                                       .argument = p::dso_rules_value(n),
                                                       .signatories = {n.dso_party}});
    const int amulet_rules =
        d.add(-1, store::CreateDraft{.template_id = p::amulet_rules(n),
                                     .argument = p::amulet_rules_value(n.dso_party),
                                     .signatories = {n.dso_party}});
    const int external =
        d.add(-1, store::CreateDraft{.template_id = p::external_party_amulet_rules(n),
                                     .argument = p::external_party_amulet_rules_value(n.dso_party),
                                     .signatories = {n.dso_party}});
    std::vector<std::pair<std::string, int>> installs;
    for (const auto& u : n.users) {
        if (!u.wallet) continue;
        installs.emplace_back(u.party, d.add(-1, wallet_install(n, u.id, u.party)));
    }
    ctx.commit(d);
    ctx.dso_rules = d.contract_id_of(dso_rules);
    ctx.amulet_rules = d.contract_id_of(amulet_rules);
    ctx.external_party_amulet_rules = d.contract_id_of(external);
    for (const auto& [party, node] : installs) ctx.wallet_installs[party] = d.contract_id_of(node);
}

}  // namespace cantonlite::seed
