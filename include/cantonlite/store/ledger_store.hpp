#pragma once
// LedgerStore: the one in-memory ledger from which every area answers.

#include <atomic>
#include <cstdint>
#include <deque>
#include <functional>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <shared_mutex>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "cantonlite/model/network.hpp"
#include "cantonlite/store/ledger_extension.hpp"
#include "cantonlite/store/position_index.hpp"
#include "cantonlite/store/transaction_draft.hpp"
#include "cantonlite/store/undo_log.hpp"
#include "cantonlite/store/update.hpp"

namespace cantonlite::store {

// An append was refused; nothing was changed. what() says what is wrong ("contract 00ab… is
// archived"); the caller adds where it came from.
class AppendError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

// Where a contract is and whether it is still active. Its moves between synchronizers are kept
// apart (LedgerStore::reassignments_of): few contracts ever move, and a state is kept per contract.
// 24 bytes: offsets, like creation sequences, fit in 32 bits (LedgerStore::check_room).
struct ContractState {
    model::ContractPtr contract;
    std::uint32_t archived_at = 0;  // the archiving offset; 0 while active
    Name synchronizer_id;           // "" while unassigned (in flight between synchronizers)

    [[nodiscard]] Offset created_offset() const { return contract->created_offset; }
    [[nodiscard]] std::optional<Offset> archived_offset() const {
        return archived_at == 0 ? std::nullopt : std::optional<Offset>(archived_at);
    }
};
static_assert(sizeof(ContractState) <= 24);

// The history's updates by position (an update's offset is its position + 1). The transactions a
// state file restored are read from its bytes when first asked for (Decoder), each once, by
// whichever reader asks first; the others are as appended. Guarded by the store's lock: readers
// hold its shared side, and may read an update for the first time while others read.
class History {
  public:
    // Reads a restored update from its bytes.
    class Decoder {
      public:
        virtual ~Decoder() = default;
        // The update at `offset`, naming its contracts from `contracts` by creation sequence.
        // History calls it one call at a time, and for each update until it returns one.
        [[nodiscard]] virtual UpdatePtr decode(Offset offset,
                                               const std::deque<ContractState>& contracts) = 0;
        // Copies what it still needs of memory it reads but does not own (a state file's
        // mapping, lent to the load), and hands back what kept that memory, for the caller to
        // let go of; nullptr when it borrows nothing. Safe while decode() runs on another thread.
        [[nodiscard]] virtual std::shared_ptr<const void> stop_borrowing() { return nullptr; }
    };

    // A history of the store whose contracts are `contracts`.
    explicit History(const std::deque<ContractState>* contracts) : contracts_(contracts) {}
    History(const History&) = delete;
    History& operator=(const History&) = delete;
    ~History();

    [[nodiscard]] std::size_t size() const { return updates_.size(); }
    [[nodiscard]] bool empty() const { return updates_.empty(); }
    void reserve(std::size_t n) { updates_.reserve(n); }
    void push_back(UpdatePtr update) { updates_.push_back(std::move(update)); }
    void pop_back() { updates_.pop_back(); }
    // The update at `position`, read first when it was not. REQUIRES: position < size().
    [[nodiscard]] const UpdatePtr& operator[](std::size_t position) const {
        if (unread_ == nullptr || position >= unread_->count ||
            unread_->read[position].load(std::memory_order_acquire))
            return updates_[position];
        return read(position);
    }
    [[nodiscard]] const UpdatePtr& back() const { return (*this)[size() - 1]; }
    // Its id, without reading it.
    [[nodiscard]] model::UpdateId update_id(std::size_t position) const;
    // False for a restored update no one has read yet.
    [[nodiscard]] bool is_read(std::size_t position) const;
    // The decoder's Decoder::stop_borrowing(); nullptr without one.
    [[nodiscard]] std::shared_ptr<const void> stop_borrowing() const;

