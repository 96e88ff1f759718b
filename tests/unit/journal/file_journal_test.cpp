#include "cantonlite/journal/journal.hpp"

#include <unistd.h>

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <filesystem>
#include <fstream>
#include <future>
#include <iterator>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

namespace cantonlite::journal::file_journal_test {
namespace {

namespace fs = std::filesystem;

const std::string seed = "5d41402abc4b2a76b9719d911017c592aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
const std::string other_seed = "7c211433f02071597741e6ff5a8ea34789abbf43bbbbbbbbbbbbbbbbbbbbbbbb";

std::string read_bytes(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_bytes(const fs::path& path, const std::string& bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << bytes;
}

std::vector<std::string> payloads(const Journal& journal) {
    std::vector<std::string> out;
    for (const auto& record : journal.recovered()) out.push_back(record.payload);
    return out;
}

class FileJournalTest : public ::testing::Test {
  protected:
    void SetUp() override {
        static std::atomic<int> counter{0};
        const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
        dir_ = fs::temp_directory_path() / ("cantonlite-journal-" + std::to_string(::getpid()) +
                                            "-" + std::to_string(counter++) + "-" + info->name());
        fs::remove_all(dir_);
        fs::create_directories(dir_);
        path_ = dir_ / "journal";
    }
    void TearDown() override {
        std::error_code ignored;
        fs::remove_all(dir_, ignored);
    }

    // A journal holding `records`; returns the offset each record starts at.
    std::vector<std::uint64_t> write_journal(const std::vector<std::string>& records) {
        const auto journal = open_file_journal(path_, seed);
        std::vector<std::uint64_t> offsets;
        std::uint64_t end = fs::file_size(path_);
        for (const auto& record : records) {
            offsets.push_back(end);
            end = journal->append(record);
        }
        journal->wait_durable(end);
        return offsets;
    }

    fs::path dir_;
    fs::path path_;
};

TEST_F(FileJournalTest, NewFileStartsWithTheHeaderRecord) {
    const auto journal = open_file_journal(path_, seed);
    EXPECT_TRUE(journal->recovered().empty());
    const std::string header = R"({"cantonlite_journal":1,"seed_sha256":")" + seed + R"("})";
    const std::string bytes = read_bytes(path_);
    ASSERT_EQ(bytes.size(), 8 + 1 + std::to_string(header.size()).size() + 1 + header.size() + 1);
    EXPECT_EQ(bytes.substr(8), " " + std::to_string(header.size()) + " " + header + "\n");
    EXPECT_EQ(bytes.find_first_not_of("0123456789abcdef"), 8U);
}

TEST_F(FileJournalTest, RecordsAreFramedWithCrcAndLength) {
    const auto journal = open_file_journal(path_, seed);
    const auto start = fs::file_size(path_);
    const auto ticket = journal->append("hello");
    journal->wait_durable(ticket);
    const std::string line = "3610a686 5 hello\n";  // CRC-32 of "hello"
    EXPECT_EQ(ticket, start + line.size());
    EXPECT_EQ(read_bytes(path_).substr(start), line);
}

TEST_F(FileJournalTest, RoundTripsRecordsWithNewlinesAndEmptyPayloads) {
    const std::vector<std::string> records = {
        R"({"write":1})",  "", "two\nlines\n", "\n", std::string("nul\0byte", 8), "",
        "12345678 3 abc\n"};
    std::vector<std::uint64_t> tickets;
    std::uint64_t header_end = 0;
    {
        const auto journal = open_file_journal(path_, seed);
        header_end = fs::file_size(path_);
        for (const auto& record : records) tickets.push_back(journal->append(record));
        for (const auto ticket : tickets) journal->wait_durable(ticket);
        journal->wait_durable(tickets.front());  // already durable
        EXPECT_TRUE(journal->recovered().empty());
    }
    EXPECT_EQ(fs::file_size(path_), tickets.back());
    for (int round = 0; round < 2; ++round) {  // reopening changes nothing
        const auto journal = open_file_journal(path_, seed);
        EXPECT_EQ(payloads(*journal), records);
        ASSERT_EQ(journal->recovered().size(), records.size());
        EXPECT_EQ(journal->recovered()[0].offset, header_end);
        for (std::size_t i = 1; i < records.size(); ++i) {
            EXPECT_EQ(journal->recovered()[i].offset, tickets[i - 1]);
        }
        EXPECT_EQ(fs::file_size(path_), tickets.back());
    }
}

TEST_F(FileJournalTest, CountsItsRecordsAndSyncs) {
    const auto journal = open_file_journal(path_, seed);
    journal->wait_durable(journal->append("a"));
    journal->wait_durable(journal->append("b"));
    const Journal::Stats stats = journal->stats();
    EXPECT_EQ(stats.records_written, 2U);
    EXPECT_EQ(stats.commits, 2U);
    EXPECT_EQ(stats.records_followed, 0U);
    EXPECT_TRUE(stats.available);
}

TEST_F(FileJournalTest, AppendsAfterReopenFollowTheRecoveredRecords) {
    write_journal({"a", "b"});
    {
        const auto journal = open_file_journal(path_, seed);
        const auto size = fs::file_size(path_);
        const auto ticket = journal->append("c");
        EXPECT_EQ(ticket, size + std::string("xxxxxxxx 1 c\n").size());
        journal->wait_durable(ticket);
    }
    const auto journal = open_file_journal(path_, seed);
    EXPECT_EQ(payloads(*journal), (std::vector<std::string>{"a", "b", "c"}));
}

TEST_F(FileJournalTest, EmptyFileIsTreatedAsNew) {
    write_bytes(path_, "");
    {
        const auto journal = open_file_journal(path_, seed);
        EXPECT_TRUE(journal->recovered().empty());
        journal->wait_durable(journal->append("x"));
    }
    EXPECT_EQ(payloads(*open_file_journal(path_, seed)), std::vector<std::string>{"x"});
}

TEST_F(FileJournalTest, StartOfItsOwnHeaderIsTreatedAsNew) {
    { const auto journal = open_file_journal(path_, seed); }
    const std::string header = read_bytes(path_);
    write_bytes(path_, header.substr(0, header.size() - 5));  // killed while creating
    const auto journal = open_file_journal(path_, seed);
    EXPECT_TRUE(journal->recovered().empty());
    EXPECT_EQ(read_bytes(path_), header);
}

TEST_F(FileJournalTest, JournalOfAnotherSeedIsRefused) {
    write_journal({"a"});
    const auto before = read_bytes(path_);
    try {
        (void)open_file_journal(path_, other_seed);
        FAIL() << "expected JournalError";
    } catch (const JournalError& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find(path_.string()), std::string::npos) << what;
        EXPECT_NE(what.find("another seed (sha256 " + seed + ")"), std::string::npos) << what;
        EXPECT_NE(what.find("this one (sha256 " + other_seed + ")"), std::string::npos) << what;
        EXPECT_EQ(what.find('\n'), std::string::npos) << what;
    }
    EXPECT_EQ(read_bytes(path_), before);  // untouched
}

TEST_F(FileJournalTest, UnreadableHeaderIsRefused) {
    for (const std::string& bytes : {std::string("hello world\n"), std::string("x"),
                                     std::string("00000000 2 {}\n"),     // bad CRC
                                     std::string("352441c2 3 abc\n"),    // not JSON
                                     std::string("a3a6bf43 2 {}\n")}) {  // no version, no seed
        write_bytes(path_, bytes);
        try {
            (void)open_file_journal(path_, seed);
            FAIL() << "expected JournalError for " << bytes;
        } catch (const JournalError& e) {
            EXPECT_NE(std::string(e.what()).find(path_.string()), std::string::npos) << e.what();
        }
        EXPECT_EQ(read_bytes(path_), bytes);
    }
}

TEST_F(FileJournalTest, UnsupportedFormatVersionIsRefused) {
    const std::string header = R"({"cantonlite_journal":2,"seed_sha256":")" + seed + R"("})";
    {  // frame it with the journal's own framing: append it to a scratch journal
        const auto scratch = open_file_journal(dir_ / "scratch", seed);
        const auto start = fs::file_size(dir_ / "scratch");
        scratch->wait_durable(scratch->append(header));
        write_bytes(path_, read_bytes(dir_ / "scratch").substr(start));
    }
    EXPECT_THROW((void)open_file_journal(path_, seed), JournalError);
}

TEST_F(FileJournalTest, MissingDirectoryIsAJournalError) {
    EXPECT_THROW((void)open_file_journal(dir_ / "no-such-dir" / "journal", seed), JournalError);
}

TEST_F(FileJournalTest, SecondOpenWhileInUseIsRefused) {
    const auto journal = open_file_journal(path_, seed);
    try {
        (void)open_file_journal(path_, seed);
        FAIL() << "expected JournalError";
    } catch (const JournalError& e) {
        EXPECT_NE(std::string(e.what()).find("in use"), std::string::npos) << e.what();
    }
}

TEST_F(FileJournalTest, TornLastRecordIsCutAtEveryTruncationPoint) {
    const auto offsets = write_journal({"first", "second\nwith newline", "third\nlast\n"});
    const std::string full = read_bytes(path_);
    const std::uint64_t last = offsets.back();
    for (std::uint64_t cut = last + 1; cut < full.size(); ++cut) {
        SCOPED_TRACE("cut at " + std::to_string(cut));
        write_bytes(path_, full.substr(0, cut));
        {
            const auto journal = open_file_journal(path_, seed);
            EXPECT_EQ(payloads(*journal),
                      (std::vector<std::string>{"first", "second\nwith newline"}));
            EXPECT_EQ(fs::file_size(path_), last);
            const auto ticket = journal->append("again");
            EXPECT_EQ(ticket, fs::file_size(path_));
        }
        const auto journal = open_file_journal(path_, seed);
        EXPECT_EQ(payloads(*journal),
                  (std::vector<std::string>{"first", "second\nwith newline", "again"}));
        EXPECT_EQ(journal->recovered().back().offset, last);
    }
}

TEST_F(FileJournalTest, FlippedByteInLastRecordIsCut) {
    const auto offsets = write_journal({"first", "second", "third record"});
    const std::string full = read_bytes(path_);
    // Every byte of the last frame: the checksum, the length, the payload and the newline.
    for (std::uint64_t at = offsets.back(); at < full.size(); ++at) {
        SCOPED_TRACE("flipped byte " + std::to_string(at));
        std::string damaged = full;
        damaged[at] = static_cast<char>(damaged[at] ^ 0x01);
        write_bytes(path_, damaged);
        {
            const auto journal = open_file_journal(path_, seed);
            EXPECT_EQ(payloads(*journal), (std::vector<std::string>{"first", "second"}));
            EXPECT_EQ(fs::file_size(path_), offsets.back());
            (void)journal->append("again");
        }
        EXPECT_EQ(payloads(*open_file_journal(path_, seed)),
                  (std::vector<std::string>{"first", "second", "again"}));
    }
}

TEST_F(FileJournalTest, DamagedRecordFollowedByAValidOneIsRefused) {
    const auto offsets = write_journal({"first", "second record", "third"});
    const std::string full = read_bytes(path_);
    const std::uint64_t middle = offsets[1];
    const std::uint64_t payload_byte = middle + std::string("xxxxxxxx 13 sec").size();
    const std::uint64_t length_byte = middle + std::string("xxxxxxxx 1").size();
    const std::uint64_t newline_byte = offsets[2] - 1;
    for (const std::uint64_t at : {payload_byte, length_byte, newline_byte, middle}) {
        SCOPED_TRACE("flipped byte " + std::to_string(at));
        std::string damaged = full;
        damaged[at] = static_cast<char>(damaged[at] ^ 0x04);
        write_bytes(path_, damaged);
        try {
            (void)open_file_journal(path_, seed);
            FAIL() << "expected JournalError";
        } catch (const JournalError& e) {
            const std::string what = e.what();
            EXPECT_NE(what.find(path_.string()), std::string::npos) << what;
            EXPECT_NE(what.find("record at byte " + std::to_string(middle) + " is damaged"),
                      std::string::npos)
                << what;
            EXPECT_NE(what.find("refusing to start"), std::string::npos) << what;
        }
        EXPECT_EQ(read_bytes(path_), damaged);  // nothing cut
    }
}

TEST_F(FileJournalTest, ConcurrentWaitersShareSyncsWhileOneThreadAppends) {
    constexpr int record_count = 2000;
    constexpr int waiter_count = 4;
    {
        const auto journal = open_file_journal(path_, seed);
        std::mutex mutex;
        std::condition_variable more;
        std::deque<std::uint64_t> tickets;
        bool done = false;
        std::atomic<int> durable{0};

        std::vector<std::thread> waiters;
        for (int w = 0; w < waiter_count; ++w) {
            waiters.emplace_back([&] {
                for (;;) {
                    std::unique_lock lock(mutex);
                    more.wait(lock, [&] { return done || !tickets.empty(); });
                    if (tickets.empty()) return;
                    const auto ticket = tickets.front();
                    tickets.pop_front();
                    lock.unlock();
                    journal->wait_durable(ticket);
                    ++durable;
                }
            });
        }
        std::thread appender([&] {
            for (int i = 0; i < record_count; ++i) {
                const auto ticket = journal->append("record " + std::to_string(i));
                {
                    const std::lock_guard lock(mutex);
                    tickets.push_back(ticket);
                }
                more.notify_one();
            }
            {
                const std::lock_guard lock(mutex);
                done = true;
            }
            more.notify_all();
        });
        appender.join();
        for (auto& waiter : waiters) waiter.join();
        EXPECT_EQ(durable.load(), record_count);
    }
    const auto journal = open_file_journal(path_, seed);
    ASSERT_EQ(journal->recovered().size(), static_cast<std::size_t>(record_count));
    for (int i = 0; i < record_count; ++i) {
        EXPECT_EQ(journal->recovered()[i].payload, "record " + std::to_string(i));
    }
}

TEST_F(FileJournalTest, WhenDurableCallsBackOnceTheRecordIsSyncedWithoutBlocking) {
    constexpr int record_count = 500;
    std::atomic<int> confirmed{0};
    std::atomic<int> errors{0};
    {
        const auto journal = open_file_journal(path_, seed);
        std::promise<void> all;
        for (int i = 0; i < record_count; ++i) {
            const auto ticket = journal->append("record " + std::to_string(i));
            journal->when_durable(ticket, [&](std::exception_ptr error) {
                if (error) ++errors;
                if (++confirmed == record_count) all.set_value();
            });
        }
        ASSERT_EQ(all.get_future().wait_for(std::chrono::seconds(30)), std::future_status::ready);
        // Already durable: called at once, on this thread.
        bool at_once = false;
        journal->when_durable(fs::file_size(path_), [&](std::exception_ptr) { at_once = true; });
        EXPECT_TRUE(at_once);
    }
    EXPECT_EQ(errors.load(), 0);
    EXPECT_EQ(open_file_journal(path_, seed)->recovered().size(),
              static_cast<std::size_t>(record_count));
}

TEST_F(FileJournalTest, PendingCallbacksRunBeforeTheJournalIsGone) {
    std::atomic<int> confirmed{0};
    {
        const auto journal = open_file_journal(path_, seed);
        for (int i = 0; i < 50; ++i) {
            journal->when_durable(journal->append("r" + std::to_string(i)),
                                  [&](std::exception_ptr error) {
                                      if (!error) ++confirmed;
                                  });
        }
    }
    EXPECT_EQ(confirmed.load(), 50);
}

}  // namespace
}  // namespace cantonlite::journal::file_journal_test
