#include "cantonlite/app/config.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <fstream>
#include <limits>
#include <sstream>
#include <utility>

#include <nlohmann/json.hpp>

#include "cantonlite/app/builtin_files.hpp"
#include "cantonlite/journal/journal.hpp"
#include "cantonlite/model/json_fields.hpp"

namespace cantonlite::app {
namespace {

using model::JsonObject;

constexpr std::array<std::string_view, 6> log_levels{"trace", "debug", "info",
                                                     "warn",  "error", "off"};

bool is_log_level(std::string_view level) {
    for (const std::string_view l : log_levels) {
        if (l == level) return true;
    }
    return false;
}

LogFormat parse_log_format(std::string_view text, const std::string& where) {
    if (text == "text") return LogFormat::text;
    if (text == "json") return LogFormat::json;
    throw ConfigError(where + ": must be \"text\" or \"json\", got \"" + std::string(text) + "\"");
}

std::string check_log_level(std::string_view text, const std::string& where) {
    if (!is_log_level(text)) {
        throw ConfigError(where + ": must be one of trace, debug, info, warn, error, off, got \"" +
                          std::string(text) + "\"");
    }
    return std::string(text);
}

bool parse_bool(std::string_view text, const std::string& where) {
    if (text == "true") return true;
    if (text == "false") return false;
    throw ConfigError(where + ": must be true or false, got \"" + std::string(text) + "\"");
}

std::int64_t parse_integer(std::string_view text, std::int64_t min, std::int64_t max,
                           const std::string& where) {
    std::int64_t value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size() || value < min || value > max) {
        throw ConfigError(where + ": must be an integer from " + std::to_string(min) + " to " +
                          std::to_string(max) + ", got \"" + std::string(text) + "\"");
    }
    return value;
}

void read_server(const JsonObject& o, ServerConfig& s) {
    o.reject_unknown_keys({"address", "port", "io_threads", "read_timeout_ms", "idle_timeout_ms",
                           "max_header_bytes", "max_body_bytes", "shutdown_grace_ms",
                           "max_connections"});
    constexpr std::int64_t day_ms = 86'400'000;
    if (auto v = o.optional_string("address")) s.address = *v;
    if (auto v = o.optional_integer("port", 0, 65535)) s.port = static_cast<std::uint16_t>(*v);
    if (auto v = o.optional_integer("io_threads", 0, 256)) s.io_threads = static_cast<int>(*v);
    if (auto v = o.optional_integer("read_timeout_ms", 1, day_ms)) s.read_timeout_ms = *v;
    if (auto v = o.optional_integer("idle_timeout_ms", 1, day_ms)) s.idle_timeout_ms = *v;
    if (auto v = o.optional_integer("max_header_bytes", 1024, 1 << 20)) {
        s.max_header_bytes = static_cast<std::uint32_t>(*v);
    }
    if (auto v = o.optional_integer("max_body_bytes", 0, std::int64_t{1} << 32)) {
        s.max_body_bytes = static_cast<std::uint64_t>(*v);
    }
    if (auto v = o.optional_integer("shutdown_grace_ms", 0, day_ms)) s.shutdown_grace_ms = *v;
    if (auto v = o.optional_integer("max_connections", 0, 1'000'000)) s.max_connections = *v;
}

void read_log(const JsonObject& o, LogConfig& l) {
    o.reject_unknown_keys({"level", "format"});
    if (auto v = o.optional_string("level")) l.level = check_log_level(*v, o.pointer_of("level"));
    if (auto v = o.optional_string("format"))
        l.format = parse_log_format(*v, o.pointer_of("format"));
}

areas::Release parse_release(std::string_view text, const std::string& where) {
    if (const auto release = areas::parse_release(text)) return *release;
    throw ConfigError(where + ": must be \"splice-0.6\" or \"splice-0.9\", got \"" +
                      std::string(text) + "\"");
}

// The settings that name a file (or folder) besides the seed: in a config file relative to its
// folder, in a flag or variable as given; never empty.
constexpr std::array<std::pair<std::string_view, std::filesystem::path Config::*>, 5> file_settings{
    {{"journal", &Config::journal},
     {"state", &Config::state},
     {"load_state", &Config::load_state},
     {"dump_state", &Config::dump_state},
     {"state_dir", &Config::state_dir}}};

bool parse_clock(std::string_view text, const std::string& where) {
    if (text == "now") return true;
    if (text == "seed") return false;
    throw ConfigError(where + ": must be \"seed\" or \"now\", got \"" + std::string(text) + "\"");
}

void read_deprecated(const JsonObject& o, areas::DeprecatedApis& d) {
    o.reject_unknown_keys({"enable_deprecated_endpoints_34", "enable_deprecated_parameters_34",
                           "enable_deprecated_endpoints_35"});
    if (auto v = o.optional_bool("enable_deprecated_endpoints_34")) d.endpoints_34 = *v;
    if (auto v = o.optional_bool("enable_deprecated_parameters_34")) d.parameters_34 = *v;
    if (auto v = o.optional_bool("enable_deprecated_endpoints_35")) d.endpoints_35 = *v;
}

nlohmann::json read_json(const std::filesystem::path& file) {
    std::string text;
    if (const auto builtin = builtin_file(file)) {
        text = std::string(*builtin);
    } else {
        std::ifstream in(file);
        if (!in) throw ConfigError(file.string() + ": cannot be read");
        std::stringstream read;
        read << in.rdbuf();
        text = read.str();
    }
    try {
        return nlohmann::json::parse(text);
    } catch (const nlohmann::json::exception& e) {  // parse_error, or out_of_range (1e400)
        throw ConfigError(file.string() + ": is not valid JSON: " + e.what());
    }
}

}  // namespace

