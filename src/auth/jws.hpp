#pragma once
// Jws: a compact JWS token split into its parts (RFC 7515 §7.1), before any signature check.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace cantonlite::auth {

// Longest token accepted, in characters: far above any real JWT, and it bounds the work the JSON
// parser does for an unauthenticated header.
inline constexpr std::size_t max_token_length = 64 * 1024;

// The parts of a compact JWS. The views point into the token text the parse was given.
struct Jws {
    nlohmann::json header;             // the decoded protected header, a JSON object
    std::string alg;                   // header.alg
    std::optional<std::string> kid;    // header.kid, when present
    std::string_view signing_input;    // "<header>.<payload>", as received
    std::string_view encoded_payload;  // the payload part, still base64url (decode it once trusted)
    std::string signature;             // the decoded signature bytes (empty for alg none)
};

// A parsed token, or why the text is not one.
struct JwsParse {
    std::optional<Jws> jws;
    std::string error;  // "" when jws is set
};

// Splits `token` into exactly three base64url parts (no padding) and decodes its header, which
// must be a JSON object with a string alg, an optional string kid and no crit (no extension is
// understood, RFC 7515 §4.1.11). The payload is not decoded. Never throws for bad input.
[[nodiscard]] JwsParse parse_jws(std::string_view token);

// The JSON object a base64url part encodes, or nullopt (bad base64url, not JSON, not an object).
[[nodiscard]] std::optional<nlohmann::json> decode_json_object(std::string_view part);

// `text` made safe for a log line: at most `max` characters, non-printable ones replaced by '?'.
[[nodiscard]] std::string printable(std::string_view text, std::size_t max = 40);

}  // namespace cantonlite::auth
