#include "claim_checks.hpp"

#include <algorithm>
#include <string>
#include <vector>

namespace cantonlite::auth {
namespace {

using nlohmann::json;
using Strings = std::vector<std::string>;

// "" when exp, nbf and iat, if present, are numbers that hold at `now` (no leeway), as auth0
// java-jwt checks them for the Splice apps (splice-behavior.md §5.2): iat may not be in the future.
std::string time_problem(const json& payload, std::int64_t now_seconds) {
    const auto now = static_cast<double>(now_seconds);
    if (const auto exp = payload.find("exp"); exp != payload.end()) {
        if (!exp->is_number()) return "exp is not a number";
        if (!(exp->get<double>() > now)) return "expired";
    }
    if (const auto nbf = payload.find("nbf"); nbf != payload.end()) {
        if (!nbf->is_number()) return "nbf is not a number";
        if (nbf->get<double>() > now) return "not valid yet (nbf is in the future)";
    }
    if (const auto iat = payload.find("iat"); iat != payload.end()) {
        if (!iat->is_number()) return "iat is not a number";
        if (iat->get<double>() > now) return "issued in the future (iat)";
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

Verification check_claims(json payload, std::int64_t now_seconds,
                          std::optional<std::string_view> audience) {
    if (std::string problem = time_problem(payload, now_seconds); !problem.empty()) {
        return Verification::refused(problem);
    }
    std::optional<Strings> audiences = string_list(payload, "aud", false);
    if (!audiences) return Verification::refused("aud is not a string or an array of strings");
    if (audience &&
        std::find(audiences->begin(), audiences->end(), *audience) == audiences->end()) {
        return Verification::refused(audiences->empty() ? "no audience (aud)" : "wrong audience");
    }
    const auto sub = payload.find("sub");
    if (sub != payload.end() && !sub->is_string())
        return Verification::refused("sub is not a string");
    std::string subject = sub != payload.end() ? sub->get<std::string>() : "";
    std::optional<Strings> scopes = scopes_of(payload);
    if (!scopes)
        return Verification::refused("scope or scp is not a string or an array of strings");
    std::string user_id = user_id_of(payload, subject);
    if (user_id.empty()) return Verification::refused("no user (neither daml_user nor sub)");
    return Verification{.claims = Claims{.user_id = std::move(user_id),
                                         .subject = std::move(subject),
                                         .audiences = std::move(*audiences),
                                         .scopes = std::move(*scopes),
                                         .payload = std::move(payload)},
                        .reason = ""};
}

}  // namespace cantonlite::auth
