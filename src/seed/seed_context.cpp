#include "seed_context.hpp"

#include <algorithm>
#include <stdexcept>

namespace cantonlite::seed {
namespace {

using model::micros_per_second;

// "a LockedAmulet", "an Amulet".
std::string with_article(const std::string& noun) {
    const bool vowel = !noun.empty() &&
                       std::string_view("AEIOUaeiou").find(noun.front()) != std::string_view::npos;
    return (vowel ? "an " : "a ") + noun;
}

}  // namespace

SeedContext::SeedContext(store::LedgerStore& store,
                         std::optional<std::int64_t> snapshot_interval_seconds)
    : start_time(store.now()),
      store_(&store),
      snapshot_interval_seconds_(snapshot_interval_seconds),
      parties_(store.network()) {
    if (snapshot_interval_seconds_) {
        const std::int64_t start = start_time.micros / micros_per_second;
        next_snapshot_ = (start / *snapshot_interval_seconds_ + 1) * *snapshot_interval_seconds_;
    }
}

Party SeedContext::resolve_party(const nlohmann::json& ref, const std::string& pointer) const {
    return parties_.resolve(ref, pointer);
}

Party SeedContext::party(const JsonObject& o, std::string_view key) const {
    const auto ref = o.value().find(key);
    return party_at(ref == o.value().end() ? nullptr : &*ref, o, key);
}

Party SeedContext::party_at(const nlohmann::json* ref, const JsonObject& o,
                            std::string_view key) const {
    if (ref == nullptr || ref->is_null())
        throw model::JsonFieldError(o.pointer_of(key), "is required");
    // The field's JSON pointer is spelled only for an error (a seed names a party at each step).
    if (ref->is_string()) {
        if (const std::string* party = parties_.find(ref->get_ref<const std::string&>()))
            return *party;
    }
    return resolve_party(*ref, o.pointer_of(key));
}

std::vector<Party> SeedContext::parties(const JsonObject& o, std::string_view key) const {
    std::vector<Party> out;
    if (!o.has(key)) return out;
    const nlohmann::json& list = o.value().at(std::string(key));
    if (!list.is_array()) {
        throw model::JsonFieldError(o.pointer_of(key), "must be an array of party references");
    }
    for (std::size_t i = 0; i < list.size(); ++i) {
        out.push_back(resolve_party(list[i], o.pointer_of(key) + "/" + std::to_string(i)));
    }
    return out;
}

const model::User& SeedContext::user(const JsonObject& o, std::string_view key) const {
    const Party p = party(o, key);
    for (const auto& u : network().users) {
        if (u.party == p) return u;
    }
    throw model::JsonFieldError(o.pointer_of(key), "party " + p + " is no user's party");
}

std::string SeedContext::resolve_contract(const nlohmann::json& ref,
                                          const std::string& pointer) const {
    if (!ref.is_string()) {
        throw model::JsonFieldError(
            pointer, "must be a contract reference, got " + model::describe_json(ref));
    }
    const auto& text = ref.get_ref<const std::string&>();
    if (const auto label = model::Name::find(text)) {
        if (const auto it = labels_.find(*label); it != labels_.end()) {
            return it->second.contract.str();
        }
    }
    if (store_->contract(text)) return text;
    throw model::JsonFieldError(pointer, "unknown contract '" + text + "'");
}

std::string SeedContext::contract(const JsonObject& o, std::string_view key) const {
    if (!o.has(key)) throw model::JsonFieldError(o.pointer_of(key), "is required");
    return resolve_contract(o.value().at(std::string(key)), o.pointer_of(key));
}

void SeedContext::label(const JsonObject& step, std::string_view key,
                        const std::string& contract_id) {
    if (const auto name = step.optional_string(key)) set_label(*name, contract_id);
}

std::vector<model::Name> SeedContext::labels_of(model::Name contract_id) const {
    std::vector<model::Name> out;
    const auto first = first_label_.find(contract_id);
    if (first != first_label_.end())
        each_label(first->second, [&out](model::Name label) { out.push_back(label); });
    return out;
}

std::vector<std::pair<model::Name, model::Name>> SeedContext::labels() const {
    // By contract id, so that equal networks list them alike (the map's order is its own). Each
    // id's first 8 bytes, read once into an integer that orders as they do, decide most compares.
    struct Keyed {
        std::uint64_t prefix;
        std::string_view text;
        model::Name contract;
        model::Name first;  // its first label
    };
    std::vector<Keyed> contracts;
    contracts.reserve(first_label_.size());
    for (const auto& [contract, first] : first_label_) {
        const std::string_view text = contract.view();
        std::uint64_t prefix = 0;
        for (std::size_t i = 0; i < 8; ++i)
            prefix = prefix << 8U | (i < text.size() ? static_cast<unsigned char>(text[i]) : 0U);
        contracts.push_back(
            Keyed{.prefix = prefix, .text = text, .contract = contract, .first = first});
    }
    std::sort(contracts.begin(), contracts.end(), [](const Keyed& a, const Keyed& b) {
        return a.prefix != b.prefix ? a.prefix < b.prefix : a.text < b.text;
    });
    std::vector<std::pair<model::Name, model::Name>> out;
    out.reserve(labels_.size());
    for (const Keyed& k : contracts)
        each_label(k.first, [&](model::Name label) { out.emplace_back(label, k.contract); });
    return out;
}

void SeedContext::unlink_label(model::Name label, const Labelled& entry) {
    store::UndoLog& undo = store_->undo();
    const auto first = first_label_.find(entry.contract);
    if (first == first_label_.end()) return;
    if (first->second == label) {
        if (entry.next != label) {
            undo.assign(first_label_, entry.contract, entry.next);
        } else {
            undo.erase(first_label_, entry.contract);
        }
        return;
    }
    for (model::Name at = first->second;;) {
        const Labelled& previous = labels_.at(at);
        if (previous.next == at) return;
        if (previous.next == label) {
            // The one before takes its next, or becomes the last.
            undo.assign(labels_, at,
                        Labelled{previous.contract, entry.next == label ? at : entry.next});
            return;
        }
        at = previous.next;
    }
}

void SeedContext::set_label(const std::string& name, const std::string& contract_id) {
    const model::Name label(name);  // first, as before: Names are numbered in the order met
    set_label(label, model::Name(contract_id));
}

void SeedContext::set_label(model::Name label, model::Name id) {
    add_label(label, id);
    step_labels_.emplace_back(label, id);
}

void SeedContext::restore_labels(const std::vector<std::pair<model::Name, model::Name>>& labels) {
    if (!labels_.empty()) throw std::logic_error("restore_labels: the context has labels");
    labels_.reserve(labels.size());
    first_label_.reserve(labels.size());
    for (std::size_t i = 0; i < labels.size(); ++i) {
        const auto [label, contract] = labels[i];
        const bool last = i + 1 == labels.size() || labels[i + 1].second != contract;
        if (!labels_.emplace(label, Labelled{contract, last ? label : labels[i + 1].first}).second)
            throw std::invalid_argument("a label is given twice");
        if ((i == 0 || labels[i - 1].second != contract) &&
            !first_label_.emplace(contract, label).second)
            throw std::invalid_argument("a contract's labels are apart");
    }
}

void SeedContext::add_label(model::Name label, model::Name id) {
    store::UndoLog& undo = store_->undo();
    if (const auto it = labels_.find(label); it != labels_.end()) {
        const Labelled entry = it->second;
        unlink_label(label, entry);
    }
    const std::vector<model::Name> chain = labels_of(id);
    undo.assign(labels_, label, Labelled{.contract = id, .next = label});
    if (chain.empty()) {
        undo.assign(first_label_, id, label);
    } else {
        undo.assign(labels_, chain.back(), Labelled{.contract = id, .next = label});
    }
}

void SeedContext::relabel(const std::string& from, const std::string& to) {
    const auto id = model::Name::find(from);
    if (!id) return;
    const std::vector<model::Name> names = labels_of(*id);
    if (names.empty()) return;
    store_->undo().erase(first_label_, *id);
    const model::Name to_id(to);
    for (const model::Name name : names) set_label(name, to_id);
}

void SeedContext::forget_labels(model::Name contract_id) {
    const std::vector<model::Name> names = labels_of(contract_id);
    if (names.empty()) return;
    for (const model::Name name : names) store_->undo().erase(labels_, name);
    store_->undo().erase(first_label_, contract_id);
}

void SeedContext::check_usable(const std::string& contract_id, const std::string& pointer) const {
    const auto state = store_->contract(contract_id);
    if (!state) throw model::JsonFieldError(pointer, "unknown contract " + contract_id);
    check_usable(*state, contract_id, pointer);
}

void SeedContext::check_usable(const store::ContractState& state, const std::string& contract_id,
                               const std::string& pointer) const {
    if (state.archived_offset())
        throw model::JsonFieldError(pointer, "contract " + contract_id + " is archived");
    if (state.synchronizer_id.empty()) {
        throw model::JsonFieldError(pointer,
                                    "contract " + contract_id + " is unassigned (in flight)");
    }
    if (state.synchronizer_id != network().synchronizer_id) {
        throw model::JsonFieldError(pointer, "contract " + contract_id + " is on " +
                                                 state.synchronizer_id + ": reassign it to " +
                                                 network().synchronizer_id + " first");
    }
}

Value SeedContext::argument_of(const std::string& contract_id, std::string_view entity,
                               const std::string& pointer) const {
    const auto state = store_->contract(contract_id);
    if (!state || state->archived_offset()) {
        throw model::JsonFieldError(pointer, state && state->archived_offset()
                                                 ? "contract " + contract_id + " is archived"
                                                 : "contract " + contract_id + " is not active");
    }
    const std::string actual = state->contract->template_id().entity_name.str();
    if (actual != entity) {
        throw model::JsonFieldError(pointer, "contract " + contract_id + " is " +
                                                 with_article(actual) + ", not " +
                                                 with_article(std::string(entity)));
    }
    check_usable(*state, contract_id, pointer);
    return model::unpack(state->contract->argument);
}

Timestamp SeedContext::step_time(const JsonObject& step) const {
    return step_time_at(step.optional_timestamp("at"), step);
}

Timestamp SeedContext::step_time_at(std::optional<Timestamp> at, const JsonObject& step) const {
    const Timestamp now = store_->now();
    if (!at) return Timestamp{now.micros + micros_per_second};
    const Timestamp t = *at;
    if (t < now) {
        throw model::JsonFieldError(step.pointer_of("at"),
                                    "time goes backwards: " + model::format_instant(t) +
                                        " is before the ledger time " + model::format_instant(now));
    }
    return t;
}

std::int64_t SeedContext::round_at(Timestamp t) const {
    return store_->round_at(t);
}

store::TransactionDraft SeedContext::draft(const JsonObject& step, std::vector<Party> submitters,
                                           Timestamp t) const {
    std::string command_id = step.optional_string("command_id").value_or("");
    return draft(std::move(command_id), step.optional_string("workflow_id").value_or(""),
                 std::move(submitters), t);
}

store::TransactionDraft SeedContext::draft(std::string command_id, std::string workflow_id,
                                           std::vector<Party> submitters, Timestamp t) const {
    const store::Offset offset = store_->next_offset();
    return store::TransactionDraft{.offset = offset,
                                   .update_id = store_->id_for(offset),
                                   .command_id = std::move(command_id),
                                   .workflow_id = std::move(workflow_id),
                                   .submitters = std::move(submitters),
                                   .effective_at = t,
                                   .record_time = t,
                                   .synchronizer_id = network().synchronizer_id};
}

void SeedContext::snapshots_until(Timestamp t, bool inclusive) {
    if (!snapshot_interval_seconds_) return;
    while (next_snapshot_ * micros_per_second < t.micros ||
           (inclusive && next_snapshot_ * micros_per_second == t.micros)) {
        store_->take_snapshot(Timestamp{next_snapshot_ * micros_per_second});
        store_->undo().set(next_snapshot_, next_snapshot_ + *snapshot_interval_seconds_);
    }
}

void SeedContext::set_snapshot_interval(std::int64_t seconds) {
    snapshot_interval_seconds_ = seconds;
    const std::int64_t now = store_->now().micros / micros_per_second;
    next_snapshot_ = (now / seconds + 1) * seconds;
}

std::optional<Timestamp> SeedContext::next_interval_snapshot() const {
    if (!snapshot_interval_seconds_) return std::nullopt;
    return Timestamp{next_snapshot_ * micros_per_second};
}

void SeedContext::snapshot_at(Timestamp t, const std::string& pointer) {
    snapshots_until(t, false);
    if (store_->snapshot(store_->migration_id(), t, false)) {
        throw model::JsonFieldError(pointer, "a snapshot of migration " +
                                                 std::to_string(store_->migration_id()) + " at " +
                                                 model::format_instant(t) + " exists already");
    }
    store_->take_snapshot(t);
    if (snapshot_interval_seconds_ && next_snapshot_ * micros_per_second == t.micros) {
        store_->undo().set(next_snapshot_, next_snapshot_ + *snapshot_interval_seconds_);
    }
}

void SeedContext::commit(const store::TransactionDraft& draft) {
    snapshots_until(draft.record_time, false);
    store_->append_transaction(draft);
    for (const store::NodeDraft& node : draft.nodes) {
        const auto* e = std::get_if<store::ExerciseDraft>(&node.event);
        if (e && e->consuming) forget_labels(model::Name(e->contract_id));
    }
}

}  // namespace cantonlite::seed
