#include "cantonlite/app/logging.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <memory>
#include <regex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>
#include <spdlog/spdlog.h>

namespace cantonlite::app::logging_test {
namespace {

const net::AccessRecord record{.method = "GET",
                               .target = "/api/scan/v0/dso-party-id",
                               .status = 200,
                               .bytes = 92,
                               .micros = 116,
                               .remote = "127.0.0.1:39218"};

// Points stdout at a pipe for the test; written() takes what reached it and points stdout back, so
// that failures print as usual. The default logger is restored afterwards.
class LoggingTest : public ::testing::Test {
  protected:
    void SetUp() override {
        saved_logger_ = spdlog::default_logger();
        std::fflush(stdout);
        ASSERT_EQ(::pipe2(pipe_, O_NONBLOCK), 0);
        ASSERT_GE(::fcntl(pipe_[1], F_SETPIPE_SZ, 1 << 20), 1 << 20);  // room for 64 KiB and more
        saved_stdout_ = ::dup(STDOUT_FILENO);
        ::dup2(pipe_[1], STDOUT_FILENO);
    }
    void TearDown() override {
        restore_stdout();
        ::close(pipe_[0]);
        ::close(pipe_[1]);
        spdlog::set_default_logger(saved_logger_);
    }

    // What reached the pipe, without flushing anything first.
    std::string written() {
        std::string out = written_so_far();
        restore_stdout();
        return out;
    }

    // What reached the pipe since the last call; stdout stays on the pipe.
    std::string written_so_far() {
        std::string out;
        char buffer[4096];
        ssize_t n;
        while ((n = ::read(pipe_[0], buffer, sizeof buffer)) > 0) out.append(buffer, n);
        return out;
    }

  private:
    void restore_stdout() {
        if (saved_stdout_ < 0) return;
        ::dup2(saved_stdout_, STDOUT_FILENO);
        ::close(saved_stdout_);
        saved_stdout_ = -1;
    }

    int pipe_[2] = {-1, -1};
    int saved_stdout_ = -1;
    std::shared_ptr<spdlog::logger> saved_logger_;
};

// True when all of `text` matches `pattern`; EXPECT_PRED2 prints both when not.
bool matches(const std::string& text, const std::string& pattern) {
    return std::regex_match(text, std::regex(pattern));
}

const std::string time_pattern = R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z)";

TEST_F(LoggingTest, TextAccessLineIsWrittenWhenFlushed) {
    configure_logging(LogConfig{.level = "info", .format = LogFormat::text});

    const AccessLog access = make_access_log(LogFormat::text);
    access.log(record);
    access.flush();

    EXPECT_PRED2(matches, written(),
                 time_pattern + R"( info  access GET /api/scan/v0/dso-party-id 200 92B 116us )"
                                R"(127\.0\.0\.1:39218\n)");
}

TEST_F(LoggingTest, JsonAccessLineHasTheRecordAsFields) {
    configure_logging(LogConfig{.level = "info", .format = LogFormat::json});

    const AccessLog access = make_access_log(LogFormat::json);
    access.log(record);
    access.flush();

    EXPECT_PRED2(matches, written(),
                 R"(\{"time":")" + time_pattern +
                     R"(","level":"info","logger":"access","method":"GET",)"
                     R"("target":"/api/scan/v0/dso-party-id","status":200,"bytes":92,"micros":116,)"
                     R"("remote":"127\.0\.0\.1:39218"\}\n)");
}

TEST_F(LoggingTest, JsonAccessLineEscapesTheTargetAndReplacesBytesThatAreNotUtf8) {
    configure_logging(LogConfig{.level = "info", .format = LogFormat::json});
    net::AccessRecord odd = record;
    odd.target = "/x\"y\\z\x01\xff";

    const AccessLog access = make_access_log(LogFormat::json);
    access.log(odd);
    access.flush();

    EXPECT_PRED2(matches, written(),
                 R"(.*,"target":"/x\\"y\\\\z\\u0001\xEF\xBF\xBD","status":200,.*\n)");
}

TEST_F(LoggingTest, DefaultLoggerLinesAreWrittenAsTheyAreLogged) {
    configure_logging(LogConfig{.level = "info", .format = LogFormat::json});

    spdlog::warn("say \"{}\"", "hi");

    EXPECT_PRED2(matches, written(),
                 R"(\{"time":")" + time_pattern +
                     R"(","level":"warning","logger":"cantonlite","msg":"say \\"hi\\""\}\n)");
}

TEST_F(LoggingTest, NoAccessLinesAboveInfo) {
    configure_logging(LogConfig{.level = "warn", .format = LogFormat::text});

    const AccessLog access = make_access_log(LogFormat::text);
    access.log(record);
    access.flush();

    EXPECT_EQ(written(), "");
}

// The access log holds its lines until the server flushes it (after the responses that were ready
// together), then writes them in the order they were logged.
TEST_F(LoggingTest, AccessLinesAreHeldUntilTheFlush) {
    configure_logging(LogConfig{.level = "info", .format = LogFormat::text});
    const AccessLog access = make_access_log(LogFormat::text);
    net::AccessRecord second = record;
    second.target = "/api/scan/livez";

    access.log(record);
    access.log(second);
    EXPECT_EQ(written_so_far(), "");
    access.flush();

    EXPECT_PRED2(matches, written(),
                 time_pattern +
                     R"( info  access GET /api/scan/v0/dso-party-id 200 92B 116us .*\n)" +
                     time_pattern + R"( info  access GET /api/scan/livez 200 92B 116us .*\n)");
}

// However long the server takes to flush, no more than 64 KiB of lines are held.
TEST_F(LoggingTest, AccessLinesOverSixtyFourKibAreWrittenWithoutAFlush) {
    configure_logging(LogConfig{.level = "info", .format = LogFormat::text});
    const AccessLog access = make_access_log(LogFormat::text);
    const std::string target = "/" + std::string(999, 'x');
    net::AccessRecord big = record;
    big.target = target;

    for (int i = 0; i < 70; ++i) access.log(big);

    const std::string before_flush = written_so_far();
    EXPECT_GE(before_flush.size(), 64U * 1024);
    access.flush();
    const std::string all = before_flush + written();
    EXPECT_EQ(std::count(all.begin(), all.end(), '\n'), 70);
}

// io threads log while the server's deferred flushes run on others: every line arrives, whole.
TEST_F(LoggingTest, ConcurrentAccessLinesAndFlushesLoseNoLine) {
    configure_logging(LogConfig{.level = "info", .format = LogFormat::text});
    const AccessLog access = make_access_log(LogFormat::text);
    constexpr int loggers = 4;
    constexpr int per_logger = 1000;
    std::atomic<bool> done{false};
    std::thread flusher([&] {
        while (!done.load()) access.flush();
    });
    std::vector<std::thread> threads;
    for (int t = 0; t < loggers; ++t) {
        threads.emplace_back([&] {
            for (int i = 0; i < per_logger; ++i) access.log(record);
        });
    }
    for (auto& t : threads) t.join();
    done.store(true);
    flusher.join();
    access.flush();

    const std::string all = written();
    std::istringstream lines(all);
    int count = 0;
    for (std::string line; std::getline(lines, line); ++count) {
        ASSERT_PRED2(matches, line,
                     time_pattern + R"( info  access GET /api/scan/v0/dso-party-id .*)");
    }
    EXPECT_EQ(count, loggers * per_logger);
}

}  // namespace
}  // namespace cantonlite::app::logging_test
