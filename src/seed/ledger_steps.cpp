// Synchronizer, migration, time and raw-transaction steps (docs/seed-format.md).
#include <algorithm>
#include <set>

#include "cantonlite/splice/payloads.hpp"
#include "steps.hpp"

namespace cantonlite::seed {
namespace {

using store::CreateDraft;
using store::ExerciseDraft;

using model::micros_per_second;

// The step's submitter, or the contract's first signatory.
Party submitter(const SeedContext& ctx, const JsonObject& s, const std::string& cid) {
    if (s.has("submitter")) return ctx.party(s, "submitter");
    const auto state = ctx.store().contract(cid);
    return state ? state->contract->signatories.front().str() : ctx.network().dso_party;
}

// Throws at the step's "to" unless it names a synchronizer of the network.
void check_synchronizer(const SeedContext& ctx, const JsonObject& s) {
    const std::string to = s.string("to");
    const auto& others = ctx.network().other_synchronizers;
    if (to != ctx.network().synchronizer_id &&
        std::find(others.begin(), others.end(), to) == others.end()) {
        throw model::JsonFieldError(s.pointer_of("to"), "unknown synchronizer " + to);
    }
}

// "<package name>:<Module>:<Entity>", or "<package id>:<Module>:<Entity>" with `package_name`.
model::TemplateId template_field(const SeedContext& ctx, const JsonObject& o,
                                 std::string_view key) {
    const std::string text = o.string(key);
    const std::size_t first = text.find(':');
    const std::size_t last = text.rfind(':');
    if (first == std::string::npos || first == last || first == 0 || last + 1 == text.size()) {
        throw model::JsonFieldError(o.pointer_of(key),
                                    "must be <package>:<Module>:<Entity>, got \"" + text + "\"");
    }
    const std::string package = text.substr(0, first);
    std::string module_name = text.substr(first + 1, last - first - 1);
    std::string entity = text.substr(last + 1);
    const auto& ids = ctx.network().package_ids;
    if (const auto it = ids.find(package); it != ids.end()) {
        return model::TemplateId{.package_id = model::Name(it->second),
                                 .module_name = model::Name(module_name),
                                 .entity_name = model::Name(entity),
                                 .package_name = model::Name(package)};
    }
    if (!o.has("package_name")) {
        throw model::JsonFieldError(o.pointer_of(key),
                                    "unknown package '" + package +
                                        "' (name it in network.packages, or give package_name)");
    }
    return model::TemplateId{.package_id = model::Name(package),
                             .module_name = model::Name(module_name),
                             .entity_name = model::Name(entity),
                             .package_name = model::Name(o.string("package_name"))};
}

Value optional_typed(const SeedContext& ctx, const JsonObject& o, std::string_view key,
                     Value fallback) {
    if (!o.has(key)) return fallback;
    return typed_value(ctx, o.value().at(std::string(key)), o.pointer_of(key));
}

void add_nodes(SeedContext& ctx, store::TransactionDraft& d, int parent,
               const nlohmann::json& nodes, const std::string& pointer,
               std::vector<std::pair<std::string, int>>& labels) {
    if (!nodes.is_array()) throw model::JsonFieldError(pointer, "must be an array of nodes");
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        const JsonObject node(nodes[i], pointer + "/" + std::to_string(i));
        node.reject_unknown_keys({"create", "exercise"});
        if (node.has("create") == node.has("exercise")) {
            throw model::JsonFieldError(node.pointer(),
                                        "must have exactly one of create and exercise");
        }
        if (const auto c = node.optional_object("create")) {
            c->reject_unknown_keys(
                {"template", "package_name", "argument", "signatories", "observers", "as"});
            if (!c->has("argument"))
                throw model::JsonFieldError(c->pointer_of("argument"), "is required");
            if (ctx.parties(*c, "signatories").empty()) {
                throw model::JsonFieldError(c->pointer_of("signatories"),
                                            "a contract needs at least one signatory");
            }
            const int id =
                d.add(parent, CreateDraft{.template_id = template_field(ctx, *c, "template"),
                                          .argument = typed_value(ctx, c->value().at("argument"),
                                                                  c->pointer_of("argument")),
                                          .signatories = ctx.parties(*c, "signatories"),
                                          .observers = ctx.parties(*c, "observers")});
            if (const auto label = c->optional_string("as")) labels.emplace_back(*label, id);
            continue;
        }
        const JsonObject e = node.object("exercise");
        e.reject_unknown_keys({"contract", "template", "package_name", "interface", "choice",
                               "consuming", "acting_parties", "argument", "result", "children"});
        ExerciseDraft draft{
            .contract_id = ctx.contract(e, "contract"),
            .template_id = template_field(ctx, e, "template"),
            .choice = e.string("choice"),
            .argument = optional_typed(ctx, e, "argument", splice::payloads::empty_record()),
            .consuming = bool_field(e, "consuming"),
            .acting_parties = ctx.parties(e, "acting_parties"),
            .result = optional_typed(ctx, e, "result", Value::unit())};
        if (e.has("interface")) draft.interface_id = template_field(ctx, e, "interface");
        ctx.check_usable(draft.contract_id, e.pointer_of("contract"));
        const model::TemplateId& actual =
            ctx.store().contract(draft.contract_id)->contract->template_id();
        if (!draft.interface_id && !actual.same_template(draft.template_id)) {
            throw model::JsonFieldError(e.pointer_of("template"),
                                        "contract " + draft.contract_id + " is a " +
                                            actual.qualified_name() + ", not a " +
                                            draft.template_id.qualified_name());
        }
        const int id = d.add(parent, std::move(draft));
        if (e.has("children"))
            add_nodes(ctx, d, id, e.value().at("children"), e.pointer_of("children"), labels);
    }
}

}  // namespace

