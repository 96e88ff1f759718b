#include "cantonlite/app/cli.hpp"

#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

namespace cantonlite::app {
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
        FlagCase{{"serve", "--log-format", "json"}, "log_format", "json", "--log-format"}));

INSTANTIATE_TEST_SUITE_P(
    EqualsForm, ParseServeFlag,
    testing::Values(FlagCase{{"serve", "--seed=net.json"}, "seed", "net.json", "--seed"},
                    FlagCase{{"serve", "--address=0.0.0.0"}, "address", "0.0.0.0", "--address"},
                    FlagCase{{"serve", "--port=8080"}, "port", "8080", "--port"},
                    FlagCase{{"serve", "--io-threads=2"}, "io_threads", "2", "--io-threads"},
                    FlagCase{{"serve", "--log-level=debug"}, "log_level", "debug", "--log-level"},
                    FlagCase{{"serve", "--log-format=json"}, "log_format", "json", "--log-format"},
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

class ParseCommandLineHelp : public testing::TestWithParam<Args> {};

TEST_P(ParseCommandLineHelp, AsksForHelp) {
    const CommandLine cli = parse_command_line(GetParam());

    EXPECT_EQ(cli.command, Command::help);
}

INSTANTIATE_TEST_SUITE_P(Forms, ParseCommandLineHelp,
                         testing::Values(Args{"--help"}, Args{"-h"}, Args{"help"},
                                         Args{"serve", "--help"}, Args{"serve", "-h"},
                                         Args{"serve", "--port", "1", "--help"},
                                         Args{"serve", "--bogus", "--help"}));

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
    testing::Values(UsageErrorCase{{"start"}, "start: unknown command (see --help)"},
                    UsageErrorCase{{"--port", "8080"}, "--port: unknown command (see --help)"},
                    UsageErrorCase{{"Serve"}, "Serve: unknown command (see --help)"},
                    UsageErrorCase{{"serve", "--bogus", "1"}, "--bogus: unknown flag (see --help)"},
                    UsageErrorCase{{"serve", "--bogus=1"}, "--bogus: unknown flag (see --help)"},
                    UsageErrorCase{{"serve", "-p", "1"}, "-p: unknown flag (see --help)"},
                    UsageErrorCase{{"serve", "extra"}, "extra: unknown flag (see --help)"},
                    UsageErrorCase{{"serve", "--port"}, "--port: needs a value"},
                    UsageErrorCase{{"serve", "--seed", "s.json", "--config"},
                                   "--config: needs a value"}));

class UsageTextNames : public testing::TestWithParam<std::string> {};

TEST_P(UsageTextNames, EveryFlagAndVariable) {
    const std::string& word = GetParam();

    EXPECT_NE(usage_text().find(word), std::string::npos) << word;
}

INSTANTIATE_TEST_SUITE_P(Words, UsageTextNames,
                         testing::Values("--config FILE", "--seed FILE", "--address ADDR",
                                         "--port N", "--io-threads N", "--log-level LEVEL",
                                         "--log-format FORMAT", "CANTONLITE_SEED",
                                         "CANTONLITE_ADDRESS", "CANTONLITE_PORT",
                                         "CANTONLITE_IO_THREADS", "CANTONLITE_LOG_LEVEL",
                                         "CANTONLITE_LOG_FORMAT", "CANTONLITE_CONFIG"));

}  // namespace
}  // namespace cantonlite::app
