#include "cantonlite/http/jawn.hpp"

#include <cstdint>
#include <vector>

namespace cantonlite::http {
namespace {

constexpr char32_t replacement = 0xFFFD;

// The code points of `text`, each sequence that is not UTF-8 one U+FFFD.
std::u32string code_points(std::string_view text) {
    std::u32string out;
    out.reserve(text.size());
    std::size_t i = 0;
    while (i < text.size()) {
        const auto b = static_cast<unsigned char>(text[i]);
        if (b < 0x80) {
            out += b;
            ++i;
            continue;
        }
        std::size_t length = 0;
        char32_t cp = 0;
        char32_t min = 0;
        if (b >= 0xC2 && b <= 0xDF) {
            length = 2, cp = b & 0x1FU, min = 0x80;
        } else if (b >= 0xE0 && b <= 0xEF) {
            length = 3, cp = b & 0x0FU, min = 0x800;
        } else if (b >= 0xF0 && b <= 0xF4) {
            length = 4, cp = b & 0x07U, min = 0x10000;
        }
        std::size_t used = 1;
        while (length != 0 && used < length && i + used < text.size() &&
               (static_cast<unsigned char>(text[i + used]) & 0xC0U) == 0x80) {
            cp = (cp << 6) | (static_cast<unsigned char>(text[i + used]) & 0x3FU);
            ++used;
        }
        const bool valid = length != 0 && used == length && cp >= min && cp <= 0x10FFFF &&
                           (cp < 0xD800 || cp > 0xDFFF);
        out += valid ? cp : replacement;
        i += used;
    }
    return out;
}

void append_utf8(std::string& out, char32_t cp) {
    if (cp < 0x80) {
        out += static_cast<char>(cp);
    } else if (cp < 0x800) {
        out += static_cast<char>(0xC0 | (cp >> 6));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        out += static_cast<char>(0xE0 | (cp >> 12));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
        out += static_cast<char>(0xF0 | (cp >> 18));
        out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    }
}

// A Java String: UTF-16 code units (a code point above U+FFFF is two).
std::u16string java_string(std::string_view text) {
    std::u16string out;
    for (const char32_t cp : code_points(text)) {
        if (cp < 0x10000) {
            out += static_cast<char16_t>(cp);
        } else {
            out += static_cast<char16_t>(0xD800 + ((cp - 0x10000) >> 10));
            out += static_cast<char16_t>(0xDC00 + ((cp - 0x10000) & 0x3FF));
        }
    }
    return out;
}

std::string to_utf8(std::u16string_view units) {
    std::string out;
    for (std::size_t i = 0; i < units.size(); ++i) {
        char32_t cp = units[i];
        if (cp >= 0xD800 && cp <= 0xDBFF && i + 1 < units.size() && units[i + 1] >= 0xDC00 &&
            units[i + 1] <= 0xDFFF) {
            cp = 0x10000 + ((cp - 0xD800) << 10) + (units[++i] - 0xDC00);
        } else if (cp >= 0xD800 && cp <= 0xDFFF) {
            cp = '?';  // a lone surrogate: Java's encoder writes '?'
        }
        append_utf8(out, cp);
    }
    return out;
}

struct Exhausted {};
struct Died {
    std::string message;
};

// jawn's Parser over a StringParser (jawn 1.6 Parser.scala, CharBasedParser, SyncParser), for its
// verdict only: no values are built.
class Jawn {
  public:
    Jawn(std::u16string text, std::size_t context) : s_(std::move(text)), context_(context) {}

    void parse() {
        std::size_t j = top_value(skip_whitespace(0));
        while (!eof(j)) {
            const char16_t c = s_[j];
            if (c == '\n') {
                newline(j);
            } else if (c != ' ' && c != '\t' && c != '\r') {
                die(j, "expected whitespace or eof");
            }
            ++j;
        }
    }

  private:
    enum class State { data, key, separator, array_end, object_end, array_begin, object_begin };

    [[nodiscard]] bool eof(std::size_t i) const { return i >= s_.size(); }
    char16_t at(std::size_t i) const {
        if (i >= s_.size()) throw Exhausted{};
        return s_[i];
    }
    void newline(std::size_t i) {
        ++line_;
        line_start_ = i + 1;
    }

