#pragma once
// SeedContext: what the step compilers share while a seed loads: the store, the labels of
// contracts, party aliases and the clock.

#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <variant>
#include <vector>

#include <boost/unordered/unordered_flat_map.hpp>
#include <nlohmann/json.hpp>

#include "cantonlite/model/json_fields.hpp"
#include "cantonlite/model/value.hpp"
#include "cantonlite/seed/commands.hpp"
#include "cantonlite/seed/load_progress.hpp"
#include "cantonlite/splice/payloads.hpp"
#include "cantonlite/store/ledger_store.hpp"
#include "party_directory.hpp"

namespace cantonlite::seed {

using model::JsonObject;
using model::Timestamp;
using model::Value;
using store::Party;

// Not thread-safe. Lives as long as the network: the seed's load, then the writes of the admin API,
// which use the same labels and references. Every change it makes is recorded in the store's undo
// log, so a rollback puts its labels and arguments back with the ledger.
class SeedContext {
  public:
    explicit SeedContext(store::LedgerStore& store,
                         std::optional<std::int64_t> snapshot_interval_seconds);

    store::LedgerStore& store() { return *store_; }
    const store::LedgerStore& store() const { return *store_; }
    const model::Network& network() const { return store_->network(); }
    // Makes `store` this context's store: the one whose contents its own (a state file's, read
    // into a store of their own) were exchanged with (LedgerStore::swap_contents).
    void rebind(store::LedgerStore& store) { store_ = &store; }

    // ---- parties ----
    // Resolves a party reference (docs/seed-format.md). Throws JsonFieldError at `pointer`.
    [[nodiscard]] Party resolve_party(const nlohmann::json& ref, const std::string& pointer) const;
    [[nodiscard]] Party party(const JsonObject& o, std::string_view key) const;  // required
    // The same, with o's member `key` found already: `ref` (null when absent or null).
    [[nodiscard]] Party party_at(const nlohmann::json* ref, const JsonObject& o,
                                 std::string_view key) const;
    [[nodiscard]] std::vector<Party> parties(const JsonObject& o, std::string_view key) const;
    // The user named `id` (a user id, or a reference to the user's party). Throws.
    [[nodiscard]] const model::User& user(const JsonObject& o, std::string_view key) const;
    // The party directory, which add_party and add_user steps extend.
    [[nodiscard]] PartyDirectory& directory() { return parties_; }
    [[nodiscard]] const PartyDirectory& directory() const { return parties_; }

    // ---- contracts ----
    // Resolves a contract reference (a label or a contract id). Throws JsonFieldError.
    [[nodiscard]] std::string resolve_contract(const nlohmann::json& ref,
                                               const std::string& pointer) const;
    [[nodiscard]] std::string contract(const JsonObject& o, std::string_view key) const;
    // Labels `contract_id` with the step's `key` ("as"), if it gives one.
    void label(const JsonObject& step, std::string_view key, const std::string& contract_id);
    void set_label(const std::string& name, const std::string& contract_id);
    // The same with both interned already (a mint has its contract id's Name).
    void set_label(model::Name label, model::Name contract_id);
    // A state file's labels, as labels() listed them (each contract's together, in order), into a
    // context that has none; not listed among the step's labels, not in the undo log. Throws
    // std::invalid_argument for a label given twice or a contract whose labels are apart.
    void restore_labels(const std::vector<std::pair<model::Name, model::Name>>& labels);
    // The labels set since the last clear_step_labels(), in order: what a run-time step reports.
    [[nodiscard]] const std::vector<std::pair<model::Name, model::Name>>& step_labels() const {
        return step_labels_;
    }
    void clear_step_labels() { step_labels_.clear(); }