    // Takes `updates`, where each nullptr is one `decoder` reads when first asked for, and
    // id_namespaces[i] is update i's namespace (its id's source), kept with a decoder for
    // update_id(), else dropped. REQUIRES: this is empty; with a decoder, one namespace an update.
    void restore(std::vector<UpdatePtr> updates, std::unique_ptr<Decoder> decoder,
                 std::vector<Name> id_namespaces);
    // Exchanges the updates; each keeps its contracts.
    void swap(History& other) noexcept;

  private:
    // What a restore left to read.
    struct Unread {
        std::size_t count = 0;  // the updates restored
        std::unique_ptr<Decoder> decoder;
        std::vector<Name> id_namespaces;
        std::unique_ptr<std::atomic<bool>[]> read;  // updates_[i] is set
        std::mutex mutex;                           // one reads at a time
    };
    const UpdatePtr& read(std::size_t position) const;

    const std::deque<ContractState>* contracts_;
    mutable std::vector<UpdatePtr> updates_;  // nullptr where unread_ has not read it
    std::unique_ptr<Unread> unread_;
};

// A command the command service accepted: what its completion reports, and its deduplication
// key (user, command id, act-as parties).
struct CommandCompletion {
    Offset offset = 0;  // of its transaction
    std::string user_id;
    std::string command_id;
    std::string submission_id;
    std::vector<Party> act_as;  // as submitted
    model::Timestamp record_time;
    // The deduplication period it was submitted with, as the completion reports it:
    // "duration" (seconds and nanos), "offset", or "" (Empty: the participant's maximum).
    std::string deduplication_kind;
    std::int64_t deduplication_value = 0;  // seconds, or the offset
    std::int32_t deduplication_nanos = 0;
};

// Every contract of a Scan ACS snapshot (the active contracts the DSO party is a stakeholder of:
// Scan ingests no others), in (created_at, contract_id) order, and their indexes by stakeholder
// and by template ("<package name>:<Module>:<Entity>"). Consecutive snapshots of an unchanged ACS
// share one (a clock moved by a year takes thousands of snapshots of the same rows).
struct AcsRows {
    std::vector<model::ContractPtr> rows;
    std::unordered_map<Party, std::vector<std::uint32_t>> rows_by_stakeholder;  // row indexes
    std::unordered_map<std::string, std::vector<std::uint32_t>> rows_by_template;
};

// The rows of a snapshot, `rows` in their order, indexed by stakeholder and template.
[[nodiscard]] std::shared_ptr<const AcsRows> make_acs_rows(std::vector<model::ContractPtr> rows);

// One migration's ACS at one record time, as Scan materialises it: the contracts in
// (created_at, contract_id) order with consecutive row ids; the whole ACS (/v2/state/acs) is
// numbered in one sequence across snapshots. Immutable; shared with readers. Extensions keep
// what they derive at the same snapshot (the Splice layer: the holdings).
struct Snapshot {
    Snapshot(std::int64_t migration, model::Timestamp t, std::int64_t first_acs_row,
             std::shared_ptr<const AcsRows> acs_data, std::int64_t ledger_end_then = 0)
        : migration_id(migration),
          record_time(t),
          ledger_end(ledger_end_then),
          first_acs_row_(first_acs_row),
          acs_(acs_data ? std::move(acs_data) : std::make_shared<const AcsRows>()),
          acs(*acs_) {}
    Snapshot(const Snapshot&) = delete;
    Snapshot& operator=(const Snapshot&) = delete;

    const std::int64_t migration_id;
    const model::Timestamp record_time;
    const std::int64_t ledger_end;  // when it was taken: the updates it comes after

  private:
    std::int64_t first_acs_row_;
    std::shared_ptr<const AcsRows> acs_;

  public:
    const AcsRows& acs;
    // The rows, for those that keep what they derive from them.
    [[nodiscard]] const std::shared_ptr<const AcsRows>& acs_data() const { return acs_; }

