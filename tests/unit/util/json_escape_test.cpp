// util::append_json_string: escaped as nlohmann's dump() escapes it, whatever the length of the
// text and wherever in it (within or across its 8-byte words) a character to escape falls.
#include "cantonlite/util/json_escape.hpp"

#include <random>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace cantonlite::util::json_escape_test {
namespace {

std::string escaped(std::string_view s) {
    std::string out;
    append_json_string(out, s);
    return out;
}

// The escaping, byte by byte, as the function's contract states it.
std::string byte_by_byte(std::string_view s) {
    static constexpr char hex[] = "0123456789abcdef";
    std::string out = "\"";
    for (const char ch : s) {
        const auto c = static_cast<unsigned char>(ch);
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
                if (c < 0x20) {
                    out += "\\u00";
                    out += hex[c >> 4];
                    out += hex[c & 0xF];
                } else {
                    out += ch;
                }
        }
    }
    return out + "\"";
}

TEST(JsonEscape, EveryByteAtEveryPlaceOfShortAndLongTexts) {
    for (std::size_t length = 1; length <= 24; ++length) {
        for (std::size_t at = 0; at < length; ++at) {
            for (int b = 0; b < 256; ++b) {
                std::string s(length, 'a');
                s[at] = static_cast<char>(b);
                ASSERT_EQ(escaped(s), byte_by_byte(s))
                    << "length " << length << ", byte " << b << " at " << at;
            }
        }
    }
}

TEST(JsonEscape, AsNlohmannDumpsValidTexts) {
    std::mt19937 random(7);
    const std::string alphabet =
        std::string("ab\"\\\n\r\t\b\f\x01\x1f\x7f /:") + "\xc3\xa9" + "\xe2\x82\xac";
    for (int round = 0; round < 2000; ++round) {
        std::string s;
        const std::size_t n = random() % 40;
        for (std::size_t i = 0; i < n; ++i) {
            const std::size_t pick = random() % (alphabet.size() - 4);
            if (pick >= alphabet.size() - 5) {  // a whole multi-byte character
                s += pick % 2 == 0 ? "\xc3\xa9" : "\xe2\x82\xac";
            } else {
                s += alphabet[pick];
            }
        }
        ASSERT_EQ(escaped(s), nlohmann::json(s).dump()) << s;
    }
    EXPECT_EQ(escaped(""), "\"\"");
}

}  // namespace
}  // namespace cantonlite::util::json_escape_test