void reassign(SeedContext& ctx, const JsonObject& s) {
    allow_keys(s, Commits::update, {"contract", "to", "submitter"});
    const std::string cid = ctx.contract(s, "contract");
    check_synchronizer(ctx, s);
    const Party by = submitter(ctx, s, cid);
    const Timestamp t = ctx.step_time(s);
    const Timestamp assigned{t.micros + micros_per_second};
    ctx.snapshots_until(t, false);
    ctx.store().unassign(cid, s.string("to"), by, t);
    ctx.snapshots_until(assigned, false);  // an interval snapshot at t sees the contract in flight
    ctx.store().assign(cid, by, assigned);
}

void unassign(SeedContext& ctx, const JsonObject& s) {
    allow_keys(s, Commits::update, {"contract", "to", "submitter"});
    const std::string cid = ctx.contract(s, "contract");
    check_synchronizer(ctx, s);
    const Timestamp t = ctx.step_time(s);
    ctx.snapshots_until(t, false);
    ctx.store().unassign(cid, s.string("to"), submitter(ctx, s, cid), t);
}

void assign(SeedContext& ctx, const JsonObject& s) {
    allow_keys(s, Commits::update, {"contract", "submitter"});
    const std::string cid = ctx.contract(s, "contract");
    const auto state = ctx.store().contract(cid);
    if (!state || state->archived_offset() || !state->synchronizer_id.empty()) {
        throw model::JsonFieldError(s.pointer_of("contract"),
                                    "contract " + cid + " is not in flight");
    }
    const Timestamp t = ctx.step_time(s);
    ctx.snapshots_until(t, false);
    ctx.store().assign(cid, submitter(ctx, s, cid), t);
}

void migrate(SeedContext& ctx, const JsonObject& s) {
    allow_keys(s, Commits::update, {});
    const Timestamp t = ctx.step_time(s);
    ctx.snapshots_until(t, false);
    ctx.store().migrate(t);
}

void snapshot(SeedContext& ctx, const JsonObject& s) {
    allow_keys(s, Commits::update, {});
    ctx.snapshot_at(ctx.step_time(s), s.has("at") ? s.pointer_of("at") : s.pointer());
}

void advance_time(SeedContext& ctx, const JsonObject& s) {
    allow_keys(s, Commits::nothing, {"to", "by_seconds"});
    if (s.has("to") == s.has("by_seconds")) {
        throw model::JsonFieldError(s.pointer(), "needs exactly one of to and by_seconds");
    }
    const Timestamp now = ctx.store().now();
    const Timestamp t =
        s.has("to") ? s.timestamp("to")
                    : Timestamp{now.micros + s.integer("by_seconds", 0, std::int64_t{1} << 40) *
                                                 micros_per_second};
    if (t < now) {
        throw model::JsonFieldError(s.pointer_of("to"),
                                    "time goes backwards: " + model::format_instant(t) +
                                        " is before the ledger time " + model::format_instant(now));
    }
    ctx.snapshots_until(t, false);
    ctx.store().advance_time(t);
}

void raw_transaction(SeedContext& ctx, const JsonObject& s) {
    allow_keys(s, Commits::transaction, {"submitters", "nodes"});
    std::vector<Party> submitters = ctx.parties(s, "submitters");
    if (submitters.empty())
        throw model::JsonFieldError(s.pointer_of("submitters"), "needs at least one party");
    if (!s.has("nodes")) throw model::JsonFieldError(s.pointer_of("nodes"), "is required");
    auto d = ctx.draft(s, std::move(submitters), ctx.step_time(s));
    std::vector<std::pair<std::string, int>> labels;
    add_nodes(ctx, d, -1, s.value().at("nodes"), s.pointer_of("nodes"), labels);
    ctx.commit(d);
    for (const auto& [label, node] : labels) ctx.set_label(label, d.contract_id_of(node));
}

