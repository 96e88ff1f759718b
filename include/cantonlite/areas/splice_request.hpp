#pragma once
// Decoding Splice request bodies and parameters, with the real services' checks and texts
// (../shared/docs/reference/splice-behavior.md §0.1, §0.4, §0.5). Shared by scan and validator.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "cantonlite/http/request.hpp"
#include "cantonlite/model/timestamp.hpp"

namespace cantonlite::areas {

// The JSON object of the request body, whatever the Content-Type (real clients omit it).
// Throws http::DecodeError "The request content was malformed:\n…" for malformed JSON or a
// body that is not an object.
[[nodiscard]] nlohmann::json json_body(const http::Request& request);

// Required and optional members of a decoded body. A missing required member or a value of the
// wrong type throws http::DecodeError in circe's words: "…DecodingFailure at .page_size: Int".
[[nodiscard]] std::int64_t int64_member(const nlohmann::json& body, std::string_view key);
[[nodiscard]] std::optional<std::int64_t> optional_int64_member(const nlohmann::json& body,
                                                                std::string_view key);
[[nodiscard]] std::int32_t int32_member(const nlohmann::json& body, std::string_view key);
[[nodiscard]] std::string string_member(const nlohmann::json& body, std::string_view key);
[[nodiscard]] std::vector<std::string> string_array_member(const nlohmann::json& body,
                                                           std::string_view key);
[[nodiscard]] model::Timestamp date_time_member(const nlohmann::json& body, std::string_view key);

// record_time_match: absent or "exact" -> false; "at_or_before" -> true.
[[nodiscard]] bool at_or_before_member(const nlohmann::json& body);

// Splice's PageLimit/HardLimit: throws http::ApiError invalid_argument "Limit must be at least 1."
// or "Exceeded limit maximum (<n> > <max>)." Returns n.
std::size_t page_limit(std::int64_t n, std::int64_t max = 1000);

// Throws http::ApiError invalid_argument with Canton's text unless `party` is a valid party id.
void check_party(std::string_view party);

}  // namespace cantonlite::areas
