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
// microseconds; in JSON mode those are fields of the line.
[[nodiscard]] std::function<void(const net::AccessRecord&)> make_access_log(LogFormat format);

}  // namespace cantonlite::app
