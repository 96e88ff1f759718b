#include "cantonlite/model/json_fields.hpp"

namespace cantonlite::model {
namespace {

// RFC 6901 escaping of one reference token.
std::string escape_token(std::string_view key) {
    std::string out;
    for (const char c : key) {
        if (c == '~') {
            out += "~0";
        } else if (c == '/') {
            out += "~1";
        } else {
            out += c;
        }
    }
    return out;
}

}  // namespace

std::string escape_control_characters(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (const char c : text) {
        if (static_cast<unsigned char>(c) >= 0x20) {
            out += c;
        } else if (c == '\n') {
            out += "\\n";
        } else if (c == '\r') {
            out += "\\r";
        } else if (c == '\t') {
            out += "\\t";
        } else {
            constexpr char hex[] = "0123456789abcdef";
            out += "\\u00";
            out += hex[(c >> 4) & 0xF];
            out += hex[c & 0xF];
        }
    }
    return out;
}

JsonFieldError::JsonFieldError(std::string pointer, std::string problem)
    : std::runtime_error(escape_control_characters(pointer.empty() ? std::string("/") : pointer) +
                         ": " + problem),
      pointer_(std::move(pointer)),
      problem_(std::move(problem)) {}

std::string describe_json(const nlohmann::json& value) {
    std::string text = value.dump();
    constexpr std::size_t max_length = 60;
    if (text.size() > max_length) text = text.substr(0, max_length) + "…";
    return text;
}

JsonObject::JsonObject(const nlohmann::json& value, std::string pointer)
    : value_(&value), pointer_(std::move(pointer)) {
    if (!value.is_object()) {
        throw JsonFieldError(pointer_, "must be an object, got " + describe_json(value));
    }
}

std::string JsonObject::pointer_of(std::string_view key) const {
    return pointer_ + "/" + escape_token(key);
}

bool JsonObject::has(std::string_view key) const {
    const auto it = value_->find(key);
    return it != value_->end() && !it->is_null();
}

const nlohmann::json& JsonObject::required(std::string_view key) const {
    const auto it = value_->find(key);
    if (it == value_->end() || it->is_null()) throw JsonFieldError(pointer_of(key), "is required");
    return *it;
}

JsonObject JsonObject::object(std::string_view key) const {
    return JsonObject(required(key), pointer_of(key));
}

std::optional<JsonObject> JsonObject::optional_object(std::string_view key) const {
    if (!has(key)) return std::nullopt;
    return object(key);
}

std::string JsonObject::string(std::string_view key) const {
    const nlohmann::json& v = required(key);
    if (!v.is_string() || v.get_ref<const std::string&>().empty()) {
        throw JsonFieldError(pointer_of(key),
                             "must be a non-empty string, got " + describe_json(v));
    }
    return v.get<std::string>();
}

std::optional<std::string> JsonObject::optional_string(std::string_view key) const {
    if (!has(key)) return std::nullopt;
    return string(key);
}

std::optional<bool> JsonObject::optional_bool(std::string_view key) const {
    if (!has(key)) return std::nullopt;
    const nlohmann::json& v = required(key);
    if (!v.is_boolean()) {
        throw JsonFieldError(pointer_of(key), "must be true or false, got " + describe_json(v));
    }
    return v.get<bool>();
}

std::int64_t JsonObject::integer(std::string_view key, std::int64_t min, std::int64_t max) const {
    const nlohmann::json& v = required(key);
    const bool in_range =
        (v.is_number_integer() && v.get<std::int64_t>() >= min && v.get<std::int64_t>() <= max) &&
        !(v.is_number_unsigned() && v.get<std::uint64_t>() > static_cast<std::uint64_t>(max));
    if (!in_range) {
        throw JsonFieldError(pointer_of(key), "must be an integer from " + std::to_string(min) +
                                                  " to " + std::to_string(max) + ", got " +
                                                  describe_json(v));
    }
    return v.get<std::int64_t>();
}

std::optional<std::int64_t> JsonObject::optional_integer(std::string_view key, std::int64_t min,
                                                         std::int64_t max) const {
    if (!has(key)) return std::nullopt;
    return integer(key, min, max);
}

std::optional<Timestamp> JsonObject::optional_timestamp(std::string_view key) const {
    if (!has(key)) return std::nullopt;
    return timestamp(key);
}

Timestamp JsonObject::timestamp(std::string_view key) const {
    const nlohmann::json& v = required(key);
    const auto t = v.is_string() ? parse_timestamp(v.get_ref<const std::string&>()) : std::nullopt;
    if (!t) {
        throw JsonFieldError(
            pointer_of(key),
            "must be an RFC 3339 date-time such as \"2024-05-01T10:00:00Z\", got " +
                describe_json(v));
    }
    return *t;
}

void JsonObject::reject_unknown_keys(std::initializer_list<std::string_view> known) const {
    for (const auto& [key, _] : value_->items()) {
        bool found = false;
        for (const std::string_view k : known) found = found || k == key;
        if (!found) throw JsonFieldError(pointer_of(key), "unknown key");
    }
}

}  // namespace cantonlite::model
