#pragma once
// Network: the fixed facts of the emulated Canton network (DSO party, LSU announcement, ...).

#include <optional>
#include <string>

#include "cantonlite/model/timestamp.hpp"

namespace cantonlite::model {

// A logical synchronizer upgrade that the DSO has announced. Spec: scan.yaml Lsu.
struct Lsu {
    Timestamp topology_freeze_time;  // validFrom of the announcement topology transaction
    Timestamp upgrade_time;
    std::string successor_physical_synchronizer_id;  // "<synchronizer id>::<pv>-<serial>"
};

// What a seed says about the network itself, as opposed to its history.
struct Network {
    std::string dso_party;   // "DSO::1220…"
    std::optional<Lsu> lsu;  // none: no upgrade announced
};

}  // namespace cantonlite::model
