#include "cantonlite/app/config.hpp"

#include "cantonlite/app/builtin_files.hpp"

#include <unistd.h>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace cantonlite::app::config_test {
namespace {

namespace fs = std::filesystem;

// The what() of the ConfigError that `action` throws, or "" when it throws none.
std::string config_error(const std::function<void()>& action) {
    try {
        action();
    } catch (const ConfigError& e) {
        return e.what();
    }
    return "";
}

// A folder name unique to the running test ("Suite/Name/0" -> "Suite_Name_0").
std::string test_folder_name() {
    const testing::TestInfo* info = testing::UnitTest::GetInstance()->current_test_info();
    std::string name = std::string("cantonlite-config-test-") + std::to_string(::getpid()) + "-" +
                       info->test_suite_name() + "-" + info->name();
    for (char& c : name) {
        if (c == '/') c = '_';
    }
    return name;
}

// A fresh folder per test for config files.
class ConfigFileTest : public testing::Test {
  protected:
    ConfigFileTest() : dir_(fs::temp_directory_path() / test_folder_name()) {
        fs::create_directories(dir_);
    }
    ~ConfigFileTest() override { fs::remove_all(dir_); }

    fs::path write(const std::string& text) const {
        const fs::path path = dir_ / "cantonlite.json";
        std::ofstream(path) << text;
        return path;
    }

