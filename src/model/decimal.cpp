#include "cantonlite/model/decimal.hpp"

#include <algorithm>
#include <cstddef>

namespace cantonlite::model {
namespace {

__extension__ using UInt128 = unsigned __int128;

constexpr std::size_t scale = 10;               // fraction digits of a Numeric 10
constexpr std::size_t max_integer_digits = 28;  // 38 digits of precision minus the scale

bool all_digits(std::string_view s) {
    return std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// `units` appended with the decimal digits of `s`. REQUIRES: all_digits(s), no overflow.
UInt128 append_digits(UInt128 units, std::string_view s) {
    for (const char c : s) units = units * 10 + static_cast<unsigned>(c - '0');
    return units;
}

UInt128 magnitude(Int128 units) {
    return units < 0 ? -static_cast<UInt128>(units) : static_cast<UInt128>(units);
}

// The decimal digits of n, without sign or leading zeros ("0" for zero).
std::string digits_of(UInt128 n) {
    std::string out;
    do {
        out += static_cast<char>('0' + static_cast<int>(n % 10));
        n /= 10;
    } while (n != 0);
    std::reverse(out.begin(), out.end());
    return out;
}

// The units of "<whole>.<fraction>", or nullopt when either part is malformed or too long.
// An empty `fraction` means there was no point.
std::optional<UInt128> read_units(std::string_view whole, std::string_view fraction) {
    if (whole.empty() || !all_digits(whole) || !all_digits(fraction)) return std::nullopt;
    if (fraction.size() > scale) return std::nullopt;
    // Leading zeros carry no value, so they do not count against the 28 integer digits.
    whole.remove_prefix(std::min(whole.find_first_not_of('0'), whole.size()));
    if (whole.size() > max_integer_digits) return std::nullopt;
    UInt128 units = append_digits(append_digits(0, whole), fraction);
    for (std::size_t i = fraction.size(); i < scale; ++i) units *= 10;
    return units;
}

}  // namespace

std::optional<Decimal> Decimal::parse(std::string_view text) {
    const bool negative = !text.empty() && text.front() == '-';
    if (negative) text.remove_prefix(1);
    const std::size_t point = text.find('.');
    const std::string_view whole = text.substr(0, point);
    const std::string_view fraction =
        point == std::string_view::npos ? std::string_view{} : text.substr(point + 1);
    if (point != std::string_view::npos && fraction.empty()) return std::nullopt;  // "1."
    const auto units = read_units(whole, fraction);
    if (!units) return std::nullopt;
    const auto value = static_cast<Int128>(*units);
    return from_units(negative ? -value : value);
}

std::string Decimal::to_scaled_string() const {
    std::string digits = digits_of(magnitude(units_));
    if (digits.size() <= scale) digits.insert(0, scale + 1 - digits.size(), '0');
    digits.insert(digits.size() - scale, 1, '.');
    if (units_ < 0) digits.insert(0, 1, '-');
    return digits;
}

std::string Decimal::to_compact_string() const {
    std::string s = to_scaled_string();
    while (s.back() == '0' && s[s.size() - 2] != '.') s.pop_back();
    return s;
}

}  // namespace cantonlite::model
