#include "cantonlite/app/progress_line.hpp"

#include <chrono>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

namespace cantonlite::app {
namespace {

using namespace std::chrono_literals;
using Time = std::chrono::steady_clock::time_point;

// A line on a clock the test moves.
struct Fixture {
    Time now{};
    std::ostringstream out;
    ProgressLine line(ProgressLine::Unit unit, bool terminal, bool always) {
        return ProgressLine("loading seed s.json", unit, out, terminal, always,
                            [this] { return now; });
    }
};

TEST(ProgressLine, WritesNothingWithinTheFirstSecond) {
    Fixture f;
    ProgressLine line = f.line(ProgressLine::Unit::bytes, false, false);
    f.now += 999ms;
    line.update(1 << 20, 4 << 20);
    line.finish();
    EXPECT_EQ(f.out.str(), "");
}

TEST(ProgressLine, WritesThePercentageAndTheRateOnceASecond) {
    Fixture f;
    ProgressLine line = f.line(ProgressLine::Unit::bytes, false, false);
    f.now += 1s;
    line.update(1 << 20, 4 << 20);  // 1 MiB of 4 in 1 s
    f.now += 500ms;
    line.update(3 << 19, 4 << 20);  // not yet a second since the last line
    f.now += 500ms;
    line.update(2 << 20, 4 << 20);
    line.update(4 << 20, 4 << 20);
    f.now += 2s;
    line.finish();
    EXPECT_EQ(f.out.str(),
              "cantonlite: loading seed s.json: 25% (1.0 of 4.0 MiB, 1.0 MiB/s)\n"
              "cantonlite: loading seed s.json: 50% (2.0 of 4.0 MiB, 1.0 MiB/s)\n"
              "cantonlite: loading seed s.json: 100% (4.0 MiB in 4.00 s, 1.0 MiB/s)\n");
}

TEST(ProgressLine, RewritesOneLineOnATerminal) {
    Fixture f;
    ProgressLine line = f.line(ProgressLine::Unit::records, true, false);
    f.now += 2s;
    line.update(500, 1000);
    line.update(1000, 1000);
    line.finish();
    EXPECT_EQ(f.out.str(),
              "\rcantonlite: loading seed s.json: 50% (500 of 1000 records, 250 records/s)\x1b[K"
              "\rcantonlite: loading seed s.json: 100% (1000 records in 2.00 s, "
              "500 records/s)\x1b[K\n");
}

TEST(ProgressLine, AlwaysWritesTheLastLineWhenAskedFor) {
    Fixture f;
    ProgressLine line = f.line(ProgressLine::Unit::records, false, true);
    f.now += 250ms;
    line.update(10, 10);
    line.finish();
    EXPECT_EQ(f.out.str(),
              "cantonlite: loading seed s.json: 100% (10 records in 0.25 s, 40 records/s)\n");
}

TEST(ProgressLine, HasNothingToReportToWhenItShowsNothing) {
    Fixture f;
    EXPECT_FALSE(f.line(ProgressLine::Unit::bytes, false, false).as_load_progress());
    EXPECT_TRUE(f.line(ProgressLine::Unit::bytes, true, false).as_load_progress());
    EXPECT_TRUE(f.line(ProgressLine::Unit::bytes, false, true).as_load_progress());
}

}  // namespace
}  // namespace cantonlite::app
