// The UpdateService over the default network: update-by-offset, update-by-id, POST /v2/updates
// and its pages (JsUpdateService, UpdateServiceRequestValidator; docs/default-network.md).

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cantonlite/areas/ledger/ledger_handlers.hpp"
#include "cantonlite/http/api_error.hpp"
#include "cantonlite/seed/seed_loader.hpp"
#include "ledger_test_support.hpp"

namespace cantonlite::areas::ledger::update_handlers_test {
namespace {

using nlohmann::json;

const std::string alice_mint_id =
    "122006efd6df3bff416c5ce8b08dac1517c070486eccbc112fffb12652a542c73ca8";

json transactions(const std::string& party, const char* shape = "TRANSACTION_SHAPE_ACS_DELTA") {
    return {{"includeTransactions",
             {{"eventFormat", event_format(party)}, {"transactionShape", shape}}}};
}

json everything(const std::string& party) {
    json f = transactions(party);
    f["includeReassignments"] = event_format(party);
    return f;
}

class UpdateHandlersTest : public LedgerSuite {
  protected:
    static void SetUpTestSuite() { serve_default_network(); }
};

// ---- update-by-offset ----

TEST_F(UpdateHandlersTest, UpdateByOffsetWrapsTheTransactionInTheUpdateOneOf) {
    const http::Response r = post("/v2/updates/update-by-offset",
                                  {{"offset", 2}, {"updateFormat", transactions(alice)}});

    ASSERT_EQ(r.status, 200) << r.body;
    const json tx = json::parse(r.body)["update"]["Transaction"]["value"];
    EXPECT_EQ(tx["offset"], 2);
    EXPECT_EQ(tx["updateId"], alice_mint_id);
    EXPECT_EQ(tx["events"].size(), 1U);
}

TEST_F(UpdateHandlersTest, UpdateByOffsetEqualsTheTransactionOfTransactionByOffset) {
    for (const char* shape : {"TRANSACTION_SHAPE_ACS_DELTA", "TRANSACTION_SHAPE_LEDGER_EFFECTS"}) {
        for (int offset : {1, 2, 7, 10, 43}) {
            const http::Response legacy =
                post("/v2/updates/transaction-by-offset",
                     {{"offset", offset},
                      {"transactionFormat",
                       {{"eventFormat", event_format(alice)}, {"transactionShape", shape}}}});
            const http::Response update =
                post("/v2/updates/update-by-offset",
                     {{"offset", offset}, {"updateFormat", transactions(alice, shape)}});

            ASSERT_EQ(legacy.status, update.status) << offset << shape;
            if (legacy.status != 200) continue;
            // The same bytes: the transaction object is spliced from one encoder.
            const std::string inner = legacy.body.substr(15, legacy.body.size() - 16);
            EXPECT_EQ(update.body, R"({"update":{"Transaction":{"value":)" + inner + "}}}")
                << offset << shape;
        }
    }
}

TEST_F(UpdateHandlersTest, AReassignmentIsAnUpdateWithReassignmentsAsked) {
    const http::Response r = post("/v2/updates/update-by-offset",
                                  {{"offset", 38}, {"updateFormat", everything(bob)}}, "bob");

    ASSERT_EQ(r.status, 200) << r.body;
    const json re = json::parse(r.body)["update"]["Reassignment"]["value"];
    EXPECT_EQ(re["offset"], 38);
    const json unassigned = re["events"][0]["JsUnassignedEvent"]["value"];
    EXPECT_EQ(unassigned["reassignmentCounter"], 1);
    EXPECT_EQ(unassigned["witnessParties"], json::array({bob}));
    EXPECT_EQ(re["synchronizerId"], unassigned["source"]);
}

TEST_F(UpdateHandlersTest, AnAssignmentCarriesTheCreatedEvent) {
    const http::Response r = post("/v2/updates/update-by-offset",
                                  {{"offset", 39}, {"updateFormat", everything(bob)}}, "bob");

    ASSERT_EQ(r.status, 200) << r.body;
    const json a =
        json::parse(r.body)["update"]["Reassignment"]["value"]["events"][0]["JsAssignmentEvent"];
    EXPECT_EQ(a["reassignmentCounter"], 1);
    EXPECT_EQ(a["createdEvent"]["offset"], 39);
    EXPECT_EQ(a["createdEvent"]["contractId"],
              "00a4d81dd06864f30ae1fec3e39c7120554a2d706c8e784d3eb7f1f6f1b05a8693ca101220855f99471b"
              "ee15fbff3b6ed2fa765661143dce7aee771adc85f89fe8d64c8442");
}

TEST_F(UpdateHandlersTest, AReassignmentIsNotFoundWithoutReassignmentsAsked) {
    const http::Response r = post("/v2/updates/update-by-offset",
                                  {{"offset", 38}, {"updateFormat", transactions(bob)}}, "bob");

    expect_error(r, 404, "UPDATE_NOT_FOUND", "Update not found, or not visible.");
    EXPECT_EQ(json::parse(r.body)["resources"],
              json::array({json::array({"ErrorResource(OFFSET)", "38"})}));
}

TEST_F(UpdateHandlersTest, AMigrationIsNoLedgerApiUpdate) {
    const http::Response r =
        post("/v2/updates/update-by-offset", {{"offset", 32}, {"updateFormat", everything(alice)}});

    expect_error(r, 404, "UPDATE_NOT_FOUND", "Update not found, or not visible.");
}

TEST_F(UpdateHandlersTest, AnEmptyUpdateFormatSeesNothing) {
    const http::Response r =
        post("/v2/updates/update-by-offset", {{"offset", 2}, {"updateFormat", json::object()}});

    expect_error(r, 404, "UPDATE_NOT_FOUND", "Update not found, or not visible.");
}

class UpdateByOffsetErrors : public UpdateHandlersTest,
                             public testing::WithParamInterface<ErrorCase> {};

TEST_P(UpdateByOffsetErrors, AnswerCantonsError) {
    const ErrorCase& c = GetParam();

    const http::Response r = post("/v2/updates/update-by-offset", c.body);

    expect_error(r, c.status, c.code, c.cause);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, UpdateByOffsetErrors,
    testing::Values(
        ErrorCase{"ZeroOffset",
                  {{"offset", 0}, {"updateFormat", transactions(alice)}},
                  400,
                  "NON_POSITIVE_OFFSET",
                  "Offset 0 in offset is not a positive integer: the offset has to be a positive "
                  "integer (>0)"},
        ErrorCase{"NoUpdateFormat",
                  {{"offset", 2}},
                  400,
                  "MISSING_FIELD",
                  "The submitted command is missing a mandatory field: update_format"},
        ErrorCase{"NoShape",
                  {{"offset", 2},
                   {"updateFormat",
                    {{"includeTransactions",
                      {{"eventFormat", event_format(alice)},
                       {"transactionShape", "TRANSACTION_SHAPE_UNSPECIFIED"}}}}}},
                  400,
                  "MISSING_FIELD",
                  "The submitted command is missing a mandatory field: transaction_shape"},
        ErrorCase{"EmptyReassignmentFilters",
                  {{"offset", 2}, {"updateFormat", {{"includeReassignments", json::object()}}}},
                  400,
                  "INVALID_ARGUMENT",
                  "The submitted request has invalid arguments: filtersByParty and "
                  "filtersForAnyParty cannot be empty simultaneously"},
        ErrorCase{"BeyondTheEnd",
                  {{"offset", 99}, {"updateFormat", transactions(alice)}},
                  404,
                  "UPDATE_NOT_FOUND",
                  "Update not found, or not visible."},
        ErrorCase{"BadBody", json::array(), 400, "", ""}),
    [](const auto& info) { return std::string(info.param.name); });

TEST_F(UpdateHandlersTest, TopologyPartiesMustBeDamlLfParties) {
    const json format = {{"includeTopologyEvents",
                          {{"includeParticipantAuthorizationEvents", {{"parties", {"a!"}}}}}}};

    const http::Response r =
        post("/v2/updates/update-by-offset", {{"offset", 2}, {"updateFormat", format}}, "auditor");

    expect_error(r, 400, "INVALID_FIELD",
                 "The submitted command has a field with invalid value: Invalid field parties: "
                 "non expected character 0x21 in Daml-LF Party \"a!\"");
}

TEST_F(UpdateHandlersTest, AMalformedBodyIsPlainText) {
    const http::Response r = call("POST", "/v2/updates/update-by-offset", R"({"offset":"x"})");

    EXPECT_EQ(r.status, 400);
    EXPECT_EQ(r.body, "Invalid value for: body (Long at 'offset')");
}

// ---- update-by-id ----

TEST_F(UpdateHandlersTest, UpdateByIdEqualsUpdateByOffset) {
    const http::Response by_id =
        post("/v2/updates/update-by-id",
             {{"updateId", alice_mint_id}, {"updateFormat", everything(alice)}});
    const http::Response by_offset =
        post("/v2/updates/update-by-offset", {{"offset", 2}, {"updateFormat", everything(alice)}});

    ASSERT_EQ(by_id.status, 200) << by_id.body;
    EXPECT_EQ(by_id.body, by_offset.body);
}

TEST_F(UpdateHandlersTest, AnUnknownUpdateIdIsNotFoundWithItsId) {
    const std::string id = "1220" + std::string(64, 'a');

    const http::Response r =
        post("/v2/updates/update-by-id", {{"updateId", id}, {"updateFormat", everything(alice)}});

    expect_error(r, 404, "UPDATE_NOT_FOUND", "Update not found, or not visible.");
    EXPECT_EQ(json::parse(r.body)["resources"],
              json::array({json::array({"ErrorResource(UPDATE_ID)", id})}));
}

TEST_F(UpdateHandlersTest, UpdateByIdValidatesTheId) {
    expect_error(post("/v2/updates/update-by-id", {{"updateFormat", everything(alice)}}), 400,
                 "MISSING_FIELD", "The submitted command is missing a mandatory field: update_id");
    expect_error(post("/v2/updates/update-by-id",
                      {{"updateId", "xyz"}, {"updateFormat", everything(alice)}}),
                 400, "INVALID_ARGUMENT",
                 "The submitted request has invalid arguments: Failed to parse hex string: xyz");
}

// ---- POST /v2/updates ----

TEST_F(UpdateHandlersTest, TheListHasTheUpdatesOfTheRangeThePartySees) {
    const http::Response r =
        post("/v2/updates",
             {{"beginExclusive", 0}, {"endInclusive", 12}, {"updateFormat", everything(alice)}});

    ASSERT_EQ(r.status, 200) << r.body;
    std::vector<int> offsets;
    for (const json& u : json::parse(r.body))
        offsets.push_back(u["update"]["Transaction"]["value"]["offset"]);
    EXPECT_EQ(offsets, (std::vector<int>{1, 2, 6, 7, 11, 12}));  // her wallet install at 1
}

TEST_F(UpdateHandlersTest, TheListWithoutAnEndReadsToTheLedgerEnd) {
    const http::Response r =
        post("/v2/updates", {{"beginExclusive", 40}, {"updateFormat", everything(bob)}}, "bob");

    ASSERT_EQ(r.status, 200) << r.body;
    const json list = json::parse(r.body);
    ASSERT_GE(list.size(), 2U);
    EXPECT_EQ(list[list.size() - 2]["update"]["Transaction"]["value"]["offset"], 47);
}

// ---- offset checkpoints ----

// A tailing stream (no endInclusive) gets an OffsetCheckpoint once it has caught up with the
// ledger end (IndexServiceImpl.checkpointFlow and injectCheckpoints, over a checkpoint cache that
// is always current here): the offset, and the record time of each synchronizer's latest update.
const json checkpoint_at_47 = {
    {"update",
     {{"OffsetCheckpoint",
       {{"value",
         {{"offset", 47},
          {"synchronizerTimes",
           {{{"synchronizerId",
              "global-domain::"
              "1220b1431ef217342db44d516bb9befde802be7d8899637d290895fa58880f19accc"},
             {"recordTime", "2025-01-19T23:55:00Z"}},
            {{"synchronizerId",
              "private-synchronizer::"
              "12200ed66a9741e7b8a2a74d75fc02fd1d60e93d443c1cc2fda28161897f8be14dfe"},
             {"recordTime", "2025-01-12T09:00:01Z"}}}}}}}}}}};

TEST_F(UpdateHandlersTest, ATailingListEndsWithAnOffsetCheckpointAtTheLedgerEnd) {
    const http::Response r =
        post("/v2/updates", {{"beginExclusive", 40}, {"updateFormat", everything(bob)}}, "bob");

    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(json::parse(r.body).back(), checkpoint_at_47);
}

TEST_F(UpdateHandlersTest, ATailingListFromTheLedgerEndIsTheCheckpointAlone) {
    const http::Response r =
        post("/v2/updates", {{"beginExclusive", 47}, {"updateFormat", everything(alice)}});

    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(json::parse(r.body), json::array({checkpoint_at_47}));
}

// CheckpointInTailingStreamsIT.TXServeTailingStreamCheckpointEmpty: other parties' offsets count.
TEST_F(UpdateHandlersTest, ATailingListOfNothingVisibleStillHasTheCheckpoint) {
    const http::Response r =
        post("/v2/updates", {{"beginExclusive", 45}, {"updateFormat", everything(carol)}}, "carol");

    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(json::parse(r.body), json::array({checkpoint_at_47}));
}

TEST_F(UpdateHandlersTest, ABoundedListHasNoCheckpoint) {
    const http::Response r = post(
        "/v2/updates",
        {{"beginExclusive", 40}, {"endInclusive", 47}, {"updateFormat", everything(bob)}}, "bob");

    ASSERT_EQ(r.status, 200) << r.body;
    for (const json& u : json::parse(r.body))
        EXPECT_FALSE(u["update"].contains("OffsetCheckpoint"));
}

// The list takes the stream's first `limit` elements: the checkpoint is one of them.
TEST_F(UpdateHandlersTest, TheCheckpointCountsTowardsTheLimit) {
    const std::string body = json{{"beginExclusive", 46}, {"updateFormat", everything(bob)}}.dump();

    const http::Response one = call("POST", "/v2/updates?limit=1", body, "bob");
    const http::Response two = call("POST", "/v2/updates?limit=2", body, "bob");

    ASSERT_EQ(one.status, 200) << one.body;
    ASSERT_EQ(json::parse(one.body).size(), 1U);
    EXPECT_TRUE(json::parse(one.body)[0]["update"].contains("Transaction"));
    ASSERT_EQ(two.status, 200) << two.body;
    EXPECT_EQ(json::parse(two.body), json::array({json::parse(one.body)[0], checkpoint_at_47}));
}

TEST_F(UpdateHandlersTest, TheLimitParameterCutsTheList) {
    const http::Response r =
        call("POST", "/v2/updates?limit=2",
             json{{"beginExclusive", 0}, {"updateFormat", everything(alice)}}.dump());

    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(json::parse(r.body).size(), 2U);
}

TEST_F(UpdateHandlersTest, DescendingOrderReadsFromTheEnd) {
    const http::Response r = post("/v2/updates", {{"beginExclusive", 0},
                                                  {"endInclusive", 12},
                                                  {"descendingOrder", true},
                                                  {"updateFormat", everything(alice)}});

    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(json::parse(r.body)[0]["update"]["Transaction"]["value"]["offset"], 12);
}

TEST_F(UpdateHandlersTest, TheLegacyFilterReadsTransactionsAndReassignments) {
    json filter = json::object();
    filter["filtersByParty"][bob] = {{"cumulative", json::array()}};

    const http::Response r = post(
        "/v2/updates", {{"beginExclusive", 37}, {"endInclusive", 39}, {"filter", filter}}, "bob");

    ASSERT_EQ(r.status, 200) << r.body;
    const json list = json::parse(r.body);
    ASSERT_EQ(list.size(), 2U);
    EXPECT_TRUE(list[0]["update"].contains("Reassignment"));
}

TEST_F(UpdateHandlersTest, ABadLimitIsAQueryParameterDecodeError) {
    const http::Response r = call("POST", "/v2/updates?limit=ten", "{}");

    EXPECT_EQ(r.status, 400);
    EXPECT_EQ(r.body, "Invalid value for: query parameter limit");
}

// tapir's Codec[Long] is Long.parseLong: a sign, then digits and nothing else; no white space of
// any kind before or after, and nothing beyond 64 bits.
TEST_F(UpdateHandlersTest, ALimitIsReadAsJavaReadsALong) {
    for (const std::string limit :
         {"%0A2", "%0B2", "%0C2", "%0D2", "+2", "2%20", "-", "", "9223372036854775808"}) {
        const http::Response r = call("POST", "/v2/updates?limit=" + limit, "{}");
        EXPECT_EQ(r.status, 400) << limit;
        EXPECT_EQ(r.body, "Invalid value for: query parameter limit") << limit;
    }
    json filter = json::object();
    filter["filtersByParty"][bob] = {{"cumulative", json::array()}};
    const http::Response plus =
        post("/v2/updates?limit=%2B1", {{"beginExclusive", 0}, {"filter", filter}}, "bob");
    ASSERT_EQ(plus.status, 200) << plus.body;
    EXPECT_EQ(json::parse(plus.body).size(), 1U);
}

class UpdatesListErrors : public UpdateHandlersTest,
                          public testing::WithParamInterface<ErrorCase> {};

TEST_P(UpdatesListErrors, AnswerCantonsError) {
    const ErrorCase& c = GetParam();

    const http::Response r = post("/v2/updates", c.body);

    expect_error(r, c.status, c.code, c.cause);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, UpdatesListErrors,
    testing::Values(
        ErrorCase{"NeitherFormatNorFilter",
                  {{"beginExclusive", 0}},
                  400,
                  "INVALID_ARGUMENT",
                  "The submitted request has invalid arguments: Either filter/verbose or "
                  "update_format is required. Please use either backwards compatible arguments "
                  "(filter and verbose) or update_format."},
        ErrorCase{"FormatAndVerbose",
                  {{"beginExclusive", 0}, {"verbose", true}, {"updateFormat", everything(alice)}},
                  400,
                  "INVALID_ARGUMENT",
                  "The submitted request has invalid arguments: Both update_format and verbose "
                  "are set. Please use either backwards compatible arguments (filter and verbose) "
                  "or update_format, but not both."},
        ErrorCase{"NegativeBegin",
                  {{"beginExclusive", -1}, {"updateFormat", everything(alice)}},
                  400,
                  "NEGATIVE_OFFSET",
                  "Offset -1 in begin_exclusive is a negative integer: the offset in "
                  "begin_exclusive field has to be a non-negative integer (>=0)"},
        ErrorCase{"BeginAfterTheEnd",
                  {{"beginExclusive", 48}, {"updateFormat", everything(alice)}},
                  400,
                  "OFFSET_AFTER_LEDGER_END",
                  "Begin offset (48) is after ledger end (47)"},
        ErrorCase{
            "EndAfterTheEnd",
            {{"beginExclusive", 0}, {"endInclusive", 50}, {"updateFormat", everything(alice)}},
            400,
            "OFFSET_AFTER_LEDGER_END",
            "End offset (50) is after ledger end (47)"},
        ErrorCase{
            "EndBeforeBegin",
            {{"beginExclusive", 10}, {"endInclusive", 5}, {"updateFormat", everything(alice)}},
            400,
            "OFFSET_OUT_OF_RANGE",
            "End offset 5 is before begin offset 10."},
        ErrorCase{
            "DescendingWithoutEnd",
            {{"beginExclusive", 0}, {"descendingOrder", true}, {"updateFormat", everything(alice)}},
            400,
            "DESCENDING_ORDER_MISSING_END",
            "end_inclusive is not provided when descending_order is true"}),
    [](const auto& info) { return std::string(info.param.name); });

// A limit above the node limit is capped, never an error by itself (list_limit_test.cpp has the
// 413 of a longer ledger).
TEST_F(UpdateHandlersTest, ALimitAboveTheNodeLimitIsCapped) {
    const json any = {{"includeTransactions",
                       {{"eventFormat", {{"filtersForAnyParty", {{"cumulative", json::array()}}}}},
                        {"transactionShape", "TRANSACTION_SHAPE_LEDGER_EFFECTS"}}}};

    const http::Response r =
        call("POST", "/v2/updates?limit=500",
             json{{"beginExclusive", 0}, {"updateFormat", any}}.dump(), "auditor");

    ASSERT_EQ(r.status, 200) << r.body;
    // 47 less a migration and three reassignments, and the offset checkpoint
    EXPECT_EQ(json::parse(r.body).size(), 44U);
}

// ---- get-updates-page ----

// alice's updates up to 12: 1, 2, 6, 7, 11, 12. A full page ends just before the next one's first
// update (IndexServiceImpl.buildAscendingPage).
TEST_F(UpdateHandlersTest, PagesWalkTheRangeWithTokens) {
    json body = {
        {"maxPageSize", 2}, {"updateFormat", everything(alice)}, {"endOffsetInclusive", 12}};
    const http::Response first = post("/v2/updates/get-updates-page", body);
    ASSERT_EQ(first.status, 200) << first.body;
    const json p1 = json::parse(first.body);
    ASSERT_EQ(p1["updates"].size(), 2U);
    EXPECT_EQ(p1["lowestPageOffsetExclusive"], 0);
    EXPECT_EQ(p1["highestPageOffsetInclusive"], 5);
    ASSERT_TRUE(p1["nextPageToken"].is_string());

    body["pageToken"] = p1["nextPageToken"];
    const json p2 = json::parse(post("/v2/updates/get-updates-page", body).body);
    body["pageToken"] = p2["nextPageToken"];
    const json p3 = json::parse(post("/v2/updates/get-updates-page", body).body);

    EXPECT_EQ(p2["lowestPageOffsetExclusive"], 5);
    EXPECT_EQ(p2["updates"][0]["update"]["Transaction"]["value"]["offset"], 6);
    EXPECT_EQ(p2["highestPageOffsetInclusive"], 10);
    EXPECT_EQ(p3["updates"].size(), 2U);
    EXPECT_EQ(p3["updates"][1]["update"]["Transaction"]["value"]["offset"], 12);
    EXPECT_EQ(p3["highestPageOffsetInclusive"], 12);
    EXPECT_TRUE(p3["nextPageToken"].is_null());
}

// "Tokens ... must be ... used with the same EventFormat settings, the same begin and end".
TEST_F(UpdateHandlersTest, APageTokenIsBoundToItsUpdateFormat) {
    json body = {
        {"maxPageSize", 2}, {"updateFormat", everything(alice)}, {"endOffsetInclusive", 12}};
    const json p1 = json::parse(post("/v2/updates/get-updates-page", body).body);
    ASSERT_TRUE(p1["nextPageToken"].is_string());
    body["pageToken"] = p1["nextPageToken"];
    EXPECT_EQ(post("/v2/updates/get-updates-page", body).status, 200);

    body["updateFormat"] = transactions(alice);
    const http::Response other = post("/v2/updates/get-updates-page", body);
    EXPECT_EQ(other.status, 400);
    EXPECT_EQ(json::parse(other.body)["code"], "INVALID_UPDATES_PAGE_TOKEN");
    EXPECT_TRUE(json::parse(other.body)["cause"].get<std::string>().ends_with(
        "The request does not match the token"));
}

TEST_F(UpdateHandlersTest, TheLastPageWithoutAnEndTailsTheLedger) {
    const http::Response r =
        post("/v2/updates/get-updates-page",
             {{"beginOffsetExclusive", 40}, {"updateFormat", everything(alice)}});

    ASSERT_EQ(r.status, 200) << r.body;
    const json page = json::parse(r.body);
    EXPECT_EQ(page["highestPageOffsetInclusive"], 47);
    EXPECT_TRUE(page["nextPageToken"].is_string());
}

TEST_F(UpdateHandlersTest, DescendingPagesStartAtTheEnd) {
    const http::Response r =
        post("/v2/updates/get-updates-page",
             {{"maxPageSize", 1}, {"descendingOrder", true}, {"updateFormat", everything(alice)}});

    ASSERT_EQ(r.status, 200) << r.body;
    const json page = json::parse(r.body);
    EXPECT_EQ(page["updates"][0]["update"]["Transaction"]["value"]["offset"], 43);
    EXPECT_EQ(page["highestPageOffsetInclusive"], 47);
}

TEST_F(UpdateHandlersTest, PageErrors) {
    expect_error(post("/v2/updates/get-updates-page", json::object()), 400, "MISSING_FIELD",
                 "The submitted command is missing a mandatory field: update_format");
    expect_error(post("/v2/updates/get-updates-page",
                      {{"maxPageSize", 0}, {"updateFormat", everything(alice)}}),
                 400, "INVALID_ARGUMENT",
                 "The submitted request has invalid arguments: Requested page size must be "
                 "positive, but got 0");
    expect_error(post("/v2/updates/get-updates-page",
                      {{"maxPageSize", 2001}, {"updateFormat", everything(alice)}}),
                 400, "INVALID_ARGUMENT",
                 "The submitted request has invalid arguments: Requested page size must not "
                 "exceed 2000, but got 2001");
    expect_error(post("/v2/updates/get-updates-page", {{"beginOffsetExclusive", 9},
                                                       {"endOffsetInclusive", 5},
                                                       {"updateFormat", everything(alice)}}),
                 400, "INVALID_ARGUMENT",
                 "The submitted request has invalid arguments: beginOffsetExclusive is after "
                 "endOffsetInclusive");
    EXPECT_EQ(post("/v2/updates/get-updates-page",
                   {{"pageToken", "bm9wZQ=="}, {"updateFormat", everything(alice)}})
                  .status,
              400);
}

// ---- Canton 3.6 ----

// The handlers as the release switch will call them for splice-0.9.
http::Response as_canton_36(const store::LedgerStore& store, const std::string& token,
                            const std::string& target, const json& body) {
    http::Request request{.method = "POST", .target = target, .body = body.dump()};
    request.headers.push_back({"Authorization", "Bearer " + token});
    const http::PathParams params;
    const http::RequestContext ctx{.request = request, .params = params};
    const LedgerAuth ledger_auth(store.network());
    const RouteAuth auth(ledger_auth, Claims::read_as);
    if (target == "/v2/updates")
        return post_updates(store, auth, ctx, ApiProfile{.release = Release::splice_0_9});
    return post_updates_update_by_offset(store, auth, ctx,
                                         ApiProfile{.release = Release::splice_0_9});
}

TEST_F(UpdateHandlersTest, Canton36AppendsTheTransactionHash) {
    const http::Response r = as_canton_36(*store_, token("alice"), "/v2/updates/update-by-offset",
                                          {{"offset", 2}, {"updateFormat", transactions(alice)}});

    ASSERT_EQ(r.status, 200) << r.body;
    const nlohmann::ordered_json tx =
        nlohmann::ordered_json::parse(r.body)["update"]["Transaction"]["value"];
    EXPECT_EQ(tx.back(), nullptr);
    EXPECT_EQ((--tx.end()).key(), "transactionHash");
}

TEST_F(UpdateHandlersTest, Canton36RefusesTheLegacyFilter) {
    json filter = json::object();
    filter["filtersByParty"][alice] = {{"cumulative", json::array()}};

    try {
        (void)as_canton_36(*store_, token("alice"), "/v2/updates",
                           {{"beginExclusive", 0}, {"filter", filter}});
        FAIL() << "no error";
    } catch (const http::ApiError& e) {
        EXPECT_EQ(e.code(), "DEPRECATED_API_DISABLED");
        EXPECT_EQ(e.kind(), http::ErrorKind::failed_precondition);
        EXPECT_TRUE(std::string(e.what()).starts_with(
            "The fields filter/verbose of the /v2/updates requests was deprecated in Canton 3.4"));
    }
}

// ---- auth ----

struct Route {
    const char* name;
    const char* target;
    json body;
};

class UpdateRoutesAuth : public UpdateHandlersTest, public testing::WithParamInterface<Route> {};

TEST_P(UpdateRoutesAuth, FollowTheAuthMatrix) {
    const Route& route = GetParam();
    const std::string body = route.body.dump();

    expect_redacted(call("POST", route.target, body, ""), 401, 16);
    http::Request unknown{.method = "POST", .target = route.target, .body = body};
    unknown.headers.push_back({"Authorization", "Bearer " + forged_user_token("mallory")});
    expect_redacted(router_->handle(unknown), 403, 7, {{"ledger_api_error", "invalid token"}});
    expect_redacted(call("POST", route.target, body, "carol"), 403, 7);  // carol reads no alice
    EXPECT_NE(call("POST", route.target, body, "dave").status, 403);     // read as alice
    EXPECT_NE(call("POST", route.target, body, "auditor").status, 403);  // CanReadAsAnyParty
}

INSTANTIATE_TEST_SUITE_P(
    Routes, UpdateRoutesAuth,
    testing::Values(Route{"UpdateByOffset",
                          "/v2/updates/update-by-offset",
                          {{"offset", 2}, {"updateFormat", everything(alice)}}},
                    Route{"UpdateById",
                          "/v2/updates/update-by-id",
                          {{"updateId", alice_mint_id}, {"updateFormat", everything(alice)}}},
                    Route{"Updates",
                          "/v2/updates",
                          {{"beginExclusive", 0}, {"updateFormat", everything(alice)}}},
                    Route{"UpdatesPage",
                          "/v2/updates/get-updates-page",
                          {{"updateFormat", everything(alice)}}}),
    [](const auto& info) { return std::string(info.param.name); });

TEST_F(UpdateHandlersTest, AnyPartyFormatsNeedCanReadAsAnyParty) {
    const json any = {{"includeReassignments", {{"filtersForAnyParty", json::object()}}}};

    expect_redacted(post("/v2/updates/update-by-offset", {{"offset", 38}, {"updateFormat", any}}),
                    403, 7);
    EXPECT_EQ(
        post("/v2/updates/update-by-offset", {{"offset", 38}, {"updateFormat", any}}, "auditor")
            .status,
        200);
}

}  // namespace
}  // namespace cantonlite::areas::ledger::update_handlers_test
