#include "cantonlite/app/line_formatter.hpp"

#include <chrono>
#include <string_view>

namespace cantonlite::app {
namespace {

// `n` (0 to 999999) as six digits.
void append_six_digits(spdlog::memory_buf_t& dest, long n) {
    char digits[6];
    for (int i = 5; i >= 0; --i, n /= 10) digits[i] = static_cast<char>('0' + n % 10);
    dest.append(digits, digits + 6);
}

}  // namespace

void LineFormatter::append_time(const spdlog::details::log_msg& msg, spdlog::memory_buf_t& dest) {
    const std::time_t second = std::chrono::system_clock::to_time_t(msg.time);
    if (second != second_) {
        std::tm utc{};
        gmtime_r(&second, &utc);
        date_size_ = std::strftime(date_.data(), date_.size(), "%Y-%m-%dT%H:%M:%S", &utc);
        second_ = second;
    }
    const auto since_epoch = msg.time.time_since_epoch();
    const auto micros = std::chrono::duration_cast<std::chrono::microseconds>(since_epoch) -
                        std::chrono::duration_cast<std::chrono::seconds>(since_epoch);
    dest.append(date_.data(), date_.data() + date_size_);
    dest.push_back('.');
    append_six_digits(dest, static_cast<long>(micros.count()));
    dest.push_back('Z');
}

void LineFormatter::format(const spdlog::details::log_msg& msg, spdlog::memory_buf_t& dest) {
    const spdlog::string_view_t level_name = spdlog::level::to_string_view(msg.level);
    const std::string_view level(level_name.data(), level_name.size());
    const std::string_view name(msg.logger_name.data(), msg.logger_name.size());
    const std::string_view payload(msg.payload.data(), msg.payload.size());
    if (format_ == LogFormat::text) {
        append_time(msg, dest);
        dest.push_back(' ');
        append(dest, level);
        for (std::size_t i = level.size(); i < 5; ++i) dest.push_back(' ');
        dest.push_back(' ');
        append(dest, name);
        dest.push_back(' ');
    } else {
        append(dest, R"({"time":")");
        append_time(msg, dest);
        append(dest, R"(","level":")");
        append(dest, level);
        append(dest, R"(","logger":")");
        append(dest, name);
        append(dest, R"(",)");
    }
    append(dest, payload);
    if (format_ == LogFormat::json) dest.push_back('}');
    dest.push_back('\n');
}

std::unique_ptr<spdlog::formatter> LineFormatter::clone() const {
    return std::make_unique<LineFormatter>(format_);
}

}  // namespace cantonlite::app
