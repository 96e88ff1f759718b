#pragma once
// Files read or written whole. A file written here is written whole or not at all: its bytes go
// to a file beside it, synced, which is then renamed over it (and the rename synced), so that a
// reader, a crash or a power cut never sees half of it, and a file said written stays.

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>

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

// A file mapped read-only, for a reader that goes through it once: no buffer zeroed and no copy
// made (a state file of 37 MB took 17 ms to read into a string, the first tenth of its load). The
// mapping goes with the object. A file truncated in place while mapped raises SIGBUS at a read
// past its new end, so map only where that may end the process (start-up, as SQLite's and LMDB's
// maps do); files this process writes are renamed over, never truncated. Empty when the file
// cannot be opened or mapped (read it with read_file then).
class MappedFile {
  public:
    [[nodiscard]] static std::optional<MappedFile> open(const std::filesystem::path& path) {
        const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
        if (fd < 0) return std::nullopt;
        struct stat st {};
        if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
            ::close(fd);
            return std::nullopt;
        }
        MappedFile file;
        file.size_ = static_cast<std::size_t>(st.st_size);
        if (file.size_ != 0) {
            void* at = ::mmap(nullptr, file.size_, PROT_READ, MAP_PRIVATE, fd, 0);
            if (at == MAP_FAILED) {
                ::close(fd);
                return std::nullopt;
            }
            file.data_ = static_cast<const char*>(at);
        }
        ::close(fd);
        return file;
    }
    MappedFile(MappedFile&& other) noexcept
        : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)) {}
    MappedFile& operator=(MappedFile&& other) noexcept {
        std::swap(data_, other.data_);
        std::swap(size_, other.size_);
        return *this;
    }
    MappedFile(const MappedFile&) = delete;
    MappedFile& operator=(const MappedFile&) = delete;
    ~MappedFile() {
        if (data_ != nullptr) ::munmap(const_cast<char*>(data_), size_);
    }
    [[nodiscard]] std::string_view bytes() const { return {data_ == nullptr ? "" : data_, size_}; }

  private:
    MappedFile() = default;
    const char* data_ = nullptr;
    std::size_t size_ = 0;
};

// Writes `bytes` to `path`; nullopt when done, else why not (one line, naming the file).
[[nodiscard]] inline std::optional<std::string> write_file_atomically(
    const std::filesystem::path& path, std::string_view bytes) {
    const std::filesystem::path partial = path.string() + ".partial";
    const auto failed = [&](const std::filesystem::path& what, int error) {
        std::error_code ignored;
        std::filesystem::remove(partial, ignored);
        return what.string() +
               ": cannot be written: " + std::error_code(error, std::generic_category()).message();
    };
    const int fd = ::open(partial.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) return failed(partial, errno);
    for (std::string_view left = bytes; !left.empty();) {
        const ssize_t n = ::write(fd, left.data(), left.size());
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            const int error = n < 0 ? errno : EIO;
            ::close(fd);
            return failed(partial, error);
        }
        left.remove_prefix(static_cast<std::size_t>(n));
    }
    if (::fsync(fd) != 0) {
        const int error = errno;
        ::close(fd);
        return failed(partial, error);
    }
    ::close(fd);
    std::error_code error;
    std::filesystem::rename(partial, path, error);
    if (error) return path.string() + ": " + error.message();
    // The rename itself, in the folder.
    std::filesystem::path dir = path.parent_path();
    if (dir.empty()) dir = ".";
    const int dir_fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir_fd >= 0) {
        const int synced = ::fsync(dir_fd);
        const int sync_error = errno;
        ::close(dir_fd);
        if (synced != 0) {
            return dir.string() + ": cannot sync: " +
                   std::error_code(sync_error, std::generic_category()).message();
        }
    }
    return std::nullopt;
}

}  // namespace cantonlite::util
