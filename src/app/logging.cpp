#include "cantonlite/app/logging.hpp"

#include <unistd.h>

#include <cerrno>
#include <memory>
#include <mutex>

#include <spdlog/pattern_formatter.h>
#include <spdlog/sinks/sink.h>
#include <spdlog/spdlog.h>
#include <nlohmann/json.hpp>

namespace cantonlite::app {
namespace {

// Writes each line to stdout with one write(2), as it is logged. Unlike spdlog's stdout sinks
// (fwrite and fflush under a lock, per line), the lock is held only while the line is formatted
// (the formatter caches the current second's text), so io threads logging access lines at the
// same time do not wait for each other's system calls. Thread-safe.
class StdoutLineSink final : public spdlog::sinks::sink {
  public:
    void log(const spdlog::details::log_msg& msg) override {
        spdlog::memory_buf_t line;
        {
            const std::lock_guard lock(mutex_);
            formatter_->format(msg, line);
        }
        write_all(line.data(), line.size());
    }
    void flush() override {}  // nothing is buffered
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

    std::mutex mutex_;
    std::unique_ptr<spdlog::formatter> formatter_ = std::make_unique<spdlog::pattern_formatter>();
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

std::unique_ptr<spdlog::formatter> make_formatter(LogFormat format, bool raw_fields) {
    auto formatter = std::make_unique<spdlog::pattern_formatter>(spdlog::pattern_time_type::utc);
    if (format == LogFormat::text) {
        formatter->set_pattern("%Y-%m-%dT%H:%M:%S.%fZ %-5l %n %v");
    } else if (raw_fields) {
        formatter->set_pattern(R"({"time":"%Y-%m-%dT%H:%M:%S.%fZ","level":"%l","logger":"%n",%v})");
    } else {
        formatter->add_flag<JsonEscapedMessage>('*').set_pattern(
            R"({"time":"%Y-%m-%dT%H:%M:%S.%fZ","level":"%l","logger":"%n","msg":"%*"})");
    }
    return formatter;
}

std::shared_ptr<spdlog::logger> make_logger(const std::string& name, const LogConfig& config,
                                            bool raw_fields) {
    auto logger = std::make_shared<spdlog::logger>(name, std::make_shared<StdoutLineSink>());
    logger->set_formatter(make_formatter(config.format, raw_fields));
    logger->set_level(spdlog::level::from_str(config.level));
    logger->flush_on(spdlog::level::trace);
    return logger;
}

std::shared_ptr<spdlog::logger> access_logger;

}  // namespace

void configure_logging(const LogConfig& config) {
    spdlog::set_default_logger(make_logger("cantonlite", config, false));
    access_logger = make_logger("access", config, config.format == LogFormat::json);
}

std::function<void(const net::AccessRecord&)> make_access_log(LogFormat format) {
    std::shared_ptr<spdlog::logger> logger = access_logger;
    if (!logger) return {};
    if (format == LogFormat::text) {
        return [logger](const net::AccessRecord& r) {
            logger->info("{} {} {} {}B {}us {}", r.method, r.target, r.status, r.bytes, r.micros,
                         r.remote);
        };
    }
    return [logger](const net::AccessRecord& r) {
        const auto quote = [](std::string_view s) {
            return nlohmann::json(std::string(s))
                .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
        };
        logger->info(R"("method":{},"target":{},"status":{},"bytes":{},"micros":{},"remote":{})",
                     quote(r.method), quote(r.target), r.status, r.bytes, r.micros,
                     quote(r.remote));
    };
}

}  // namespace cantonlite::app
