// Scan's update history v2: POST /v2/updates (getUpdateHistoryV2) and GET /v2/updates/{update_id}
// (getUpdateByIdV2). scan.yaml UpdateHistoryRequestV2, UpdateHistoryItemV2; splice-behavior.md §3
// (item shapes, V1 rules: no '#', six-digit record times, constant reassignment offset) and §4
// (compact vs protobuf JSON). Import updates are not part of it; items are in (migration id,
// record time) order; pages concatenate to the history.
#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "areas/scan/scan_test_support.hpp"
#include "cantonlite/model/value_json.hpp"

namespace cantonlite::areas::scan::scan_update_history_test {
namespace {

using namespace scantest;  // NOLINT: the shared test network, steps and readers
using ordered = nlohmann::ordered_json;

const std::string updates = "/api/scan/v2/updates";

// The holdings network, then in migration 1: a mint, alice's second coin moved to the private
// synchronizer and back (unassign + assign each), bob's coin unassigned.
json history_seed() {
    json seed = holdings_seed();
    for (json step : {at(mint("carol", "7", "carol-coin"), "2025-01-05T00:00:00Z"),
                      at(reassign("alice-coin-2", private_synchronizer), "2025-01-05T01:00:00Z"),
                      at(reassign("alice-coin-2", global_synchronizer), "2025-01-05T02:00:00Z"),
                      at(unassign("bob-coin", private_synchronizer), "2025-01-05T03:00:00Z")}) {
        seed["steps"].push_back(step);
    }
    return seed;
}

const ScanClient& api() {
    static const ScanClient client(history_seed());
    return client;
}

const store::LedgerStore& ledger() {
    return api().store();
}

// The store's history as Scan lists it: transactions and reassignments, in offset order.
std::vector<store::UpdatePtr> history() {
    std::vector<store::UpdatePtr> out;
    for (store::Offset o = 1; o <= ledger().ledger_end(); ++o) {
        store::UpdatePtr u = ledger().update_at(o);
        if (!std::holds_alternative<store::Migration>(*u)) out.push_back(u);
    }
    return out;
}

// ---- the expected items, written from the spec ------------------------------------------------

ordered value_json(const model::PackedValue& v, bool protobuf) {
    return ordered::parse(model::value_json(
        v, protobuf ? model::ValueEncoding::protobuf : model::ValueEncoding::codegen));
}

ordered created_event(const model::Contract& c, const std::string& id, bool protobuf) {
    return {{"event_type", "created_event"},
            {"event_id", id},
            {"contract_id", c.contract_id},
            {"template_id", c.template_id().to_string()},
            {"package_name", c.template_id().package_name},
            {"create_arguments", value_json(c.argument, protobuf)},
            {"created_at", model::format_offset_date_time(c.created_at)},
            {"signatories", c.signatories},
            {"observers", model::NameSet(c.observers())}};
}

std::vector<std::string> ids(const std::string& update_id, const std::vector<int>& nodes) {
    std::vector<std::string> out;
    for (const int n : nodes) out.push_back(update_id + ":" + std::to_string(n));
    return out;
}

ordered expected_item(const store::Update& u, bool protobuf) {
    if (const auto* tx = std::get_if<store::Transaction>(&u)) {
        std::map<std::string, ordered> events;  // sorted by id as text
        for (const store::Node& node : tx->nodes) {
            const std::string id = tx->update_id().str() + ":" + std::to_string(node.node_id);
            if (const auto* c = std::get_if<store::CreatedNode>(&node.event)) {
                events[id] = created_event(*c->contract, id, protobuf);
            } else {
                const auto& x = *store::exercised(node);
                events[id] = {
                    {"event_type", "exercised_event"},
                    {"event_id", id},
                    {"contract_id", x.contract_id},
                    {"template_id", x.template_id().to_string()},
                    {"package_name", x.template_id().package_name},
                    {"choice", x.choice},
                    {"choice_argument", value_json(x.choice_argument, protobuf)},
                    {"child_event_ids",
                     ids(tx->update_id().str(), store::children(*tx, node.node_id))},
                    {"exercise_result", value_json(x.exercise_result, protobuf)},
                    {"consuming", x.consuming},
                    {"acting_parties", x.acting_parties},
                    {"interface_id",
                     x.has_interface ? ordered(x.interface.get().to_string()) : ordered(nullptr)}};
            }
        }
        ordered by_id = ordered::object();
        for (auto& [id, e] : events) by_id[id] = std::move(e);
        return {{"update_id", tx->update_id().str()},
                {"migration_id", tx->migration_id},
                {"workflow_id", tx->workflow_id},
                {"record_time", model::format_micros(tx->record_time)},
                {"synchronizer_id", tx->synchronizer_id},
                {"effective_at", model::format_instant(tx->effective_at)},
                {"root_event_ids", ids(tx->update_id().str(), store::roots(*tx))},
                {"events_by_id", std::move(by_id)}};
    }
    const auto& r = std::get<store::Reassignment>(u);
    ordered event;
    if (r.kind == store::Reassignment::Kind::assign) {
        event = {
            {"submitter", r.submitter},
            {"source_synchronizer", r.source_synchronizer},
            {"target_synchronizer", r.target_synchronizer},
            {"migration_id", r.migration_id},
            {"unassign_id", r.unassign_id},
            {"created_event", created_event(*r.contract, r.update_id().str() + ":0", protobuf)},
            {"reassignment_counter", r.reassignment_counter}};
    } else {
        event = {{"submitter", r.submitter},
                 {"source_synchronizer", r.source_synchronizer},
                 {"migration_id", r.migration_id},
                 {"target_synchronizer", r.target_synchronizer},
                 {"unassign_id", r.unassign_id},
                 {"reassignment_counter", r.reassignment_counter},
                 {"contract_id", r.contract->contract_id}};
    }
    return {{"update_id", r.update_id().str()},
            {"offset", "000000000000000001"},
            {"record_time", model::format_micros(r.record_time)},
            {"event", std::move(event)}};
}

json request(int page_size) {
    return {{"page_size", page_size}};
}

json after(const json& item) {
    const bool reassignment = item.contains("event");
    return {{"after_migration_id",
             reassignment ? item.at("event").at("migration_id") : item.at("migration_id")},
            {"after_record_time", item.at("record_time")}};
}

// ---- POST /v2/updates -------------------------------------------------------------------------

TEST(UpdateHistoryV2, IsEveryTransactionAndReassignmentInOrderByteForByte) {
    for (const bool protobuf : {false, true}) {
        json body = request(1000);
        if (protobuf) body["daml_value_encoding"] = "protobuf_json";
        const Response response = api().post(updates, body);
        ASSERT_EQ(response.status, 200) << response.body;
        EXPECT_EQ(response.content_type, "application/json");
        ordered expected = {{"transactions", ordered::array()}};
        for (const store::UpdatePtr& u : history()) {
            expected["transactions"].push_back(expected_item(*u, protobuf));
        }
        EXPECT_EQ(response.body, expected.dump());
    }
}

TEST(UpdateHistoryV2, CoversBothMigrationsAndReassignmentsButNoImportUpdates) {
    const json items = body_of(api().post(updates, request(1000))).at("transactions");
    std::set<std::int64_t> migrations;
    int assigns = 0;
    int unassigns = 0;
    for (const json& item : items) {
        if (item.contains("event")) {
            (item.at("event").contains("created_event") ? assigns : unassigns) += 1;
            EXPECT_EQ(item.at("offset"), "000000000000000001");
        } else {
            migrations.insert(item.at("migration_id").get<std::int64_t>());
            EXPECT_FALSE(item.contains("offset"));  // v2 drops it from transactions
            EXPECT_FALSE(item.contains("external_transaction_hash"));
            EXPECT_EQ(item.at("record_time").get<std::string>().size(), 27U);  // .ffffffZ
        }
        // An import update's id is its contract id; none is listed.
        EXPECT_NE(item.at("update_id").get<std::string>().substr(0, 2), "00");
    }
    EXPECT_EQ(migrations, (std::set<std::int64_t>{0, 1}));
    EXPECT_EQ(assigns, 2);
    EXPECT_EQ(unassigns, 3);
}

TEST(UpdateHistoryV2, PagesConcatenateToTheHistory) {
    const json whole = body_of(api().post(updates, request(1000))).at("transactions");
    ASSERT_GE(whole.size(), 8U);
    for (const int size : {1, 2, 3, 5}) {
        json pages = json::array();
        json body = request(size);
        for (int i = 0; i < 100; ++i) {
            const json items = body_of(api().post(updates, body)).at("transactions");
            EXPECT_LE(items.size(), static_cast<std::size_t>(size));
            for (const json& item : items) pages.push_back(item);
            if (items.empty()) break;
            body["after"] = after(items.back());
        }
        EXPECT_EQ(pages, whole) << "page size " << size;
    }
}

TEST(UpdateHistoryV2, AfterIsExclusiveAndLaterMigrationsComeLater) {
    const json whole = body_of(api().post(updates, request(1000))).at("transactions");
    // After the last update of migration 0: the first of migration 1, whatever its record time.
    std::size_t first_of_1 = 0;
    while (whole[first_of_1].value("migration_id", 0) == 0 &&
           !whole[first_of_1].contains("event")) {
        ++first_of_1;
    }
    json body = request(1);
    body["after"] = {{"after_migration_id", 0}, {"after_record_time", "2031-01-01T00:00:00Z"}};
    EXPECT_EQ(body_of(api().post(updates, body)).at("transactions"),
              json::array({whole[first_of_1]}));
    body["after"] = {{"after_migration_id", 1}, {"after_record_time", "2031-01-01T00:00:00Z"}};
    EXPECT_EQ(body_of(api().post(updates, body)).at("transactions"), json::array());
    body["after"] = {{"after_migration_id", 7}, {"after_record_time", "2000-01-01T00:00:00Z"}};
    EXPECT_EQ(body_of(api().post(updates, body)).at("transactions"), json::array());
    // Before everything: from the start; an offset other than Z is read too (Instant.parse).
    body["after"] = {{"after_migration_id", 0}, {"after_record_time", "2000-01-01T02:00:00+02:00"}};
    EXPECT_EQ(body_of(api().post(updates, body)).at("transactions"), json::array({whole[0]}));
    // ISO_INSTANT needs the seconds (the JDK: "could not be parsed at index 16").
    body["after"] = {{"after_migration_id", 0}, {"after_record_time", "2000-01-01T00:00Z"}};
    EXPECT_TRUE(
        is_error(api().post(updates, body), 400,
                 "Invalid timestamp: Text '2000-01-01T00:00Z' could not be parsed at index 16"));
    // A year Daml cannot hold: Timestamp.fromInstant's text (no space after "Timestamp:").
    body["after"] = {{"after_migration_id", 0}, {"after_record_time", "+10000-01-01T00:00:00Z"}};
    EXPECT_TRUE(is_error(api().post(updates, body), 400,
                         "Invalid timestamp: cannot convert instant +10000-01-01T00:00:00Z into "
                         "Timestamp:out of bound Timestamp 253402300800000000"));
}

TEST(UpdateHistoryV2, Errors) {
    EXPECT_TRUE(is_error(api().post(updates, request(0)), 400, "Limit must be at least 1."));
    EXPECT_TRUE(
        is_error(api().post(updates, request(1001)), 400, "Exceeded limit maximum (1001 > 1000)."));
    json body = request(0);
    body["after"] = {{"after_migration_id", 0}, {"after_record_time", "yesterday"}};
    // The time is parsed before the page size is checked.
    EXPECT_TRUE(is_error(api().post(updates, body), 400,
                         "Invalid timestamp: Text 'yesterday' could not be parsed at index 0"));
    body["after"]["after_record_time"] = "2025-01-01 10:00:00Z";
    EXPECT_TRUE(is_error(api().post(updates, body), 400,
                         "Invalid timestamp: Text '2025-01-01 10:00:00Z' could not be parsed at "
                         "index 10"));
    const Response missing = api().post(updates, json::object());
    EXPECT_EQ(missing.status, 400);
    EXPECT_NE(missing.body.find("DecodingFailure at .page_size: Missing required field"),
              std::string::npos)
        << missing.body;
    body = request(10);
    body["after"] = {{"after_record_time", "2025-01-01T00:00:00Z"}};
    const Response no_migration = api().post(updates, body);
    EXPECT_EQ(no_migration.status, 400);
    EXPECT_NE(no_migration.body.find("DecodingFailure at .after.after_migration_id"),
              std::string::npos)
        << no_migration.body;
    body = request(10);
    body["daml_value_encoding"] = "lossless";
    const Response bad_encoding = api().post(updates, body);
    EXPECT_EQ(bad_encoding.status, 400);
    EXPECT_NE(bad_encoding.body.find("daml_value_encoding"), std::string::npos);
}

// ---- GET /v2/updates/{update_id} --------------------------------------------------------------

TEST(UpdateByIdV2, IsTheItemOfTheList) {
    for (const std::string encoding : {"", "compact_json", "protobuf_json"}) {
        json body = request(1000);
        if (!encoding.empty()) body["daml_value_encoding"] = encoding;
        const Response list = api().post(updates, body);
        const json whole = body_of(list).at("transactions");
        for (const json& item : whole) {
            const std::string id = item.at("update_id").get<std::string>();
            const Response response = api().get(
                updates + "/" + id + (encoding.empty() ? "" : "?daml_value_encoding=" + encoding));
            ASSERT_EQ(response.status, 200) << response.body;
            EXPECT_EQ(body_of(response), item) << id;
            // Byte for byte: the list writes the same text.
            EXPECT_NE(list.body.find(response.body), std::string::npos) << id;
        }
    }
}

TEST(UpdateByIdV2, UnknownIdsAreNotFound) {
    EXPECT_TRUE(
        is_error(api().get(updates + "/1220nope"), 404, "Transaction with id 1220nope not found"));
    // Import updates (listed by /v0/backfilling/import-updates with update id = contract id) are
    // not found by that id.
    const json imports =
        body_of(api().post("/api/scan/v0/backfilling/import-updates",
                           {{"migration_id", 1}, {"after_update_id", ""}, {"limit", 1}}));
    ASSERT_EQ(imports.at("transactions").size(), 1U);
    const std::string cid = imports.at("transactions")[0].at("update_id").get<std::string>();
    EXPECT_TRUE(
        is_error(api().get(updates + "/" + cid), 404, "Transaction with id " + cid + " not found"));
    // The migration itself is no update of Scan's history.
    const std::string migration =
        store::update_id_of(*ledger().update_at(migration_offset(ledger()))).str();
    EXPECT_TRUE(is_error(api().get(updates + "/" + migration), 404,
                         "Transaction with id " + migration + " not found"));
    const Response bad = api().get(updates + "/" + cid + "?daml_value_encoding=lossless");
    EXPECT_EQ(bad.status, 400);
}

// ---- updates that share a record time (a seed may write them; Canton never does) -------------

TEST(UpdateHistoryV2, APageNeverSplitsUpdatesOfOneRecordTime) {
    const ScanClient tied(seed_with({at(mint("alice", "1", "a1"), "2025-01-01T01:00:00Z"),
                                     at(mint("alice", "2", "a2"), "2025-01-01T01:00:00Z"),
                                     at(mint("alice", "3", "a3"), "2025-01-01T01:00:00Z"),
                                     at(mint("bob", "4", "b1"), "2025-01-01T02:00:00Z")}));
    const json whole = body_of(tied.post(updates, request(1000))).at("transactions");
    json body = request(1);
    json pages = json::array();
    for (int i = 0; i < 10; ++i) {
        const json items = body_of(tied.post(updates, body)).at("transactions");
        for (const json& item : items) pages.push_back(item);
        if (items.empty()) break;
        body["after"] = after(items.back());
    }
    EXPECT_EQ(pages, whole);
    body = request(1);
    body["after"] = {{"after_migration_id", 0}, {"after_record_time", "2025-01-01T00:30:00Z"}};
    EXPECT_EQ(body_of(tied.post(updates, body)).at("transactions").size(), 3U);
}

}  // namespace
}  // namespace cantonlite::areas::scan::scan_update_history_test