    // acs.rows[i] has row id acs_row_id(i).
    [[nodiscard]] std::int64_t acs_row_id(std::size_t i) const {
        return first_acs_row_ + static_cast<std::int64_t>(i);
    }
    [[nodiscard]] std::int64_t first_acs_row_id() const {
        return acs.rows.empty() ? 0 : first_acs_row_;
    }
    [[nodiscard]] std::int64_t last_acs_row_id() const {
        return acs.rows.empty() ? 0 : acs_row_id(acs.rows.size() - 1);
    }
};
using SnapshotPtr = std::shared_ptr<const Snapshot>;

// The ledger of one emulated network: an append-only history of updates with dense offsets from
// 1, the contracts they created, and indexes kept up to date on every append, so that no query
// reads the whole history. Thread-safe: any number of readers with one writer; a reader sees an
// update wholly or not at all. Returned contracts, updates and snapshots are immutable and stay
// valid after the call.
class LedgerStore {
  public:
    // A store with no history whose clock starts at `genesis_time`.
    LedgerStore(model::Network network, model::Timestamp genesis_time);
    ~LedgerStore();
    LedgerStore(const LedgerStore&) = delete;
    LedgerStore& operator=(const LedgerStore&) = delete;

    // The network facts: DSO party, SVs, users, LSU announcement. Only add_party(), add_user(),
    // add_synchronizer(), set_user_rights(), replace_user() and remove_user() change them, under
    // the writers' lock (readers of the areas hold the readers' side of it).
    [[nodiscard]] const model::Network& network() const { return network_; }

    // ---- writing (one writer at a time) ----

    // The inverse of every change since the seed loaded (recording is switched on after the load).
    // Every writing call below records into it; the seed context records its labels there too.
    [[nodiscard]] UndoLog& undo() { return undo_; }
    // Undoes every change recorded after `mark`: history, indexes, clock, snapshots, network.
    void rollback(UndoLog::Mark mark);
    // Exchanges everything this store holds (its network, history, indexes, snapshots; its
    // extensions' too, which must be of the same kinds in the same order) with `other`'s, and
    // forgets what it could undo. For loading a state file into a running network
    // (LiveNetwork::load_state_bytes): the file is read into a store of its own, then exchanged
    // in a moment; readers see the old ledger or the new one, as with a rollback.
    void swap_contents(LedgerStore& other);
    // Copies what the history still needs of memory its decoder borrows (a state file's mapping,
    // lent to the load), and hands back what kept that memory, for the caller to let go of
    // outside the store's lock; nullptr when nothing is borrowed. Under the readers' lock: readers
    // go on, writers and swap_contents() wait.
    [[nodiscard]] std::shared_ptr<const void> stop_borrowing() const;

    // Adds a party alias (network.parties) or a participant user. Throws AppendError when the
    // alias or user id is taken.
    void add_party(const std::string& alias, const Party& party);
    // Adds a synchronizer to network.other_synchronizers (a forked network learns its source's
    // as its history names them); none when it is known.
    void add_synchronizer(const std::string& synchronizer_id);
    // Records an external party's Ed25519 key (raw bytes). REQUIRES: the party was added.
    void set_external_key(const Party& party, std::string key);
    void add_user(model::User user);
    // Replaces the rights of user `id`. Throws AppendError for an unknown user.
    void set_user_rights(const std::string& id, model::LedgerRights rights);
    // Replaces user `user.id` (every field), or removes user `id`. Throw AppendError for an
    // unknown user.
    void replace_user(model::User user);
    void remove_user(const std::string& id);

    // Records the completion of an accepted command (its transaction committed at c.offset).
    void add_completion(CommandCompletion c);

