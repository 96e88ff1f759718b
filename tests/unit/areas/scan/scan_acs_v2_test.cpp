// Scan's newer ACS reads: GET /v0/state/acs/snapshot-timestamp-after (getDateOfFirstSnapshotAfter),
// POST /v2/holdings/state (getHoldingsStateAtV2) and POST /v2/state/acs (getAcsSnapshotAtV2), the
// last two of Splice 0.9 (scan.yaml HoldingsStateRequestV2, AcsRequestV2, AcsResponseV2: string
// page tokens). Snapshot rules as op 3 (splice-behavior.md).
#include <algorithm>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "areas/scan/scan_test_support.hpp"
#include "cantonlite/model/ids.hpp"
#include "cantonlite/model/value_json.hpp"

namespace cantonlite::areas::scan::scan_acs_v2_test {
namespace {

using namespace scantest;  // NOLINT: the shared test network, steps and readers

const std::string after_route = "/api/scan/v0/state/acs/snapshot-timestamp-after";
const std::string v1_holdings = "/api/scan/v1/holdings/state";
const std::string v2_holdings = "/api/scan/v2/holdings/state";
const std::string v2_acs = "/api/scan/v2/state/acs";

// The Splice 0.9 routes, and the same network served as 0.6.12 for its v1 holdings/state.
const ScanClient& api() {
    static const ScanClient client(holdings_seed(), {.release = areas::Release::splice_0_9});
    return client;
}

const ScanClient& api_0_6() {
    static const ScanClient client(holdings_seed());
    return client;
}

const store::LedgerStore& ledger() {
    return api().store();
}

// ---- GET /v0/state/acs/snapshot-timestamp-after ----------------------------------------------

struct AfterCase {
    std::string after;
    int migration = 0;
    std::string record_time;
};

class SnapshotTimestampAfter : public testing::TestWithParam<AfterCase> {};

TEST_P(SnapshotTimestampAfter, IsTheFirstSnapshotAfterOfThisOrALaterMigration) {
    const AfterCase& c = GetParam();

    const Response response = api().get(after_route + "?after=" + c.after +
                                        "&migration_id=" + std::to_string(c.migration));

    EXPECT_EQ(response.status, 200);
    EXPECT_EQ(response.content_type, "application/json");
    EXPECT_EQ(response.body, json({{"record_time", c.record_time}}).dump());
}

INSTANTIATE_TEST_SUITE_P(Cases, SnapshotTimestampAfter,
                         testing::Values(AfterCase{"2025-01-01T00:00:00Z", 0, first_snapshot},
                                         // strictly after: a snapshot at `after` is not the answer
                                         AfterCase{first_snapshot, 0, second_snapshot},
                                         AfterCase{"2025-01-02T12:00:00Z", 0, second_snapshot},
                                         // none left in migration 0: the first of a later migration
                                         AfterCase{second_snapshot, 0, migrated_snapshot},
                                         AfterCase{"2025-01-01T00:00:00Z", 1, migrated_snapshot}));

// AcsSnapshotStore.lookupSnapshotAfter puts no time bound on later migrations: their first
// snapshot answers even when it is earlier than `after`.
TEST(SnapshotTimestampAfterLaterMigration, IsFoundWhateverItsTime) {
    const Response response = api().get(after_route + "?after=2031-01-01T00:00:00Z&migration_id=0");
    EXPECT_EQ(response.status, 200);
    EXPECT_EQ(response.body, json({{"record_time", migrated_snapshot}}).dump());
}

TEST(SnapshotTimestampAfterNone, IsNotFoundWithTheRequestTimeAsOffsetDateTimeToString) {
    EXPECT_TRUE(is_error(api().get(after_route + "?after=2031-01-01T00:00:00Z&migration_id=1"), 404,
                         "No snapshots found after 2031-01-01T00:00Z"));
    EXPECT_TRUE(is_error(api().get(after_route + "?after=" + migrated_snapshot + "&migration_id=1"),
                         404, "No snapshots found after 2025-01-04T00:00Z"));
    EXPECT_TRUE(is_error(api().get(after_route + "?after=2025-01-01T00:00:05Z&migration_id=2"), 404,
                         "No snapshots found after 2025-01-01T00:00:05Z"));
}

TEST(SnapshotTimestampAfterParams, AreCheckedAsPekkoDoes) {
    const Response missing = api().get(after_route + "?migration_id=0");
    EXPECT_EQ(missing.status, 404);
    EXPECT_NE(missing.body.find("Request is missing required query parameter 'after'"),
              std::string::npos)
        << missing.body;
    const Response no_migration = api().get(after_route + "?after=2025-01-01T00:00:00Z");
    EXPECT_EQ(no_migration.status, 404);
    EXPECT_NE(no_migration.body.find("missing required query parameter 'migration_id'"),
              std::string::npos);
    const Response malformed = api().get(after_route + "?after=yesterday&migration_id=0");
    EXPECT_EQ(malformed.status, 400);
    EXPECT_NE(malformed.body.find("The query parameter 'after' was malformed"), std::string::npos)
        << malformed.body;
}

// ---- POST /v2/holdings/state ------------------------------------------------------------------

json holdings_request(const std::string& time, std::vector<std::string> owners, int page_size) {
    return {{"migration_id", 0},
            {"record_time", time},
            {"page_size", page_size},
            {"owner_party_ids", std::move(owners)}};
}

TEST(HoldingsStateV2, IsV1WithStringTokens) {
    for (const int page_size : {1, 2, 3, 1000}) {
        json v1_events = json::array();
        json v2_events = json::array();
        json v1_body = holdings_request(second_snapshot, {alice, bob}, page_size);
        json v2_body = v1_body;
        for (int page = 0; page < 10; ++page) {
            const json v1 = body_of(api_0_6().post(v1_holdings, v1_body));
            const Response response = api().post(v2_holdings, v2_body);
            ASSERT_EQ(response.status, 200) << response.body;
            const json v2 = body_of(response);
            EXPECT_EQ(v2.at("record_time"), v1.at("record_time"));
            EXPECT_EQ(v2.at("migration_id"), v1.at("migration_id"));
            EXPECT_EQ(v2.at("created_events"), v1.at("created_events"));
            for (const json& e : v1.at("created_events")) v1_events.push_back(e);
            for (const json& e : v2.at("created_events")) v2_events.push_back(e);
            ASSERT_TRUE(v2.contains("next_page_token"));  // null on the last page, not absent
            if (v1.at("next_page_token").is_null()) {
                EXPECT_TRUE(v2.at("next_page_token").is_null());
                break;
            }
            const std::int64_t row = v1.at("next_page_token").get<std::int64_t>();
            ASSERT_TRUE(v2.at("next_page_token").is_string());
            EXPECT_EQ(v2.at("next_page_token"), model::base64_encode(std::to_string(row)));
            v1_body["after"] = row;
            v2_body["after"] = v2.at("next_page_token");
        }
        EXPECT_EQ(v2_events, v1_events);
        EXPECT_EQ(v2_events.size(), 4U) << "page size " << page_size;
    }
}

TEST(HoldingsStateV2, SnapshotRulesAndTextsAreOp3s) {
    EXPECT_TRUE(
        is_error(api().post(v2_holdings, holdings_request("2025-01-02T12:00:00Z", {alice}, 10)),
                 404, "Failed to find ACS snapshot for migration id 0 at 2025-01-02T12:00:00Z"));
    json at_or_before = holdings_request("2025-01-02T12:00:00Z", {alice}, 10);
    at_or_before["record_time_match"] = "at_or_before";
    const json body = body_of(api().post(v2_holdings, at_or_before));
    EXPECT_EQ(body.at("record_time"), first_snapshot);
    at_or_before["record_time"] = "2025-01-01T00:00:00Z";
    EXPECT_TRUE(is_error(api().post(v2_holdings, at_or_before), 404,
                         "No snapshots found before 2025-01-01T00:00Z"));
    EXPECT_TRUE(is_error(api().post(v2_holdings, holdings_request(first_snapshot, {}, 10)), 400,
                         "Expected 'ownerPartyIds' to contain at least one item, but contained "
                         "none."));
    EXPECT_TRUE(is_error(api().post(v2_holdings, holdings_request(first_snapshot, {alice}, 1001)),
                         400, "Exceeded limit maximum (1001 > 1000)."));
}

TEST(HoldingsStateV2, RejectsMoreThan1000OwnersFirst) {
    std::vector<std::string> owners;
    for (int i = 0; i < 1001; ++i) owners.push_back("party" + std::to_string(i) + "::dummy");
    // Checked before the snapshot (none at this time) and the page size.
    EXPECT_TRUE(
        is_error(api().post(v2_holdings, holdings_request("2020-01-01T00:00:00Z", owners, 0)), 400,
                 "Expected 'owner_party_ids' to contain at most 1000 items, but contained "
                 "1001."));
    owners.pop_back();
    EXPECT_EQ(api().post(v2_holdings, holdings_request(first_snapshot, owners, 10)).status, 200);
}

TEST(HoldingsStateV2, ChecksTheToken) {
    json body = holdings_request(first_snapshot, {alice}, 10);
    body["after"] = model::base64_encode("999999");
    const splice::HoldingsSnapshotPtr snap = holdings_of(ledger(), 0, first_snapshot);
    EXPECT_TRUE(is_error(api().post(v2_holdings, body), 400,
                         "Invalid after token, outside of snapshot range (" +
                             std::to_string(snap->first_row_id()) + " to " +
                             std::to_string(snap->last_row_id()) + ")."));
    body["after"] = "not a token!";
    EXPECT_TRUE(is_error(api().post(v2_holdings, body), 400));
    body["after"] = model::base64_encode(R"({"after": 1})");
    EXPECT_TRUE(is_error(api().post(v2_holdings, body), 400));
    body["after"] = snap->first_row_id();  // an integer is no string token
    const Response number = api().post(v2_holdings, body);
    EXPECT_EQ(number.status, 400);
    EXPECT_NE(number.body.find("DecodingFailure at .after: Got value '" +
                               std::to_string(snap->first_row_id()) +
                               "' with wrong type, expecting string"),
              std::string::npos)
        << number.body;
}

// ---- POST /v2/state/acs -----------------------------------------------------------------------

json acs_request(const std::string& time, int page_size, std::int64_t migration = 0) {
    return {{"migration_id", migration}, {"record_time", time}, {"page_size", page_size}};
}

// The contracts the DSO is a stakeholder of that were active in `migration` at `time`, in
// (created_at, contract_id) order: those created at or before `time` and not archived by then.
std::vector<model::ContractPtr> acs_at(const std::string& time) {
    const model::Timestamp t = time_of(time);
    std::vector<model::ContractPtr> out;
    for (store::Offset o = 1; o <= ledger().ledger_end(); ++o) {
        if (store::record_time_of(*ledger().update_at(o)) > t) break;
        for (const model::ContractPtr& c : created_by(ledger(), o)) {
            const auto state = ledger().contract(c->contract_id);
            if (state->archived_offset() &&
                store::record_time_of(*ledger().update_at(*state->archived_offset())) <= t) {
                continue;
            }
            if (std::find(c->stakeholders.begin(), c->stakeholders.end(), dso) ==
                c->stakeholders.end()) {
                continue;
            }
            out.push_back(c);
        }
    }
    std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) {
        return std::tie(a->created_at, a->contract_id) < std::tie(b->created_at, b->contract_id);
    });
    return out;
}

