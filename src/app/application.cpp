#include "cantonlite/app/application.hpp"

#include <sys/resource.h>
#include <unistd.h>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstddef>
#include <cstdlib>
#include <initializer_list>
#include <iostream>
#include <optional>
#include <stdexcept>
#include <system_error>
#include <thread>

#include <spdlog/spdlog.h>
#include <nlohmann/json.hpp>

#include "cantonlite/app/admin_client.hpp"
#include "cantonlite/app/builtin_files.hpp"
#include "cantonlite/app/cli.hpp"
#include "cantonlite/app/config.hpp"
#include "cantonlite/app/describe.hpp"
#include "cantonlite/app/exit_codes.hpp"
#include "cantonlite/app/explorer.hpp"
#include "cantonlite/app/fork.hpp"
#include "cantonlite/app/generate.hpp"
#include "cantonlite/app/localnet.hpp"
#include "cantonlite/app/logging.hpp"
#include "cantonlite/app/metrics.hpp"
#include "cantonlite/app/overview.hpp"
#include "cantonlite/app/progress_line.hpp"
#include "cantonlite/app/token.hpp"
#include "cantonlite/app/wall_clock.hpp"
#include "cantonlite/areas/admin/admin_area.hpp"
#include "cantonlite/areas/ledger/ledger_area.hpp"
#include "cantonlite/areas/release.hpp"
#include "cantonlite/areas/scan/registry_area.hpp"
#include "cantonlite/areas/scan/scan_area.hpp"
#include "cantonlite/areas/validator/validator_area.hpp"
#include "cantonlite/interactive/prepared_transaction.hpp"
#include "cantonlite/journal/journal.hpp"
#include "cantonlite/model/ids.hpp"
#include "cantonlite/model/name.hpp"
#include "cantonlite/net/server.hpp"
#include "cantonlite/seed/live_network.hpp"
#include "cantonlite/seed/seed_loader.hpp"
#include "cantonlite/util/huge_pages.hpp"  // mallctl
#include "cantonlite/util/whole_file.hpp"

namespace cantonlite::app {
namespace {

// The seed's document and the loader's indexes are gone: gives their pages back to the system, so
// that a loaded daemon holds what its ledger needs, not its start-up peak. jemalloc purges every
// arena ("arena.<MALLCTL_ARENAS_ALL>.purge"); glibc trims its heaps.
void release_free_memory() {
    if (mallctl != nullptr) {
        (void)mallctl("arena.4096.purge", nullptr, nullptr, nullptr, 0);
        return;
    }
#if defined(__GLIBC__)
    ::malloc_trim(0);
#endif
}

constexpr int exit_start_failed = exit_failed;

// The config a command runs with: file, then environment, then flags. Throws ConfigError.
Config resolve_config(const CommandLine& cli) {
    const auto env = [](const char* name) { return std::getenv(name); };
    Config config =
        load_config(cli.config ? std::filesystem::path(*cli.config) : default_config_path(env));
    apply_environment(config, env);
    for (std::size_t i = 0; i < cli.settings.size(); ++i) {
        apply_setting(config, cli.settings[i].first, cli.settings[i].second, cli.setting_flags[i]);
    }
    settle_seed(config);
    return config;
}

// The resolved config and the network its seed (or state file) describes.
struct Loaded {
    Config config;
    std::unique_ptr<seed::LiveNetwork> network;
    std::filesystem::path base;  // the file the network was loaded from: the seed or a state file
    bool from_state = false;
    [[nodiscard]] const store::LedgerStore& store() const { return network->store(); }
};

bool stderr_is_terminal() {
    return ::isatty(STDERR_FILENO) == 1;
}

// A file removed when it goes: the fork that --fork-scan wrote, once loaded.
struct TemporaryFile {
    explicit TemporaryFile(std::filesystem::path p) : path(std::move(p)) {}
    ~TemporaryFile() {
        std::error_code ignored;
        std::filesystem::remove(path, ignored);
    }
    TemporaryFile(const TemporaryFile&) = delete;
    TemporaryFile& operator=(const TemporaryFile&) = delete;
    std::filesystem::path path;
};

// The state file to start from instead of the seed: load_state, or state when it exists.
std::optional<std::filesystem::path> state_to_load(const Config& config) {
    if (!config.load_state.empty()) return config.load_state;
    if (!config.state.empty() && std::filesystem::exists(config.state)) return config.state;
    return std::nullopt;
}

// Settings that cannot go together. Throws ConfigError.
void check_state_settings(const Config& config) {
    if (!config.state.empty() && !config.load_state.empty())
        throw ConfigError("--load-state: cannot be combined with --state, which loads its file");
    if (!config.state.empty() && !config.journal.empty()) {
        throw ConfigError(
            "--state: cannot be combined with --journal: the journal's base would change at "
            "every stop (use --load-state FILE with --journal, and --dump-state)");
    }
}

// The network of a seed file, or of a built-in one (app/builtin_files.hpp). Throws SeedError.
std::unique_ptr<seed::LiveNetwork> load_seed(const std::filesystem::path& seed,
                                             ProgressLine& progress) {
    const auto builtin = builtin_file(seed);
    if (!builtin) return seed::LiveNetwork::load_file(seed, progress.as_load_progress());
    const nlohmann::json document = nlohmann::json::parse(*builtin);
    return seed::LiveNetwork::load(document, seed.string(), {});
}

// While a state file is mapped at start-up (LiveNetwork::load_state_file), a SIGBUS is the file
// truncated in place under the load: said in one line, and the start fails as for a damaged file.
class MappedLoadGuard {
  public:
    MappedLoadGuard() {
        struct sigaction action {};
        action.sa_handler = [](int /*signal*/) {
            constexpr std::string_view line =
                "cantonlite: the state file was cut short while it was being loaded\n";
            (void)!::write(STDERR_FILENO, line.data(), line.size());
            ::_exit(exit_usage);
        };
        ::sigemptyset(&action.sa_mask);
        ::sigaction(SIGBUS, &action, &before_);
    }
    ~MappedLoadGuard() { ::sigaction(SIGBUS, &before_, nullptr); }
    MappedLoadGuard(const MappedLoadGuard&) = delete;
    MappedLoadGuard& operator=(const MappedLoadGuard&) = delete;

