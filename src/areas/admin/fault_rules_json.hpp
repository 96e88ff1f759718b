#pragma once
// The admin API's fault rules in JSON (POST, GET /_cantonlite/v1/faults).

#include <nlohmann/json.hpp>

#include "cantonlite/http/faults.hpp"

namespace cantonlite::areas::admin {

// A rule from its POST body:
//   {"route": "/api/scan/*", "method": "GET", "latency_ms": 250, "error_status": 503,
//    "error_share": 0.5, "reset_share": 0.1, "times": 3}
// Only route is required; error_share is 1 when error_status is given alone. Throws
// http::DecodeError for a body that is not such an object (an unknown key, a wrong type, a share
// outside 0-1, a rule that does nothing).
[[nodiscard]] http::FaultRule fault_rule_from_json(const nlohmann::json& body);

// A rule as GET lists it: its fields, its id, and the requests it matched, delayed, failed and
// reset.
[[nodiscard]] nlohmann::json fault_rule_json(const http::FaultRuleState& state);

}  // namespace cantonlite::areas::admin