// scan.yaml ActiveContract.
json active_contract(const model::Contract& c, const json& created_in_update_id) {
    return {{"created_in_update_id", created_in_update_id},
            {"contract_id", c.contract_id},
            {"template_id", c.template_id().to_string()},
            {"package_name", c.template_id().package_name},
            {"create_arguments",
             json::parse(model::value_json(c.argument, model::ValueEncoding::codegen))},
            {"created_at", model::format_offset_date_time(c.created_at)},
            {"signatories", c.signatories},
            {"observers", model::NameSet(c.observers())}};
}

// Every page of `request`, concatenated; checks the tokens on the way.
json all_pages(json request, int* pages = nullptr) {
    json events = json::array();
    for (int page = 1; page <= 100; ++page) {
        const Response response = api().post(v2_acs, request);
        EXPECT_EQ(response.status, 200) << response.body;
        const json body = body_of(response);
        for (const json& e : body.at("created_events")) events.push_back(e);
        if (pages != nullptr) *pages = page;
        EXPECT_TRUE(body.contains("next_page_token"));
        if (body.at("next_page_token").is_null()) break;
        EXPECT_TRUE(body.at("next_page_token").is_string());
        EXPECT_EQ(body.at("created_events").size(), request.at("page_size").get<std::size_t>());
        request["after"] = body.at("next_page_token");
    }
    return events;
}

