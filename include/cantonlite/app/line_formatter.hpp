#pragma once
// LineFormatter: the log lines' time, level and logger name, without spdlog's pattern machinery.

#include <array>
#include <cstdint>
#include <ctime>
#include <memory>
#include <string_view>

#include <spdlog/formatter.h>

#include "cantonlite/app/config.hpp"

namespace cantonlite::app {

// Appends `text` to a log line being formatted (spdlog's buffer takes a range).
inline void append(spdlog::memory_buf_t& dest, std::string_view text) {
    dest.append(text.data(), text.data() + text.size());
}

// Formats a log line as spdlog's pattern_formatter (UTC) formats
//   "%Y-%m-%dT%H:%M:%S.%fZ %-5l %n %v"                                      (LogFormat::text), or
//   {"time":"%Y-%m-%dT%H:%M:%S.%fZ","level":"%l","logger":"%n",%v}          (LogFormat::json,
//                                                                 the message being JSON fields),
// each followed by "\n", at a fraction of the cost (an access line per request): the date and time
// up to the second are formatted once per second. Not thread-safe: its sink formats under a lock.
class LineFormatter final : public spdlog::formatter {
  public:
    explicit LineFormatter(LogFormat format) : format_(format) {}

    void format(const spdlog::details::log_msg& msg, spdlog::memory_buf_t& dest) override;
    [[nodiscard]] std::unique_ptr<spdlog::formatter> clone() const override;

  private:
    // Appends "2026-11-26T17:58:39.693712Z" for the message's time.
    void append_time(const spdlog::details::log_msg& msg, spdlog::memory_buf_t& dest);

    LogFormat format_;
    std::time_t second_ = -1;      // the second date_ holds; -1: none yet
    std::array<char, 32> date_{};  // "2026-11-26T17:58:39"
    std::size_t date_size_ = 0;
};

}  // namespace cantonlite::app
