#include "cantonlite/http/path.hpp"

#include <algorithm>
#include <utility>

namespace cantonlite::http {
namespace {

int hex_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

// The length of the well-formed UTF-8 sequence at the start of `s` (Unicode Table 3-7), or, when
// malformed, minus the length of its maximal valid prefix (at least 1).
int utf8_sequence(std::string_view s) {
    const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(s[i]); };
    const unsigned char lead = byte(0);
    if (lead < 0x80) return 1;
    int length = 0;
    unsigned char low = 0x80;
    unsigned char high = 0xBF;  // the range of the second byte
    if (lead >= 0xC2 && lead <= 0xDF) {
        length = 2;
    } else if (lead >= 0xE0 && lead <= 0xEF) {
        length = 3;
        if (lead == 0xE0) low = 0xA0;
        if (lead == 0xED) high = 0x9F;
    } else if (lead >= 0xF0 && lead <= 0xF4) {
        length = 4;
        if (lead == 0xF0) low = 0x90;
        if (lead == 0xF4) high = 0x8F;
    } else {
        return -1;
    }
    for (int i = 1; i < length; ++i) {
        const std::size_t at = static_cast<std::size_t>(i);
        const bool ok = at < s.size() && byte(at) >= (i == 1 ? low : 0x80) &&
                        byte(at) <= (i == 1 ? high : 0xBF);
        if (!ok) return -i;
    }
    return length;
}

// `bytes` as UTF-8, each malformed sequence replaced by U+FFFD, as Java decodes bytes to a String.
std::string utf8_lossy(std::string bytes) {
    const auto ascii = [](char c) { return static_cast<unsigned char>(c) < 0x80; };
    if (std::all_of(bytes.begin(), bytes.end(), ascii)) return bytes;  // the common case
    std::string_view rest = bytes;
    std::string out;
    bool replaced = false;
    while (!rest.empty()) {
        const int n = utf8_sequence(rest);
        if (n > 0) {
            out.append(rest.substr(0, static_cast<std::size_t>(n)));
        } else {
            out += "\xEF\xBF\xBD";
            replaced = true;
        }
        rest.remove_prefix(static_cast<std::size_t>(n > 0 ? n : -n));
    }
    return replaced ? out : bytes;
}

}  // namespace

std::optional<std::string> percent_decode(std::string_view text) {
    if (text.find('%') == std::string_view::npos) return utf8_lossy(std::string(text));
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] != '%') {
            out += text[i];
            continue;
        }
        if (i + 2 >= text.size()) return std::nullopt;
        const int high = hex_value(text[i + 1]);
        const int low = hex_value(text[i + 2]);
        if (high < 0 || low < 0) return std::nullopt;
        out += static_cast<char>(high * 16 + low);
        i += 2;
    }
    return utf8_lossy(std::move(out));
}

std::optional<std::vector<std::string>> split_path(std::string_view path) {
    if (path.empty() || path.front() != '/') return std::nullopt;
    std::vector<std::string> segments;
    if (path == "/") return segments;
    segments.reserve(static_cast<std::size_t>(std::count(path.begin(), path.end(), '/')));
    std::size_t start = 1;
    while (true) {
        const std::size_t end = path.find('/', start);
        auto segment = percent_decode(path.substr(start, end - start));
        if (!segment) return std::nullopt;
        segments.push_back(std::move(*segment));
        if (end == std::string_view::npos) break;
        start = end + 1;
    }
    return segments;
}

}  // namespace cantonlite::http
