#include "claim_checks.hpp"

#include <algorithm>
#include <string>
#include <vector>

namespace cantonlite::auth {
namespace {

using nlohmann::json;
using Strings = std::vector<std::string>;

ClaimSet::Time time_of(const json& payload, const char* name) {
    const auto claim = payload.find(name);
    if (claim == payload.end()) return {};
    if (!claim->is_number()) return {.present = true};
    return {.present = true, .number = true, .value = claim->get<double>()};
}

// "" when exp, nbf and iat, if present, are numbers that hold at `now` (no leeway), as auth0
// java-jwt checks them for the Splice apps (splice-behavior.md §5.2): iat may not be in the future.
std::string time_problem(const ClaimSet& set, std::int64_t now_seconds) {
    const auto now = static_cast<double>(now_seconds);
    if (set.exp.present) {
        if (!set.exp.number) return "exp is not a number";
        if (!(set.exp.value > now)) return "expired";
    }
    if (set.nbf.present) {
        if (!set.nbf.number) return "nbf is not a number";
        if (set.nbf.value > now) return "not valid yet (nbf is in the future)";
    }
    if (set.iat.present) {
        if (!set.iat.number) return "iat is not a number";
        if (set.iat.value > now) return "issued in the future (iat)";
    }
    return "";
}

void add_words(std::string_view text, Strings& out) {
    std::size_t start = 0;
    while (start < text.size()) {
        std::size_t end = text.find(' ', start);
        if (end == std::string_view::npos) end = text.size();
        if (end > start) out.emplace_back(text.substr(start, end - start));
        start = end + 1;
    }
}

// The strings of a claim that may be one string or an array of strings; nullopt when it is
// something else. `split` cuts a single string at spaces (scope lists).
std::optional<Strings> string_list(const json& payload, const char* name, bool split) {
    Strings out;
    const auto claim = payload.find(name);
    if (claim == payload.end()) return out;
    if (claim->is_string()) {
        const auto& text = claim->get_ref<const std::string&>();
        if (split) {
            add_words(text, out);
        } else {
            out.push_back(text);
        }
        return out;
    }
    if (!claim->is_array()) return std::nullopt;
    for (const json& item : *claim) {
        if (!item.is_string()) return std::nullopt;
        out.push_back(item.get<std::string>());
    }
    return out;
}

// scope (a space-separated string, RFC 8693 §4.2) then scp (string or array), without repeats.
std::optional<Strings> scopes_of(const json& payload) {
    const auto scope = payload.find("scope");
    if (scope != payload.end() && !scope->is_string()) return std::nullopt;
    std::optional<Strings> scopes = string_list(payload, "scope", true);
    const std::optional<Strings> scp = string_list(payload, "scp", true);
    if (!scp) return std::nullopt;
    for (const std::string& s : *scp) {
        if (std::find(scopes->begin(), scopes->end(), s) == scopes->end()) scopes->push_back(s);
    }
    return scopes;
}

// The daml_user of the "https://canton-network" claim when it is a non-empty string, else sub.
std::string user_id_of(const json& payload, const std::string& subject) {
    const auto canton = payload.find("https://canton-network");
    if (canton != payload.end() && canton->is_object()) {
        const auto user = canton->find("daml_user");
        if (user != canton->end() && user->is_string() && !user->get<std::string>().empty()) {
            return user->get<std::string>();
        }
    }
    return subject;
}

}  // namespace

ClaimSet read_claims(const json& payload) {
    ClaimSet set{.exp = time_of(payload, "exp"),
                 .nbf = time_of(payload, "nbf"),
                 .iat = time_of(payload, "iat")};
    std::optional<Strings> audiences = string_list(payload, "aud", false);
    set.audiences_valid = audiences.has_value();
    if (audiences) set.claims.audiences = std::move(*audiences);
    const auto sub = payload.find("sub");
    if (sub != payload.end() && !sub->is_string()) {
        set.problem = "sub is not a string";
        return set;
    }
    set.claims.subject = sub != payload.end() ? sub->get<std::string>() : "";
    std::optional<Strings> scopes = scopes_of(payload);
    if (!scopes) {
        set.problem = "scope or scp is not a string or an array of strings";
        return set;
    }
    set.claims.scopes = std::move(*scopes);
    set.claims.user_id = user_id_of(payload, set.claims.subject);
    if (set.claims.user_id.empty()) set.problem = "no user (neither daml_user nor sub)";
    return set;
}

Verification check_claims(const ClaimSet& set, std::int64_t now_seconds,
                          std::optional<std::string_view> audience) {
    if (std::string problem = time_problem(set, now_seconds); !problem.empty()) {
        return Verification::refused(problem);
    }
    if (!set.audiences_valid)
        return Verification::refused("aud is not a string or an array of strings");
    const std::vector<std::string>& audiences = set.claims.audiences;
    if (audience && std::find(audiences.begin(), audiences.end(), *audience) == audiences.end())
        return Verification::refused(audiences.empty() ? "no audience (aud)" : "wrong audience");
    if (!set.problem.empty()) return Verification::refused(set.problem);
    return Verification{.claims = set.claims, .reason = ""};
}

}  // namespace cantonlite::auth
