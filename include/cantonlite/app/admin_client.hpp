#pragma once
// The admin commands (apply, time, snapshot, revert, reset): clients of a running daemon's admin
// API under /_cantonlite/v1/.

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <string>
#include <string_view>

#include "cantonlite/app/cli.hpp"

namespace cantonlite::app {

// The daemon an admin command talks to when neither --url nor CANTONLITE_URL says.
inline constexpr std::string_view default_admin_url = "http://127.0.0.1:7575";

// A daemon URL, http://HOST[:PORT][/PATH][/], taken apart.
struct AdminUrl {
    std::string text;  // as given
    std::string host;  // an IPv6 address without its brackets
    std::uint16_t port = 80;
    std::string base_path;  // "" or "/path", without a trailing '/'
};

// Parses a daemon URL; `source` ("--url", "CANTONLITE_URL") names it in errors. Throws UsageError
// for another scheme (https is named: cantonlite serves plain HTTP), a missing host, a bad port,
// credentials, a query or a fragment.
[[nodiscard]] AdminUrl parse_admin_url(std::string_view text, std::string_view source);

// Runs one admin command (REQUIRES: cli.command is apply, time, snapshot, revert or reset) against
// --url, else $CANTONLITE_URL, else default_admin_url, with "Authorization: Bearer" --token, else
// $CANTONLITE_ADMIN_TOKEN (the environment read through `getenv`, injected for tests). `in` is
// read by `apply -`. Prints the daemon's JSON answer to `out`, indented (snapshot: only the id,
// on one line), and one-line errors "cantonlite: ..." to `err`. Every step of the exchange is
// time-bounded. Returns the exit code: 0 answered, 1 the daemon cannot be reached or answered an
// error status, 2 bad URL or apply input (not readable, not JSON).
[[nodiscard]] int run_admin_command(const CommandLine& cli, std::istream& in, std::ostream& out,
                                    std::ostream& err,
                                    const std::function<const char*(const char*)>& getenv);

}  // namespace cantonlite::app
