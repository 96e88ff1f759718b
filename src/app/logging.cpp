#include "cantonlite/app/logging.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string_view>

#include <spdlog/pattern_formatter.h>
#include <spdlog/sinks/sink.h>
#include <spdlog/spdlog.h>
#include <nlohmann/json.hpp>

#include "cantonlite/app/line_formatter.hpp"

namespace cantonlite::app {
namespace {

// Writes lines to stdout with write(2). Unlike spdlog's stdout sinks (fwrite and fflush under a
// lock, per line), the lock is held only while a line is formatted (the formatter caches the
// current second's text), so io threads logging at the same time do not wait for each other's
// system calls. Thread-safe.
//
// Held (the access log): lines wait in memory for flush(), or until 64 KiB wait, and are then
// written with one write(2), in the order they were logged. The server flushes after each burst
// of responses, so a burst costs one system call, not one per request. Not held: each line is
// written as it is logged.
class StdoutLineSink final : public spdlog::sinks::sink {
  public:
    explicit StdoutLineSink(bool held) : held_(held) {}
    ~StdoutLineSink() override { flush(); }

    void log(const spdlog::details::log_msg& msg) override {
        if (!held_) {
            spdlog::memory_buf_t line;
            {
                const std::lock_guard lock(mutex_);
                formatter_->format(msg, line);
            }
            return write_all(line.data(), line.size());
        }
        bool full = false;
        {
            const std::lock_guard lock(mutex_);
            formatter_->format(msg, pending_);
            full = pending_.size() >= max_held;
        }
        if (full) flush();
    }
    // Writes the held lines. One flush writes at a time, so that lines stay in order.
    void flush() override {
        if (!held_) return;
        const std::lock_guard writing(write_mutex_);
        {
            const std::lock_guard lock(mutex_);
            if (pending_.size() == 0) return;
            std::swap(pending_, writing_);
        }
        write_all(writing_.data(), writing_.size());
        writing_.clear();
    }
    void set_pattern(const std::string& pattern) override {
        set_formatter(std::make_unique<spdlog::pattern_formatter>(pattern));
    }
    void set_formatter(std::unique_ptr<spdlog::formatter> formatter) override {
        const std::lock_guard lock(mutex_);
        formatter_ = std::move(formatter);
    }

  private:
    // As fwrite to stdout would: the whole line unless stdout fails, and then nothing more.
    static void write_all(const char* data, std::size_t size) {
        while (size > 0) {
            const ssize_t n = ::write(STDOUT_FILENO, data, size);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) return;
            data += n;
            size -= static_cast<std::size_t>(n);
        }
    }

    static constexpr std::size_t max_held = 64 * 1024;