    [[noreturn]] void die(std::size_t i, std::string_view expectation) const {
        die(i, expectation, context_);
    }
    [[noreturn]] void die(std::size_t i, std::string_view expectation, std::size_t chars) const {
        std::string got;
        if (eof(i)) {
            got = "eof";
        } else {
            std::size_t n = 0;
            while (n < chars && !eof(i + n)) ++n;
            got = "'" + to_utf8(std::u16string_view(s_).substr(i, n)) + (eof(i + n) ? "'" : "...'");
        }
        throw Died{std::string(expectation) + " got " + got + " (line " +
                   std::to_string(line_ + 1) + ", column " + std::to_string(i - line_start_ + 1) +
                   ")"};
    }

    std::size_t skip_whitespace(std::size_t i) {
        for (;;) {
            const char16_t c = at(i);
            if (c == '\n') {
                newline(i);
            } else if (c != ' ' && c != '\t' && c != '\r') {
                return i;
            }
            ++i;
        }
    }

    static bool digit(char16_t c) { return c >= '0' && c <= '9'; }

    // A number from `i`; `top`: at the top level, where the text may end right after it.
    std::size_t number(std::size_t i, bool top) const {
        std::size_t j = i;
        const auto peek = [&](std::size_t k) -> char16_t { return top && eof(k) ? 0 : at(k); };
        char16_t c = at(j);
        if (c == '-') c = at(++j);
        if (c == '0') {
            c = peek(++j);
        } else if (c >= '1' && c <= '9') {
            while (digit(c)) c = peek(++j);
        } else {
            die(j, "expected digit");
        }
        if (c == '.') {
            c = at(++j);
            if (!digit(c)) die(j, "expected digit");
            while (digit(c)) c = peek(++j);
        }
        if (c == 'e' || c == 'E') {
            c = at(++j);
            if (c == '+' || c == '-') c = at(++j);
            if (!digit(c)) die(j, "expected digit");
            while (digit(c)) c = peek(++j);
        }
        return j;
    }

    std::size_t string(std::size_t i) const {
        std::size_t j = i + 1;
        for (;;) {
            const char16_t c = at(j);
            if (c == '"') return j + 1;
            if (c < ' ') die(j, "control char (" + std::to_string(int{c}) + ") in string", 1);
            if (c != '\\') {
                ++j;
                continue;
            }
            const char16_t e = at(j + 1);
            if (e == 'u') {
                for (std::size_t k = j + 2; k < j + 6; ++k) {
                    const char16_t h = at(k);
                    if (!digit(h) && !(h >= 'a' && h <= 'f') && !(h >= 'A' && h <= 'F'))
                        die(j, "expected valid unicode escape");
                }
                j += 6;
            } else if (e == 'b' || e == 'f' || e == 'n' || e == 'r' || e == 't' || e == '"' ||
                       e == '/' || e == '\\') {
                j += 2;
            } else {
                die(j, "illegal escape sequence (\\" + to_utf8(std::u16string(1, e)) + ")", 1);
            }
        }
    }

    std::size_t literal(std::size_t i, std::u16string_view word, std::string_view expectation) {
        for (std::size_t k = 1; k < word.size(); ++k) {
            if (at(i + k) != word[k]) die(i, expectation);
        }
        return i + word.size();
    }

    // A scalar at `i` (a number, string or literal), else die.
    std::size_t scalar(std::size_t i, bool top) {
        const char16_t c = at(i);
        if (c == '"') return string(i);
        if (c == '-' || digit(c)) return number(i, top);
        if (c == 't') return literal(i, u"true", "expected true");
        if (c == 'f') return literal(i, u"false", "expected false");
        if (c == 'n') return literal(i, u"null", "expected null");
        die(i, "expected json value");
    }

    std::size_t top_value(std::size_t i) {
        const char16_t c = at(i);
        if (c == '[') return containers(State::array_begin, i + 1, {false});
        if (c == '{') return containers(State::object_begin, i + 1, {true});
        return scalar(i, true);
    }

