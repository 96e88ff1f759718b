// Validation of holdings-state requests, v0 and v1 alike (splice-behavior.md op 3 "Validation
// order", §0.4, §0.5; scan.yaml HoldingsStateRequest).
#include <string>
#include <tuple>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "areas/scan/scan_test_support.hpp"

namespace cantonlite::areas::scan::scan_holdings_validation_test {
namespace {

using namespace scantest;  // NOLINT: the shared test network, steps and readers

const std::string v0_state = "/api/scan/v0/holdings/state";
const std::string v1_state = "/api/scan/v1/holdings/state";

const ScanClient& api() {
    static const ScanClient client(holdings_seed());
    return client;
}

// ---- validation (both versions) ---------------------------------------------------------------

class HoldingsStateErrors : public testing::TestWithParam<std::string> {};

TEST_P(HoldingsStateErrors, PageSizeZeroIsRejected) {
    const Response response =
        api().post(GetParam(), holdings_request(0, first_snapshot, {alice}, 0));

    EXPECT_TRUE(is_error(response, 400, "Limit must be at least 1."));
}

TEST_P(HoldingsStateErrors, NegativePageSizeIsRejected) {
    const Response response =
        api().post(GetParam(), holdings_request(0, first_snapshot, {alice}, -1));

    EXPECT_TRUE(is_error(response, 400, "Limit must be at least 1."));
}

TEST_P(HoldingsStateErrors, PageSizeAboveTheMaximumIsRejected) {
    const Response response =
        api().post(GetParam(), holdings_request(0, first_snapshot, {alice}, 1001));

    EXPECT_TRUE(is_error(response, 400, "Exceeded limit maximum (1001 > 1000)."));
}

TEST_P(HoldingsStateErrors, PageSizeAtTheMaximumIsAccepted) {
    const Response response =
        api().post(GetParam(), holdings_request(0, first_snapshot, {alice}, 1000));

    EXPECT_EQ(response.status, 200) << response.body;
}

TEST_P(HoldingsStateErrors, EmptyOwnerPartyIdsAreRejected) {
    const Response response =
        api().post(GetParam(), holdings_request(0, first_snapshot, json::array(), 10));

    EXPECT_TRUE(is_error(response, 400,
                         "Expected 'ownerPartyIds' to contain at least one item, but contained "
                         "none."));
}

TEST_P(HoldingsStateErrors, AnInvalidPartyIdIsRejected) {
    const Response response =
        api().post(GetParam(), holdings_request(0, first_snapshot, {alice, "foo"}, 10));

    EXPECT_TRUE(is_error(response, 400, "Invalid unique identifier `foo` with missing namespace."));
}

TEST_P(HoldingsStateErrors, APartyIdWithoutIdentifierIsRejected) {
    const Response response =
        api().post(GetParam(), holdings_request(0, first_snapshot, {"::abc"}, 10));

    EXPECT_TRUE(
        is_error(response, 400, "Invalid unique identifier `::abc` with empty identifier."));
}

TEST_P(HoldingsStateErrors, AnEmptyPartyIdIsRejected) {
    const Response response = api().post(GetParam(), holdings_request(0, first_snapshot, {""}, 10));

    EXPECT_TRUE(is_error(response, 400, "Empty string is not a valid unique identifier."));
}

TEST_P(HoldingsStateErrors, ExactTimeWithoutSnapshotIsNotFound) {
    const Response response =
        api().post(GetParam(), holdings_request(0, "2024-12-31T00:00:00Z", {alice}, 10));

    EXPECT_TRUE(is_error(response, 404,
                         "Failed to find ACS snapshot for migration id 0 at 2024-12-31T00:00:00Z"));
}

TEST_P(HoldingsStateErrors, AtOrBeforeWithoutSnapshotIsNotFound) {
    const json request = with(holdings_request(0, "2024-12-31T00:00:00Z", {alice}, 10),
                              "record_time_match", "at_or_before");

    const Response response = api().post(GetParam(), request);

    EXPECT_TRUE(is_error(response, 404, "No snapshots found before 2024-12-31T00:00Z"));
}

// Exact: page size, then owners, then party ids, then the snapshot, then `after`.
TEST_P(HoldingsStateErrors, ExactChecksThePageSizeBeforeTheSnapshot) {
    const Response response =
        api().post(GetParam(), holdings_request(0, "2024-12-31T00:00:00Z", json::array(), 0));

    EXPECT_TRUE(is_error(response, 400, "Limit must be at least 1."));
}

TEST_P(HoldingsStateErrors, ExactChecksTheOwnersBeforeTheSnapshot) {
    const Response response =
        api().post(GetParam(), holdings_request(0, "2024-12-31T00:00:00Z", json::array(), 10));

    EXPECT_TRUE(is_error(response, 400,
                         "Expected 'ownerPartyIds' to contain at least one item, but contained "
                         "none."));
}

TEST_P(HoldingsStateErrors, ExactChecksThePartyIdsBeforeTheSnapshot) {
    const Response response =
        api().post(GetParam(), holdings_request(0, "2024-12-31T00:00:00Z", {"foo"}, 10));

    EXPECT_TRUE(is_error(response, 400, "Invalid unique identifier `foo` with missing namespace."));
}

TEST_P(HoldingsStateErrors, ExactLooksTheSnapshotUpBeforeTheAfterToken) {
    const json request =
        with(holdings_request(0, "2024-12-31T00:00:00Z", {alice}, 10), "after", 1'000'000);

    const Response response = api().post(GetParam(), request);

    EXPECT_EQ(response.status, 404) << response.body;
}

TEST_P(HoldingsStateErrors, AtOrBeforeLooksTheSnapshotUpFirst) {
    const json request = with(holdings_request(0, "2024-12-31T00:00:00Z", json::array(), 0),
                              "record_time_match", "at_or_before");

    const Response response = api().post(GetParam(), request);

    EXPECT_TRUE(is_error(response, 404, "No snapshots found before 2024-12-31T00:00Z"));
}

INSTANTIATE_TEST_SUITE_P(Versions, HoldingsStateErrors, testing::Values(v0_state, v1_state),
                         [](const testing::TestParamInfo<std::string>& info) {
                             return info.param == v0_state ? "V0" : "V1";
                         });

class HoldingsStateBadBodies : public testing::TestWithParam<std::tuple<std::string, BadBody>> {};

// guardrail's decoder, in the order of HoldingsStateRequest's properties: Pekko's plain-text
// rejection around jawn's or circe's message.
TEST_P(HoldingsStateBadBodies, AreRejected) {
    const auto& [path, bad] = GetParam();

    const Response response = api().send("POST", path, bad.body, {json_type});

    EXPECT_TRUE(is_rejection(response, 400, bad.text));
}

const std::string good_fields = R"("migration_id":0,"record_time":"2025-01-02T00:00:00Z")";
const std::string good_owners = R"("owner_party_ids":["alice::1220a1"])";

INSTANTIATE_TEST_SUITE_P(
    Bodies, HoldingsStateBadBodies,
    testing::Combine(
        testing::Values(v0_state, v1_state),
        testing::Values(
            BadBody{"Empty", "", "Request entity expected but not supplied"},
            BadBody{"Truncated", "{", malformed("exhausted input")},
            BadBody{"Array", "[]",
                    malformed("DecodingFailure at .migration_id: Missing required field")},
            BadBody{"NotJson", "migration_id=0",
                    malformed("expected json value got 'migrat...' (line 1, column 1)")},
            BadBody{"NoMigrationId",
                    R"({"record_time":"2025-01-02T00:00:00Z","page_size":10,)" + good_owners + "}",
                    malformed("DecodingFailure at .migration_id: Missing required field")},
            BadBody{"NoRecordTime", R"({"migration_id":0,"page_size":10,)" + good_owners + "}",
                    malformed("DecodingFailure at .record_time: Missing required field")},
            BadBody{"NoPageSize", "{" + good_fields + "," + good_owners + "}",
                    malformed("DecodingFailure at .page_size: Missing required field")},
            BadBody{"NoOwners", "{" + good_fields + R"(,"page_size":10})",
                    malformed("DecodingFailure at .owner_party_ids: Missing required field")},
            BadBody{"PageSizeFraction",
                    "{" + good_fields + R"(,"page_size":2.5,)" + good_owners + "}",
                    malformed("DecodingFailure at .page_size: Int")},
            BadBody{"OwnersAsString",
                    "{" + good_fields + R"(,"page_size":10,"owner_party_ids":"alice::1220a1"})",
                    malformed("DecodingFailure at .owner_party_ids: Got value '\"alice::1220a1\"' "
                              "with wrong type, expecting array")},
            BadBody{"OwnerAsNumber",
                    "{" + good_fields + R"(,"page_size":10,"owner_party_ids":["alice::1220a1",5]})",
                    malformed("DecodingFailure at .owner_party_ids[1]: Got value '5' with wrong "
                              "type, expecting string")},
            BadBody{"RecordTimeNotATime",
                    R"({"migration_id":0,"record_time":"yesterday","page_size":10,)" + good_owners +
                        "}",
                    malformed("DecodingFailure at .record_time: Text 'yesterday' could not be "
                              "parsed at index 0")},
            BadBody{"UnknownRecordTimeMatch",
                    "{" + good_fields + R"(,"record_time_match":"latest","page_size":10,)" +
                        good_owners + "}",
                    malformed("DecodingFailure at .record_time_match: latest not a member of "
                              "RecordTimeMatch")},
            BadBody{"AfterNotANumber",
                    "{" + good_fields + R"(,"after":"five","page_size":10,)" + good_owners + "}",
                    malformed("DecodingFailure at .after: Long")})),
    [](const testing::TestParamInfo<std::tuple<std::string, BadBody>>& info) {
        return (std::get<0>(info.param) == v0_state ? "V0" : "V1") + std::get<1>(info.param).name;
    });

}  // namespace
}  // namespace cantonlite::areas::scan::scan_holdings_validation_test
