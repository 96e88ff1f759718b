#include "cantonlite/http/faults.hpp"

#include <algorithm>
#include <stdexcept>

namespace cantonlite::http {
namespace {

constexpr std::chrono::milliseconds max_latency{10 * 60 * 1000};

bool matches(const FaultRule& rule, std::string_view method, std::string_view route_template,
             std::string_view path) {
    if (!rule.method.empty() && rule.method != method) return false;
    return glob_matches(rule.route, route_template) || glob_matches(rule.route, path);
}

// Adds `share` to `credit`; true (and the credit spent) when a fault is due.
bool due(std::uint64_t& credit, std::uint32_t share) {
    credit += share;
    if (credit < share_scale) return false;
    credit -= share_scale;
    return true;
}

void count_error(FaultCounts& counts, int status) {
    const auto at = std::find_if(counts.errors.begin(), counts.errors.end(),
                                 [&](const auto& entry) { return entry.first >= status; });
    if (at != counts.errors.end() && at->first == status) {
        ++at->second;
    } else {
        counts.errors.insert(at, {status, 1});
    }
}

}  // namespace

bool glob_matches(std::string_view pattern, std::string_view text) {
    // The greedy two-pointer match: on a mismatch, the last '*' takes one more character.
    std::size_t p = 0, t = 0;
    std::size_t star = std::string_view::npos, resume = 0;
    while (t < text.size()) {
        if (p < pattern.size() && pattern[p] == '*') {
            star = p++;
            resume = t;
        } else if (p < pattern.size() && pattern[p] == text[t]) {
            ++p;
            ++t;
        } else if (star != std::string_view::npos) {
            p = star + 1;
            t = ++resume;
        } else {
            return false;
        }
    }
    while (p < pattern.size() && pattern[p] == '*') ++p;
    return p == pattern.size();
}

bool template_matches(std::string_view pattern, std::string_view path) {
    while (!pattern.empty() || !path.empty()) {
        if (pattern.empty() || path.empty() || pattern.front() != '/' || path.front() != '/') {
            return false;
        }
        pattern.remove_prefix(1);
        path.remove_prefix(1);
        const std::size_t pe = std::min(pattern.find('/'), pattern.size());
        const std::size_t te = std::min(path.find('/'), path.size());
        const std::string_view want = pattern.substr(0, pe);
        const std::string_view got = path.substr(0, te);
        const bool parameter = want.size() >= 2 && want.front() == '{' && want.back() == '}';
        if (parameter ? got.empty() : want != got) return false;
        pattern.remove_prefix(pe);
        path.remove_prefix(te);
    }
    return true;
}

void FaultTable::add_routes(const std::vector<std::pair<std::string, std::string>>& routes) {
    routes_.insert(routes_.end(), routes.begin(), routes.end());
}

std::uint64_t FaultTable::add(FaultRule rule) {
    if (rule.route.empty()) throw std::invalid_argument("route is required");
    const bool known = std::any_of(routes_.begin(), routes_.end(), [&](const auto& r) {
        return (rule.method.empty() || rule.method == r.first) &&
               (glob_matches(rule.route, r.second) || template_matches(r.second, rule.route));
    });
    if (!known) {
        throw std::invalid_argument(
            "route '" + rule.route + "'" + (rule.method.empty() ? "" : " (" + rule.method + ")") +
            " names none of the routes of the ledger, Scan and validator APIs: give a route "
            "template (/api/scan/v0/voterequests/{vote_request_contract_id}), a path, or a "
            "pattern with * (/api/scan/*)");
    }
    if (rule.error_share > 0 && rule.error_status != 429 && rule.error_status != 500 &&
        rule.error_status != 503) {
        throw std::invalid_argument("error_status must be 429, 500 or 503");
    }
    if (rule.error_share > share_scale || rule.reset_share > share_scale ||
        rule.error_share + rule.reset_share > share_scale) {
        throw std::invalid_argument(
            "error_share and reset_share are shares of 0 to 1, together "
            "at most 1");
    }
    if (rule.latency < std::chrono::milliseconds(0) || rule.latency > max_latency) {
        throw std::invalid_argument("latency_ms is 0 to 600000 (ten minutes)");
    }
    const std::lock_guard lock(mutex_);
    const std::uint64_t id = next_id_++;
    entries_.push_back(Entry{.state = FaultRuleState{.id = id, .rule = std::move(rule)}});
    armed_.store(true, std::memory_order_relaxed);
    return id;
}

bool FaultTable::remove(std::uint64_t id) {
    const std::lock_guard lock(mutex_);
    const auto gone = std::remove_if(entries_.begin(), entries_.end(),
                                     [&](const Entry& e) { return e.state.id == id; });
    const bool found = gone != entries_.end();
    entries_.erase(gone, entries_.end());
    armed_.store(!entries_.empty(), std::memory_order_relaxed);
    return found;
}

std::size_t FaultTable::clear() {
    const std::lock_guard lock(mutex_);
    const std::size_t n = entries_.size();
    entries_.clear();
    armed_.store(false, std::memory_order_relaxed);
    return n;
}

std::vector<FaultRuleState> FaultTable::rules() const {
    const std::lock_guard lock(mutex_);
    std::vector<FaultRuleState> out;
    out.reserve(entries_.size());
    for (const Entry& e : entries_) out.push_back(e.state);
    return out;
}

FaultCounts FaultTable::counts() const {
    const std::lock_guard lock(mutex_);
    return counts_;
}

std::optional<FaultDecision> FaultTable::decide(std::string_view method,
                                                std::string_view route_template,
                                                std::string_view path) {
    const std::lock_guard lock(mutex_);
    for (Entry& e : entries_) {
        FaultRuleState& s = e.state;
        if (s.rule.times > 0 && s.matched >= s.rule.times) continue;
        if (!matches(s.rule, method, route_template, path)) continue;
        ++s.matched;
        FaultDecision d{.rule = s.id, .delay = s.rule.latency};
        const bool error_due = due(e.error_credit, s.rule.error_share);
        if (due(e.reset_credit, s.rule.reset_share)) {
            d.reset = true;
            ++s.resets;
            ++counts_.resets;
            if (error_due) e.error_credit += share_scale;  // the error comes on the next request
        } else if (error_due) {
            d.error_status = s.rule.error_status;
            ++s.errors;
            count_error(counts_, d.error_status);
        }
        if (d.delay.count() > 0) {
            ++s.delayed;
            ++counts_.delayed;
        }
        return d;
    }
    return std::nullopt;
}

}  // namespace cantonlite::http