TEST(StateAcsV2, IsEveryContractOfTheSnapshotInCreationOrder) {
    for (const std::string& time : {first_snapshot, second_snapshot}) {
        json expected = json::array();
        for (const model::ContractPtr& c : acs_at(time)) {
            expected.push_back(
                active_contract(*c, creating_update_id(ledger(), c->contract_id.str())));
        }
        ASSERT_GE(expected.size(), 4U);
        const Response response = api().post(v2_acs, acs_request(time, 1000));
        ASSERT_EQ(response.status, 200) << response.body;
        const json body = body_of(response);
        EXPECT_EQ(body.at("record_time"), time);
        EXPECT_EQ(body.at("migration_id"), 0);
        EXPECT_EQ(body.at("created_events"), expected) << time;
        EXPECT_TRUE(body.at("next_page_token").is_null());
        // Key order as the yaml's.
        EXPECT_EQ(response.body.rfind(R"({"record_time":)", 0), 0U);
        EXPECT_NE(response.body.find(R"(],"next_page_token":null})"), std::string::npos);
    }
}

TEST(StateAcsV2, PagesConcatenateToTheWhole) {
    const json whole = all_pages(acs_request(second_snapshot, 1000));
    for (const int size : {1, 2, 3}) {
        int pages = 0;
        EXPECT_EQ(all_pages(acs_request(second_snapshot, size), &pages), whole) << size;
        EXPECT_GE(pages, static_cast<int>(whole.size() / static_cast<std::size_t>(size)));
    }
}

