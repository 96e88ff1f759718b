#include "cantonlite/http/path.hpp"

namespace cantonlite::http {
namespace {

int hex_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

}  // namespace

std::optional<std::string> percent_decode(std::string_view text) {
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
    return out;
}

std::optional<std::vector<std::string>> split_path(std::string_view path) {
    if (path.empty() || path.front() != '/') return std::nullopt;
    std::vector<std::string> segments;
    if (path == "/") return segments;
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
