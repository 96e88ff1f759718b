// The token-standard registry's metadata API on Scan's root (splice-api-token-metadata-v1:
// GET /registry/metadata/v1/info, /instruments, /instruments/{instrumentId}), as Splice's
// HttpTokenStandardMetadataHandler answers: the DSO as admin, one instrument "Amulet" with 10
// decimals, its supply from the latest ACS snapshot; guardrail's encoders write an absent optional
// field as null, compactly. No token is needed.
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "areas/scan/scan_test_support.hpp"

namespace cantonlite::areas::scan {
namespace {

using namespace scantest;  // NOLINT: the shared test network, steps and readers

const std::string info_path = "/registry/metadata/v1/info";
const std::string instruments_path = "/registry/metadata/v1/instruments";

// alice 100 (30 of it locked), bob 50, snapshot; then carol's 7, after the snapshot.
json supply_seed() {
    return seed_with({at(mint("alice", "100", "alice-coin"), "2025-01-01T01:00:00Z"),
                      at(mint("bob", "50.25", "bob-coin"), "2025-01-01T02:00:00Z"),
                      lock("alice-coin", "30", "alice-locked", "alice-change"),
                      snapshot_at("2025-01-02T00:00:00Z"),
                      at(mint("carol", "7", "carol-coin"), "2025-01-02T10:00:00Z")});
}

const ScanClient& api() {
    static const ScanClient client(supply_seed());
    return client;
}

const ScanClient& without_snapshot() {
    static const ScanClient client(seed_with({mint("alice", "100", "alice-coin")}));
    return client;
}

// The five v1 APIs the Amulet instrument implements, each at version 1.
const json supported_apis = {{"splice-api-token-metadata-v1", 1},
                             {"splice-api-token-holding-v1", 1},
                             {"splice-api-token-transfer-instruction-v1", 1},
                             {"splice-api-token-allocation-v1", 1},
                             {"splice-api-token-allocation-instruction-v1", 1}};

json amulet(json total_supply, json as_of) {
    return {{"id", "Amulet"},
            {"name", "Amulet"},
            {"symbol", "AMT"},
            {"totalSupply", std::move(total_supply)},
            {"totalSupplyAsOf", std::move(as_of)},
            {"decimals", 10},
            {"supportedApis", supported_apis}};
}

TEST(RegistryInfo, NamesTheDsoAsAdminAndTheMetadataApi) {
    const Response response = api().get(info_path);

    ASSERT_EQ(response.status, 200) << response.body;
    EXPECT_EQ(response.content_type, "application/json");
    EXPECT_EQ(response.body,
              R"({"adminId":")" + dso + R"(","supportedApis":{"splice-api-token-metadata-v1":1}})");
}

TEST(RegistryInfo, IgnoresABearerToken) {
    EXPECT_EQ(api().get(info_path, {{"Authorization", "Bearer x.y.z"}}).status, 200);
}

// The latest snapshot's amulets, locked and unlocked: carol's mint came after it.
TEST(RegistryInstruments, ListsAmuletWithTheLatestSnapshotsSupply) {
    const Response response = api().get(instruments_path);

    ASSERT_EQ(response.status, 200) << response.body;
    EXPECT_EQ(
        body_of(response),
        (json{{"instruments", json::array({amulet("150.2500000000", "2025-01-02T00:00:00Z")})},
              {"nextPageToken", nullptr}}));
}

TEST(RegistryInstruments, WritesTheFieldsInTheSchemasOrder) {
    const std::string body = api().get(instruments_path).body;

    EXPECT_TRUE(body.starts_with(R"({"instruments":[{"id":"Amulet","name":"Amulet","symbol":"AMT",)"
                                 R"("totalSupply":"150.2500000000",)"))
        << body;
    EXPECT_TRUE(body.ends_with(R"("decimals":10,"supportedApis":{)"
                               R"("splice-api-token-metadata-v1":1,)"
                               R"("splice-api-token-allocation-v1":1,)"
                               R"("splice-api-token-transfer-instruction-v1":1,)"
                               R"("splice-api-token-holding-v1":1,)"
                               R"("splice-api-token-allocation-instruction-v1":1}}],)"
                               R"("nextPageToken":null})"))
        << body;
}

// Scan never pages the one instrument: pageSize and pageToken are read and ignored.
TEST(RegistryInstruments, IgnoresPageSizeAndPageToken) {
    EXPECT_EQ(api().get(instruments_path + "?pageSize=1&pageToken=abc").body,
              api().get(instruments_path).body);
}

TEST(RegistryInstruments, WithoutASnapshotTheSupplyIsNull) {
    const Response response = without_snapshot().get(instruments_path);

    ASSERT_EQ(response.status, 200) << response.body;
    EXPECT_EQ(body_of(response).at("instruments").at(0), amulet(nullptr, nullptr));
}

TEST(RegistryInstrument, AmuletIsFoundById) {
    const Response response = api().get(instruments_path + "/Amulet");

    ASSERT_EQ(response.status, 200) << response.body;
    EXPECT_EQ(body_of(response), amulet("150.2500000000", "2025-01-02T00:00:00Z"));
}

TEST(RegistryInstrument, AnotherIdIsNotFound) {
    const Response response = api().get(instruments_path + "/CantonCoin");

    EXPECT_EQ(response.body, R"({"error":"No instrument with id CantonCoin found"})");
    EXPECT_TRUE(is_error(response, 404, "No instrument with id CantonCoin found"));
}

TEST(RegistryInstrument, TheIdIsCaseSensitive) {
    EXPECT_EQ(api().get(instruments_path + "/amulet").status, 404);
}

// ---- the scan-proxy's copy -------------------------------------------------------------------

TEST(ProxyRegistry, NeedsAToken) {
    const Response response = api().get("/api/validator/v0/scan-proxy" + info_path);

    EXPECT_EQ(response.status, 401) << response.body;
}

}  // namespace
}  // namespace cantonlite::areas::scan
