#pragma once
// The JSON API's HTTP list endpoints (Endpoints.asList): how many elements they read, the error
// when the node limit is exceeded, and the errors the read side shares beyond the filters.

#include <cstdint>
#include <optional>
#include <string>

namespace cantonlite::areas::ledger {

// How many elements a list reads: min(limit, node limit + 1); the node limit + 1 without one.
[[nodiscard]] std::int64_t list_take(std::optional<std::int64_t> limit);

// 413 JSON_API_MAXIMUM_LIST_ELEMENTS_NUMBER_REACHED (built by the JSON layer) when `count`
// exceeds the node limit.
void check_list_limit(std::size_t count);

// 400 DEPRECATED_API_DISABLED (Canton 3.6): the fields filter/verbose of `path`'s requests.
[[noreturn]] void throw_deprecated_parameters(const std::string& path);

}  // namespace cantonlite::areas::ledger