    // ---- a submission's commands, resolved by the API area before the step runs ----
    // The commands of the next "submit" step as resolve_commands resolves them (the JSON layer
    // did it already, outside the writers' lock: resolving reads only the seed's packages). The
    // step takes them once; a step replayed from the journal has none and resolves its own.
    void set_resolved_commands(std::vector<ResolvedCommand> commands) {
        resolved_commands_ = std::move(commands);
    }
    [[nodiscard]] std::vector<ResolvedCommand> take_resolved_commands() {
        return std::exchange(resolved_commands_, {});
    }
    // The same for the next "execute" step: its checks, done outside the writers' lock.
    void set_checked_execution(std::shared_ptr<const CheckedExecution> checked) {
        checked_execution_ = std::move(checked);
    }
    [[nodiscard]] std::shared_ptr<const CheckedExecution> take_checked_execution() {
        return std::exchange(checked_execution_, nullptr);
    }

    // A committed submission's draft, whose values are freed by whoever takes it: the writer
    // takes them after it lets the writers' lock go (freeing a command's tree of values is work
    // nobody else has to wait for).
    void retire(store::TransactionDraft draft) { retired_.push_back(std::move(draft)); }
    [[nodiscard]] std::vector<store::TransactionDraft> take_retired() {
        return std::exchange(retired_, {});
    }
    // Every label and its contract, by contract id, each contract's in the order they were set (a
    // state file's record of them: set_label in this order makes them again).
    [[nodiscard]] std::vector<std::pair<model::Name, model::Name>> labels() const;
    // f(label) for each label of `contract_id`, in the order they were set; whether it has any.
    template <class F>
    bool each_label_of(model::Name contract_id, F&& f) const {
        const auto first = first_label_.find(contract_id);
        if (first == first_label_.end()) return false;
        each_label(first->second, f);
        return true;
    }
    // How many contracts have labels.
    [[nodiscard]] std::size_t labelled_contracts() const { return first_label_.size(); }
    // Points every label of `from` (a contract a step is about to re-create) at `to`.
    // REQUIRES: called before the commit that consumes `from`, which forgets its labels.
    void relabel(const std::string& from, const std::string& to);
    // The argument the seed created `contract_id` with, as the template `entity` expects.
    // Throws JsonFieldError at `pointer` when it is not such a contract, not active, in flight or
    // on another synchronizer than the global one (where the steps submit).
    [[nodiscard]] Value argument_of(const std::string& contract_id, std::string_view entity,
                                    const std::string& pointer) const;

    // ---- time and commits ----
    // The step's time: "at", or one second after the ledger clock. Throws when it goes backwards.
    [[nodiscard]] Timestamp step_time(const JsonObject& step) const;
    // The same, with the step's "at" read already (nullopt when absent).
    [[nodiscard]] Timestamp step_time_at(std::optional<Timestamp> at, const JsonObject& step) const;
    // The Splice open mining round at `t`: one per 10 minutes since the start.
    [[nodiscard]] std::int64_t round_at(Timestamp t) const;
    // A draft for the next offset at `t`, with the step's command and workflow ids.
    [[nodiscard]] store::TransactionDraft draft(const JsonObject& step,
                                                std::vector<Party> submitters, Timestamp t) const;
    // The same, with the step's command and workflow ids read already ("" when absent).
    [[nodiscard]] store::TransactionDraft draft(std::string command_id, std::string workflow_id,
                                                std::vector<Party> submitters, Timestamp t) const;
    // Takes the interval snapshots due before `t`, then commits the draft and remembers the
    // arguments of the contracts it creates. Throws store::AppendError.
    void commit(const store::TransactionDraft& draft);
    // Takes the interval snapshots due before `t` (strictly) or at `t` when `inclusive`.
    void snapshots_until(Timestamp t, bool inclusive);
    // The interval of Scan's periodic snapshots, if any; set_snapshot_interval() starts one (the
    // next snapshot is at the next multiple of it after the ledger clock).
    [[nodiscard]] std::optional<std::int64_t> snapshot_interval_seconds() const {
        return snapshot_interval_seconds_;
    }
    void set_snapshot_interval(std::int64_t seconds);
    // The record time of the next interval snapshot, if any.
    [[nodiscard]] std::optional<Timestamp> next_interval_snapshot() const;
    // Puts back the interval and the next interval snapshot (seconds since the epoch) a state
    // file saved.
    void restore_snapshot_schedule(std::optional<std::int64_t> interval_seconds,
                                   std::int64_t next_seconds) {
        snapshot_interval_seconds_ = interval_seconds;
        next_snapshot_ = next_seconds;
    }
    [[nodiscard]] std::int64_t next_snapshot_seconds() const { return next_snapshot_; }
    // Takes the snapshot of an explicit `snapshot` step at `t` (an interval snapshot due at `t`
    // is the same snapshot). Throws JsonFieldError at `pointer` when one exists at `t`.
    void snapshot_at(Timestamp t, const std::string& pointer);
    // Throws JsonFieldError at `pointer` unless `contract_id` is active and assigned to the
    // global synchronizer.
    void check_usable(const std::string& contract_id, const std::string& pointer) const;

