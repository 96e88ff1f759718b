#pragma once
// How far a long load has come: a seed file read (bytes) or a journal replayed (records).

#include <cstdint>
#include <functional>

namespace cantonlite::seed {

// Called now and then during a load (every few hundred steps or records, not on each) with the
// units done so far and the whole; the callee decides whether to show it.
using LoadProgress = std::function<void(std::uint64_t done, std::uint64_t total)>;

}  // namespace cantonlite::seed
