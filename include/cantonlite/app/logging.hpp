#pragma once
// Logging set-up: level and format (text lines or JSON lines) of the daemon's stdout log.

#include <functional>

#include "cantonlite/app/config.hpp"
#include "cantonlite/net/server.hpp"

namespace cantonlite::app {

// Makes the default spdlog logger write to stdout at the configured level and format.
// JSON lines: {"time":"…Z","level":"info","logger":"cantonlite","msg":"…"}.
void configure_logging(const LogConfig& config);

// The access log: one line per answered request with method, target, status, body bytes and
// microseconds; in JSON mode those are fields of the line. Lines are held until flush() (the
// server's access_log_flush: after each burst of responses, and at the stop) or until 64 KiB are
// held, and then written to stdout together, with one write(2). Both are thread-safe.
struct AccessLog {
    std::function<void(const net::AccessRecord&)> log;  // empty when there is no access log
    std::function<void()> flush;
};
[[nodiscard]] AccessLog make_access_log(LogFormat format);

}  // namespace cantonlite::app