    const bool held_;
    std::mutex mutex_;
    std::unique_ptr<spdlog::formatter> formatter_ = std::make_unique<spdlog::pattern_formatter>();
    spdlog::memory_buf_t pending_;  // held lines; guarded by mutex_
    std::mutex write_mutex_;        // held while a flush writes
    spdlog::memory_buf_t writing_;  // the lines a flush writes; guarded by write_mutex_
};

// %* in a pattern: the message as the inside of a JSON string.
class JsonEscapedMessage : public spdlog::custom_flag_formatter {
  public:
    void format(const spdlog::details::log_msg& msg, const std::tm&,
                spdlog::memory_buf_t& dest) override {
        const std::string quoted =
            nlohmann::json(std::string(msg.payload.begin(), msg.payload.end()))
                .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
        dest.append(quoted.data() + 1, quoted.data() + quoted.size() - 1);
    }
    std::unique_ptr<custom_flag_formatter> clone() const override {
        return std::make_unique<JsonEscapedMessage>();
    }
};

// Text lines, and the access log's JSON lines (whose message is JSON fields), by LineFormatter;
// the other JSON lines by a pattern, the message escaped into "msg".
std::unique_ptr<spdlog::formatter> make_formatter(LogFormat format, bool raw_fields) {
    if (format == LogFormat::text || raw_fields) return std::make_unique<LineFormatter>(format);
    auto formatter = std::make_unique<spdlog::pattern_formatter>(spdlog::pattern_time_type::utc);
    formatter->add_flag<JsonEscapedMessage>('*').set_pattern(
        R"({"time":"%Y-%m-%dT%H:%M:%S.%fZ","level":"%l","logger":"%n","msg":"%*"})");
    return formatter;
}

// `held`: its lines wait for flush() (see StdoutLineSink).
std::shared_ptr<spdlog::logger> make_logger(const std::string& name, const LogConfig& config,
                                            bool raw_fields, bool held) {
    auto logger = std::make_shared<spdlog::logger>(name, std::make_shared<StdoutLineSink>(held));
    logger->set_formatter(make_formatter(config.format, raw_fields));
    logger->set_level(spdlog::level::from_str(config.level));
    if (!held) logger->flush_on(spdlog::level::trace);
    return logger;
}

std::shared_ptr<spdlog::logger> access_logger;

void append_number(spdlog::memory_buf_t& out, std::int64_t n) {
    const fmt::format_int digits(n);
    out.append(digits.data(), digits.data() + digits.size());
}

// `text` as a JSON string, as nlohmann writes it (bytes that are not UTF-8 as U+FFFD).
void append_json_string(spdlog::memory_buf_t& out, std::string_view text) {
    const auto plain = [](char c) {
        const auto b = static_cast<unsigned char>(c);
        return b >= 0x20 && b < 0x7F && c != '"' && c != '\\';
    };
    if (!std::all_of(text.begin(), text.end(), plain)) {
        return append(out, nlohmann::json(std::string(text))
                               .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
    }
    out.push_back('"');
    append(out, text);
    out.push_back('"');
}

// The text access line's message: "GET /api/scan/livez 200 0B 162us 127.0.0.1:39216".
void text_fields(const net::AccessRecord& r, spdlog::memory_buf_t& out) {
    append(out, r.method);
    out.push_back(' ');
    append(out, r.target);
    out.push_back(' ');
    append_number(out, r.status);
    out.push_back(' ');
    append_number(out, static_cast<std::int64_t>(r.bytes));
    append(out, "B ");
    append_number(out, r.micros);
    append(out, "us ");
    append(out, r.remote);
}

// The JSON access line's fields: "method":"GET","target":"/api/scan/livez","status":200,...
void json_fields(const net::AccessRecord& r, spdlog::memory_buf_t& out) {
    append(out, R"("method":)");
    append_json_string(out, r.method);
    append(out, R"(,"target":)");
    append_json_string(out, r.target);
    append(out, R"(,"status":)");
    append_number(out, r.status);
    append(out, R"(,"bytes":)");
    append_number(out, static_cast<std::int64_t>(r.bytes));
    append(out, R"(,"micros":)");
    append_number(out, r.micros);
    append(out, R"(,"remote":)");
    append_json_string(out, r.remote);
}

}  // namespace

void configure_logging(const LogConfig& config) {
    spdlog::set_default_logger(make_logger("cantonlite", config, false, false));
    if (access_logger) access_logger->flush();
    access_logger = make_logger("access", config, config.format == LogFormat::json, true);
}

AccessLog make_access_log(LogFormat format) {
    std::shared_ptr<spdlog::logger> logger = access_logger;
    if (!logger) return {};
    const auto message = format == LogFormat::text ? text_fields : json_fields;
    return AccessLog{
        .log =
            [logger, message](const net::AccessRecord& r) {
                if (!logger->should_log(spdlog::level::info)) return;
                spdlog::memory_buf_t fields;
                message(r, fields);
                logger->log(spdlog::level::info,
                            spdlog::string_view_t(fields.data(), fields.size()));
            },
        .flush = [logger] { logger->flush(); },
    };
}

}  // namespace cantonlite::app
