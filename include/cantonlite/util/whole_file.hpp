#pragma once
// Files read or written whole. A file written here is written whole or not at all: its bytes go
// to a file beside it, synced, which is then renamed over it (and the rename synced), so that a
// reader, a crash or a power cut never sees half of it, and a file said written stays.

#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <memory>
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

// A descriptor of the regular file at `path`, open for reading, and the file's size; nullopt when
// it cannot be opened or is not a regular file (a folder, a pipe). The caller closes it.
[[nodiscard]] inline std::optional<std::pair<int, std::size_t>> open_regular_file(
    const std::filesystem::path& path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return std::nullopt;
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        ::close(fd);
        return std::nullopt;
    }
    return std::pair{fd, static_cast<std::size_t>(st.st_size)};
}

// A file's bytes in a buffer not zeroed first, for a large file read once (a state file of 37 MiB
// read into read_file's string took 21 ms, 9 of them zeroing it).
struct FileBytes {
    std::unique_ptr<char[]> data;
    std::size_t size = 0;
    [[nodiscard]] std::string_view view() const { return {data.get(), size}; }
};
[[nodiscard]] inline std::optional<FileBytes> read_file_bytes(const std::filesystem::path& path) {
    const auto opened = open_regular_file(path);
    if (!opened) return std::nullopt;
    const auto [fd, size] = *opened;
    FileBytes bytes{.data = std::make_unique_for_overwrite<char[]>(size), .size = size};
    for (std::size_t got = 0; got < bytes.size;) {
        const ssize_t n = ::read(fd, bytes.data.get() + got, bytes.size - got);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {  // an error, or the file shrank meanwhile
            ::close(fd);
            return std::nullopt;
        }
        got += static_cast<std::size_t>(n);
    }
    ::close(fd);
    return bytes;
}

// A file mapped read-only, for a reader that goes through it once: no buffer zeroed and no copy
// made (a state file of 37 MB took 17 ms to read into a string, the first tenth of its load). The
// mapping goes with the object. A file truncated in place while mapped raises SIGBUS at a read
// past its new end, so map with open() only where that may end the process (start-up, as
// SQLite's and LMDB's maps do); files this process writes are renamed over, never truncated.
// open_leased() maps a file that cannot be truncated while mapped, for a running process. Empty
// when the file cannot be opened, mapped or leased (read it with read_file then).
class MappedFile {
  public:
    [[nodiscard]] static std::optional<MappedFile> open(const std::filesystem::path& path) {
        return map(path, false);
    }
    // The same under a read lease (fcntl F_SETLEASE, as Samba holds its oplocks), held as long as
    // the mapping: another process's truncation, or its open for writing, waits until the mapping
    // goes (or for /proc/sys/fs/lease-break-time, 45 s by default), so that no read of the mapping
    // can raise SIGBUS. Empty when no lease can be had: the file is open for writing elsewhere,
    // another user owns it, or its file system takes no leases. The lease's break is signalled
    // with SIGIO, which this ignores unless the process handles it.
    [[nodiscard]] static std::optional<MappedFile> open_leased(const std::filesystem::path& path) {
        return map(path, true);
    }
    MappedFile(MappedFile&& other) noexcept
        : data_(std::exchange(other.data_, nullptr)),
          size_(std::exchange(other.size_, 0)),
          leased_fd_(std::exchange(other.leased_fd_, -1)) {}
    MappedFile& operator=(MappedFile&& other) noexcept {
        std::swap(data_, other.data_);
        std::swap(size_, other.size_);
        std::swap(leased_fd_, other.leased_fd_);
        return *this;
    }
    MappedFile(const MappedFile&) = delete;
    MappedFile& operator=(const MappedFile&) = delete;
    ~MappedFile() {
        if (data_ != nullptr) ::munmap(const_cast<char*>(data_), size_);
        if (leased_fd_ >= 0) {
            // Let go explicitly: a lease ended by close alone left a waiting truncation blocked
            // until /proc/sys/fs/lease-break-time ran out.
            (void)::fcntl(leased_fd_, F_SETLEASE, F_UNLCK);
            ::close(leased_fd_);
        }
    }
    [[nodiscard]] std::string_view bytes() const { return {data_ == nullptr ? "" : data_, size_}; }
    // Lets the pages read so far go from this process's resident memory (MADV_DONTNEED: they stay
    // in the page cache): a later read of them faults them in again, as the file is. The bytes
    // do not change.
    void release_pages() const {
        if (data_ != nullptr) (void)::madvise(const_cast<char*>(data_), size_, MADV_DONTNEED);
    }

  private:
    MappedFile() = default;