Config load_config(const std::filesystem::path& file) {
    const nlohmann::json document = read_json(file);
    Config config{.file = file};
    try {
        const JsonObject root(document, "");
        root.reject_unknown_keys({"server", "log", "seed", "localnet_seed", "journal", "admin",
                                  "release", "deprecated", "localnet", "clock", "progress", "state",
                                  "load_state", "dump_state", "state_dir", "fork_scan"});
        if (auto server = root.optional_object("server")) read_server(*server, config.server);
        if (auto log = root.optional_object("log")) read_log(*log, config.log);
        config.seed = file.parent_path() / root.string("seed");
        if (const auto localnet_seed = root.optional_string("localnet_seed")) {
            config.localnet_seed = file.parent_path() / *localnet_seed;
        }
        for (const auto& [key, field] : file_settings) {
            // (optional_string refuses an empty one)
            if (const auto value = root.optional_string(key)) {
                // A journal in PostgreSQL is a URL, not a file.
                const bool url = field == &Config::journal && journal::is_postgres_url(*value);
                config.*field = url ? std::filesystem::path(*value) : file.parent_path() / *value;
            }
        }
        if (auto admin = root.optional_object("admin")) {
            admin->reject_unknown_keys({"token"});
            config.admin.token = admin->optional_string("token").value_or("");
        }
        if (const auto fork_scan = root.optional_string("fork_scan")) config.fork_scan = *fork_scan;
        if (const auto release = root.optional_string("release")) {
            config.api.release = parse_release(*release, root.pointer_of("release"));
            config.release_set = true;
        }
        if (auto deprecated = root.optional_object("deprecated")) {
            read_deprecated(*deprecated, config.api.deprecated);
        }
        if (auto localnet = root.optional_bool("localnet")) config.localnet = *localnet;
        if (auto progress = root.optional_bool("progress")) config.progress = *progress;
        if (const auto clock = root.optional_string("clock"))
            config.clock_now = parse_clock(*clock, root.pointer_of("clock"));
    } catch (const model::JsonFieldError& e) {
        throw ConfigError(file.string() + ": " + e.what());
    } catch (const ConfigError& e) {
        throw ConfigError(file.string() + ": " + e.what());
    }
    return config;
}

bool loads_localnet_seed(const Config& config) {
    return config.localnet && !config.seed_set && !config.localnet_seed.empty();
}

void settle_seed(Config& config) {
    if (loads_localnet_seed(config)) config.seed = config.localnet_seed;
}

