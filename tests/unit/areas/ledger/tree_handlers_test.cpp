// Canton 3.5's deprecated transaction-tree reads over the default network: POST /v2/updates/trees,
// GET /v2/updates/transaction-tree-by-offset/{offset}, GET /v2/updates/transaction-tree-by-id/
// {update-id}, and the deprecated GET /v2/state/active-contracts-page. Sources:
// digital-asset/canton release-line-3.5,
// community/ledger/ledger-json-api/src/main/scala/com/digitalasset/canton/http/ json/v2/
// (JsUpdateService.scala, LegacyDTOs.scala, JsSchema.scala, ProtocolConverters.scala), and tapir
// v1.11.7 server/core/.../decodefailure/DecodeFailureHandler.scala.

#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cantonlite/app/application.hpp"
#include "cantonlite/areas/ledger/transaction_json.hpp"
#include "cantonlite/seed/seed_loader.hpp"
#include "ledger_test_support.hpp"

namespace cantonlite::areas::ledger::tree_handlers_test {
namespace {

using nlohmann::json;
using nlohmann::ordered_json;

const std::string alice_mint_id =
    "122006efd6df3bff416c5ce8b08dac1517c070486eccbc112fffb12652a542c73ca8";
const std::string alice_pays_carol_id =
    "1220ef5bce414b67fca380f65a900da5893bb23a0c713f3665d0a69872610c6be8fe";

json template_filter(const std::string& template_id) {
    return {{"identifierFilter", {{"TemplateFilter", {{"value", {{"templateId", template_id}}}}}}}};
}

class TreeHandlersTest : public LedgerSuite {
  protected:
    static void SetUpTestSuite() { serve_default_network(); }

    static http::Response get(const std::string& target, const std::string& user = "alice") {
        return call("GET", target, "", user);
    }

    static std::string by_offset(std::int64_t offset, const std::string& party) {
        return "/v2/updates/transaction-tree-by-offset/" + std::to_string(offset) +
               "?parties=" + party;
    }

