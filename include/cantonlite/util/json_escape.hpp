#pragma once
// The JSON string literal of a text, escaped as nlohmann's dump() escapes it (shared by the model's
// value encoders and the http layer's response builders).

#include <string>
#include <string_view>

namespace cantonlite::util {

// Appends `s` as a JSON string literal: `"`, `\`, and the control characters escaped (\n, \r,
// \t, \b, \f, else \u00xx); everything else, UTF-8 included, as it is.
inline void append_json_string(std::string& out, std::string_view s) {
    static constexpr char hex[] = "0123456789abcdef";
    out += '"';
    std::size_t plain = 0;  // start of the run of characters that need no escape
    for (std::size_t i = 0; i < s.size(); ++i) {
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
