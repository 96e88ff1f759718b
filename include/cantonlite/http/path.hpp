#pragma once
// Splitting a request path into percent-decoded segments.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cantonlite::http {

// Decodes %XX escapes ("alice%3A%3A1220" -> "alice::1220"). '+' stays '+', as in a path. The
// bytes are read as UTF-8, malformed sequences becoming U+FFFD as in a Java String.
// Returns nullopt for a malformed escape ("%4", "%zz").
[[nodiscard]] std::optional<std::string> percent_decode(std::string_view text);

// "/api/scan/v0/lsu" -> {"api", "scan", "v0", "lsu"}; "/" -> {}; "/a/" -> {"a", ""}.
// Each segment percent-decoded. Returns nullopt when the path does not start with '/' or an
// escape is malformed.
[[nodiscard]] std::optional<std::vector<std::string>> split_path(std::string_view path);

}  // namespace cantonlite::http
