#pragma once
// A request body read as JSON the way Canton's JSON Ledger API and the Splice apps read theirs:
// jawn says what is JSON (jawn.hpp), nlohmann holds the value as the Java String holds it. The one
// reading behind the ledger's and the Splice apps' bodies; each area words a refusal its own way.

#include <cstddef>
#include <string>
#include <string_view>
#include <variant>

#include <nlohmann/json.hpp>

namespace cantonlite::http {

struct JsonRefusal {
    enum class Reason {
        too_deep,             // nesting beyond max_json_nesting (json_nesting.hpp), not parsed
        malformed,            // jawn refuses the text
        number_out_of_range,  // jawn reads it, but a number is beyond a double
    };
    Reason reason = Reason::malformed;
    // too_deep: "nesting deeper than 1000 levels"; malformed: jawn's message (jawn_error with the
    // caller's context); number_out_of_range: nlohmann's ("number overflow parsing '1e400'").
    std::string detail;
};

// `text` as JSON, or why not. nlohmann's fast path when it reads the text (but for a NUL byte,
// where nlohmann stops, or a byte order mark, which it skips and Java keeps); otherwise jawn's
// verdict, then what jawn reads in Java's terms (java_json_text).
[[nodiscard]] std::variant<nlohmann::json, JsonRefusal> read_java_json(
    std::string_view text, std::size_t jawn_context = 6);

}  // namespace cantonlite::http
