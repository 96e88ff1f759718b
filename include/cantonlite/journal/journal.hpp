#pragma once
// Journal: where the accepted writes of a running network are kept, so that a restart gives the
// same network. One small interface, two backends: a file, and a PostgreSQL database.

#include <cstdint>
#include <exception>
#include <filesystem>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace cantonlite::journal {

// The journal cannot be used: it cannot be opened or read, it was written for another seed, or a
// record before the last one is damaged. what() is one line that names the journal.
class JournalError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

// The journal's store is away for now (PostgreSQL cannot be reached): writes are refused until it
// is back, and the journal reconnects by itself. A service-unavailable answer, not a failure.
class JournalUnavailable : public JournalError {
  public:
    using JournalError::JournalError;
};

// One record read back at start-up, with where it is: the byte offset it starts at in a file, its
// number (from 1) in PostgreSQL; `where` says which, for messages ("at byte 120", "number 3").
struct Record {
    std::uint64_t offset = 0;
    std::string payload;
    std::string where;
};

// An append-only sequence of opaque records (the live network writes one JSON text per accepted
// write). append() may be called by one thread at a time (the network's writer, in apply order);
// wait_durable() by any number of threads at once: concurrent waiters share one sync (group
// commit), so throughput is not bounded by one sync per write.
class Journal {
  public:
    virtual ~Journal() = default;

    // The records written before this start, in order. A torn last record (the process was killed
    // while writing it) has been cut off already, with a warning naming its byte offset.
    [[nodiscard]] virtual const std::vector<Record>& recovered() const = 0;

    // Appends one record (no newline inside is required of the payload; the backend frames it).
    // Returns a ticket for wait_durable(). Throws JournalError when the write fails.
    [[nodiscard]] virtual std::uint64_t append(std::string_view payload) = 0;

    // Returns once the record of `ticket`, and every record appended before it, is on stable
    // storage. Throws JournalError when the sync fails.
    virtual void wait_durable(std::uint64_t ticket) = 0;

    // The same without blocking the caller: `done` runs, on the journal's own thread (or at once
    // on the caller's, when nothing needs syncing), with nullptr once the record of `ticket` is on
    // stable storage, or with the JournalError of a failed sync. Callbacks waiting together share
    // one sync. `done` must not throw. The journal runs every pending callback before it is
    // destroyed.
    virtual void when_durable(std::uint64_t ticket,
                              std::function<void(std::exception_ptr)> done) = 0;

    // What the journal has done since it was opened, for /metrics.
    struct Stats {
        std::uint64_t records_written = 0;   // this daemon's records made durable
        std::uint64_t records_followed = 0;  // other daemons' records applied here
        std::uint64_t commits = 0;           // syncs (a file) or transactions (PostgreSQL)
        std::uint64_t turns = 0;             // turns to write taken (PostgreSQL)
        bool available = true;               // takes writes now
    };
    [[nodiscard]] virtual Stats stats() const = 0;

    // ---- several daemons on one journal (PostgreSQL); a file's journal has one writer ----
    // A daemon writes in its turn, and applies what the others committed before it writes:
    //     const auto turn = journal.writers_turn();  // before the network's writers' lock
    //     (take the network's writers' lock)
    //     journal.catch_up(apply);                  // the others' records since, in order
    //     (apply the write), journal.append(record);
    // Between its writes, follow() applies what the others commit.

    // What holds this daemon's turn; the turn may pass on once every holder is gone.
    class Turn {
      public:
        virtual ~Turn() = default;
    };
    // Waits for this daemon's turn to write (nullptr: always its turn). Throws JournalUnavailable
    // when the turn does not come (the database is away, or another daemon keeps it too long).
    [[nodiscard]] virtual std::unique_ptr<Turn> writers_turn() { return nullptr; }
    // Runs `apply` on every record the other daemons committed that this daemon has not applied,
    // in order. REQUIRES: a Turn, and the network's writers' lock. `apply` throwing leaves the
    // journal unusable (the network is no longer the journal's): it throws JournalError.
    using Apply = std::function<void(const Record&)>;
    virtual void catch_up(const Apply& /*apply*/) {}
    // Starts following the other daemons' commits: `follow` runs on the journal's own thread with
    // a function to call under the network's writers' lock, which applies the new records through
    // `apply` (as catch_up). Returns at once; nothing to follow for a one-writer journal.
    using Follow = std::function<void(const std::function<void(const Apply&)>& apply_new)>;
    virtual void follow(Follow /*follow*/) {}
    // Called on the journal's thread when writes this daemon applied were not committed and other
    // daemons wrote meanwhile (the database went away in the middle of a commit): the network
    // takes back every record after `last_common` (the last one it shares with the journal),
    // under its writers' lock, before the journal takes writes again; the records that follow are
    // then applied as the others' (follow). Returns false when it cannot: the journal then
    // refuses every write, saying to restart the daemon. Set before follow().
    using Diverged = std::function<bool(std::uint64_t last_common)>;
    virtual void on_diverged(Diverged /*handler*/) {}
};

// A journal in the file at `path`, created when missing. `seed_fingerprint` identifies the seed the
// records apply to (the SHA-256 of the seed file): a journal that was written for another seed is
// refused with a JournalError saying so. Records are framed so that a torn last record is found and
// cut (with a spdlog warning that names its byte offset); a damaged record followed by others is a
// JournalError, never silently dropped.
[[nodiscard]] std::unique_ptr<Journal> open_file_journal(const std::filesystem::path& path,
                                                         const std::string& seed_fingerprint);

// A journal in the PostgreSQL database at `url` (a libpq connection URI: postgresql://user@host/db,
// or postgres://), its tables created when missing (docs/postgresql.md). The same contract as a
// file's: records in order, refused for another seed; a record is durable once its transaction
// has committed, and concurrent waiters share commits. While the database cannot be reached,
// append() and the waits throw JournalUnavailable; the journal reconnects by itself and commits
// the records it holds, in order, when the database is back. Any number of daemons may share one
// database's journal (writers_turn, catch_up, follow). Messages name the URL without its
// password.
[[nodiscard]] std::unique_ptr<Journal> open_postgres_journal(const std::string& url,
                                                             const std::string& seed_fingerprint);

// Whether `where` (the --journal setting) names a PostgreSQL database rather than a file.
[[nodiscard]] bool is_postgres_url(std::string_view where);

// `url` with its password hidden (user:***@host, password=***), for messages and logs.
[[nodiscard]] std::string redact_url(std::string_view url);

// The journal `where` names: open_postgres_journal for a PostgreSQL URL, else open_file_journal.
[[nodiscard]] std::unique_ptr<Journal> open_journal(const std::string& where,
                                                    const std::string& seed_fingerprint);

}  // namespace cantonlite::journal
