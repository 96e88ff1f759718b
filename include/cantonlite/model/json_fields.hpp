#pragma once
// Typed reads of JSON documents that cantonlite loads (config, seed), with errors that name the
// JSON pointer of the offending value.

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "cantonlite/model/timestamp.hpp"

namespace cantonlite::model {

// A value of a loaded document is missing or wrong. what() is "<pointer>: <problem>".
class JsonFieldError : public std::runtime_error {
  public:
    JsonFieldError(std::string pointer, std::string problem);

    const std::string& pointer() const { return pointer_; }
    const std::string& problem() const { return problem_; }

  private:
    std::string pointer_;
    std::string problem_;
};

// A JSON object being read, with the JSON pointer it sits at ("" for the document root).
// Cheap to copy; refers to the document, which must outlive it.
class JsonObject {
  public:
    // REQUIRES: nothing. Throws JsonFieldError when `value` is not an object.
    JsonObject(const nlohmann::json& value, std::string pointer);

    // Pointer of a member of this object ("/server/port").
    [[nodiscard]] std::string pointer_of(std::string_view key) const;

    [[nodiscard]] bool has(std::string_view key) const;  // present and not null

    [[nodiscard]] JsonObject object(std::string_view key) const;  // required
    [[nodiscard]] std::optional<JsonObject> optional_object(std::string_view key) const;

    [[nodiscard]] std::string string(std::string_view key) const;  // required, non-empty
    [[nodiscard]] std::optional<std::string> optional_string(std::string_view key) const;

    // Required integer within [min, max].
    [[nodiscard]] std::int64_t integer(std::string_view key, std::int64_t min,
                                       std::int64_t max) const;
    [[nodiscard]] std::optional<std::int64_t> optional_integer(std::string_view key,
                                                               std::int64_t min,
                                                               std::int64_t max) const;

    [[nodiscard]] std::optional<bool> optional_bool(std::string_view key) const;

    [[nodiscard]] Timestamp timestamp(std::string_view key) const;  // required RFC 3339
    [[nodiscard]] std::optional<Timestamp> optional_timestamp(std::string_view key) const;

    // Throws for the first member whose key is not in `known` (catches typos in hand-written
    // files).
    void reject_unknown_keys(std::initializer_list<std::string_view> known) const;

    const nlohmann::json& value() const { return *value_; }
    const std::string& pointer() const { return pointer_; }

  private:
    const nlohmann::json& required(std::string_view key) const;

    const nlohmann::json* value_;
    std::string pointer_;
};

// `text` on one line: control characters written as JSON escapes them ("\n", "\u0001").
[[nodiscard]] std::string escape_control_characters(std::string_view text);

// A short rendering of a JSON value for error messages: strings quoted, long values cut.
[[nodiscard]] std::string describe_json(const nlohmann::json& value);

}  // namespace cantonlite::model
