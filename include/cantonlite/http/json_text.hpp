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
// `"key":["a","b"]`, with a leading comma unless `first`.
void append_strings_field(std::string& out, std::string_view key,
                          const std::vector<std::string>& items, bool first = false);

}  // namespace cantonlite::http
