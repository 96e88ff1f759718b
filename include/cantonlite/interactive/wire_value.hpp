#pragma once
// Daml values between cantonlite's model::Value and the Ledger API's Value on the wire (the
// prepared transaction's). cantonlite's values carry no type ids, so records, variants and enums go
// out without record_id / variant_id / enum_id; numerics are Numeric 10, in Daml's canonical text
// ("1.0000000000"). A value that comes back (execute) reads into the same model::Value, so a
// prepared transaction hashes the same after the round trip.

#include <stdexcept>

#include "cantonlite/model/value.hpp"
#include "value.pb.h"

namespace cantonlite::interactive {

// What a wire value cannot be as a model::Value: a numeric beyond Numeric 10 or not canonical, a
// value without its sum, nesting beyond Daml's 100 levels.
class WireValueError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

[[nodiscard]] wire::Value to_wire(const model::Value& value);
// Throws WireValueError.
[[nodiscard]] model::Value from_wire(const wire::Value& value);

}  // namespace cantonlite::interactive
