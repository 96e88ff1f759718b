#include "cantonlite/areas/ledger/list_limit.hpp"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "cantonlite/areas/ledger/ledger_handlers.hpp"
#include "cantonlite/areas/release.hpp"
#include "cantonlite/http/api_error.hpp"
#include "cantonlite/model/ids.hpp"

namespace cantonlite::areas::ledger {

using http::ApiError;
using http::ErrorKind;

std::int64_t list_take(std::optional<std::int64_t> limit) {
    return std::min(limit.value_or(http_list_max_elements + 1), http_list_max_elements + 1);
}

void check_list_limit(std::size_t count) {
    if (static_cast<std::int64_t>(count) <= http_list_max_elements) return;
    throw ApiError(ErrorKind::content_too_large, "JSON_API_MAXIMUM_LIST_ELEMENTS_NUMBER_REACHED",
                   "The number of matching elements (" + std::to_string(count) +
                       ") is greater than the node limit (" +
                       std::to_string(http_list_max_elements) + ").")
        .built_by_json_layer();
}

// ApiDeprecation.Canton34.Parameters.disabledMessage (code index, a 3.6 code line).
void throw_deprecated_parameters(const std::string& path) {
    throw ApiError(ErrorKind::failed_precondition, "DEPRECATED_API_DISABLED",
                   disabled_message(Deprecation::parameters_34,
                                    "The fields filter/verbose of the " + path + " requests"));
}

std::string request_member_digest(std::string_view body, std::string_view key) {
    const nlohmann::json request = nlohmann::json::parse(body, nullptr, false);
    const nlohmann::json* member = nullptr;
    if (request.is_object()) {
        if (const auto it = request.find(key); it != request.end()) member = &*it;
    }
    return model::sha256_hex(member != nullptr ? member->dump() : "null").substr(0, 16);
}

}  // namespace cantonlite::areas::ledger