TEST(StateAcsV2, ImportedContractsHaveNoCreatingUpdate) {
    const json body = body_of(api().post(v2_acs, acs_request(migrated_snapshot, 1000, 1)));
    ASSERT_FALSE(body.at("created_events").empty());
    for (const json& e : body.at("created_events")) {
        EXPECT_TRUE(e.at("created_in_update_id").is_null()) << e.dump();
    }
    EXPECT_EQ(body.at("created_events").size(), acs_at(migrated_snapshot).size());
}

TEST(StateAcsV2, FiltersByStakeholderAndTemplate) {
    json request = acs_request(second_snapshot, 1000);
    request["templates"] = {"splice-amulet:Splice.Amulet:Amulet"};
    json amulets = json::array();
    json alices = json::array();
    json alices_amulets = json::array();
    for (const model::ContractPtr& c : acs_at(second_snapshot)) {
        const json item = active_contract(*c, creating_update_id(ledger(), c->contract_id.str()));
        const bool amulet = c->template_id().entity_name == "Amulet";
        const bool of_alice = std::find(c->stakeholders.begin(), c->stakeholders.end(), alice) !=
                              c->stakeholders.end();
        if (amulet) amulets.push_back(item);
        if (of_alice) alices.push_back(item);
        if (amulet && of_alice) alices_amulets.push_back(item);
    }
    EXPECT_EQ(all_pages(request), amulets);
    request["party_ids"] = {alice};
    EXPECT_EQ(all_pages(request), alices_amulets);
    request.erase("templates");
    EXPECT_EQ(all_pages(request), alices);
    request["page_size"] = 1;
    EXPECT_EQ(all_pages(request), alices);
    request["templates"] = {"splice-amulet:Splice.Amulet:Amulet",
                            "splice-amulet:Splice.Amulet:LockedAmulet"};
    EXPECT_EQ(all_pages(request).size(), 3U);  // alice's change, locked amulet, second coin
    request["templates"] = {"splice-amulet:Splice.Amulet:Nothing"};
    EXPECT_EQ(all_pages(request), json::array());
}