    // jawn's rparse: `objects` holds, innermost last, whether each open container is an object.
    std::size_t containers(State state, std::size_t j, std::vector<bool> objects) {
        const auto after_value = [&] {
            return objects.back() ? State::object_end : State::array_end;
        };
        for (;;) {
            const char16_t c = at(j);
            if (c == '\n') {
                newline(j);
                ++j;
                continue;
            }
            if (c == ' ' || c == '\t' || c == '\r') {
                ++j;
                continue;
            }
            const auto close = [&] {
                objects.pop_back();
                ++j;
                if (!objects.empty()) state = after_value();
                return objects.empty();
            };
            switch (state) {
                case State::data:
                case State::array_begin:
                case State::object_begin:
                    if (state == State::array_begin && c == ']') {
                        if (close()) return j;
                    } else if (state == State::object_begin && c == '}') {
                        if (close()) return j;
                    } else if (state == State::object_begin) {
                        state = State::key;
                    } else if (c == '[' || c == '{') {
                        objects.push_back(c == '{');
                        state = c == '{' ? State::object_begin : State::array_begin;
                        ++j;
                    } else {
                        j = scalar(j, false);
                        state = after_value();
                    }
                    break;
                case State::key:
                    if (c != '"') die(j, "expected \"");
                    j = string(j);
                    state = State::separator;
                    break;
                case State::separator:
                    if (c != ':') die(j, "expected :");
                    ++j;
                    state = State::data;
                    break;
                case State::array_end:
                case State::object_end: {
                    const bool object = state == State::object_end;
                    if (c == ',') {
                        ++j;
                        state = object ? State::key : State::data;
                    } else if (c == (object ? '}' : ']')) {
                        if (close()) return j;
                    } else {
                        die(j, object ? "expected } or ," : "expected ] or ,");
                    }
                    break;
                }
            }
        }
    }

    std::u16string s_;
    std::size_t context_;
    std::size_t line_ = 0;
    std::size_t line_start_ = 0;
};

}  // namespace

std::optional<std::string> jawn_error(std::string_view text, std::size_t context) {
    try {
        Jawn(java_string(text), context).parse();
        return std::nullopt;
    } catch (const Exhausted&) {
        return "exhausted input";
    } catch (const Died& died) {
        return died.message;
    }
}

std::string java_utf8(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (const char32_t cp : code_points(text)) append_utf8(out, cp);
    return out;
}

namespace {

// The code unit a "\\uXXXX" escape at `at` names (`at` is at its backslash), if it is one.
std::optional<char16_t> unicode_escape(std::string_view text, std::size_t at) {
    if (at + 6 > text.size() || text[at] != '\\' || text[at + 1] != 'u') return std::nullopt;
    unsigned value = 0;
    for (std::size_t i = at + 2; i < at + 6; ++i) {
        const char c = text[i];
        const int digit = c >= '0' && c <= '9'   ? c - '0'
                          : c >= 'a' && c <= 'f' ? c - 'a' + 10
                          : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                                 : -1;
        if (digit < 0) return std::nullopt;
        value = value * 16 + static_cast<unsigned>(digit);
    }
    return static_cast<char16_t>(value);
}

bool is_high_surrogate(char16_t unit) {
    return unit >= 0xD800 && unit <= 0xDBFF;
}
bool is_low_surrogate(char16_t unit) {
    return unit >= 0xDC00 && unit <= 0xDFFF;
}

}  // namespace

std::string java_json_text(std::string_view text) {
    const std::string utf8 = java_utf8(text);
    std::string out;
    out.reserve(utf8.size());
    bool in_string = false;
    for (std::size_t i = 0; i < utf8.size(); ++i) {
        const char c = utf8[i];
        if (c == '"') in_string = !in_string;
        if (!in_string || c != '\\' || i + 1 >= utf8.size()) {
            out += c;
            continue;
        }
        const auto unit = unicode_escape(utf8, i);
        if (!unit) {  // another escape: both characters as they are
            out.append(utf8, i, 2);
            ++i;
            continue;
        }
        const auto next = is_high_surrogate(*unit) ? unicode_escape(utf8, i + 6) : std::nullopt;
        if (next && is_low_surrogate(*next)) {  // a pair: one code point
            out.append(utf8, i, 12);
            i += 11;
        } else if (is_high_surrogate(*unit) || is_low_surrogate(*unit)) {
            out += '?';
            i += 5;
        } else {
            out.append(utf8, i, 6);
            i += 5;
        }
    }
    return out;
}

}  // namespace cantonlite::http
