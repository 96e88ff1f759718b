#pragma once
// `cantonlite generate`: writes the seed of a synthetic network of a given size, for load tests.

#include <cstdint>
#include <ostream>

namespace cantonlite::app {

// The size of the network to generate and the seed of its pseudo-random choices.
struct GenerateSpec {
    std::int64_t parties = 0;  // users "party-0" .. "party-<N-1>"; the first half have wallets
    std::int64_t amulets = 0;  // mint steps
    std::int64_t updates = 0;  // further steps: transfers, offers, traffic, ANS, commands, votes
    std::uint64_t seed = 1;    // the same seed gives byte-identical output
};

// Writes a seed (docs/seed-format.md) to `out` step by step, holding only what the choices need
// (the amulets still unspent), never the document. Every step has an explicit "at", one second
// after the previous one; Scan takes a snapshot halfway through the steps and one at the end.
// REQUIRES: spec.parties >= 1, spec.amulets >= 0, spec.updates >= 0.
void write_generated_seed(std::ostream& out, const GenerateSpec& spec);

}  // namespace cantonlite::app
