#include "cantonlite/store/ledger_store.hpp"

#include <algorithm>
#include <future>
#include <limits>
#include <mutex>
#include <stdexcept>
#include <tuple>
#include <unordered_set>

#include "cantonlite/model/ids.hpp"
#include "cantonlite/store/stakeholder_index.hpp"

namespace cantonlite::store {
namespace {

using model::Timestamp;

// The sorted union of the parties of `a` and `b`.
template <typename Texts>
model::NameSet sorted_union(model::NameSet a, const Texts& b) {
    std::vector<Name> all = a.to_vector();
    for (const auto& p : b) all.emplace_back(p);
    return model::NameSet::sorted(all);
}

// The nodes of a transaction being built, each exercise in a box of its own, in node order.
struct NodesBuilt {
    std::vector<Node> nodes;
    std::vector<std::unique_ptr<ExercisedNode>> exercises;

    // The exercise node `id`, one of the boxes above (not const: the node only reads it so).
    // REQUIRES: it is an exercise.
    ExercisedNode& exercise_at(int id) {
        return const_cast<ExercisedNode&>(  // NOLINT(cppcoreguidelines-pro-type-const-cast)
            *std::get<const ExercisedNode*>(nodes[static_cast<std::size_t>(id)].event));
    }
};

// Allocates, with no state of its own, what allocate_shared asks for and trailing_bytes more
// after it, and tells where those start in trailing_at. Both are the calling thread's: set just
// before allocate_shared, read just after.
thread_local std::size_t trailing_bytes = 0;
thread_local std::byte* trailing_at = nullptr;
template <class T>
struct WithTrailing {
    using value_type = T;
    WithTrailing() = default;
    template <class U>
    explicit WithTrailing(const WithTrailing<U>& /*other*/) noexcept {}
    T* allocate(std::size_t n) {
        const std::size_t head =
            (n * sizeof(T) + alignof(std::max_align_t) - 1) & ~(alignof(std::max_align_t) - 1);
        auto* block = static_cast<std::byte*>(::operator new(head + trailing_bytes));
        trailing_at = block + head;
        return reinterpret_cast<T*>(block);
    }
    void deallocate(T* p, std::size_t /*n*/) noexcept { ::operator delete(p); }
    template <class U>
    bool operator==(const WithTrailing<U>& /*other*/) const noexcept {
        return true;
    }
};

// The node of exercise `e` of the contract `contract_id`, whose stakeholders are `stakeholders`,
// at node `id`.
ExercisedNode exercised_node(Name contract_id, const ExerciseDraft& e,
                             const model::NameSet& stakeholders, int id) {
    return ExercisedNode{
        .contract_id = contract_id,
        .template_ref = model::TemplateRef(e.template_id),
        .interface = e.interface_id ? model::TemplateRef(*e.interface_id) : model::TemplateRef(),
        .choice = Name(e.choice),
        .choice_argument = packed_of(e.packed_argument, e.argument),
        .consuming = e.consuming,
        .has_interface = e.interface_id.has_value(),
        .acting_parties = model::NameSet::sorted(e.acting_parties),
        .exercise_result = packed_of(e.packed_result, e.result),
        .stakeholders = stakeholders,
        .last_descendant = id};
}

// The update of `tx` with `nodes`, whose exercises (in node order) exercise_at(k) gives: one heap
// block holds the update and its shared count, the nodes, their exercises and the exercises'
// values (NodeList).
template <class ExerciseAt>
UpdatePtr assemble(Transaction tx, std::vector<Node>& built_nodes, std::size_t exercise_count,
                   ExerciseAt exercise_at) {
    std::size_t bytes = built_nodes.size() * sizeof(Node) + exercise_count * sizeof(ExercisedNode);
    for (std::size_t k = 0; k < exercise_count; ++k) {
        const ExercisedNode& e = exercise_at(k);
        bytes += e.choice_argument.external_size() + e.exercise_result.external_size();
    }
    trailing_bytes = bytes;
    auto update = std::allocate_shared<Update>(WithTrailing<Update>(), std::move(tx));
    auto* nodes = reinterpret_cast<Node*>(trailing_at);
    auto* exercises = reinterpret_cast<ExercisedNode*>(nodes + built_nodes.size());
    auto* values = reinterpret_cast<std::uint32_t*>(exercises + exercise_count);
    std::size_t next_exercise = 0;
    for (std::size_t i = 0; i < built_nodes.size(); ++i) {
        Node& node = built_nodes[i];
        if (std::holds_alternative<const ExercisedNode*>(node.event)) {
            auto* e = new (exercises + next_exercise)
                ExercisedNode(std::move(exercise_at(next_exercise)));
            e->choice_argument = e->choice_argument.copy_into(values);  // frees the owned bytes
            values += e->choice_argument.external_size() / 4;
            e->exercise_result = e->exercise_result.copy_into(values);
            values += e->exercise_result.external_size() / 4;
            node.event = e;
            ++next_exercise;
        }
        new (nodes + i) Node(std::move(node));
    }
    std::get<Transaction>(*update).nodes =
        NodeList(nodes, static_cast<std::uint32_t>(built_nodes.size()),
                 static_cast<std::uint32_t>(exercise_count));
    return update;
}

UpdatePtr with_nodes(Transaction tx, NodesBuilt built) {
    return assemble(std::move(tx), built.nodes, built.exercises.size(),
                    [&built](std::size_t k) -> ExercisedNode& { return *built.exercises[k]; });
}

// True when `parent` may be the parent of the node following `previous` in pre-order: a root,
// the previous node itself, or one of its ancestors.
bool in_pre_order(const std::vector<NodeDraft>& nodes, int previous, int parent) {
    for (int n = previous; n >= 0; n = nodes[static_cast<std::size_t>(n)].parent) {
        if (n == parent) return true;
    }
    return parent == -1;
}

// The reassignment counter of `contract_id`: its unassignments, every other offset of its moves.
std::int64_t counter_of(const std::unordered_map<Name, std::vector<Offset>>& reassignments,
                        Name contract_id) {
    const auto it = reassignments.find(contract_id);
    return it == reassignments.end() ? 0 : static_cast<std::int64_t>((it->second.size() + 1) / 2);
}

// A contract a draft exercises: committed before, or created earlier in the same draft.
struct Known {
    model::ContractPtr contract;
    bool consumed = false;
};

}  // namespace

UpdatePtr transaction_update(Transaction tx, std::vector<Node> nodes,
                             std::vector<ExercisedNode> exercises) {
    return assemble(std::move(tx), nodes, exercises.size(),
                    [&exercises](std::size_t k) -> ExercisedNode& { return exercises[k]; });
}

std::shared_ptr<const AcsRows> make_acs_rows(std::vector<model::ContractPtr> rows) {
    auto data = std::make_shared<AcsRows>();
    data->rows = std::move(rows);
    data->rows_by_stakeholder = index_by_stakeholder(
        data->rows, [](const model::ContractPtr& c) -> const auto& { return c->stakeholders; });
    // A network has a handful of templates: each one's key is spelt once.
    std::vector<std::pair<model::TemplateRef, std::vector<std::uint32_t>*>> lists;
    for (std::size_t i = 0; i < data->rows.size(); ++i) {
        const model::TemplateRef& ref = data->rows[i]->template_ref;
        auto it = std::find_if(lists.begin(), lists.end(),
                               [&](const auto& entry) { return entry.first == ref; });
        if (it == lists.end()) {
            const model::TemplateId t = ref.get();
            lists.emplace_back(ref,
                               &data->rows_by_template[t.package_name + ":" + t.qualified_name()]);
            it = std::prev(lists.end());
        }
        it->second->push_back(static_cast<std::uint32_t>(i));
    }
    return data;
}

Offset offset_of(const Update& u) {
    return std::visit([](const auto& x) { return x.offset; }, u);
}

model::UpdateId update_id_of(const Update& u) {
    return std::visit([](const auto& x) { return x.update_id(); }, u);
}

Name id_namespace_of(const Update& u) {
    return std::visit([](const auto& x) { return x.id_namespace; }, u);
}

Timestamp record_time_of(const Update& u) {
    return std::visit([](const auto& x) { return x.record_time; }, u);
}

std::int64_t migration_id_of(const Update& u) {
    return std::visit([](const auto& x) { return std::int64_t{x.migration_id}; }, u);
}

int last_descendant(const Transaction& tx, int id) {
    const ExercisedNode* e = exercised(tx.nodes[static_cast<std::size_t>(id)]);
    return e != nullptr ? e->last_descendant : id;
}

namespace {

// The nodes from `first` to `last` that are siblings: each one after the previous one's subtree.
std::vector<int> siblings(const Transaction& tx, int first, int last) {
    std::vector<int> out;
    for (int n = first; n <= last; n = last_descendant(tx, n) + 1) out.push_back(n);
    return out;
}

}  // namespace

std::vector<int> roots(const Transaction& tx) {
    return siblings(tx, 0, static_cast<int>(tx.nodes.size()) - 1);
}

std::vector<int> children(const Transaction& tx, int id) {
    return siblings(tx, id + 1, last_descendant(tx, id));
}

LedgerStore::LedgerStore(model::Network network, Timestamp genesis_time)
    : network_(std::move(network)),
      genesis_time_(genesis_time),
      id_namespace_(network_.id_namespace),
      now_(genesis_time) {}

std::int64_t LedgerStore::round_at(Timestamp t) const {
    constexpr std::int64_t round_micros = 600'000'000;
    return std::max<std::int64_t>(0, (t.micros - genesis_time_.micros) / round_micros);
}

History::~History() = default;

const UpdatePtr& History::read(std::size_t position) const {
    const std::lock_guard lock(unread_->mutex);
    if (!unread_->read[position].load(std::memory_order_relaxed)) {
        updates_[position] =
            unread_->decoder->decode(static_cast<Offset>(position) + 1, *contracts_);
        unread_->read[position].store(true, std::memory_order_release);
    }
    return updates_[position];
}

model::UpdateId History::update_id(std::size_t position) const {
    if (unread_ != nullptr && position < unread_->count) {
        return model::UpdateId::of(unread_->id_namespaces[position].view(),
                                   static_cast<Offset>(position) + 1);
    }
    return update_id_of(*updates_[position]);
}

std::shared_ptr<const void> History::stop_borrowing() const {
    return unread_ == nullptr ? nullptr : unread_->decoder->stop_borrowing();
}

bool History::is_read(std::size_t position) const {
    return unread_ == nullptr || position >= unread_->count ||
           unread_->read[position].load(std::memory_order_acquire);
}

void History::restore(std::vector<UpdatePtr> updates, std::unique_ptr<Decoder> decoder,
                      std::vector<Name> id_namespaces) {
    if (!updates_.empty()) throw std::logic_error("a history restored over another");
    if (decoder != nullptr) {
        if (id_namespaces.size() != updates.size())
            throw std::logic_error("a restored history without an id namespace for each update");
        auto unread = std::make_unique<Unread>();
        unread->count = updates.size();
        unread->decoder = std::move(decoder);
        unread->id_namespaces = std::move(id_namespaces);
        unread->read = std::make_unique<std::atomic<bool>[]>(updates.size());
        for (std::size_t i = 0; i < updates.size(); ++i)
            unread->read[i].store(updates[i] != nullptr, std::memory_order_relaxed);
        unread_ = std::move(unread);
    }
    updates_ = std::move(updates);
}

void History::swap(History& other) noexcept {
    std::swap(updates_, other.updates_);
    std::swap(unread_, other.unread_);
}

LedgerStore::~LedgerStore() = default;

void LedgerStore::set_genesis_time(Timestamp t) {
    const std::unique_lock lock(mutex_);
    if (now_ < t) throw AppendError("the clock cannot start after its time now");
    genesis_time_ = t;
}

Offset LedgerStore::next_offset() const {
    const std::shared_lock lock(mutex_);
    return static_cast<Offset>(history_.size()) + 1;
}

void LedgerStore::reserve(std::size_t updates, std::size_t contracts) {
    const std::unique_lock lock(mutex_);
    history_.reserve(history_.size() + updates);
    offset_of_update_.reserve(offset_of_update_.size() + updates);
    sequence_of_.reserve(sequence_of_.size() + contracts);
}

std::string LedgerStore::update_id_for(Offset offset) const {
    return model::make_update_id(network_.id_namespace, offset);
}

void LedgerStore::check_time(Timestamp t) const {
    if (t < now_) {
        throw AppendError("time goes backwards: " + model::format_instant(t) +
                          " is before the ledger time " + model::format_instant(now_));
    }
}

void LedgerStore::check_room(std::size_t new_contracts) const {
    constexpr std::size_t most = std::numeric_limits<std::uint32_t>::max();
    if (history_.size() >= most || contracts_.size() + new_contracts > most) {
        throw AppendError("the ledger is full: it holds at most " + std::to_string(most) +
                          " updates and as many contracts");
    }
}

void LedgerStore::push(Update update) {
    push(std::make_shared<const Update>(std::move(update)));
}

void LedgerStore::push(UpdatePtr update) {
    undo_.set(now_, std::max(now_, record_time_of(*update)));
    undo_.push_back(history_, std::move(update));
    const Update& stored = *history_.back();
    const auto position = static_cast<std::uint32_t>(offset_of(stored) - 1);
    // An id derived from the network's namespace is like no other: while the ids before it wait
    // for the first lookup by id, it waits with them (a tenth of a large seed's load went to
    // hashing and placing each as it came).
    if (!ids_indexed_.load(std::memory_order_relaxed) && position == unindexed_ids_ &&
        id_namespace_of(stored) == id_namespace_) {
        ++unindexed_ids_;
        undo_.record([this, position] {
            if (ids_indexed_.load(std::memory_order_relaxed)) offset_of_update_.erase(position);
            unindexed_ids_ = position;
        });
    } else {
        offset_of_update_.insert(position);
        undo_.record([this, position] { offset_of_update_.erase(position); });
    }
    if (const auto* tx = std::get_if<Transaction>(&stored);
        tx != nullptr && !tx->external_transaction_hash.empty())
        undo_.assign(offset_of_external_hash_, tx->external_transaction_hash.str(), tx->offset);
}

void LedgerStore::rollback(UndoLog::Mark mark) {
    const std::unique_lock lock(mutex_);
    undo_.rollback(mark);
    last_acs_rows_.reset();  // the ACS may be back to another state under the same version
    for (const auto& e : extensions_) e->on_rollback();
}

std::shared_ptr<const void> LedgerStore::stop_borrowing() const {
    const std::shared_lock lock(mutex_);
    return history_.stop_borrowing();
}

void LedgerStore::swap_contents(LedgerStore& other) {
    const std::scoped_lock lock(mutex_, other.mutex_);
    if (extensions_.size() != other.extensions_.size())
        throw std::logic_error("stores with other extensions do not exchange their contents");
    using std::swap;
    swap(network_, other.network_);
    swap(genesis_time_, other.genesis_time_);
    swap(id_namespace_, other.id_namespace_);
    history_.swap(other.history_);  // its own: each keeps its contracts
    swap(completions_, other.completions_);
    swap(completion_keys_, other.completion_keys_);
    swap(contracts_, other.contracts_);
    sequence_of_.swap(other.sequence_of_);  // its own: it keeps its container
    swap(reassignments_, other.reassignments_);
    offset_of_update_.swap(other.offset_of_update_);
    const bool indexed = ids_indexed_.load();
    ids_indexed_.store(other.ids_indexed_.load());
    other.ids_indexed_.store(indexed);
    swap(unindexed_ids_, other.unindexed_ids_);
    swap(offset_of_external_hash_, other.offset_of_external_hash_);
    swap(now_, other.now_);
    swap(migration_id_, other.migration_id_);
    swap(imports_, other.imports_);
    swap(snapshots_, other.snapshots_);
    swap(next_acs_row_id_, other.next_acs_row_id_);
    swap(last_acs_rows_, other.last_acs_rows_);
    swap(last_acs_rows_version_, other.last_acs_rows_version_);
    swap(acs_version_, other.acs_version_);
    swap(in_flight_, other.in_flight_);
    swap(templates_, other.templates_);
    swap(fork_base_size_, other.fork_base_size_);
    swap(fork_base_migration_id_, other.fork_base_migration_id_);
    swap(fork_base_created_in_, other.fork_base_created_in_);
    for (std::size_t i = 0; i < extensions_.size(); ++i)
        extensions_[i]->on_swap(*other.extensions_[i]);
    // What the log would undo is the other contents' now.
    undo_.clear();
    other.undo_.clear();
}

void LedgerStore::add_extension(std::unique_ptr<LedgerExtension> extension) {
    const std::unique_lock lock(mutex_);
    extensions_.push_back(std::move(extension));
}

void LedgerStore::add_synchronizer(const std::string& synchronizer_id) {
    const std::unique_lock lock(mutex_);
    auto& others = network_.other_synchronizers;
    if (synchronizer_id == network_.synchronizer_id ||
        std::find(others.begin(), others.end(), synchronizer_id) != others.end())
        return;
    undo_.push_back(others, synchronizer_id);
}

void LedgerStore::add_party(const std::string& alias, const Party& party) {
    const std::unique_lock lock(mutex_);
    if (network_.parties.contains(alias)) throw AppendError("party alias '" + alias + "' exists");
    undo_.assign(network_.parties, alias, party);
}

void LedgerStore::set_external_key(const Party& party, std::string key) {
    const std::unique_lock lock(mutex_);
    undo_.assign(network_.external_keys, party, std::move(key));
}

void LedgerStore::add_user(model::User user) {
    const std::unique_lock lock(mutex_);
    if (network_.find_user(user.id) != nullptr) throw AppendError("user '" + user.id + "' exists");
    undo_.push_back(network_.users, std::move(user));
}

void LedgerStore::set_user_rights(const std::string& id, model::LedgerRights rights) {
    const std::unique_lock lock(mutex_);
    const auto it = std::find_if(network_.users.begin(), network_.users.end(),
                                 [&](const model::User& u) { return u.id == id; });
    if (it == network_.users.end()) throw AppendError("no user '" + id + "'");
    // By index: a later add_user may move the users, and its undo runs first.
    const auto index = static_cast<std::size_t>(it - network_.users.begin());
    undo_.record([this, index, old = std::move(it->rights)]() mutable {
        network_.users[index].rights = std::move(old);
    });
    it->rights = std::move(rights);
}

void LedgerStore::replace_user(model::User user) {
    const std::unique_lock lock(mutex_);
    const auto it = std::find_if(network_.users.begin(), network_.users.end(),
                                 [&](const model::User& u) { return u.id == user.id; });
    if (it == network_.users.end()) throw AppendError("no user '" + user.id + "'");
    const auto index = static_cast<std::size_t>(it - network_.users.begin());
    undo_.record(
        [this, index, old = std::move(*it)]() mutable { network_.users[index] = std::move(old); });
    *it = std::move(user);
}

void LedgerStore::remove_user(const std::string& id) {
    const std::unique_lock lock(mutex_);
    const auto it = std::find_if(network_.users.begin(), network_.users.end(),
                                 [&](const model::User& u) { return u.id == id; });
    if (it == network_.users.end()) throw AppendError("no user '" + id + "'");
    // Back at its index: the users after it keep theirs, which earlier undo entries name.
    const auto index = static_cast<std::size_t>(it - network_.users.begin());
    undo_.record([this, index, old = std::move(*it)]() mutable {
        network_.users.insert(network_.users.begin() + static_cast<std::ptrdiff_t>(index),
                              std::move(old));
    });
    network_.users.erase(it);
}

namespace {

std::string completion_key(const std::string& user_id, const std::string& command_id,
                           std::vector<Party> act_as) {
    std::sort(act_as.begin(), act_as.end());
    act_as.erase(std::unique(act_as.begin(), act_as.end()), act_as.end());
    std::string key = user_id + '\n' + command_id;
    for (const Party& p : act_as) key += '\n' + p;
    return key;
}

}  // namespace

void LedgerStore::add_completion(CommandCompletion c) {
    const std::unique_lock lock(mutex_);
    const std::string key = completion_key(c.user_id, c.command_id, c.act_as);
    undo_.push_back(completions_, std::move(c));
    undo_.assign(completion_keys_, key, completions_.size() - 1);
}

std::optional<CommandCompletion> LedgerStore::latest_completion(const std::string& user_id,
                                                                const std::string& command_id,
                                                                std::vector<Party> act_as) const {
    const std::shared_lock lock(mutex_);
    const auto it = completion_keys_.find(completion_key(user_id, command_id, std::move(act_as)));
    if (it == completion_keys_.end()) return std::nullopt;
    return completions_[it->second];
}

std::vector<CommandCompletion> LedgerStore::completions_after(
    Offset begin, std::size_t limit,
    const std::function<bool(const CommandCompletion&)>& keep) const {
    const std::shared_lock lock(mutex_);
    auto it = std::upper_bound(completions_.begin(), completions_.end(), begin,
                               [](Offset o, const CommandCompletion& c) { return o < c.offset; });
    std::vector<CommandCompletion> out;
    for (; it != completions_.end() && out.size() < limit; ++it) {
        if (keep(*it)) out.push_back(*it);
    }
    return out;
}

std::uint32_t LedgerStore::active_sequence(const std::string& contract_id) const {
    const auto sequence = sequence_of(contract_id);
    if (!sequence) throw AppendError("unknown contract " + contract_id);
    if (contracts_[*sequence].archived_offset()) {
        throw AppendError("contract " + contract_id + " is archived");
    }
    return *sequence;
}

ContractState& LedgerStore::active_state(const std::string& contract_id) {
    return contracts_[active_sequence(contract_id)];
}

model::UpdateId LedgerStore::id_for(Offset offset) const {
    return model::UpdateId::of(network_.id_namespace, offset);
}

std::optional<std::uint32_t> LedgerStore::sequence_of(std::string_view contract_id) const {
    const auto id = Name::find(contract_id);
    return id ? sequence_of_.find(*id) : std::nullopt;
}

void LedgerStore::record_reassignment(Name contract_id, Offset offset) {
    if (const auto it = reassignments_.find(contract_id); it != reassignments_.end()) {
        undo_.push_back(it->second, offset);
    } else {
        undo_.assign(reassignments_, contract_id, std::vector<Offset>{offset});
    }
}

template <typename Visit>
void LedgerStore::for_each_active(Visit visit) const {
    for (const ContractState& state : contracts_) {
        if (!state.archived_offset()) visit(state);
    }
}

void LedgerStore::archive(const std::string& contract_id, Offset offset) {
    const std::uint32_t sequence = active_sequence(contract_id);
    ContractState& state = contracts_[sequence];
    undo_.set(state.archived_at, static_cast<std::uint32_t>(offset));  // check_room: it fits
    for (const auto& e : extensions_) e->on_archived(*state.contract, sequence);
    ++acs_version_;
}

void LedgerStore::append_transaction(const TransactionDraft& draft) {
    const std::unique_lock lock(mutex_);
    const Offset expected = static_cast<Offset>(history_.size()) + 1;
    if (draft.offset != expected ||
        (!draft.keeps_update_id && draft.update_id != id_for(draft.offset))) {
        throw AppendError("the draft is for offset " + std::to_string(draft.offset) +
                          " but the next offset is " + std::to_string(expected));
    }
    const std::optional<model::UpdateId> kept =
        draft.keeps_update_id ? std::optional(draft.update_id) : std::nullopt;
    check_kept(kept);
    check_time(draft.record_time);
    check_room(draft.nodes.size());
    if (draft.nodes.empty()) throw AppendError("a transaction needs at least one node");
    if (draft.paid_traffic_cost &&
        (*draft.paid_traffic_cost < 0 ||
         *draft.paid_traffic_cost > std::numeric_limits<std::int32_t>::max()))
        throw AppendError("a paid traffic cost is 0 to 2^31 - 1 bytes");

    // Validate everything and build the nodes before changing anything.
    // The contracts this transaction created or exercised so far (a handful).
    std::vector<std::pair<Name, Known>> known;
    const auto find_known = [&known](Name id) {
        return std::find_if(known.begin(), known.end(),
                            [id](const auto& entry) { return entry.first == id; });
    };
    NodesBuilt built;
    Transaction tx{.offset = draft.offset,
                   .command_id = Name(draft.command_id),
                   .workflow_id = Name(draft.workflow_id),
                   .submitters = model::NameSet(
                       std::vector<Name>(draft.submitters.begin(), draft.submitters.end())),
                   .synchronizer_id = Name(draft.synchronizer_id),
                   .id_namespace = id_source(kept),
                   .migration_id = static_cast<std::int32_t>(migration_id_),
                   .external_transaction_hash = Name(draft.external_transaction_hash),
                   .traffic_cost = draft.paid_traffic_cost
                                       ? static_cast<std::int32_t>(*draft.paid_traffic_cost)
                                       : Transaction::no_traffic_cost,
                   .effective_at = draft.effective_at,
                   .record_time = draft.record_time};
    for (std::size_t i = 0; i < draft.nodes.size(); ++i) {
        const NodeDraft& nd = draft.nodes[i];
        const int id = static_cast<int>(i);
        if (nd.parent >= id || !in_pre_order(draft.nodes, id - 1, nd.parent) ||
            (nd.parent >= 0 && !std::holds_alternative<ExerciseDraft>(
                                   draft.nodes[static_cast<std::size_t>(nd.parent)].event))) {
            throw AppendError("node " + std::to_string(id) +
                              " is not in pre-order under an exercise");
        }
        model::NameSet informees;
        if (const auto* c = std::get_if<CreateDraft>(&nd.event)) {
            if (c->signatories.empty())
                throw AppendError("a contract needs at least one signatory");
            const std::string cid = draft.contract_id_of(id);
            if (sequence_of(cid)) throw AppendError("contract " + cid + " exists already");
            auto contract = model::make_contract(
                cid, c->template_id, packed_of(c->packed_argument, c->argument), c->signatories,
                c->observers, draft.effective_at, draft.offset, id);
            informees = contract->stakeholders;
            known.emplace_back(contract->contract_id, Known{.contract = contract});
            built.nodes.push_back(Node{.event = CreatedNode{contract}, .node_id = id});
        } else {
            const auto& e = std::get<ExerciseDraft>(nd.event);
            if (e.acting_parties.empty()) throw AppendError("an exercise needs acting parties");
            const std::optional<Name> target_id = Name::find(e.contract_id);
            auto it = target_id ? find_known(*target_id) : known.end();
            if (e.contract_unknown && it == known.end()) {
                if (sequence_of(e.contract_id))
                    throw AppendError("contract " + e.contract_id + " is not unknown");
                informees = model::NameSet::sorted(e.acting_parties);
                built.exercises.push_back(std::make_unique<ExercisedNode>(
                    exercised_node(Name(e.contract_id), e, model::NameSet(), id)));
            } else {
                if (it == known.end()) {
                    const ContractState& state = active_state(e.contract_id);
                    if (state.synchronizer_id.empty()) {
                        throw AppendError("contract " + e.contract_id +
                                          " is unassigned (in flight)");
                    }
                    if (state.synchronizer_id != draft.synchronizer_id) {
                        throw AppendError("contract " + e.contract_id + " is on " +
                                          state.synchronizer_id + ", not on " +
                                          draft.synchronizer_id);
                    }
                    known.emplace_back(state.contract->contract_id,
                                       Known{.contract = state.contract});
                    it = std::prev(known.end());
                }
                if (it->second.consumed) {
                    throw AppendError("contract " + e.contract_id +
                                      " was consumed earlier in this transaction");
                }
                const model::Contract& target = *it->second.contract;
                const model::TemplateId target_template = target.template_id();
                if (!e.interface_id && !target_template.same_template(e.template_id)) {
                    throw AppendError("contract " + e.contract_id + " is a " +
                                      target_template.qualified_name() + ", not a " +
                                      e.template_id.qualified_name());
                }
                it->second.consumed = e.consuming;
                informees = sorted_union(e.consuming ? target.stakeholders : target.signatories,
                                         e.acting_parties);
                built.exercises.push_back(std::make_unique<ExercisedNode>(
                    exercised_node(it->second.contract->contract_id, e, target.stakeholders, id)));
            }
            built.nodes.push_back(Node{.event = built.exercises.back().get(), .node_id = id});
        }
        Node& node = built.nodes.back();
        node.witnesses =
            nd.parent < 0
                ? informees
                : sorted_union(informees,
                               built.nodes[static_cast<std::size_t>(nd.parent)].witnesses);
    }
    for (std::size_t i = draft.nodes.size(); i-- > 0;) {
        const int parent = draft.nodes[i].parent;
        if (parent < 0) continue;
        const ExercisedNode* below = exercised(built.nodes[i]);
        ExercisedNode& up = built.exercise_at(parent);
        up.last_descendant =
            std::max(up.last_descendant, below ? below->last_descendant : static_cast<int>(i));
    }

    for (const auto& e : extensions_) e->prepare(draft);

    // Apply, in node order (a contract created and consumed in the same transaction works).
    for (std::size_t i = 0; i < draft.nodes.size(); ++i) {
        if (const auto* created = std::get_if<CreatedNode>(&built.nodes[i].event)) {
            add_created(created->contract, draft, i);
        } else {
            const auto& e = std::get<ExerciseDraft>(draft.nodes[i].event);
            for (const auto& x : extensions_) x->on_exercised(e, draft.update_id, draft.offset);
            // An exercise of a contract the ledger never held has no stakeholders: nothing to
            // archive.
            if (e.consuming && !exercised(built.nodes[i])->stakeholders.empty())
                archive(e.contract_id, draft.offset);
        }
    }
    push(with_nodes(std::move(tx), std::move(built)));
}

namespace {

// The update id a reassignment keeps, if any.
std::optional<model::UpdateId> kept_update_id(const std::optional<LedgerStore::KeptIds>& kept) {
    return kept ? std::optional(kept->update_id) : std::nullopt;
}

}  // namespace

std::optional<std::size_t> LedgerStore::index_restored_ids(std::size_t count) const {
    offset_of_update_.reserve(offset_of_update_.size() + count);
    for (std::size_t i = 0; i < count; ++i) {
        const auto position = static_cast<std::uint32_t>(i);
        if (!offset_of_update_.insert(
                position, decltype(offset_of_update_)::hash_of(history_.update_id(position))))
            return i;
    }
    return std::nullopt;
}

void LedgerStore::index_update_ids() const {
    if (ids_indexed_.load(std::memory_order_acquire)) return;
    const std::lock_guard lock(ids_mutex_);
    if (ids_indexed_.load(std::memory_order_relaxed)) return;
    if (index_restored_ids(unindexed_ids_))
        throw std::logic_error("an update id there twice, of a history that has none alike");
    ids_indexed_.store(true, std::memory_order_release);
}

bool LedgerStore::update_ids_indexed() const {
    return ids_indexed_.load(std::memory_order_acquire);
}

void LedgerStore::check_kept(const std::optional<model::UpdateId>& kept) const {
    if (!kept) return;
    index_update_ids();
    if (offset_of_update_.find(*kept))
        throw AppendError("update " + kept->str() + " exists already");
}

Name LedgerStore::id_source(const std::optional<model::UpdateId>& kept) const {
    return kept ? Name(model::kept_id_source(*kept)) : id_namespace_;
}

void LedgerStore::add_created(const model::ContractPtr& c, const TransactionDraft& draft,
                              std::size_t node) {
    const std::uint64_t sequence = contracts_.size();
    undo_.push_back(contracts_,
                    ContractState{.contract = c, .synchronizer_id = Name(draft.synchronizer_id)});
    sequence_of_.insert(static_cast<std::uint32_t>(sequence));
    undo_.record([this, sequence] { sequence_of_.erase(static_cast<std::uint32_t>(sequence)); });
    undo_.insert(templates_, c->template_ref);
    const CreatedEvent event{.contract = c,
                             .sequence = sequence,
                             .node = node,
                             .update_id = draft.update_id,
                             .offset = draft.offset};
    for (const auto& e : extensions_) e->on_created(event);
    ++acs_version_;
}

void LedgerStore::add_fork_base(const TransactionDraft& draft, std::int64_t migration_id) {
    const std::unique_lock lock(mutex_);
    if (!history_.empty()) throw AppendError("a fork's base comes before any update");
    if (migration_id < 0 || migration_id >= std::numeric_limits<std::int32_t>::max())
        throw AppendError("no migration id " + std::to_string(migration_id));
    check_room(draft.nodes.size());
    std::vector<model::ContractPtr> contracts;
    contracts.reserve(draft.nodes.size());
    for (std::size_t i = 0; i < draft.nodes.size(); ++i) {
        const auto* c = std::get_if<CreateDraft>(&draft.nodes[i].event);
        if (c == nullptr || draft.nodes[i].parent >= 0)
            throw AppendError("a fork's base holds creates only, each a root");
        if (c->signatories.empty()) throw AppendError("a contract needs at least one signatory");
        const std::string cid = draft.contract_id_of(static_cast<int>(i));
        if (sequence_of(cid) || std::any_of(contracts.begin(), contracts.end(),
                                            [&](const auto& k) { return k->contract_id == cid; }))
            throw AppendError("contract " + cid + " exists already");
        const int node = static_cast<int>(i);
        contracts.push_back(
            model::make_contract(cid, c->template_id, packed_of(c->packed_argument, c->argument),
                                 c->signatories, c->observers, draft.effective_at, 0, node));
    }
    for (const auto& e : extensions_) e->prepare(draft);
    undo_.set(migration_id_, migration_id);
    undo_.set(fork_base_migration_id_, migration_id);
    if (!contracts.empty()) {
        undo_.push_back(
            fork_base_created_in_,
            std::pair{
                static_cast<std::uint32_t>(contracts_.size()),
                draft.keeps_update_id ? Name(model::kept_id_source(draft.update_id)) : Name()});
    }
    undo_.set(fork_base_size_, fork_base_size_ + contracts.size());
    for (std::size_t i = 0; i < contracts.size(); ++i) add_created(contracts[i], draft, i);
}

LedgerStore::Restoring LedgerStore::restore(Image&& image, const Alongside& alongside) {
    const std::unique_lock lock(mutex_);
    if (!history_.empty() || !contracts_.empty() || !snapshots_.empty())
        throw AppendError("only an empty ledger is restored");
    constexpr std::size_t most = std::numeric_limits<std::uint32_t>::max();
    if (image.history.size() >= most || image.contracts.size() > most)
        throw AppendError("the ledger is full");
    if (image.fork_base_size > image.contracts.size())
        throw AppendError("the fork's base holds more contracts than the ledger");
    // The history and the indexes that follow it. Those left to the decoder are read when asked
    // for; what the indexes need of them came with the image.
    for (std::size_t i = 0; i < image.history.size(); ++i) {
        if (image.history[i] == nullptr
                ? image.decoder == nullptr
                : offset_of(*image.history[i]) != static_cast<Offset>(i) + 1)
            throw AppendError("update " + std::to_string(i + 1) + " is out of place");
    }
    if ((image.decoder != nullptr || !image.id_namespaces.empty()) &&
        image.id_namespaces.size() != image.history.size())
        throw std::logic_error("an image without an id namespace for each update");
    // The contracts are taken whole: a copy would count a reference on each, a cache miss on a
    // contract nothing else reads yet, where the index below misses on it anyway, and the image
    // would count each down again when it goes.
    contracts_.swap(image.contracts);
    // Should this throw, the future's destructor (std::async's) waits for `alongside`, which
    // reads contracts_.
    std::future<void> beside;
    if (alongside) {
        beside = std::async(std::launch::async, [this, &alongside] { alongside(contracts_); });
    }
    // The update ids' index (a SHA-256 an update, a tenth of a load). When each id derives from
    // the network's namespace, no two are alike: the first lookup by id builds it
    // (index_update_ids). Otherwise (a fork's kept ids), it is built now on another thread while
    // this one builds the rest, and the caller the views, reading history_ alone, to find an id
    // there twice.
    const bool ids_alike_none = !image.id_namespaces.empty() &&
                                std::all_of(image.id_namespaces.begin(), image.id_namespaces.end(),
                                            [this](Name n) { return n == id_namespace_; });
    history_.restore(std::move(image.history), std::move(image.decoder),
                     std::move(image.id_namespaces));
    const auto unread = [this](std::size_t position) { return !history_.is_read(position); };
    Restoring restoring;
    restoring.store_ = this;
    if (ids_alike_none) {
        unindexed_ids_ = history_.size();
        ids_indexed_.store(unindexed_ids_ == 0);
    } else {
        ids_indexed_.store(true);
        restoring.ids_ =
            std::async(std::launch::async, [this] { return index_restored_ids(history_.size()); });
    }
    // One pass over the contracts, each read once: its template, its index by id, and where it
    // was made and archived. Each was created by the node that says so, and archived by a
    // transaction that consumes it: readers go from one to the other. Of the transactions left to
    // read, the image's caller checked the creates, and the consuming exercises are counted.
    sequence_of_.reserve(contracts_.size());
    const model::TemplateRef* last_template = nullptr;  // a network has a handful
    std::size_t archived_unread = 0;                    // archived by a transaction left to read
    for (std::size_t sequence = 0; sequence < contracts_.size(); ++sequence) {
        const ContractState& state = contracts_[sequence];
        const model::Contract& c = *state.contract;
        if (last_template == nullptr || *last_template != c.template_ref) {
            templates_.insert(c.template_ref);
            last_template = &c.template_ref;
        }
        if (!sequence_of_.insert(static_cast<std::uint32_t>(sequence)))
            throw AppendError("contract " + c.contract_id.str() + " is there twice");
        if (c.created_offset > history_.size() || state.archived_at > history_.size() ||
            (state.archived_at != 0 && state.archived_at <= c.created_offset))
            throw AppendError("contract " + c.contract_id.str() + " is out of its history");
        if (c.created_offset != 0 && !unread(c.created_offset - 1)) {
            const auto* tx = std::get_if<Transaction>(history_[c.created_offset - 1].get());
            const CreatedNode* node =
                tx != nullptr && static_cast<std::size_t>(c.created_node_id) < tx->nodes.size()
                    ? created(tx->nodes[static_cast<std::size_t>(c.created_node_id)])
                    : nullptr;
            if (node == nullptr || node->contract != state.contract)
                throw AppendError("contract " + c.contract_id.str() + " is not where it was made");
        }
        if (state.archived_at == 0) continue;
        if (unread(state.archived_at - 1)) {
            ++archived_unread;
            continue;
        }
        const auto* tx = std::get_if<Transaction>(history_[state.archived_at - 1].get());
        const bool archived =
            tx != nullptr && std::any_of(tx->nodes.begin(), tx->nodes.end(), [&c](const Node& n) {
                const ExercisedNode* e = exercised(n);
                return e != nullptr && e->consuming && e->contract_id == c.contract_id;
            });
        if (!archived)
            throw AppendError("contract " + c.contract_id.str() + " is archived by no transaction");
    }
    // The contracts that transactions left to read consume, each once: when as many as are
    // archived by those, each of those is one of them.
    std::vector<bool> consumed(contracts_.size());
    std::size_t consumed_count = 0;
    for (const auto& [contract_id, offset] : image.consumed) {
        const auto sequence = sequence_of_.find(contract_id);  // a Name: no text hashed
        if (sequence && !consumed[*sequence] && contracts_[*sequence].archived_at == offset &&
            unread(static_cast<std::size_t>(offset) - 1)) {
            consumed[*sequence] = true;
            ++consumed_count;
        }
    }
    if (consumed_count != archived_unread) {
        for (std::size_t sequence = 0; sequence < contracts_.size(); ++sequence) {
            const ContractState& state = contracts_[sequence];
            if (state.archived_at != 0 && unread(state.archived_at - 1) && !consumed[sequence]) {
                throw AppendError("contract " + state.contract->contract_id.str() +
                                  " is archived by no transaction");
            }
        }
    }
    for (const auto& [hash, offset] : image.external_hashes) {
        if (offset < 1 || offset > static_cast<Offset>(history_.size()) ||
            !unread(static_cast<std::size_t>(offset - 1)))
            throw AppendError("an external hash of no transaction left to read");
        offset_of_external_hash_[hash.str()] = offset;
    }
    for (std::size_t i = 0; i < history_.size(); ++i) {
        if (unread(i)) continue;
        const Update& update = *history_[i];
        if (const auto* tx = std::get_if<Transaction>(&update)) {
            if (!tx->external_transaction_hash.empty())
                offset_of_external_hash_[tx->external_transaction_hash.str()] = tx->offset;
        } else if (const auto* r = std::get_if<Reassignment>(&update)) {
            reassignments_[r->contract->contract_id].push_back(r->offset);
            if (r->kind == Reassignment::Kind::unassign) {
                in_flight_[r->contract->contract_id.str()] = *r;
            } else {
                in_flight_.erase(r->contract->contract_id.str());
            }
        }
    }
    for (const SnapshotPtr& snapshot : image.snapshots) {
        if (snapshot->ledger_end < 0 ||
            snapshot->ledger_end > static_cast<std::int64_t>(history_.size()))
            throw AppendError("a snapshot comes after the history");
    }
    // The contracts each migration re-imported.
    for (const auto& [migration, imported] : image.imports) {
        auto& imports = imports_[migration];
        for (const auto& [sequence, synchronizer] : imported) {
            if (sequence >= contracts_.size()) throw AppendError("an import of no contract");
            const model::ContractPtr& c = contracts_[sequence].contract;
            imports[c->contract_id.view()] = ImportUpdate{
                .contract = c, .migration_id = migration, .synchronizer_id = synchronizer.str()};
        }
    }
    for (const SnapshotPtr& snapshot : image.snapshots) {
        next_acs_row_id_ += static_cast<std::int64_t>(snapshot->acs.rows.size());
        const Timestamp at = snapshot->record_time;
        if (!snapshots_[snapshot->migration_id].emplace(at, snapshot).second)
            throw AppendError("a snapshot is there twice");
    }
    now_ = image.now;
    migration_id_ = image.migration_id;
    fork_base_size_ = image.fork_base_size;
    fork_base_migration_id_ = image.fork_base_migration_id;
    fork_base_created_in_ = std::move(image.fork_base_created_in);
    if (beside.valid()) beside.get();
    return restoring;
}

void LedgerStore::Restoring::finish() {
    if (!ids_.valid()) return;
    if (const auto twice = ids_.get()) {
        throw AppendError("update " + store_->history_.update_id(*twice).str() + " is there twice");
    }
}

std::vector<std::pair<std::uint32_t, Name>> LedgerStore::fork_base_runs() const {
    const std::shared_lock lock(mutex_);
    return fork_base_created_in_;
}

std::vector<model::ContractPtr> LedgerStore::fork_base() const {
    const std::shared_lock lock(mutex_);
    std::vector<model::ContractPtr> out;
    out.reserve(fork_base_size_);
    for (std::size_t i = 0; i < fork_base_size_; ++i) out.push_back(contracts_[i].contract);
    return out;
}

std::optional<model::UpdateId> LedgerStore::fork_base_created_in(
    std::string_view contract_id) const {
    const std::shared_lock lock(mutex_);
    const std::optional<std::uint32_t> sequence = sequence_of(contract_id);
    if (!sequence || *sequence >= fork_base_size_) return std::nullopt;
    const auto run =
        std::upper_bound(fork_base_created_in_.begin(), fork_base_created_in_.end(), *sequence,
                         [](std::uint32_t s, const auto& entry) { return s < entry.first; });
    if (run == fork_base_created_in_.begin() || std::prev(run)->second.empty()) return std::nullopt;
    return model::UpdateId::of(std::prev(run)->second.view(), 0);
}

std::int64_t LedgerStore::fork_base_migration_id() const {
    const std::shared_lock lock(mutex_);
    return fork_base_migration_id_;
}

void LedgerStore::unassign(const std::string& contract_id, const std::string& target,
                           const Party& submitter, Timestamp record_time,
                           const std::optional<KeptIds>& kept) {
    const std::unique_lock lock(mutex_);
    check_time(record_time);
    check_room(0);
    check_kept(kept_update_id(kept));
    ContractState& state = active_state(contract_id);
    if (state.synchronizer_id.empty())
        throw AppendError("contract " + contract_id + " is already in flight");
    const auto& others = network_.other_synchronizers;
    if (target != network_.synchronizer_id &&
        std::find(others.begin(), others.end(), target) == others.end()) {
        throw AppendError("unknown synchronizer " + target);
    }
    if (target == state.synchronizer_id)
        throw AppendError("contract " + contract_id + " is on " + target + " already");
    const Offset offset = static_cast<Offset>(history_.size()) + 1;
    const std::string update_id = update_id_for(offset);
    Reassignment r{
        .offset = offset,
        .contract = state.contract,
        .kind = Reassignment::Kind::unassign,
        .submitter = Name(submitter),
        .source_synchronizer = state.synchronizer_id,
        .target_synchronizer = Name(target),
        .unassign_id =
            Name(kept && !kept->unassign_id.empty() ? kept->unassign_id
                                                    : model::sha256_hex("unassign/" + update_id)),
        .id_namespace = id_source(kept_update_id(kept)),
        .reassignment_counter = counter_of(reassignments_, state.contract->contract_id) + 1,
        .migration_id = migration_id_,
        .record_time = record_time};
    undo_.set(state.synchronizer_id, Name());
    undo_.assign(in_flight_, contract_id, r);
    record_reassignment(state.contract->contract_id, offset);
    push(std::move(r));
}

void LedgerStore::assign(const std::string& contract_id, const Party& submitter,
                         Timestamp record_time, const std::optional<KeptIds>& kept) {
    const std::unique_lock lock(mutex_);
    check_time(record_time);
    check_room(0);
    check_kept(kept_update_id(kept));
    ContractState& state = active_state(contract_id);
    const auto pending = in_flight_.find(contract_id);
    if (pending == in_flight_.end())
        throw AppendError("contract " + contract_id + " is not in flight");
    const Offset offset = static_cast<Offset>(history_.size()) + 1;
    Reassignment r = pending->second;
    r.offset = offset;
    r.kind = Reassignment::Kind::assign;
    r.id_namespace = id_source(kept_update_id(kept));
    r.submitter = Name(submitter);
    r.record_time = record_time;
    undo_.set(state.synchronizer_id, r.target_synchronizer);
    undo_.erase(in_flight_, contract_id);
    record_reassignment(state.contract->contract_id, offset);
    push(std::move(r));
}

void LedgerStore::migrate(Timestamp record_time) {
    const std::unique_lock lock(mutex_);
    check_time(record_time);
    check_room(0);
    // A transaction keeps its migration id in 32 bits.
    if (migration_id_ >= std::numeric_limits<std::int32_t>::max())
        throw AppendError("no migration after " + std::to_string(migration_id_));
    undo_.set(migration_id_, migration_id_ + 1);
    undo_.assign(imports_, migration_id_, std::map<std::string_view, ImportUpdate>{});
    auto& imports = imports_[migration_id_];
    for_each_active([&](const ContractState& state) {
        imports[state.contract->contract_id.view()] = ImportUpdate{
            .contract = state.contract,
            .migration_id = migration_id_,
            .synchronizer_id = state.synchronizer_id.empty() ? network_.synchronizer_id
                                                             : state.synchronizer_id.str()};
    });
    const Offset offset = static_cast<Offset>(history_.size()) + 1;
    push(Migration{.offset = offset,
                   .id_namespace = id_namespace_,
                   .migration_id = migration_id_,
                   .record_time = record_time,
                   .imported_contracts = imports.size()});
}

void LedgerStore::take_snapshot(Timestamp record_time) {
    const std::unique_lock lock(mutex_);
    check_time(record_time);
    if (!snapshots_.contains(migration_id_)) {
        undo_.assign(snapshots_, migration_id_, std::map<model::Timestamp, SnapshotPtr>{});
    }
    auto& of_migration = snapshots_[migration_id_];
    if (of_migration.contains(record_time)) {
        throw AppendError("a snapshot of migration " + std::to_string(migration_id_) + " at " +
                          model::format_instant(record_time) + " exists already");
    }
    if (!last_acs_rows_ || last_acs_rows_version_ != acs_version_) {
        std::vector<model::ContractPtr> rows;
        const Name dso(network_.dso_party);
        for_each_active([&](const ContractState& state) {
            if (state.contract->stakeholders.contains(dso)) rows.push_back(state.contract);
        });
        std::sort(rows.begin(), rows.end(),
                  [](const model::ContractPtr& a, const model::ContractPtr& b) {
                      return std::tie(a->created_at, a->contract_id) <
                             std::tie(b->created_at, b->contract_id);
                  });
        last_acs_rows_ = make_acs_rows(std::move(rows));
        last_acs_rows_version_ = acs_version_;
    }
    auto snapshot = std::make_shared<const Snapshot>(migration_id_, record_time, next_acs_row_id_,
                                                     last_acs_rows_,
                                                     static_cast<std::int64_t>(history_.size()));
    undo_.set(next_acs_row_id_,
              next_acs_row_id_ + static_cast<std::int64_t>(last_acs_rows_->rows.size()));
    const Snapshot& taken = *snapshot;
    undo_.assign(of_migration, record_time, SnapshotPtr(std::move(snapshot)));
    undo_.set(now_, std::max(now_, record_time));
    for (const auto& e : extensions_) e->on_snapshot(taken);
}

void LedgerStore::advance_time(Timestamp t) {
    const std::unique_lock lock(mutex_);
    check_time(t);
    undo_.set(now_, t);
}

Offset LedgerStore::ledger_end() const {
    const std::shared_lock lock(mutex_);
    return static_cast<Offset>(history_.size());
}

Timestamp LedgerStore::now() const {
    const std::shared_lock lock(mutex_);
    return now_;
}

std::int64_t LedgerStore::migration_id() const {
    const std::shared_lock lock(mutex_);
    return migration_id_;
}

UpdatePtr LedgerStore::update_at(Offset offset) const {
    const std::shared_lock lock(mutex_);
    if (offset < 1 || offset > static_cast<Offset>(history_.size())) return nullptr;
    return history_[static_cast<std::size_t>(offset - 1)];
}

std::optional<ContractState> LedgerStore::contract(std::string_view contract_id) const {
    const std::shared_lock lock(mutex_);
    const auto sequence = sequence_of(contract_id);
    if (!sequence) return std::nullopt;
    return contracts_[*sequence];
}

std::vector<Offset> LedgerStore::reassignments_of(std::string_view contract_id) const {
    const auto id = Name::find(contract_id);
    if (!id) return {};
    const std::shared_lock lock(mutex_);
    const auto it = reassignments_.find(*id);
    return it == reassignments_.end() ? std::vector<Offset>{} : it->second;
}

std::int64_t LedgerStore::reassignment_counter(std::string_view contract_id) const {
    const auto id = Name::find(contract_id);
    if (!id) return 0;
    const std::shared_lock lock(mutex_);
    return counter_of(reassignments_, *id);
}

std::optional<Offset> LedgerStore::offset_of_external_hash(std::string_view hex) const {
    const std::shared_lock lock(mutex_);
    const auto it = offset_of_external_hash_.find(std::string(hex));
    if (it == offset_of_external_hash_.end()) return std::nullopt;
    return it->second;
}

std::optional<CommandCompletion> LedgerStore::completion_at(Offset offset) const {
    const std::shared_lock lock(mutex_);
    const auto it =
        std::lower_bound(completions_.begin(), completions_.end(), offset,
                         [](const CommandCompletion& c, Offset o) { return c.offset < o; });
    if (it == completions_.end() || it->offset != offset) return std::nullopt;
    return *it;
}

std::optional<Offset> LedgerStore::offset_of_update(std::string_view update_id) const {
    const auto id = model::UpdateId::parse(update_id);
    if (!id) return std::nullopt;
    const std::shared_lock lock(mutex_);
    index_update_ids();
    const auto position = offset_of_update_.find(*id);
    if (!position) return std::nullopt;
    return static_cast<Offset>(*position) + 1;
}

void LedgerStore::visit_created(
    std::uint64_t from,
    const std::function<bool(std::uint64_t, const ContractState&)>& visit) const {
    const std::shared_lock lock(mutex_);
    for (std::uint64_t i = from; i < contracts_.size(); ++i) {
        if (!visit(i, contracts_[i])) return;
    }
}

std::vector<model::ContractPtr> LedgerStore::active_contracts() const {
    const std::shared_lock lock(mutex_);
    std::vector<model::ContractPtr> out;
    for_each_active([&](const ContractState& state) { out.push_back(state.contract); });
    return out;
}

bool LedgerStore::knows_template(std::string_view package_name,
                                 std::string_view qualified_name) const {
    const std::shared_lock lock(mutex_);
    const std::size_t colon = qualified_name.find(':');
    if (colon == std::string_view::npos) return false;
    const std::string_view module = qualified_name.substr(0, colon);
    const std::string_view entity = qualified_name.substr(colon + 1);
    return std::any_of(templates_.begin(), templates_.end(), [&](model::TemplateRef ref) {
        const model::TemplateId t = ref.get();
        return t.package_name == package_name && t.module_name == module && t.entity_name == entity;
    });
}

std::map<std::string, std::size_t> LedgerStore::active_counts() const {
    const std::shared_lock lock(mutex_);
    std::map<std::string, std::size_t> counts;
    for_each_active([&](const ContractState& state) {
        const model::TemplateId t = state.contract->template_id();
        ++counts[t.package_name + ":" + t.qualified_name()];
    });
    return counts;
}

std::vector<ImportUpdate> LedgerStore::import_updates(std::int64_t migration_id,
                                                      std::string_view after,
                                                      std::size_t limit) const {
    const std::shared_lock lock(mutex_);
    std::vector<ImportUpdate> out;
    const auto m = imports_.find(migration_id);
    if (m == imports_.end()) return out;
    for (auto it = m->second.upper_bound(after); it != m->second.end() && out.size() < limit;
         ++it) {
        out.push_back(it->second);
    }
    return out;
}

SnapshotPtr LedgerStore::snapshot(std::int64_t migration_id, Timestamp t, bool at_or_before) const {
    const std::shared_lock lock(mutex_);
    const auto m = snapshots_.find(migration_id);
    if (m == snapshots_.end()) return nullptr;
    if (!at_or_before) {
        const auto it = m->second.find(t);
        return it == m->second.end() ? nullptr : it->second;
    }
    auto it = m->second.upper_bound(t);
    if (it == m->second.begin()) return nullptr;
    return std::prev(it)->second;
}

SnapshotPtr LedgerStore::snapshot_after(std::int64_t migration_id, Timestamp t) const {
    const std::shared_lock lock(mutex_);
    SnapshotPtr best;
    for (auto m = snapshots_.lower_bound(migration_id); m != snapshots_.end(); ++m) {
        const auto it = m->first == migration_id ? m->second.upper_bound(t) : m->second.begin();
        if (it == m->second.end()) continue;
        if (!best || it->first < best->record_time) best = it->second;
    }
    return best;
}

std::vector<UpdatePtr> LedgerStore::history_page(
    std::optional<std::pair<std::int64_t, Timestamp>> after, std::size_t limit) const {
    const std::shared_lock lock(mutex_);
    // Migration ids and record times never go down along the history: its offset order is the
    // (migration id, record time) order.
    const auto key = [](const UpdatePtr& u) {
        return std::pair(migration_id_of(*u), record_time_of(*u));
    };
    // The first position whose key is after `after`: partition_point over positions, written
    // out, so that only the updates it visits are read (the store's layer takes no Boost
    // counting_iterator, and clang before 16 does not compile libstdc++ 12's iota_view).
    std::size_t position = 0;
    if (after) {
        for (std::size_t n = history_.size(); n > 0;) {
            const std::size_t half = n / 2;
            if (key(history_[position + half]) <= *after) {
                position += half + 1;
                n -= half + 1;
            } else {
                n = half;
            }
        }
    }
    std::vector<UpdatePtr> out;
    for (; position < history_.size(); ++position) {
        const UpdatePtr& u = history_[position];
        if (std::holds_alternative<Migration>(*u)) continue;  // not an update of the history
        if (out.size() >= limit && key(u) != key(out.back())) break;
        out.push_back(u);
    }
    return out;
}

UpdatePtr LedgerStore::update_by_id(std::string_view update_id) const {
    const auto id = model::UpdateId::parse(update_id);
    if (!id) return nullptr;
    const std::shared_lock lock(mutex_);
    index_update_ids();
    const auto position = offset_of_update_.find(*id);
    if (!position) return nullptr;
    const UpdatePtr& u = history_[*position];
    return std::holds_alternative<Migration>(*u) ? nullptr : u;
}

std::vector<std::pair<std::int64_t, Timestamp>> LedgerStore::snapshot_times() const {
    const std::shared_lock lock(mutex_);
    std::vector<std::pair<std::int64_t, Timestamp>> out;
    for (const auto& [migration, times] : snapshots_) {
        for (const auto& [t, _] : times) out.emplace_back(migration, t);
    }
    return out;
}

}  // namespace cantonlite::store
