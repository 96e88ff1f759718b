// Scan holdings state (op 3: POST /v0/holdings/state, POST /v1/holdings/state): what a page holds,
// which snapshot answers, paging (splice-behavior.md op 3; scan.yaml HoldingsStateRequest,
// AcsResponse, AcsResponseV1). Validation: scan_holdings_validation_test.cpp.
#include <algorithm>
#include <string>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "areas/scan/scan_test_support.hpp"

namespace cantonlite::areas::scan::scan_holdings_test {
namespace {

using namespace scantest;  // NOLINT: the shared test network, steps and readers

const std::string v0_state = "/api/scan/v0/holdings/state";
const std::string v1_state = "/api/scan/v1/holdings/state";

// The holdings network (scan_test_support.hpp): offsets 2 (bob's coin), 4 (alice's lock and
// change), 5 (alice's second coin).
const ScanClient& api() {
    static const ScanClient client(holdings_seed());
    return client;
}

const store::LedgerStore& ledger() {
    return api().store();
}

model::ContractPtr bob_coin() {
    return only_created_by(ledger(), 2, "Amulet");
}
model::ContractPtr alice_locked() {
    return only_created_by(ledger(), 4, "LockedAmulet");
}
model::ContractPtr alice_change() {
    return only_created_by(ledger(), 4, "Amulet");
}
model::ContractPtr alice_coin_2() {
    return only_created_by(ledger(), 5, "Amulet");
}

// Contracts ordered as Scan numbers snapshot rows: by (created_at, contract_id).
std::vector<model::ContractPtr> in_creation_order(std::vector<model::ContractPtr> contracts) {
    std::sort(contracts.begin(), contracts.end(), [](const auto& a, const auto& b) {
        return std::tie(a->created_at, a->contract_id) < std::tie(b->created_at, b->contract_id);
    });
    return contracts;
}

json holding_events(const std::vector<model::ContractPtr>& contracts) {
    json events = json::array();
    for (const model::ContractPtr& c : contracts) events.push_back(holding_event(ledger(), *c));
    return events;
}

std::vector<std::string> contract_ids(const json& events) {
    std::vector<std::string> ids;
    for (const json& e : events) ids.push_back(e.at("contract_id").get<std::string>());
    return ids;
}

std::vector<std::string> ids_of(const std::vector<model::ContractPtr>& contracts) {
    std::vector<std::string> ids;
    for (const model::ContractPtr& c : contracts) ids.push_back(c->contract_id.str());
    return ids;
}

// The row id of `cid` in the snapshot of migration 0 at `time`.
std::int64_t row_id_of(const std::string& time, const std::string& cid) {
    const splice::HoldingsSnapshotPtr snap = holdings_of(ledger(), 0, time);
    for (std::size_t i = 0; i < snap->size(); ++i) {
        if (snap->row(i).contract->contract_id == cid) return snap->row_id(i);
    }
    throw std::runtime_error("no row for " + cid);
}

// The event of `cid` in a holdings-state answer (null when there is none).
json event_of(const Response& response, const std::string& cid) {
    const json body = body_of(response);
    for (const json& e : body.at("created_events")) {
        if (e.at("contract_id") == cid) return e;
    }
    return nullptr;
}

// ---- what a page holds ----------------------------------------------------------------------

TEST(HoldingsState, ReturnsTheOwnersHoldingsInCreationOrder) {
    const Response response =
        api().post(v0_state, holdings_request(0, first_snapshot, {alice}, 10));

    EXPECT_EQ(response.status, 200);
    EXPECT_EQ(response.content_type, "application/json");
    EXPECT_EQ(body_of(response),
              (json{{"record_time", first_snapshot},
                    {"migration_id", 0},
                    {"created_events",
                     holding_events(in_creation_order({alice_locked(), alice_change()}))},
                    {"next_page_token", nullptr}}));
}

TEST(HoldingsState, ListsCreationsOfEarlierTimesFirst) {
    const Response response =
        api().post(v0_state, holdings_request(0, second_snapshot, {alice, bob}, 10));

    const json events = body_of(response).at("created_events");
    ASSERT_EQ(events.size(), 4U);
    EXPECT_EQ(events[0].at("contract_id"), bob_coin()->contract_id);
    EXPECT_EQ(events[3].at("contract_id"), alice_coin_2()->contract_id);
}

TEST(HoldingsState, WritesAmuletArgumentsAsCodegenCompactJsonWithTenDecimals) {
    const Response response =
        api().post(v0_state, holdings_request(0, first_snapshot, {alice}, 10));

    const json amulet = event_of(response, alice_change()->contract_id.str());
    EXPECT_EQ(amulet.at("create_arguments"),
              (json{{"dso", dso},
                    {"owner", alice},
                    {"amount",
                     {{"initialAmount", "70.0000000000"},
                      {"createdAt", {{"number", "12"}}},
                      {"ratePerRound", {{"rate", "0.0000190259"}}}}}}));
}

TEST(HoldingsState, WritesLockedAmuletArgumentsAsCodegenCompactJson) {
    const Response response =
        api().post(v0_state, holdings_request(0, first_snapshot, {alice}, 10));

    const json locked = event_of(response, alice_locked()->contract_id.str());
    EXPECT_EQ(locked.at("create_arguments"),
              (json{{"amulet",
                     {{"dso", dso},
                      {"owner", alice},
                      {"amount",
                       {{"initialAmount", "30.0000000000"},
                        {"createdAt", {{"number", "12"}}},
                        {"ratePerRound", {{"rate", "0.0000190259"}}}}}}},
                    {"lock",
                     {{"holders", json::array({provider})},
                      {"expiresAt", "2030-03-31T00:00:00Z"},
                      {"optContext", "order 17"}}}}));
}

TEST(HoldingsState, WritesPackageIdTemplateAndSortedParties) {
    const Response response =
        api().post(v0_state, holdings_request(0, first_snapshot, {alice}, 10));

    const json locked = event_of(response, alice_locked()->contract_id.str());
    EXPECT_EQ(locked.at("event_type"), "created_event");
    EXPECT_EQ(locked.at("template_id"),
              "dbeda50efee6c5e53959638ef5422116723a9a6137fcdd4d2d82544291726a88:"
              "Splice.Amulet:LockedAmulet");
    EXPECT_EQ(locked.at("package_name"), "splice-amulet");
    EXPECT_EQ(locked.at("signatories"), (json{dso, alice, provider}));
    EXPECT_EQ(locked.at("observers"), json::array());
    EXPECT_EQ(locked.at("created_at"), "2025-01-01T02:00:00Z");
}

TEST(HoldingsState, EventIdIsTheCreatingNodeOfTheParticipantsTransaction) {
    const Response response = api().post(v0_state, holdings_request(0, first_snapshot, {bob}, 10));

    const json events = body_of(response).at("created_events");
    ASSERT_EQ(events.size(), 1U);
    EXPECT_EQ(events[0].at("event_id"), "#" + transaction_at(ledger(), 2).update_id().str() + ":1");
}

struct OwnersCase {
    std::string name;
    json owners;
    std::vector<std::string> expected;  // keys of contracts(), in creation order
};

std::vector<model::ContractPtr> contracts_named(const std::vector<std::string>& names) {
    std::vector<model::ContractPtr> out;
    for (const std::string& n : names) {
        if (n == "bob-coin") out.push_back(bob_coin());
        if (n == "alice-locked") out.push_back(alice_locked());
        if (n == "alice-change") out.push_back(alice_change());
    }
    return in_creation_order(out);
}

class HoldingsStateOwners : public testing::TestWithParam<OwnersCase> {};

// Rows are found by stakeholder, then kept only when Amulet.owner / LockedAmulet.amulet.owner is
// one of owner_party_ids: a lock holder or the DSO (stakeholders, not owners) see nothing.
TEST_P(HoldingsStateOwners, SeeOnlyWhatTheyOwn) {
    const OwnersCase& c = GetParam();

    const Response response =
        api().post(v0_state, holdings_request(0, first_snapshot, c.owners, 10));

    ASSERT_EQ(response.status, 200) << response.body;
    EXPECT_EQ(body_of(response).at("created_events"), holding_events(contracts_named(c.expected)));
    EXPECT_EQ(body_of(response).at("next_page_token"), nullptr);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, HoldingsStateOwners,
    testing::Values(OwnersCase{"Bob", {bob}, {"bob-coin"}},
                    OwnersCase{"LockHolder", {provider}, {}}, OwnersCase{"Dso", {dso}, {}},
                    OwnersCase{"PartyWithoutHoldings", {carol}, {}},
                    OwnersCase{"UnknownParty", {"nobody::1220ff"}, {}},
                    OwnersCase{
                        "AliceAndLockHolder", {alice, provider}, {"alice-locked", "alice-change"}},
                    OwnersCase{"Everyone",
                               {alice, bob, carol, provider, dso},
                               {"bob-coin", "alice-locked", "alice-change"}}),
    [](const testing::TestParamInfo<OwnersCase>& info) { return info.param.name; });

// ---- which snapshot ---------------------------------------------------------------------------

struct MatchCase {
    std::string request_time;
    std::string snapshot_time;
};

class HoldingsStateAtOrBefore : public testing::TestWithParam<MatchCase> {};

// The latest snapshot at or before the time (inclusive); the answer carries the snapshot's time.
TEST_P(HoldingsStateAtOrBefore, AnswersWithTheSnapshotsRecordTime) {
    const MatchCase& c = GetParam();
    const json request =
        with(holdings_request(0, c.request_time, {alice}, 10), "record_time_match", "at_or_before");

    const Response response = api().post(v0_state, request);

    ASSERT_EQ(response.status, 200) << response.body;
    EXPECT_EQ(body_of(response).at("record_time"), c.snapshot_time);
    EXPECT_EQ(body_of(response).at("migration_id"), 0);
}

INSTANTIATE_TEST_SUITE_P(Times, HoldingsStateAtOrBefore,
                         testing::Values(MatchCase{first_snapshot, first_snapshot},
                                         MatchCase{"2025-01-02T12:00:00Z", first_snapshot},
                                         MatchCase{"2025-01-02T23:59:59.999999Z", first_snapshot},
                                         MatchCase{second_snapshot, second_snapshot},
                                         MatchCase{"2030-01-01T00:00:00Z", second_snapshot}));

TEST(HoldingsState, AtOrBeforeAnswersAsTheExactQueryOfThatSnapshot) {
    const json request = with(holdings_request(0, "2025-01-02T12:00:00Z", {alice, bob}, 10),
                              "record_time_match", "at_or_before");

    const Response response = api().post(v0_state, request);

    EXPECT_EQ(body_of(response),
              body_of(api().post(v0_state, holdings_request(0, first_snapshot, {alice, bob}, 10))));
}

TEST(HoldingsState, ExactIsTheDefaultMatch) {
    const json request =
        with(holdings_request(0, first_snapshot, {alice}, 10), "record_time_match", "exact");

    const Response response = api().post(v0_state, request);

    EXPECT_EQ(response.status, 200);
    EXPECT_EQ(body_of(response),
              body_of(api().post(v0_state, holdings_request(0, first_snapshot, {alice}, 10))));
}

TEST(HoldingsState, ExactMatchesTheSameInstantGivenWithAnOffset) {
    const Response response =
        api().post(v0_state, holdings_request(0, "2025-01-02T01:00:00+01:00", {alice}, 10));

    ASSERT_EQ(response.status, 200) << response.body;
    EXPECT_EQ(body_of(response).at("record_time"), first_snapshot);
}

TEST(HoldingsState, AnswersFromTheSnapshotOfTheRequestedMigration) {
    const json request = with(holdings_request(1, "2030-01-01T00:00:00Z", {alice, bob}, 10),
                              "record_time_match", "at_or_before");

    const Response response = api().post(v0_state, request);

    ASSERT_EQ(response.status, 200) << response.body;
    const json body = body_of(response);
    EXPECT_EQ(body.at("record_time"), migrated_snapshot);
    EXPECT_EQ(body.at("migration_id"), 1);
    EXPECT_EQ(
        contract_ids(body.at("created_events")),
        ids_of(in_creation_order({bob_coin(), alice_locked(), alice_change(), alice_coin_2()})));
}

TEST(HoldingsState, ExactTimeWithoutSnapshotIsNotFound) {
    const Response response =
        api().post(v0_state, holdings_request(0, "2025-01-02T12:00:00Z", {alice}, 10));

    EXPECT_TRUE(is_error(response, 404,
                         "Failed to find ACS snapshot for migration id 0 at 2025-01-02T12:00:00Z"));
}

TEST(HoldingsState, ExactTimeOfAnotherMigrationsSnapshotIsNotFound) {
    const Response response =
        api().post(v0_state, holdings_request(1, first_snapshot, {alice}, 10));

    EXPECT_TRUE(is_error(response, 404,
                         "Failed to find ACS snapshot for migration id 1 at 2025-01-02T00:00:00Z"));
}

struct NoSnapshotCase {
    std::string request_time;
    std::string printed;  // Java OffsetDateTime.toString: seconds dropped when zero
};

class HoldingsStateAtOrBeforeNone : public testing::TestWithParam<NoSnapshotCase> {};

TEST_P(HoldingsStateAtOrBeforeNone, IsNotFound) {
    const json request = with(holdings_request(0, GetParam().request_time, {alice}, 10),
                              "record_time_match", "at_or_before");

    const Response response = api().post(v0_state, request);

    EXPECT_TRUE(is_error(response, 404, "No snapshots found before " + GetParam().printed));
}

INSTANTIATE_TEST_SUITE_P(
    Times, HoldingsStateAtOrBeforeNone,
    testing::Values(NoSnapshotCase{"2025-01-01T00:00:00Z", "2025-01-01T00:00Z"},
                    NoSnapshotCase{"2025-01-01T10:30:15Z", "2025-01-01T10:30:15Z"},
                    NoSnapshotCase{"2025-01-01T10:30:00.5Z", "2025-01-01T10:30:00.500Z"},
                    NoSnapshotCase{"2025-01-01T23:59:59.999999Z", "2025-01-01T23:59:59.999999Z"}));

TEST(HoldingsState, AtOrBeforeInAMigrationBeforeItsFirstSnapshotIsNotFound) {
    const json request = with(holdings_request(1, "2025-01-03T12:00:00Z", {alice}, 10),
                              "record_time_match", "at_or_before");

    const Response response = api().post(v0_state, request);

    EXPECT_TRUE(is_error(response, 404, "No snapshots found before 2025-01-03T12:00Z"));
}

// ---- paging -----------------------------------------------------------------------------------

TEST(HoldingsState, AFullPageCarriesTheRowIdOfItsLastRowAsToken) {
    const Response response =
        api().post(v0_state, holdings_request(0, first_snapshot, {alice, bob}, 1));

    const json body = body_of(response);
    EXPECT_EQ(body.at("created_events"), holding_events({bob_coin()}));
    EXPECT_EQ(body.at("next_page_token"), row_id_of(first_snapshot, bob_coin()->contract_id.str()));
}

TEST(HoldingsState, TheTokenAsAfterGivesTheNextPage) {
    const json first =
        body_of(api().post(v0_state, holdings_request(0, first_snapshot, {alice, bob}, 1)));

    const Response response =
        api().post(v0_state, with(holdings_request(0, first_snapshot, {alice, bob}, 1), "after",
                                  first.at("next_page_token")));

    const model::ContractPtr second = in_creation_order({alice_locked(), alice_change()}).front();
    const json body = body_of(response);
    EXPECT_EQ(body.at("created_events"), holding_events({second}));
    EXPECT_EQ(body.at("next_page_token"), row_id_of(first_snapshot, second->contract_id.str()));
}

// Walks every page of `request` (without `after`) on `path`; returns the events of all pages.
json all_pages(const std::string& path, const json& request) {
    json events = json::array();
    json page = body_of(api().post(path, request));
    for (int count = 1;; ++count) {
        for (const json& e : page.at("created_events")) events.push_back(e);
        if (page.at("next_page_token").is_null() || count > 100) break;
        page = body_of(api().post(path, with(request, "after", page.at("next_page_token"))));
    }
    return events;
}

class HoldingsStatePageSizes : public testing::TestWithParam<int> {};

TEST_P(HoldingsStatePageSizes, WalkingAllPagesGivesTheOneBigPage) {
    const json owners = {alice, bob, provider};

    const json walked =
        all_pages(v0_state, holdings_request(0, second_snapshot, owners, GetParam()));

    const json big =
        body_of(api().post(v0_state, holdings_request(0, second_snapshot, owners, 1000)));
    EXPECT_EQ(walked, big.at("created_events"));
    EXPECT_EQ(walked.size(), 4U);
}

INSTANTIATE_TEST_SUITE_P(Sizes, HoldingsStatePageSizes, testing::Values(1, 2, 3, 4, 5));

TEST(HoldingsState, AnExactlyFullLastPageGivesATokenToAnEmptyPage) {
    const json request = holdings_request(0, first_snapshot, {alice, bob}, 3);
    const json full = body_of(api().post(v0_state, request));
    ASSERT_EQ(full.at("created_events").size(), 3U);
    ASSERT_FALSE(full.at("next_page_token").is_null());

    const Response response =
        api().post(v0_state, with(request, "after", full.at("next_page_token")));

    EXPECT_EQ(body_of(response), (json{{"record_time", first_snapshot},
                                       {"migration_id", 0},
                                       {"created_events", json::array()},
                                       {"next_page_token", nullptr}}));
}

// The page is cut from the rows the parties are stakeholders of, then filtered by owner: bob's
// coin and the locked amulet `provider` holds fill a page of 2, which keeps only bob's coin.
TEST(HoldingsState, APageShortenedByTheOwnerFilterStillCarriesAToken) {
    const Response response =
        api().post(v0_state, holdings_request(0, first_snapshot, {bob, provider}, 2));

    const json body = body_of(response);
    EXPECT_EQ(body.at("created_events"), holding_events({bob_coin()}));
    EXPECT_EQ(body.at("next_page_token"),
              row_id_of(first_snapshot, alice_locked()->contract_id.str()));
}

TEST(HoldingsState, APageEmptiedByTheOwnerFilterStillCarriesAToken) {
    const Response response = api().post(v0_state, holdings_request(0, first_snapshot, {dso}, 1));

    const json body = body_of(response);
    EXPECT_EQ(body.at("created_events"), json::array());
    EXPECT_EQ(body.at("next_page_token"), holdings_of(ledger(), 0, first_snapshot)->first_row_id());
}

TEST(HoldingsState, AfterTheLastRowGivesAnEmptyLastPage) {
    const splice::HoldingsSnapshotPtr snapshot = holdings_of(ledger(), 0, second_snapshot);

    const Response response = api().post(
        v0_state,
        with(holdings_request(0, second_snapshot, {alice}, 10), "after", snapshot->last_row_id()));

    ASSERT_EQ(response.status, 200) << response.body;
    EXPECT_EQ(body_of(response).at("created_events"), json::array());
    EXPECT_EQ(body_of(response).at("next_page_token"), nullptr);
}

TEST(HoldingsState, AfterTheFirstRowSkipsIt) {
    const splice::HoldingsSnapshotPtr snapshot = holdings_of(ledger(), 0, second_snapshot);

    const Response response =
        api().post(v0_state, with(holdings_request(0, second_snapshot, {alice, bob}, 10), "after",
                                  snapshot->first_row_id()));

    ASSERT_EQ(snapshot->row(0).contract->contract_id, bob_coin()->contract_id);
    EXPECT_EQ(contract_ids(body_of(response).at("created_events")),
              ids_of(in_creation_order({alice_locked(), alice_change(), alice_coin_2()})));
}

class HoldingsStateAfterOutOfRange : public testing::TestWithParam<int> {};

// GetParam(): the distance of `after` below the first row id (negative: above the last).
TEST_P(HoldingsStateAfterOutOfRange, IsRejected) {
    const splice::HoldingsSnapshotPtr snapshot = holdings_of(ledger(), 0, second_snapshot);
    const std::int64_t after = GetParam() > 0 ? snapshot->first_row_id() - GetParam()
                                              : snapshot->last_row_id() - GetParam();

    const Response response = api().post(
        v0_state, with(holdings_request(0, second_snapshot, {alice}, 10), "after", after));

    EXPECT_TRUE(is_error(response, 400,
                         "Invalid after token, outside of snapshot range (" +
                             std::to_string(snapshot->first_row_id()) + " to " +
                             std::to_string(snapshot->last_row_id()) + ")."));
}

INSTANTIATE_TEST_SUITE_P(Distances, HoldingsStateAfterOutOfRange, testing::Values(1, 3, -1, -100));

TEST(HoldingsState, AnAfterTokenOfAnotherSnapshotIsOutsideItsRange) {
    const splice::HoldingsSnapshotPtr first = holdings_of(ledger(), 0, first_snapshot);
    const std::int64_t after = first->first_row_id();  // valid in the first, not in the second

    const Response response = api().post(
        v0_state, with(holdings_request(0, second_snapshot, {alice}, 10), "after", after));

    EXPECT_EQ(response.status, 400) << response.body;
}

// ---- versions and transport -------------------------------------------------------------------

// scan.yaml AcsResponseV1: ActiveContract items, without event_type and event_id; the update that
// created the contract as created_in_update_id.
TEST(HoldingsStateV1, ReturnsActiveContracts) {
    const Response response =
        api().post(v1_state, holdings_request(0, first_snapshot, {alice}, 10));

    json expected = json::array();
    for (const model::ContractPtr& c : in_creation_order({alice_locked(), alice_change()})) {
        json item = holding_event(ledger(), *c);
        item.erase("event_type");
        item.erase("event_id");
        item["created_in_update_id"] = creating_update_id(ledger(), c->contract_id.str());
        expected.push_back(item);
    }
    EXPECT_EQ(response.status, 200);
    EXPECT_EQ(response.content_type, "application/json");
    EXPECT_EQ(body_of(response), (json{{"record_time", first_snapshot},
                                       {"migration_id", 0},
                                       {"created_events", expected},
                                       {"next_page_token", nullptr}}));
}

TEST(HoldingsStateV1, PagesAsV0Does) {
    const json request = holdings_request(0, second_snapshot, {alice, bob, provider}, 2);

    const json v1_page = body_of(api().post(v1_state, request));

    const json v0_page = body_of(api().post(v0_state, request));
    EXPECT_EQ(v1_page.at("next_page_token"), v0_page.at("next_page_token"));
    EXPECT_EQ(contract_ids(v1_page.at("created_events")),
              contract_ids(v0_page.at("created_events")));
}

TEST(HoldingsStateV1, AtOrBeforeAnswersWithTheSnapshotsRecordTime) {
    const json request = with(holdings_request(0, "2025-01-02T12:00:00Z", {alice}, 10),
                              "record_time_match", "at_or_before");

    const Response response = api().post(v1_state, request);

    EXPECT_EQ(body_of(response).at("record_time"), first_snapshot);
}

class HoldingsStateTransport : public testing::TestWithParam<std::vector<Header>> {};

// Scan needs no token (one sent anyway is ignored) and reads the body whatever its Content-Type.
TEST_P(HoldingsStateTransport, AcceptsTheRequest) {
    const json request = holdings_request(0, first_snapshot, {alice}, 10);

    const Response response = api().post(v0_state, request, GetParam());

    EXPECT_EQ(response.status, 200) << response.body;
    EXPECT_EQ(body_of(response), body_of(api().post(v0_state, request)));
}

INSTANTIATE_TEST_SUITE_P(
    Headers, HoldingsStateTransport,
    testing::Values(std::vector<Header>{},
                    std::vector<Header>{{"Content-Type", "application/json"}},
                    std::vector<Header>{{"Authorization", "Bearer not.a.jwt"}},
                    std::vector<Header>{{"Content-Type", "application/json"},
                                        {"Authorization", "Bearer eyJhbGciOiJIUzI1NiJ9.e30.x"}}));

}  // namespace
}  // namespace cantonlite::areas::scan::scan_holdings_test
