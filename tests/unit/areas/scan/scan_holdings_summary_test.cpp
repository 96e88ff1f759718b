// Scan holdings summaries: POST /v0/holdings/summary and POST /v1/holdings/summary
// (splice-behavior.md op 6 "Scan side", op 3; scan.yaml HoldingsSummaryRequest(V1),
// HoldingsSummaryResponse(V1), HoldingsSummary(V1)).
#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "areas/scan/scan_test_support.hpp"
#include "cantonlite/model/decimal.hpp"

namespace cantonlite::areas::scan::scan_holdings_summary_test {
namespace {

using namespace scantest;  // NOLINT: the shared test network, steps and readers
using model::Decimal;

const std::string v0_summary = "/api/scan/v0/holdings/summary";
const std::string v1_summary = "/api/scan/v1/holdings/summary";
const std::string v0_state = "/api/scan/v0/holdings/state";

const ScanClient& api() {
    static const ScanClient client(holdings_seed());
    return client;
}

// 1000 amulets of 1 for alice, one of 2 for bob, then a snapshot.
json thousand_seed() {
    json steps = json::array();
    for (int i = 0; i < 1000; ++i) {
        steps.push_back({{"step", "mint"}, {"owner", "alice"}, {"amount", "1"}});
    }
    steps.push_back({{"step", "mint"}, {"owner", "bob"}, {"amount", "2"}});
    steps.push_back(snapshot_at(first_snapshot));
    return seed_with(steps);
}

const ScanClient& thousand_api() {
    static const ScanClient client(thousand_seed());
    return client;
}

json summary(const std::string& party, const std::string& unlocked, const std::string& locked,
             const std::string& total) {
    return {{"party_id", party},
            {"total_unlocked_coin", unlocked},
            {"total_locked_coin", locked},
            {"total_coin_holdings", total}};
}

Decimal decimal(const json& text) {
    const auto d = Decimal::parse(text.get<std::string>());
    if (!d) throw std::runtime_error("not a decimal: " + text.dump());
    return *d;
}

// ---- v1 ---------------------------------------------------------------------------------------

TEST(HoldingsSummaryV1, SumsInitialAmountsPerOwnerWithTenDecimals) {
    const Response response =
        api().post(v1_summary, summary_request(0, first_snapshot, {alice, bob}));

    ASSERT_EQ(response.status, 200) << response.body;
    EXPECT_EQ(response.content_type, "application/json");
    const json body = body_of(response);
    EXPECT_EQ(body.at("record_time"), first_snapshot);
    EXPECT_EQ(body.at("migration_id"), 0);
    EXPECT_EQ(sorted_summaries(body),
              (json{summary(alice, "70.0000000000", "30.0000000000", "100.0000000000"),
                    summary(bob, "50.0000000000", "0.0000000000", "50.0000000000")}));
    EXPECT_EQ(body.size(), 3U);
}

TEST(HoldingsSummaryV1, OmitsPartiesWithoutHoldings) {
    const Response response =
        api().post(v1_summary, summary_request(0, first_snapshot, {carol, provider, dso, alice}));

    EXPECT_EQ(sorted_summaries(body_of(response)),
              json::array({summary(alice, "70.0000000000", "30.0000000000", "100.0000000000")}));
}

TEST(HoldingsSummaryV1, IsEmptyWhenNoOwnerHasHoldings) {
    const Response response =
        api().post(v1_summary, summary_request(0, first_snapshot, {carol, provider}));

    ASSERT_EQ(response.status, 200) << response.body;
    EXPECT_EQ(
        body_of(response),
        (json{{"record_time", first_snapshot}, {"migration_id", 0}, {"summaries", json::array()}}));
}

TEST(HoldingsSummaryV1, ListsAPartyNamedTwiceOnce) {
    const Response response =
        api().post(v1_summary, summary_request(0, first_snapshot, {bob, bob}));

    EXPECT_EQ(body_of(response).at("summaries"),
              json::array({summary(bob, "50.0000000000", "0.0000000000", "50.0000000000")}));
}

TEST(HoldingsSummaryV1, AtOrBeforeAnswersWithTheSnapshotsRecordTime) {
    const json request = with(summary_request(0, "2025-01-02T23:00:00Z", {alice, bob}),
                              "record_time_match", "at_or_before");

    const Response response = api().post(v1_summary, request);

    ASSERT_EQ(response.status, 200) << response.body;
    EXPECT_EQ(body_of(response),
              body_of(api().post(v1_summary, summary_request(0, first_snapshot, {alice, bob}))));
}

TEST(HoldingsSummaryV1, SumsTheSnapshotOfTheRequestedMigration) {
    const Response response =
        api().post(v1_summary, summary_request(1, migrated_snapshot, {alice, bob}));

    const json body = body_of(response);
    EXPECT_EQ(body.at("migration_id"), 1);
    EXPECT_EQ(body.at("record_time"), migrated_snapshot);
    EXPECT_EQ(sorted_summaries(body),
              (json{summary(alice, "75.0000000000", "30.0000000000", "105.0000000000"),
                    summary(bob, "50.0000000000", "0.0000000000", "50.0000000000")}));
}

TEST(HoldingsSummaryV1, IgnoresABearerTokenAndAContentType) {
    const json request = summary_request(0, first_snapshot, {alice});

    const Response response =
        api().post(v1_summary, request,
                   {{"Authorization", "Bearer not.a.jwt"}, {"Content-Type", "application/json"}});

    EXPECT_EQ(response.status, 200);
    EXPECT_EQ(body_of(response), body_of(api().post(v1_summary, request)));
}

// What a client computes from every page of holdings state: initial amounts per owner.
json aggregate_of_pages(const json& owners, const std::string& record_time) {
    std::map<std::string, std::pair<Decimal, Decimal>> totals;  // owner -> (unlocked, locked)
    json request = holdings_request(0, record_time, owners, 1);
    for (int page = 0; page < 100; ++page) {
        const json body = body_of(api().post(v0_state, request));
        for (const json& e : body.at("created_events")) {
            const json& args = e.at("create_arguments");
            const bool locked = e.at("template_id").get<std::string>().ends_with(":LockedAmulet");
            const json& amulet = locked ? args.at("amulet") : args;
            auto& [unlocked_sum, locked_sum] = totals[amulet.at("owner").get<std::string>()];
            const Decimal amount = decimal(amulet.at("amount").at("initialAmount"));
            (locked ? locked_sum : unlocked_sum) = (locked ? locked_sum : unlocked_sum) + amount;
        }
        if (body.at("next_page_token").is_null()) break;
        request["after"] = body.at("next_page_token");
    }
    json out = json::array();
    for (const auto& [party, sums] : totals) {
        out.push_back(summary(party, sums.first.to_scaled_string(), sums.second.to_scaled_string(),
                              (sums.first + sums.second).to_scaled_string()));
    }
    return out;
}

class HoldingsSummaryOfPages : public testing::TestWithParam<std::tuple<json, std::string>> {};

TEST_P(HoldingsSummaryOfPages, EqualsTheAggregateOfTheHoldingsStatePages) {
    const auto& [owners, record_time] = GetParam();

    const Response response = api().post(v1_summary, summary_request(0, record_time, owners));

    ASSERT_EQ(response.status, 200) << response.body;
    EXPECT_EQ(sorted_summaries(body_of(response)), aggregate_of_pages(owners, record_time));
}

INSTANTIATE_TEST_SUITE_P(Owners, HoldingsSummaryOfPages,
                         testing::Combine(testing::Values(json::array({alice}), json::array({bob}),
                                                          json{alice, bob}, json{alice, provider},
                                                          json::array({dso}),
                                                          json{carol, bob, alice}),
                                          testing::Values(first_snapshot, second_snapshot)));

// ---- v0 ---------------------------------------------------------------------------------------

// scan.yaml HoldingsSummaryResponse: the v1 totals plus computed_as_of_round and the holding-fee
// fields, whose values the reference does not give; only the yaml's relations are checked.
TEST(HoldingsSummaryV0, HasTheV1TotalsAndTheHoldingFeeFields) {
    const json request = summary_request(0, first_snapshot, {alice, bob});

    const Response response = api().post(v0_summary, request);

    ASSERT_EQ(response.status, 200) << response.body;
    EXPECT_EQ(response.content_type, "application/json");
    const json body = body_of(response);
    EXPECT_EQ(body.at("record_time"), first_snapshot);
    EXPECT_EQ(body.at("migration_id"), 0);
    EXPECT_TRUE(body.at("computed_as_of_round").is_number_integer());
    const json v1 = sorted_summaries(body_of(api().post(v1_summary, request)));
    const json v0 = sorted_summaries(body);
    ASSERT_EQ(v0.size(), v1.size());
    for (std::size_t i = 0; i < v0.size(); ++i) {
        for (const auto& [key, value] : v1[i].items()) EXPECT_EQ(v0[i].at(key), value) << key;
        const Decimal fee_unlocked = decimal(v0[i].at("accumulated_holding_fees_unlocked"));
        const Decimal fee_locked = decimal(v0[i].at("accumulated_holding_fees_locked"));
        EXPECT_EQ(decimal(v0[i].at("accumulated_holding_fees_total")), fee_unlocked + fee_locked);
        EXPECT_EQ(decimal(v0[i].at("total_available_coin")),
                  decimal(v0[i].at("total_unlocked_coin")) - fee_unlocked);
        EXPECT_EQ(v0[i].size(), 8U);
    }
}

TEST(HoldingsSummaryV0, AtOrBeforeAnswersWithTheSnapshotsRecordTime) {
    const json request = with(summary_request(0, "2025-01-02T23:00:00Z", {alice}),
                              "record_time_match", "at_or_before");

    const Response response = api().post(v0_summary, request);

    ASSERT_EQ(response.status, 200) << response.body;
    EXPECT_EQ(body_of(response).at("record_time"), first_snapshot);
}

// ---- errors (both versions) -------------------------------------------------------------------

class HoldingsSummaryVersions : public testing::TestWithParam<std::string> {};

TEST_P(HoldingsSummaryVersions, EmptyOwnerPartyIdsAreRejected) {
    const Response response =
        api().post(GetParam(), summary_request(0, first_snapshot, json::array()));

    EXPECT_TRUE(is_error(response, 400,
                         "Expected 'partyIds' to contain at least one item, but contained none."));
}

TEST_P(HoldingsSummaryVersions, ExactTimeWithoutSnapshotIsNotFound) {
    const Response response =
        api().post(GetParam(), summary_request(0, "2025-01-02T12:00:00Z", {alice}));

    EXPECT_TRUE(is_error(response, 404,
                         "Failed to find ACS snapshot for migration id 0 at 2025-01-02T12:00:00Z"));
}

TEST_P(HoldingsSummaryVersions, AtOrBeforeWithoutSnapshotIsNotFound) {
    const json request = with(summary_request(0, "2024-12-31T10:00:00Z", {alice}),
                              "record_time_match", "at_or_before");

    const Response response = api().post(GetParam(), request);

    EXPECT_TRUE(is_error(response, 404, "No snapshots found before 2024-12-31T10:00Z"));
}

TEST_P(HoldingsSummaryVersions, AnUnknownMigrationIsNotFound) {
    const Response response = api().post(GetParam(), summary_request(7, first_snapshot, {alice}));

    EXPECT_TRUE(is_error(response, 404,
                         "Failed to find ACS snapshot for migration id 7 at 2025-01-02T00:00:00Z"));
}

TEST_P(HoldingsSummaryVersions, AThousandRowsAreSummarised) {
    const Response response =
        thousand_api().post(GetParam(), summary_request(0, first_snapshot, {alice}));

    ASSERT_EQ(response.status, 200) << response.body;
    const json summaries = body_of(response).at("summaries");
    ASSERT_EQ(summaries.size(), 1U);
    EXPECT_EQ(summaries[0].at("total_unlocked_coin"), "1000.0000000000");
}

TEST_P(HoldingsSummaryVersions, MoreThanAThousandRowsAreRejected) {
    const Response response =
        thousand_api().post(GetParam(), summary_request(0, first_snapshot, {alice, bob}));

    EXPECT_TRUE(is_error(response, 400,
                         "Size of the result exceeded the limit in queryAcsSnapshot. Result size: "
                         "1001. Limit: 1000"));
}

// The limit applies to the rows found by stakeholder, before the owner filter.
TEST_P(HoldingsSummaryVersions, TheLimitCountsRowsTheOwnerFilterWouldDrop) {
    const Response response =
        thousand_api().post(GetParam(), summary_request(0, first_snapshot, {dso}));

    EXPECT_TRUE(is_error(response, 400,
                         "Size of the result exceeded the limit in queryAcsSnapshot. Result size: "
                         "1001. Limit: 1000"));
}

TEST_P(HoldingsSummaryVersions, TheLimitIgnoresRowsOfOtherParties) {
    const Response response =
        thousand_api().post(GetParam(), summary_request(0, first_snapshot, {bob}));

    ASSERT_EQ(response.status, 200) << response.body;
    const json summaries = body_of(response).at("summaries");
    ASSERT_EQ(summaries.size(), 1U);
    EXPECT_EQ(summaries[0].at("total_coin_holdings"), "2.0000000000");
}

INSTANTIATE_TEST_SUITE_P(Versions, HoldingsSummaryVersions, testing::Values(v0_summary, v1_summary),
                         [](const testing::TestParamInfo<std::string>& info) {
                             return info.param == v0_summary ? "V0" : "V1";
                         });

class HoldingsSummaryBadBodies : public testing::TestWithParam<std::tuple<std::string, BadBody>> {};

// guardrail's decoder, in the order of HoldingsSummaryRequest's properties.
TEST_P(HoldingsSummaryBadBodies, AreRejected) {
    const auto& [path, bad] = GetParam();

    const Response response = api().send("POST", path, bad.body, {json_type});

    EXPECT_TRUE(is_rejection(response, 400, bad.text));
}

INSTANTIATE_TEST_SUITE_P(
    Bodies, HoldingsSummaryBadBodies,
    testing::Combine(
        testing::Values(v0_summary, v1_summary),
        testing::Values(
            BadBody{"Empty", "", "Request entity expected but not supplied"},
            BadBody{"Truncated", R"({"migration_id":0,)", malformed("exhausted input")},
            BadBody{"NoOwners", R"({"migration_id":0,"record_time":"2025-01-02T00:00:00Z"})",
                    malformed("DecodingFailure at .owner_party_ids: Missing required field")},
            BadBody{"NoRecordTime", R"({"migration_id":0,"owner_party_ids":["alice::1220a1"]})",
                    malformed("DecodingFailure at .record_time: Missing required field")},
            BadBody{"NoMigrationId",
                    R"({"record_time":"2025-01-02T00:00:00Z","owner_party_ids":["alice::1220a1"]})",
                    malformed("DecodingFailure at .migration_id: Missing required field")},
            BadBody{"OwnersAsString",
                    R"({"migration_id":0,"record_time":"2025-01-02T00:00:00Z",)"
                    R"("owner_party_ids":"alice::1220a1"})",
                    malformed("DecodingFailure at .owner_party_ids: Got value '\"alice::1220a1\"' "
                              "with wrong type, expecting array")},
            BadBody{"MigrationIdNotANumber",
                    R"({"migration_id":"zero","record_time":"2025-01-02T00:00:00Z",)"
                    R"("owner_party_ids":["alice::1220a1"]})",
                    malformed("DecodingFailure at .migration_id: Long")},
            BadBody{"RecordTimeNotATime",
                    R"({"migration_id":0,"record_time":"2025-01-02",)"
                    R"("owner_party_ids":["alice::1220a1"]})",
                    malformed("DecodingFailure at .record_time: Text '2025-01-02' could not be "
                              "parsed at index 10")},
            BadBody{"UnknownRecordTimeMatch",
                    R"({"migration_id":0,"record_time":"2025-01-02T00:00:00Z",)"
                    R"("record_time_match":"nearest","owner_party_ids":["alice::1220a1"]})",
                    malformed("DecodingFailure at .record_time_match: nearest not a member of "
                              "RecordTimeMatch")})),
    [](const testing::TestParamInfo<std::tuple<std::string, BadBody>>& info) {
        return (std::get<0>(info.param) == v0_summary ? "V0" : "V1") + std::get<1>(info.param).name;
    });

}  // namespace
}  // namespace cantonlite::areas::scan::scan_holdings_summary_test
