#pragma once
// LiveNetwork: the network as it runs. The seed's ledger, then the writes of the admin API (steps,
// the clock and its automation, snapshots, reverts, resets), each atomic and, with a journal,
// durable before it is acknowledged.

#include <cstdint>
#include <deque>
#include <exception>
#include <filesystem>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "cantonlite/journal/journal.hpp"
#include "cantonlite/model/timestamp.hpp"
#include "cantonlite/seed/commands.hpp"
#include "cantonlite/seed/load_progress.hpp"
#include "cantonlite/seed/state_file.hpp"
#include "cantonlite/store/ledger_store.hpp"
#include "cantonlite/util/shared_gate.hpp"

namespace cantonlite::seed {

class SeedContext;
struct LoadedSeed;

// A write was refused and nothing changed. status() is the HTTP status the admin API answers
// (400 a bad step or body, 404 an unknown snapshot, 409 the clock would go back); what() is the
// one-line message.
class WriteError : public std::runtime_error {
  public:
    WriteError(int status, const std::string& message)
        : std::runtime_error(message), status_(status) {}
    [[nodiscard]] int status() const { return status_; }

  private:
    int status_;
};

// What a write answers, and the journal ticket of its record (none without a journal): the write
// is acknowledged once that record is durable.
struct Written {
    nlohmann::json answer;
    std::optional<std::uint64_t> ticket;
};

// Scan's default ACS snapshot period (ScanStorageConfig dbAcsSnapshotPeriodHours = 3), used at run
// time when the seed sets no snapshot_interval_seconds.
inline constexpr std::int64_t scan_default_snapshot_seconds = 3 * 3600;

// The automation's delay after an expiry (Splice AutomationConfig clockSkewAutomationDelay = 5 s).
inline constexpr std::int64_t automation_delay_micros = 5'000'000;

// The id of a party allocated on the network's participant with `hint`:
// "<hint>::1220<namespace fingerprint>", in the participant's namespace as Canton allocates it.
[[nodiscard]] std::string allocated_party(const model::Network& n, std::string_view hint);

// Thread-safe. Readers of the ledger (the API areas) hold gate() shared while they answer; every
// write holds it exclusively while it applies, so no reader sees half of one. The journal's sync
// runs after the gate is released: a write blocks readers only while it applies.
class LiveNetwork {
  public:
    // Loads a seed (docs/seed-format.md). Throws SeedError.
    [[nodiscard]] static std::unique_ptr<LiveNetwork> load(const nlohmann::json& document,
                                                           const std::string& source,
                                                           const std::filesystem::path& base_dir);
    [[nodiscard]] static std::unique_ptr<LiveNetwork> load_file(const std::filesystem::path& path,
                                                                const LoadProgress& progress = {});
    ~LiveNetwork();
    LiveNetwork(const LiveNetwork&) = delete;
    LiveNetwork& operator=(const LiveNetwork&) = delete;

    [[nodiscard]] const store::LedgerStore& store() const { return *store_; }
    [[nodiscard]] util::SharedGate& gate() const { return gate_; }

    // The network a state file saved (docs/state-files.md), instead of a seed: at start-up, which
    // a damaged file ends (its checksum is computed while its texts are interned). The file is
    // mapped while it is read (util::MappedFile: one truncated in place meanwhile raises SIGBUS),
    // under a read lease where one can be had: no other process can then truncate the file or
    // open it for writing (they wait), so the history's transactions are not copied during the
    // load but on another thread once it is done (stop_borrowing()), which then lets the mapping
    // and the lease go. Throws SeedError naming the file ("PATH: is truncated: …") when it cannot
    // be read or is not such a file.
    [[nodiscard]] static std::unique_ptr<LiveNetwork> load_state_file(
        const std::filesystem::path& path, const LoadProgress& progress = {});
    // The same from the file's bytes; `source` names them in errors. With `lender`, which keeps
    // `bytes` as they are while it is held, the history reads from them until stop_borrowing().
    [[nodiscard]] static std::unique_ptr<LiveNetwork> load_state(
        std::string_view bytes, const std::string& source, const LoadProgress& progress = {},
        std::shared_ptr<const void> lender = {});
    // Copies what the history still needs of the bytes lent to load_state, then lets the lender
    // go (on this thread). Readers go on meanwhile; writers wait. Nothing when nothing is lent.
    void stop_borrowing();
    // The network's state file as it stands, under the readers' lock: its ledger, clock, parties,
    // users and labels. Not its snapshots (POST /snapshots): they are marks in this process's
    // undo log.
    [[nodiscard]] std::string state() const;
    // The same written to `path` whole or not at all, each part on disk soon after it is encoded
    // (--dump-state).
    [[nodiscard]] WrittenStateFile save_state(const std::filesystem::path& path) const;

