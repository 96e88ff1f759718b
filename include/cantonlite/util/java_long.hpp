#pragma once
// java.lang.Long.parseLong, which the real services read numbers in text with: the ledger's query
// parameters (tapir's Codec[Long]), Pekko's Long unmarshaller and the Java codegen's Int decoder.

#include <charconv>
#include <cstdint>
#include <optional>
#include <string_view>
#include <system_error>

namespace cantonlite::util {

// A sign ('+' or '-'), then ASCII digits and nothing else (no white space of any kind), within 64
// bits; nullopt otherwise.
[[nodiscard]] inline std::optional<std::int64_t> java_parse_long(std::string_view text) {
    std::string_view number = text;
    if (number.starts_with('+')) number.remove_prefix(1);  // from_chars reads '-' only
    if (number.empty() || (number.front() == '-' && number.size() != text.size())) return {};
    std::int64_t value = 0;
    const auto [end, error] = std::from_chars(number.data(), number.data() + number.size(), value);
    if (error != std::errc{} || end != number.data() + number.size()) return {};
    return value;
}

}  // namespace cantonlite::util
