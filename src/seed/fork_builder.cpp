// A forked network from a Scan's answers (docs/fork.md). The ACS at the snapshot becomes the fork's
// base: contracts of no offset (LedgerStore::add_fork_base), created when the source says. Each
// update after it is committed with the ids it had: its update id, its contract ids and, for a
// reassignment, its unassign id; its events in the order of Scan's tree (pre-order), so that event
// ids, which Canton numbers in that order, are the source's too.
#include "cantonlite/seed/fork.hpp"

#include <algorithm>
#include <array>
#include <deque>
#include <map>
#include <mutex>
#include <optional>
#include <utility>
#include <vector>

#include "cantonlite/model/ids.hpp"
#include "cantonlite/seed/live_network.hpp"
#include "cantonlite/splice/splice_views.hpp"
#include "scan_values.hpp"
#include "seed_context.hpp"
#include "state_codec.hpp"

namespace cantonlite::seed {
namespace {

using model::Timestamp;
using simdjson::dom::element;

constexpr std::int64_t round_micros = 600'000'000;  // a Splice mining round: 10 minutes

// The member `key` of object `o`; nullopt when there is none (or `o` is no object).
std::optional<element> member_of(element o, std::string_view key) {
    simdjson::dom::object object;
    element out;
    if (o.get_object().get(object) || object.at_key(key).get(out)) return std::nullopt;
    return out;
}

std::string string_at(element o, const char* key, const std::string& where) {
    const auto m = member_of(o, key);
    std::string_view s;
    if (!m || m->get_string().get(s)) throw ForkError(where + ": has no string \"" + key + "\"");
    return std::string(s);
}

// The string member `key`, or "" when it is absent or null.
std::string optional_string_at(element o, const char* key) {
    const auto m = member_of(o, key);
    std::string_view s;
    if (!m || m->get_string().get(s)) return {};
    return std::string(s);
}

Timestamp time_at(element o, const char* key, const std::string& where) {
    const std::string text = string_at(o, key, where);
    const auto t = model::parse_timestamp(text);
    if (!t) throw ForkError(where + ": \"" + key + "\" is no date-time: \"" + text + "\"");
    return *t;
}

// The update id of member `key` ("1220" and 64 hex digits); `what` names it in the error.
model::UpdateId update_id_at(element o, const char* key, const std::string& where,
                             const std::string& what) {
    const auto id = model::UpdateId::parse(string_at(o, key, where));
    if (!id) throw ForkError(where + ": " + what + " is not 1220 and 64 hex digits");
    return *id;
}

std::int64_t int_at(element o, const char* key, std::int64_t absent) {
    const auto m = member_of(o, key);
    std::int64_t n = 0;
    if (!m || m->get_int64().get(n)) return absent;
    return n;
}

std::vector<std::string> strings_at(element o, const char* key, const std::string& where) {
    std::vector<std::string> out;
    const auto m = member_of(o, key);
    if (!m) return out;
    simdjson::dom::array items;
    if (m->get_array().get(items)) throw ForkError(where + ": \"" + key + "\" is not an array");
    for (const element p : items) {
        std::string_view s;
        if (p.get_string().get(s)) throw ForkError(where + ": \"" + key + "\" holds a non-string");
        out.emplace_back(s);
    }
    return out;
}

// The array member `key` of `o`. Throws ForkError naming `what`.
simdjson::dom::array array_at(element o, const char* key, const std::string& what) {
    const auto m = member_of(o, key);
    simdjson::dom::array items;
    if (!m || m->get_array().get(items)) throw ForkError(what + ": " + key + " is not an array");
    return items;
}

// Parses a whole answer; in place when `padded` (SIMDJSON_PADDING bytes of room follow it), else
// from a copy. Throws ForkError naming `what`.
element parse_answer(simdjson::dom::parser& parser, std::string_view text, const std::string& what,
                     bool padded = false) {
    element root;
    if (const auto error = parser.parse(text.data(), text.size(), !padded).get(root))
        throw ForkError(what + ": not JSON: " + simdjson::error_message(error));
    if (!root.is_object()) throw ForkError(what + ": not a JSON object");
    return root;
}

// "<package id>:<Module>:<Entity>" of package `package_name`.
model::TemplateId template_of(const std::string& text, const std::string& package_name,
                              const std::string& where) {
    const std::size_t first = text.find(':');
    const std::size_t second = first == std::string::npos ? first : text.find(':', first + 1);
    if (second == std::string::npos || first == 0 || second == first + 1 ||
        second + 1 == text.size())
        throw ForkError(where + ": \"" + text + "\" is no <package id>:<Module>:<Entity>");
    return model::TemplateId{.package_id = model::Name(text.substr(0, first)),
                             .module_name = model::Name(text.substr(first + 1, second - first - 1)),
                             .entity_name = model::Name(text.substr(second + 1)),
                             .package_name = model::Name(package_name)};
}

model::TemplateId template_at(element event, const std::string& where) {
    return template_of(string_at(event, "template_id", where),
                       string_at(event, "package_name", where), where);
}

bool is(const model::TemplateId& t, std::string_view package_name, std::string_view module,
        std::string_view entity) {
    return t.package_name.view() == package_name && t.module_name.view() == module &&
           t.entity_name.view() == entity;
}

// A field of a Splice template that compact JSON does not type by its shape (scan_values.hpp)
// and that cantonlite reads typed (splice_views.cpp, the steps): a Text that may read as a number
// or a date, or an Optional, whose Some compact JSON writes bare.
struct FieldHint {
    std::string_view module;
    std::string_view entity;
    std::array<std::string_view, 2> path;  // "" past its end
    bool optional = false;
    bool text = false;
};

constexpr std::array<FieldHint, 13> field_hints{{
    {"Splice.Ans", "AnsEntry", {"name"}, false, true},
    {"Splice.Ans", "AnsEntry", {"url"}, false, true},
    {"Splice.Ans", "AnsEntry", {"description"}, false, true},
    {"Splice.Wallet.BuyTrafficRequest", "BuyTrafficRequest", {"trackingId"}, false, true},
    {"Splice.Wallet.TransferOffer", "TransferOffer", {"description"}, false, true},
    {"Splice.Wallet.TransferOffer", "TransferOffer", {"trackingId"}, false, true},
    {"Splice.DsoRules", "VoteRequest", {"requester"}, false, true},
    {"Splice.DsoRules", "VoteRequest", {"reason", "url"}, false, true},
    {"Splice.DsoRules", "VoteRequest", {"reason", "body"}, false, true},
    {"Splice.DsoRules", "VoteRequest", {"trackingCid"}, true, false},
    {"Splice.DsoRules", "VoteRequest", {"targetEffectiveAt"}, true, false},
    {"Splice.Amulet", "LockedAmulet", {"lock", "optContext"}, true, true},
    {"Splice.Expiry", "TimeLock", {"optContext"}, true, true},
}};

// Types the hinted fields of `value`, a contract of `t` read from `compact`.
void apply_hints(const model::TemplateId& t, model::Value& value, element compact) {
    for (const FieldHint& hint : field_hints) {
        if (t.module_name.view() != hint.module || t.entity_name.view() != hint.entity) continue;
        model::Value* v = &value;
        element j = compact;
        for (const std::string_view label : hint.path) {
            if (label.empty()) break;
            const auto at = std::find(v->labels.begin(), v->labels.end(), label);
            const auto next = member_of(j, label);
            if (v->kind != model::Value::Kind::record || at == v->labels.end() || !next) {
                v = nullptr;
                break;
            }
            v = &v->items[static_cast<std::size_t>(at - v->labels.begin())];
            j = *next;
        }
        if (v == nullptr || j.is_null()) continue;  // absent, or None already
        std::string_view text;
        if (hint.text && !j.get_string().get(text))
            *v = model::Value::text_value(std::string(text));
        if (hint.optional && v->kind != model::Value::Kind::optional)
            *v = model::Value::some(std::move(*v));
    }
}

// Where the value of member `key` of event `e` sits, for RecordLabels: its template (package id
// included: a package's upgrade may add fields), its choice and interface, and which value.
std::string value_root(element e, std::string_view key) {
    std::string root = optional_string_at(e, "template_id");
    if (key != "create_arguments") {
        root += '|';
        root += optional_string_at(e, "choice");
        root += '|';
        root += optional_string_at(e, "interface_id");
    }
    root += '|';
    root += key;
    return root;
}

}  // namespace

struct ForkBuilder::Impl {
    ForkSource source;
    // An ACS contract, kept until the base is complete. (A member type, not one of this file's
    // anonymous namespace: Impl has external linkage, and a unity build would say so.)
    struct BaseContract {
        std::string contract_id;
        Timestamp created_at;
        std::optional<model::UpdateId> created_in;  // the update that created it, if named
        store::CreateDraft create;
    };
    std::vector<BaseContract> base;
    std::deque<std::pair<std::int64_t, Timestamp>> snapshot_times;  // the source's, after the base
    std::map<std::string, std::string> package_ids;  // by package name, as the source names them
    std::unique_ptr<store::LedgerStore> store;       // once the base is complete
    std::unique_ptr<SeedContext> context;
    std::vector<std::pair<Timestamp, std::int64_t>> rounds;  // the source's round at a time
    ForkCounts counts;