    [[nodiscard]] Offset next_offset() const;
    // Room for `updates` more updates and `contracts` more contracts without regrowing the
    // indexes: a hint from a seed load, which knows how many steps follow.
    void reserve(std::size_t updates, std::size_t contracts);
    [[nodiscard]] std::string update_id_for(Offset offset) const;
    // update_id_for(offset), unspelt. Needs no lock.
    [[nodiscard]] model::UpdateId id_for(Offset offset) const;

    // Commits a transaction. REQUIRES: draft.offset == next_offset(), draft.update_id ==
    // id_for(draft.offset). Throws AppendError when an exercised contract is unknown,
    // archived, consumed twice or in flight, when time goes backwards, or when the nodes are not
    // in pre-order; the store is then unchanged.
    void append_transaction(const TransactionDraft& draft);

    // What a reassignment of a forked network keeps from its source (cantonlite fork): its
    // update id and, for an unassignment, its unassign id ("": derived, as for any other).
    struct KeptIds {
        model::UpdateId update_id;
        std::string unassign_id;
    };

    // Unassigns an active contract from its synchronizer towards `target`: the contract is in
    // flight until assign(). Throws AppendError.
    void unassign(const std::string& contract_id, const std::string& target_synchronizer,
                  const Party& submitter, model::Timestamp record_time,
                  const std::optional<KeptIds>& kept = std::nullopt);

    // Assigns an in-flight contract to the target of its unassignment. Throws AppendError.
    void assign(const std::string& contract_id, const Party& submitter,
                model::Timestamp record_time, const std::optional<KeptIds>& kept = std::nullopt);

    // A forked network's starting state (cantonlite fork): contracts that were active on the
    // source network at its snapshot, created by updates this ledger does not hold. Adds the
    // creates of `draft` (creates only, roots only, each with its contract id in
    // contract_id_cache) as contracts of no offset, created at draft.effective_at on
    // draft.synchronizer_id, and makes `migration_id` the current migration. When
    // draft.keeps_update_id, draft.update_id is the source's update that created them (in that
    // migration). The extensions see them as created. REQUIRES: the history is empty. Throws
    // AppendError.
    void add_fork_base(const TransactionDraft& draft, std::int64_t migration_id);
    // The source's update that created contract `contract_id` of the fork's base, when the
    // source named it; nullopt otherwise (and for any other contract).
    [[nodiscard]] std::optional<model::UpdateId> fork_base_created_in(
        std::string_view contract_id) const;
    // The contracts add_fork_base added, in creation order, and the migration id it began with
    // (0 when none: a network's first migration).
    [[nodiscard]] std::vector<model::ContractPtr> fork_base() const;
    [[nodiscard]] std::int64_t fork_base_migration_id() const;

    // The runs of the fork's base that one source update created: the first contract's creation
    // sequence, and the kept id's source (model::kept_id_source) of that update, or "".
    [[nodiscard]] std::vector<std::pair<std::uint32_t, Name>> fork_base_runs() const;

