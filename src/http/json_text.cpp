#include "cantonlite/http/json_text.hpp"

#include "cantonlite/util/json_escape.hpp"

namespace cantonlite::http {

void append_json_string(std::string& out, std::string_view s) {
    util::append_json_string(out, s);
}

void append_key(std::string& out, std::string_view key, bool first) {
    if (!first) out += ',';
    append_json_string(out, key);
    out += ':';
}

void append_string_field(std::string& out, std::string_view key, std::string_view value,
                         bool first) {
    append_key(out, key, first);
    append_json_string(out, value);
}

void append_int_field(std::string& out, std::string_view key, std::int64_t value, bool first) {
    append_key(out, key, first);
    out += std::to_string(value);
}

void append_raw_field(std::string& out, std::string_view key, std::string_view raw_json,
                      bool first) {
    append_key(out, key, first);
    out += raw_json;
}

void append_null_field(std::string& out, std::string_view key, bool first) {
    append_key(out, key, first);
    out += "null";
}

}  // namespace cantonlite::http
