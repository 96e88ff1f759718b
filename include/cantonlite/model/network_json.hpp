#pragma once
// JSON encoders for the network facts, in the shapes the Splice Scan API returns them.

#include <nlohmann/json.hpp>

#include "cantonlite/model/network.hpp"

namespace cantonlite::model {

// Spec: scan.yaml Lsu. The only camelCase object of the Scan API; times as OffsetDateTime.
void to_json(nlohmann::ordered_json& j, const Lsu& lsu);

}  // namespace cantonlite::model