    // What a state file restores (seed/state_codec.cpp): the store's contents as they stood, from
    // which restore() derives every index.
    struct Image {
        std::deque<ContractState> contracts;  // in creation order; restore() takes it whole
        std::vector<UpdatePtr> history;       // update i at offset i + 1
        // The contracts each migration re-imported, by the migration they came from: their
        // creation sequences and synchronizers.
        std::map<std::int64_t, std::vector<std::pair<std::uint32_t, Name>>> imports;
        // In the order they were taken, their rows numbered from 1 in that order.
        std::vector<SnapshotPtr> snapshots;
        model::Timestamp now;
        std::int64_t migration_id = 0;
        std::size_t fork_base_size = 0;  // the first contracts
        std::int64_t fork_base_migration_id = 0;
        std::vector<std::pair<std::uint32_t, Name>> fork_base_created_in;  // fork_base_runs()
        // Each update's id_namespace, whose id is UpdateId::of(it, its offset), or empty: read
        // from the updates. With a decoder, the history keeps it, and the index of update ids is
        // built from it rather than by going to each update's block (a cache miss an update: a
        // third of that index's time); when each is the network's, that index waits for its first
        // lookup.
        std::vector<Name> id_namespaces;
        // Reads the transactions left out: history[i] is nullptr for each (id_namespaces then
        // names every update's). REQUIRES: each create of those made the contract that says so,
        // where it says so (the caller checked their bytes).
        std::unique_ptr<History::Decoder> decoder;
        // Of the transactions left out, what the indexes need: each external hash at its offset,
        // and each consuming exercise's contract id at its offset.
        std::vector<std::pair<Name, Offset>> external_hashes;
        std::vector<std::pair<Name, Offset>> consumed;
    };
    // What restore() leaves running: the index of the update ids, built on another thread.
    class Restoring {
      public:
        // Waits for it; throws AppendError when an update id is there twice.
        void finish();
        // Waits for it too (a load that failed elsewhere leaves no thread behind).
        ~Restoring() = default;
        Restoring() = default;
        Restoring(Restoring&&) noexcept = default;
        Restoring& operator=(Restoring&&) noexcept = default;

      private:
        friend class LedgerStore;
        const LedgerStore* store_ = nullptr;
        std::future<std::optional<std::size_t>> ids_;  // the position of an id there twice
    };
    // Fills this empty store with `image` at once, instead of appending its history again, and
    // builds the indexes: all but the update ids' before it returns, that one on another thread
    // until finish(). The extensions are not told: each restores itself from the store
    // (SpliceViews::restore). Nothing is recorded to undo. Throws AppendError when the image
    // would break an index (a contract id twice, an update out of place). REQUIRES: the store is
    // empty and not shared before finish(), which the caller calls before any reader of update
    // ids; the image is consistent (a state file this cantonlite wrote, checksummed). The image's
    // contracts become the store's, as they are (no contract is copied); its snapshots are
    // copied, not taken (`alongside` may read them); the rest is taken.
    //
    // `alongside`, when given, runs on a second thread while this one builds the indexes, with the
    // contracts restored: the views restore from them so. It may throw; restore() then throws that,
    // unless the image is refused first.
    using Alongside = std::function<void(const std::deque<ContractState>& contracts)>;
    [[nodiscard]] Restoring restore(Image&& image, const Alongside& alongside = {});

    // Starts the next migration id: every active contract is re-imported into it (import updates).
    void migrate(model::Timestamp record_time);

    // Materialises the current migration's ACS at `record_time`; extensions add their own views.
    // Throws AppendError when a snapshot of this migration at that time exists or time goes back.
    void take_snapshot(model::Timestamp record_time);

    // Moves the ledger clock forward. Throws AppendError when `t` is before now().
    void advance_time(model::Timestamp t);

    // ---- reading ----

    [[nodiscard]] Offset ledger_end() const;  // 0 when empty
    [[nodiscard]] model::Timestamp now()
        const;  // the ledger clock: the latest record time or advance
    [[nodiscard]] std::int64_t migration_id() const;
    // The clock's start: the time the store was made with.
    [[nodiscard]] model::Timestamp genesis_time() const { return genesis_time_; }
    // Moves the clock's start (which numbers the mining rounds) to `t`, for a forked network
    // that learns its source's rounds as it is built. REQUIRES: the store is not shared yet;
    // t <= now().
    void set_genesis_time(model::Timestamp t);
    // The Splice mining round open at `t`: one per 10 minutes since the genesis time.
    [[nodiscard]] std::int64_t round_at(model::Timestamp t) const;

