#pragma once
// The JSON API's HTTP list endpoints (Endpoints.asList): how many elements they read, the error
// when the node limit is exceeded, and the errors the read side shares beyond the filters.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace cantonlite::areas::ledger {

// How many elements a list reads: min(limit, node limit + 1); the node limit + 1 without one.
[[nodiscard]] std::int64_t list_take(std::optional<std::int64_t> limit);

// 413 JSON_API_MAXIMUM_LIST_ELEMENTS_NUMBER_REACHED (built by the JSON layer) when `count`
// exceeds the node limit.
void check_list_limit(std::size_t count);

// 400 DEPRECATED_API_DISABLED (Canton 3.6): the fields filter/verbose of `path`'s requests.
[[noreturn]] void throw_deprecated_parameters(const std::string& path);

// A short digest of the member `key` of the JSON request `body` (its keys sorted; "null" when
// absent): what a page or continuation token is bound to, so that it only works with the same
// format.
[[nodiscard]] std::string request_member_digest(std::string_view body, std::string_view key);

}  // namespace cantonlite::areas::ledger
