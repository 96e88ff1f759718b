#include "cantonlite/app/application.hpp"

#include <unistd.h>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cantonlite/app/cli.hpp"
#include "cantonlite/model/network.hpp"

namespace cantonlite::app::application_test {
namespace {

namespace fs = std::filesystem;

struct Outcome {
    int exit_code;
    std::string out;
    std::string err;
};

Outcome run_captured(const std::vector<std::string>& args) {
    testing::internal::CaptureStdout();
    testing::internal::CaptureStderr();
    const int code = run(args);
    std::string out = testing::internal::GetCapturedStdout();
    std::string err = testing::internal::GetCapturedStderr();
    return {code, std::move(out), std::move(err)};
}

TEST(MakeRouter, MountsLedgerScanRegistryAndValidator) {
    const store::LedgerStore store(model::Network{.dso_party = "DSO::1220ab"}, model::Timestamp{});

    const auto router = make_router(store);

    std::vector<std::string> prefixes;
    for (const auto& area : router->areas()) prefixes.push_back(area->prefix());
    EXPECT_EQ(prefixes,
              (std::vector<std::string>{"/v2/", "/api/scan/", "/registry/", "/api/validator/"}));
}

TEST(Run, HelpAfterACommandPrintsThatCommandsUsage) {
    const Outcome outcome = run_captured({"fork", "--help"});

    EXPECT_EQ(outcome.exit_code, 0);
    EXPECT_EQ(outcome.out, usage_text("fork"));
    EXPECT_EQ(outcome.err, "");
}

TEST(Run, HelpPrintsTheUsageAndSucceeds) {
    const Outcome outcome = run_captured({"--help"});

    EXPECT_EQ(outcome.exit_code, 0);
    EXPECT_EQ(outcome.out, usage_text());
    EXPECT_EQ(outcome.err, "");
}

TEST(Run, VersionPrintsTheProjectVersion) {
    const Outcome outcome = run_captured({"--version"});

    EXPECT_EQ(outcome.exit_code, 0);
    EXPECT_EQ(outcome.out, "cantonlite " CANTONLITE_TEST_VERSION "\n");
}

TEST(Run, BadCommandLineExitsWithTwo) {
    const Outcome outcome = run_captured({"start"});

    EXPECT_EQ(outcome.exit_code, 2);
    EXPECT_EQ(outcome.err, "cantonlite: start: unknown command (see --help)\n");
    EXPECT_EQ(outcome.out, "");
}

class RunServeTest : public testing::Test {
  protected:
    RunServeTest()
        : dir_(fs::temp_directory_path() /
               ("cantonlite-run-test-" + std::to_string(::getpid()) + "-" +
                testing::UnitTest::GetInstance()->current_test_info()->name())) {
        fs::create_directories(dir_);
    }
    ~RunServeTest() override { fs::remove_all(dir_); }

    fs::path write(const std::string& name, const std::string& text) const {
        std::ofstream(dir_ / name) << text;
        return dir_ / name;
    }

    fs::path dir_;
};

TEST_F(RunServeTest, UnreadableConfigExitsWithTwo) {
    const fs::path config = dir_ / "absent.json";

    const Outcome outcome = run_captured({"serve", "--config", config.string()});

    EXPECT_EQ(outcome.exit_code, 2);
    EXPECT_EQ(outcome.err, "cantonlite: " + config.string() + ": cannot be read\n");
}

TEST_F(RunServeTest, BadFlagValueExitsWithTwo) {
    const fs::path config = write("c.json", R"({"seed": "s.json"})");

    const Outcome outcome = run_captured({"serve", "--config", config.string(), "--port=http"});

    EXPECT_EQ(outcome.exit_code, 2);
    EXPECT_EQ(outcome.err,
              "cantonlite: --port: must be an integer from 0 to 65535, got \"http\"\n");
}

TEST_F(RunServeTest, BadSeedExitsWithTwo) {
    const fs::path config = write("c.json", R"({"seed": "s.json"})");
    write("s.json", R"({"network": {}})");

    const Outcome outcome = run_captured({"serve", "--config", config.string()});

    EXPECT_EQ(outcome.exit_code, 2);
    EXPECT_EQ(outcome.err,
              "cantonlite: " + (dir_ / "s.json").string() + ": /network/dso_party: is required\n");
}

}  // namespace
}  // namespace cantonlite::app::application_test
