#pragma once
// The executable's exit statuses (cantonlite --help, "Exit status").

namespace cantonlite::app {

inline constexpr int exit_ok = 0;      // a clean stop, or a finished command
inline constexpr int exit_failed = 1;  // the server cannot start; a command's work failed
inline constexpr int exit_usage = 2;   // a bad command line, config or seed

}  // namespace cantonlite::app