    void note_package(const model::TemplateId& t) {
        package_ids[t.package_name.str()] = t.package_id.str();
    }

    // The network facts the source's Scan gives (DSO party, SVs, synchronizer, packages); the
    // participant's own (its id, its validator party and user, the token settings) are
    // cantonlite's defaults, as LocalNet's.
    model::Network network() const {
        model::Network n;
        n.dso_party = source.dso_party;
        n.synchronizer_id = source.synchronizer_id;
        n.lsu = source.lsu;
        const std::string tag = model::sha256_hex("fork/" + source.dso_party);
        n.participant_id = "PAR::fork::1220" + tag;
        n.validator_party = "validator::1220" + tag;
        n.id_namespace =
            "fork/" + source.dso_party + "/" + model::format_instant(source.snapshot_time);
        n.package_ids = model::default_package_ids();
        for (const auto& [name, id] : package_ids) n.package_ids[name] = id;
        n.auth.hs256_secret = "unsafe";
        n.auth.audience = "https://canton.network.global";
        n.users.push_back(
            model::User{.id = n.validator_user,
                        .party = n.validator_party,
                        .rights = model::LedgerRights{.can_act_as = {n.validator_party},
                                                      .can_read_as_any_party = true,
                                                      .participant_admin = true}});
        // The SVs, from the DsoRules contract: svs is a map from party to SvInfo {name, …}.
        for (const BaseContract& c : base) {
            if (!is(c.create.template_id, "splice-dso-governance", "Splice.DsoRules", "DsoRules"))
                continue;
            const model::Value* svs = c.create.argument.field("svs");
            if (svs == nullptr || svs->kind != model::Value::Kind::gen_map) break;
            for (std::size_t i = 0; i + 1 < svs->items.size(); i += 2) {
                const model::Value* name = svs->items[i + 1].field("name");
                n.svs.push_back(
                    model::SuperValidator{.name = name != nullptr ? name->text : svs->items[i].text,
                                          .party = svs->items[i].text});
            }
            break;
        }
        return n;
    }

