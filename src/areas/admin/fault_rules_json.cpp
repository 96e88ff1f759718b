#include "fault_rules_json.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <string>

#include "cantonlite/http/api_error.hpp"

namespace cantonlite::areas::admin {
namespace {

using nlohmann::json;

const json& typed(const json& body, const char* key, bool (json::*is)() const noexcept,
                  const char* what) {
    const json& value = body.at(key);
    if (!(value.*is)()) throw http::DecodeError(std::string(key) + " must be " + what);
    return value;
}

std::uint64_t whole_number(const json& body, const char* key, std::uint64_t max) {
    const json& value = typed(body, key, &json::is_number, "a whole number");
    if (value.is_number_unsigned() && value.get<std::uint64_t>() <= max) {
        return value.get<std::uint64_t>();
    }
    if (value.is_number_integer() && value.get<std::int64_t>() >= 0 &&
        static_cast<std::uint64_t>(value.get<std::int64_t>()) <= max) {
        return static_cast<std::uint64_t>(value.get<std::int64_t>());
    }
    throw http::DecodeError(std::string(key) + " must be a whole number from 0 to " +
                            std::to_string(max));
}

std::uint32_t share(const json& body, const char* key) {
    const double v = typed(body, key, &json::is_number, "a number from 0 to 1").get<double>();
    if (!(v >= 0.0 && v <= 1.0)) {
        throw http::DecodeError(std::string(key) + " must be a number from 0 to 1");
    }
    return static_cast<std::uint32_t>(std::llround(v * http::share_scale));
}

double share_value(std::uint32_t millionths) {
    return static_cast<double>(millionths) / http::share_scale;
}

}  // namespace

http::FaultRule fault_rule_from_json(const json& body) {
    if (!body.is_object()) throw http::DecodeError("the body must be a JSON object");
    static const std::array<const char*, 7> keys{
        "route", "method", "latency_ms", "error_status", "error_share", "reset_share", "times"};
    for (const auto& item : body.items()) {
        const std::string& key = item.key();  // a name, not a binding: clang 14 cannot capture one
        if (std::none_of(keys.begin(), keys.end(), [&](const char* k) { return key == k; })) {
            throw http::DecodeError("unknown key '" + key +
                                    "' (route, method, latency_ms, error_status, error_share, "
                                    "reset_share, times)");
        }
    }
    if (!body.contains("route")) throw http::DecodeError("route is required");
    http::FaultRule rule;
    rule.route = typed(body, "route", &json::is_string, "a string").get<std::string>();
    if (body.contains("method")) {
        rule.method = typed(body, "method", &json::is_string, "a string").get<std::string>();
        if (rule.method.empty() || !std::all_of(rule.method.begin(), rule.method.end(),
                                                [](char c) { return c >= 'A' && c <= 'Z'; })) {
            throw http::DecodeError("method must be an HTTP method in capitals (GET, POST)");
        }
    }
    if (body.contains("latency_ms")) {
        rule.latency = std::chrono::milliseconds(whole_number(body, "latency_ms", 600'000));
    }
    if (body.contains("error_status")) {
        rule.error_status = static_cast<int>(whole_number(body, "error_status", 999));
        rule.error_share = http::share_scale;
    }
    if (body.contains("error_share")) {
        rule.error_share = share(body, "error_share");
        if (rule.error_status == 0 && rule.error_share > 0) {
            throw http::DecodeError("error_share needs error_status (429, 500 or 503)");
        }
    }
    if (body.contains("reset_share")) rule.reset_share = share(body, "reset_share");
    if (body.contains("times")) {
        rule.times = whole_number(body, "times", UINT64_MAX);
        if (rule.times == 0) throw http::DecodeError("times must be at least 1");
    }
    if (rule.latency.count() == 0 && rule.error_share == 0 && rule.reset_share == 0) {
        throw http::DecodeError("a rule needs latency_ms, error_status or reset_share");
    }
    return rule;
}

json fault_rule_json(const http::FaultRuleState& state) {
    const http::FaultRule& r = state.rule;
    json out = json::object();
    out["id"] = std::to_string(state.id);
    out["route"] = r.route;
    out["method"] = r.method.empty() ? json(nullptr) : json(r.method);
    out["latency_ms"] = r.latency.count();
    out["error_status"] = r.error_share == 0 ? json(nullptr) : json(r.error_status);
    out["error_share"] = share_value(r.error_share);
    out["reset_share"] = share_value(r.reset_share);
    out["times"] = r.times == 0 ? json(nullptr) : json(r.times);
    out["matched"] = state.matched;
    out["delayed"] = state.delayed;
    out["errors"] = state.errors;
    out["resets"] = state.resets;
    return out;
}

}  // namespace cantonlite::areas::admin