    // Re-applies the journal's recovered records, then appends every accepted write to it.
    // Throws journal::JournalError naming the record that cannot be applied. `progress` hears of
    // the records replayed.
    void attach_journal(journal::Journal& journal, const LoadProgress& progress = {});

    // ---- the admin operations ----
    // A write applies at once (readers see it when the call returns) and returns its answer with
    // the journal ticket to wait for before acknowledging it; or throws WriteError, nothing
    // changed.

    // One step object or an array of steps, applied all or nothing.
    Written apply_steps(const nlohmann::json& steps);
    // The same, taking the steps (a command's, which may be large) without copying them.
    Written apply_steps(nlohmann::json&& steps);
    // One "submit" step whose commands the API area resolved already (resolve_commands of the
    // step's commands), or one "execute" step it checked already (check_execution): the step
    // uses them rather than doing the work again. Its answer is brief:
    // {"results": [{"updates": [{"offset"}]}]}, the offset of the command's transaction first.
    // Throws as apply_steps.
    Written apply_submission(nlohmann::json&& step, std::vector<ResolvedCommand> resolved,
                             std::shared_ptr<const CheckedExecution> checked = nullptr);
    // The transaction a "submit" step would commit now (the clock and a microsecond), not
    // committed: what interactive submission prepares. Under the writers' lock; the ledger is
    // left as it was. Throws CommandError.
    [[nodiscard]] store::TransactionDraft interpret(const nlohmann::json& submit_step,
                                                    const std::string& contract_id_salt);
    // Moves the clock to `t`, running the automation due on the way. 409 when t is before now.
    Written set_time(model::Timestamp t);
    // Moves the clock forward by an ISO-8601 duration ("PT1H"). 400 for a bad duration.
    Written advance_time(const std::string& duration);
    Written take_snapshot();
    // take_snapshot, and the state file of the network at that snapshot written to `path` (a
    // persisted snapshot). The file is encoded under the readers' lock, or under the writers'
    // when writes keep coming between the two, and synced once the lock is let go.
    [[nodiscard]] std::pair<Written, WrittenStateFile> take_snapshot_to_file(
        const std::filesystem::path& path);
    Written revert(const std::string& id);
    Written reset();
    // Replaces the running network's state with a state file's (`source` names it in errors):
    // the ledger, clock, parties, users and labels the file holds; its snapshots are dropped and
    // the file becomes what reset() goes back to. The file must be of this network (the same DSO
    // party, synchronizers, participant, packages and auth settings, which the APIs were made
    // with): 409 otherwise, and 409 on a journaled network (its journal would not replay); 400
    // for bytes that are not a state file. Checked whole before anything changes.
    Written load_state_bytes(std::string_view bytes, const std::string& source);

    [[nodiscard]] nlohmann::json time() const;
    [[nodiscard]] nlohmann::json snapshots() const;

    // The writes the admin API applied since the daemon started (a journal's replay aside), for
    // metrics. REQUIRES: gate() held, shared at least.
    struct Activity {
        std::uint64_t steps = 0;      // POST /steps
        std::uint64_t time = 0;       // POST /time
        std::uint64_t snapshots = 0;  // snapshots taken
        std::uint64_t reverts = 0;
        std::uint64_t resets = 0;
        std::size_t snapshots_saved = 0;  // the snapshots a revert can go back to now
    };
    [[nodiscard]] Activity activity() const;

    // Calls `done` once the write is durable (nullptr) or the journal failed (a WriteError), from
    // the journal's thread or at once; never blocks. Concurrent writers share one sync.
    void when_durable(const Written& written, std::function<void(std::exception_ptr)> done);

  private:
    struct SavedSnapshot {
        std::string id;
        store::UndoLog::Mark mark = 0;
        store::Offset ledger_end = 0;
        model::Timestamp now;
    };

