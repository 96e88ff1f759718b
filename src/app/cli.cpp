#include "cantonlite/app/cli.hpp"

#include <array>
#include <string_view>

namespace cantonlite::app {
namespace {

struct FlagSpec {
    std::string_view flag;
    std::string_view setting;  // empty: --config
};

constexpr std::array<FlagSpec, 7> serve_flags{{
    {"--config", ""},
    {"--seed", "seed"},
    {"--address", "address"},
    {"--port", "port"},
    {"--io-threads", "io_threads"},
    {"--log-level", "log_level"},
    {"--log-format", "log_format"},
}};

const FlagSpec* find_flag(std::string_view name) {
    for (const FlagSpec& f : serve_flags) {
        if (f.flag == name) return &f;
    }
    return nullptr;
}

void parse_serve_flags(const std::vector<std::string>& args, std::size_t i, CommandLine& out) {
    for (; i < args.size(); ++i) {
        const std::string_view arg = args[i];
        const std::size_t eq = arg.find('=');
        const std::string_view name = arg.substr(0, eq);
        const FlagSpec* spec = find_flag(name);
        if (spec == nullptr) throw UsageError(std::string(name) + ": unknown flag (see --help)");
        std::string value;
        if (eq != std::string_view::npos) {
            value = std::string(arg.substr(eq + 1));
        } else if (i + 1 < args.size()) {
            value = args[++i];
        } else {
            throw UsageError(std::string(name) + ": needs a value");
        }
        if (spec->setting.empty()) {
            out.config = value;
        } else {
            out.settings.emplace_back(spec->setting, value);
            out.setting_flags.emplace_back(name);
        }
    }
}

}  // namespace

CommandLine parse_command_line(const std::vector<std::string>& args) {
    CommandLine out;
    if (args.empty()) return out;
    const std::string& first = args.front();
    if (first == "--help" || first == "-h" || first == "help") return out;
    if (first == "--version" || first == "-V" || first == "version") {
        out.command = Command::version;
        return out;
    }
    if (first != "serve") {
        throw UsageError(first + ": unknown command (see --help)");
    }
    out.command = Command::serve;
    for (const std::string& a : args) {
        if (a == "--help" || a == "-h") {
            out.command = Command::help;
            return out;
        }
    }
    parse_serve_flags(args, 1, out);
    return out;
}

std::string usage_text() {
    return R"(cantonlite: a local stand-in for the Canton Network's HTTP APIs
(JSON Ledger API v2, Splice Scan, Splice Validator), answered from one in-memory ledger.

Usage:
  cantonlite serve [flags]     serve the APIs on one port
  cantonlite --help            this text
  cantonlite --version         the version

Flags of serve (each overrides the config file and the CANTONLITE_* variable):
  --config FILE         config file (default: $CANTONLITE_CONFIG, else the shipped config/cantonlite.json)
  --seed FILE           seed file to load instead of the one the config names   [CANTONLITE_SEED]
  --address ADDR        interface to listen on                                  [CANTONLITE_ADDRESS]
  --port N              port to listen on, 0 for any free port                  [CANTONLITE_PORT]
  --io-threads N        io threads, 0 for one per core                          [CANTONLITE_IO_THREADS]
  --log-level LEVEL     trace, debug, info, warn, error or off                  [CANTONLITE_LOG_LEVEL]
  --log-format FORMAT   text or json (JSON lines)                               [CANTONLITE_LOG_FORMAT]

Exit status: 0 after a clean stop (SIGINT, SIGTERM), 1 when the server cannot start,
2 for a bad command line, config or seed.
)";
}

}  // namespace cantonlite::app
