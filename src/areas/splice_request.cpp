#include "cantonlite/areas/splice_request.hpp"

#include "cantonlite/areas/circe.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <variant>

#include "cantonlite/http/api_error.hpp"
#include "cantonlite/http/java_json.hpp"
#include "cantonlite/model/decimal.hpp"
#include "cantonlite/model/party_id.hpp"

namespace cantonlite::areas {
namespace {

constexpr std::string_view malformed = "The request content was malformed:\n";

// circe's DecodingFailure as guardrail's unmarshaller reports it: a MalformedRequestContent
// rejection whose text is `DecodingFailure at <path>: <reason>` (circe 0.14.9 Error.scala).
[[noreturn]] void decoding_failure(std::string_view path, std::string_view reason) {
    throw http::DecodeError(std::string(malformed) + "DecodingFailure at ." + std::string(path) +
                            ": " + std::string(reason));
}

// circe's WrongTypeExpectation reason.
std::string wrong_type(const nlohmann::json& v, std::string_view expecting) {
    return "Got value '" + v.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) +
           "' with wrong type, expecting " + std::string(expecting);
}

// A member of a decoded body. Any member of a body that is not an object is missing: circe's
// cursor fails on the first field it reads.
const nlohmann::json* find_member(const nlohmann::json& body, std::string_view key) {
    if (!body.is_object()) return nullptr;
    const auto it = body.find(key);
    return it == body.end() ? nullptr : &*it;
}

// An optional member: nullptr when absent or null; a body that is not an object still fails on
// it, as circe's cursor does on the first field it reads.
const nlohmann::json* optional_value(const nlohmann::json& body, std::string_view key) {
    if (!body.is_object()) decoding_failure(key, "Missing required field");
    const nlohmann::json* v = find_member(body, key);
    return v == nullptr || v->is_null() ? nullptr : v;
}

const nlohmann::json& member(const nlohmann::json& body, std::string_view key) {
    const nlohmann::json* v = find_member(body, key);
    if (v == nullptr) decoding_failure(key, "Missing required field");
    return *v;
}

// Java's Content-Type as Pekko renders it back: type and subtype in lower case, other parameters
// sorted by name, the charset last in upper case.
std::string rendered_content_type(std::string_view value) {
    std::vector<std::string> parts;
    std::size_t start = 0;
    while (start <= value.size()) {
        std::size_t end = value.find(';', start);
        if (end == std::string_view::npos) end = value.size();
        std::string part(value.substr(start, end - start));
        const auto first = part.find_first_not_of(" \t");
        const auto last = part.find_last_not_of(" \t");
        parts.push_back(first == std::string::npos ? "" : part.substr(first, last - first + 1));
        start = end + 1;
    }
    std::string media = parts.front();
    std::transform(media.begin(), media.end(), media.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    std::string charset;
    std::vector<std::string> params;
    for (std::size_t i = 1; i < parts.size(); ++i) {
        const auto eq = parts[i].find('=');
        if (eq == std::string::npos) continue;
        std::string name = parts[i].substr(0, eq);
        std::transform(name.begin(), name.end(), name.begin(),
                       [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
        std::string val = parts[i].substr(eq + 1);
        if (name == "charset") {
            std::transform(val.begin(), val.end(), val.begin(),
                           [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
            charset = val;
        } else {
            params.push_back(name + "=" + val);
        }
    }
    std::sort(params.begin(), params.end());
    for (const std::string& p : params) media += "; " + p;
    if (!charset.empty()) media += "; charset=" + charset;
    return media;
}

// A well-formed `type/subtype` (RFC 7230 tokens), else Pekko keeps the header raw and the entity
// is application/octet-stream.
bool is_media_type(std::string_view media) {
    const auto token = [](std::string_view t) {
        return !t.empty() && std::all_of(t.begin(), t.end(), [](char c) {
            return std::isalnum(static_cast<unsigned char>(c)) != 0 ||
                   std::string_view("!#$%&'*+-.^_`|~").find(c) != std::string_view::npos;
        });
    };
    const std::size_t slash = media.find('/');
    return slash != std::string_view::npos && token(media.substr(0, slash)) &&
           token(media.substr(slash + 1));
}

// guardrail's structuredJsonEntityUnmarshaller:
// Unmarshaller.byteStringUnmarshaller.forContentTypes(application/json). Throws Pekko's 415
// rejection unless the entity is application/json (any parameters) or has no type and no body.
void require_json_content_type(const http::Request& request) {
    const auto header = request.header("Content-Type");
    std::string type;
    if (header) {
        type = rendered_content_type(*header);
        const std::string media = type.substr(0, type.find(';'));
        if (!is_media_type(media)) type.clear();
    }
    if (type.empty()) {
        if (request.body.empty()) return;  // HttpEntity.Empty: NoContentType passes
        type = "application/octet-stream";
    }
    if (type.substr(0, type.find(';')) == "application/json") return;
    throw http::DecodeError(
        "The request's Content-Type [" + type + "] is not supported. Expected:\napplication/json",
        415);
}

}  // namespace

nlohmann::json json_body(const http::Request& request) {
    require_json_content_type(request);
    if (request.body.empty()) throw http::DecodeError("Request entity expected but not supplied");
    auto read = http::read_java_json(request.body);
    if (auto* value = std::get_if<nlohmann::json>(&read)) return std::move(*value);
    const http::JsonRefusal& refused = std::get<http::JsonRefusal>(read);
    // circe-jawn's words for a number beyond a double, which jawn keeps and circe cannot read.
    throw http::DecodeError(std::string(malformed) +
                            (refused.reason == http::JsonRefusal::Reason::number_out_of_range
                                 ? "number out of range"
                                 : refused.detail));
}

std::int64_t decode_long(const nlohmann::json& value, std::string_view path) {
    const auto n = circe_long(value);
    if (!n) decoding_failure(path, "Long");
    return *n;
}

std::string decode_string(const nlohmann::json& value, std::string_view path) {
    if (!value.is_string()) decoding_failure(path, wrong_type(value, "string"));
    return value.get<std::string>();
}

void fail_missing(std::string_view path) {
    decoding_failure(path, "Missing required field");
}

std::int64_t int64_member(const nlohmann::json& body, std::string_view key) {
    return decode_long(member(body, key), key);
}

std::optional<std::int64_t> optional_int64_member(const nlohmann::json& body,
                                                  std::string_view key) {
    if (optional_value(body, key) == nullptr) return std::nullopt;
    return int64_member(body, key);
}

std::int32_t int32_member(const nlohmann::json& body, std::string_view key) {
    const auto n = circe_long(member(body, key));
    if (!n || *n < std::numeric_limits<std::int32_t>::min() ||
        *n > std::numeric_limits<std::int32_t>::max()) {
        decoding_failure(key, "Int");
    }
    return static_cast<std::int32_t>(*n);
}

std::string string_member(const nlohmann::json& body, std::string_view key) {
    return decode_string(member(body, key), key);
}

std::optional<std::string> optional_string_member(const nlohmann::json& body,
                                                  std::string_view key) {
    if (optional_value(body, key) == nullptr) return std::nullopt;
    return string_member(body, key);
}

std::vector<std::string> string_array_member(const nlohmann::json& body, std::string_view key) {
    const nlohmann::json& v = member(body, key);
    if (!v.is_array()) decoding_failure(key, wrong_type(v, "array"));
    std::vector<std::string> out;
    out.reserve(v.size());
    for (std::size_t i = 0; i < v.size(); ++i) {
        if (!v[i].is_string()) {
            decoding_failure(std::string(key) + "[" + std::to_string(i) + "]",
                             wrong_type(v[i], "string"));
        }
        out.push_back(v[i].get<std::string>());
    }
    return out;
}

std::vector<std::string> optional_string_array_member(const nlohmann::json& body,
                                                      std::string_view key) {
    if (optional_value(body, key) == nullptr) return {};
    return string_array_member(body, key);
}

std::optional<bool> optional_bool_member(const nlohmann::json& body, std::string_view key) {
    const nlohmann::json* v = optional_value(body, key);
    if (v == nullptr) return std::nullopt;
    if (!v->is_boolean()) decoding_failure(key, wrong_type(*v, "'true' or 'false'"));
    return v->get<bool>();
}

const nlohmann::json* optional_object_member(const nlohmann::json& body, std::string_view key) {
    return optional_value(body, key);
}

std::string enum_member(const nlohmann::json& body, std::string_view key,
                        std::string_view enum_name, std::initializer_list<std::string_view> values,
                        std::string_view fallback) {
    const nlohmann::json* v = optional_value(body, key);
    if (v == nullptr) return std::string(fallback);
    if (!v->is_string()) decoding_failure(key, wrong_type(*v, "string"));
    const auto& text = v->get_ref<const std::string&>();
    if (std::find(values.begin(), values.end(), text) == values.end()) {
        decoding_failure(key, text + " not a member of " + std::string(enum_name));
    }
    return text;
}

JavaDateTime date_time_member(const nlohmann::json& body, std::string_view key) {
    const nlohmann::json& v = member(body, key);
    if (!v.is_string()) decoding_failure(key, wrong_type(v, "string"));
    auto t = parse_guardrail_date_time(v.get_ref<const std::string&>());
    if (auto* error = std::get_if<std::string>(&t)) decoding_failure(key, *error);
    return std::get<JavaDateTime>(std::move(t));
}

bool at_or_before_member(const nlohmann::json& body) {
    // guardrail names an inline enum after its property: RecordTimeMatch.
    return enum_member(body, "record_time_match", "RecordTimeMatch", {"exact", "at_or_before"},
                       "exact") == "at_or_before";
}

std::size_t page_limit(std::int64_t n, std::int64_t max) {
    if (n < 1)
        throw http::ApiError(http::ErrorKind::invalid_argument, "", "Limit must be at least 1.");
    if (n > max) {
        throw http::ApiError(
            http::ErrorKind::invalid_argument, "",
            "Exceeded limit maximum (" + std::to_string(n) + " > " + std::to_string(max) + ").");
    }
    return static_cast<std::size_t>(n);
}

void check_party(std::string_view party) {
    if (auto error = model::party_id_error(party)) {
        throw http::ApiError(http::ErrorKind::invalid_argument, "", *error);
    }
}

}  // namespace cantonlite::areas
