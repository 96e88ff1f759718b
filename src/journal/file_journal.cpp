// The file backend of the journal.
//
// Layout: a sequence of records, each one line
//     <crc32 of the payload, 8 lowercase hex digits> <payload length, decimal> <payload>\n
// The payload is found by its length, never by searching for a newline, so it may hold any bytes.
// The first record is the header, {"cantonlite_journal":1,"seed_sha256":"<fingerprint>"}; the
// records after it are the ones recovered() returns.
//
// Durability: append() writes through an O_APPEND descriptor; wait_durable() shares one fdatasync
// among every waiter that arrives while another sync runs (group commit). A failed sync poisons the
// journal: the kernel may have dropped the dirty pages, so a later sync succeeding proves nothing.

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

#include <spdlog/spdlog.h>
#include <nlohmann/json.hpp>

#include "cantonlite/journal/journal.hpp"
#include "cantonlite/util/crc32.hpp"

namespace cantonlite::journal {
namespace {

constexpr int format_version = 1;
constexpr std::size_t crc_digits = 8;
constexpr std::size_t max_length_digits = 20;  // std::uint64_t

std::string errno_text(int error) {
    return std::error_code(error, std::generic_category()).message();
}

[[noreturn]] void fail(const std::filesystem::path& path, std::string_view what, int error) {
    throw JournalError(path.string() + ": " + std::string(what) + ": " + errno_text(error));
}

std::string frame(std::string_view payload) {
    static constexpr char hex[] = "0123456789abcdef";
    const std::uint32_t crc = util::crc32(payload);
    std::string out;
    const std::string length = std::to_string(payload.size());
    out.reserve(crc_digits + 1 + length.size() + 1 + payload.size() + 1);
    for (int shift = 28; shift >= 0; shift -= 4) out.push_back(hex[(crc >> shift) & 0xFU]);
    out.push_back(' ');
    out += length;
    out.push_back(' ');
    out += payload;
    out.push_back('\n');
    return out;
}

std::string header_payload(const std::string& seed_fingerprint) {
    // nlohmann::json orders keys: "cantonlite_journal" comes first.
    return nlohmann::json{{"cantonlite_journal", format_version}, {"seed_sha256", seed_fingerprint}}
        .dump();
}

// One frame read from the bytes of the file.
struct Parsed {
    bool ok = false;
    std::string_view payload;  // when ok
    std::size_t end = 0;       // offset just past the frame's newline, when ok
    std::string problem;       // when not ok: what is wrong, for messages
};

int hex_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
}

Parsed parse_frame(std::string_view data, std::size_t pos) {
    const auto bad = [](std::string problem) { return Parsed{.problem = std::move(problem)}; };
    const auto truncated = [&] { return bad("the file ends inside it"); };
    std::size_t at = pos;
    std::uint32_t crc = 0;
    for (std::size_t i = 0; i < crc_digits; ++i, ++at) {
        if (at >= data.size()) return truncated();
        const int digit = hex_value(data[at]);
        if (digit < 0) return bad("it does not start with a checksum");
        crc = (crc << 4) | static_cast<std::uint32_t>(digit);
    }
    if (at >= data.size()) return truncated();
    if (data[at++] != ' ') return bad("no space follows its checksum");
    const std::size_t digits_start = at;
    std::uint64_t length = 0;
    while (at < data.size() && data[at] >= '0' && data[at] <= '9') {
        if (at - digits_start >= max_length_digits) return bad("its length is impossible");
        const auto digit = static_cast<std::uint64_t>(data[at] - '0');
        if (length > (UINT64_MAX - digit) / 10) return bad("its length is impossible");
        length = length * 10 + digit;
        ++at;
    }
    if (at >= data.size()) return truncated();
    if (at == digits_start) return bad("no length follows its checksum");
    if (data[at] != ' ') return bad("no space follows its length");
    if (data[digits_start] == '0' && at - digits_start > 1) return bad("its length is malformed");
    ++at;
    if (length > data.size() - at) return truncated();
    const std::string_view payload = data.substr(at, static_cast<std::size_t>(length));
    at += payload.size();
    if (at >= data.size()) return truncated();
    if (data[at++] != '\n')
        return bad("no newline follows its " + std::to_string(length) + "-byte payload");
    if (util::crc32(payload) != crc) return bad("its checksum does not match its payload");
    return Parsed{.ok = true, .payload = payload, .end = at};
}

// The offset of the first valid frame that starts after `pos`, if any.
std::optional<std::size_t> next_valid_frame(std::string_view data, std::size_t pos) {
    for (std::size_t p = pos + 1; p + crc_digits < data.size(); ++p) {
        if (hex_value(data[p]) >= 0 && parse_frame(data, p).ok) return p;
    }
    return std::nullopt;
}

// A file descriptor closed on destruction.
class Fd {
  public:
    explicit Fd(int fd) : fd_(fd) {}
    Fd(const Fd&) = delete;
    Fd& operator=(const Fd&) = delete;
    Fd(Fd&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
    Fd& operator=(Fd&&) = delete;
    ~Fd() {
        if (fd_ >= 0) ::close(fd_);
    }
    [[nodiscard]] int get() const { return fd_; }

  private:
    int fd_;
};

void write_all(const std::filesystem::path& path, int fd, std::string_view bytes) {
    while (!bytes.empty()) {
        const ssize_t n = ::write(fd, bytes.data(), bytes.size());
        if (n < 0) {
            if (errno == EINTR) continue;
            fail(path, "cannot write", errno);
        }
        if (n == 0) fail(path, "cannot write", EIO);
        bytes.remove_prefix(static_cast<std::size_t>(n));
    }
}

std::string read_all(const std::filesystem::path& path, int fd) {
    struct stat st {};
    if (::fstat(fd, &st) != 0) fail(path, "cannot read", errno);
    if (!S_ISREG(st.st_mode)) throw JournalError(path.string() + ": not a regular file");
    std::string data(static_cast<std::size_t>(st.st_size), '\0');
    std::size_t done = 0;
    while (done < data.size()) {
        const ssize_t n =
            ::pread(fd, data.data() + done, data.size() - done, static_cast<off_t>(done));
        if (n < 0) {
            if (errno == EINTR) continue;
            fail(path, "cannot read", errno);
        }
        if (n == 0) break;  // shrank since fstat: read what is there
        done += static_cast<std::size_t>(n);
    }
    data.resize(done);
    return data;
}

void sync_file(const std::filesystem::path& path, int fd) {
    while (::fsync(fd) != 0) {
        if (errno != EINTR) fail(path, "cannot sync", errno);
    }
}

void truncate_file(const std::filesystem::path& path, int fd, std::uint64_t size) {
    while (::ftruncate(fd, static_cast<off_t>(size)) != 0) {
        if (errno != EINTR) fail(path, "cannot truncate", errno);
    }
}

// Makes the directory entry of a file just created durable.
void sync_parent_directory(const std::filesystem::path& path) {
    std::filesystem::path dir = path.parent_path();
    if (dir.empty()) dir = ".";
    const Fd fd(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (fd.get() < 0) fail(dir, "cannot open the directory of the journal", errno);
    sync_file(dir, fd.get());
}

// Checks the header record of `data`; returns the offset of the first record after it.
std::size_t check_header(const std::filesystem::path& path, std::string_view data,
                         const std::string& seed_fingerprint) {
    const std::string advice = "; move it away or use another --journal file";
    const Parsed header = parse_frame(data, 0);
    if (!header.ok) {
        throw JournalError(path.string() +
                           ": not a cantonlite journal (its header is unreadable: " +
                           header.problem + ")" + advice);
    }
    const auto json = nlohmann::json::parse(header.payload, nullptr, false);
    const bool well_formed = json.is_object() && json.contains("cantonlite_journal") &&
                             json["cantonlite_journal"].is_number_integer() &&
                             json.contains("seed_sha256") && json["seed_sha256"].is_string();
    if (!well_formed) {
        throw JournalError(path.string() + ": not a cantonlite journal (unreadable header)" +
                           advice);
    }
    const auto version = json["cantonlite_journal"].get<std::int64_t>();
    if (version != format_version) {
        throw JournalError(path.string() + ": journal format version " + std::to_string(version) +
                           " is not supported (this build reads version " +
                           std::to_string(format_version) + ")" + advice);
    }
    const auto& theirs = json["seed_sha256"].get_ref<const std::string&>();
    if (theirs != seed_fingerprint) {
        throw JournalError(path.string() + ": this journal was written for another seed (sha256 " +
                           theirs + "), not for this one (sha256 " + seed_fingerprint + ")" +
                           advice);
    }
    return header.end;
}

// Reads the records after the header; cuts a torn last record, refuses a damaged earlier one.
// Returns the records and the size of the file afterwards.
std::pair<std::vector<Record>, std::uint64_t> recover(const std::filesystem::path& path, int fd,
                                                      std::string_view data, std::size_t pos) {
    std::vector<Record> records;
    while (pos < data.size()) {
        const Parsed parsed = parse_frame(data, pos);
        if (parsed.ok) {
            records.push_back(Record{.offset = pos,
                                     .payload = std::string(parsed.payload),
                                     .where = "at byte " + std::to_string(pos)});
            pos = parsed.end;
            continue;
        }
        if (const auto next = next_valid_frame(data, pos)) {
            throw JournalError(path.string() + ": record at byte " + std::to_string(pos) +
                               " is damaged (" + parsed.problem +
                               ") and is followed by more records (the next at byte " +
                               std::to_string(*next) + "); refusing to start");
        }
        const std::size_t cut = data.size() - pos;
        truncate_file(path, fd, pos);
        sync_file(path, fd);
        spdlog::warn("journal {}: cut a torn record at byte {} ({} bytes; {})", path.string(), pos,
                     cut, parsed.problem);
        return {std::move(records), pos};
    }
    return {std::move(records), pos};
}

class FileJournal final : public Journal {
  public:
    FileJournal(std::filesystem::path path, Fd fd, std::vector<Record> records, std::uint64_t end)
        : path_(std::move(path)),
          fd_(std::move(fd)),
          records_(std::move(records)),
          end_(end),
          written_(end) {}

    ~FileJournal() override {
        {
            const std::lock_guard lock(mutex_);
            stopping_ = true;
        }
        wake_.notify_all();
        if (flusher_.joinable()) flusher_.join();
    }
    FileJournal(const FileJournal&) = delete;
    FileJournal& operator=(const FileJournal&) = delete;

    [[nodiscard]] const std::vector<Record>& recovered() const override { return records_; }

    [[nodiscard]] Stats stats() const override {
        const std::lock_guard lock(mutex_);
        return Stats{
            .records_written = durable_records_, .commits = syncs_, .available = failure_.empty()};
    }

    [[nodiscard]] std::uint64_t append(std::string_view payload) override {
        {
            const std::lock_guard lock(mutex_);
            if (!failure_.empty()) throw JournalError(failure_);
        }
        const std::string bytes = frame(payload);
        try {
            write_all(path_, fd_.get(), bytes);
        } catch (const JournalError& e) {
            // Take back a partly written record, so that the next record does not follow a
            // damaged one; when that is impossible, the journal cannot take more records.
            if (::ftruncate(fd_.get(), static_cast<off_t>(end_)) != 0) {
                const std::lock_guard lock(mutex_);
                failure_ = std::string(e.what()) +
                           " (and cannot cut the partial record: " + errno_text(errno) + ")";
            }
            throw;
        }
        end_ += bytes.size();
        const std::lock_guard lock(mutex_);
        written_ = end_;
        ++written_records_;
        return end_;
    }

    void wait_durable(std::uint64_t ticket) override {
        std::unique_lock lock(mutex_);
        ticket = std::min(ticket, written_);  // a ticket from nowhere must not wait forever
        for (;;) {
            if (synced_ >= ticket) return;
            if (!failure_.empty()) throw JournalError(failure_);
            if (syncing_) {
                synced_or_failed_.wait(lock);
                continue;
            }
            syncing_ = true;
            const std::uint64_t target = written_;
            const std::uint64_t target_records = written_records_;
            lock.unlock();
            int result = 0;
            while ((result = ::fdatasync(fd_.get())) != 0 && errno == EINTR) {
            }
            const int error = result == 0 ? 0 : errno;
            lock.lock();
            syncing_ = false;
            if (result == 0) {
                synced_ = std::max(synced_, target);
                durable_records_ = std::max(durable_records_, target_records);
                ++syncs_;
            } else {
                failure_ = path_.string() + ": cannot sync: " + errno_text(error);
            }
            synced_or_failed_.notify_all();
        }
    }

    void when_durable(std::uint64_t ticket, std::function<void(std::exception_ptr)> done) override {
        std::exception_ptr now_failed;
        {
            const std::lock_guard lock(mutex_);
            ticket = std::min(ticket, written_);
            if (synced_ < ticket && failure_.empty()) {
                pending_.emplace_back(ticket, std::move(done));
                if (!flusher_.joinable()) flusher_ = std::thread([this] { flush(); });
                wake_.notify_one();
                return;
            }
            if (!failure_.empty()) now_failed = std::make_exception_ptr(JournalError(failure_));
        }
        done(now_failed);
    }

  private:
    // The flusher: while callbacks wait, one sync covers every record written so far, then the
    // callbacks it made durable run. Waiters that arrive during a sync share the next one.
    void flush() {
        std::unique_lock lock(mutex_);
        for (;;) {
            wake_.wait(lock, [&] { return stopping_ || !pending_.empty(); });
            if (pending_.empty()) return;  // stopping, nothing left to confirm
            std::uint64_t target = 0;
            for (const auto& [ticket, _] : pending_) target = std::max(target, ticket);
            lock.unlock();
            std::exception_ptr error;
            try {
                wait_durable(target);
            } catch (const JournalError&) {
                error = std::current_exception();
            }
            lock.lock();
            std::vector<std::function<void(std::exception_ptr)>> ready;
            for (auto it = pending_.begin(); it != pending_.end();) {
                if (error || it->first <= synced_) {
                    ready.push_back(std::move(it->second));
                    it = pending_.erase(it);
                } else {
                    ++it;
                }
            }
            lock.unlock();
            for (auto& done : ready) done(error);
            lock.lock();
        }
    }

    const std::filesystem::path path_;
    const Fd fd_;
    const std::vector<Record> records_;
    std::uint64_t end_;  // the appending thread's own count of the file's size

    mutable std::mutex mutex_;  // guards what follows
    std::condition_variable synced_or_failed_;
    std::uint64_t written_;              // end offset of the records written so far
    std::uint64_t written_records_ = 0;  // records appended by this process
    std::uint64_t durable_records_ = 0;  // of which synced
    std::uint64_t syncs_ = 0;
    // Nothing is known durable at start: the previous process may not have synced its last
    // records; the first sync covers them too.
    std::uint64_t synced_ = 0;
    bool syncing_ = false;
    std::string failure_;           // once set, every append and wait_durable throws it
    std::condition_variable wake_;  // the flusher's: callbacks wait, or stopping
    std::vector<std::pair<std::uint64_t, std::function<void(std::exception_ptr)>>> pending_;
    bool stopping_ = false;
    std::thread flusher_;  // started by the first when_durable() that has to wait
};

}  // namespace

std::unique_ptr<Journal> open_file_journal(const std::filesystem::path& path,
                                           const std::string& seed_fingerprint) {
    constexpr int flags = O_RDWR | O_APPEND | O_CLOEXEC;
    int raw = ::open(path.c_str(), flags);
    if (raw < 0 && errno == ENOENT) raw = ::open(path.c_str(), flags | O_CREAT | O_EXCL, 0644);
    if (raw < 0) fail(path, "cannot open the journal", errno);
    Fd fd(raw);
    // Two processes appending to (and cutting) one journal would destroy it.
    while (::flock(fd.get(), LOCK_EX | LOCK_NB) != 0) {
        if (errno == EINTR) continue;
        if (errno == EWOULDBLOCK) {
            throw JournalError(path.string() + ": the journal is in use by another process");
        }
        fail(path, "cannot lock the journal", errno);
    }

    std::string data = read_all(path, fd.get());
    const std::string header = frame(header_payload(seed_fingerprint));
    // An empty file is new; so is one holding the start of our own header only (the process was
    // killed while creating it, so no record follows).
    if (data.size() < header.size() && std::string_view(header).starts_with(data)) {
        if (!data.empty()) truncate_file(path, fd.get(), 0);
        write_all(path, fd.get(), header);
        sync_file(path, fd.get());
        sync_parent_directory(path);  // the directory entry of a file just created
        data = header;
    }
    const std::size_t first = check_header(path, data, seed_fingerprint);
    auto [records, end] = recover(path, fd.get(), data, first);
    return std::make_unique<FileJournal>(path, std::move(fd), std::move(records), end);
}

}  // namespace cantonlite::journal
