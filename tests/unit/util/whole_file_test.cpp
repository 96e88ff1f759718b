#include "cantonlite/util/whole_file.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <filesystem>
#include <optional>
#include <string>
#include <thread>
#include <utility>

#include <gtest/gtest.h>

#include "temp_dir.hpp"

namespace cantonlite::util::whole_file_test {
namespace {

namespace fs = std::filesystem;

// A folder of its own for each test.
class WholeFile : public ::testing::Test {
  protected:
    cantonlite::test_support::TempDir folder_{
        std::string("whole-file-") +
        ::testing::UnitTest::GetInstance()->current_test_info()->name()};
    const fs::path& dir_ = folder_.path;
};

// Every byte value, and more than a page, so that the mapping's end is not a page's.
std::string sample_bytes(std::size_t n) {
    std::string bytes(n, '\0');
    for (std::size_t i = 0; i < n; ++i) bytes[i] = static_cast<char>((i * 131 + 7) % 256);
    return bytes;
}

TEST_F(WholeFile, AMappedFileHoldsTheBytesReadFileReads) {
    const fs::path file = dir_ / "a.state";
    const std::string bytes = sample_bytes(3 * 4096 + 17);
    ASSERT_EQ(write_file_atomically(file, bytes), std::nullopt);
    const std::optional<MappedFile> mapped = MappedFile::open(file);
    ASSERT_TRUE(mapped.has_value());
    EXPECT_EQ(mapped->bytes(), bytes);
    EXPECT_EQ(mapped->bytes(), read_file(file).value());
}

// Its pages let go (once read), the mapping reads the same bytes, faulted in again from the file.
TEST_F(WholeFile, AMappedFilesPagesLetGoReadAsBefore) {
    const fs::path file = dir_ / "b.state";
    const std::string bytes = sample_bytes(6 * 4096 + 5);
    ASSERT_EQ(write_file_atomically(file, bytes), std::nullopt);
    const std::optional<MappedFile> mapped = MappedFile::open(file);
    ASSERT_TRUE(mapped.has_value());
    EXPECT_EQ(mapped->bytes(), bytes);
    mapped->release_pages();
    EXPECT_EQ(mapped->bytes(), bytes);
    mapped->release_pages();
    EXPECT_EQ(mapped->bytes().substr(4096, 100), bytes.substr(4096, 100));
    ASSERT_EQ(write_file_atomically(dir_ / "empty", ""), std::nullopt);
    MappedFile::open(dir_ / "empty")->release_pages();  // no mapping: nothing to do
}

TEST_F(WholeFile, ReadFileBytesReadsWhatReadFileReads) {
    const fs::path file = dir_ / "c.state";
    const std::string bytes = sample_bytes(5 * 4096 + 3);
    ASSERT_EQ(write_file_atomically(file, bytes), std::nullopt);
    EXPECT_EQ(read_file_bytes(file).value().view(), bytes);
    ASSERT_EQ(write_file_atomically(file, ""), std::nullopt);
    EXPECT_EQ(read_file_bytes(file).value().view(), "");
    EXPECT_FALSE(read_file_bytes(dir_ / "missing").has_value());
    EXPECT_FALSE(read_file_bytes(dir_).has_value());
}

TEST_F(WholeFile, AnEmptyFileMapsAsNoBytes) {
    const fs::path file = dir_ / "empty";
    ASSERT_EQ(write_file_atomically(file, ""), std::nullopt);
    const std::optional<MappedFile> mapped = MappedFile::open(file);
    ASSERT_TRUE(mapped.has_value());
    EXPECT_TRUE(mapped->bytes().empty());
}

TEST_F(WholeFile, AMissingFileOrAFolderIsNotMapped) {
    EXPECT_FALSE(MappedFile::open(dir_ / "missing").has_value());
    EXPECT_FALSE(MappedFile::open(dir_).has_value());
}

// write_file_atomically renames a new file over the old one: a mapping of the old one keeps its
// bytes (no SIGBUS, no mixed bytes), which is why this process maps only files written that way.
TEST_F(WholeFile, AFileWrittenOverWhileMappedKeepsItsBytesInTheMapping) {
    const fs::path file = dir_ / "b.state";
    const std::string before = sample_bytes(10000);
    ASSERT_EQ(write_file_atomically(file, before), std::nullopt);
    std::optional<MappedFile> mapped = MappedFile::open(file);
    ASSERT_TRUE(mapped.has_value());
    ASSERT_EQ(write_file_atomically(file, "short"), std::nullopt);
    EXPECT_EQ(mapped->bytes(), before);
    EXPECT_EQ(read_file(file).value(), "short");
    // Moved, the mapping goes with the new owner, once.
    MappedFile moved = std::move(*mapped);
    mapped.reset();
    EXPECT_EQ(moved.bytes(), before);
}

// f() in a child process (a lease is broken by another process, not by its own), true when it
// returned true.
template <class F>
bool in_another_process(F f) {
    const pid_t child = ::fork();
    if (child == 0) ::_exit(f() ? 0 : 1);
    int status = 0;
    ::waitpid(child, &status, 0);
    return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

// Where the kernel's notice of a lease's break (SIGIO) is written, for the test to wait on.
int lease_broken[2] = {-1, -1};

// A running daemon maps a file only under a read lease: a truncation (or an open for writing) by
// another process waits until the mapping goes, so no read of it can raise SIGBUS.
TEST_F(WholeFile, ALeasedMappingKeepsItsFileWholeUntilItGoes) {
    const fs::path file = dir_ / "leased.state";
    const std::string bytes = sample_bytes(3 * 4096 + 5);
    ASSERT_EQ(write_file_atomically(file, bytes), std::nullopt);
    ASSERT_EQ(::pipe2(lease_broken, O_CLOEXEC), 0);
    struct sigaction notice {};
    struct sigaction before {};
    notice.sa_handler = [](int) {
        const char b = 1;
        (void)!::write(lease_broken[1], &b, 1);
    };
    ::sigemptyset(&notice.sa_mask);
    ASSERT_EQ(::sigaction(SIGIO, &notice, &before), 0);  // open_leased keeps a handler
    std::optional<MappedFile> mapped = MappedFile::open_leased(file);
    ASSERT_TRUE(mapped.has_value());

    std::atomic<bool> truncated{false};
    std::thread truncating(
        [&] { truncated = in_another_process([&] { return ::truncate(file.c_str(), 0) == 0; }); });
    // The kernel's notice that the truncation waits on the lease (10 s at most: a failure).
    pollfd broken{.fd = lease_broken[0], .events = POLLIN, .revents = 0};
    int polled = 0;
    while ((polled = ::poll(&broken, 1, 10'000)) < 0 && errno == EINTR) {
    }
    EXPECT_EQ(polled, 1) << "no lease break was signalled";
    EXPECT_FALSE(truncated.load());
    EXPECT_EQ(mapped->bytes(), bytes);  // every page, read while the truncation waits

    mapped.reset();
    // The lease is gone with the mapping: another process's open for writing does not wait.
    EXPECT_TRUE(in_another_process([&] {
        return ::open(file.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC) >= 0;
    })) << "the lease outlived its mapping";
    truncating.join();
    EXPECT_TRUE(truncated.load());
    EXPECT_EQ(fs::file_size(file), 0U);
    ::sigaction(SIGIO, &before, nullptr);
    ::close(lease_broken[0]);
    ::close(lease_broken[1]);
}

// A lease cannot be had on a file another descriptor has open for writing, nor on what is not a
// regular file: the caller then reads it.
TEST_F(WholeFile, NoLeasedMappingOfAFileOpenForWritingOrOfAFolder) {
    const fs::path file = dir_ / "written.state";
    ASSERT_EQ(write_file_atomically(file, sample_bytes(100)), std::nullopt);
    const int writer = ::open(file.c_str(), O_WRONLY | O_CLOEXEC);
    ASSERT_GE(writer, 0);
    EXPECT_FALSE(MappedFile::open_leased(file).has_value());
    ::close(writer);
    EXPECT_TRUE(MappedFile::open_leased(file).has_value());
    EXPECT_FALSE(MappedFile::open_leased(dir_).has_value());
    EXPECT_FALSE(MappedFile::open_leased(dir_ / "missing").has_value());
}

TEST_F(WholeFile, AnAtomicFileWrittenInPartsIsWholeOnceCommitted) {
    const fs::path file = dir_ / "parts";
    ASSERT_EQ(write_file_atomically(file, "before"), std::nullopt);
    {
        AtomicFile out(file);
        out.write("0000");
        out.write("-middle-");
        out.start_writeback();
        out.write("end");
        out.write_at(0, "head");
        EXPECT_EQ(read_file(file).value(), "before");  // untouched until the commit
        EXPECT_EQ(out.commit(), std::nullopt);
    }
    EXPECT_EQ(read_file(file).value(), "head-middle-end");
    EXPECT_FALSE(fs::exists(dir_ / "parts.partial"));
}

TEST_F(WholeFile, AnAtomicFileNotCommittedLeavesNothingBehind) {
    const fs::path file = dir_ / "abandoned";
    ASSERT_EQ(write_file_atomically(file, "kept"), std::nullopt);
    {
        AtomicFile out(file);
        out.write("never seen");
        EXPECT_TRUE(fs::exists(dir_ / "abandoned.partial"));
    }
    EXPECT_EQ(read_file(file).value(), "kept");
    EXPECT_FALSE(fs::exists(dir_ / "abandoned.partial"));
}

TEST_F(WholeFile, AnAtomicFileThatCannotBeWrittenSaysWhichAndWhy) {
    const fs::path file = dir_ / "missing" / "x.state";
    AtomicFile out(file);
    out.write("bytes");
    out.write_at(0, "b");
    EXPECT_EQ(out.commit(), (dir_ / "missing" / "x.state.partial").string() +
                                ": cannot be written: No such file or directory");
    EXPECT_FALSE(fs::exists(dir_ / "missing"));
}

}  // namespace
}  // namespace cantonlite::util::whole_file_test
