#pragma once
// jawn's verdict on a request body: the parser circe runs under the Splice apps (jawn 1.6,
// through circe-jawn), so a malformed body is reported in its words.

#include <optional>
#include <string>
#include <string_view>

namespace cantonlite::http {

// nullopt when jawn parses `text` (read as Java reads UTF-8: bytes that are not UTF-8 become
// U+FFFD); else its ParseException message: "exhausted input" when the text ends early, or
// "<expectation> got '<up to 6 chars>[...]' (line L, column C)", e.g.
//   jawn_error(R"({"a":1,})") == R"(expected " got '}' (line 1, column 8))".
// Lines count the newlines jawn skipped as whitespace; columns and the shown characters count
// UTF-16 code units, as jawn does on a Java String. `context`: the characters shown (jawn 1.6's
// ErrorContext is 6).
[[nodiscard]] std::optional<std::string> jawn_error(std::string_view text, std::size_t context = 6);

// Whether `text` starts with UTF-8's byte order mark, which Java's decoder keeps (as U+FEFF, where
// jawn expects a value) and nlohmann skips.
[[nodiscard]] inline bool starts_with_byte_order_mark(std::string_view text) {
    return text.starts_with("\xEF\xBB\xBF");
}

// `text` with every byte sequence that is not UTF-8 replaced by U+FFFD, as Java decodes it.
[[nodiscard]] std::string java_utf8(std::string_view text);

// JSON text as a Java service reads it, for a parser stricter than jawn: java_utf8's text, with
// the escape of a lone surrogate (which jawn keeps in the Java String, and Java writes out as '?')
// replaced by '?'. REQUIRES: jawn parses `text`.
[[nodiscard]] std::string java_json_text(std::string_view text);

}  // namespace cantonlite::http
