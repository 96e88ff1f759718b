#pragma once
// Decimal: Daml's Decimal (Numeric 10), an exact fixed-point number with ten decimals.

#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace cantonlite::model {

__extension__ using Int128 = __int128;
__extension__ using UInt128 = unsigned __int128;

// An exact decimal with scale 10 and at most 28 integer digits (Daml Numeric 10). Plain value.
class Decimal {
  public:
    constexpr Decimal() = default;

    // Parses "100", "-2.5", "0.0000190259", "1e3" is rejected. At most 10 fraction digits and 28
    // integer digits. Returns nullopt otherwise.
    [[nodiscard]] static std::optional<Decimal> parse(std::string_view text);

    // The value of `units` ten-billionths (units = value * 10^10).
    [[nodiscard]] static constexpr Decimal from_units(Int128 units) {
        Decimal d;
        d.units_ = units;
        return d;
    }

    [[nodiscard]] Int128 units() const { return units_; }

    // All ten decimals, as the ledger and Scan print Numeric 10: "100.0000000000", "-0.5000000000".
    [[nodiscard]] std::string to_scaled_string() const;

    // Trailing zeros stripped but one kept after the point, as ApiCodecCompressed prints it:
    // "100.0", "0.0000190259", "-2.5".
    [[nodiscard]] std::string to_compact_string() const;

    friend Decimal operator+(Decimal a, Decimal b) { return from_units(a.units_ + b.units_); }
    friend Decimal operator-(Decimal a, Decimal b) { return from_units(a.units_ - b.units_); }
    auto operator<=>(const Decimal&) const = default;

  private:
    Int128 units_ = 0;
};

}  // namespace cantonlite::model