    // What the source's rounds say of its clock's start: round R at time t puts it in
    // (t - (R + 1) rounds, t - R rounds]. The latest start in every such range, if any.
    std::optional<Timestamp> start_by_rounds() const {
        std::optional<std::pair<std::int64_t, std::int64_t>> range;  // (low, high], micros
        for (const auto& [t, round] : rounds) {
            const std::int64_t high = t.micros - round * round_micros;
            const std::int64_t low = high - round_micros;
            range = range ? std::pair{std::max(range->first, low), std::min(range->second, high)}
                          : std::pair{low, high};
        }
        if (!range || range->first >= range->second) return std::nullopt;
        return Timestamp{range->second};
    }

    // The clock's start: where the source's rounds put it; else mining round R opened R rounds
    // after it, by the latest OpenMiningRound of the base; else the snapshot's time.
    Timestamp genesis() const {
        if (const auto start = start_by_rounds()) return std::min(*start, source.snapshot_time);
        std::optional<std::pair<std::int64_t, Timestamp>> latest;  // round, opens at
        for (const BaseContract& c : base) {
            if (!is(c.create.template_id, "splice-amulet", "Splice.Round", "OpenMiningRound"))
                continue;
            const model::Value* round = c.create.argument.field("round");
            const model::Value* number = round ? round->field("number") : nullptr;
            const model::Value* opens = c.create.argument.field("opensAt");
            if (number == nullptr || number->kind != model::Value::Kind::int64 ||
                opens == nullptr || opens->kind != model::Value::Kind::timestamp)
                continue;
            if (!latest || number->number > latest->first)
                latest = std::pair{number->number, Timestamp{opens->number}};
        }
        if (!latest) return source.snapshot_time;
        const Timestamp start{latest->second.micros - latest->first * round_micros};
        return std::min(start, source.snapshot_time);
    }

    // Ends the base: the store, its contracts, the snapshot the fork starts from.
    void start_history() {
        if (store) return;
        store = std::make_unique<store::LedgerStore>(network(), genesis());
        splice::SpliceViews::attach(*store);
        std::size_t i = 0;
        try {
            while (i < base.size()) {
                store::TransactionDraft d{
                    .update_id = base[i].created_in.value_or(model::UpdateId()),
                    .keeps_update_id = base[i].created_in.has_value(),
                    .effective_at = base[i].created_at,
                    .record_time = base[i].created_at,
                    .synchronizer_id = source.synchronizer_id};
                const std::optional<model::UpdateId> created_in = base[i].created_in;
                for (; i < base.size() && base[i].created_at == d.effective_at &&
                       base[i].created_in == created_in;
                     ++i) {
                    d.nodes.push_back(store::NodeDraft{.event = std::move(base[i].create)});
                    d.contract_id_cache.push_back(std::move(base[i].contract_id));
                }
                store->add_fork_base(d, source.migration_id);
            }
            if (base.empty()) store->add_fork_base(store::TransactionDraft{}, source.migration_id);
            store->take_snapshot(source.snapshot_time);
        } catch (const store::AppendError& e) {
            throw ForkError(std::string("the ACS at the snapshot: ") + e.what());
        }
        base.clear();
        base.shrink_to_fit();
    }

