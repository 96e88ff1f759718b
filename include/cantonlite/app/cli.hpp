#pragma once
// The command line of the cantonlite executable.

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "cantonlite/app/generate.hpp"

namespace cantonlite::app {

// The command line is wrong. what() is one line naming the flag and the problem.
class UsageError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

enum class Command { serve, describe, token, generate, help, version };

struct CommandLine {
    Command command = Command::help;
    std::optional<std::string> config;  // --config FILE
    // Overrides in the order given: (setting key for apply_setting, value, flag as typed).
    std::vector<std::pair<std::string, std::string>> settings;
    std::vector<std::string> setting_flags;
    bool json = false;                 // describe --json
    std::string user;                  // token --user ID
    std::int64_t expires_in = 86'400;  // token --expires-in SECONDS
    GenerateSpec generate;             // generate --parties, --amulets, --updates, --seed
};

// Parses the arguments after the program name:
//   serve [--config FILE] [--seed FILE] [--address A] [--port N] [--io-threads N]
//         [--log-level L] [--log-format text|json]
//   describe [--config FILE] [--seed FILE] [--json]
//   token --user ID [--config FILE] [--seed FILE] [--expires-in SECONDS]
//   generate --parties N --amulets M --updates K [--seed S]
//   --help | -h | help     --version | -V | version
// Flags take their value as the next argument or after '='. Throws UsageError.
[[nodiscard]] CommandLine parse_command_line(const std::vector<std::string>& args);

// The --help text.
[[nodiscard]] std::string usage_text();

}  // namespace cantonlite::app