    // The latest accepted command of `user_id` with `command_id` and the act-as parties
    // `act_as` (in any order); nullopt when there is none.
    [[nodiscard]] std::optional<CommandCompletion> latest_completion(
        const std::string& user_id, const std::string& command_id, std::vector<Party> act_as) const;
    // The completions after offset `begin`, in offset order, at most `limit`, for which `keep`
    // holds.
    [[nodiscard]] std::vector<CommandCompletion> completions_after(
        Offset begin, std::size_t limit,
        const std::function<bool(const CommandCompletion&)>& keep) const;
    [[nodiscard]] UpdatePtr update_at(Offset offset) const;  // nullptr outside 1..ledger_end()
    [[nodiscard]] std::optional<ContractState> contract(std::string_view contract_id) const;
    // The offsets of the contract's unassignments and assignments, in order (they alternate,
    // starting with an unassignment); empty when it never moved.
    [[nodiscard]] std::vector<Offset> reassignments_of(std::string_view contract_id) const;
    // Its reassignment counter: the number of its unassignments (0 when it never moved).
    [[nodiscard]] std::int64_t reassignment_counter(std::string_view contract_id) const;
    // The offset of the transaction whose external parties signed the hash `hex` (64 lower-case
    // hex digits: interactive submission's execute); nullopt when there is none.
    [[nodiscard]] std::optional<Offset> offset_of_external_hash(std::string_view hex) const;
    // The completion of the command whose transaction is at `offset`; nullopt when none.
    [[nodiscard]] std::optional<CommandCompletion> completion_at(Offset offset) const;
    // The offset of the update with this id; nullopt when there is none.
    [[nodiscard]] std::optional<Offset> offset_of_update(std::string_view update_id) const;
    // False while update ids are not indexed yet: those that derive from the network's namespace
    // (so no two are alike), appended or restored, are left to the first lookup by id.
    [[nodiscard]] bool update_ids_indexed() const;
    // Calls visit(sequence, state) for every contract ever created, in creation order, from the
    // creation sequence `from` on, until visit returns false. Runs under the readers' lock: visit
    // must not call the store.
    void visit_created(
        std::uint64_t from,
        const std::function<bool(std::uint64_t sequence, const ContractState& state)>& visit) const;

    // The active contracts, in creation order.
    [[nodiscard]] std::vector<model::ContractPtr> active_contracts() const;
    // True when a contract of this template was ever created ("uploaded", as the ledger API sees
    // it).
    [[nodiscard]] bool knows_template(std::string_view package_name,
                                      std::string_view qualified_name) const;
    // Active contracts per template ("<package name>:<Module>:<Entity>").
    [[nodiscard]] std::map<std::string, std::size_t> active_counts() const;

    // Scan: import updates of `migration_id` with contract id > after, at most `limit`, by id.
    [[nodiscard]] std::vector<ImportUpdate> import_updates(std::int64_t migration_id,
                                                           std::string_view after,
                                                           std::size_t limit) const;
    // Scan: the snapshot of `migration_id` at exactly `t`, or the latest at or before it.
    [[nodiscard]] SnapshotPtr snapshot(std::int64_t migration_id, model::Timestamp t,
                                       bool at_or_before) const;
    // Scan: the first snapshot after `t` of `migration_id`, or of a later migration, whichever has
    // the earlier record time (AcsSnapshotStore.lookupSnapshotAfter); nullptr when none.
    [[nodiscard]] SnapshotPtr snapshot_after(std::int64_t migration_id, model::Timestamp t) const;
    // Every snapshot's (migration id, record time), in order.
    [[nodiscard]] std::vector<std::pair<std::int64_t, model::Timestamp>> snapshot_times() const;

    // Scan's update history: the transactions and reassignments after `after` (migration id,
    // record time), in (migration id, record time) order, at least `limit` of them when there are
    // as many: a page never ends inside a run of updates that share migration id and record time
    // (Canton gives each update of a migration its own record time; a seed may not), so paging by
    // the last item's key skips none. O(log history + page).
    [[nodiscard]] std::vector<UpdatePtr> history_page(
        std::optional<std::pair<std::int64_t, model::Timestamp>> after, std::size_t limit) const;
    // The transaction or reassignment with this update id; nullptr when none.
    [[nodiscard]] UpdatePtr update_by_id(std::string_view update_id) const;