    // Follows the source into migration `m` (an update of a later migration came): each migration
    // re-imports the ACS, as the source's did.
    void migrate_to(std::int64_t m, Timestamp t, const std::string& where) {
        if (m < store->migration_id())
            throw ForkError(where + ": of migration " + std::to_string(m) + ", after migration " +
                            std::to_string(store->migration_id()));
        while (store->migration_id() < m) store->migrate(t);
    }

    // Takes the source's snapshots of the current migration due before `t` (strictly), or every
    // one left when `t` is none; forgets those of earlier migrations.
    void snapshots_before(std::optional<Timestamp> t) {
        while (!snapshot_times.empty()) {
            const auto [migration, at] = snapshot_times.front();
            if (migration > store->migration_id() || (t && at >= *t)) break;
            snapshot_times.pop_front();
            if (migration < store->migration_id() ||
                (migration == source.migration_id && at <= source.snapshot_time) ||
                at < store->now())
                continue;
            store->take_snapshot(at);
        }
    }

    // `compact`: the values of `typed` are in compact_json, typed by their shape.
    void add_transaction(element typed, std::optional<element> labelled, bool compact,
                         const std::string& where);
    void add_reassignment(element typed, const std::string& where);
    ForkPage add_updates(element typed, std::string_view labelled_answer, bool compact);
    RecordLabels labels;                 // learnt from the update pages read in both encodings
    simdjson::dom::parser typed_parser;  // an answer's document lives in its parser
    simdjson::dom::parser labelled_parser;
};

namespace {

// The events of a transaction in pre-order: Scan's root_event_ids, then each exercise's
// child_event_ids. Each with its event and its parent's index (-1 for a root).
struct PreOrderEvent {
    std::string_view id;
    element event;
    int parent;
};

std::vector<PreOrderEvent> pre_order(element tx, const std::string& where) {
    const auto events = member_of(tx, "events_by_id");
    const auto roots = member_of(tx, "root_event_ids");
    simdjson::dom::object by_id;
    if (!events || events->get_object().get(by_id) || !roots)
        throw ForkError(where + ": is neither a transaction nor a reassignment");
    std::vector<PreOrderEvent> out;
    std::vector<std::pair<std::string_view, int>> stack;  // event id, parent; the next on top
    const auto push_children = [&](element ids, int parent, const std::string& at) {
        simdjson::dom::array items;
        if (ids.get_array().get(items)) throw ForkError(at + " is not an array");
        const std::size_t first = stack.size();
        for (const element id : items) {
            std::string_view text;
            if (id.get_string().get(text)) throw ForkError(at + " holds a non-string");
            stack.emplace_back(text, parent);
        }
        std::reverse(stack.begin() + static_cast<std::ptrdiff_t>(first), stack.end());
    };
    push_children(*roots, -1, where + ": root_event_ids");
    const std::size_t count = by_id.size();
    while (!stack.empty()) {
        const auto [id, parent] = stack.back();
        stack.pop_back();
        element event;
        if (by_id.at_key(id).get(event))
            throw ForkError(where + ": event " + std::string(id) + " is not in events_by_id");
        if (out.size() > count) throw ForkError(where + ": an event is its own descendant");
        const int index = static_cast<int>(out.size());
        out.push_back(PreOrderEvent{id, event, parent});
        if (const auto children = member_of(event, "child_event_ids"))
            push_children(*children, index, where + ": event " + std::string(id));
    }
    return out;
}

}  // namespace

void ForkBuilder::Impl::add_transaction(element typed, std::optional<element> labelled,
                                        bool compact, const std::string& where) {
    const Timestamp record_time = time_at(typed, "record_time", where);
    snapshots_before(record_time);
    migrate_to(int_at(typed, "migration_id", store->migration_id()), record_time, where);
    const model::UpdateId id = update_id_at(typed, "update_id", where, "the update id");
    store::TransactionDraft d{
        .offset = store->next_offset(),
        .update_id = id,
        .keeps_update_id = true,
        .workflow_id = optional_string_at(typed, "workflow_id"),
        .effective_at = time_at(typed, "effective_at", where),
        .record_time = record_time,
        .synchronizer_id = string_at(typed, "synchronizer_id", where),
        .external_transaction_hash = optional_string_at(typed, "external_transaction_hash")};
    const std::optional<element> labelled_events =
        labelled ? member_of(*labelled, "events_by_id") : std::nullopt;
    for (const PreOrderEvent& pe : pre_order(typed, where)) {
        const std::string at = where + ": event " + std::string(pe.id);
        const element e = pe.event;
        const std::optional<element> l =
            labelled_events ? member_of(*labelled_events, pe.id) : std::nullopt;
        const std::string type = string_at(e, "event_type", at);
        const model::TemplateId template_id = template_at(e, at);
        note_package(template_id);
        // The value of member `key`: typed from this answer and labelled from the other, or
        // from the labels learnt for its place when there is no other; or, in compact_json
        // alone, typed by its shape.
        const auto value_at = [&](const char* key) -> model::PackedValue {
            const auto typed_value = member_of(e, key);
            if (!typed_value) throw ForkError(at + ": has no " + key);
            if (compact) {
                model::Value v = value_from_compact_json(*typed_value);
                if (std::string_view(key) == "create_arguments")
                    apply_hints(template_id, v, *typed_value);
                // {} is Unit or a record without fields: a choice's result is mostly the first
                // (Archive's), its argument the second (a choice without parameters).
                if (std::string_view(key) == "exercise_result" &&
                    v.kind == model::Value::Kind::record && v.items.empty())
                    v = model::Value::unit();
                return model::pack(v);
            }
            const std::string root = value_root(e, key);
            if (!l) {
                std::optional<model::PackedValue> v = labels.packed(*typed_value, root);
                if (!v)
                    throw ForkError(at + ": " + key + " has a record whose labels are not known");
                return std::move(*v);
            }
            const std::optional<element> labelled_value = member_of(*l, key);
            model::PackedValue v = packed_from_protobuf_json(
                *typed_value, labelled_value ? &*labelled_value : nullptr);
            labels.learn(model::unpack(v), root);
            return v;
        };
        try {
            if (type == "created_event") {
                d.add(pe.parent,
                      store::CreateDraft{.template_id = template_id,
                                         .signatories = strings_at(e, "signatories", at),
                                         .observers = strings_at(e, "observers", at),
                                         .packed_argument = value_at("create_arguments")});
                d.contract_id_cache.resize(d.nodes.size());
                d.contract_id_cache.back() = string_at(e, "contract_id", at);
            } else if (type == "exercised_event") {
                const std::string contract_id = string_at(e, "contract_id", at);
                bool consuming = false;
                if (const auto c = member_of(e, "consuming"); c && c->get_bool().get(consuming))
                    throw ForkError(at + ": consuming is not true or false");
                store::ExerciseDraft x{.contract_id = contract_id,
                                       .template_id = template_id,
                                       .choice = string_at(e, "choice", at),
                                       .consuming = consuming,
                                       .acting_parties = strings_at(e, "acting_parties", at),
                                       .packed_argument = value_at("choice_argument"),
                                       .packed_result = value_at("exercise_result")};
                if (const std::string interface = optional_string_at(e, "interface_id");
                    !interface.empty())
                    x.interface_id = template_of(interface, string_at(e, "package_name", at), at);
                // A contract the DSO party never saw created is not in the fork.
                x.contract_unknown =
                    !store->contract(contract_id).has_value() &&
                    std::find(d.contract_id_cache.begin(), d.contract_id_cache.end(),
                              contract_id) == d.contract_id_cache.end();
                d.add(pe.parent, std::move(x));
                d.contract_id_cache.resize(d.nodes.size());
            } else {
                throw ForkError(at + ": has no known event_type \"" + type + "\"");
            }
        } catch (const ScanValueError& err) {
            throw ForkError(at + ": " + err.what());
        }
    }
    if (d.nodes.empty()) throw ForkError(where + ": a transaction without events");
    // Scan does not say who submitted: the acting parties of the first root, or its signatories.
    if (const auto* x = std::get_if<store::ExerciseDraft>(&d.nodes.front().event)) {
        d.submitters = x->acting_parties;
    } else {
        d.submitters = std::get<store::CreateDraft>(d.nodes.front().event).signatories;
    }
    store->add_synchronizer(d.synchronizer_id);
    try {
        store->append_transaction(d);
    } catch (const store::AppendError& e) {
        throw ForkError(where + ": " + e.what());
    }
}

void ForkBuilder::Impl::add_reassignment(element typed, const std::string& where) {
    const element event = *member_of(typed, "event");
    const Timestamp record_time = time_at(typed, "record_time", where);
    snapshots_before(record_time);
    const auto created = member_of(event, "created_event");
    if (created)  // an assignment: of the target's migration
        migrate_to(int_at(event, "migration_id", store->migration_id()), record_time, where);
    const model::UpdateId id = update_id_at(typed, "update_id", where, "the update id");
    const std::string submitter = string_at(event, "submitter", where);
    const std::string source_synchronizer = string_at(event, "source_synchronizer", where);
    const std::string target = string_at(event, "target_synchronizer", where);
    store->add_synchronizer(source_synchronizer);
    store->add_synchronizer(target);
    const store::LedgerStore::KeptIds kept{.update_id = id,
                                           .unassign_id = string_at(event, "unassign_id", where)};
    try {
        if (created) {
            const std::string contract_id = string_at(*created, "contract_id", where);
            const auto state = store->contract(contract_id);
            if (!state || state->synchronizer_id != model::Name()) {
                ++counts.skipped_assignments;  // in flight at the snapshot, or never seen leaving
                return;
            }
            store->assign(contract_id, submitter, record_time, kept);
        } else {
            store->unassign(string_at(event, "contract_id", where), target, submitter, record_time,
                            kept);
        }
    } catch (const store::AppendError& e) {
        throw ForkError(where + ": " + e.what());
    }
}

struct AnswerParsers::Impl {
    std::size_t keep;
    mutable std::mutex mutex;
    std::vector<std::unique_ptr<simdjson::dom::parser>> idle;

