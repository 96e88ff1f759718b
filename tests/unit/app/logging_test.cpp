#include "cantonlite/app/logging.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <memory>
#include <regex>
#include <string>

#include <gtest/gtest.h>
#include <spdlog/spdlog.h>

namespace cantonlite::app {
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
        std::string out;
        char buffer[4096];
        ssize_t n;
        while ((n = ::read(pipe_[0], buffer, sizeof buffer)) > 0) out.append(buffer, n);
        restore_stdout();
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

TEST_F(LoggingTest, TextAccessLineIsWrittenAsItIsLogged) {
    configure_logging(LogConfig{.level = "info", .format = LogFormat::text});

    make_access_log(LogFormat::text)(record);

    EXPECT_PRED2(matches, written(),
                 time_pattern + R"( info  access GET /api/scan/v0/dso-party-id 200 92B 116us )"
                                R"(127\.0\.0\.1:39218\n)");
}

TEST_F(LoggingTest, JsonAccessLineHasTheRecordAsFields) {
    configure_logging(LogConfig{.level = "info", .format = LogFormat::json});

    make_access_log(LogFormat::json)(record);

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

    make_access_log(LogFormat::json)(odd);

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

    make_access_log(LogFormat::text)(record);

    EXPECT_EQ(written(), "");
}

}  // namespace
}  // namespace cantonlite::app
