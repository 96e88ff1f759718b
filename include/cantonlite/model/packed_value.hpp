#pragma once
// PackedValue: a Daml value as the store keeps it, in one compact byte form from which every JSON
// encoding is written (value_json.hpp).

#include <string>
#include <string_view>

#include "cantonlite/model/value.hpp"

namespace cantonlite::model {

// The bytes of one Value: a kind tag per node; integers as zigzag varints; parties, contract ids
// and record labels as Names (value of Name::id()); texts, map keys and constructors inline.
// A typical Amulet argument takes ~40 bytes against ~280 for one of its JSON encodings.
// Immutable plain value.
class PackedValue {
  public:
    PackedValue() : bytes_(1, '\0') {}  // Unit
    [[nodiscard]] std::string_view bytes() const { return bytes_; }
    [[nodiscard]] std::size_t size() const { return bytes_.size(); }
    bool operator==(const PackedValue&) const = default;

    friend PackedValue pack(const Value& v);

  private:
    explicit PackedValue(std::string bytes) : bytes_(std::move(bytes)) {}
    std::string bytes_;
};

[[nodiscard]] PackedValue pack(const Value& v);
// The Value that was packed (unpack(pack(v)) == v).
[[nodiscard]] Value unpack(const PackedValue& packed);

}  // namespace cantonlite::model
