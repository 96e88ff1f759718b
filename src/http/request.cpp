#include "cantonlite/http/request.hpp"

#include <algorithm>
#include <utility>

#include "cantonlite/http/path.hpp"

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

std::optional<std::string_view> Request::bearer_token() const {
    const auto h = header("Authorization");
    if (!h || h->size() < 7 || !iequals(h->substr(0, 7), "Bearer ")) return std::nullopt;
    std::string_view token = h->substr(7);
    while (!token.empty() && token.front() == ' ') token.remove_prefix(1);
    if (token.empty()) return std::nullopt;
    return token;
}

std::vector<std::string> Request::query_params(std::string_view name) const {
    std::vector<std::string> values;
    const std::size_t q = target.find('?');
    if (q == std::string::npos) return values;
    std::string_view query = std::string_view(target).substr(q + 1);
    while (!query.empty()) {
        const std::size_t amp = query.find('&');
        const std::string_view pair = query.substr(0, amp);
        query = amp == std::string_view::npos ? std::string_view() : query.substr(amp + 1);
        const std::size_t eq = pair.find('=');
        if (pair.substr(0, eq) != name) continue;
        std::string value(eq == std::string_view::npos ? std::string_view() : pair.substr(eq + 1));
        for (char& c : value) c = c == '+' ? ' ' : c;
        values.push_back(percent_decode(value).value_or(""));
    }
    return values;
}

std::optional<std::string> Request::query_param(std::string_view name) const {
    std::vector<std::string> values = query_params(name);
    if (values.empty()) return std::nullopt;
    return std::move(values.front());
}

}  // namespace cantonlite::http
