// A seed file whose network, users and auth come first runs its steps on a second thread while
// the first parses on (seed_loader.cpp, StepPipeline). What it loads, and the error it reports,
// are those of the steps run one after another as they are parsed. The suite is named
// Concurrent*, so that make tsan runs it too.
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cantonlite/seed/seed_loader.hpp"
#include "cantonlite/store/ledger_store.hpp"
#include "seed/seed_context.hpp"
#include "seed/seed_test_network.hpp"

namespace cantonlite::seed::seed_pipeline_test {
namespace {

using nlohmann::json;
using seedtest::LoadedState;
using seedtest::state_of;

// A network of two users and `mints` mints, a snapshot after every hundredth: more steps than a
// few of the pipeline's batches.
json minted(int mints) {
    json steps = json::array();
    for (int i = 0; i < mints; ++i) {
        steps.push_back({{"step", "mint"},
                         {"owner", i % 2 == 0 ? "alice" : "bob"},
                         {"amount", std::to_string(10 + i % 90) + ".5"},
                         {"as", "a" + std::to_string(i)}});
        if (i % 100 == 99) steps.push_back({{"step", "snapshot"}});
    }
    return {{"network", {{"dso_party", "DSO::1220ab"}}},
            {"users", json::array({{{"id", "alice"}, {"party", "alice::1220ab"}},
                                   {{"id", "bob"}, {"party", "bob::1220ab"}}})},
            {"auth", {{"hs256", {{"secret", "unsafe"}}}}},
            {"steps", std::move(steps)}};
}

// The document's text in the order that streams its steps (dump() would sort the keys).
std::string streamed_text(const json& document) {
    return "{\"network\": " + document["network"].dump() +
           ",\n\"users\": " + document["users"].dump() + ",\n\"auth\": " + document["auth"].dump() +
           ",\n\"steps\": " + document["steps"].dump() + "}";
}

class ConcurrentSeedLoad : public testing::Test {
  protected:
    ConcurrentSeedLoad()
        : dir_(std::filesystem::temp_directory_path() /
               ("cantonlite-pipeline-test-" + std::to_string(::getpid()) + "-" +
                testing::UnitTest::GetInstance()->current_test_info()->name())) {
        std::filesystem::create_directories(dir_);
    }
    ~ConcurrentSeedLoad() override { std::filesystem::remove_all(dir_); }

    std::filesystem::path write(const std::string& text) const {
        const std::filesystem::path path = dir_ / "seed.json";
        std::ofstream(path) << text;
        return path;
    }

    // The SeedError a load of the file at `path` throws ("" when none).
    static std::string error_of_file(const std::filesystem::path& path) {
        try {
            (void)load_seed_file(path);
        } catch (const SeedError& e) {
            return e.what();
        }
        return "";
    }

