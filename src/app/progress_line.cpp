#include "cantonlite/app/progress_line.hpp"

#include <algorithm>
#include <cstdio>
#include <utility>

namespace cantonlite::app {
namespace {

// 4.6 (MiB, one decimal) or 4 200 (records).
std::string amount(std::uint64_t n, ProgressLine::Unit unit) {
    char text[32];
    if (unit == ProgressLine::Unit::bytes) {
        std::snprintf(text, sizeof text, "%.1f", static_cast<double>(n) / (1024.0 * 1024.0));
    } else {
        std::snprintf(text, sizeof text, "%llu", static_cast<unsigned long long>(n));
    }
    return text;
}

}  // namespace

ProgressLine::ProgressLine(std::string what, Unit unit, std::ostream& out, bool terminal,
                           bool always, Clock clock)
    : what_(std::move(what)),
      unit_(unit),
      out_(out),
      terminal_(terminal),
      always_(always),
      clock_(std::move(clock)),
      start_(clock_()),
      last_line_(start_) {}

void ProgressLine::update(std::uint64_t done, std::uint64_t total) {
    total_ = total;
    // The whole done: finish() says so.
    if (done >= total || clock_() - last_line_ < std::chrono::seconds(1)) return;
    write(done, total, false);
}

void ProgressLine::finish() {
    if (!wrote_ && !always_) return;
    write(total_, total_, true);
}

void ProgressLine::write(std::uint64_t done, std::uint64_t total, bool last) {
    const auto now = clock_();
    last_line_ = now;
    wrote_ = true;
    const double seconds = std::chrono::duration<double>(now - start_).count();
    const char* unit = unit_ == Unit::bytes     ? " MiB"
                       : unit_ == Unit::records ? " records"
                                                : " updates";
    const int percent =
        total == 0 ? 100 : static_cast<int>(std::min<std::uint64_t>(100, done * 100 / total));
    std::string line = "cantonlite: " + what_ + ": " + std::to_string(percent) + "% (";
    if (last) {
        char took[32];
        std::snprintf(took, sizeof took, "%.2f", seconds);
        line += amount(total, unit_) + unit + " in " + took + " s";
    } else {
        line += amount(done, unit_) + " of " + amount(total, unit_) + unit;
    }
    if (seconds > 0) {
        line += ", " +
                amount(static_cast<std::uint64_t>(static_cast<double>(done) / seconds), unit_) +
                unit + "/s";
    }
    line += ")";
    // A terminal's line is rewritten in place: back to its start, the text, the rest cleared.
    if (terminal_) {
        out_ << '\r' << line << "\x1b[K";
        if (last) out_ << '\n';
    } else {
        out_ << line << '\n';
    }
    out_.flush();
}

}  // namespace cantonlite::app
