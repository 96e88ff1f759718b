#include "cantonlite/http/route_table.hpp"

#include <algorithm>
#include <cassert>
#include <stdexcept>

#include "cantonlite/http/path.hpp"

namespace cantonlite::http {
namespace {

bool is_parameter(std::string_view segment) {
    return segment.size() > 2 && segment.front() == '{' && segment.back() == '}';
}

// Per segment: 1 for a literal, 0 for a parameter. Compared lexicographically, higher wins.
std::vector<int> specificity(const RouteTable::Route& route) {
    std::vector<int> score;
    for (const std::string& s : route.segments) score.push_back(is_parameter(s) ? 0 : 1);
    return score;
}

bool pattern_matches(const RouteTable::Route& route, const std::vector<std::string>& segments) {
    if (route.segments.size() != segments.size()) return false;
    for (std::size_t i = 0; i < segments.size(); ++i) {
        const std::string& s = route.segments[i];
        if (is_parameter(s) ? segments[i].empty() : s != segments[i]) return false;
    }
    return true;
}

}  // namespace

void PathParams::add(std::string name, std::string value) {
    values_.emplace_back(std::move(name), std::move(value));
}

const std::string& PathParams::get(std::string_view name) const {
    for (const auto& [key, value] : values_) {
        if (key == name) return value;
    }
    assert(false && "route declares no such parameter");
    throw std::logic_error("no path parameter " + std::string(name));
}

void RouteTable::add(std::string method, std::string pattern, Handler handler, bool writes) {
    auto segments = split_path(pattern);
    if (!segments || (segments->empty() && pattern != "/")) {
        throw std::invalid_argument("bad route pattern " + pattern);
    }
    for (const std::string& s : *segments) {
        const bool malformed =
            s.empty() || (!is_parameter(s) &&
                          (s.find('{') != std::string::npos || s.find('}') != std::string::npos));
        if (malformed) throw std::invalid_argument("bad route pattern " + pattern);
    }
    for (const Route& r : routes_) {
        if (r.method == method && r.segments == *segments) {
            throw std::invalid_argument("duplicate route " + method + " " + pattern);
        }
    }
    routes_.push_back(Route{.method = std::move(method),
                            .pattern = std::move(pattern),
                            .segments = std::move(*segments),
                            .handler = std::move(handler),
                            .writes = writes});
}

RouteTable::Match RouteTable::match(std::string_view method,
                                    const std::vector<std::string>& segments) const {
    Match result;
    const Route* best = nullptr;
    for (const Route& route : routes_) {
        if (!pattern_matches(route, segments)) continue;
        if (route.method != method) {
            if (std::find(result.allowed.begin(), result.allowed.end(), route.method) ==
                result.allowed.end()) {
                result.allowed.push_back(route.method);
            }
            continue;
        }
        if (best == nullptr || specificity(route) > specificity(*best)) best = &route;
    }
    if (best == nullptr) return result;
    result.allowed.clear();
    result.handler = &best->handler;
    result.pattern = &best->pattern;
    result.writes = best->writes;
    for (std::size_t i = 0; i < segments.size(); ++i) {
        const std::string& s = best->segments[i];
        if (is_parameter(s)) result.params.add(s.substr(1, s.size() - 2), segments[i]);
    }
    return result;
}

}  // namespace cantonlite::http
