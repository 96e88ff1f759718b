#include "cantonlite/areas/splice_request.hpp"

#include <limits>

#include "cantonlite/http/api_error.hpp"
#include "cantonlite/model/party_id.hpp"

namespace cantonlite::areas {
namespace {

constexpr std::string_view malformed = "The request content was malformed:\n";

[[noreturn]] void decoding_failure(std::string_view key, std::string_view what) {
    throw http::DecodeError(std::string(malformed) + "DecodingFailure at ." + std::string(key) +
                            ": " + std::string(what));
}

const nlohmann::json& member(const nlohmann::json& body, std::string_view key) {
    const auto it = body.find(key);
    if (it == body.end()) decoding_failure(key, "Missing required field");
    return *it;
}

}  // namespace

nlohmann::json json_body(const http::Request& request) {
    nlohmann::json body = nlohmann::json::parse(request.body, nullptr, false);
    if (body.is_discarded()) {
        throw http::DecodeError(std::string(malformed) +
                                (request.body.empty() ? "exhausted input" : "invalid JSON"));
    }
    if (!body.is_object())
        throw http::DecodeError(std::string(malformed) + "DecodingFailure at : Object");
    return body;
}

std::int64_t int64_member(const nlohmann::json& body, std::string_view key) {
    const nlohmann::json& v = member(body, key);
    if (!v.is_number_integer() ||
        (v.is_number_unsigned() &&
         v.get<std::uint64_t>() >
             static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))) {
        decoding_failure(key, "Long");
    }
    return v.get<std::int64_t>();
}

std::optional<std::int64_t> optional_int64_member(const nlohmann::json& body,
                                                  std::string_view key) {
    const auto it = body.find(key);
    if (it == body.end() || it->is_null()) return std::nullopt;
    return int64_member(body, key);
}

std::int32_t int32_member(const nlohmann::json& body, std::string_view key) {
    const nlohmann::json& v = member(body, key);
    if (!v.is_number_integer() ||
        v.get<std::int64_t>() < std::numeric_limits<std::int32_t>::min() ||
        v.get<std::int64_t>() > std::numeric_limits<std::int32_t>::max() ||
        (v.is_number_unsigned() &&
         v.get<std::uint64_t>() > std::numeric_limits<std::int32_t>::max())) {
        decoding_failure(key, "Int");
    }
    return static_cast<std::int32_t>(v.get<std::int64_t>());
}

std::string string_member(const nlohmann::json& body, std::string_view key) {
    const nlohmann::json& v = member(body, key);
    if (!v.is_string()) decoding_failure(key, "String");
    return v.get<std::string>();
}

std::vector<std::string> string_array_member(const nlohmann::json& body, std::string_view key) {
    const nlohmann::json& v = member(body, key);
    if (!v.is_array()) decoding_failure(key, "Vector");
    std::vector<std::string> out;
    for (std::size_t i = 0; i < v.size(); ++i) {
        if (!v[i].is_string())
            decoding_failure(std::string(key) + "[" + std::to_string(i) + "]", "String");
        out.push_back(v[i].get<std::string>());
    }
    return out;
}

model::Timestamp date_time_member(const nlohmann::json& body, std::string_view key) {
    const nlohmann::json& v = member(body, key);
    const auto t =
        v.is_string() ? model::parse_timestamp(v.get_ref<const std::string&>()) : std::nullopt;
    if (!t) decoding_failure(key, "OffsetDateTime");
    return *t;
}

bool at_or_before_member(const nlohmann::json& body) {
    const auto it = body.find("record_time_match");
    if (it == body.end() || it->is_null()) return false;
    if (*it == "exact") return false;
    if (*it == "at_or_before") return true;
    decoding_failure("record_time_match",
                     "Unknown value " + it->dump() + " (valid values: exact, at_or_before)");
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
