#pragma once
// The JSON string literal of a text, escaped as nlohmann's dump() escapes it (shared by the model's
// value encoders and the http layer's response builders).

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace cantonlite::util {

namespace detail {

// Whether any byte of the 8 in `w` is to be escaped: below 0x20, '"' or '\\' (exact as a whole,
// whichever byte it is: the tests of Bit Twiddling Hacks' haszero and hasless, n <= 128).
constexpr bool word_needs_escape(std::uint64_t w) {
    constexpr std::uint64_t ones = 0x0101010101010101ULL;
    constexpr std::uint64_t highs = 0x8080808080808080ULL;
    const auto has_zero = [](std::uint64_t x) { return ((x - ones) & ~x & highs) != 0; };
    const bool below_space = ((w - ones * 0x20) & ~w & highs) != 0;
    return below_space || has_zero(w ^ (ones * '"')) || has_zero(w ^ (ones * '\\'));
}

}  // namespace detail

// Appends `s` as a JSON string literal: `"`, `\`, and the control characters escaped (\n, \r,
// \t, \b, \f, else \u00xx); everything else, UTF-8 included, as it is. Eight bytes are looked at
// at once: the ids that most answers are made of have nothing to escape.
inline void append_json_string(std::string& out, std::string_view s) {
    static constexpr char hex[] = "0123456789abcdef";
    out += '"';
    std::size_t plain = 0;  // start of the run of characters that need no escape
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (i % 8 == 0 && i + 8 <= s.size()) {
            std::uint64_t word = 0;
            std::memcpy(&word, s.data() + i, 8);
            if (!detail::word_needs_escape(word)) {
                i += 7;
                continue;
            }
        }
        const auto c = static_cast<unsigned char>(s[i]);
        if (c >= 0x20 && c != '"' && c != '\\') continue;
        out.append(s, plain, i - plain);
        plain = i + 1;
        switch (c) {
            case '"':
                out += "\\\"";
                break;
            case '\\':
                out += "\\\\";
                break;
            case '\n':
                out += "\\n";
                break;
            case '\r':
                out += "\\r";
                break;
            case '\t':
                out += "\\t";
                break;
            case '\b':
                out += "\\b";
                break;
            case '\f':
                out += "\\f";
                break;
            default:
                out += "\\u00";
                out += hex[c >> 4];
                out += hex[c & 0xF];
        }
    }
    out.append(s, plain, s.size() - plain);
    out += '"';
}

}  // namespace cantonlite::util