    // ---- extensions ----

    // Adds a view that the store keeps up to date on every append from now on (add it before the
    // first). The store owns it.
    void add_extension(std::unique_ptr<LedgerExtension> extension);
    // The extension of type T; nullptr when none was added.
    template <class T>
    [[nodiscard]] T* extension() const {
        for (const auto& e : extensions_) {
            if (auto* t = dynamic_cast<T*>(e.get())) return t;
        }
        return nullptr;
    }
    // The readers' side of the store's lock, for the queries of an extension.
    [[nodiscard]] std::shared_lock<std::shared_mutex> read_lock() const {
        return std::shared_lock(mutex_);
    }
    // The contract created `sequence`-th (see CreatedEvent::sequence), for an extension that
    // indexes contracts by sequence. REQUIRES: the caller holds read_lock(), or is in a hook (the
    // writer holds the lock); the contract was created.
    [[nodiscard]] const model::ContractPtr& created_locked(std::uint64_t sequence) const {
        return contracts_[sequence].contract;
    }
    // The creation sequence of the contract with this id; nullopt when there is none. REQUIRES:
    // as created_locked's, or that no writer runs (a state file's encoding).
    [[nodiscard]] std::optional<std::uint32_t> sequence_of_locked(Name contract_id) const {
        return sequence_of_.find(contract_id);
    }

  private:
    model::Network network_;         // grows by add_party and add_user; guarded by mutex_
    model::Timestamp genesis_time_;  // changed by swap_contents() and set_genesis_time() alone
    Name id_namespace_;              // network_.id_namespace, which every update carries
    mutable std::shared_mutex mutex_;
    History history_{&contracts_};                // guarded by mutex_
    std::vector<CommandCompletion> completions_;  // guarded by mutex_, in offset order
    // The index into completions_ of the latest by "<user>\n<command id>\n<sorted act-as>".
    std::unordered_map<std::string, std::size_t> completion_keys_;  // guarded by mutex_
    // Every contract ever created, in creation order (a contract's sequence is its index), and
    // the sequence of each interned contract id. The active ones are those not archived. A deque:
    // the undo log keeps references to the states' fields, which must not move.
    std::deque<ContractState> contracts_;  // guarded by mutex_
    struct ContractIdOf {
        Name operator()(const std::deque<ContractState>* states, std::uint32_t sequence) const {
            return (*states)[sequence].contract->contract_id;
        }
    };
    // A contract id hashes as its Name's number: read again, not kept.
    PositionIndex<Name, ContractIdOf, std::deque<ContractState>, std::hash<Name>, false>
        sequence_of_{&contracts_};  // guarded by mutex_
    // The reassignment offsets of the contracts that moved, by contract id. Guarded by mutex_.
    std::unordered_map<Name, std::vector<Offset>> reassignments_;
    // The history's updates by their ids (an update's offset is its position + 1). An id is
    // computed from its update, so the index keeps positions only.
    struct UpdateIdOf {
        model::UpdateId operator()(const History* history, std::uint32_t position) const {
            return history->update_id(position);
        }
    };
    struct UpdateIdHash {
        std::size_t operator()(const model::UpdateId& id) const {
            return std::hash<std::string_view>{}(id.bytes());
        }
    };
    // Guarded by mutex_, and by ids_mutex_ where a reader indexes the first unindexed_ids_
    // positions (index_update_ids()).
    mutable PositionIndex<model::UpdateId, UpdateIdOf, History, UpdateIdHash> offset_of_update_{
        &history_};
    mutable std::mutex ids_mutex_;
    // Whether the first unindexed_ids_ positions are in offset_of_update_: a restored history's,
    // and the updates appended since whose ids derive from the network's namespace, wait for the
    // first lookup by id (index_update_ids()).
    mutable std::atomic<bool> ids_indexed_{false};
    std::size_t unindexed_ids_ = 0;                                             // guarded by mutex_
    std::unordered_map<std::string, Offset> offset_of_external_hash_;           // guarded by mutex_
    model::Timestamp now_;                                                      // guarded by mutex_
    std::int64_t migration_id_ = 0;                                             // guarded by mutex_
    std::map<std::int64_t, std::map<std::string_view, ImportUpdate>> imports_;  // guarded
    std::map<std::int64_t, std::map<model::Timestamp, SnapshotPtr>> snapshots_;  // guarded
    std::int64_t next_acs_row_id_ = 1;  // guarded by mutex_
    // The rows of the latest snapshot taken, and the ACS version they show (it goes up with every
    // create and archive): a snapshot of an unchanged ACS shares them. Not undone; a rollback
    // drops it. Guarded by mutex_.
    std::shared_ptr<const AcsRows> last_acs_rows_;
    std::uint64_t last_acs_rows_version_ = 0;
    std::uint64_t acs_version_ = 0;
    std::unordered_map<std::string, Reassignment> in_flight_;  // unassigned, by contract id
    // The templates of every contract ever created.
    boost::unordered_flat_set<model::TemplateRef, std::hash<model::TemplateRef>> templates_;
    // The first contracts_ are a fork's base (add_fork_base). Guarded by mutex_.
    std::size_t fork_base_size_ = 0;
    std::int64_t fork_base_migration_id_ = 0;  // guarded by mutex_
    // The runs of the base's contracts that one source update created: (the first's creation
    // sequence, kept_id_source of that update or "" when unnamed), by sequence. Guarded by mutex_.
    std::vector<std::pair<std::uint32_t, Name>> fork_base_created_in_;
    std::vector<std::unique_ptr<LedgerExtension>> extensions_;  // guarded by mutex_
    UndoLog undo_;                                              // the writer's

