#pragma once
// Journal: where the accepted writes of a running network are kept, so that a restart gives the
// same network. One small interface; a file is the first backend (PostgreSQL may follow).

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

// One record read back at start-up, with the byte offset it starts at (for error messages).
struct Record {
    std::uint64_t offset = 0;
    std::string payload;
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
};

// A journal in the file at `path`, created when missing. `seed_fingerprint` identifies the seed the
// records apply to (the SHA-256 of the seed file): a journal that was written for another seed is
// refused with a JournalError saying so. Records are framed so that a torn last record is found and
// cut (with a spdlog warning that names its byte offset); a damaged record followed by others is a
// JournalError, never silently dropped.
[[nodiscard]] std::unique_ptr<Journal> open_file_journal(const std::filesystem::path& path,
                                                         const std::string& seed_fingerprint);

}  // namespace cantonlite::journal
