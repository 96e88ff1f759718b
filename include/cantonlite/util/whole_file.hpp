#pragma once
// Files read or written whole. A file written here is written whole or not at all: its bytes go
// to a file beside it, which is then renamed over it, so that a reader (or a crash) never sees
// half of it.

#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>

namespace cantonlite::util {

// The bytes of the file at `path`; nullopt when it cannot be read (missing, a directory, an error
// while reading).
[[nodiscard]] inline std::optional<std::string> read_file(const std::filesystem::path& path) {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) return std::nullopt;
    std::ifstream in(path, std::ios::binary | std::ios::ate);
    if (!in) return std::nullopt;
    const std::streamoff size = in.tellg();
    if (size < 0) return std::nullopt;
    std::string bytes(static_cast<std::size_t>(size), '\0');
    in.seekg(0);
    if (!in.read(bytes.data(), static_cast<std::streamsize>(bytes.size()))) return std::nullopt;
    return bytes;
}

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