    // REQUIRES (all below): mutex_ held; exclusively by those that change the store.
    void push(Update update);
    void push(UpdatePtr update);
    void check_time(model::Timestamp t) const;
    // Throws AppendError when the kept update id is in the history already.
    void check_kept(const std::optional<model::UpdateId>& kept) const;
    // Indexes the ids a restore left out, once. REQUIRES: mutex_ held (either side).
    void index_update_ids() const;
    // Indexes the ids of the first `count` updates, each read from history_ (a restored one's from
    // its namespace, not its update); the position of one there twice. REQUIRES: they are not
    // indexed; no other thread uses offset_of_update_.
    std::optional<std::size_t> index_restored_ids(std::size_t count) const;
    // What an update carries to derive its id from: the network's namespace, or the kept id.
    [[nodiscard]] Name id_source(const std::optional<model::UpdateId>& kept) const;
    // Throws AppendError unless one more update and `new_contracts` more contracts fit: their
    // positions are 32-bit (the indexes, ContractState::archived_at).
    void check_room(std::size_t new_contracts) const;
    void archive(const std::string& contract_id, Offset offset);
    // Adds contract `c`, created by node `node` of `draft`, and tells the extensions.
    void add_created(const model::ContractPtr& c, const TransactionDraft& draft, std::size_t node);
    // Adds an unassignment's or assignment's offset to the contract's moves.
    void record_reassignment(Name contract_id, Offset offset);
    // The creation sequence of an active contract; throws AppendError when it is unknown or
    // archived.
    std::uint32_t active_sequence(const std::string& contract_id) const;
    ContractState& active_state(const std::string& contract_id);
    // The creation sequence of the contract with this id (its index in contracts_); nullopt when
    // there is none.
    std::optional<std::uint32_t> sequence_of(std::string_view contract_id) const;
    // Calls visit(state) for each active contract, in creation order.
    template <typename Visit>
    void for_each_active(Visit visit) const;
};

}  // namespace cantonlite::store
