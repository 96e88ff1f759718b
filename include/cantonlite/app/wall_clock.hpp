#pragma once
// `serve --clock now`: the network's ledger time follows the wall clock at start. Clients such
// as the wallet SDK pick the open mining round and a transfer's times by their own clock
// (Date.now()); a seed's fixed ledger time leaves them no round to use.

#include "cantonlite/model/timestamp.hpp"
#include "cantonlite/seed/live_network.hpp"

namespace cantonlite::app {

// Moves the ledger time to `wall` (whole seconds; never back), then opens a mining round from a
// minute before it until a day after unless one is open then (opensAt <= t < targetClosesAt).
// Both are writes of the network, journaled like any other. Returns the ledger time after them.
model::Timestamp start_at_wall_clock(seed::LiveNetwork& network, model::Timestamp wall);

}  // namespace cantonlite::app