    static std::optional<MappedFile> map(const std::filesystem::path& path, bool leased) {
        const auto opened = open_regular_file(path);
        if (!opened) return std::nullopt;
        const int fd = opened->first;
        MappedFile file;
        if (leased) {
            ignore_sigio_unless_handled();
            if (::fcntl(fd, F_SETLEASE, F_RDLCK) != 0) {
                ::close(fd);
                return std::nullopt;
            }
            file.leased_fd_ = fd;
            // Its size once leased: it can no longer change.
            struct stat st {};
            if (::fstat(fd, &st) != 0) return std::nullopt;
            file.size_ = static_cast<std::size_t>(st.st_size);
        } else {
            file.size_ = opened->second;
        }
        if (file.size_ != 0) {
            void* at = ::mmap(nullptr, file.size_, PROT_READ, MAP_PRIVATE, fd, 0);
            if (at == MAP_FAILED) {
                if (!leased) ::close(fd);
                return std::nullopt;
            }
            file.data_ = static_cast<const char*>(at);
        }
        if (!leased) ::close(fd);
        return file;
    }
    // SIGIO's default action ends the process.
    static void ignore_sigio_unless_handled() {
        struct sigaction current {};
        if (::sigaction(SIGIO, nullptr, &current) == 0 && current.sa_handler == SIG_DFL &&
            (current.sa_flags & SA_SIGINFO) == 0) {
            struct sigaction ignore {};
            ignore.sa_handler = SIG_IGN;
            ::sigaction(SIGIO, &ignore, nullptr);
        }
    }

    const char* data_ = nullptr;
    std::size_t size_ = 0;
    int leased_fd_ = -1;  // open while the lease is held
};

// A file written whole or not at all, in parts: its bytes go to PATH.partial, which commit()
// syncs and renames over PATH (and syncs the folder). Until then PATH is untouched; a file not
// committed (an error, an exception) leaves no partial file behind. The first error is kept, and
// every later call does nothing: check commit()'s answer once at the end.
class AtomicFile {
  public:
    explicit AtomicFile(std::filesystem::path path)
        : path_(std::move(path)), partial_(path_.string() + ".partial") {
        fd_ = ::open(partial_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        if (fd_ < 0) fail(partial_, errno);
    }
    AtomicFile(const AtomicFile&) = delete;
    AtomicFile& operator=(const AtomicFile&) = delete;
    ~AtomicFile() {
        if (fd_ >= 0) ::close(fd_);
        if (!committed_) {
            std::error_code ignored;
            std::filesystem::remove(partial_, ignored);
        }
    }

    // Appends `bytes`.
    void write(std::string_view bytes) {
        if (error_) return;
        for (std::string_view left = bytes; !left.empty();) {
            const ssize_t n = ::write(fd_, left.data(), left.size());
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) return fail(partial_, n < 0 ? errno : EIO);
            left.remove_prefix(static_cast<std::size_t>(n));
            written_ += static_cast<std::size_t>(n);
        }
    }
    // Writes `bytes` over those at `offset`, which were written before.
    void write_at(std::size_t offset, std::string_view bytes) {
        if (error_) return;
        while (!bytes.empty()) {
            const ssize_t n = ::pwrite(fd_, bytes.data(), bytes.size(), static_cast<off_t>(offset));
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) return fail(partial_, n < 0 ? errno : EIO);
            bytes.remove_prefix(static_cast<std::size_t>(n));
            offset += static_cast<std::size_t>(n);
        }
    }
    // Starts writing the bytes written so far to the disk, without waiting for it (but for room
    // in the disk's queue): commit()'s sync then waits for the rest only.
    void start_writeback() {
        if (error_ || written_ == started_) return;
        (void)::sync_file_range(fd_, static_cast<off_t>(started_),
                                static_cast<off_t>(written_ - started_), SYNC_FILE_RANGE_WRITE);
        started_ = written_;
    }
    // Syncs the file, renames it over PATH and syncs the folder: nullopt when done, else why not
    // (one line, naming the file).
    [[nodiscard]] std::optional<std::string> commit() {
        if (!error_ && ::fsync(fd_) != 0) fail(partial_, errno);
        if (fd_ >= 0) ::close(fd_);
        fd_ = -1;
        if (error_) return error_;
        std::error_code error;
        std::filesystem::rename(partial_, path_, error);
        if (error) return error_ = path_.string() + ": " + error.message();
        committed_ = true;
        // The rename itself, in the folder.
        std::filesystem::path dir = path_.parent_path();
        if (dir.empty()) dir = ".";
        const int dir_fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (dir_fd >= 0) {
            const int synced = ::fsync(dir_fd);
            const int sync_error = errno;
            ::close(dir_fd);
            if (synced != 0) {
                return error_ = dir.string() + ": cannot sync: " +
                                std::error_code(sync_error, std::generic_category()).message();
            }
        }
        return std::nullopt;
    }

  private:
    void fail(const std::filesystem::path& what, int error) {
        if (!error_) {
            error_ = what.string() + ": cannot be written: " +
                     std::error_code(error, std::generic_category()).message();
        }
    }
    std::filesystem::path path_;
    std::filesystem::path partial_;
    int fd_ = -1;
    std::size_t written_ = 0;  // bytes appended
    std::size_t started_ = 0;  // of those, how many start_writeback() sent to the disk
    bool committed_ = false;
    std::optional<std::string> error_;
};

// Writes `bytes` to `path`; nullopt when done, else why not (one line, naming the file).
[[nodiscard]] inline std::optional<std::string> write_file_atomically(
    const std::filesystem::path& path, std::string_view bytes) {
    AtomicFile file(path);
    file.write(bytes);
    return file.commit();
}

}  // namespace cantonlite::util