void apply_setting(Config& config, std::string_view key, std::string_view value,
                   std::string_view source) {
    const std::string where(source);
    ServerConfig& s = config.server;
    if (key == "address") {
        if (value.empty()) throw ConfigError(where + ": must not be empty");
        s.address = std::string(value);
    } else if (key == "port") {
        s.port = static_cast<std::uint16_t>(parse_integer(value, 0, 65535, where));
    } else if (key == "io_threads") {
        s.io_threads = static_cast<int>(parse_integer(value, 0, 256, where));
    } else if (key == "log_level") {
        config.log.level = check_log_level(value, where);
    } else if (key == "log_format") {
        config.log.format = parse_log_format(value, where);
    } else if (key == "seed") {
        if (value.empty()) throw ConfigError(where + ": must not be empty");
        config.seed = std::filesystem::path(value);
        config.seed_set = true;
    } else if (const auto f = std::find_if(file_settings.begin(), file_settings.end(),
                                           [&](const auto& e) { return e.first == key; });
               f != file_settings.end()) {
        if (value.empty()) throw ConfigError(where + ": must not be empty");
        config.*(f->second) = std::filesystem::path(value);
    } else if (key == "admin_token") {
        config.admin.token = std::string(value);
    } else if (key == "release") {
        config.api.release = parse_release(value, where);
        config.release_set = true;
    } else if (key == "fork_scan") {
        if (value.empty()) throw ConfigError(where + ": must not be empty");
        config.fork_scan = std::string(value);
    } else if (key == "enable_deprecated") {
        const bool on = parse_bool(value, where);
        config.api.deprecated = {.endpoints_34 = on, .parameters_34 = on, .endpoints_35 = on};
    } else if (key == "localnet") {
        config.localnet = parse_bool(value, where);
    } else if (key == "clock") {
        config.clock_now = parse_clock(value, where);
    } else if (key == "progress") {
        config.progress = parse_bool(value, where);
    } else {
        throw ConfigError(where + ": unknown setting");
    }
}

void apply_environment(Config& config, const std::function<const char*(const char*)>& getenv) {
    static constexpr std::array<std::pair<const char*, std::string_view>, 18> variables{{
        {"CANTONLITE_ADDRESS", "address"},
        {"CANTONLITE_PORT", "port"},
        {"CANTONLITE_IO_THREADS", "io_threads"},
        {"CANTONLITE_LOG_LEVEL", "log_level"},
        {"CANTONLITE_LOG_FORMAT", "log_format"},
        {"CANTONLITE_SEED", "seed"},
        {"CANTONLITE_JOURNAL", "journal"},
        {"CANTONLITE_ADMIN_TOKEN", "admin_token"},
        {"CANTONLITE_RELEASE", "release"},
        {"CANTONLITE_ENABLE_DEPRECATED", "enable_deprecated"},
        {"CANTONLITE_LOCALNET", "localnet"},
        {"CANTONLITE_CLOCK", "clock"},
        {"CANTONLITE_PROGRESS", "progress"},
        {"CANTONLITE_STATE", "state"},
        {"CANTONLITE_LOAD_STATE", "load_state"},
        {"CANTONLITE_DUMP_STATE", "dump_state"},
        {"CANTONLITE_STATE_DIR", "state_dir"},
        {"CANTONLITE_FORK_SCAN", "fork_scan"},
    }};
    for (const auto& [name, key] : variables) {
        const char* value = getenv(name);
        if (value != nullptr && *value != '\0') apply_setting(config, key, value, name);
    }
}

std::filesystem::path default_config_path(const std::function<const char*(const char*)>& getenv) {
    if (const char* explicit_path = getenv("CANTONLITE_CONFIG");
        explicit_path != nullptr && *explicit_path != '\0') {
        return explicit_path;
    }
    std::error_code ec;
    const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (!ec) {
        const auto shipped = exe.parent_path().parent_path() / "config" / "cantonlite.json";
        if (std::filesystem::exists(shipped, ec)) return shipped;
    }
    const auto beside = std::filesystem::path("config") / "cantonlite.json";
    if (std::filesystem::exists(beside, ec)) return beside;
    return builtin_path("cantonlite.json");
}

}  // namespace cantonlite::app
