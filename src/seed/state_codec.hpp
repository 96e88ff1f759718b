#pragma once
// The state file's codec (docs/state-files.md): the network as it stands, written from a store and
// its seed context, and read back into new ones.

#include <filesystem>
#include <memory>
#include <string>
#include <string_view>

#include "cantonlite/seed/load_progress.hpp"
#include "cantonlite/seed/state_file.hpp"
#include "cantonlite/util/whole_file.hpp"
#include "seed_context.hpp"

namespace cantonlite::seed {

// The state file of `store` and `context`: header, payload, checksum. REQUIRES: no writer runs
// (the caller holds the readers' lock at least).
[[nodiscard]] std::string write_state(const store::LedgerStore& store, const SeedContext& context);

// The same file written into `file` (open, not yet committed): each part is written and sent to
// the disk on a second thread, with the checksum, while the rest is encoded in two buffers of
// about `buffer_bytes` in turn, so that the file is on disk soon after it is encoded. Returns its
// header. The caller commits the file once it has let go of the network's lock
// (commit_state_file): the sync need not hold off the writers. REQUIRES: as write_state's.
inline constexpr std::size_t state_file_buffer_bytes = std::size_t{2} << 20;  // 2 history chunks
[[nodiscard]] std::string write_state_file(const store::LedgerStore& store,
                                           const SeedContext& context, util::AtomicFile& file,
                                           std::size_t buffer_bytes = state_file_buffer_bytes);
// Commits `file`, whose header write_state_file returned: the header, or why it was not written.
[[nodiscard]] WrittenStateFile commit_state_file(util::AtomicFile& file, std::string header);

// When a state file's checksum is checked: before anything of it is read, or while its table of
// texts is read (and interned: Names are never freed, so only where a damaged file ends the
// process, as at start-up, where its texts are also taken to be new).
enum class Checksum { first, alongside };

// The network of a state file's bytes: a new store, with the Splice views, and its seed context.
// Throws StateError (its message is one line, without the file's name) for bytes that are not a
// state file, another format's, truncated or damaged. `progress` hears of the updates replayed.
// With `lender`, which keeps `bytes` as they are for as long as it is held (a mapping of the file
// under a read lease), the history reads its transactions from `bytes` when first asked for, not
// from a copy made during the load, until LedgerStore::stop_borrowing() copies the ones still
// unread and hands the lender back.
[[nodiscard]] LoadedSeed read_state(std::string_view bytes, const LoadProgress& progress = {},
                                    Checksum checksum = Checksum::first,
                                    std::shared_ptr<const void> lender = {});

}  // namespace cantonlite::seed
