#include "cantonlite/app/cli.hpp"

#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

namespace cantonlite::app::cli_test {
namespace {

using Args = std::vector<std::string>;
using Settings = std::vector<std::pair<std::string, std::string>>;

// The what() of the UsageError that parsing `args` throws, or "" when it parses.
std::string usage_error(const Args& args) {
    try {
        (void)parse_command_line(args);
    } catch (const UsageError& e) {
        return e.what();
    }
    return "";
}

TEST(ParseCommandLine, NoArgumentsMeansHelp) {
    const CommandLine cli = parse_command_line({});

    EXPECT_EQ(cli.command, Command::help);
}

TEST(ParseCommandLine, ServeAloneHasNoOverrides) {
    const CommandLine cli = parse_command_line({"serve"});

    EXPECT_EQ(cli.command, Command::serve);
    EXPECT_FALSE(cli.config.has_value());
    EXPECT_TRUE(cli.settings.empty());
    EXPECT_TRUE(cli.setting_flags.empty());
}

TEST(ParseCommandLine, LocalnetTakesNoValue) {
    const CommandLine cli = parse_command_line({"serve", "--localnet", "--port", "0"});

    EXPECT_EQ(cli.settings, (Settings{{"localnet", "true"}, {"port", "0"}}));
    EXPECT_EQ(cli.setting_flags, (Args{"--localnet", "--port"}));
    EXPECT_THROW((void)parse_command_line({"serve", "--localnet=false"}), UsageError);
}

TEST(ParseCommandLine, ProgressTakesNoValue) {
    const CommandLine cli = parse_command_line({"serve", "--progress"});

    EXPECT_EQ(cli.settings, (Settings{{"progress", "true"}}));
    EXPECT_THROW((void)parse_command_line({"serve", "--progress=1"}), UsageError);
}

TEST(ParseCommandLine, TokenAndDescribeTakeLocalnetToLoadTheLocalnetSeed) {
    for (const Args& args :
         {Args{"token", "--user", "sv", "--localnet"}, Args{"describe", "--localnet"}}) {
        const CommandLine cli = parse_command_line(args);

        EXPECT_EQ(cli.settings, (Settings{{"localnet", "true"}})) << args[0];
    }
}

struct FlagCase {
    Args args;
    std::string setting;
    std::string value;
    std::string flag;
};

class ParseServeFlag : public testing::TestWithParam<FlagCase> {};

TEST_P(ParseServeFlag, IntoItsSetting) {
    const FlagCase& c = GetParam();

    const CommandLine cli = parse_command_line(c.args);

    EXPECT_EQ(cli.command, Command::serve);
    EXPECT_EQ(cli.settings, (Settings{{c.setting, c.value}}));
    EXPECT_EQ(cli.setting_flags, Args{c.flag});
}

INSTANTIATE_TEST_SUITE_P(
    SpaceForm, ParseServeFlag,
    testing::Values(
        FlagCase{{"serve", "--seed", "net.json"}, "seed", "net.json", "--seed"},
        FlagCase{{"serve", "--address", "0.0.0.0"}, "address", "0.0.0.0", "--address"},
        FlagCase{{"serve", "--port", "8080"}, "port", "8080", "--port"},
        FlagCase{{"serve", "--io-threads", "2"}, "io_threads", "2", "--io-threads"},
        FlagCase{{"serve", "--log-level", "debug"}, "log_level", "debug", "--log-level"},
        FlagCase{{"serve", "--log-format", "json"}, "log_format", "json", "--log-format"},
        FlagCase{{"serve", "--journal", "j.log"}, "journal", "j.log", "--journal"},
        FlagCase{{"serve", "--admin-token", "s3cret"}, "admin_token", "s3cret", "--admin-token"},
        FlagCase{
            {"serve", "--fork-scan", "http://h:1"}, "fork_scan", "http://h:1", "--fork-scan"}));

INSTANTIATE_TEST_SUITE_P(
    EqualsForm, ParseServeFlag,
    testing::Values(FlagCase{{"serve", "--seed=net.json"}, "seed", "net.json", "--seed"},
                    FlagCase{{"serve", "--address=0.0.0.0"}, "address", "0.0.0.0", "--address"},
                    FlagCase{{"serve", "--port=8080"}, "port", "8080", "--port"},
                    FlagCase{{"serve", "--io-threads=2"}, "io_threads", "2", "--io-threads"},
                    FlagCase{{"serve", "--log-level=debug"}, "log_level", "debug", "--log-level"},
                    FlagCase{{"serve", "--log-format=json"}, "log_format", "json", "--log-format"},
                    FlagCase{{"serve", "--journal=j.log"}, "journal", "j.log", "--journal"},
                    FlagCase{{"serve", "--admin-token=a=b"}, "admin_token", "a=b", "--admin-token"},
                    FlagCase{{"serve", "--seed=a=b.json"}, "seed", "a=b.json", "--seed"},
                    FlagCase{{"serve", "--port="}, "port", "", "--port"}));

TEST(ParseCommandLine, ConfigFlagSetsTheConfigFileNotASetting) {
    const CommandLine space = parse_command_line({"serve", "--config", "my.json"});
    const CommandLine equals = parse_command_line({"serve", "--config=my.json"});

    EXPECT_EQ(space.config, "my.json");
    EXPECT_EQ(equals.config, "my.json");
    EXPECT_TRUE(space.settings.empty());
    EXPECT_TRUE(equals.settings.empty());
}

TEST(ParseCommandLine, KeepsOverridesInTheOrderGiven) {
    const CommandLine cli =
        parse_command_line({"serve", "--port", "1", "--config=c.json", "--address=a", "--port=2"});

    EXPECT_EQ(cli.config, "c.json");
    EXPECT_EQ(cli.settings, (Settings{{"port", "1"}, {"address", "a"}, {"port", "2"}}));
    EXPECT_EQ(cli.setting_flags, (Args{"--port", "--address", "--port"}));
}

TEST(ParseAdminCommand, ApplyTakesTheFileAndTheConnectionFlags) {
    const CommandLine cli =
        parse_command_line({"apply", "--url", "http://h:1", "steps.json", "--token=t0k"});

    EXPECT_EQ(cli.command, Command::apply);
    EXPECT_EQ(cli.file, "steps.json");
    EXPECT_EQ(cli.url, "http://h:1");
    EXPECT_EQ(cli.token, "t0k");
    EXPECT_TRUE(cli.settings.empty());
}

TEST(ParseAdminCommand, ApplyDashMeansStdin) {
    const CommandLine cli = parse_command_line({"apply", "-"});

    EXPECT_EQ(cli.command, Command::apply);
    EXPECT_EQ(cli.file, "-");
}

TEST(ParseAdminCommand, ConnectionFlagsStayUnsetWhenNotGiven) {
    const CommandLine cli = parse_command_line({"snapshot"});

    EXPECT_EQ(cli.command, Command::snapshot);
    EXPECT_FALSE(cli.url.has_value());
    EXPECT_FALSE(cli.token.has_value());
}

TEST(ParseAdminCommand, TimeAloneAsksForTheTime) {
    const CommandLine cli = parse_command_line({"time"});

    EXPECT_EQ(cli.command, Command::time);
    EXPECT_FALSE(cli.advance.has_value());
    EXPECT_FALSE(cli.set.has_value());
}

TEST(ParseAdminCommand, TimeAdvance) {
    const CommandLine cli = parse_command_line({"time", "--advance", "PT1H"});

    EXPECT_EQ(cli.advance, "PT1H");
    EXPECT_FALSE(cli.set.has_value());
}

TEST(ParseAdminCommand, TimeSet) {
    const CommandLine cli = parse_command_line({"time", "--set=2025-01-01T00:00:00Z"});

    EXPECT_EQ(cli.set, "2025-01-01T00:00:00Z");
    EXPECT_FALSE(cli.advance.has_value());
}

TEST(ParseAdminCommand, RevertTakesTheSnapshotId) {
    const CommandLine cli = parse_command_line({"revert", "3", "--url=http://h:1/"});

    EXPECT_EQ(cli.command, Command::revert);
    EXPECT_EQ(cli.snapshot_id, "3");
    EXPECT_EQ(cli.url, "http://h:1/");
}

TEST(ParseAdminCommand, Reset) {
    const CommandLine cli = parse_command_line({"reset", "--token", "t"});

    EXPECT_EQ(cli.command, Command::reset);
    EXPECT_EQ(cli.token, "t");
}

TEST(ParseFork, TakesTheScanTheFileAndTheLimits) {
    const CommandLine cli = parse_command_line(
        {"fork", "--scan", "https://scan.example/api/scan", "--out", "f.state",
         "--at=2025-01-01T00:00:00Z", "--updates", "10", "--ca-file", "ca.pem", "--progress"});

    EXPECT_EQ(cli.command, Command::fork);
    EXPECT_EQ(cli.fork.scan_url, "https://scan.example/api/scan");
    EXPECT_EQ(cli.fork.out, "f.state");
    EXPECT_EQ(cli.fork.at, "2025-01-01T00:00:00Z");
    EXPECT_EQ(cli.fork.updates, 10);
    EXPECT_EQ(cli.fork.ca_file, "ca.pem");
    EXPECT_TRUE(cli.fork.progress);
}

TEST(ParseFork, TakesADumpInsteadOfAScan) {
    const CommandLine cli =
        parse_command_line({"fork", "--dump", "mainnet", "--out", "f.state", "--updates", "5"});

    EXPECT_EQ(cli.command, Command::fork);
    EXPECT_EQ(cli.fork.dump_dir, "mainnet");
    EXPECT_TRUE(cli.fork.scan_url.empty());
    EXPECT_EQ(cli.fork.updates, 5);
}

TEST(ParseDump, TakesTheScanTheFolderAndTheLimits) {
    const CommandLine cli =
        parse_command_line({"dump", "--scan", "https://scan.example", "mainnet", "--at",
                            "2025-01-01T00:00:00Z", "--updates=7", "--ca-file", "ca.pem"});

    EXPECT_EQ(cli.command, Command::dump);
    EXPECT_EQ(cli.fork.scan_url, "https://scan.example");
    EXPECT_EQ(cli.fork.dump_dir, "mainnet");
    EXPECT_EQ(cli.fork.at, "2025-01-01T00:00:00Z");
    EXPECT_EQ(cli.fork.updates, 7);
    EXPECT_EQ(cli.fork.ca_file, "ca.pem");
    EXPECT_TRUE(cli.fork.bulk);
    EXPECT_FALSE(parse_command_line({"dump", "--scan", "http://h:1", "d", "--no-bulk"}).fork.bulk);
}

TEST(ParseFork, LimitsStayUnsetWhenNotGiven) {
    const CommandLine cli = parse_command_line({"fork", "--scan", "http://h:1", "--out", "f"});

    EXPECT_FALSE(cli.fork.at.has_value());
    EXPECT_FALSE(cli.fork.updates.has_value());
    EXPECT_TRUE(cli.fork.ca_file.empty());
    EXPECT_FALSE(cli.fork.progress);
}

class ParseCommandLineHelp : public testing::TestWithParam<Args> {};

TEST_P(ParseCommandLineHelp, AsksForHelp) {
    const CommandLine cli = parse_command_line(GetParam());

    EXPECT_EQ(cli.command, Command::help);
}

INSTANTIATE_TEST_SUITE_P(Forms, ParseCommandLineHelp,
                         testing::Values(Args{"--help"}, Args{"-h"}, Args{"help"},
                                         Args{"serve", "--help"}, Args{"serve", "-h"},
                                         Args{"serve", "--port", "1", "--help"},
                                         Args{"serve", "--bogus", "--help"},
                                         Args{"apply", "--help"}, Args{"revert", "3", "-h"},
                                         Args{"time", "--advance", "PT1H", "--help"}));

TEST(ParseCommandLine, HelpAfterACommandIsAboutThatCommand) {
    EXPECT_EQ(parse_command_line({"serve", "--help"}).help_topic, "serve");
    EXPECT_EQ(parse_command_line({"fork", "--out", "f", "-h"}).help_topic, "fork");
    EXPECT_EQ(parse_command_line({"state", "save", "f", "--help"}).help_topic, "state");
    EXPECT_EQ(parse_command_line({"state", "--help"}).help_topic, "state");
    EXPECT_EQ(parse_command_line({"state", "bogus", "--help"}).help_topic, "state");
    EXPECT_EQ(parse_command_line({"--help"}).help_topic, "");
    EXPECT_EQ(parse_command_line({"help"}).help_topic, "");
}

class CommandUsage : public testing::TestWithParam<std::string> {};

// Each command's --help: its own usage lines, the flags that apply to it, the exit status; not
// the other commands' lines.
TEST_P(CommandUsage, IsTheCommandsPartOfTheUsage) {
    const std::string& command = GetParam();
    const std::string text = usage_text(command);

    EXPECT_EQ(text.rfind("Usage:\n  cantonlite " + command, 0), 0U) << text;
    EXPECT_NE(text.find("Exit status:"), std::string::npos);
    EXPECT_LT(text.size(), usage_text().size() / 2) << text;
    for (const std::string other :
         {"generate --parties", "apply FILE", "dump --scan", "serve [flags]"}) {
        if (other.rfind(command, 0) == 0) continue;
        EXPECT_EQ(text.find("cantonlite " + other), std::string::npos) << command << ": " << other;
    }
}

INSTANTIATE_TEST_SUITE_P(Commands, CommandUsage,
                         testing::Values("serve", "describe", "token", "generate", "apply", "time",
                                         "snapshot", "revert", "reset", "state", "fork", "dump"));

TEST(CommandUsage, NamesTheFlagsOfItsCommand) {
    EXPECT_NE(usage_text("serve").find("--journal FILE|URL"), std::string::npos);
    EXPECT_NE(usage_text("fork").find("--ca-file FILE"), std::string::npos);
    EXPECT_NE(usage_text("fork").find("cantonlite fork --dump DIR"), std::string::npos);
    EXPECT_NE(usage_text("time").find("--advance DURATION"), std::string::npos);
    EXPECT_NE(usage_text("state").find("cantonlite state load FILE"), std::string::npos);
    EXPECT_NE(usage_text("state").find("--token T"), std::string::npos);
    EXPECT_NE(usage_text("generate").find("--amulets M"), std::string::npos);
    EXPECT_NE(usage_text("token").find("--expires-in SECONDS"), std::string::npos);
    EXPECT_EQ(usage_text("time").find("--parties"), std::string::npos);
    EXPECT_EQ(usage_text("serve").find("--no-bulk"), std::string::npos);
    EXPECT_EQ(usage_text(""), usage_text());
    EXPECT_EQ(usage_text("bogus"), usage_text());
}

class ParseCommandLineVersion : public testing::TestWithParam<Args> {};

TEST_P(ParseCommandLineVersion, AsksForTheVersion) {
    const CommandLine cli = parse_command_line(GetParam());

    EXPECT_EQ(cli.command, Command::version);
}

INSTANTIATE_TEST_SUITE_P(Forms, ParseCommandLineVersion,
                         testing::Values(Args{"--version"}, Args{"-V"}, Args{"version"}));

struct UsageErrorCase {
    Args args;
    std::string error;
};

class ParseCommandLineRejects : public testing::TestWithParam<UsageErrorCase> {};

TEST_P(ParseCommandLineRejects, NamingTheArgumentAndTheProblem) {
    const UsageErrorCase& c = GetParam();

    EXPECT_EQ(usage_error(c.args), c.error);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, ParseCommandLineRejects,
    testing::Values(
        UsageErrorCase{{"start"}, "start: unknown command (see --help)"},
        UsageErrorCase{{"--port", "8080"}, "--port: unknown command (see --help)"},
        UsageErrorCase{{"Serve"}, "Serve: unknown command (see --help)"},
        UsageErrorCase{{"serve", "--bogus", "1"}, "--bogus: unknown flag (see --help)"},
        UsageErrorCase{{"serve", "--bogus=1"}, "--bogus: unknown flag (see --help)"},
        UsageErrorCase{{"serve", "-p", "1"}, "-p: unknown flag (see --help)"},
        UsageErrorCase{{"serve", "extra"}, "extra: unknown flag (see --help)"},
        UsageErrorCase{{"serve", "--port"}, "--port: needs a value"},
        UsageErrorCase{{"serve", "--seed", "s.json", "--config"}, "--config: needs a value"},
        UsageErrorCase{{"apply"}, "FILE: is required (see --help)"},
        UsageErrorCase{{"apply", "--url", "http://h:1"}, "FILE: is required (see --help)"},
        UsageErrorCase{{"apply", "a.json", "b.json"}, "b.json: unexpected argument (see --help)"},
        UsageErrorCase{{"apply", ""}, "FILE: must not be empty"},
        UsageErrorCase{{"apply", "-x"}, "-x: unknown flag (see --help)"},
        UsageErrorCase{{"apply", "a.json", "--url"}, "--url: needs a value"},
        UsageErrorCase{{"apply", "a.json", "--url="}, "--url: must not be empty"},
        UsageErrorCase{{"apply", "a.json", "--token="}, "--token: must not be empty"},
        UsageErrorCase{{"revert"}, "ID: is required (see --help)"},
        UsageErrorCase{{"revert", "1", "2"}, "2: unexpected argument (see --help)"},
        UsageErrorCase{{"snapshot", "extra"}, "extra: unknown flag (see --help)"},
        UsageErrorCase{{"reset", "--advance", "PT1H"}, "--advance: unknown flag (see --help)"},
        UsageErrorCase{{"time", "--advance", "PT1H", "--set", "2025-01-01T00:00:00Z"},
                       "--set: cannot be combined with --advance"},
        UsageErrorCase{{"time", "--set=2025-01-01T00:00:00Z", "--advance=PT1H"},
                       "--set: cannot be combined with --advance"},
        UsageErrorCase{{"time", "--advance="}, "--advance: must not be empty"},
        UsageErrorCase{{"time", "now"}, "now: unknown flag (see --help)"},
        UsageErrorCase{{"serve", "--token", "t"}, "--token: unknown flag (see --help)"},
        UsageErrorCase{{"describe", "--journal", "j"}, "--journal: unknown flag (see --help)"},
        UsageErrorCase{{"fork", "--out", "f"}, "fork: give --scan URL or --dump DIR (see --help)"},
        UsageErrorCase{{"fork", "--scan", "http://h:1", "--dump", "d", "--out", "f"},
                       "fork: give --scan URL or --dump DIR (see --help)"},
        UsageErrorCase{{"fork", "--dump", "d", "--out", "f", "--at", "2025-01-01T00:00:00Z"},
                       "--at: applies to --scan (a dump holds the snapshot it was taken at)"},
        UsageErrorCase{{"fork", "--dump", "d", "--out", "f", "--ca-file", "c"},
                       "--ca-file: applies to --scan (a dump is read from its folder)"},
        UsageErrorCase{{"dump", "d"}, "--scan: is required (see --help)"},
        UsageErrorCase{{"dump", "--scan", "http://h:1"}, "DIR: is required (see --help)"},
        UsageErrorCase{{"dump", "--scan", "http://h:1", "d", "e"},
                       "e: unexpected argument (see --help)"},
        UsageErrorCase{{"dump", "--scan", "http://h:1", "d", "--out", "f"},
                       "--out: unknown flag (see --help)"},
        UsageErrorCase{{"fork", "--scan", "http://h:1"}, "--out: is required (see --help)"},
        UsageErrorCase{{"fork", "--scan", "http://h:1", "--out", "f", "--at", "yesterday"},
                       "--at: must be a date-time such as 2025-01-01T00:00:00Z, got \"yesterday\""},
        UsageErrorCase{{"fork", "--scan", "http://h:1", "--out", "f", "--updates", "-1"},
                       "--updates: must be an integer from 0 to 100000000, got \"-1\""},
        UsageErrorCase{{"fork", "--scan", "http://h:1", "--out", "f", "--progress=1"},
                       "--progress: takes no value"},
        UsageErrorCase{{"fork", "--scan", "http://h:1", "--out", "f", "--insecure"},
                       "--insecure: unknown flag (see --help)"}));

class UsageTextNames : public testing::TestWithParam<std::string> {};

TEST_P(UsageTextNames, EveryFlagAndVariable) {
    const std::string& word = GetParam();

    EXPECT_NE(usage_text().find(word), std::string::npos) << word;
}

INSTANTIATE_TEST_SUITE_P(
    Words, UsageTextNames,
    testing::Values("--config FILE", "--seed FILE", "--address ADDR", "--port N", "--io-threads N",
                    "--log-level LEVEL", "--log-format FORMAT", "CANTONLITE_SEED",
                    "CANTONLITE_ADDRESS", "CANTONLITE_PORT", "CANTONLITE_IO_THREADS",
                    "CANTONLITE_LOG_LEVEL", "CANTONLITE_LOG_FORMAT", "CANTONLITE_CONFIG",
                    "--journal FILE", "--admin-token T", "CANTONLITE_JOURNAL",
                    "CANTONLITE_ADMIN_TOKEN", "apply FILE|-", "snapshot", "revert ID", "reset",
                    "--url URL", "--token T", "--advance DURATION", "--set TIMESTAMP",
                    "CANTONLITE_URL", "http://127.0.0.1:7575", "fork --scan URL --out FILE",
                    "--at TIME", "--updates N", "--ca-file FILE", "--fork-scan URL",
                    "dump --scan URL DIR", "--dump DIR", "CANTONLITE_FORK_SCAN"));

}  // namespace
}  // namespace cantonlite::app::cli_test
