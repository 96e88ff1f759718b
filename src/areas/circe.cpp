#include "cantonlite/areas/circe.hpp"

#include <cmath>
#include <limits>
#include <string>

#include "cantonlite/model/decimal.hpp"

namespace cantonlite::areas {
namespace {

// circe's JsonNumber.toLong of a number's text (BiggerDecimal): `-?digits(.digits)?([eE][+-]?
// digits)?`, leading zeros allowed; whole and within a Long, else nullopt.
std::optional<std::int64_t> whole_long_text(std::string_view t) {
    std::size_t i = 0;
    const bool negative = i < t.size() && t[i] == '-';
    if (negative) ++i;
    const auto digits = [&] {
        const std::size_t from = i;
        while (i < t.size() && t[i] >= '0' && t[i] <= '9') ++i;
        return t.substr(from, i - from);
    };
    std::string mantissa(digits());
    if (mantissa.empty()) return std::nullopt;
    std::int64_t exponent = 0;
    if (i < t.size() && t[i] == '.') {
        ++i;
        const std::string_view fraction = digits();
        if (fraction.empty()) return std::nullopt;
        mantissa += fraction;
        exponent -= static_cast<std::int64_t>(fraction.size());
    }
    if (i < t.size() && (t[i] == 'e' || t[i] == 'E')) {
        ++i;
        const bool minus = i < t.size() && t[i] == '-';
        if (i < t.size() && (t[i] == '+' || t[i] == '-')) ++i;
        const std::string_view e = digits();
        if (e.empty() || e.size() > 9) return std::nullopt;
        const std::int64_t n = std::stoll(std::string(e));
        exponent += minus ? -n : n;
    }
    if (i != t.size()) return std::nullopt;
    const std::size_t first = mantissa.find_first_not_of('0');
    if (first == std::string::npos) return 0;  // zero, whatever its exponent
    mantissa.erase(0, first);
    while (exponent < 0 && mantissa.back() == '0') {
        mantissa.pop_back();
        ++exponent;
    }
    if (exponent < 0 || exponent + static_cast<std::int64_t>(mantissa.size()) > 19)
        return std::nullopt;
    mantissa.append(static_cast<std::size_t>(exponent), '0');
    const model::UInt128 limit =
        static_cast<model::UInt128>(std::numeric_limits<std::int64_t>::max()) + (negative ? 1 : 0);
    model::UInt128 value = 0;
    for (const char c : mantissa) value = value * 10 + static_cast<unsigned>(c - '0');
    if (value > limit) return std::nullopt;
    return negative ? static_cast<std::int64_t>(-static_cast<model::Int128>(value))
                    : static_cast<std::int64_t>(value);
}

}  // namespace

std::optional<std::int64_t> circe_long(const nlohmann::json& v) {
    if (v.is_number_unsigned()) {
        const auto u = v.get<std::uint64_t>();
        if (u > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
            return std::nullopt;
        return static_cast<std::int64_t>(u);
    }
    if (v.is_number_integer()) return v.get<std::int64_t>();
    if (v.is_number_float()) {
        const double d = v.get<double>();
        constexpr double two_to_63 = 9223372036854775808.0;
        if (!std::isfinite(d) || d != std::trunc(d) || d < -two_to_63 || d >= two_to_63)
            return std::nullopt;
        return static_cast<std::int64_t>(d);
    }
    if (v.is_string()) return whole_long_text(v.get_ref<const std::string&>());
    return std::nullopt;
}

}  // namespace cantonlite::areas
