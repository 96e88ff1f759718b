#include "cantonlite/app/line_formatter.hpp"

#include <chrono>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <spdlog/pattern_formatter.h>

namespace cantonlite::app::line_formatter_test {
namespace {

using Clock = spdlog::log_clock;

struct LineCase {
    std::int64_t micros_since_epoch;
    spdlog::level::level_enum level;
};

// Lines in both forms, by LineFormatter and by the spdlog patterns it stands for.
class LineFormatterTest : public testing::TestWithParam<LineCase> {
  protected:
    static std::string line(spdlog::formatter& formatter, const LineCase& c) {
        const spdlog::details::log_msg msg(
            Clock::time_point(std::chrono::microseconds(c.micros_since_epoch)), {}, "access",
            c.level, R"(GET /api/scan/livez 200 0B 162us 127.0.0.1:39216)");
        spdlog::memory_buf_t out;
        formatter.format(msg, out);
        return {out.data(), out.size()};
    }
};

TEST_P(LineFormatterTest, TextLineIsThePatternsLine) {
    LineFormatter mine(LogFormat::text);
    spdlog::pattern_formatter pattern("%Y-%m-%dT%H:%M:%S.%fZ %-5l %n %v",
                                      spdlog::pattern_time_type::utc);

    EXPECT_EQ(line(mine, GetParam()), line(pattern, GetParam()));
}

TEST_P(LineFormatterTest, JsonLineIsThePatternsLine) {
    LineFormatter mine(LogFormat::json);
    spdlog::pattern_formatter pattern(
        R"({"time":"%Y-%m-%dT%H:%M:%S.%fZ","level":"%l","logger":"%n",%v})",
        spdlog::pattern_time_type::utc);

    EXPECT_EQ(line(mine, GetParam()), line(pattern, GetParam()));
}

INSTANTIATE_TEST_SUITE_P(TimesAndLevels, LineFormatterTest,
                         testing::Values(LineCase{1'795'715'918'693'712, spdlog::level::info},
                                         LineCase{1'795'715'918'000'000, spdlog::level::info},
                                         LineCase{1'795'715'918'999'999, spdlog::level::warn},
                                         LineCase{1'795'715'919'000'001, spdlog::level::err},
                                         LineCase{951'782'400'000'123,
                                                  spdlog::level::debug},  // 2000-02-29
                                         LineCase{1'000'007, spdlog::level::critical}));

TEST(LineFormatter, FollowsTheSecondsOfSuccessiveLines) {
    LineFormatter formatter(LogFormat::text);
    std::vector<std::string> times;

    for (const std::int64_t micros :
         {1'795'715'918'999'999LL, 1'795'715'919'000'000LL, 1'795'715'918'500'000LL}) {
        const spdlog::details::log_msg msg(Clock::time_point(std::chrono::microseconds(micros)), {},
                                           "access", spdlog::level::info, "x");
        spdlog::memory_buf_t out;
        formatter.format(msg, out);
        times.emplace_back(out.data(), 27);
    }

    EXPECT_EQ(times, (std::vector<std::string>{"2026-11-26T17:58:38.999999Z",
                                               "2026-11-26T17:58:39.000000Z",
                                               "2026-11-26T17:58:38.500000Z"}));
}

}  // namespace
}  // namespace cantonlite::app::line_formatter_test
