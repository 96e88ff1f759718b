#pragma once
// The shipped config and networks (config/), compiled into the binary, so that `cantonlite serve`
// runs from any folder, installed or not (docs/configuration.md). A file given by flag, variable
// or config still wins. They go by the paths builtin_path() makes: "(built-in)/<name>".

#include <filesystem>
#include <optional>
#include <string_view>

namespace cantonlite::app {

// "(built-in)/cantonlite.json" and so on.
[[nodiscard]] std::filesystem::path builtin_path(std::string_view name);

// The bytes of a built-in file by its path: nullopt for a path that is not one
// ("(built-in)/nope.json", "config/cantonlite.json").
[[nodiscard]] std::optional<std::string_view> builtin_file(const std::filesystem::path& path);

}  // namespace cantonlite::app