    fs::path dir_;
};

TEST_F(ConfigFileTest, DefaultsEverythingButTheSeed) {
    const fs::path file = write(R"({"seed": "network.json"})");

    const Config config = load_config(file);

    EXPECT_EQ(config.file, file);
    EXPECT_EQ(config.seed, dir_ / "network.json");
    EXPECT_EQ(config.server.address, "127.0.0.1");
    EXPECT_EQ(config.server.port, 7575);
    EXPECT_EQ(config.server.io_threads, 0);
    EXPECT_EQ(config.server.read_timeout_ms, 30'000);
    EXPECT_EQ(config.server.idle_timeout_ms, 60'000);
    EXPECT_EQ(config.server.max_header_bytes, 16U * 1024);
    EXPECT_EQ(config.server.max_body_bytes, 8U * 1024 * 1024);
    EXPECT_EQ(config.server.shutdown_grace_ms, 5'000);
    EXPECT_EQ(config.log.level, "info");
    EXPECT_EQ(config.log.format, LogFormat::text);
}

TEST_F(ConfigFileTest, EmptySectionsKeepTheDefaults) {
    const fs::path file = write(R"({"server": {}, "log": {}, "seed": "s.json"})");

    const Config config = load_config(file);

    EXPECT_EQ(config.server.port, 7575);
    EXPECT_EQ(config.log.level, "info");
}

TEST_F(ConfigFileTest, ReadsEveryField) {
    const fs::path file = write(R"({
        "server": {"address": "0.0.0.0", "port": 8080, "io_threads": 4, "read_timeout_ms": 1000,
                   "idle_timeout_ms": 2000, "max_header_bytes": 4096, "max_body_bytes": 1024,
                   "shutdown_grace_ms": 0, "max_connections": 500},
        "log": {"level": "debug", "format": "json"},
        "seed": "seeds/network.json"
    })");

    const Config config = load_config(file);

    EXPECT_EQ(config.server.address, "0.0.0.0");
    EXPECT_EQ(config.server.port, 8080);
    EXPECT_EQ(config.server.io_threads, 4);
    EXPECT_EQ(config.server.read_timeout_ms, 1000);
    EXPECT_EQ(config.server.idle_timeout_ms, 2000);
    EXPECT_EQ(config.server.max_header_bytes, 4096U);
    EXPECT_EQ(config.server.max_body_bytes, 1024U);
    EXPECT_EQ(config.server.shutdown_grace_ms, 0);
    EXPECT_EQ(config.server.max_connections, 500);
    EXPECT_EQ(config.log.level, "debug");
    EXPECT_EQ(config.log.format, LogFormat::json);
    EXPECT_EQ(config.seed, dir_ / "seeds" / "network.json");
}

TEST_F(ConfigFileTest, KeepsAnAbsoluteSeedPath) {
    const fs::path file = write(R"({"seed": "/srv/seeds/network.json"})");

    const Config config = load_config(file);

    EXPECT_EQ(config.seed, fs::path("/srv/seeds/network.json"));
}

TEST_F(ConfigFileTest, AcceptsTheLargestValues) {
    const fs::path file = write(R"({"server": {"port": 65535, "io_threads": 256,
        "read_timeout_ms": 86400000, "max_header_bytes": 1048576, "max_body_bytes": 4294967296},
        "seed": "s.json"})");

    const Config config = load_config(file);

    EXPECT_EQ(config.server.port, 65535);
    EXPECT_EQ(config.server.io_threads, 256);
    EXPECT_EQ(config.server.read_timeout_ms, 86'400'000);
    EXPECT_EQ(config.server.max_header_bytes, 1048576U);
    EXPECT_EQ(config.server.max_body_bytes, 4294967296U);
}

TEST(LoadConfig, LoadsTheShippedConfig) {
    const fs::path file = fs::path(CANTONLITE_SOURCE_DIR) / "config" / "cantonlite.json";

    const Config config = load_config(file);

    EXPECT_EQ(config.server.port, 7575);
    EXPECT_EQ(config.seed, file.parent_path() / "default-network.json");
}

struct FileErrorCase {
    std::string name;
    std::string text;
    std::string error;  // after "<file>: "
};

class ConfigFileRejects : public ConfigFileTest,
                          public testing::WithParamInterface<FileErrorCase> {};

TEST_P(ConfigFileRejects, NamingTheFileThePointerAndTheProblem) {
    const FileErrorCase& c = GetParam();
    const fs::path file = write(c.text);

    const std::string error = config_error([&] { (void)load_config(file); });

    EXPECT_EQ(error, file.string() + ": " + c.error);
}

INSTANTIATE_TEST_SUITE_P(
    Documents, ConfigFileRejects,
    testing::Values(
        FileErrorCase{"MissingSeed", R"({})", "/seed: is required"},
        FileErrorCase{"EmptySeed", R"({"seed": ""})",
                      "/seed: must be a non-empty string, got \"\""},
        FileErrorCase{"RootNotAnObject", R"(["seed"])", "/: must be an object, got [\"seed\"]"},
        FileErrorCase{"UnknownRootKey", R"({"seed": "s.json", "sever": {}})",
                      "/sever: unknown key"},
        FileErrorCase{"UnknownServerKey", R"({"server": {"prot": 1}, "seed": "s.json"})",
                      "/server/prot: unknown key"},
        FileErrorCase{"UnknownLogKey", R"({"log": {"colour": true}, "seed": "s.json"})",
                      "/log/colour: unknown key"},
        FileErrorCase{"ServerNotAnObject", R"({"server": 8080, "seed": "s.json"})",
                      "/server: must be an object, got 8080"},
        FileErrorCase{"PortTooLarge", R"({"server": {"port": 65536}, "seed": "s.json"})",
                      "/server/port: must be an integer from 0 to 65535, got 65536"},
        FileErrorCase{"PortAsString", R"({"server": {"port": "8080"}, "seed": "s.json"})",
                      "/server/port: must be an integer from 0 to 65535, got \"8080\""},
        FileErrorCase{"NegativeIoThreads", R"({"server": {"io_threads": -1}, "seed": "s.json"})",
                      "/server/io_threads: must be an integer from 0 to 256, got -1"},
        FileErrorCase{"ZeroReadTimeout", R"({"server": {"read_timeout_ms": 0}, "seed": "s.json"})",
                      "/server/read_timeout_ms: must be an integer from 1 to 86400000, got 0"},
        FileErrorCase{
            "IdleTimeoutAboveADay",
            R"({"server": {"idle_timeout_ms": 86400001}, "seed": "s.json"})",
            "/server/idle_timeout_ms: must be an integer from 1 to 86400000, got 86400001"},
        FileErrorCase{
            "SmallHeaderLimit", R"({"server": {"max_header_bytes": 1023}, "seed": "s.json"})",
            "/server/max_header_bytes: must be an integer from 1024 to 1048576, got 1023"},
        FileErrorCase{
            "HugeBodyLimit", R"({"server": {"max_body_bytes": 4294967297}, "seed": "s.json"})",
            "/server/max_body_bytes: must be an integer from 0 to 4294967296, got 4294967297"},
        FileErrorCase{"NegativeShutdownGrace",
                      R"({"server": {"shutdown_grace_ms": -5}, "seed": "s.json"})",
                      "/server/shutdown_grace_ms: must be an integer from 0 to 86400000, got -5"},
        FileErrorCase{"NegativeMaxConnections",
                      R"({"server": {"max_connections": -1}, "seed": "s.json"})",
                      "/server/max_connections: must be an integer from 0 to 1000000, got -1"},
        FileErrorCase{"EmptyAddress", R"({"server": {"address": ""}, "seed": "s.json"})",
                      "/server/address: must be a non-empty string, got \"\""},
        FileErrorCase{
            "UnknownLogLevel", R"({"log": {"level": "loud"}, "seed": "s.json"})",
            "/log/level: must be one of trace, debug, info, warn, error, off, got \"loud\""},
        FileErrorCase{"UnknownLogFormat", R"({"log": {"format": "xml"}, "seed": "s.json"})",
                      "/log/format: must be \"text\" or \"json\", got \"xml\""}),
    [](const testing::TestParamInfo<FileErrorCase>& info) { return info.param.name; });

TEST_F(ConfigFileTest, InvalidJsonNamesTheFile) {
    const fs::path file = write(R"({"seed": "s.json",})");

    const std::string error = config_error([&] { (void)load_config(file); });

    const std::string prefix = file.string() + ": is not valid JSON: ";
    EXPECT_EQ(error.substr(0, prefix.size()), prefix) << error;
    EXPECT_NE(error.find("parse error"), std::string::npos) << error;
}

TEST_F(ConfigFileTest, NumberBeyondADoubleNamesTheFile) {
    const fs::path file = write(R"({"seed": "s.json", "port": 1e400})");

    const std::string error = config_error([&] { (void)load_config(file); });

    EXPECT_NE(error.find(file.string() + ": is not valid JSON: "), std::string::npos) << error;
}

TEST_F(ConfigFileTest, MissingFileNamesTheFile) {
    const fs::path file = dir_ / "absent.json";

    const std::string error = config_error([&] { (void)load_config(file); });

    EXPECT_EQ(error, file.string() + ": cannot be read");
}

// --- apply_setting --------------------------------------------------------------------------

TEST(ApplySetting, SetsEachOverridableSetting) {
    Config config;

    apply_setting(config, "address", "0.0.0.0", "--address");
    apply_setting(config, "port", "8081", "--port");
    apply_setting(config, "io_threads", "3", "--io-threads");
    apply_setting(config, "log_level", "warn", "--log-level");
    apply_setting(config, "log_format", "json", "--log-format");
    apply_setting(config, "seed", "other.json", "--seed");

    EXPECT_EQ(config.server.address, "0.0.0.0");
    EXPECT_EQ(config.server.port, 8081);
    EXPECT_EQ(config.server.io_threads, 3);
    EXPECT_EQ(config.log.level, "warn");
    EXPECT_EQ(config.log.format, LogFormat::json);
    EXPECT_EQ(config.seed, fs::path("other.json"));
}

TEST(ApplySetting, AcceptsPortZeroForAnyFreePort) {
    Config config;

    apply_setting(config, "port", "0", "--port");

    EXPECT_EQ(config.server.port, 0);
}

struct SettingErrorCase {
    std::string key;
    std::string value;
    std::string source;
    std::string error;
};

class ApplySettingRejects : public testing::TestWithParam<SettingErrorCase> {};

TEST_P(ApplySettingRejects, NamingTheSourceAndTheProblem) {
    const SettingErrorCase& c = GetParam();
    Config config;

    const std::string error =
        config_error([&] { apply_setting(config, c.key, c.value, c.source); });

    EXPECT_EQ(error, c.error);
}

INSTANTIATE_TEST_SUITE_P(
    Values, ApplySettingRejects,
    testing::Values(
        SettingErrorCase{"port", "abc", "--port",
                         "--port: must be an integer from 0 to 65535, got \"abc\""},
        SettingErrorCase{"port", "65536", "CANTONLITE_PORT",
                         "CANTONLITE_PORT: must be an integer from 0 to 65535, got \"65536\""},
        SettingErrorCase{"port", "-1", "--port",
                         "--port: must be an integer from 0 to 65535, got \"-1\""},
        SettingErrorCase{"port", "80x", "--port",
                         "--port: must be an integer from 0 to 65535, got \"80x\""},
        SettingErrorCase{"port", "", "--port",
                         "--port: must be an integer from 0 to 65535, got \"\""},
        SettingErrorCase{"port", " 80", "--port",
                         "--port: must be an integer from 0 to 65535, got \" 80\""},
        SettingErrorCase{"io_threads", "257", "--io-threads",
                         "--io-threads: must be an integer from 0 to 256, got \"257\""},
        SettingErrorCase{"address", "", "--address", "--address: must not be empty"},
        SettingErrorCase{"seed", "", "CANTONLITE_SEED", "CANTONLITE_SEED: must not be empty"},
        SettingErrorCase{
            "log_level", "verbose", "--log-level",
            "--log-level: must be one of trace, debug, info, warn, error, off, got \"verbose\""},
        SettingErrorCase{
            "log_level", "INFO", "--log-level",
            "--log-level: must be one of trace, debug, info, warn, error, off, got \"INFO\""},
        SettingErrorCase{"log_format", "xml", "--log-format",
                         "--log-format: must be \"text\" or \"json\", got \"xml\""},
        SettingErrorCase{"colour", "red", "--colour", "--colour: unknown setting"}));

// --- apply_environment ----------------------------------------------------------------------

// A getenv over a fixed map.
std::function<const char*(const char*)> fake_env(const std::map<std::string, std::string>& vars) {
    return [vars](const char* name) -> const char* {
        const auto it = vars.find(name);
        return it == vars.end() ? nullptr : it->second.c_str();
    };
}

TEST(ApplyEnvironment, ReadsEveryVariable) {
    Config config;
    const auto env = fake_env({{"CANTONLITE_ADDRESS", "::1"},
                               {"CANTONLITE_PORT", "9000"},
                               {"CANTONLITE_IO_THREADS", "2"},
                               {"CANTONLITE_LOG_LEVEL", "trace"},
                               {"CANTONLITE_LOG_FORMAT", "json"},
                               {"CANTONLITE_SEED", "/data/seed.json"}});

    apply_environment(config, env);

    EXPECT_EQ(config.server.address, "::1");
    EXPECT_EQ(config.server.port, 9000);
    EXPECT_EQ(config.server.io_threads, 2);
    EXPECT_EQ(config.log.level, "trace");
    EXPECT_EQ(config.log.format, LogFormat::json);
    EXPECT_EQ(config.seed, fs::path("/data/seed.json"));
}

TEST(ApplyEnvironment, LeavesSettingsAloneWhenNoVariableIsSet) {
    Config config;
    config.seed = "from-file.json";

    apply_environment(config, fake_env({}));

    EXPECT_EQ(config.server.address, "127.0.0.1");
    EXPECT_EQ(config.server.port, 7575);
    EXPECT_EQ(config.log.level, "info");
    EXPECT_EQ(config.seed, fs::path("from-file.json"));
}

TEST(ApplyEnvironment, IgnoresEmptyVariables) {
    Config config;

    apply_environment(config, fake_env({{"CANTONLITE_PORT", ""}, {"CANTONLITE_ADDRESS", ""}}));

    EXPECT_EQ(config.server.port, 7575);
    EXPECT_EQ(config.server.address, "127.0.0.1");
}

TEST(ApplyEnvironment, ErrorNamesTheVariable) {
    Config config;

    const std::string error = config_error([&] {
        apply_environment(config, fake_env({{"CANTONLITE_LOG_FORMAT", "yaml"}}));
    });

    EXPECT_EQ(error, "CANTONLITE_LOG_FORMAT: must be \"text\" or \"json\", got \"yaml\"");
}

TEST(ApplyEnvironment, AsksForTheDocumentedVariablesOnly) {
    Config config;
    std::vector<std::string> asked;

    apply_environment(config, [&](const char* name) -> const char* {
        asked.emplace_back(name);
        return nullptr;
    });

    EXPECT_EQ(asked, (std::vector<std::string>{
                         "CANTONLITE_ADDRESS", "CANTONLITE_PORT", "CANTONLITE_IO_THREADS",
                         "CANTONLITE_LOG_LEVEL", "CANTONLITE_LOG_FORMAT", "CANTONLITE_SEED",
                         "CANTONLITE_JOURNAL", "CANTONLITE_ADMIN_TOKEN", "CANTONLITE_RELEASE",
                         "CANTONLITE_ENABLE_DEPRECATED", "CANTONLITE_LOCALNET", "CANTONLITE_CLOCK",
                         "CANTONLITE_PROGRESS", "CANTONLITE_STATE", "CANTONLITE_LOAD_STATE",
                         "CANTONLITE_DUMP_STATE", "CANTONLITE_STATE_DIR", "CANTONLITE_FORK_SCAN"}));
}

TEST(ApplyEnvironment, LocalnetIsTrueOrFalse) {
    Config config;
    apply_environment(config, fake_env({{"CANTONLITE_LOCALNET", "true"}}));
    EXPECT_TRUE(config.localnet);
    apply_environment(config, fake_env({{"CANTONLITE_LOCALNET", "false"}}));
    EXPECT_FALSE(config.localnet);

    const std::string error = config_error([&] {
        apply_environment(config, fake_env({{"CANTONLITE_LOCALNET", "yes"}}));
    });
    EXPECT_EQ(error, "CANTONLITE_LOCALNET: must be true or false, got \"yes\"");
}

// --fork-scan (docs/fork.md): a URL from the file, a variable or the flag; whether any of them
// chose the release, which a fork otherwise takes from its source.
TEST_F(ConfigFileTest, ForkScanIsAUrlAndTheReleaseIsSetOrNot) {
    Config config = load_config(write(R"({"seed": "a.json", "fork_scan": "http://h:1"})"));
    EXPECT_EQ(config.fork_scan, "http://h:1");
    EXPECT_FALSE(config.release_set);
    apply_environment(config, fake_env({{"CANTONLITE_FORK_SCAN", "https://scan.example"}}));
    EXPECT_EQ(config.fork_scan, "https://scan.example");
    apply_setting(config, "release", "splice-0.6", "--release");
    EXPECT_TRUE(config.release_set);
    EXPECT_TRUE(load_config(write(R"({"seed": "a.json", "release": "splice-0.9"})")).release_set);
    EXPECT_EQ(config_error([&] { apply_setting(config, "fork_scan", "", "--fork-scan"); }),
              "--fork-scan: must not be empty");
}

// --- the clock -------------------------------------------------------------------------------

TEST_F(ConfigFileTest, TheClockIsTheSeedsOrNow) {
    EXPECT_FALSE(load_config(write(R"({"seed": "a.json"})")).clock_now);
    EXPECT_TRUE(load_config(write(R"({"seed": "a.json", "clock": "now"})")).clock_now);
    Config config = load_config(write(R"({"seed": "a.json", "clock": "now"})"));
    apply_setting(config, "clock", "seed", "--clock");
    EXPECT_FALSE(config.clock_now);
    apply_environment(config, fake_env({{"CANTONLITE_CLOCK", "now"}}));
    EXPECT_TRUE(config.clock_now);

    EXPECT_EQ(config_error([&] { apply_setting(config, "clock", "wall", "--clock"); }),
              "--clock: must be \"seed\" or \"now\", got \"wall\"");
}

// The files beside the seed: relative to the config file's folder in it, as given in a flag or
// variable; never empty.
TEST_F(ConfigFileTest, TheJournalAndStateFilesAndStateDirAreFiles) {
    const fs::path file = write(R"({"seed": "a.json", "journal": "j", "state": "s.state",
        "load_state": "l.state", "dump_state": "d.state", "state_dir": "snapshots"})");
    Config config = load_config(file);
    EXPECT_EQ(config.journal, file.parent_path() / "j");
    EXPECT_EQ(config.state, file.parent_path() / "s.state");
    EXPECT_EQ(config.load_state, file.parent_path() / "l.state");
    EXPECT_EQ(config.dump_state, file.parent_path() / "d.state");
    EXPECT_EQ(config.state_dir, file.parent_path() / "snapshots");
    apply_setting(config, "state_dir", "elsewhere", "--state-dir");
    EXPECT_EQ(config.state_dir, fs::path("elsewhere"));
    apply_environment(config, fake_env({{"CANTONLITE_DUMP_STATE", "x.state"}}));
    EXPECT_EQ(config.dump_state, fs::path("x.state"));
    EXPECT_EQ(config_error([&] { apply_setting(config, "load_state", "", "--load-state"); }),
              "--load-state: must not be empty");
    EXPECT_EQ(
        config_error([&] { (void)load_config(write(R"({"seed": "a.json", "state_dir": ""})")); }),
        file.string() + ": /state_dir: must be a non-empty string, got \"\"");
}

// A journal in PostgreSQL is a URL, taken as written in a config file (not a file beside it).
TEST_F(ConfigFileTest, AJournalInPostgresqlIsAUrlNotAFile) {
    const std::string url = "postgresql://cantonlite@db.example:5432/ledger?sslmode=require";
    const fs::path file = write(R"({"seed": "a.json", "journal": ")" + url + R"("})");
    EXPECT_EQ(load_config(file).journal.string(), url);
    const fs::path short_form = write(R"({"seed": "a.json", "journal": "postgres://h/db"})");
    EXPECT_EQ(load_config(short_form).journal.string(), "postgres://h/db");
}

TEST_F(ConfigFileTest, ProgressIsOffUnlessAsked) {
    EXPECT_FALSE(load_config(write(R"({"seed": "a.json"})")).progress);
    Config config = load_config(write(R"({"seed": "a.json", "progress": true})"));
    EXPECT_TRUE(config.progress);
    apply_setting(config, "progress", "false", "--progress");
    EXPECT_FALSE(config.progress);
    apply_environment(config, fake_env({{"CANTONLITE_PROGRESS", "true"}}));
    EXPECT_TRUE(config.progress);
    EXPECT_EQ(
        config_error([&] { apply_setting(config, "progress", "yes", "CANTONLITE_PROGRESS"); }),
        "CANTONLITE_PROGRESS: must be true or false, got \"yes\"");
}

// --- the LocalNet seed ------------------------------------------------------------------------

TEST_F(ConfigFileTest, LocalnetLoadsTheLocalnetSeed) {
    const fs::path file =
        write(R"({"seed": "a.json", "localnet_seed": "seeds/b.json", "localnet": true})");

    Config config = load_config(file);
    settle_seed(config);

    EXPECT_EQ(config.seed, dir_ / "seeds" / "b.json");
}

TEST_F(ConfigFileTest, WithoutLocalnetTheSeedStays) {
    const fs::path file = write(R"({"seed": "a.json", "localnet_seed": "b.json"})");

    Config config = load_config(file);
    settle_seed(config);

    EXPECT_EQ(config.seed, dir_ / "a.json");
}

TEST_F(ConfigFileTest, LocalnetFromAFlagLoadsTheLocalnetSeed) {
    Config config = load_config(write(R"({"seed": "a.json", "localnet_seed": "b.json"})"));
    apply_setting(config, "localnet", "true", "--localnet");
    settle_seed(config);

    EXPECT_EQ(config.seed, dir_ / "b.json");
}

TEST_F(ConfigFileTest, ASeedSettingWinsOverTheLocalnetSeed) {
    Config config = load_config(write(R"({"seed": "a.json", "localnet_seed": "b.json"})"));
    apply_setting(config, "localnet", "true", "--localnet");
    apply_setting(config, "seed", "mine.json", "CANTONLITE_SEED");
    settle_seed(config);

    EXPECT_EQ(config.seed, fs::path("mine.json"));
}

TEST_F(ConfigFileTest, LocalnetWithoutALocalnetSeedKeepsTheSeed) {
    Config config = load_config(write(R"({"seed": "a.json", "localnet": true})"));
    settle_seed(config);

    EXPECT_EQ(config.seed, dir_ / "a.json");
}

TEST_F(ConfigFileTest, AnEmptyLocalnetSeedIsRefused) {
    const fs::path file = write(R"({"seed": "a.json", "localnet_seed": ""})");

    EXPECT_EQ(config_error([&] { (void)load_config(file); }),
              file.string() + ": /localnet_seed: must be a non-empty string, got \"\"");
}

TEST(LoadConfig, TheShippedConfigNamesTheLocalnetNetwork) {
    const fs::path file = fs::path(CANTONLITE_SOURCE_DIR) / "config" / "cantonlite.json";

    Config config = load_config(file);
    config.localnet = true;
    settle_seed(config);

    EXPECT_EQ(config.seed, file.parent_path() / "localnet-network.json");
}

// --- default_config_path --------------------------------------------------------------------

TEST(DefaultConfigPath, IsCantonliteConfigWhenSet) {
    const fs::path path = default_config_path(fake_env({{"CANTONLITE_CONFIG", "/etc/cl.json"}}));

    EXPECT_EQ(path, fs::path("/etc/cl.json"));
}

TEST(DefaultConfigPath, FallsBackToConfigCantonliteJsonWhenTheVariableIsEmpty) {
    const fs::path path = default_config_path(fake_env({{"CANTONLITE_CONFIG", ""}}));

    EXPECT_EQ(path.filename(), "cantonlite.json");
}

// The working directory for a test, gone after it.
class InFolder : public testing::Test {
  protected:
    void SetUp() override {
        previous_ = fs::current_path();
        folder_ = fs::temp_directory_path() / test_folder_name();
        fs::create_directories(folder_);
        fs::current_path(folder_);
    }
    void TearDown() override {
        fs::current_path(previous_);
        fs::remove_all(folder_);
    }
    fs::path previous_;
    fs::path folder_;
};

TEST_F(InFolder, WithNoConfigAnywhereItIsTheBuiltInOne) {
    // (The test executable has no config/ beside its folder, nor has this one.)
    const fs::path path = default_config_path(fake_env({}));
    EXPECT_EQ(path, builtin_path("cantonlite.json"));

    const Config config = load_config(path);
    EXPECT_EQ(config.seed, builtin_path("default-network.json"));
    EXPECT_EQ(config.localnet_seed, builtin_path("localnet-network.json"));
    EXPECT_EQ(config.server.port, 7575);
}

TEST_F(InFolder, AConfigUnderTheWorkingDirectoryWinsOverTheBuiltInOne) {
    fs::create_directories("config");
    std::ofstream("config/cantonlite.json") << R"({"seed": "mine.json"})";

    EXPECT_EQ(default_config_path(fake_env({})), fs::path("config") / "cantonlite.json");
}

TEST(BuiltinFiles, AreTheShippedFilesByteForByte) {
    for (const char* name : {"cantonlite.json", "default-network.json", "localnet-network.json"}) {
        std::ifstream in(fs::path(CANTONLITE_SOURCE_DIR) / "config" / name, std::ios::binary);
        const std::string shipped((std::istreambuf_iterator<char>(in)), {});
        const auto builtin = builtin_file(builtin_path(name));
        ASSERT_TRUE(builtin.has_value()) << name;
        EXPECT_EQ(*builtin, shipped) << name;
    }
    EXPECT_FALSE(builtin_file(builtin_path("nope.json")));
    EXPECT_FALSE(builtin_file(fs::path("config") / "cantonlite.json"));
}

}  // namespace
}  // namespace cantonlite::app::config_test
