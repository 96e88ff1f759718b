#pragma once
// Decoding Splice request bodies and parameters, with the real services' checks and texts
// (../shared/docs/reference/splice-behavior.md §0.1, §0.4, §0.5). Shared by scan and validator.

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "cantonlite/areas/java_time.hpp"
#include "cantonlite/http/request.hpp"
#include "cantonlite/model/timestamp.hpp"

namespace cantonlite::areas {

// The request body as guardrail's generated routes decode it (structuredJsonEntityUnmarshaller,
// then circe), each failure a Pekko rejection (http::DecodeError) in RejectionHandler.default's
// words: a Content-Type other than application/json, or a body without one, 415 "The request's
// Content-Type [text/plain] is not supported. Expected:\napplication/json"; an empty body 400
// "Request entity expected but not supplied"; malformed JSON 400 "The request content was
// malformed:\n<jawn's message>". The body may be any JSON value: members of a body that is not
// an object are missing.
[[nodiscard]] nlohmann::json json_body(const http::Request& request);

// Members of a decoded body, each with circe's decoder, read in the order of the schema's
// properties. A failure throws http::DecodeError "The request content was malformed:\n
// DecodingFailure at .<key>: <reason>" with circe 0.14.9's reason: "Missing required field",
// "Long" / "Int" (a number that is not whole or out of range; a whole number may also be written
// as a JSON string, "5", or as 5.0 or 1e2), "Got value '<json>' with wrong type, expecting
// string" (or array), "<value> not a member of <Enum>". An optional member that is absent or null
// is none.
[[nodiscard]] std::int64_t int64_member(const nlohmann::json& body, std::string_view key);
[[nodiscard]] std::optional<std::int64_t> optional_int64_member(const nlohmann::json& body,
                                                                std::string_view key);
[[nodiscard]] std::int32_t int32_member(const nlohmann::json& body, std::string_view key);
[[nodiscard]] std::string string_member(const nlohmann::json& body, std::string_view key);
[[nodiscard]] std::optional<std::string> optional_string_member(const nlohmann::json& body,
                                                                std::string_view key);
[[nodiscard]] std::vector<std::string> string_array_member(const nlohmann::json& body,
                                                           std::string_view key);
[[nodiscard]] std::vector<std::string> optional_string_array_member(const nlohmann::json& body,
                                                                    std::string_view key);
// An optional boolean: circe's Decoder[Boolean], failing with "Got value '<json>' with wrong type,
// expecting 'true' or 'false'".
[[nodiscard]] std::optional<bool> optional_bool_member(const nlohmann::json& body,
                                                       std::string_view key);
// An optional nested object: nullptr when absent or null. (Its own members are then read with the
// functions above, their keys given as paths: "after.after_migration_id".)
[[nodiscard]] const nlohmann::json* optional_object_member(const nlohmann::json& body,
                                                           std::string_view key);
// An optional string enum (absent or null: `fallback`); guardrail names an inline enum after its
// property (record_time_match: RecordTimeMatch).
[[nodiscard]] std::string enum_member(const nlohmann::json& body, std::string_view key,
                                      std::string_view enum_name,
                                      std::initializer_list<std::string_view> values,
                                      std::string_view fallback);
// A date-time: guardrail's Decoder[OffsetDateTime] (java_time.hpp), failing with the Instant
// parser's message.
[[nodiscard]] JavaDateTime date_time_member(const nlohmann::json& body, std::string_view key);

// The same decoders for a value found at `path` (a nested member: "after.after_record_time").
[[nodiscard]] std::int64_t decode_long(const nlohmann::json& value, std::string_view path);
[[nodiscard]] std::string decode_string(const nlohmann::json& value, std::string_view path);
[[noreturn]] void fail_missing(std::string_view path);

// record_time_match: absent or "exact" -> false; "at_or_before" -> true.
[[nodiscard]] bool at_or_before_member(const nlohmann::json& body);

// Splice's PageLimit/HardLimit: throws http::ApiError invalid_argument "Limit must be at least 1."
// or "Exceeded limit maximum (<n> > <max>)." Returns n.
std::size_t page_limit(std::int64_t n, std::int64_t max = 1000);

// Throws http::ApiError invalid_argument with Canton's text unless `party` is a valid party id.
void check_party(std::string_view party);

}  // namespace cantonlite::areas