    // transaction-by-offset's JsTransaction in the shape the tree lookups ask for
    // (getUpdateFormatForPointwiseQueries: LEDGER_EFFECTS, a wildcard per party, verbose).
    static json ledger_effects_transaction(std::int64_t offset, const std::string& party) {
        json by_party = json::object();
        by_party[party] = {
            {"cumulative", json::array({{{"identifierFilter",
                                          {{"WildcardFilter", {{"value", json::object()}}}}}}})}};
        const http::Response r =
            post("/v2/updates/transaction-by-offset",
                 {{"offset", offset},
                  {"transactionFormat",
                   {{"eventFormat", {{"filtersByParty", by_party}, {"verbose", true}}},
                    {"transactionShape", "TRANSACTION_SHAPE_LEDGER_EFFECTS"}}}},
                 party == alice ? "alice" : "bob");
        EXPECT_EQ(r.status, 200) << r.body;
        return json::parse(r.body).at("transaction");
    }
};

// ---- GET /v2/updates/transaction-tree-by-offset/{offset} ----

// JsUpdateService.scala:136-190 (getTreeByOffset: getUpdateByOffset with TRANSACTION_SHAPE_
// LEDGER_EFFECTS, filtersByParty = each party -> WildcardFilter, verbose = true); LegacyDTOs.scala
// :85-107 (toTransactionTree: eventsById = created.nodeId -> Created, exercised.nodeId ->
// Exercised); JsSchema.scala:125-135 (JsTransactionTree's fields, in this order) and :333-339
// (CreatedTreeEvent(value), ExercisedTreeEvent(value)); JsUpdateService.scala:602
// (JsGetTransactionTreeResponse(transaction)).
TEST_F(TreeHandlersTest, TreeByOffsetIsTheLedgerEffectsTransactionKeyedByNodeId) {
    const http::Response r = get(by_offset(2, alice));

    ASSERT_EQ(r.status, 200) << r.body;
    const ordered_json body = ordered_json::parse(r.body);
    std::vector<std::string> keys;
    for (const auto& [k, _] : body.at("transaction").items()) keys.push_back(k);
    EXPECT_EQ(keys, (std::vector<std::string>{"updateId", "commandId", "workflowId", "effectiveAt",
                                              "offset", "eventsById", "synchronizerId",
                                              "traceContext", "recordTime"}));

    const json tree = json::parse(r.body).at("transaction");
    const json tx = ledger_effects_transaction(2, alice);
    for (const char* field : {"updateId", "commandId", "workflowId", "effectiveAt", "offset",
                              "synchronizerId", "traceContext", "recordTime"}) {
        EXPECT_EQ(tree.at(field), tx.at(field)) << field;
    }
    EXPECT_EQ(tree["updateId"], alice_mint_id);
    ASSERT_EQ(tx["events"].size(), 2U);
    EXPECT_EQ(tree["eventsById"],
              json({{"0", {{"ExercisedTreeEvent", {{"value", tx["events"][0]["ExercisedEvent"]}}}}},
                    {"1", {{"CreatedTreeEvent", {{"value", tx["events"][1]["CreatedEvent"]}}}}}}));
}

// The events of LEDGER_EFFECTS (exercises, archives among them, and creates), each by its node id.
TEST_F(TreeHandlersTest, ATransferTreeHasEveryLedgerEffectsEvent) {
    const http::Response r = get(by_offset(43, alice));

    ASSERT_EQ(r.status, 200) << r.body;
    const json tree = json::parse(r.body).at("transaction");
    const json tx = ledger_effects_transaction(43, alice);
    ASSERT_EQ(tree["eventsById"].size(), tx["events"].size());
    for (const json& e : tx["events"]) {
        const bool created = e.contains("CreatedEvent");
        const json& value = created ? e["CreatedEvent"] : e["ExercisedEvent"];
        const std::string id = std::to_string(value["nodeId"].get<int>());
        EXPECT_EQ(
            tree["eventsById"][id][created ? "CreatedTreeEvent" : "ExercisedTreeEvent"]["value"],
            value)
            << id;
    }
}

// eventsById is a Scala Map[Int, TreeEvent] (LegacyDTOs.scala:33-36, built with .toMap at :103 and
// again in ProtocolConverters.scala:501-507); circe writes a Map in its iteration order: insertion
// order up to four entries (Map1-Map4), else immutable.HashMap's CHAMP order over
// Hashing.improve(key) (scala 2.13 Hashing.scala:21-26, ChampCommon.scala:31-35, 130-134).
TEST(ScalaIntMapOrderTest, FollowsScalaImmutableMapIteration) {
    EXPECT_EQ(scala_int_map_order({0, 1, 2, 3}), (std::vector<std::size_t>{0, 1, 2, 3}));
    EXPECT_EQ(scala_int_map_order({3, 0, 2}), (std::vector<std::size_t>{0, 1, 2}));
    // improve(k) & 31 for k = 0..5: 0, 7, 14, 20, 29, 1.
    EXPECT_EQ(scala_int_map_order({0, 1, 2, 3, 4, 5}),
              (std::vector<std::size_t>{0, 5, 1, 2, 3, 4}));
    // 40 keys: slots shared at the first level go to sub-nodes after the root's own entries.
    std::vector<std::int32_t> keys;
    for (int k = 0; k < 40; ++k) keys.push_back(k);
    EXPECT_EQ(scala_int_map_order(keys),
              (std::vector<std::size_t>{0,  5,  10, 14, 1,  6,  9,  13, 2,  12, 18, 11, 8,  4,
                                        15, 24, 37, 25, 20, 29, 21, 33, 28, 38, 17, 32, 34, 22,
                                        27, 7,  39, 3,  35, 16, 31, 26, 23, 36, 30, 19}));
}

// getUpdateFormatForPointwiseQueries maps every party of the query (tapir's query[List[String]]
// ("parties"), JsUpdateService.scala:518) to a wildcard: both parties' witnesses show.
TEST_F(TreeHandlersTest, EveryPartiesParameterReads) {
    const http::Response r = get(
        "/v2/updates/transaction-tree-by-offset/7?parties=" + alice + "&parties=" + bob, "dave");

    ASSERT_EQ(r.status, 200) << r.body;
    const json tree = json::parse(r.body).at("transaction");
    bool bob_witness = false;
    for (const auto& [id, e] : tree["eventsById"].items()) {
        const json& v = e.contains("CreatedTreeEvent") ? e["CreatedTreeEvent"]["value"]
                                                       : e["ExercisedTreeEvent"]["value"];
        for (const json& w : v["witnessParties"]) bob_witness = bob_witness || w == bob;
    }
    EXPECT_TRUE(bob_witness) << r.body;
}

// tapir 1.11.7 DecodeFailureHandler.scala:135-136 (a PathCapture's DecodeResult.Error: 400) and
// :195 ("Invalid value for: path parameter <name>"), with JsUpdateService.scala:517
// path[Long]("offset").
TEST_F(TreeHandlersTest, AnOffsetThatIsNoLongIsTapirsBadRequest) {
    for (const char* offset : {"abc", "1.5", "99999999999999999999"}) {
        const http::Response r = get(std::string("/v2/updates/transaction-tree-by-offset/") +
                                     offset + "?parties=" + alice);
        EXPECT_EQ(r.status, 400) << offset;
        EXPECT_EQ(r.content_type, "text/plain; charset=UTF-8") << offset;
        EXPECT_EQ(r.body, "Invalid value for: path parameter offset") << offset;
    }
}

// UpdateServiceRequestValidator.validateUpdateByOffset (validatePositive(offset, "offset")), then
// FormatValidator (no party: an empty filtersByParty), then the lookup's UPDATE_NOT_FOUND.
TEST_F(TreeHandlersTest, TreeByOffsetRefusesAsUpdateByOffset) {
    expect_error(get(by_offset(0, alice)), 400, "NON_POSITIVE_OFFSET",
                 "Offset 0 in offset is not a positive integer: the offset has to be a positive "
                 "integer (>0)");
    expect_error(get(by_offset(-3, alice)), 400, "NON_POSITIVE_OFFSET",
                 "Offset -3 in offset is not a positive integer: the offset has to be a positive "
                 "integer (>0)");
    expect_error(get("/v2/updates/transaction-tree-by-offset/2"), 400, "INVALID_ARGUMENT",
                 "The submitted request has invalid arguments: filtersByParty and "
                 "filtersForAnyParty cannot be empty simultaneously");

    const http::Response unseen = get(by_offset(3, alice));  // bob's mint
    ASSERT_EQ(unseen.status, 404) << unseen.body;
    const json e = json::parse(unseen.body);
    EXPECT_EQ(e["code"], "UPDATE_NOT_FOUND");
    EXPECT_EQ(e["resources"], json::array({json::array({"ErrorResource(OFFSET)", "3"})}));
    expect_error(get(by_offset(4800, alice)), 404, "UPDATE_NOT_FOUND",
                 "Update not found, or not visible.");
}

// RequiredClaims of getUpdateByOffset: ReadAs each party of the format (401 without a token, 403
// for another's party), before the request is validated.
TEST_F(TreeHandlersTest, TreeByOffsetNeedsReadAsEachParty) {
    expect_redacted(get(by_offset(2, bob), "alice"), 403, 7);
    expect_redacted(get(by_offset(0, alice), ""), 401, 16);
}

// ---- GET /v2/updates/transaction-tree-by-id/{update-id} ----

// JsUpdateService.scala:307-332: getUpdateById with the same pointwise format.
TEST_F(TreeHandlersTest, TreeByIdIsTreeByOffsetFoundByItsId) {
    const http::Response by_id =
        get("/v2/updates/transaction-tree-by-id/" + alice_pays_carol_id + "?parties=" + alice);
    const http::Response offset = get(by_offset(43, alice));

    ASSERT_EQ(by_id.status, 200) << by_id.body;
    EXPECT_EQ(by_id.body, offset.body);
}

// validateUpdateById (requireNonEmptyString, requireLedgerString, UpdateId.fromLedgerString), then
// UPDATE_NOT_FOUND with the UPDATE_ID resource.
TEST_F(TreeHandlersTest, TreeByIdRefusesAsUpdateById) {
    expect_error(get("/v2/updates/transaction-tree-by-id/xyz?parties=" + alice), 400,
                 "INVALID_ARGUMENT",
                 "The submitted request has invalid arguments: Failed to parse hex string: xyz");
    const http::Response unknown =
        get("/v2/updates/transaction-tree-by-id/1220aa?parties=" + alice);
    ASSERT_EQ(unknown.status, 404) << unknown.body;
    EXPECT_EQ(json::parse(unknown.body)["resources"],
              json::array({json::array({"ErrorResource(UPDATE_ID)", "1220aa"})}));
    expect_error(
        get("/v2/updates/transaction-tree-by-id/" + alice_mint_id + "?parties=" + bob, "bob"), 404,
        "UPDATE_NOT_FOUND", "Update not found, or not visible.");
    expect_redacted(get("/v2/updates/transaction-tree-by-id/" + alice_mint_id + "?parties=" + bob),
                    403, 7);
}

// ---- POST /v2/updates/trees ----

// JsUpdateService.scala:348-365 and :419-434: getUpdates' answers, each transaction converted to
// JsUpdateTree.TransactionTree, reassignments and checkpoints as they are (:621-626).
TEST_F(TreeHandlersTest, TreesIsUpdatesWithTransactionTrees) {
    json by_party = json::object();
    by_party[bob] = {{"cumulative", json::array()}};
    const json format = {{"includeTransactions",
                          {{"eventFormat", {{"filtersByParty", by_party}}},
                           {"transactionShape", "TRANSACTION_SHAPE_LEDGER_EFFECTS"}}},
                         {"includeReassignments", {{"filtersByParty", by_party}}}};
    const json request = {{"beginExclusive", 36}, {"updateFormat", format}};

    const http::Response trees = post("/v2/updates/trees", request, "bob");
    const http::Response updates = post("/v2/updates", request, "bob");

    ASSERT_EQ(trees.status, 200) << trees.body;
    const json t = json::parse(trees.body);
    const json u = json::parse(updates.body);
    ASSERT_EQ(t.size(), u.size());
    ASSERT_GE(t.size(), 4U);
    for (std::size_t i = 0; i < t.size(); ++i) {
        const json& tu = t[i]["update"];
        const json& uu = u[i]["update"];
        if (uu.contains("Transaction")) {
            ASSERT_TRUE(tu.contains("TransactionTree")) << i;
            EXPECT_EQ(tu["TransactionTree"]["value"]["offset"],
                      uu["Transaction"]["value"]["offset"]);
            EXPECT_EQ(tu["TransactionTree"]["value"]["eventsById"].size(),
                      uu["Transaction"]["value"]["events"].size());
        } else {
            EXPECT_EQ(tu, uu) << i;  // Reassignment, OffsetCheckpoint
        }
    }
    EXPECT_TRUE(t[1]["update"].contains("Reassignment"));  // offset 38
    EXPECT_TRUE(t.back()["update"].contains("OffsetCheckpoint"));
}

// JsUpdateServiceConverters.toUpdateFormat(filter, verbose, forTrees = true),
// JsUpdateService.scala:729-769: LEDGER_EFFECTS, and a WildcardFilter added to each party's
// filters that has none: a template filter no longer narrows the trees.
TEST_F(TreeHandlersTest, TheLegacyFilterReadsEveryTemplateForTrees) {
    json by_party = json::object();
    by_party[bob] = {
        {"cumulative", json::array({template_filter(
                           "#splice-wallet:Splice.Wallet.TransferOffer:TransferOffer")})}};
    const json request = {
        {"beginExclusive", 43}, {"endInclusive", 45}, {"filter", {{"filtersByParty", by_party}}}};

    const json trees = json::parse(post("/v2/updates/trees", request, "bob").body);
    const json flats = json::parse(post("/v2/updates", request, "bob").body);

    EXPECT_EQ(flats, json::array());  // no TransferOffer of bob's in 44-45
    ASSERT_EQ(trees.size(), 2U) << trees;
    EXPECT_EQ(trees[0]["update"]["TransactionTree"]["value"]["offset"], 44);
    EXPECT_EQ(trees[1]["update"]["TransactionTree"]["value"]["offset"], 45);
    // The transfer's exercise (node 0) is a tree event: LEDGER_EFFECTS.
    EXPECT_TRUE(trees[1]["update"]["TransactionTree"]["value"]["eventsById"]["0"].contains(
        "ExercisedTreeEvent"));
}

// toGetUpdatesRequest passes an updateFormat as it is (:397-403): in the ACS_DELTA shape an
// archive is no tree event (toTransactionTree's collect has no case for it,
// LegacyDTOs.scala:92-102).
TEST_F(TreeHandlersTest, AnAcsDeltaTreeLeavesOutArchives) {
    const json request = {{"beginExclusive", 42},
                          {"endInclusive", 43},
                          {"updateFormat",
                           {{"includeTransactions",
                             {{"eventFormat", event_format(alice)},
                              {"transactionShape", "TRANSACTION_SHAPE_ACS_DELTA"}}}}}};

    const json trees = json::parse(post("/v2/updates/trees", request).body);
    const json updates = json::parse(post("/v2/updates", request).body);

    ASSERT_EQ(trees.size(), 1U) << trees;
    const json& tree = trees[0]["update"]["TransactionTree"]["value"];
    const json& events = updates[0]["update"]["Transaction"]["value"]["events"];
    std::size_t created = 0;
    for (const json& e : events) created += e.contains("CreatedEvent") ? 1 : 0;
    EXPECT_LT(created, events.size());  // the archive of alice-coin-3
    EXPECT_EQ(tree["eventsById"].size(), created);
}

TEST_F(TreeHandlersTest, TreesValidatesAsUpdates) {
    expect_error(post("/v2/updates/trees", {{"beginExclusive", 0}}), 400, "INVALID_ARGUMENT",
                 "The submitted request has invalid arguments: Either filter/verbose or "
                 "update_format is required. Please use either backwards compatible arguments "
                 "(filter and verbose) or update_format.");
    const http::Response limit = call("POST", "/v2/updates/trees?limit=x", "{}");
    EXPECT_EQ(limit.status, 400);
    EXPECT_EQ(limit.body, "Invalid value for: query parameter limit");
}

// ---- GET /v2/state/active-contracts-page ----

// The deprecated GET reads the POST's GetActiveContractsPageRequest body and runs its logic
// (openapi.yaml: both operations take the same requestBody and answer
// JsGetActiveContractsPageResponse).
TEST_F(TreeHandlersTest, TheDeprecatedActiveContractsPageGetIsThePost) {
    const json request = {{"maxPageSize", 2}, {"eventFormat", event_format(alice)}};

    const http::Response got = call("GET", "/v2/state/active-contracts-page", request.dump());
    const http::Response posted = post("/v2/state/active-contracts-page", request);

    ASSERT_EQ(got.status, 200) << got.body;
    EXPECT_EQ(got.body, posted.body);
    expect_redacted(call("GET", "/v2/state/active-contracts-page", request.dump(), "bob"), 403, 7);
}

// ---- release lines ----

// Canton 3.6 disables them (ApiDeprecation; the area's deprecated table); its flags re-enable them.
TEST(TreeReleaseTest, Canton36DisablesThemUnlessReEnabled) {
    const auto store =
        seed::load_seed_file(std::string(CANTONLITE_SOURCE_DIR) + "/config/default-network.json");
    const auto disabled = app::make_router(*store, ApiProfile{.release = Release::splice_0_9});
    const auto enabled = app::make_router(
        *store, ApiProfile{.release = Release::splice_0_9,
                           .deprecated = {
                               .endpoints_34 = true, .parameters_34 = true, .endpoints_35 = true}});
    const auto token = app::make_token(store->network(), "alice", auth::wall_clock_seconds(), 60);
    const auto ask = [&](http::Router& router, const std::string& method, const std::string& target,
                         const std::string& body) {
        http::Request r{.method = method, .target = target, .body = body};
        r.headers.push_back({"Authorization", "Bearer " + token});
        return router.handle(r);
    };
    const std::string tree = "/v2/updates/transaction-tree-by-offset/2?parties=" + alice;
    const std::string page = json({{"eventFormat", event_format(alice)}}).dump();

    EXPECT_EQ(ask(*disabled, "GET", tree, "").status, 400);
    EXPECT_EQ(ask(*disabled, "GET", "/v2/state/active-contracts-page", page).status, 400);
    EXPECT_EQ(ask(*enabled, "GET", tree, "").status, 200);
    EXPECT_EQ(ask(*enabled, "GET", "/v2/state/active-contracts-page", page).status, 200);
}

}  // namespace
}  // namespace cantonlite::areas::ledger::tree_handlers_test