    // ---- contracts of the bootstrap transaction ----
    std::string dso_rules;
    std::string amulet_rules;
    std::string external_party_amulet_rules;
    std::map<Party, std::string> wallet_installs;  // by end-user party (add with undo)
    Timestamp start_time;

  private:
    store::LedgerStore* store_;
    std::optional<std::int64_t> snapshot_interval_seconds_;
    std::int64_t next_snapshot_ = 0;  // seconds since epoch of the next interval snapshot
    PartyDirectory parties_;
    // Labels of active contracts (a network may label each of a million amulets), as interned
    // Names: each label's contract, and each contract's labels as a chain in the order they were
    // set (a contract's first label, then each label's next).
    struct Labelled {
        model::Name contract;
        model::Name next;  // the label itself for the last of its contract's (8 bytes, not 12)
    };
    boost::unordered_flat_map<model::Name, Labelled, std::hash<model::Name>> labels_;
    boost::unordered_flat_map<model::Name, model::Name, std::hash<model::Name>> first_label_;
    // The labels of `contract_id`, in order.
    [[nodiscard]] std::vector<model::Name> labels_of(model::Name contract_id) const;
    // f(label) for each label of the chain from `first`, in order.
    template <class F>
    void each_label(model::Name first, F&& f) const {
        for (model::Name label = first;;) {
            f(label);
            const model::Name next = labels_.at(label).next;
            if (next == label) return;
            label = next;
        }
    }
    // Takes `label` out of its contract's chain (it stays in labels_).
    void unlink_label(model::Name label, const Labelled& entry);
    // Labels `id` with `label`, last of its labels, taking `label` from any other contract.
    void add_label(model::Name label, model::Name id);

    std::vector<std::pair<model::Name, model::Name>> step_labels_;  // (label, contract id)
    std::vector<ResolvedCommand> resolved_commands_;
    std::shared_ptr<const CheckedExecution> checked_execution_;
    std::vector<store::TransactionDraft> retired_;

    void forget_labels(model::Name contract_id);
    // check_usable() of a contract already looked up: archived, in flight, elsewhere.
    void check_usable(const store::ContractState& state, const std::string& contract_id,
                      const std::string& pointer) const;
};

// A loaded seed: the store and the context its steps ran in, which run-time writes go on using.
struct LoadedSeed {
    std::unique_ptr<store::LedgerStore> store;
    std::unique_ptr<SeedContext> context;
};

// load_seed(), keeping the context. Throws SeedError.
[[nodiscard]] LoadedSeed load_seed_with_context(const nlohmann::json& document,
                                                const std::string& source,
                                                const std::filesystem::path& base_dir);

// load_seed_file(), keeping the context. Throws SeedError.
// `progress`, when set, hears of the bytes of the file read.
[[nodiscard]] LoadedSeed load_seed_file_with_context(const std::filesystem::path& path,
                                                     const LoadProgress& progress = {});

// Reads and parses a seed file. Throws SeedError.
[[nodiscard]] nlohmann::json read_seed_document(const std::filesystem::path& path);

}  // namespace cantonlite::seed
