#include "cantonlite/http/request.hpp"

#include <algorithm>

namespace cantonlite::http {

bool iequals(std::string_view a, std::string_view b) {
    const auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c + 32) : c; };
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(),
                                              [&](char x, char y) { return lower(x) == lower(y); });
}

std::string_view Request::path() const {
    const std::string_view t = target;
    return t.substr(0, t.find('?'));
}

std::optional<std::string_view> Request::header(std::string_view name) const {
    for (const Header& h : headers) {
        if (iequals(h.name, name)) return h.value;
    }
    return std::nullopt;
}

}  // namespace cantonlite::http
