// GET /v0/state/acs/snapshot-timestamp (scan.yaml getDateOfMostRecentSnapshotBefore,
// AcsSnapshotTimestampResponse; splice-behavior.md op 3 "Snapshots").
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "areas/scan/scan_test_support.hpp"

namespace cantonlite::areas::scan::scan_snapshot_timestamp_test {
namespace {

using namespace scantest;  // NOLINT: the shared test network, steps and readers

const ScanClient& api() {
    static const ScanClient client(holdings_seed());
    return client;
}

// ---- GET /v0/state/acs/snapshot-timestamp ----------------------------------------------------

struct TimestampCase {
    std::string before;
    int migration = 0;
    std::string record_time;
};

class SnapshotTimestamp : public testing::TestWithParam<TimestampCase> {};

TEST_P(SnapshotTimestamp, IsTheLatestSnapshotAtOrBefore) {
    const TimestampCase& c = GetParam();

    const Response response =
        api().get(scan + "/v0/state/acs/snapshot-timestamp?before=" + c.before +
                  "&migration_id=" + std::to_string(c.migration));

    EXPECT_EQ(response.status, 200);
    EXPECT_EQ(response.content_type, "application/json");
    EXPECT_EQ(body_of(response), (json{{"record_time", c.record_time}}));
}

INSTANTIATE_TEST_SUITE_P(Cases, SnapshotTimestamp,
                         testing::Values(TimestampCase{first_snapshot, 0, first_snapshot},
                                         TimestampCase{"2025-01-02T12:00:00Z", 0, first_snapshot},
                                         TimestampCase{second_snapshot, 0, second_snapshot},
                                         TimestampCase{"2031-01-01T00:00:00Z", 0, second_snapshot},
                                         TimestampCase{"2031-01-01T00:00:00Z", 1,
                                                       migrated_snapshot}));

class SnapshotTimestampNone : public testing::TestWithParam<TimestampCase> {};

// record_time here is the 404 text's time: Java OffsetDateTime.toString of `before`.
TEST_P(SnapshotTimestampNone, IsNotFound) {
    const TimestampCase& c = GetParam();

    const Response response =
        api().get(scan + "/v0/state/acs/snapshot-timestamp?before=" + c.before +
                  "&migration_id=" + std::to_string(c.migration));

    EXPECT_TRUE(is_error(response, 404, "No snapshots found before " + c.record_time));
}

INSTANTIATE_TEST_SUITE_P(
    Cases, SnapshotTimestampNone,
    testing::Values(TimestampCase{"2025-01-01T23:59:59Z", 0, "2025-01-01T23:59:59Z"},
                    TimestampCase{"2025-01-01T00:00:00Z", 0, "2025-01-01T00:00Z"},
                    TimestampCase{"2025-01-03T12:00:00Z", 1, "2025-01-03T12:00Z"},
                    TimestampCase{"2031-01-01T00:00:00Z", 2, "2031-01-01T00:00Z"}));

struct MissingCase {
    std::string query;
    std::string parameter;  // the first missing one, in the yaml's order
};

class SnapshotTimestampMissingParameter : public testing::TestWithParam<MissingCase> {};

// Pekko's MissingQueryParamRejection, by RejectionHandler.default: 404 in plain text. An empty
// number is Pekko's NoContentException, missing too (ParameterDirectives handleParamResult).
TEST_P(SnapshotTimestampMissingParameter, IsNotFound) {
    const Response response =
        api().get(scan + "/v0/state/acs/snapshot-timestamp" + GetParam().query);

    EXPECT_TRUE(
        is_rejection(response, 404,
                     "Request is missing required query parameter '" + GetParam().parameter + "'"));
}

INSTANTIATE_TEST_SUITE_P(
    Queries, SnapshotTimestampMissingParameter,
    testing::Values(MissingCase{"", "before"}, MissingCase{"?migration_id=0", "before"},
                    MissingCase{"?before=2025-01-02T00:00:00Z", "migration_id"},
                    MissingCase{"?before=2025-01-02T00:00:00Z&migration_id=", "migration_id"}));

struct MalformedCase {
    std::string query;
    std::string text;
};

class SnapshotTimestampMalformedParameter : public testing::TestWithParam<MalformedCase> {};

// Pekko's MalformedQueryParamRejection: 400 plain text. `before` is a string parameter that
// guardrail decodes with circe (an empty path, then the Instant parser's message); migration_id
// is Pekko's own 64-bit integer unmarshaller.
TEST_P(SnapshotTimestampMalformedParameter, IsRejected) {
    const Response response =
        api().get(scan + "/v0/state/acs/snapshot-timestamp" + GetParam().query);

    EXPECT_TRUE(is_rejection(response, 400, GetParam().text)) << GetParam().query;
}

const std::string before_malformed = "The query parameter 'before' was malformed:\n";
const std::string migration_malformed = "The query parameter 'migration_id' was malformed:\n";

INSTANTIATE_TEST_SUITE_P(
    Queries, SnapshotTimestampMalformedParameter,
    testing::Values(
        MalformedCase{"?before=yesterday&migration_id=0",
                      before_malformed +
                          "DecodingFailure at : Text 'yesterday' could not be parsed at index 0"},
        MalformedCase{"?before=2025-01-02T00:00:00Z&migration_id=zero",
                      migration_malformed + "'zero' is not a valid 64-bit signed integer value"},
        MalformedCase{"?before=2025-01-02&migration_id=0",
                      before_malformed +
                          "DecodingFailure at : Text '2025-01-02' could not be parsed at index 10"},
        // An unencoded '+' is a space in a query (Pekko's UriParser).
        MalformedCase{"?before=2025-01-02T00:00:00+01:00&migration_id=0",
                      before_malformed + "DecodingFailure at : Text '2025-01-02T00:00:00 01:00' "
                                         "could not be parsed at index 19"},
        MalformedCase{"?before=2025-01-02T00:00:00Z&migration_id=1.5",
                      migration_malformed + "'1.5' is not a valid 64-bit signed integer value"}));

TEST(SnapshotTimestampTransport, IgnoresABearerToken) {
    const Response response = api().get(
        scan + "/v0/state/acs/snapshot-timestamp?before=" + second_snapshot + "&migration_id=0",
        {{"Authorization", "Bearer not.a.jwt"}});

    EXPECT_EQ(response.status, 200);
    EXPECT_EQ(body_of(response), (json{{"record_time", second_snapshot}}));
}

}  // namespace
}  // namespace cantonlite::areas::scan::scan_snapshot_timestamp_test
