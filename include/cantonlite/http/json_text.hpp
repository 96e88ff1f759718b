#pragma once
// Building JSON response text by splicing pre-encoded fragments (no DOM per request).

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace cantonlite::http {

// Appends `s` as a JSON string literal, escaped.
void append_json_string(std::string& out, std::string_view s);

// Appends `"key":` (with a leading comma unless `first`).
void append_key(std::string& out, std::string_view key, bool first = false);

// `"key":"value"`, `"key":123`, `"key":<raw JSON>`, `"key":null`, each with a leading comma
// unless `first`.
void append_string_field(std::string& out, std::string_view key, std::string_view value,
                         bool first = false);
void append_int_field(std::string& out, std::string_view key, std::int64_t value,
                      bool first = false);
void append_raw_field(std::string& out, std::string_view key, std::string_view raw_json,
                      bool first = false);
void append_null_field(std::string& out, std::string_view key, bool first = false);
// `["a","b"]`: the texts of a range whose items convert to std::string_view.
template <typename Texts>
void append_string_array(std::string& out, const Texts& items) {
    out += '[';
    bool first_item = true;
    for (const auto& item : items) {
        if (!first_item) out += ',';
        first_item = false;
        append_json_string(out, std::string_view(item));
    }
    out += ']';
}

// `"key":["a","b"]`, with a leading comma unless `first`.
template <typename Texts>
void append_strings_field(std::string& out, std::string_view key, const Texts& items,
                          bool first = false) {
    append_key(out, key, first);
    append_string_array(out, items);
}

}  // namespace cantonlite::http
