#pragma once
// A file written whole or not at all: its bytes go to a file beside it, which is then renamed over
// it, so that a reader (or a crash) never sees half of it.

#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>

namespace cantonlite::util {

// Writes `bytes` to `path`; nullopt when done, else why not (one line, naming the file).
[[nodiscard]] inline std::optional<std::string> write_file_atomically(
    const std::filesystem::path& path, std::string_view bytes) {
    const std::filesystem::path partial = path.string() + ".partial";
    {
        std::ofstream out(partial, std::ios::binary | std::ios::trunc);
        out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
        out.flush();
        if (!out) {
            std::error_code ignored;
            std::filesystem::remove(partial, ignored);
            return partial.string() + ": cannot be written";
        }
    }
    std::error_code error;
    std::filesystem::rename(partial, path, error);
    if (error) return path.string() + ": " + error.message();
    return std::nullopt;
}

}  // namespace cantonlite::util