Value typed_value(const SeedContext& ctx, const nlohmann::json& v, const std::string& pointer) {
    if (!v.is_object() || v.size() != 1) {
        throw model::JsonFieldError(
            pointer,
            "must be a typed value such as {\"text\": \"x\"}, got " + model::describe_json(v));
    }
    // Not a structured binding: the lambdas below capture `body` (clang 14 cannot).
    const auto item = v.items().begin();
    const std::string& kind = item.key();
    const nlohmann::json& body = item.value();
    const std::string at = pointer + "/" + kind;
    const auto str = [&]() -> const std::string& {
        if (!body.is_string())
            throw model::JsonFieldError(at, "must be a string, got " + model::describe_json(body));
        return body.get_ref<const std::string&>();
    };
    const auto object = [&]() { return JsonObject(body, at); };
    if (kind == "unit") return Value::unit();
    if (kind == "bool") {
        if (!body.is_boolean()) throw model::JsonFieldError(at, "must be true or false");
        return Value::boolean(body.get<bool>());
    }
    if (kind == "text") return Value::text_value(str());
    if (kind == "party") return Value::party(ctx.resolve_party(body, at));
    if (kind == "contractId") return Value::contract_id(ctx.resolve_contract(body, at));
    if (kind == "int64") {
        if (body.is_number_integer()) return Value::int64(body.get<std::int64_t>());
        try {
            std::size_t used = 0;
            const long long n = std::stoll(str(), &used);
            if (used == str().size()) return Value::int64(n);
        } catch (const std::exception&) {
        }
        throw model::JsonFieldError(at, "must be an integer string such as \"12\"");
    }
    if (kind == "numeric") {
        const auto d = body.is_number_integer()
                           ? model::Decimal::parse(std::to_string(body.get<std::int64_t>()))
                           : model::Decimal::parse(str());
        if (!d) throw model::JsonFieldError(at, "must be a decimal string such as \"1.5\"");
        return Value::numeric(*d);
    }
    if (kind == "timestamp") {
        const auto t = model::parse_timestamp(str());
        if (!t) throw model::JsonFieldError(at, "must be an RFC 3339 date-time");
        return Value::timestamp(*t);
    }
    if (kind == "date") {
        const auto t = model::parse_timestamp(str() + "T00:00:00Z");
        if (!t) throw model::JsonFieldError(at, "must be a date such as \"2025-01-31\"");
        return Value::date(t->micros / (86'400 * micros_per_second));
    }
    if (kind == "optional") {
        const JsonObject o = object();
        o.reject_unknown_keys({"value"});
        if (!o.has("value")) return Value::none();
        return Value::some(typed_value(ctx, body.at("value"), o.pointer_of("value")));
    }
    if (kind == "enum") {
        const JsonObject o = object();
        o.reject_unknown_keys({"constructor"});
        return Value::enumeration(o.string("constructor"));
    }
    if (kind == "variant") {
        const JsonObject o = object();
        o.reject_unknown_keys({"constructor", "value"});
        if (!o.has("value")) throw model::JsonFieldError(o.pointer_of("value"), "is required");
        return Value::variant(o.string("constructor"),
                              typed_value(ctx, body.at("value"), o.pointer_of("value")));
    }
    const auto array = [&](std::string_view key) -> std::pair<const nlohmann::json*, std::string> {
        const JsonObject o = object();
        o.reject_unknown_keys({key});
        static const nlohmann::json empty = nlohmann::json::array();
        if (!o.has(key)) return {&empty, o.pointer_of(key)};
        const nlohmann::json& a = body.at(std::string(key));
        if (!a.is_array()) throw model::JsonFieldError(o.pointer_of(key), "must be an array");
        return {&a, o.pointer_of(key)};
    };
    if (kind == "list") {
        const auto [elements, where] = array("elements");
        std::vector<Value> out;
        for (std::size_t i = 0; i < elements->size(); ++i) {
            out.push_back(typed_value(ctx, (*elements)[i], where + "/" + std::to_string(i)));
        }
        return Value::list(std::move(out));
    }
    if (kind == "record" || kind == "textMap" || kind == "genMap") {
        const auto [entries, where] = array(kind == "record" ? "fields" : "entries");
        std::vector<std::pair<std::string, Value>> labelled;
        std::vector<std::pair<Value, Value>> pairs;
        std::set<std::string> seen;
        for (std::size_t i = 0; i < entries->size(); ++i) {
            const JsonObject e((*entries)[i], where + "/" + std::to_string(i));
            const std::string key_name = kind == "record" ? "label" : "key";
            e.reject_unknown_keys({key_name, "value"});
            if (!e.has("value")) throw model::JsonFieldError(e.pointer_of("value"), "is required");
            Value value = typed_value(ctx, (*entries)[i].at("value"), e.pointer_of("value"));
            if (kind == "genMap") {
                if (!e.has("key")) throw model::JsonFieldError(e.pointer_of("key"), "is required");
                pairs.emplace_back(typed_value(ctx, (*entries)[i].at("key"), e.pointer_of("key")),
                                   std::move(value));
                continue;
            }
            const std::string label = e.string(key_name);
            if (!seen.insert(label).second)
                throw model::JsonFieldError(e.pointer_of(key_name), "appears twice");
            labelled.emplace_back(label, std::move(value));
        }
        if (kind == "genMap") return Value::gen_map(std::move(pairs));
        return kind == "record" ? Value::record(std::move(labelled))
                                : Value::text_map(std::move(labelled));
    }
    throw model::JsonFieldError(pointer, "unknown value kind '" + kind + "'");
}

}  // namespace cantonlite::seed