    LiveNetwork(std::unique_ptr<store::LedgerStore> store, std::unique_ptr<SeedContext> context);
    // The network of a seed load.
    static std::unique_ptr<LiveNetwork> adopt(LoadedSeed loaded);

    // The writers' lock, taken in this daemon's turn of the journal and caught up with what other
    // daemons on it wrote (a journal in PostgreSQL shared by several). Throws WriteError.
    struct WriteLock {
        std::unique_ptr<journal::Journal::Turn> turn;
        std::unique_lock<util::SharedGate> gate;  // let go before the turn
    };
    WriteLock lock_for_write();
    // Keeps `ticket`'s undo mark for take_back. REQUIRES: gate_ held exclusively.
    void remember_journaled(std::uint64_t ticket, std::optional<store::UndoLog::Mark> mark);
    // Applies a record of another daemon's. REQUIRES: gate_ held exclusively.
    void apply_record(const journal::Record& record);
    // Takes back this daemon's writes after record `last_common` of the journal (they were never
    // committed; other daemons wrote since): on_diverged's handler. False when one of them is a
    // snapshot, a revert or a reset, which cannot be taken back.
    bool take_back(std::uint64_t last_common);

    // Applies a write (the journal's record form) and appends it to the journal. Throws
    // WriteError.
    Written write(const nlohmann::json& op);
    // The same, with the record made under the writers' lock (from the clock as it is then).
    Written write(const std::function<nlohmann::json()>& make_op);
    // write's work; `brief`: a steps record answers only its updates' offsets
    // (apply_submission). REQUIRES: gate_ held exclusively.
    Written write_locked(const nlohmann::json& op, bool brief = false);
    // Applies a write. REQUIRES: gate_ held exclusively.
    nlohmann::json execute(const nlohmann::json& op, bool brief = false);
    nlohmann::json execute_steps(const nlohmann::json& steps, bool brief = false);
    nlohmann::json execute_time(model::Timestamp t);
    nlohmann::json execute_revert(const std::string& id);
    [[nodiscard]] nlohmann::json clock_json() const;
    // Snapshot `id` among snapshots_, or their end. REQUIRES: gate_ held.
    [[nodiscard]] std::vector<SavedSnapshot>::const_iterator find_snapshot(
        std::string_view id) const;
    // What a network that starts serving, or has loaded a state file, is set to: Scan's periodic
    // snapshots at the seed's interval or Scan's own default, and every change undoable.
    // REQUIRES: gate_ held exclusively (or the network not serving yet).
    void go_live();

    std::unique_ptr<store::LedgerStore> store_;
    std::unique_ptr<SeedContext> context_;
    mutable util::SharedGate gate_;
    journal::Journal* journal_ = nullptr;   // guarded by gate_ (set before serving)
    std::vector<SavedSnapshot> snapshots_;  // guarded by gate_, oldest first
    // This daemon's latest journaled writes: their tickets and the undo marks before them, for
    // take_back (nullopt: a snapshot, revert or reset). Guarded by gate_; the last 4096.
    struct Journaled {
        std::uint64_t ticket;
        std::optional<store::UndoLog::Mark> mark;
    };
    std::deque<Journaled> journaled_;
    std::uint64_t next_snapshot_id_ = 1;  // guarded by gate_; never reused
    Activity activity_;                   // guarded by gate_ (but snapshots_saved)
    // The network a state file replaced, freed on a thread of its own after the load answers (a
    // network of 100 000 amulets takes 10 ms to free), or the mapping of the file a start loaded
    // (unmapping 37 MiB took 1.2 ms). The next drop and the destructor wait for it.
    std::mutex freeing_mutex_;
    std::future<void> freeing_;  // guarded by freeing_mutex_
    // Runs `work` on that thread.
    template <class F>
    void later(F work) {
        const std::lock_guard freeing(freeing_mutex_);
        if (freeing_.valid()) freeing_.wait();
        freeing_ = std::async(std::launch::async, std::move(work));
    }
    // Drops `thing` on that thread.
    template <class T>
    void drop_later(T thing) {
        later([gone = std::move(thing)]() mutable { T dropped = std::move(gone); });
    }
};

}  // namespace cantonlite::seed
