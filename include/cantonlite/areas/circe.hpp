#pragma once
// circe's number decoders, which both Canton's JSON API (through tapir) and the Splice apps
// (through guardrail) decode request bodies with.

#include <cstdint>
#include <optional>

#include <nlohmann/json.hpp>

namespace cantonlite::areas {

// circe's Decoder[Long] (Decoder.scala decodeLong, JsonNumber.toLong over BiggerDecimal): a
// whole number within a Long, also written as a JSON string ("5", "05", "5.0") or with a fraction
// or an exponent (5.0, 1e2); nullopt otherwise (circe's reason is then "Long").
[[nodiscard]] std::optional<std::int64_t> circe_long(const nlohmann::json& value);

}  // namespace cantonlite::areas