    std::filesystem::path dir_;
};

TEST_F(ConcurrentSeedLoad, LoadsWhatItsDocumentLoads) {
    const json document = minted(3000);
    const LoadedState expected = state_of(*load_seed(document, "seed.json"));
    ASSERT_GT(expected.active.size(), 3000U);  // the mints and the bootstrap's contracts

    const auto path = write(streamed_text(document));
    EXPECT_EQ(state_of(*load_seed_file(path)), expected);
}

// The first step that fails is the error, whatever the parse met after it: here, broken JSON.
TEST_F(ConcurrentSeedLoad, TheFirstFailingStepIsTheError) {
    json document = minted(3000);
    document["steps"][1777]["owner"] = "nobody";
    std::string from_document;
    try {
        (void)load_seed(document, (dir_ / "seed.json").string());
    } catch (const SeedError& e) {
        from_document = e.what();
    }
    ASSERT_NE(from_document.find("/steps/1777"), std::string::npos) << from_document;

    EXPECT_EQ(error_of_file(write(streamed_text(document))), from_document);
    std::string broken = streamed_text(document);
    broken.resize(broken.size() - 40);
    EXPECT_EQ(error_of_file(write(broken)), from_document);
}

// Broken JSON after steps that all run is the parse's error.
TEST_F(ConcurrentSeedLoad, BrokenJsonAfterGoodStepsIsInvalidJson) {
    std::string broken = streamed_text(minted(3000));
    broken.resize(broken.size() - 40);
    const auto path = write(broken);
    EXPECT_EQ(error_of_file(path).rfind(path.string() + ": is not valid JSON: ", 0), 0U)
        << error_of_file(path);
}

// Progress is heard on the thread that loads, in order, ending with the whole file.
TEST_F(ConcurrentSeedLoad, ProgressIsHeardOnTheLoadingThread) {
    const auto path = write(streamed_text(minted(3000)));
    const std::uint64_t size = std::filesystem::file_size(path);
    std::vector<std::uint64_t> heard;
    bool other_thread = false;
    const std::thread::id self = std::this_thread::get_id();
    (void)load_seed_file_with_context(path, [&](std::uint64_t done, std::uint64_t total) {
        other_thread = other_thread || std::this_thread::get_id() != self;
        EXPECT_EQ(total, size);
        heard.push_back(done);
    });
    EXPECT_FALSE(other_thread);
    ASSERT_GT(heard.size(), 2U);
    EXPECT_TRUE(std::is_sorted(heard.begin(), heard.end()));
    EXPECT_EQ(heard.back(), size);
}

// A mint's fields are read ahead on the parsing thread, and a read's error thrown when the mint
// comes to it: a mint with several faults fails at the first that a mint read in place meets,
// streamed or not. (The expected errors are those of a mint read in place, before read-ahead.)
TEST_F(ConcurrentSeedLoad, AMintReadAheadFailsAtItsFirstFaultAsOneReadInPlace) {
    const std::vector<std::pair<json, std::string>> cases = {
        {{{"owner", "nobody"}, {"amount", "x"}, {"bogus", 1}}, "/steps/400/bogus: unknown key"},
        {{{"owner", "nobody"}, {"amount", "x"}}, "/steps/400/owner: unknown party 'nobody'"},
        {{{"amount", "x"}}, "/steps/400/owner: is required"},
        {{{"owner", nullptr}, {"amount", "1"}}, "/steps/400/owner: is required"},
        {{{"owner", "alice"}, {"amount", "x"}, {"at", "bad"}},
         "/steps/400/amount: must be a decimal string such as \"100.5\" with at most 10 decimals, "
         "got \"x\""},
        {{{"owner", "alice"}, {"amount", "1"}, {"at", "bad"}, {"round", -1}},
         "/steps/400/at: must be an RFC 3339 date-time such as \"2024-05-01T10:00:00Z\", got "
         "\"bad\""},
        {{{"owner", "alice"}, {"amount", "1"}, {"at", "2000-01-01T00:00:00Z"}, {"round", -1}},
         "/steps/400/at: time goes backwards: 2000-01-01T00:00:00Z is before the ledger time "
         "2025-01-01T00:06:40Z"},
        {{{"owner", "alice"}, {"amount", "1"}, {"round", -1}, {"rate_per_round", "x"}},
         "/steps/400/round: must be an integer from 0 to 9007199254740992, got -1"},
        {{{"owner", "alice"}, {"amount", "1"}, {"rate_per_round", "-1"}, {"command_id", 5}},
         "/steps/400/rate_per_round: must be positive"},
        {{{"owner", "alice"}, {"amount", "1"}, {"command_id", 5}, {"workflow_id", 6}},
         "/steps/400/command_id: must be a non-empty string, got 5"},
        {{{"owner", "alice"}, {"amount", "1"}, {"workflow_id", 6}, {"as", 7}},
         "/steps/400/workflow_id: must be a non-empty string, got 6"},
        {{{"owner", "alice"}, {"amount", "1"}, {"as", 7}},
         "/steps/400/as: must be a non-empty string, got 7"},
    };
    for (const auto& [fields, expected] : cases) {
        json document = minted(600);
        json step = fields;
        step["step"] = "mint";
        document["steps"][400] = step;
        std::string from_document;
        try {
            (void)load_seed(document, "seed.json");
        } catch (const SeedError& e) {
            from_document = e.what();
        }
        const auto path = write(streamed_text(document));
        const std::string streamed = error_of_file(path);
        EXPECT_EQ(from_document, "seed.json: step 400 (mint): " + expected) << fields.dump();
        EXPECT_EQ(streamed, path.string() + ": step 400 (mint): " + expected) << fields.dump();
    }
}

}  // namespace
}  // namespace cantonlite::seed::seed_pipeline_test
