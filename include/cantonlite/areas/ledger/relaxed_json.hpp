#pragma once
// Canton's "relaxed" circe decoding of JSON Ledger API request bodies, piece by piece: missing
// Seq/Map/Option/Boolean/Long/String fields take their defaults, unknown fields are ignored, and a
// failure is tapir's 400 text/plain body with circe 0.14.2's message and a path relative to the
// innermost relaxed object (../shared/docs/reference/canton-ledger-behavior.md §5.4). Every
// function throws http::DecodeError whose what() is the whole body.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "cantonlite/areas/ledger/transaction_request.hpp"

namespace cantonlite::areas::ledger::relaxed {

using nlohmann::json;

[[noreturn]] void fail(std::string_view detail);
[[noreturn]] void fail_at(std::string_view message, std::string_view path);
[[noreturn]] void wrong_type(const json& value, std::string_view expecting, std::string_view path);

// A relaxed object that is not a JSON object gets no defaults, so its first field is missing.
void require_object(const json& value, std::string_view first_field);
// The member `key` of a JSON object, or nullptr when absent.
[[nodiscard]] const json* member(const json& object, std::string_view key);

// `decode` of the member `key` of `object`; none when it is missing or null (an optional message
// field of the relaxed codec).
template <class Decode>
[[nodiscard]] auto optional_member(const json& object, std::string_view key, Decode decode)
    -> std::optional<decltype(decode(object))> {
    const json* value = member(object, key);
    if (value == nullptr || value->is_null()) return std::nullopt;
    return decode(*value);
}

// The body as JSON; malformed JSON fails in jawn's words.
[[nodiscard]] json parse_body(std::string_view body);

// circe's Decoder[Long]: a whole JSON number, or a string holding one ("5", "5.0").
[[nodiscard]] std::int64_t decode_long(const json& value, std::string_view path);
// Option[Long]: absent or null is none.
[[nodiscard]] std::optional<std::int64_t> decode_optional_long(const json* value,
                                                               std::string_view path);
// Option[Int]: absent or null is none; else a whole number in the Int range ("Int" otherwise).
[[nodiscard]] std::optional<std::int32_t> decode_optional_int(const json* value,
                                                              std::string_view path);
// Boolean: absent is false.
[[nodiscard]] bool decode_bool(const json* value, std::string_view path);
// String: absent is "".
[[nodiscard]] std::string decode_string(const json* value, std::string_view path);
// ByteString: standard base64 as java.util.Base64 reads it (padding optional); absent is "".
[[nodiscard]] std::string decode_byte_string(const json* value, std::string_view path);
// The bytes of such base64 text; none when it is not.
[[nodiscard]] std::optional<std::string> base64_bytes(std::string text);
// Option[String] (and Option[ByteString], base64 text): absent or null is none.
[[nodiscard]] std::optional<std::string> decode_optional_string(const json* value,
                                                                std::string_view path);
// Seq[String]: absent is [].
[[nodiscard]] std::vector<std::string> decode_strings(const json* value, std::string_view path);

// The proto messages of the read side.
[[nodiscard]] Filters decode_filters(const json& value);
[[nodiscard]] EventFormat decode_event_format(const json& value);
[[nodiscard]] TransactionFormat decode_transaction_format(const json& value);
[[nodiscard]] UpdateFormat decode_update_format(const json& value);
// LegacyDTOs.TransactionFilter: filtersByParty and filtersForAnyParty, no verbose.
[[nodiscard]] EventFormat decode_transaction_filter(const json& value);

}  // namespace cantonlite::areas::ledger::relaxed