  private:
    struct sigaction before_ {};
};

// Resolves the config and loads the seed or the state file, as serve, describe and token all do.
// Prints the one line of a ConfigError or SeedError and returns nullopt (exit 2) when that fails.
std::optional<Loaded> load_network(const CommandLine& cli, int& failed_exit) {
    failed_exit = exit_usage;
    try {
        Config config = resolve_config(cli);
        check_state_settings(config);
        std::optional<std::filesystem::path> state = state_to_load(config);
        // --fork-scan: the fork's state file, written to a temporary file and loaded as any.
        std::optional<TemporaryFile> forked;
        if (!config.fork_scan.empty()) {
            if (state)
                throw ConfigError("--fork-scan: cannot be combined with --load-state or --state");
            if (!config.journal.empty()) {
                throw ConfigError(
                    "--fork-scan: cannot be combined with --journal, whose base must stay (fork "
                    "to a file with cantonlite fork, then use --load-state FILE --journal)");
            }
            forked.emplace(std::filesystem::temp_directory_path() /
                           ("cantonlite-fork-" + std::to_string(::getpid()) + ".state"));
            std::string release;
            const std::atomic<bool> no_stop{false};  // Ctrl-C ends the process as at any start
            if (run_fork(ForkSpec{.scan_url = config.fork_scan,
                                  .out = forked->path.string(),
                                  .progress = config.progress,
                                  .how_to_serve = false},
                         std::cerr, no_stop, &release) != 0) {
                failed_exit = exit_start_failed;
                return std::nullopt;
            }
            if (!config.release_set) config.api.release = *areas::parse_release(release);
            state = forked->path;
        }
        const std::filesystem::path base = state ? *state : config.seed;
        // Long loads show their progress on a terminal, or anywhere when asked.
        ProgressLine progress((state ? "loading state " : "loading seed ") + base.string(),
                              state ? ProgressLine::Unit::updates : ProgressLine::Unit::bytes,
                              std::cerr, stderr_is_terminal(), config.progress);
        std::unique_ptr<seed::LiveNetwork> network;
        if (state) {
            const MappedLoadGuard guard;
            network = seed::LiveNetwork::load_state_file(*state, progress.as_load_progress());
        } else {
            network = load_seed(config.seed, progress);
        }
        progress.finish();
        model::Name::release_retired_tables();  // no other thread yet
        release_free_memory();
        return Loaded{std::move(config), std::move(network), base, state.has_value()};
    } catch (const ConfigError& e) {
        std::cerr << "cantonlite: " << e.what() << '\n';
    } catch (const seed::SeedError& e) {
        std::cerr << "cantonlite: " << e.what() << '\n';
    }
    return std::nullopt;
}

// Writes the network's state file to each of `paths` that is set (--dump-state, --state), whole
// or not at all. Logs and returns false when one fails.
bool dump_state(const seed::LiveNetwork& network,
                std::initializer_list<std::filesystem::path> paths) {
    bool ok = true;
    for (const std::filesystem::path& path : paths) {
        if (path.empty()) continue;
        const seed::WrittenStateFile written = network.save_state(path);
        if (written.error) {
            spdlog::error("state file {}", *written.error);
            ok = false;
            continue;
        }
        std::error_code ignored;
        spdlog::info(
            "state file {} written ({:.1f} MiB)", path.string(),
            static_cast<double>(std::filesystem::file_size(path, ignored)) / (1024.0 * 1024.0));
    }
    return ok;
}

// server.max_connections, or when it is 0 the soft descriptor limit less a reserve for what else
// the process opens (journal, seed, logs, spdlog's files); 0 (no cap) when there is no limit.
std::size_t connection_cap(const ServerConfig& s) {
    if (s.max_connections > 0) return static_cast<std::size_t>(s.max_connections);
    constexpr rlim_t reserve = 64;
    rlimit limit{};
    if (::getrlimit(RLIMIT_NOFILE, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return 0;
    return limit.rlim_cur > 2 * reserve ? static_cast<std::size_t>(limit.rlim_cur - reserve)
                                        : static_cast<std::size_t>(limit.rlim_cur / 2);
}

net::ServerOptions server_options(const Config& config) {
    const ServerConfig& s = config.server;
    const int cores = static_cast<int>(std::max(1U, std::thread::hardware_concurrency()));
    AccessLog access = make_access_log(config.log.format);
    return net::ServerOptions{
        .address = s.address,
        .port = s.port,
        .io_threads = s.io_threads == 0 ? cores : s.io_threads,
        .read_timeout = std::chrono::milliseconds(s.read_timeout_ms),
        .idle_timeout = std::chrono::milliseconds(s.idle_timeout_ms),
        .max_header_bytes = s.max_header_bytes,
        .max_body_bytes = s.max_body_bytes,
        .shutdown_grace = std::chrono::milliseconds(s.shutdown_grace_ms),
        .max_connections = connection_cap(s),
        .server_header = std::string("cantonlite/") + CANTONLITE_VERSION,
        .access_log = std::move(access.log),
        .access_log_flush = std::move(access.flush),
    };
}

// The SHA-256 of the bytes of the file the network was loaded from (its seed or state file): what
// a journal is written for.
std::string seed_fingerprint(const std::filesystem::path& seed) {
    if (const auto builtin = builtin_file(seed)) return model::sha256_hex(*builtin);
    return model::sha256_hex(util::read_file(seed).value_or(""));
}

// Opens the configured journal and replays it into the network. Prints one line and returns
// nullptr when that fails; an empty pointer with `ok` when no journal is configured.
std::unique_ptr<journal::Journal> open_journal(const Config& config,
                                               const std::filesystem::path& base,
                                               seed::LiveNetwork& network, bool& ok) {
    ok = true;
    if (config.journal.empty()) return nullptr;
    // A URL's password stays out of messages and logs.
    const std::string name = journal::redact_url(config.journal.string());
    std::unique_ptr<journal::Journal> journal;
    try {
        journal = journal::open_journal(config.journal.string(), seed_fingerprint(base));
    } catch (const journal::JournalError& e) {  // names the journal already
        std::cerr << "cantonlite: " << e.what() << '\n';
        ok = false;
        return nullptr;
    }
    try {
        ProgressLine progress("replaying journal " + name, ProgressLine::Unit::records, std::cerr,
                              stderr_is_terminal(), config.progress);
        network.attach_journal(*journal, progress.as_load_progress());
        progress.finish();
        spdlog::info("journal {}: {} writes replayed; every write is kept there", name,
                     journal->recovered().size());
        return journal;
    } catch (const journal::JournalError& e) {
        std::cerr << "cantonlite: " << name << ": " << e.what() << '\n';
    }
    ok = false;
    return nullptr;
}

// The flags that make `cantonlite token` load the network this command loaded.
std::string token_command_flags(const CommandLine& cli, const Config& config) {
    std::string out;
    const auto add = [&](const std::string& flag, const std::string& value) {
        out += (out.empty() ? "" : " ") + flag + " " + shell_quote(value);
    };
    if (cli.config) add("--config", *cli.config);
    // A network loaded from a state file: the token command reads the same file.
    if (const std::optional<std::filesystem::path> state = state_to_load(config)) {
        add("--load-state", state->string());
        return out;
    }
    for (const auto& [key, value] : cli.settings) {
        if (key == "seed") add("--seed", value);
    }
    if (loads_localnet_seed(config)) out += std::string(out.empty() ? "" : " ") + "--localnet";
    return out;
}

// `token_command`: the command line that prints a token for this network, before its --user.
areas::admin::AdminOptions admin_options(const Config& config, std::string token_command) {
    areas::admin::AdminOptions options{
        .open = areas::admin::is_loopback_address(config.server.address),
        .token = config.admin.token,
        .describe =
            [profile = config.api](const store::LedgerStore& store) {
                return describe_json(store, profile).dump(2);
            },
        .overview =
            [token_command = std::move(token_command)](const store::LedgerStore& store) {
                return overview_json(store, token_command).dump();
            },
        .explore = explore_text,
        .state_dir = config.state_dir};
    if (!options.open && options.token.empty()) {
        spdlog::warn(
            "the admin API (/_cantonlite/v1/) answers 403: {} is not a loopback address "
            "and admin.token (CANTONLITE_ADMIN_TOKEN, --admin-token) is not set",
            config.server.address);
    } else if (!options.open) {
        spdlog::info("the admin API (/_cantonlite/v1/) needs the bearer admin.token on {}",
                     config.server.address);
    }
    return options;
}

int serve(const CommandLine& cli) {
    interactive::silence_protobuf_logs();
    int failed_exit = exit_usage;
    auto loaded = load_network(cli, failed_exit);
    if (!loaded) return failed_exit;
    const Config& config = loaded->config;
    configure_logging(config.log);
    bool journal_ok = false;
    auto journal = open_journal(config, loaded->base, *loaded->network, journal_ok);
    if (!journal_ok) return exit_usage;
    if (config.clock_now) {
        const model::Timestamp t = start_at_wall_clock(
            *loaded->network,
            model::Timestamp{std::chrono::duration_cast<std::chrono::microseconds>(
                                 std::chrono::system_clock::now().time_since_epoch())
                                 .count()});
        spdlog::info("the ledger time follows the wall clock: {}, a mining round open",
                     model::format_instant(t));
    }
    std::unique_ptr<http::Router> router;
    try {
        const std::string flags = token_command_flags(cli, config);
        router = make_router(
            *loaded->network,
            admin_options(config, "cantonlite token" + (flags.empty() ? "" : " " + flags)),
            config.api);
    } catch (const std::invalid_argument& e) {  // unusable auth keys
        std::cerr << "cantonlite: " << config.seed.string() << ": /auth: " << e.what() << '\n';
        return exit_usage;
    }
    RootArea& root = *find_root_area(*router);
    net::ServerOptions options = server_options(config);
    LocalNet localnet;
    if (config.localnet) {
        localnet =
            make_localnet(loaded->network->store(), loaded->network->gate(), *router, config.api);
        options.also_listen = localnet.listeners;
        for (const auto& r : localnet.routers) root.index(*r);
    }
    options.access_log = [log = std::move(options.access_log),
                          &requests = root.requests()](const net::AccessRecord& record) {
        requests.record(record);
        if (log) log(record);
    };
    net::Server server(std::move(options), *router);
    root.set_open_connections([&server] { return server.open_connections(); });
    if (journal) root.set_journal([&journal] { return journal->stats(); });
    // SIGINT and SIGTERM are handled before the first answer: a script that stops the daemon once
    // it answers is heard even when its shell started it with SIGINT ignored (a background job).
    server.stop_on_signals();
    try {
        server.start();
    } catch (const std::system_error& e) {
        std::cerr << "cantonlite: " << e.what() << '\n';
        return exit_start_failed;
    }
    for (const LocalNetEndpoint& e : localnet.endpoints) {
        spdlog::info("LocalNet {} answered here: {}", e.url, e.serves);
    }
    spdlog::info(
        "cantonlite {} serving on {}:{} (config {}, {} {}, release {}: Canton {}, "
        "Splice {})",
        CANTONLITE_VERSION, config.server.address, server.port(), config.file.string(),
        loaded->from_state ? "state" : "seed", loaded->base.string(),
        areas::release_name(config.api.release), areas::canton_version(config.api.release),
        areas::splice_version(config.api.release));
    server.wait();
    // Writes still waiting for their sync are answered (into closed sessions) while the areas
    // and the server's io context still exist.
    journal.reset();
    const bool dumped = dump_state(*loaded->network, {config.dump_state, config.state});
    spdlog::info("stopped");
    return dumped ? exit_ok : exit_start_failed;
}

// Where a loaded network came from, for describe: "built-in default network", "seed PATH" or
// "state file PATH".
std::string source_of(const Loaded& loaded) {
    if (builtin_file(loaded.base)) {
        return loaded.base.filename() == "localnet-network.json" ? "built-in LocalNet network"
                                                                 : "built-in default network";
    }
    return (loaded.from_state ? "state file " : "seed ") + loaded.base.string();
}

int describe(const CommandLine& cli) {
    int failed_exit = exit_usage;
    const auto loaded = load_network(cli, failed_exit);
    if (!loaded) return failed_exit;
    if (cli.json) {
        nlohmann::ordered_json doc = describe_json(loaded->store(), loaded->config.api);
        doc["source"] = source_of(*loaded);
        std::cout << doc.dump(2) << '\n';
    } else {
        std::cout << describe_text(
            loaded->store(), TextOptions{.port = loaded->config.server.port,
                                         .token_flags = token_command_flags(cli, loaded->config),
                                         .profile = loaded->config.api,
                                         .source = source_of(*loaded)});
    }
    return exit_ok;
}

int token(const CommandLine& cli) {
    int failed_exit = exit_usage;
    const auto loaded = load_network(cli, failed_exit);
    if (!loaded) return failed_exit;
    const auto now = std::chrono::duration_cast<std::chrono::seconds>(
        std::chrono::system_clock::now().time_since_epoch());
    try {
        std::cout << make_token(loaded->store().network(), cli.user, now.count(), cli.expires_in)
                  << '\n';
    } catch (const TokenError& e) {
        std::cerr << "cantonlite: " << e.what() << '\n';
        return exit_usage;
    }
    return exit_ok;
}

// Set by SIGINT and SIGTERM while a fork or a dump runs: it stops, writing nothing.
std::atomic<bool> fork_stop{false};

int fork_command(const CommandLine& cli) {
    const auto on_signal = [](int /*signal*/) { fork_stop.store(true); };
    std::signal(SIGINT, on_signal);
    std::signal(SIGTERM, on_signal);
    return cli.command == Command::dump ? run_dump(cli.fork, std::cerr, fork_stop)
                                        : run_fork(cli.fork, std::cerr, fork_stop);
}

int generate(const CommandLine& cli) {
    write_generated_seed(std::cout, cli.generate);
    std::cout.flush();
    return std::cout ? exit_ok : exit_start_failed;
}

}  // namespace

std::unique_ptr<http::Router> make_router(const store::LedgerStore& store,
                                          const areas::ApiProfile& profile,
                                          seed::LiveNetwork* writer) {
    auto router = std::make_unique<http::Router>();
    router->mount(std::make_unique<areas::ledger::LedgerArea>(store, profile, writer));
    router->mount(std::make_unique<areas::scan::ScanArea>(store, profile));
    router->mount(std::make_unique<areas::scan::RegistryArea>(store));
    router->mount(std::make_unique<areas::validator::ValidatorArea>(store));
    return router;
}

std::unique_ptr<http::Router> make_router(seed::LiveNetwork& network,
                                          areas::admin::AdminOptions admin,
                                          const areas::ApiProfile& profile) {
    auto router = make_router(network.store(), profile, &network);
    router->mount(
        std::make_unique<areas::admin::AdminArea>(network, router->faults(), std::move(admin)));
    auto root = std::make_unique<RootArea>(&network, &router->faults());
    RootArea& metrics = *root;
    router->mount(std::move(root));
    metrics.index(*router);
    router->set_read_gate(&network.gate());
    return router;
}

int run(const std::vector<std::string>& args) {
    CommandLine cli;
    try {
        cli = parse_command_line(args);
    } catch (const UsageError& e) {
        std::cerr << "cantonlite: " << e.what() << '\n';
        return exit_usage;
    }
    switch (cli.command) {
        case Command::help:
            std::cout << usage_text(cli.help_topic);
            return exit_ok;
        case Command::version:
            std::cout << "cantonlite " << CANTONLITE_VERSION << '\n';
            return exit_ok;
        case Command::serve:
            return serve(cli);
        case Command::describe:
            return describe(cli);
        case Command::token:
            return token(cli);
        case Command::generate:
            return generate(cli);
        case Command::fork:
        case Command::dump:
            return fork_command(cli);
        case Command::apply:
        case Command::time:
        case Command::snapshot:
        case Command::revert:
        case Command::reset:
        case Command::state_save:
        case Command::state_load:
            return run_admin_command(cli, std::cin, std::cout, std::cerr,
                                     [](const char* name) { return std::getenv(name); });
    }
    return exit_usage;
}

}  // namespace cantonlite::app
