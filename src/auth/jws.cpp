#include "jws.hpp"

#include <algorithm>

#include "base64url.hpp"

namespace cantonlite::auth {
namespace {

using nlohmann::json;

JwsParse malformed(std::string error) {
    return JwsParse{.jws = std::nullopt, .error = "malformed token: " + std::move(error)};
}

// The header fields the verifier uses, checked for type; "" when they are fine.
std::string header_problem(const json& header) {
    const auto alg = header.find("alg");
    if (alg == header.end() || !alg->is_string()) return "header has no string alg";
    const auto kid = header.find("kid");
    if (kid != header.end() && !kid->is_string()) return "header kid is not a string";
    if (header.contains("crit")) return "header crit is not supported";
    return "";
}

}  // namespace

JwsParse parse_jws(std::string_view token) {
    if (token.size() > max_token_length) return malformed("longer than 64 KiB");
    if (std::count(token.begin(), token.end(), '.') != 2) {
        return malformed("expected three dot-separated parts");
    }
    const std::size_t first = token.find('.');
    const std::size_t second = token.find('.', first + 1);
    std::optional<json> header = decode_json_object(token.substr(0, first));
    if (!header) return malformed("header is not a base64url JSON object");
    if (std::string problem = header_problem(*header); !problem.empty()) return malformed(problem);
    std::optional<std::string> signature = base64url_decode(token.substr(second + 1));
    if (!signature) return malformed("signature is not base64url");
    Jws jws{.header = std::move(*header),
            .signing_input = token.substr(0, second),
            .encoded_payload = token.substr(first + 1, second - first - 1),
            .signature = std::move(*signature)};
    jws.alg = jws.header.at("alg").get<std::string>();
    if (jws.header.contains("kid")) jws.kid = jws.header.at("kid").get<std::string>();
    if (!base64url_decode(jws.encoded_payload)) return malformed("payload is not base64url");
    return JwsParse{.jws = std::move(jws), .error = ""};
}

std::optional<json> decode_json_object(std::string_view part) {
    const std::optional<std::string> text = base64url_decode(part);
    if (!text) return std::nullopt;
    json value = json::parse(*text, nullptr, /*allow_exceptions=*/false);
    if (value.is_discarded() || !value.is_object()) return std::nullopt;
    return value;
}

std::string printable(std::string_view text, std::size_t max) {
    std::string out(text.substr(0, max));
    std::replace_if(
        out.begin(), out.end(), [](char c) { return c < 0x20 || c == 0x7F; }, '?');
    if (text.size() > max) out += "...";
    return out;
}

}  // namespace cantonlite::auth