TEST(StateAcsV2, Errors) {
    json request = acs_request("2025-01-02T12:00:00Z", 10);
    EXPECT_TRUE(is_error(api().post(v2_acs, request), 404,
                         "Failed to find ACS snapshot for migration id 0 at 2025-01-02T12:00:00Z"));
    request["templates"] = {"splice-amulet:Splice.Amulet"};
    // The template is read before the exact snapshot is looked up.
    EXPECT_TRUE(is_error(api().post(v2_acs, request), 400,
                         "Malformed template_id, expected 'package_name:module_name:entity_name'"));
    request["templates"] = {"a:b:"};  // Java's split drops the trailing empty string
    EXPECT_TRUE(is_error(api().post(v2_acs, request), 400,
                         "Malformed template_id, expected 'package_name:module_name:entity_name'"));
    request["record_time_match"] = "at_or_before";
    request["record_time"] = "2025-01-01T00:00:00Z";
    EXPECT_TRUE(
        is_error(api().post(v2_acs, request), 404, "No snapshots found before 2025-01-01T00:00Z"));
    json sized = acs_request(first_snapshot, 0);
    EXPECT_TRUE(is_error(api().post(v2_acs, sized), 400, "Limit must be at least 1."));
    sized["page_size"] = 10;
    sized["party_ids"] = {"alice"};
    EXPECT_TRUE(is_error(api().post(v2_acs, sized), 400));
    std::vector<std::string> many(1001, alice);
    sized["party_ids"] = many;
    EXPECT_TRUE(
        is_error(api().post(v2_acs, sized), 400,
                 "Expected 'party_ids' to contain at most 1000 items, but contained 1001."));
    sized.erase("party_ids");
    sized["templates"] = std::vector<std::string>(1001, "a:b:c");
    EXPECT_TRUE(
        is_error(api().post(v2_acs, sized), 400,
                 "Expected 'templates' to contain at most 1000 items, but contained 1001."));
    sized.erase("templates");
    const store::SnapshotPtr snap = snapshot_of(ledger(), 0, first_snapshot);
    sized["after"] = model::base64_encode(std::to_string(snap->last_acs_row_id() + 1));
    EXPECT_TRUE(is_error(api().post(v2_acs, sized), 400,
                         "Invalid after token, outside of snapshot range (" +
                             std::to_string(snap->first_acs_row_id()) + " to " +
                             std::to_string(snap->last_acs_row_id()) + ")."));
    sized.erase("after");
    sized.erase("page_size");
    const Response missing = api().post(v2_acs, sized);
    EXPECT_EQ(missing.status, 400);
    EXPECT_NE(missing.body.find("DecodingFailure at .page_size"), std::string::npos);
}

TEST(StateAcsV2, HoldingsV2IsTheOwnersAmuletsOfTheAcs) {
    // Same contracts, same order: holdings are a template filter of the ACS plus the owner check.
    json holdings = body_of(api().post(v2_holdings, holdings_request(second_snapshot, {bob}, 100)))
                        .at("created_events");
    json request = acs_request(second_snapshot, 100);
    request["party_ids"] = {bob};
    request["templates"] = {"splice-amulet:Splice.Amulet:Amulet",
                            "splice-amulet:Splice.Amulet:LockedAmulet"};
    EXPECT_EQ(all_pages(request), holdings);
}

}  // namespace
}  // namespace cantonlite::areas::scan::scan_acs_v2_test
