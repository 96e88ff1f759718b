#include "cantonlite/seed/seed_loader.hpp"

#include <unistd.h>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "seed/seed_test_network.hpp"

namespace cantonlite::seed::seed_loader_test {
namespace {

using nlohmann::json;
using seedtest::LoadedState;
using seedtest::state_of;

constexpr std::int64_t second = 1'000'000;

// The what() of the SeedError that loading `document` throws, or "" when it loads.
std::string load_error(const json& document) {
    try {
        (void)load_seed(document, "seed.json");
    } catch (const SeedError& e) {
        return e.what();
    }
    return "";
}

json lsu_json() {
    return {{"topology_freeze_time", "2030-01-15T12:00:00Z"},
            {"upgrade_time", "2030-01-15T14:00:00.5+01:00"},
            {"successor_physical_synchronizer_id", "global-domain::1220b1::34-1"}};
}

TEST(LoadSeed, ReadsTheDsoParty) {
    const json document = {{"network", {{"dso_party", "DSO::1220fb89"}}}};

    const auto store = load_seed(document, "seed.json");

    EXPECT_EQ(store->network().dso_party, "DSO::1220fb89");
}

TEST(LoadSeed, NetworkWithoutLsuHasNone) {
    const json document = {{"network", {{"dso_party", "DSO::1220fb89"}}}};

    const auto store = load_seed(document, "seed.json");

    EXPECT_FALSE(store->network().lsu.has_value());
}

TEST(LoadSeed, NullLsuMeansNone) {
    const json document = {{"network", {{"dso_party", "DSO::1220fb89"}, {"lsu", nullptr}}}};

    const auto store = load_seed(document, "seed.json");

    EXPECT_FALSE(store->network().lsu.has_value());
}

TEST(LoadSeed, ReadsTheLsuAnnouncement) {
    const json document = {{"network", {{"dso_party", "DSO::1220fb89"}, {"lsu", lsu_json()}}}};

    const auto store = load_seed(document, "seed.json");

    ASSERT_TRUE(store->network().lsu.has_value());
    const model::Lsu& lsu = *store->network().lsu;
    EXPECT_EQ(lsu.topology_freeze_time.micros, 1'894'708'800 * second);
    EXPECT_EQ(lsu.upgrade_time.micros, 1'894'712'400 * second + 500'000);
    EXPECT_EQ(lsu.successor_physical_synchronizer_id, "global-domain::1220b1::34-1");
}

struct ErrorCase {
    std::string name;
    json document;
    std::string error;
};

class LoadSeedRejects : public testing::TestWithParam<ErrorCase> {};

TEST_P(LoadSeedRejects, NamingTheSourceThePointerAndTheProblem) {
    const ErrorCase& c = GetParam();

    EXPECT_EQ(load_error(c.document), c.error);
}

json with_lsu_field(const std::string& key, const json& value) {
    json lsu = lsu_json();
    lsu[key] = value;
    return {{"network", {{"dso_party", "DSO::1"}, {"lsu", lsu}}}};
}

json without_lsu_field(const std::string& key) {
    json lsu = lsu_json();
    lsu.erase(key);
    return {{"network", {{"dso_party", "DSO::1"}, {"lsu", lsu}}}};
}

INSTANTIATE_TEST_SUITE_P(
    Documents, LoadSeedRejects,
    testing::Values(
        ErrorCase{"RootNotAnObject", json::array(), "seed.json: /: must be an object, got []"},
        ErrorCase{"MissingNetwork", json::object(), "seed.json: /network: is required"},
        ErrorCase{"NetworkNotAnObject", json{{"network", "main"}},
                  "seed.json: /network: must be an object, got \"main\""},
        ErrorCase{"UnknownRootKey", json{{"network", {{"dso_party", "DSO::1"}}}, {"contracts", 1}},
                  "seed.json: /contracts: unknown key"},
        ErrorCase{"MissingDsoParty", json{{"network", json::object()}},
                  "seed.json: /network/dso_party: is required"},
        ErrorCase{"EmptyDsoParty", json{{"network", {{"dso_party", ""}}}},
                  "seed.json: /network/dso_party: must be a non-empty string, got \"\""},
        ErrorCase{"UnknownNetworkKey", json{{"network", {{"dso_party", "DSO::1"}, {"dso", "x"}}}},
                  "seed.json: /network/dso: unknown key"},
        ErrorCase{"LsuNotAnObject", json{{"network", {{"dso_party", "DSO::1"}, {"lsu", true}}}},
                  "seed.json: /network/lsu: must be an object, got true"},
        ErrorCase{"MissingUpgradeTime", without_lsu_field("upgrade_time"),
                  "seed.json: /network/lsu/upgrade_time: is required"},
        ErrorCase{"MissingFreezeTime", without_lsu_field("topology_freeze_time"),
                  "seed.json: /network/lsu/topology_freeze_time: is required"},
        ErrorCase{"MissingSuccessor", without_lsu_field("successor_physical_synchronizer_id"),
                  "seed.json: /network/lsu/successor_physical_synchronizer_id: is required"},
        ErrorCase{"UpgradeTimeWithoutOffset", with_lsu_field("upgrade_time", "2030-01-15T14:00:00"),
                  "seed.json: /network/lsu/upgrade_time: must be an RFC 3339 date-time such as "
                  "\"2024-05-01T10:00:00Z\", got \"2030-01-15T14:00:00\""},
        ErrorCase{
            "ImpossibleFreezeTime", with_lsu_field("topology_freeze_time", "2030-02-30T00:00:00Z"),
            "seed.json: /network/lsu/topology_freeze_time: must be an RFC 3339 date-time such "
            "as \"2024-05-01T10:00:00Z\", got \"2030-02-30T00:00:00Z\""},
        ErrorCase{"UnknownLsuKey", with_lsu_field("upgradeTime", "2030-01-15T14:00:00Z"),
                  "seed.json: /network/lsu/upgradeTime: unknown key"}),
    [](const testing::TestParamInfo<ErrorCase>& info) { return info.param.name; });

class LoadSeedFileTest : public testing::Test {
  protected:
    LoadSeedFileTest()
        : dir_(std::filesystem::temp_directory_path() /
               ("cantonlite-seed-test-" + std::to_string(::getpid()) + "-" +
                testing::UnitTest::GetInstance()->current_test_info()->name())) {
        std::filesystem::create_directories(dir_);
    }
    ~LoadSeedFileTest() override { std::filesystem::remove_all(dir_); }

    std::filesystem::path write(const std::string& name, const std::string& text) const {
        const std::filesystem::path path = dir_ / name;
        std::ofstream(path) << text;
        return path;
    }

    std::filesystem::path dir_;
};

TEST_F(LoadSeedFileTest, LoadsAFile) {
    const auto path = write("seed.json", R"({"network": {"dso_party": "DSO::1220ab"}})");

    const auto store = load_seed_file(path);

    EXPECT_EQ(store->network().dso_party, "DSO::1220ab");
}

TEST_F(LoadSeedFileTest, MissingFileNamesThePath) {
    const auto path = dir_ / "absent.json";

    try {
        (void)load_seed_file(path);
        FAIL() << "no SeedError";
    } catch (const SeedError& e) {
        EXPECT_EQ(std::string(e.what()), path.string() + ": cannot be read");
    }
}

TEST_F(LoadSeedFileTest, InvalidJsonNamesThePath) {
    const auto path = write("seed.json", R"({"network": )");

    try {
        (void)load_seed_file(path);
        FAIL() << "no SeedError";
    } catch (const SeedError& e) {
        const std::string what = e.what();
        EXPECT_EQ(what.substr(0, path.string().size() + 21),
                  path.string() + ": is not valid JSON: ");
        EXPECT_NE(what.find("line 1, column 13"), std::string::npos) << what;
    }
}

TEST_F(LoadSeedFileTest, NumberBeyondADoubleIsInvalidJson) {
    const auto path = write("seed.json", R"({"network": 1e400})");

    try {
        (void)load_seed_file(path);
        FAIL() << "no SeedError";
    } catch (const SeedError& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find(": is not valid JSON: "), std::string::npos) << what;
        EXPECT_NE(what.find("number overflow"), std::string::npos) << what;
    }
}

TEST_F(LoadSeedFileTest, FieldErrorsNameThePathAndThePointer) {
    const auto path = write("seed.json", R"({"network": {"dso_party": 7}})");

    try {
        (void)load_seed_file(path);
        FAIL() << "no SeedError";
    } catch (const SeedError& e) {
        EXPECT_EQ(std::string(e.what()),
                  path.string() + ": /network/dso_party: must be a non-empty string, got 7");
    }
}

json shipped_default_network() {
    std::ifstream in(std::filesystem::path(CANTONLITE_SOURCE_DIR) / "config" /
                     "default-network.json");
    return json::parse(in);
}

// A file runs its steps as they are parsed when the network, users and auth come first; in any
// other order it is loaded whole. Either way it loads what its document loads.
TEST_F(LoadSeedFileTest, LoadsTheSameLedgerInAnyKeyOrder) {
    const json document = shipped_default_network();
    const LoadedState expected = state_of(*load_seed(document, "seed.json"));
    ASSERT_GT(expected.update_ids.size(), 5U);
    const std::vector<std::vector<std::string>> orders = {
        {"network", "users", "auth", "steps"},  // streamed
        {"steps", "network", "users", "auth"},  // the steps first: loaded whole
        {"network", "users", "steps", "auth"},  // auth after the steps that ran: loaded again
        {"network", "steps", "users", "auth"},
    };
    for (const auto& order : orders) {
        std::string text = "{";
        for (const std::string& key : order) {
            if (!document.contains(key)) continue;
            text += (text.size() > 1 ? ",\n" : "") + json(key).dump() + ": " + document[key].dump();
        }
        text += "}";
        const auto path = write("seed.json", text);
        EXPECT_EQ(state_of(*load_seed_file(path)), expected) << order[0] << " " << order[1];
    }
}

// Errors read the same from a file as from its document, and what follows the steps is still
// checked: an unknown key, broken JSON.
TEST_F(LoadSeedFileTest, StreamedStepsReportErrorsAsTheDocumentDoes) {
    const json step_error = {
        {"network", {{"dso_party", "DSO::1220ab"}}},
        {"users", json::array()},
        {"auth", json::object()},
        {"steps", json::array({{{"step", "advance_time"}, {"by_seconds", 1}},
                               {{"step", "mint"}, {"owner", "nobody"}, {"amount", "1"}}})}};
    // In this order (a document's dump() sorts its keys): the steps run as they are parsed.
    const auto path = write("seed.json", "{\"network\": " + step_error["network"].dump() +
                                             ", \"users\": [], \"auth\": {}, \"steps\": " +
                                             step_error["steps"].dump() + "}");
    std::string from_document;
    try {
        (void)load_seed(step_error, path.string());
    } catch (const SeedError& e) {
        from_document = e.what();
    }
    ASSERT_NE(from_document, "");
    try {
        (void)load_seed_file(path);
        FAIL() << "no SeedError";
    } catch (const SeedError& e) {
        EXPECT_EQ(std::string(e.what()), from_document);
    }

    const auto unknown = write("unknown.json", R"({"network": {"dso_party": "DSO::1220ab"},
        "steps": [{"step": "advance_time", "by_seconds": 1}], "stepz": []})");
    try {
        (void)load_seed_file(unknown);
        FAIL() << "no SeedError";
    } catch (const SeedError& e) {
        EXPECT_EQ(std::string(e.what()), unknown.string() + ": /stepz: unknown key");
    }

    const auto broken = write("broken.json", R"({"network": {"dso_party": "DSO::1220ab"},
        "steps": [{"step": "advance_time", "by_seconds": 1}, )");
    try {
        (void)load_seed_file(broken);
        FAIL() << "no SeedError";
    } catch (const SeedError& e) {
        EXPECT_NE(std::string(e.what()).find(broken.string() + ": is not valid JSON: "),
                  std::string::npos)
            << e.what();
    }
}

TEST(LoadSeedFile, LoadsTheShippedDefaultNetwork) {
    const auto store = load_seed_file(std::filesystem::path(CANTONLITE_SOURCE_DIR) / "config" /
                                      "default-network.json");

    EXPECT_EQ(store->network().dso_party,
              "DSO::1220fb89d62774bd5b3fd8a11c1b22c8c5453e8286c3cf7add515c98d7bca192ef18");
    ASSERT_TRUE(store->network().lsu.has_value());
    EXPECT_EQ(store->network().lsu->successor_physical_synchronizer_id,
              "global-domain::1220b1431ef217342db44d516bb9befde802be7d8899637d290895fa58880f19accc:"
              ":34-1");
}

}  // namespace
}  // namespace cantonlite::seed::seed_loader_test
