#pragma once
// How deep a request body's JSON may nest. Parsing is iterative, but copying, printing or comparing
// a value recurses once per level: a body of a few million brackets would exhaust the stack. Bodies
// nesting deeper are refused before they are parsed. Daml values nest at most 100 levels.

#include <cstddef>
#include <string_view>

namespace cantonlite::http {

inline constexpr std::size_t max_json_nesting = 1000;

// Whether `text` opens more than `limit` arrays and objects inside one another, brackets inside
// strings aside. It does not validate: the parser says what else is wrong.
[[nodiscard]] bool nests_deeper_than(std::string_view text, std::size_t limit = max_json_nesting);

}  // namespace cantonlite::http
