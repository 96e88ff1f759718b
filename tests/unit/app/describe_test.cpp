#include "cantonlite/app/describe.hpp"

#include <algorithm>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cantonlite/app/cli.hpp"
#include "cantonlite/seed/seed_loader.hpp"
#include "cantonlite/splice/splice_views.hpp"
#include "small_seed.hpp"

namespace cantonlite::app::describe_test {
namespace {

using nlohmann::json;

using testseeds::small_seed;

json describe_seed(const json& seed) {
    const auto store = seed::load_seed(seed, "seed.json");
    return describe_json(*store);
}

std::vector<json> examples_of(const json& doc, int op) {
    std::vector<json> out;
    for (const json& e : doc["examples"]) {
        if (e["op"] == op) out.push_back(e);
    }
    return out;
}

TEST(DescribeJson, StartsWithTheFixedKeys) {
    const auto store = seed::load_seed(small_seed(), "seed.json");

    const nlohmann::ordered_json doc = describe_json(*store);

    std::vector<std::string> keys;
    for (const auto& [key, _] : doc.items()) keys.push_back(key);
    ASSERT_GE(keys.size(), 4U);
    EXPECT_EQ(std::vector<std::string>(keys.begin(), keys.begin() + 4),
              (std::vector<std::string>{"dso_party", "ledger_end", "users", "examples"}));
    EXPECT_EQ(doc["dso_party"], "DSO::1220d5");
    EXPECT_EQ(doc["ledger_end"], 12);  // bootstrap, 9 transactions, the migration, a mint
}

TEST(DescribeJson, ListsTheUsers) {
    const json doc = describe_seed(small_seed());

    EXPECT_EQ(doc["users"], json::parse(R"([
        {"id": "alice", "party": "alice::1220a1", "wallet": true, "validator": null},
        {"id": "bob", "party": "bob::1220b0", "wallet": true, "validator": null},
        {"id": "carol", "party": "carol::1220c0", "wallet": false, "validator": null}])"));
}

TEST(DescribeJson, NamesTheLocalnetValidatorOfAWallet) {
    json seed = small_seed();
    seed["users"][0]["validator"] = "app-provider";

    const json doc = describe_seed(seed);

    EXPECT_EQ(doc["users"][0]["validator"], "app-provider");
    EXPECT_EQ(doc["users"][1]["validator"], nullptr);
}

TEST(DescribeJson, EveryExampleHasTheFixedShape) {
    const json doc = describe_seed(small_seed());

    for (const json& e : doc["examples"]) {
        std::vector<std::string> keys;
        for (const auto& [key, _] : e.items()) keys.push_back(key);
        std::sort(keys.begin(), keys.end());
        EXPECT_EQ(keys, (std::vector<std::string>{"body", "expect_status", "method", "note", "op",
                                                  "path", "user"}));
        EXPECT_TRUE(e["body"].is_null() || e["body"].is_object()) << e;
        EXPECT_TRUE(e["user"].is_null() || e["user"].is_string()) << e;
        EXPECT_EQ(e["path"].get<std::string>().front(), '/') << e;
        EXPECT_EQ(e["body"].is_null(), e["method"] == "GET" || e["op"] == 5) << e;
    }
}

TEST(DescribeJson, ExamplesCoverEveryOperationWithTheRightUserAndStatus) {
    const json doc = describe_seed(small_seed());

    using Row = std::tuple<int, int, json>;  // op, expected status, user
    std::vector<Row> rows;
    for (const json& e : doc["examples"]) rows.emplace_back(e["op"], e["expect_status"], e["user"]);
    const json none;
    EXPECT_EQ(rows,
              (std::vector<Row>{{1, 200, "carol"}, {1, 404, "carol"},  // the latest mint is carol's
                                {2, 200, none},    {2, 400, none},     // scan: no token
                                {3, 200, none},    {3, 404, none},     //
                                {4, 200, "alice"}, {4, 404, "carol"},  // carol has no wallet
                                {5, 200, "bob"},   {5, 404, "bob"},    // bob's request
                                {6, 200, "alice"}, {6, 404, "alice"},  // any user
                                {7, 200, "alice"}, {7, 404, "alice"},  //
                                {8, 200, none},    {8, 404, none},     //
                                {9, 200, "alice"}, {9, 200, "alice"},  // the entry and dso.ans
                                {9, 404, "alice"}, {10, 200, none},    //
                                {11, 200, none},   {12, 200, none},    //
                                {13, 200, none}}));
}

TEST(DescribeJson, TransactionExamplesUseAVisibleOffsetAndOneBeyondTheEnd) {
    const json doc = describe_seed(small_seed());

    const auto op1 = examples_of(doc, 1);
    EXPECT_EQ(op1[0]["body"],
              json::parse(R"({"offset": 12, "requestingParties": ["carol::1220c0"]})"));
    EXPECT_EQ(op1[1]["body"],
              json::parse(R"({"offset": 13, "requestingParties": ["carol::1220c0"]})"));
}

TEST(DescribeJson, ImportExamplesUseTheMigrationWithImports) {
    const json doc = describe_seed(small_seed());

    const auto op2 = examples_of(doc, 2);
    EXPECT_EQ(op2[0]["body"],
              json::parse(R"({"migration_id": 1, "after_update_id": "", "limit": 10})"));
    EXPECT_EQ(op2[1]["body"]["limit"], 1001);
}

TEST(DescribeJson, HoldingsExamplesUseTheSnapshotTime) {
    const json doc = describe_seed(small_seed());

    const auto op3 = examples_of(doc, 3);
    EXPECT_EQ(op3[0]["body"], json::parse(R"({"migration_id": 0,
        "record_time": "2025-01-01T00:00:10Z", "record_time_match": "exact", "page_size": 10,
        "owner_party_ids": ["alice::1220a1"]})"));
    EXPECT_EQ(op3[1]["body"]["record_time"], "2025-01-01T00:00:13Z");  // after the ledger clock
    const auto op6 = examples_of(doc, 6);
    EXPECT_EQ(op6[0]["body"], json::parse(R"({"migration_id": 0,
        "record_time": "2025-01-01T00:00:10Z", "record_time_match": "exact",
        "owner_party_ids": ["alice::1220a1"]})"));
}

TEST(DescribeJson, PathParametersArePercentEncoded) {
    const json doc = describe_seed(small_seed());

    EXPECT_EQ(examples_of(doc, 7)[0]["path"],
              "/api/validator/v0/scan-proxy/transfer-command-counter/carol%3A%3A1220c0");
    EXPECT_EQ(examples_of(doc, 5)[0]["path"],
              "/api/validator/v0/wallet/buy-traffic-requests/traffic-1/status");
    EXPECT_EQ(examples_of(doc, 9)[0]["path"],
              "/api/validator/v0/scan-proxy/ans-entries/by-name/alice.unverified.ans");
    EXPECT_EQ(examples_of(doc, 9)[1]["path"],
              "/api/validator/v0/scan-proxy/ans-entries/by-name/dso.ans");
}

TEST(DescribeJson, VoteRequestExamplesGoByTrackingId) {
    const auto store = seed::load_seed(small_seed(), "seed.json");
    const json doc = describe_json(*store);

    const std::string prefix = "/api/scan/v0/voterequests/";
    const auto op8 = examples_of(doc, 8);
    const std::string found = op8[0]["path"].get<std::string>().substr(prefix.size());
    const std::string missing = op8[1]["path"].get<std::string>().substr(prefix.size());
    EXPECT_NE(splice::views(*store).vote_request_by_tracking_cid(found), nullptr);
    EXPECT_EQ(splice::views(*store).vote_request_by_tracking_cid(missing), nullptr);
    EXPECT_EQ(splice::views(*store).active_vote_requests().front()->contract_id,
              missing);  // re-created by the vote
}

TEST(DescribeJson, AddsMigrationsSnapshotsAndCounts) {
    const json doc = describe_seed(small_seed());

    EXPECT_EQ(doc["migration_id"], 1);
    ASSERT_EQ(doc["migrations"].size(), 1U);
    EXPECT_EQ(doc["migrations"][0]["offset"], 11);
    EXPECT_EQ(doc["snapshots"], json::parse(R"([{"migration_id": 0,
        "record_time": "2025-01-01T00:00:10Z", "holdings": 2}])"));
    EXPECT_EQ(doc["counts"]["splice-amulet:Splice.Amulet:Amulet"], 3);
}

TEST(DescribeJson, EmptyNetworkNotesTheMissingSuccessExamples) {
    const json doc = describe_seed(json::parse(R"({"network": {"dso_party": "DSO::1220d5"}})"));

    std::vector<int> failing_with_note;
    for (const json& e : doc["examples"]) {
        const std::string note = e["note"];
        if (note.find("no success example") != std::string::npos)
            failing_with_note.push_back(e["op"]);
    }
    EXPECT_EQ(failing_with_note, (std::vector<int>{1, 2, 3, 4, 5, 6, 7, 8}));
    EXPECT_EQ(examples_of(doc, 4)[0]["expect_status"], 401);  // no users: no token
}

TEST(DescribeJson, TwoLoadsOfOneSeedDescribeAlike) {
    const auto first = seed::load_seed(small_seed(), "seed.json");
    const auto second = seed::load_seed(small_seed(), "seed.json");

    EXPECT_EQ(describe_json(*first).dump(), describe_json(*second).dump());
    EXPECT_EQ(describe_text(*first, {}), describe_text(*second, {}));
}

TEST(DescribeJson, LedgerWithoutAuthNeedsNoToken) {
    json seed = small_seed();
    seed["auth"]["ledger_auth"] = false;

    const json doc = describe_seed(seed);

    for (const json& e : examples_of(doc, 1)) EXPECT_TRUE(e["user"].is_null()) << e;
    EXPECT_EQ(examples_of(doc, 4)[0]["user"], "alice");  // the validator still wants one
}

struct EncodeCase {
    std::string text;
    std::string encoded;
};

class EncodePathSegment : public testing::TestWithParam<EncodeCase> {};

TEST_P(EncodePathSegment, KeepsOnlyUnreservedCharacters) {
    EXPECT_EQ(encode_path_segment(GetParam().text), GetParam().encoded);
}

INSTANTIATE_TEST_SUITE_P(Cases, EncodePathSegment,
                         testing::Values(EncodeCase{"alice::1220ab", "alice%3A%3A1220ab"},
                                         EncodeCase{"dso.ans", "dso.ans"},
                                         EncodeCase{"a-b_c~d", "a-b_c~d"},
                                         EncodeCase{"a b/c?d", "a%20b%2Fc%3Fd"},
                                         EncodeCase{"\xc3\xa9", "%C3%A9"}));

TEST(DescribeText, PrintsCurlLinesWithTokensOfTheSameNetwork) {
    const auto store = seed::load_seed(small_seed(), "seed.json");

    const std::string text =
        describe_text(*store, {.port = 9000, .token_flags = "--seed 'my seed.json'"});

    EXPECT_NE(text.find("curl -sS -w '\\n%{http_code}\\n' -X GET "
                        "http://127.0.0.1:9000/api/scan/v0/dso-party-id\n"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("-X GET http://127.0.0.1:9000/api/validator/v0/wallet/transfer-offers -H "
                        "\"Authorization: Bearer $(cantonlite token --user alice --seed 'my "
                        "seed.json')\"\n"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find(" -H 'Content-Type: application/json' -d "
                        "'{\"migration_id\":1,\"after_update_id\":\"\",\"limit\":10}'\n"),
              std::string::npos)
        << text;
}

TEST(ShellQuote, QuotesOnlyWhatNeedsIt) {
    EXPECT_EQ(shell_quote("alice"), "alice");
    EXPECT_EQ(shell_quote("/tmp/a.json"), "/tmp/a.json");
    EXPECT_EQ(shell_quote("a b"), "'a b'");
    EXPECT_EQ(shell_quote("it's"), "'it'\\''s'");
    EXPECT_EQ(shell_quote(""), "''");
}

TEST(ParseCommandLine, DescribeTakesConfigSeedAndJson) {
    const CommandLine cli = parse_command_line({"describe", "--seed=s.json", "--json"});

    EXPECT_EQ(cli.command, Command::describe);
    EXPECT_TRUE(cli.json);
    EXPECT_EQ(cli.settings, (std::vector<std::pair<std::string, std::string>>{{"seed", "s.json"}}));
}

}  // namespace
}  // namespace cantonlite::app::describe_test