    std::unique_ptr<simdjson::dom::parser> take() {
        {
            const std::lock_guard lock(mutex);
            if (!idle.empty()) {
                std::unique_ptr<simdjson::dom::parser> parser = std::move(idle.back());
                idle.pop_back();
                return parser;
            }
        }
        return std::make_unique<simdjson::dom::parser>();
    }
    void give_back(std::unique_ptr<simdjson::dom::parser> parser) {
        const std::lock_guard lock(mutex);
        if (idle.size() < keep) idle.push_back(std::move(parser));
    }
};

AnswerParsers::AnswerParsers(std::size_t keep) : impl_(std::make_unique<Impl>()) {
    impl_->keep = keep;
}

AnswerParsers::~AnswerParsers() = default;

std::size_t AnswerParsers::idle() const {
    const std::lock_guard lock(impl_->mutex);
    return impl_->idle.size();
}

struct ForkAnswer::Impl {
    std::string text;
    AnswerParsers::Impl* parsers = nullptr;         // which gets `parser` back
    std::unique_ptr<simdjson::dom::parser> parser;  // holds the document
    element root;

    Impl() = default;
    Impl(const Impl&) = delete;
    Impl& operator=(const Impl&) = delete;
    ~Impl() {
        if (parsers != nullptr && parser) parsers->give_back(std::move(parser));
    }
};

ForkAnswer::ForkAnswer(std::string text, const std::string& what, AnswerParsers* parsers)
    : impl_(std::make_unique<Impl>()) {
    impl_->text = std::move(text);
    // simdjson reads up to SIMDJSON_PADDING bytes past the end: with room for them the text is
    // parsed where it is (net's answers leave it), else it would be copied.
    if (impl_->text.capacity() < impl_->text.size() + simdjson::SIMDJSON_PADDING)
        impl_->text.reserve(impl_->text.size() + simdjson::SIMDJSON_PADDING);
    if (parsers != nullptr) {
        impl_->parsers = parsers->impl_.get();
        impl_->parser = impl_->parsers->take();
    } else {
        impl_->parser = std::make_unique<simdjson::dom::parser>();
    }
    impl_->root = parse_answer(*impl_->parser, impl_->text, what, true);
}

ForkAnswer::~ForkAnswer() = default;
ForkAnswer::ForkAnswer(ForkAnswer&&) noexcept = default;
ForkAnswer& ForkAnswer::operator=(ForkAnswer&&) noexcept = default;

const std::string& ForkAnswer::text() const {
    return impl_->text;
}

ForkBuilder::ForkBuilder(ForkSource source) : impl_(std::make_unique<Impl>()) {
    impl_->source = std::move(source);
}

ForkBuilder::~ForkBuilder() = default;

ForkPage ForkBuilder::add_acs_page(std::string_view answer) {
    return add_acs_page(ForkAnswer(std::string(answer), "an ACS page"));
}

ForkPage ForkBuilder::add_acs_page(const ForkAnswer& answer) {
    if (impl_->store) throw ForkError("an ACS page after the updates began");
    const element root = answer.impl_->root;
    const simdjson::dom::array events = array_at(root, "created_events", "an ACS page");
    ForkPage page;
    for (const element e : events) {
        const std::string contract_id = string_at(e, "contract_id", "an ACS contract");
        const std::string where = "ACS contract " + contract_id;
        const auto arguments = member_of(e, "create_arguments");
        if (!arguments) throw ForkError(where + ": has no create_arguments");
        const model::TemplateId template_id = template_at(e, where);
        impl_->note_package(template_id);
        try {
            model::Value argument = value_from_compact_json(*arguments);
            apply_hints(template_id, argument, *arguments);
            impl_->labels.reorder(argument, value_root(e, "create_arguments"));
            std::optional<model::UpdateId> created_in;
            if (!optional_string_at(e, "created_in_update_id").empty())
                created_in = update_id_at(e, "created_in_update_id", where, "created_in_update_id");
            impl_->base.push_back(Impl::BaseContract{
                .contract_id = contract_id,
                .created_at = time_at(e, "created_at", where),
                .created_in = created_in,
                .create = store::CreateDraft{.template_id = template_id,
                                             .argument = std::move(argument),
                                             .signatories = strings_at(e, "signatories", where),
                                             .observers = strings_at(e, "observers", where)}});
        } catch (const ScanValueError& err) {
            throw ForkError(where + ": create_arguments" + std::string(err.what()));
        }
        ++impl_->counts.contracts;
        ++page.items;
    }
    if (const auto token = member_of(root, "next_page_token"); token && !token->is_null())
        page.next_page_token = simdjson::to_string(*token);
    return page;
}

void ForkBuilder::learn_labels(std::string_view typed_answer, std::string_view labelled_answer) {
    const simdjson::dom::array typed =
        array_at(parse_answer(impl_->typed_parser, typed_answer, "an update page"), "transactions",
                 "an update page");
    const simdjson::dom::array labelled =
        array_at(parse_answer(impl_->labelled_parser, labelled_answer, "an update page"),
                 "transactions", "an update page");
    auto l = labelled.begin();
    for (auto t = typed.begin(); t != typed.end() && l != labelled.end(); ++t, ++l) {
        const auto typed_events = member_of(*t, "events_by_id");
        const auto labelled_events = member_of(*l, "events_by_id");
        simdjson::dom::object events;
        if (!typed_events || !labelled_events || typed_events->get_object().get(events)) continue;
        for (const simdjson::dom::key_value_pair event : events) {
            const auto other = member_of(*labelled_events, event.key);
            if (!other) continue;
            for (const char* key : {"create_arguments", "choice_argument", "exercise_result"}) {
                const auto typed_value = member_of(event.value, key);
                const auto labelled_value = member_of(*other, key);
                if (!typed_value || !labelled_value) continue;
                try {
                    impl_->labels.learn(value_from_protobuf_json(*typed_value, &*labelled_value),
                                        value_root(event.value, key));
                } catch (const ScanValueError& e) {
                    throw ForkError("update " + optional_string_at(*t, "update_id") + ": " +
                                    std::string(event.key) + ": " + std::string(key) + e.what());
                }
            }
        }
    }
}

void ForkBuilder::add_round_at(Timestamp t, std::int64_t round) {
    if (round < 0) throw ForkError("a round number is negative: " + std::to_string(round));
    impl_->rounds.emplace_back(t, round);
}

void ForkBuilder::add_snapshot_time(std::int64_t migration, Timestamp t) {
    impl_->snapshot_times.emplace_back(migration, t);
}

ForkPage ForkBuilder::add_updates_page(std::string_view typed_answer,
                                       std::string_view labelled_answer) {
    return add_updates_page(ForkAnswer(std::string(typed_answer), "an update page"),
                            labelled_answer);
}

ForkPage ForkBuilder::add_updates_page(const ForkAnswer& typed, std::string_view labelled_answer) {
    return impl_->add_updates(typed.impl_->root, labelled_answer, false);
}

ForkPage ForkBuilder::add_compact_updates_page(std::string_view answer) {
    const ForkAnswer parsed(std::string(answer), "an update page");
    return impl_->add_updates(parsed.impl_->root, {}, true);
}

ForkPage ForkBuilder::Impl::add_updates(element typed, std::string_view labelled_answer,
                                        bool compact) {
    start_history();
    const simdjson::dom::array typed_list = array_at(typed, "transactions", "an update page");
    const bool both = !labelled_answer.empty();
    simdjson::dom::array labelled_list;
    if (both) {
        labelled_list = array_at(parse_answer(labelled_parser, labelled_answer, "an update page"),
                                 "transactions", "an update page");
    }
    // The history may have grown between the two answers: take what both hold.
    ForkPage page;
    auto l = both ? labelled_list.begin() : simdjson::dom::array::iterator();
    for (auto t = typed_list.begin(); t != typed_list.end() && (!both || l != labelled_list.end());
         ++t) {
        const element item = *t;
        const std::string update_id = optional_string_at(item, "update_id");
        const std::string where =
            "update " + (update_id.empty() ? "#" + std::to_string(counts.updates + 1) : update_id);
        std::optional<element> labelled;
        if (both) {
            labelled = *l;
            ++l;
            if (optional_string_at(*labelled, "update_id") != update_id)
                throw ForkError(where + ": the two encodings of its page hold other updates");
        }
        try {
            if (const auto event = member_of(item, "event")) {
                add_reassignment(item, where);
                page.positions.emplace_back(int_at(*event, "migration_id", 0),
                                            optional_string_at(item, "record_time"));
            } else {
                add_transaction(item, labelled, compact, where);
                page.positions.emplace_back(int_at(item, "migration_id", 0),
                                            optional_string_at(item, "record_time"));
            }
        } catch (const store::AppendError& e) {
            throw ForkError(where + ": " + e.what());
        }
        ++counts.updates;
        ++page.items;
    }
    return page;
}

bool ForkBuilder::labels_known(std::string_view typed_answer) const {
    return labels_known(ForkAnswer(std::string(typed_answer), "an update page"));
}

bool ForkBuilder::labels_known(const ForkAnswer& typed) const {
    const simdjson::dom::array list = array_at(typed.impl_->root, "transactions", "an update page");
    for (const element item : list) {
        const auto events = member_of(item, "events_by_id");
        simdjson::dom::object by_id;
        if (!events || events->get_object().get(by_id)) continue;
        for (const simdjson::dom::key_value_pair event : by_id) {
            for (const char* key : {"create_arguments", "choice_argument", "exercise_result"}) {
                const auto value = member_of(event.value, key);
                if (value && !impl_->labels.known(*value, value_root(event.value, key)))
                    return false;
            }
        }
    }
    return true;
}

ForkPage ForkBuilder::positions_of(const ForkAnswer& answer) {
    const simdjson::dom::array list =
        array_at(answer.impl_->root, "transactions", "an update page");
    ForkPage page;
    for (const element item : list) {
        const auto event = member_of(item, "event");
        page.positions.emplace_back(int_at(event ? *event : item, "migration_id", 0),
                                    optional_string_at(item, "record_time"));
        ++page.items;
    }
    return page;
}

std::string ForkBuilder::acs_page_token_of(const ForkAnswer& answer) {
    const auto token = member_of(answer.impl_->root, "next_page_token");
    return token && !token->is_null() ? std::string(simdjson::to_string(*token)) : std::string();
}

ForkCounts ForkBuilder::counts() const {
    return impl_->counts;
}

std::string ForkBuilder::finish(bool whole_history) {
    complete(whole_history);
    return write_state(*impl_->store, *impl_->context);
}

WrittenStateFile ForkBuilder::finish(bool whole_history, const std::filesystem::path& path) {
    complete(whole_history);
    util::AtomicFile file(path);
    std::string header = write_state_file(*impl_->store, *impl_->context, file);
    return commit_state_file(file, std::move(header));
}

void ForkBuilder::complete(bool whole_history) {
    impl_->start_history();
    store::LedgerStore& store = *impl_->store;
    try {
        // Those the history reached; with the whole history, those after its end too.
        impl_->snapshots_before(whole_history ? std::nullopt
                                              : std::optional(Timestamp{store.now().micros + 1}));
    } catch (const store::AppendError& e) {
        throw ForkError(std::string("a snapshot: ") + e.what());
    }
    // The rounds learnt since the history began may narrow the clock's start.
    if (const auto start = impl_->start_by_rounds(); start && *start <= store.now()) {
        try {
            store.set_genesis_time(*start);
        } catch (const store::AppendError& e) {
            throw ForkError(std::string("the rounds: ") + e.what());
        }
    }
    impl_->context = std::make_unique<SeedContext>(store, std::nullopt);
    SeedContext& context = *impl_->context;
    // Snapshots go on at the source's pace: the gap between its last two, else Scan's default.
    const auto times = store.snapshot_times();
    std::int64_t interval = scan_default_snapshot_seconds;
    if (times.size() >= 2) {
        const std::int64_t gap = times.back().second.micros - times[times.size() - 2].second.micros;
        if (gap > 0 && gap % model::micros_per_second == 0)
            interval = gap / model::micros_per_second;
    }
    context.set_snapshot_interval(interval);
    context.start_time = store.genesis_time();
    for (const model::ContractPtr& c : store.active_contracts()) {
        const model::TemplateId t = c->template_id();
        if (is(t, "splice-dso-governance", "Splice.DsoRules", "DsoRules"))
            context.dso_rules = c->contract_id.str();
        else if (is(t, "splice-amulet", "Splice.AmuletRules", "AmuletRules"))
            context.amulet_rules = c->contract_id.str();
        else if (is(t, "splice-amulet", "Splice.ExternalPartyAmuletRules",
                    "ExternalPartyAmuletRules"))
            context.external_party_amulet_rules = c->contract_id.str();
    }
}

}  // namespace cantonlite::seed
