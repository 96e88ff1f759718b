#pragma once
// Config: the daemon's settings, from the config file, then CANTONLITE_* variables, then flags.

#include <cstdint>
#include <filesystem>
#include <functional>
#include <stdexcept>
#include <string>
#include <string_view>

#include "cantonlite/areas/release.hpp"

namespace cantonlite::app {

// A setting is missing or wrong. what() is one line naming where: "<file>: <pointer>: <problem>",
// "CANTONLITE_PORT: <problem>" or "--port: <problem>".
class ConfigError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

enum class LogFormat { text, json };

struct ServerConfig {
    std::string address = "127.0.0.1";
    std::uint16_t port = 7575;
    int io_threads = 0;  // 0: one per core
    std::int64_t read_timeout_ms = 30'000;
    std::int64_t idle_timeout_ms = 60'000;
    std::uint32_t max_header_bytes = 16 * 1024;
    std::uint64_t max_body_bytes = 8 * 1024 * 1024;
    std::int64_t shutdown_grace_ms = 5'000;
    // Connections at once; 0: the descriptor limit (RLIMIT_NOFILE) less a reserve for the journal,
    // the seed and the logs.
    std::int64_t max_connections = 0;
};

struct LogConfig {
    std::string level = "info";  // trace, debug, info, warn, error, off
    LogFormat format = LogFormat::text;
};

struct AdminConfig {
    std::string token;  // the bearer secret of /_cantonlite/v1/ on a non-loopback listener
};

struct Config {
    std::filesystem::path file;  // where it was loaded from
    ServerConfig server;
    LogConfig log;
    std::filesystem::path seed;  // absolute, or relative to the working directory
    // The seed `localnet` loads instead of `seed` (config key localnet_seed); empty: `seed`.
    std::filesystem::path localnet_seed;
    bool seed_set = false;  // `seed` came from a flag or variable: it wins over localnet_seed
    // The durable journal of run-time writes: a file, or a PostgreSQL URL (postgresql://...);
    // empty: none (the network lives in memory only).
    std::filesystem::path journal;
    AdminConfig admin;
    // The release line served (`release`) and the deprecated APIs it re-enables (`deprecated`).
    areas::ApiProfile api;
    // Also listen where Splice LocalNet's clients look (docs/localnet.md).
    bool localnet = false;
    // `clock`: "seed" (the seed's ledger time) or "now": at start the ledger time moves to the
    // wall clock and a mining round opens around it (docs/exchange-flows.md).
    bool clock_now = false;
    // State files (docs/state-files.md): `load_state` is loaded instead of the seed; `dump_state`
    // is written on a clean stop; `state` is both (loaded when it exists). Empty: none.
    std::filesystem::path load_state;
    std::filesystem::path dump_state;
    std::filesystem::path state;
    // Where persisted snapshots are kept (POST /_cantonlite/v1/snapshots {"persist": true}).
    std::filesystem::path state_dir;
    // `progress`: show how far a long load has come on stderr even when it is not a terminal.
    bool progress = false;
    // `fork_scan`: start from a fork of the network the Scan at this URL serves (docs/fork.md)
    // instead of the seed; empty: none. `release_set`: a config, variable or flag chose the
    // release (else a fork serves its source's).
    std::string fork_scan;
    bool release_set = false;
};

// Whether the config loads its localnet_seed: localnet is on, a localnet_seed is named, and no
// flag or variable set the seed.
[[nodiscard]] bool loads_localnet_seed(const Config& config);

// Picks the seed to load once every setting is applied: localnet_seed when loads_localnet_seed,
// else seed.
void settle_seed(Config& config);

// Loads a config file (docs in docs/configuration.md). Relative seed paths are taken from the
// file's folder. Unknown keys are errors. Throws ConfigError.
[[nodiscard]] Config load_config(const std::filesystem::path& file);

// Sets one overridable setting from text: key is address, port, io_threads, log_level, log_format,
// seed, journal, admin_token, release, enable_deprecated (all of Canton 3.6's deprecated APIs:
// true or false), localnet (true or false), clock (seed or now), progress (true or false),
// state, load_state, dump_state (files) or state_dir (a folder).
// `source` names the flag or variable in errors. Throws ConfigError.
void apply_setting(Config& config, std::string_view key, std::string_view value,
                   std::string_view source);

// Reads the environment through `getenv` (injected for tests): CANTONLITE_ADDRESS,
// CANTONLITE_PORT, CANTONLITE_IO_THREADS, CANTONLITE_LOG_LEVEL, CANTONLITE_LOG_FORMAT,
// CANTONLITE_SEED, CANTONLITE_JOURNAL, CANTONLITE_ADMIN_TOKEN, CANTONLITE_RELEASE,
// CANTONLITE_ENABLE_DEPRECATED, CANTONLITE_LOCALNET. Empty variables are ignored. Throws
// ConfigError.
void apply_environment(Config& config, const std::function<const char*(const char*)>& getenv);

// The config file to use when none is given: $CANTONLITE_CONFIG, else the shipped
// config/cantonlite.json beside the executable's folder (build/.., /opt/cantonlite), else the one
// under the working directory, else the one compiled in (builtin_path("cantonlite.json"), whose
// seeds are the built-in networks).
[[nodiscard]] std::filesystem::path default_config_path(
    const std::function<const char*(const char*)>& getenv);

}  // namespace cantonlite::app
