#pragma once
// The state file's codec (docs/state-files.md): the network as it stands, written from a store and
// its seed context, and read back into new ones.

#include <memory>
#include <string>
#include <string_view>

#include "cantonlite/seed/load_progress.hpp"
#include "seed_context.hpp"

namespace cantonlite::seed {

// The state file of `store` and `context`: header, payload, checksum. REQUIRES: no writer runs
// (the caller holds the readers' lock at least).
[[nodiscard]] std::string write_state(const store::LedgerStore& store, const SeedContext& context);

// The network of a state file's bytes: a new store, with the Splice views, and its seed context.
// Throws StateError (its message is one line, without the file's name) for bytes that are not a
// state file, another format's, truncated or damaged. `progress` hears of the updates replayed.
[[nodiscard]] LoadedSeed read_state(std::string_view bytes, const LoadProgress& progress = {});

}  // namespace cantonlite::seed
