#pragma once
// The progress line of a long load (a seed file, a journal's replay) on stderr, once a second:
//   cantonlite: loading seed big.json: 42% (4.6 of 11.0 MiB, 12.1 MiB/s)
// On a terminal it rewrites one line; elsewhere (--progress into a file) it adds a line each time.

#include <chrono>
#include <cstdint>
#include <functional>
#include <ostream>
#include <string>

#include "cantonlite/seed/load_progress.hpp"

namespace cantonlite::app {

class ProgressLine {
  public:
    enum class Unit { bytes, records, updates };
    using Clock = std::function<std::chrono::steady_clock::time_point()>;

    // `what`: "loading seed big.json". `terminal`: rewrite one line rather than add lines.
    // `always`: write the last line (finish) even when the load took less than a second.
    ProgressLine(std::string what, Unit unit, std::ostream& out, bool terminal, bool always,
                 Clock clock = std::chrono::steady_clock::now);

    // What the loader calls (a seed::LoadProgress): writes a line when a second has passed since
    // the start or the last line.
    void update(std::uint64_t done, std::uint64_t total);
    // update() as the loader's callback; none (nothing to report to) when the line shows nothing
    // (neither on a terminal nor `always`).
    [[nodiscard]] seed::LoadProgress as_load_progress() {
        if (!terminal_ && !always_) return nullptr;
        return [this](std::uint64_t done, std::uint64_t total) { update(done, total); };
    }
    // The last line, the whole done in the time taken: when a line was written, or `always`. On a
    // terminal it ends the line.
    void finish();

  private:
    void write(std::uint64_t done, std::uint64_t total, bool last);

    std::string what_;
    Unit unit_;
    std::ostream& out_;
    bool terminal_;
    bool always_;
    Clock clock_;
    std::chrono::steady_clock::time_point start_;
    std::chrono::steady_clock::time_point last_line_;
    std::uint64_t total_ = 0;  // the last update's, for finish()
    bool wrote_ = false;
};

}  // namespace cantonlite::app
