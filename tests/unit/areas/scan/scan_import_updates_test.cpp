// Scan import updates (op 2: POST /v0/backfilling/import-updates; splice-behavior.md op 2, §3,
// §4.1; scan.yaml GetImportUpdatesRequest, GetImportUpdatesResponse, UpdateHistoryTransaction).
#include <algorithm>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "areas/scan/scan_test_support.hpp"
#include "cantonlite/model/value_json.hpp"

namespace cantonlite::areas::scan::scan_import_updates_test {
namespace {

using namespace scantest;  // NOLINT: the shared test network, steps and readers

const std::string import_updates = "/api/scan/v0/backfilling/import-updates";

// Migration 0: alice's 10 in round 12 at a time with a fraction (offset 2), bob's 20 (3), carol's
// 30 (4), bob's 20 locked whole (5, archives his coin), alice's ANS entry (6), reassigned to the
// private synchronizer (7, 8); then the migration to 1 (9) and alice's 99 (10).
json import_seed() {
    json first = at(mint("alice", "10", "alice-coin"), "2025-01-01T01:00:00.120Z");
    first["round"] = 12;
    json lock_all = lock("bob-coin", "20", "bob-locked", "bob-change");
    lock_all.erase("amount");
    lock_all.erase("change_as");
    return seed_with(
        {first, mint("bob", "20", "bob-coin"), mint("carol", "30", "carol-coin"), lock_all,
         register_ans("alice", "alice.unverified.ans", "2026-01-01T00:00:00Z", "alice-ans"),
         reassign("alice-ans", private_synchronizer), at(migrate(), "2025-01-05T00:00:00Z"),
         mint("alice", "99", "alice-coin-2")});
}

const ScanClient& api() {
    static const ScanClient client(import_seed());
    return client;
}

const store::LedgerStore& ledger() {
    return api().store();
}

json request(std::int64_t migration, const std::string& after, int limit) {
    return {{"migration_id", migration}, {"after_update_id", after}, {"limit", limit}};
}

// The contracts active when migration 1 started, by contract id.
std::vector<model::ContractPtr> imported() {
    const store::Offset migration = migration_offset(ledger());
    std::vector<model::ContractPtr> out;
    for (store::Offset o = 1; o < migration; ++o) {
        for (const model::ContractPtr& c : created_by(ledger(), o)) {
            const auto state = ledger().contract(c->contract_id);
            if (!state->archived_offset() || *state->archived_offset() > migration)
                out.push_back(c);
        }
    }
    std::sort(out.begin(), out.end(),
              [](const auto& a, const auto& b) { return a->contract_id < b->contract_id; });
    return out;
}

std::vector<std::string> imported_ids() {
    std::vector<std::string> ids;
    for (const model::ContractPtr& c : imported()) ids.push_back(c->contract_id.str());
    return ids;
}

// The import update of `c` into migration 1 (splice-behavior.md §3 example, V1 encoding).
json import_update(const model::Contract& c) {
    const auto state = ledger().contract(c.contract_id);
    const std::string synchronizer =
        state->synchronizer_id.empty() ? global_synchronizer : state->synchronizer_id.str();
    const std::string event_id = c.contract_id + ":0";
    const json created = {{"event_type", "created_event"},
                          {"event_id", event_id},
                          {"contract_id", c.contract_id},
                          {"template_id", c.template_id().to_string()},
                          {"package_name", c.template_id().package_name},
                          {"create_arguments", json::parse(model::value_json(
                                                   c.argument, model::ValueEncoding::protobuf))},
                          {"created_at", model::format_offset_date_time(c.created_at)},
                          {"signatories", c.signatories},
                          {"observers", model::NameSet(c.observers())}};
    return {{"update_id", c.contract_id},
            {"migration_id", 1},
            {"workflow_id", "canton-network-acs-import-" + c.contract_id},
            {"record_time", "0001-01-01T00:00:00.000000Z"},
            {"synchronizer_id", synchronizer},
            {"effective_at", model::format_instant(c.created_at)},
            {"offset", "000000000000000001"},
            {"root_event_ids", json::array({event_id})},
            {"events_by_id", {{event_id, created}}}};
}

std::vector<std::string> update_ids(const Response& response) {
    std::vector<std::string> ids;
    const json body = body_of(response);
    for (const json& t : body.at("transactions")) {
        ids.push_back(t.at("update_id").get<std::string>());
    }
    return ids;
}

json item_for(const std::string& cid) {
    const json body = body_of(api().post(import_updates, request(1, "", 1000)));
    for (const json& t : body.at("transactions")) {
        if (t.at("update_id") == cid) return t;
    }
    return nullptr;
}

model::ContractPtr alice_coin() {
    return only_created_by(ledger(), 2, "Amulet");
}

// ---- what is returned -------------------------------------------------------------------------

TEST(ImportUpdates, ReturnsTheContractsActiveAtTheMigrationByContractId) {
    const Response response = api().post(import_updates, request(1, "", 1000));

    json expected = json::array();
    for (const model::ContractPtr& c : imported()) expected.push_back(import_update(*c));
    EXPECT_EQ(response.status, 200);
    EXPECT_EQ(response.content_type, "application/json");
    EXPECT_EQ(body_of(response), (json{{"transactions", expected}}));
}

TEST(ImportUpdates, ImportsEveryContractActiveAtTheMigration) {
    const Response response = api().post(import_updates, request(1, "", 1000));

    // The bootstrap's DsoRules, AmuletRules, ExternalPartyAmuletRules and two wallet installs;
    // alice's and carol's coins, bob's locked amulet, alice's ANS entry.
    EXPECT_EQ(update_ids(response).size(), 9U);
}

TEST(ImportUpdates, LeavesOutContractsArchivedBeforeAndCreatedAfterTheMigration) {
    const Response response = api().post(import_updates, request(1, "", 1000));

    const std::vector<std::string> ids = update_ids(response);
    const std::string bob_coin = only_created_by(ledger(), 3, "Amulet")->contract_id.str();
    const std::string later =
        only_created_by(ledger(), migration_offset(ledger()) + 1, "Amulet")->contract_id.str();
    EXPECT_EQ(std::count(ids.begin(), ids.end(), bob_coin), 0);
    EXPECT_EQ(std::count(ids.begin(), ids.end(), later), 0);
}

TEST(ImportUpdates, AnImportUpdateIsTheContractsOwnOneNodeTransaction) {
    const std::string cid = alice_coin()->contract_id.str();

    const json item = item_for(cid);

    EXPECT_EQ(item.at("update_id"), cid);
    EXPECT_EQ(item.at("migration_id"), 1);
    EXPECT_EQ(item.at("workflow_id"), "canton-network-acs-import-" + cid);
    EXPECT_EQ(item.at("record_time"), "0001-01-01T00:00:00.000000Z");
    EXPECT_EQ(item.at("synchronizer_id"), global_synchronizer);
    EXPECT_EQ(item.at("offset"), "000000000000000001");
    EXPECT_EQ(item.at("root_event_ids"), json::array({cid + ":0"}));
    ASSERT_EQ(item.at("events_by_id").size(), 1U);
    EXPECT_EQ(item.at("events_by_id").at(cid + ":0").at("event_id"), cid + ":0");
    EXPECT_FALSE(item.contains("external_transaction_hash"));
}

// effective_at is Instant.toString (fraction in groups of three), created_at an OffsetDateTime
// (fewest fraction digits).
TEST(ImportUpdates, PrintsTheCreationTimeAsInstantAndAsOffsetDateTime) {
    const std::string cid = alice_coin()->contract_id.str();

    const json item = item_for(cid);

    EXPECT_EQ(item.at("effective_at"), "2025-01-01T01:00:00.120Z");
    EXPECT_EQ(item.at("events_by_id").at(cid + ":0").at("created_at"), "2025-01-01T01:00:00.12Z");
}

TEST(ImportUpdates, WritesCreateArgumentsAsProtobufJsonWithoutLabels) {
    const std::string cid = alice_coin()->contract_id.str();

    const json event = item_for(cid).at("events_by_id").at(cid + ":0");

    const json expected = {
        {"record",
         {{"fields",
           {{{"value", {{"party", dso}}}},
            {{"value", {{"party", alice}}}},
            {{"value",
              {{"record",
                {{"fields",
                  {{{"value", {{"numeric", "10.0000000000"}}}},
                   {{"value", {{"record", {{"fields", {{{"value", {{"int64", "12"}}}}}}}}}}},
                   {{"value",
                     {{"record",
                       {{"fields", {{{"value", {{"numeric", "0.0000190259"}}}}}}}}}}}}}}}}}}}}}}};
    EXPECT_EQ(event.at("create_arguments"), expected);
    EXPECT_EQ(event.at("template_id"),
              "dbeda50efee6c5e53959638ef5422116723a9a6137fcdd4d2d82544291726a88:"
              "Splice.Amulet:Amulet");
    EXPECT_EQ(event.at("package_name"), "splice-amulet");
    EXPECT_EQ(event.at("signatories"), (json{dso, alice}));
    EXPECT_EQ(event.at("observers"), json::array());
}

TEST(ImportUpdates, NameTheSynchronizerTheContractWasOn) {
    const std::string ans = only_created_by(ledger(), 6, "AnsEntry")->contract_id.str();

    const json item = item_for(ans);

    EXPECT_EQ(item.at("synchronizer_id"), private_synchronizer);
}

// ---- paging: after_update_id and limit --------------------------------------------------------

struct PageCase {
    std::string name;
    int after = -1;  // index into the sorted ids; -1: ""
    int limit = 1000;
    int first = 0;  // index of the first id returned
    int count = 0;  // -1: all the rest
};

class ImportUpdatesPages : public testing::TestWithParam<PageCase> {};

// UpdateHistoryTest "sort and limit correctly": c4,c1,c3,c2 -> after "" [c1..c4]; after c2
// [c3,c4]; after c4 []; after c1, limit 2 [c2,c3].
TEST_P(ImportUpdatesPages, StartAfterTheGivenIdAndStopAtTheLimit) {
    const PageCase& c = GetParam();
    const std::vector<std::string> ids = imported_ids();
    const std::string after = c.after < 0 ? "" : ids.at(static_cast<std::size_t>(c.after));

    const Response response = api().post(import_updates, request(1, after, c.limit));

    const auto begin = ids.begin() + c.first;
    const auto end = c.count < 0 ? ids.end() : begin + c.count;
    EXPECT_EQ(update_ids(response), std::vector<std::string>(begin, end));
}

INSTANTIATE_TEST_SUITE_P(Cases, ImportUpdatesPages,
                         testing::Values(PageCase{"FromTheStart", -1, 1000, 0, -1},
                                         PageCase{"AfterTheSecond", 1, 1000, 2, -1},
                                         PageCase{"AfterTheLast", 8, 1000, 9, 0},
                                         PageCase{"AfterTheFirstLimitTwo", 0, 2, 1, 2},
                                         PageCase{"FromTheStartLimitOne", -1, 1, 0, 1},
                                         PageCase{"LimitBeyondTheEnd", 6, 5, 7, 2}),
                         [](const testing::TestParamInfo<PageCase>& info) {
                             return info.param.name;
                         });

TEST(ImportUpdates, PagingByTheLastUpdateIdGivesEveryImportOnce) {
    std::vector<std::string> walked;
    std::string after;

    for (int page = 0; page < 20; ++page) {
        const std::vector<std::string> ids =
            update_ids(api().post(import_updates, request(1, after, 2)));
        if (ids.empty()) break;
        walked.insert(walked.end(), ids.begin(), ids.end());
        after = ids.back();
    }

    EXPECT_EQ(walked, imported_ids());
}

struct TextCase {
    std::string after;
    bool all = false;  // true: every import; false: none
};

class ImportUpdatesAfterText : public testing::TestWithParam<TextCase> {};

// after_update_id is compared with contract ids as text; it need not be an id.
TEST_P(ImportUpdatesAfterText, IsComparedAsText) {
    const Response response = api().post(import_updates, request(1, GetParam().after, 1000));

    ASSERT_TRUE(imported_ids().front().starts_with("00"));
    EXPECT_EQ(update_ids(response), GetParam().all ? imported_ids() : std::vector<std::string>{});
}

INSTANTIATE_TEST_SUITE_P(Texts, ImportUpdatesAfterText,
                         testing::Values(TextCase{"0", true}, TextCase{"00", true},
                                         TextCase{"01", false}, TextCase{"zz", false},
                                         TextCase{"~", false}));

class ImportUpdatesNone : public testing::TestWithParam<std::int64_t> {};

TEST_P(ImportUpdatesNone, ForAMigrationWithoutImports) {
    const Response response = api().post(import_updates, request(GetParam(), "", 1000));

    EXPECT_EQ(response.status, 200);
    EXPECT_EQ(response.content_type, "application/json");
    EXPECT_EQ(body_of(response), (json{{"transactions", json::array()}}));
}

INSTANTIATE_TEST_SUITE_P(Migrations, ImportUpdatesNone, testing::Values(0, 2, 7, -1));

TEST(ImportUpdates, AcceptsABearerTokenAndAContentType) {
    const Response response =
        api().post(import_updates, request(1, "", 3),
                   {{"Authorization", "Bearer not.a.jwt"}, {"Content-Type", "application/json"}});

    EXPECT_EQ(response.status, 200);
    EXPECT_EQ(update_ids(response), update_ids(api().post(import_updates, request(1, "", 3))));
}

// ---- errors -----------------------------------------------------------------------------------

struct LimitCase {
    int limit = 0;
    std::string error;
};

class ImportUpdatesLimit : public testing::TestWithParam<LimitCase> {};

TEST_P(ImportUpdatesLimit, OutOfRangeIsRejected) {
    const Response response = api().post(import_updates, request(1, "", GetParam().limit));

    EXPECT_TRUE(is_error(response, 400, GetParam().error));
}

INSTANTIATE_TEST_SUITE_P(Limits, ImportUpdatesLimit,
                         testing::Values(LimitCase{0, "Limit must be at least 1."},
                                         LimitCase{-1, "Limit must be at least 1."},
                                         LimitCase{1001, "Exceeded limit maximum (1001 > 1000)."},
                                         LimitCase{2147483647,
                                                   "Exceeded limit maximum (2147483647 > 1000)."}));

TEST(ImportUpdates, TheLimitIsCheckedEvenForAMigrationWithoutImports) {
    const Response response = api().post(import_updates, request(7, "", 0));

    EXPECT_TRUE(is_error(response, 400, "Limit must be at least 1."));
}

TEST(ImportUpdates, ALimitOfAThousandIsAccepted) {
    const Response response = api().post(import_updates, request(1, "", 1000));

    EXPECT_EQ(response.status, 200);
}

class ImportUpdatesBadBodies : public testing::TestWithParam<BadBody> {};

// guardrail's decoder, in the order of GetImportUpdatesRequest's properties (circe 0.14.9 texts,
// /tmp/research: Decoder.scala decodeInt/decodeLong/decodeString, Error.scala DecodingFailure).
TEST_P(ImportUpdatesBadBodies, AreRejected) {
    const Response response = api().send("POST", import_updates, GetParam().body, {json_type});

    EXPECT_TRUE(is_rejection(response, 400, GetParam().text));
}

INSTANTIATE_TEST_SUITE_P(
    Bodies, ImportUpdatesBadBodies,
    testing::Values(
        BadBody{"Empty", "", "Request entity expected but not supplied"},
        BadBody{"Truncated", R"({"migration_id":1,"after_update_id":"")",
                malformed("exhausted input")},
        BadBody{"Array", "[]",
                malformed("DecodingFailure at .migration_id: Missing required field")},
        BadBody{"NotJson", "migration_id=1",
                malformed("expected json value got 'migrat...' (line 1, column 1)")},
        BadBody{"NoMigrationId", R"({"after_update_id":"","limit":10})",
                malformed("DecodingFailure at .migration_id: Missing required field")},
        BadBody{"NoAfterUpdateId", R"({"migration_id":1,"limit":10})",
                malformed("DecodingFailure at .after_update_id: Missing required field")},
        BadBody{"NoLimit", R"({"migration_id":1,"after_update_id":""})",
                malformed("DecodingFailure at .limit: Missing required field")},
        BadBody{"NullAfterUpdateId", R"({"migration_id":1,"after_update_id":null,"limit":10})",
                malformed("DecodingFailure at .after_update_id: Got value 'null' with wrong type, "
                          "expecting string")},
        BadBody{"NumericAfterUpdateId", R"({"migration_id":1,"after_update_id":5,"limit":10})",
                malformed("DecodingFailure at .after_update_id: Got value '5' with wrong type, "
                          "expecting string")},
        BadBody{"LimitFraction", R"({"migration_id":1,"after_update_id":"","limit":2.5})",
                malformed("DecodingFailure at .limit: Int")},
        BadBody{"LimitBeyondInt32", R"({"migration_id":1,"after_update_id":"","limit":2147483648})",
                malformed("DecodingFailure at .limit: Int")},
        BadBody{"LimitNotANumber", R"({"migration_id":1,"after_update_id":"","limit":"ten"})",
                malformed("DecodingFailure at .limit: Int")},
        BadBody{"MigrationIdBeyondInt64",
                R"({"migration_id":9223372036854775808,"after_update_id":"","limit":10})",
                malformed("DecodingFailure at .migration_id: Long")}),
    [](const testing::TestParamInfo<BadBody>& info) { return info.param.name; });

// circe's Decoder[Int] and Decoder[Long] read a whole number written as a JSON string or with a
// fraction or an exponent (Decoder.scala decodeInt: JString -> JsonNumber.fromString).
TEST(ImportUpdatesNumberForms, AreReadAsCirceReadsThem) {
    const Response plain =
        api().post(import_updates, {{"migration_id", 1}, {"after_update_id", ""}, {"limit", 10}});
    ASSERT_EQ(plain.status, 200) << plain.body;
    for (const char* body : {R"({"migration_id":"1","after_update_id":"","limit":"10"})",
                             R"({"migration_id":1.0,"after_update_id":"","limit":1e1})",
                             R"({"migration_id":"1.00","after_update_id":"","limit":"0.1e2"})"}) {
        const Response r = api().send("POST", import_updates, body, {json_type});
        EXPECT_EQ(r.status, 200) << body << ": " << r.body;
        EXPECT_EQ(r.body, plain.body) << body;
    }
}

}  // namespace
}  // namespace cantonlite::areas::scan::scan_import_updates_test
