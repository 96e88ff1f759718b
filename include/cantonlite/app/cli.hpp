#pragma once
// The command line of the cantonlite executable.

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cantonlite/app/fork.hpp"
#include "cantonlite/app/generate.hpp"

namespace cantonlite::app {

// The command line is wrong. what() is one line naming the flag and the problem.
class UsageError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

// apply, time, snapshot, revert and reset are the admin commands: clients of a running daemon's
// /_cantonlite/v1/ API (see admin_client.hpp).
enum class Command {
    serve,
    describe,
    token,
    generate,
    help,
    version,
    apply,
    time,
    snapshot,
    revert,
    reset,
    state_save,  // state save FILE
    state_load,  // state load FILE
    fork,        // fork --scan URL | --dump DIR, --out FILE
    dump,        // dump --scan URL DIR
};

struct CommandLine {
    Command command = Command::help;
    std::string help_topic;  // help: the command asked about ("serve", "state"), "" for all
    std::optional<std::string> config;  // --config FILE
    // Overrides in the order given: (setting key for apply_setting, value, flag as typed).
    std::vector<std::pair<std::string, std::string>> settings;
    std::vector<std::string> setting_flags;
    bool json = false;                 // describe --json
    std::string user;                  // token --user ID
    std::int64_t expires_in = 86'400;  // token --expires-in SECONDS
    GenerateSpec generate;             // generate --parties, --amulets, --updates, --seed
    // Admin commands. url and token stay unset when not given (the client falls back to
    // CANTONLITE_URL and CANTONLITE_ADMIN_TOKEN); at most one of advance and set is given.
    std::optional<std::string> url;      // --url URL
    std::optional<std::string> token;    // --token T
    std::string file;                    // apply FILE, "-" for stdin; state save|load FILE
    std::optional<std::string> advance;  // time --advance DURATION
    std::optional<std::string> set;      // time --set TIMESTAMP
    std::string snapshot_id;             // revert ID
    ForkSpec fork;  // fork and dump: --scan, --dump, --out, --at, --updates, --ca-file, DIR
};

// Parses the arguments after the program name:
//   serve [--config FILE] [--seed FILE] [--address A] [--port N] [--io-threads N]
//         [--log-level L] [--log-format text|json] [--journal FILE] [--admin-token T]
//   describe [--config FILE] [--seed FILE] [--json]
//   token --user ID [--config FILE] [--seed FILE] [--expires-in SECONDS]
//   generate --parties N --amulets M --updates K [--seed S]
//   fork (--scan URL | --dump DIR) --out FILE [--at TIME] [--updates N] [--ca-file FILE]
//        [--progress]
//   dump --scan URL DIR [--at TIME] [--updates N] [--ca-file FILE] [--progress]
//   apply FILE|-   time [--advance DURATION | --set TIMESTAMP]   snapshot   revert ID   reset
//         (each with [--url URL] [--token T])
//   --help | -h | help     --version | -V | version
// Flags take their value as the next argument or after '='. Throws UsageError.
[[nodiscard]] CommandLine parse_command_line(const std::vector<std::string>& args);

// The --help text.
[[nodiscard]] std::string usage_text();

// `cantonlite <command> --help`: the command's lines of the usage, the flags that apply to it and
// the exit status, cut from usage_text(). The whole text for "" or an unknown command.
[[nodiscard]] std::string usage_text(std::string_view command);

}  // namespace cantonlite::app
