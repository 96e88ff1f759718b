#include "cantonlite/app/cli.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <limits>
#include <span>
#include <string_view>

#include "cantonlite/model/timestamp.hpp"

namespace cantonlite::app {
namespace {

// What a flag sets.
enum class FlagKind {
    config,          // CommandLine::config
    setting,         // a config setting, applied with apply_setting
    json,            // describe --json (takes no value)
    on,              // a flag without a value that sets its setting to true (--localnet)
    user,            // token --user
    expires_in,      // token --expires-in
    parties,         // generate --parties
    amulets,         // generate --amulets
    updates,         // generate --updates
    generator_seed,  // generate --seed (a number, not a file)
    url,             // admin commands: --url
    admin_token,     // admin commands: --token
    advance,         // time --advance
    set_time,        // time --set
    fork_scan,       // fork --scan
    fork_out,        // fork --out
    fork_at,         // fork --at
    fork_updates,    // fork --updates
    fork_ca_file,    // fork --ca-file
    fork_progress,   // fork --progress (takes no value)
    fork_dump,       // fork --dump
    no_bulk,         // dump --no-bulk (takes no value)
};

struct FlagSpec {
    std::string_view flag;
    FlagKind kind;
    std::string_view setting = {};  // FlagKind::setting: the key for apply_setting
};

constexpr std::array<FlagSpec, 19> serve_flags{{
    {"--config", FlagKind::config},
    {"--seed", FlagKind::setting, "seed"},
    {"--address", FlagKind::setting, "address"},
    {"--port", FlagKind::setting, "port"},
    {"--io-threads", FlagKind::setting, "io_threads"},
    {"--log-level", FlagKind::setting, "log_level"},
    {"--log-format", FlagKind::setting, "log_format"},
    {"--journal", FlagKind::setting, "journal"},
    {"--admin-token", FlagKind::setting, "admin_token"},
    {"--release", FlagKind::setting, "release"},
    {"--enable-deprecated", FlagKind::setting, "enable_deprecated"},
    {"--localnet", FlagKind::on, "localnet"},
    {"--clock", FlagKind::setting, "clock"},
    {"--progress", FlagKind::on, "progress"},
    {"--state", FlagKind::setting, "state"},
    {"--load-state", FlagKind::setting, "load_state"},
    {"--dump-state", FlagKind::setting, "dump_state"},
    {"--state-dir", FlagKind::setting, "state_dir"},
    {"--fork-scan", FlagKind::setting, "fork_scan"},
}};

constexpr std::array<FlagSpec, 8> describe_flags{{
    {"--load-state", FlagKind::setting, "load_state"},
    {"--config", FlagKind::config},
    {"--progress", FlagKind::on, "progress"},
    {"--seed", FlagKind::setting, "seed"},
    {"--localnet", FlagKind::on, "localnet"},
    {"--release", FlagKind::setting, "release"},
    {"--enable-deprecated", FlagKind::setting, "enable_deprecated"},
    {"--json", FlagKind::json},
}};

constexpr std::array<FlagSpec, 7> token_flags{{
    {"--user", FlagKind::user},
    {"--load-state", FlagKind::setting, "load_state"},
    {"--progress", FlagKind::on, "progress"},
    {"--config", FlagKind::config},
    {"--seed", FlagKind::setting, "seed"},
    {"--localnet", FlagKind::on, "localnet"},
    {"--expires-in", FlagKind::expires_in},
}};

constexpr std::array<FlagSpec, 4> generate_flags{{
    {"--parties", FlagKind::parties},
    {"--amulets", FlagKind::amulets},
    {"--updates", FlagKind::updates},
    {"--seed", FlagKind::generator_seed},
}};

// The flags every admin command takes; time takes two more.
constexpr std::array<FlagSpec, 2> admin_flags{{
    {"--url", FlagKind::url},
    {"--token", FlagKind::admin_token},
}};

constexpr std::array<FlagSpec, 4> time_flags{{
    {"--url", FlagKind::url},
    {"--token", FlagKind::admin_token},
    {"--advance", FlagKind::advance},
    {"--set", FlagKind::set_time},
}};

constexpr std::array<FlagSpec, 7> fork_flags{{
    {"--scan", FlagKind::fork_scan},
    {"--dump", FlagKind::fork_dump},
    {"--out", FlagKind::fork_out},
    {"--at", FlagKind::fork_at},
    {"--updates", FlagKind::fork_updates},
    {"--ca-file", FlagKind::fork_ca_file},
    {"--progress", FlagKind::fork_progress},
}};

constexpr std::array<FlagSpec, 6> dump_flags{{
    {"--scan", FlagKind::fork_scan},
    {"--no-bulk", FlagKind::no_bulk},
    {"--at", FlagKind::fork_at},
    {"--updates", FlagKind::fork_updates},
    {"--ca-file", FlagKind::fork_ca_file},
    {"--progress", FlagKind::fork_progress},
}};

struct CommandSpec {
    std::string_view name;
    Command command;
    std::span<const FlagSpec> flags;
    std::span<const std::string_view> required;  // flags that must be given
    // The one required positional argument ("FILE"), and where it goes; "" for none.
    std::string_view operand = {};
    std::string CommandLine::*operand_field = nullptr;
};

constexpr std::array<std::string_view, 1> token_required{"--user"};
constexpr std::array<std::string_view, 3> generate_required{"--parties", "--amulets", "--updates"};
constexpr std::array<std::string_view, 1> fork_required{"--out"};
constexpr std::array<std::string_view, 1> dump_required{"--scan"};

constexpr std::array<CommandSpec, 13> commands{{
    {"serve", Command::serve, serve_flags, {}},
    {"describe", Command::describe, describe_flags, {}},
    {"token", Command::token, token_flags, token_required},
    {"generate", Command::generate, generate_flags, generate_required},
    {"apply", Command::apply, admin_flags, {}, "FILE", &CommandLine::file},
    {"time", Command::time, time_flags, {}},
    {"snapshot", Command::snapshot, admin_flags, {}},
    {"revert", Command::revert, admin_flags, {}, "ID", &CommandLine::snapshot_id},
    {"reset", Command::reset, admin_flags, {}},
    {"state save", Command::state_save, admin_flags, {}, "FILE", &CommandLine::file},
    {"state load", Command::state_load, admin_flags, {}, "FILE", &CommandLine::file},
    {"fork", Command::fork, fork_flags, fork_required},
    {"dump", Command::dump, dump_flags, dump_required, "DIR", &CommandLine::file},
}};

constexpr std::int64_t max_expires_in = 10LL * 366 * 86'400;  // ten years
constexpr std::int64_t max_parties = 1'000'000;
constexpr std::int64_t max_steps = 100'000'000;

const CommandSpec* find_command(std::string_view name) {
    for (const CommandSpec& c : commands) {
        if (c.name == name) return &c;
    }
    return nullptr;
}

const FlagSpec* find_flag(const CommandSpec& command, std::string_view name) {
    for (const FlagSpec& f : command.flags) {
        if (f.flag == name) return &f;
    }
    return nullptr;
}

template <typename Int>
Int parse_integer(std::string_view flag, std::string_view text, Int min, Int max) {
    Int value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size() || value < min || value > max) {
        throw UsageError(std::string(flag) + ": must be an integer from " + std::to_string(min) +
                         " to " + std::to_string(max) + ", got \"" + std::string(text) + "\"");
    }
    return value;
}

std::string non_empty(std::string_view name, std::string value) {
    if (value.empty()) throw UsageError(std::string(name) + ": must not be empty");
    return value;
}

void apply_flag(const FlagSpec& spec, std::string_view name, std::string value, CommandLine& out) {
    switch (spec.kind) {
        case FlagKind::config:
            out.config = std::move(value);
            return;
        case FlagKind::setting:
            out.settings.emplace_back(spec.setting, std::move(value));
            out.setting_flags.emplace_back(name);
            return;
        case FlagKind::json:
            out.json = true;
            return;
        case FlagKind::on:
            out.settings.emplace_back(spec.setting, "true");
            out.setting_flags.emplace_back(name);
            return;
        case FlagKind::user:
            if (value.empty()) throw UsageError(std::string(name) + ": must not be empty");
            out.user = std::move(value);
            return;
        case FlagKind::expires_in:
            out.expires_in = parse_integer<std::int64_t>(name, value, 1, max_expires_in);
            return;
        case FlagKind::parties:
            out.generate.parties = parse_integer<std::int64_t>(name, value, 1, max_parties);
            return;
        case FlagKind::amulets:
            out.generate.amulets = parse_integer<std::int64_t>(name, value, 0, max_steps);
            return;
        case FlagKind::updates:
            out.generate.updates = parse_integer<std::int64_t>(name, value, 0, max_steps);
            return;
        case FlagKind::generator_seed:
            out.generate.seed = parse_integer<std::uint64_t>(
                name, value, 0, std::numeric_limits<std::uint64_t>::max());
            return;
        case FlagKind::url:
            out.url = non_empty(name, std::move(value));
            return;
        case FlagKind::admin_token:
            out.token = non_empty(name, std::move(value));
            return;
        case FlagKind::advance:
            out.advance = non_empty(name, std::move(value));
            return;
        case FlagKind::set_time:
            out.set = non_empty(name, std::move(value));
            return;
        case FlagKind::fork_scan:
            out.fork.scan_url = non_empty(name, std::move(value));
            return;
        case FlagKind::fork_out:
            out.fork.out = non_empty(name, std::move(value));
            return;
        case FlagKind::fork_at:
            if (!model::parse_timestamp(value)) {
                throw UsageError(std::string(name) +
                                 ": must be a date-time such as 2025-01-01T00:00:00Z, got \"" +
                                 value + "\"");
            }
            out.fork.at = std::move(value);
            return;
        case FlagKind::fork_updates:
            out.fork.updates = parse_integer<std::int64_t>(name, value, 0, max_steps);
            return;
        case FlagKind::fork_ca_file:
            out.fork.ca_file = non_empty(name, std::move(value));
            return;
        case FlagKind::fork_progress:
            out.fork.progress = true;
            return;
        case FlagKind::fork_dump:
            out.fork.dump_dir = non_empty(name, std::move(value));
            return;
        case FlagKind::no_bulk:
            out.fork.bulk = false;
            return;
    }
}

void parse_flags(const std::vector<std::string>& args, const CommandSpec& command,
                 CommandLine& out) {
    std::vector<std::string_view> given;
    bool has_operand = false;
    for (std::size_t i = 1; i < args.size(); ++i) {
        const std::string_view arg = args[i];
        // The operand: anything not shaped like a flag, "-" (stdin) included.
        if (!command.operand.empty() && (arg == "-" || !arg.starts_with('-'))) {
            if (has_operand)
                throw UsageError(std::string(arg) + ": unexpected argument (see --help)");
            out.*command.operand_field = non_empty(command.operand, std::string(arg));
            has_operand = true;
            continue;
        }
        const std::size_t eq = arg.find('=');
        const std::string_view name = arg.substr(0, eq);
        const FlagSpec* spec = find_flag(command, name);
        if (spec == nullptr) throw UsageError(std::string(name) + ": unknown flag (see --help)");
        std::string value;
        if (spec->kind == FlagKind::json || spec->kind == FlagKind::on ||
            spec->kind == FlagKind::fork_progress || spec->kind == FlagKind::no_bulk) {
            if (eq != std::string_view::npos)
                throw UsageError(std::string(name) + ": takes no value");
        } else if (eq != std::string_view::npos) {
            value = std::string(arg.substr(eq + 1));
        } else if (i + 1 < args.size()) {
            value = args[++i];
        } else {
            throw UsageError(std::string(name) + ": needs a value");
        }
        apply_flag(*spec, name, std::move(value), out);
        given.push_back(spec->flag);
    }
    for (const std::string_view flag : command.required) {
        if (std::find(given.begin(), given.end(), flag) == given.end()) {
            throw UsageError(std::string(flag) + ": is required (see --help)");
        }
    }
    if (!command.operand.empty() && !has_operand) {
        throw UsageError(std::string(command.operand) + ": is required (see --help)");
    }
    if (out.advance && out.set) throw UsageError("--set: cannot be combined with --advance");
    if (command.command == Command::dump) out.fork.dump_dir = out.file;
    if (command.command == Command::fork) {
        const bool scan = !out.fork.scan_url.empty();
        const bool dump = !out.fork.dump_dir.empty();
        if (scan == dump) throw UsageError("fork: give --scan URL or --dump DIR (see --help)");
        if (dump && out.fork.at)
            throw UsageError("--at: applies to --scan (a dump holds the snapshot it was taken at)");
        if (dump && !out.fork.ca_file.empty())
            throw UsageError("--ca-file: applies to --scan (a dump is read from its folder)");
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
    const CommandSpec* command = find_command(first);
    if (command == nullptr && first != "state")
        throw UsageError(first + ": unknown command (see --help)");
    // A command's --help, wherever it is among its arguments.
    for (const std::string& a : args) {
        if (a == "--help" || a == "-h") {
            out.help_topic = first;
            return out;
        }
    }
    // `state save FILE` and `state load FILE`: a command of two words.
    if (first == "state") {
        if (args.size() < 2 || (args[1] != "save" && args[1] != "load"))
            throw UsageError("state: give save FILE or load FILE (see --help)");
        std::vector<std::string> rest(args.begin() + 1, args.end());
        command = find_command("state " + args[1]);
        out.command = command->command;
        parse_flags(rest, *command, out);
        return out;
    }
    out.command = command->command;
    parse_flags(args, *command, out);
    return out;
}

std::string usage_text() {
    return R"(cantonlite: a local stand-in for the Canton Network's HTTP APIs
(JSON Ledger API v2, Splice Scan, Splice Validator), answered from one in-memory ledger.

Usage:
  cantonlite serve [flags]     serve the APIs on one port
  cantonlite describe [--config FILE] [--seed FILE] [--localnet] [--json] [--progress]
                               what the loaded network holds, and example requests per operation
  cantonlite token --user ID [--config FILE] [--seed FILE] [--localnet] [--expires-in SECONDS]
                               print an HS256 JWT the loaded network accepts for that user
  cantonlite generate --parties N --amulets M --updates K [--seed S]
                               write the seed of a synthetic network of that size to stdout
  cantonlite apply FILE|-      run the seed steps of FILE (or stdin) on a running daemon
  cantonlite time [--advance DURATION | --set TIMESTAMP]
                               show, advance or set a running daemon's ledger time
  cantonlite snapshot          save a running daemon's state; prints the snapshot's id
  cantonlite revert ID         go back to snapshot ID
  cantonlite reset             go back to the network of the seed
  cantonlite state save FILE   save a running daemon's network as a state file (docs/state-files.md)
  cantonlite state load FILE   replace a running daemon's network with a state file's
  cantonlite fork --scan URL --out FILE [--at TIME] [--updates N] [--ca-file FILE] [--progress]
                               write a state file of the network a Scan serves (docs/fork.md)
  cantonlite fork --dump DIR --out FILE [--updates N] [--progress]
                               the same from a folder cantonlite dump wrote, offline
  cantonlite dump --scan URL DIR [--at TIME] [--updates N] [--no-bulk] [--ca-file FILE]
                  [--progress]
                               write what a fork takes from a Scan to the folder DIR, in Scan's
                               bulk layout, to fork from later with fork --dump DIR, offline
  cantonlite --help            this text
  cantonlite --version         the version

Flags of serve (each overrides the config file and the CANTONLITE_* variable):
  --config FILE         config file (default: $CANTONLITE_CONFIG, else the shipped config/cantonlite.json)
  --seed FILE           seed file to load instead of the one the config names
                        (its seed, or with --localnet its localnet_seed)        [CANTONLITE_SEED]
  --address ADDR        interface to listen on                                  [CANTONLITE_ADDRESS]
  --port N              port to listen on, 0 for any free port                  [CANTONLITE_PORT]
  --io-threads N        io threads, 0 for one per core                          [CANTONLITE_IO_THREADS]
  --log-level LEVEL     trace, debug, info, warn, error or off                  [CANTONLITE_LOG_LEVEL]
  --log-format FORMAT   text or json (JSON lines)                               [CANTONLITE_LOG_FORMAT]
  --journal FILE|URL    keep the accepted writes in FILE, or in PostgreSQL      [CANTONLITE_JOURNAL]
                        (postgresql://user@host/db), replayed on restart
  --admin-token T       bearer token of the admin API /_cantonlite/v1/, needed
                        when listening on a non-loopback address                [CANTONLITE_ADMIN_TOKEN]
  --release R           the release line served: splice-0.6 (Canton 3.5, Splice 0.6.12, the
                        default) or splice-0.9 (Canton 3.6, Splice 0.9)         [CANTONLITE_RELEASE]
  --enable-deprecated B true: re-enable the APIs Canton 3.6 disables by default
                        (its features.deprecated flags), under splice-0.9   [CANTONLITE_ENABLE_DEPRECATED]
  --localnet            also listen on Splice LocalNet's ports: the JSON Ledger API on 2975,
                        3975, 4975, the validator on 2903, 3903, 4903, and 2000, 3000, 4000
                        by host name (scan.localhost:4000); the shipped config then loads
                        the LocalNet-shaped network (app-user, app-provider, sv, ledger-api-user)
                                                                         [CANTONLITE_LOCALNET=true]
  --clock C             seed (the seed's ledger time, the default) or now: at start the ledger
                        time moves to the wall clock and a mining round opens around it, as
                        the wallet SDK expects                                  [CANTONLITE_CLOCK]
  --load-state FILE     start from this state file instead of the seed (docs/state-files.md)
                                                                   [CANTONLITE_LOAD_STATE]
  --dump-state FILE     write the network's state file here on a clean stop  [CANTONLITE_DUMP_STATE]
  --state FILE          both: start from FILE when it exists (else the seed), write it on a
                        clean stop, like Anvil's --state                        [CANTONLITE_STATE]
  --state-dir DIR       keep snapshots taken with {"name", "persist": true} here, for this
                        daemon and later ones to revert to by name          [CANTONLITE_STATE_DIR]
  --fork-scan URL       start from a fork of the network the Scan at URL serves (cantonlite fork
                        in one step, docs/fork.md), on its release unless --release says
                                                                       [CANTONLITE_FORK_SCAN]
  --progress            show how far a long load (seed, journal) has come, once a second, even
                        when stderr is not a terminal (on a terminal it shows anyway)
                                                                         [CANTONLITE_PROGRESS=true]

describe and token load the network as serve does (--config, --seed, --localnet, --load-state,
--progress, CANTONLITE_* variables).
  --json                describe: one JSON document (dso_party, ledger_end, users, examples, ...)
                        instead of a summary with ready-to-run curl lines
  --user ID             token: the ledger API user (the token's sub)
  --expires-in SECONDS  token: lifetime, default 86400

Flags of generate (output is deterministic for a given S):
  --parties N           users party-0 .. party-<N-1>, the first half with wallets
  --amulets M           mint steps, spread over the parties
  --updates K           further steps: transfers, transfer offers, buy-traffic requests and
                        their outcomes, ANS entries, transfer commands, vote requests
  --seed S              seed of the pseudo-random choices, default 1

Flags of fork and dump (nothing is written unless the whole fork or dump succeeds):
  --scan URL            the Scan, http[s]://HOST[:PORT][/PATH] (PATH default /api/scan)
  --dump DIR            fork: from the folder cantonlite dump wrote, instead of a Scan (every
                        object's digest is checked)
  --out FILE            fork: the state file to write; serve it with serve --load-state FILE
  --at TIME             start from the latest ACS snapshot at or before TIME (default: the latest)
  --updates N           take at most N updates after the snapshot (default: all)
  --ca-file FILE        PEM trust anchors for https, besides the system's (certificates are
                        always verified)
  --no-bulk             dump: page the ACS at /v2/state/acs even where the Scan lists it as
                        bulk objects (/v0/history/bulk/acs), whose records' fields come with
                        their labels sorted rather than in Daml's order
  --progress            show the progress line even when stderr is not a terminal

Flags of apply, time, snapshot, revert, reset and state (clients of a running daemon's admin API):
  --url URL             the daemon, http://HOST:PORT[/PATH] (default: $CANTONLITE_URL, else
                        http://127.0.0.1:7575)
  --token T             admin bearer token (default: $CANTONLITE_ADMIN_TOKEN)
  --advance DURATION    time: move the ledger time forward by an ISO 8601 duration (PT1H)
  --set TIMESTAMP       time: set the ledger time (2025-01-01T00:00:00Z)
They print the daemon's JSON answer (snapshot: just the id).

Exit status: 0 after a clean stop (SIGINT, SIGTERM) or a finished command, 1 when the server
cannot start, or the daemon of an admin command cannot be reached or answers an error, 2 for a
bad command line, config or seed.
)";
}

namespace {

// The blocks of the usage text, separated by blank lines.
std::vector<std::string_view> blocks(std::string_view text) {
    std::vector<std::string_view> out;
    std::size_t start = 0;
    while (start < text.size()) {
        std::size_t end = text.find("\n\n", start);
        if (end == std::string_view::npos) end = text.size();
        out.push_back(text.substr(start, end - start));
        start = end + 2;
    }
    return out;
}

// The usage lines of `command` ("  cantonlite <command> ...") and the lines that continue them.
std::string usage_lines(std::string_view usage, std::string_view command) {
    std::string out;
    bool in = false;
    std::size_t start = 0;
    const std::string prefix = "  cantonlite " + std::string(command);
    while (start < usage.size()) {
        std::size_t end = usage.find('\n', start);
        if (end == std::string_view::npos) end = usage.size();
        const std::string_view line = usage.substr(start, end - start);
        if (line.starts_with("  cantonlite ")) {
            in = line.starts_with(prefix) &&
                 (line.size() == prefix.size() || line[prefix.size()] == ' ');
        } else if (!line.starts_with("   ")) {
            in = false;
        }
        if (in) out.append(line).append("\n");
        start = end + 1;
    }
    return out;
}

// The first lines of the flag blocks that apply to each command.
std::vector<std::string_view> flag_blocks_of(std::string_view command) {
    if (command == "serve") return {"Flags of serve"};
    if (command == "describe" || command == "token") return {"describe and token load"};
    if (command == "generate") return {"Flags of generate"};
    if (command == "fork" || command == "dump") return {"Flags of fork and dump"};
    return {"Flags of apply, time, snapshot, revert"};
}

}  // namespace

std::string usage_text(std::string_view command) {
    const std::string all = usage_text();
    if (command.empty() || (find_command(command) == nullptr && command != "state")) return all;
    const std::vector<std::string_view> parts = blocks(all);
    std::string out = "Usage:\n" + usage_lines(parts.at(1), command);
    for (const std::string_view header : flag_blocks_of(command)) {
        for (const std::string_view block : parts) {
            if (block.starts_with(header)) out.append("\n").append(block).append("\n");
        }
    }
    out.append("\n").append(parts.back());
    if (!out.ends_with('\n')) out.append("\n");
    return out;
}

}  // namespace cantonlite::app
