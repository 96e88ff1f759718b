// The StateService over the default network: the ledger end, the ACS list and its pages
// (JsStateService, ApiStateService; docs/default-network.md), and the ACS against the updates.

#include <set>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cantonlite/areas/ledger/ledger_handlers.hpp"
#include "cantonlite/http/api_error.hpp"
#include "cantonlite/seed/seed_loader.hpp"
#include "ledger_test_support.hpp"

namespace cantonlite::areas::ledger::state_handlers_test {
namespace {

using nlohmann::json;

const std::string carol_counter =
    "0075029927c92bd55d15920f9a2419389a45fdb8affc965e56178ecd18e915d233ca10122019fd7f4ccab122b450"
    "b675338868480ee6267fd2dbef43b24a2413765fc9e6f5";
const std::string accepted_rent =
    "00a4d81dd06864f30ae1fec3e39c7120554a2d706c8e784d3eb7f1f6f1b05a8693ca101220855f99471bee15fbff"
    "3b6ed2fa765661143dce7aee771adc85f89fe8d64c8442";

std::string contract_id_of(const json& entry) {
    const json& e = entry["contractEntry"];
    if (e.contains("JsActiveContract")) return e["JsActiveContract"]["createdEvent"]["contractId"];
    return e["JsIncompleteUnassigned"]["createdEvent"]["contractId"];
}

class StateHandlersTest : public LedgerSuite {
  protected:
    static void SetUpTestSuite() { serve_default_network(); }
    static std::set<std::string> acs(const std::string& party, const std::string& user,
                                     std::int64_t at) {
        const http::Response r =
            post("/v2/state/active-contracts",
                 {{"activeAtOffset", at}, {"eventFormat", event_format(party)}}, user);
        EXPECT_EQ(r.status, 200) << r.body;
        std::set<std::string> ids;
        for (const json& entry : json::parse(r.body)) ids.insert(contract_id_of(entry));
        return ids;
    }
};

// ---- ledger end ----

TEST_F(StateHandlersTest, TheLedgerEndIsTheLastOffset) {
    const http::Response r = call("GET", "/v2/state/ledger-end", "");

    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(json::parse(r.body), json({{"offset", 47}}));
}

TEST_F(StateHandlersTest, TheLedgerEndNeedsAnyValidUserToken) {
    expect_redacted(call("GET", "/v2/state/ledger-end", "", ""), 401, 16);
    EXPECT_EQ(call("GET", "/v2/state/ledger-end", "", "carol").status, 200);
    http::Request unknown{.method = "GET", .target = "/v2/state/ledger-end"};
    unknown.headers.push_back({"Authorization", "Bearer " + forged_user_token("mallory")});
    expect_redacted(router_->handle(unknown), 403, 7, {{"ledger_api_error", "invalid token"}});
}

// ---- active contracts ----

TEST_F(StateHandlersTest, TheAcsListsActiveContractsWithTheirSynchronizer) {
    const http::Response r = post("/v2/state/active-contracts",
                                  {{"activeAtOffset", 45}, {"eventFormat", event_format(alice)}});

    ASSERT_EQ(r.status, 200) << r.body;
    const json list = json::parse(r.body);
    ASSERT_FALSE(list.empty());
    const json first = list[0];
    EXPECT_EQ(first["workflowId"], "");
    EXPECT_TRUE(first["streamContinuationToken"].is_string());
    const json active = first["contractEntry"]["JsActiveContract"];
    EXPECT_EQ(active["reassignmentCounter"], 0);
    EXPECT_EQ(active["createdEvent"]["witnessParties"], json::array({alice}));
    EXPECT_EQ(active["createdEvent"]["acsDelta"], true);
}

TEST_F(StateHandlersTest, AnInFlightContractIsAnIncompleteUnassignment) {
    const http::Response r =
        post("/v2/state/active-contracts",
             {{"activeAtOffset", 45}, {"eventFormat", event_format(carol)}}, "carol");

    ASSERT_EQ(r.status, 200) << r.body;
    bool found = false;
    for (const json& entry : json::parse(r.body)) {
        if (!entry["contractEntry"].contains("JsIncompleteUnassigned")) continue;
        const json u = entry["contractEntry"]["JsIncompleteUnassigned"];
        EXPECT_EQ(u["createdEvent"]["contractId"], carol_counter);
        EXPECT_EQ(u["unassignedEvent"]["offset"], 41);
        EXPECT_EQ(u["unassignedEvent"]["reassignmentCounter"], 1);
        found = true;
    }
    EXPECT_TRUE(found);
}

TEST_F(StateHandlersTest, AReassignedContractIsOnItsNewSynchronizer) {
    const http::Response r =
        post("/v2/state/active-contracts",
             {{"activeAtOffset", 45}, {"eventFormat", event_format(bob)}}, "bob");

    ASSERT_EQ(r.status, 200);
    for (const json& entry : json::parse(r.body)) {
        if (contract_id_of(entry) != accepted_rent) continue;
        const json active = entry["contractEntry"]["JsActiveContract"];
        EXPECT_EQ(active["reassignmentCounter"], 1);
        EXPECT_EQ(active["createdEvent"]["offset"], 39);  // activated by its assignment
        EXPECT_EQ(active["synchronizerId"],
                  "private-synchronizer::"
                  "12200ed66a9741e7b8a2a74d75fc02fd1d60e93d443c1cc2fda28161897f8be14dfe");
    }
}

TEST_F(StateHandlersTest, TheAcsAtAnEarlierOffsetHasTheContractsActiveThen) {
    const std::set<std::string> at6 = acs(alice, "alice", 6);

    // alice-coin-1 archived at 6; alice-locked-1 and alice-coin-2 created at 6.
    EXPECT_FALSE(at6.contains(
        "005c56bcaed417fa65ad43cea966eb1d0bca35ab26595e75fbdff884fa933ca050ca10122054c070629d7bc1a7"
        "44c6b8ab3cc940b6759bae1f8fed8aad16683c1eab7bba18"));
    EXPECT_TRUE(at6.contains(
        "00fcfef47a26b1cc99fe15bda5842b6d7b5afbcbdffe291a0cad2938207aa43554ca101220659fcfc408bde761"
        "ada6903033bc5a6f5c311be4babcc8e89211c660d7bd52be"));
    EXPECT_TRUE(acs(alice, "alice", 0).empty());
}

// The ACS at an offset equals the contracts created and not archived in the ACS_DELTA updates up
// to it, for every party and offset.
TEST_F(StateHandlersTest, TheAcsEqualsTheCreatesMinusTheArchivesOfTheUpdates) {
    for (const auto& [party, user] : {std::pair{alice, "alice"}, {bob, "bob"}, {carol, "carol"}}) {
        for (int at : {5, 12, 33, 40, 45}) {
            json format = {{"includeTransactions",
                            {{"eventFormat", event_format(party)},
                             {"transactionShape", "TRANSACTION_SHAPE_ACS_DELTA"}}}};
            const http::Response r =
                post("/v2/updates",
                     {{"beginExclusive", 0}, {"endInclusive", at}, {"updateFormat", format}}, user);
            ASSERT_EQ(r.status, 200) << r.body;
            std::set<std::string> live;
            for (const json& u : json::parse(r.body)) {
                for (const json& e : u["update"]["Transaction"]["value"]["events"]) {
                    if (e.contains("CreatedEvent")) live.insert(e["CreatedEvent"]["contractId"]);
                    if (e.contains("ArchivedEvent")) live.erase(e["ArchivedEvent"]["contractId"]);
                }
            }

            EXPECT_EQ(acs(party, user, at), live) << user << " at " << at;
        }
    }
}

class AcsErrors : public StateHandlersTest, public testing::WithParamInterface<ErrorCase> {};

TEST_P(AcsErrors, AnswerCantonsError) {
    const ErrorCase& c = GetParam();

    expect_error(post("/v2/state/active-contracts", c.body), c.status, c.code, c.cause);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, AcsErrors,
    testing::Values(
        ErrorCase{"NeitherFormatNorFilter",
                  {{"activeAtOffset", 45}},
                  400,
                  "INVALID_ARGUMENT",
                  "The submitted request has invalid arguments: Either filter/verbose or "
                  "event_format is required. Please use either backwards compatible arguments "
                  "(filter and verbose) or event_format."},
        ErrorCase{"FormatAndFilter",
                  {{"activeAtOffset", 45},
                   {"eventFormat", event_format(alice)},
                   {"filter", event_format(alice)}},
                  400,
                  "INVALID_ARGUMENT",
                  "The submitted request has invalid arguments: Both event_format and filter are "
                  "set. Please use either backwards compatible arguments (filter and verbose) or "
                  "event_format, but not both."},
        ErrorCase{"NegativeOffset",
                  {{"activeAtOffset", -1}, {"eventFormat", event_format(alice)}},
                  400,
                  "NEGATIVE_OFFSET",
                  "Offset -1 in active_at_offset is a negative integer: the offset in "
                  "active_at_offset field has to be a non-negative integer (>=0)"},
        ErrorCase{"AfterTheLedgerEnd",
                  {{"activeAtOffset", 48}, {"eventFormat", event_format(alice)}},
                  400,
                  "OFFSET_AFTER_LEDGER_END",
                  "active_at_offset offset (48) is after ledger end (47)"},
        ErrorCase{"UnknownPackage",
                  {{"activeAtOffset", 45},
                   {"eventFormat",
                    {{"filtersByParty",
                      {{alice,
                        {{"cumulative",
                          {{{"identifierFilter",
                             {{"TemplateFilter",
                               {{"value", {{"templateId", "#nope:Mod:T"}}}}}}}}}}}}}}}}},
                  404,
                  "PACKAGE_NAMES_NOT_FOUND",
                  "The following package names do not match upgradable packages uploaded on this "
                  "participant: [nope]."}),
    [](const auto& info) { return std::string(info.param.name); });

TEST_F(StateHandlersTest, TheLegacyFilterStillWorksIn35) {
    const http::Response r = post("/v2/state/active-contracts",
                                  {{"activeAtOffset", 45}, {"filter", event_format(alice)}});

    EXPECT_EQ(r.status, 200) << r.body;
}

TEST_F(StateHandlersTest, Canton36RefusesTheLegacyFilter) {
    http::Request request{
        .method = "POST",
        .target = "/v2/state/active-contracts",
        .body = json{{"activeAtOffset", 45}, {"filter", event_format(alice)}}.dump()};
    request.headers.push_back({"Authorization", "Bearer " + token("alice")});
    const http::PathParams params;
    const http::RequestContext ctx{.request = request, .params = params};

    try {
        const LedgerAuth auth(store_->network());
        (void)post_state_active_contracts(*store_, RouteAuth(auth, Claims::read_as), ctx,
                                          ApiProfile{.release = Release::splice_0_9});
        FAIL() << "no error";
    } catch (const http::ApiError& e) {
        EXPECT_EQ(e.code(), "DEPRECATED_API_DISABLED");
        EXPECT_EQ(std::string(e.what()),
                  "The fields filter/verbose of the /v2/state/active-contracts requests was "
                  "deprecated in Canton 3.4, is disabled by default since Canton 3.6 and will be "
                  "removed in Canton 3.7. Set `canton.participants.<participant>.features."
                  "deprecated.enable-deprecated-parameters-34 = true` to re-enable it "
                  "temporarily.");
    }
}

TEST_F(StateHandlersTest, TheListResumesAfterAContinuationToken) {
    const json all =
        json::parse(post("/v2/state/active-contracts",
                         {{"activeAtOffset", 45}, {"eventFormat", event_format(alice)}})
                        .body);
    ASSERT_GT(all.size(), 2U);

    const json rest =
        json::parse(post("/v2/state/active-contracts",
                         {{"activeAtOffset", 45},
                          {"eventFormat", event_format(alice)},
                          {"streamContinuationToken", all[1]["streamContinuationToken"]}})
                        .body);

    ASSERT_EQ(rest.size(), all.size() - 2);
    EXPECT_EQ(rest[0], all[2]);
}

TEST_F(StateHandlersTest, AContinuationTokenOfAnotherRequestIsRefused) {
    const json all =
        json::parse(post("/v2/state/active-contracts",
                         {{"activeAtOffset", 45}, {"eventFormat", event_format(alice)}})
                        .body);

    const http::Response other =
        post("/v2/state/active-contracts",
             {{"activeAtOffset", 44},
              {"eventFormat", event_format(alice)},
              {"streamContinuationToken", all[0]["streamContinuationToken"]}});
    const http::Response garbage =
        post("/v2/state/active-contracts", {{"activeAtOffset", 45},
                                            {"eventFormat", event_format(alice)},
                                            {"streamContinuationToken", "eA=="}});

    EXPECT_EQ(json::parse(other.body)["code"], "INVALID_CONTINUATION_TOKEN");
    expect_error(
        garbage, 400, "INVALID_FIELD",
        "The submitted command has a field with invalid value: Invalid field "
        "stream_continuation_token: Invalid continuation token for GetActiveContractsRequest");
}

// ---- pages ----

TEST_F(StateHandlersTest, APageWithoutAnOffsetIsAtTheLedgerEnd) {
    const http::Response r = post("/v2/state/active-contracts-page",
                                  {{"eventFormat", event_format(alice)}, {"maxPageSize", 2}});

    ASSERT_EQ(r.status, 200) << r.body;
    const json page = json::parse(r.body);
    EXPECT_EQ(page["activeAtOffset"], 47);
    EXPECT_EQ(page["activeContracts"].size(), 2U);
    EXPECT_EQ(page["activeContracts"][0]["streamContinuationToken"], "");
    EXPECT_TRUE(page["nextPageToken"].is_string());
}

TEST_F(StateHandlersTest, ThePagesAddUpToTheList) {
    json body = {{"eventFormat", event_format(bob)}, {"maxPageSize", 3}, {"activeAtOffset", 40}};
    std::set<std::string> paged;
    for (int guard = 0; guard < 20; ++guard) {
        const json page = json::parse(post("/v2/state/active-contracts-page", body, "bob").body);
        EXPECT_EQ(page["activeAtOffset"], 40);
        for (const json& c : page["activeContracts"]) paged.insert(contract_id_of(c));
        if (page["nextPageToken"].is_null()) break;
        body["pageToken"] = page["nextPageToken"];
    }

    EXPECT_EQ(paged, acs(bob, "bob", 40));
}

TEST_F(StateHandlersTest, PageErrors) {
    expect_error(post("/v2/state/active-contracts-page", json::object()), 400, "MISSING_FIELD",
                 "The submitted command is missing a mandatory field: event_format");
    expect_error(post("/v2/state/active-contracts-page",
                      {{"eventFormat", event_format(alice)}, {"maxPageSize", 10001}}),
                 400, "INVALID_ARGUMENT",
                 "The submitted request has invalid arguments: Requested page size must not "
                 "exceed 10000, but got 10001");
    const http::Response bad_token =
        post("/v2/state/active-contracts-page",
             {{"eventFormat", event_format(alice)}, {"pageToken", "eA=="}});
    EXPECT_EQ(bad_token.status, 400);
    EXPECT_EQ(json::parse(bad_token.body)["code"], "INVALID_ACS_PAGE_TOKEN");
}

// The spec: a page token works only with "the same active_at_offset and event_format".
TEST_F(StateHandlersTest, APageTokenIsBoundToItsOffsetAndEventFormat) {
    const json first = json::parse(
        post("/v2/state/active-contracts-page",
             {{"eventFormat", event_format(bob)}, {"maxPageSize", 1}, {"activeAtOffset", 40}},
             "bob")
            .body);
    ASSERT_TRUE(first["nextPageToken"].is_string());
    const json token = first["nextPageToken"];
    const auto with = [&](json body) {
        body["pageToken"] = token;
        body["maxPageSize"] = 1;
        return post("/v2/state/active-contracts-page", body, "bob");
    };
    const std::string mismatch =
        "The submitted command contains an invalid page token. Tokens used in ACS requests must "
        "be taken from a valid GetActiveContractsPageResponse and used with the same EventFormat "
        "settings, with the same Canton participant running the same Canton version. The request "
        "does not match the token";

    EXPECT_EQ(with({{"eventFormat", event_format(bob)}, {"activeAtOffset", 40}}).status, 200);
    EXPECT_EQ(with({{"eventFormat", event_format(bob)}}).status, 200);  // the token's offset
    json wildcard = event_format(bob);
    wildcard["verbose"] = true;
    expect_error(with({{"eventFormat", wildcard}, {"activeAtOffset", 40}}), 400,
                 "INVALID_ACS_PAGE_TOKEN", mismatch);
    expect_error(with({{"eventFormat", event_format(bob)}, {"activeAtOffset", 41}}), 400,
                 "INVALID_ACS_PAGE_TOKEN", mismatch);
    // An empty token is the first page.
    const http::Response empty = post("/v2/state/active-contracts-page",
                                      {{"eventFormat", event_format(bob)},
                                       {"activeAtOffset", 40},
                                       {"maxPageSize", 1},
                                       {"pageToken", ""}},
                                      "bob");
    EXPECT_EQ(empty.status, 200);
    EXPECT_EQ(json::parse(empty.body)["activeContracts"], first["activeContracts"]);
}

TEST_F(StateHandlersTest, AContinuationTokenIsBoundToItsEventFormat) {
    const json all =
        json::parse(post("/v2/state/active-contracts",
                         {{"activeAtOffset", 45}, {"eventFormat", event_format(alice)}})
                        .body);
    json verbose = event_format(alice);
    verbose["verbose"] = true;
    const http::Response other =
        post("/v2/state/active-contracts",
             {{"activeAtOffset", 45},
              {"eventFormat", verbose},
              {"streamContinuationToken", all[0]["streamContinuationToken"]}});
    EXPECT_EQ(json::parse(other.body)["code"], "INVALID_CONTINUATION_TOKEN");
}

// ---- auth ----

TEST_F(StateHandlersTest, TheAcsFollowsTheAuthMatrix) {
    const std::string body =
        json{{"activeAtOffset", 45}, {"eventFormat", event_format(alice)}}.dump();
    for (const char* target : {"/v2/state/active-contracts", "/v2/state/active-contracts-page"}) {
        expect_redacted(call("POST", target, body, ""), 401, 16);
        expect_redacted(call("POST", target, body, "bob"), 403, 7);
        EXPECT_EQ(call("POST", target, body, "dave").status, 200);
        EXPECT_EQ(call("POST", target, body, "auditor").status, 200);
        const std::string any =
            json{{"activeAtOffset", 45}, {"eventFormat", {{"filtersForAnyParty", json::object()}}}}
                .dump();
        expect_redacted(call("POST", target, any, "alice"), 403, 7);
        EXPECT_EQ(call("POST", target, any, "auditor").status, 200);
    }
}

}  // namespace
}  // namespace cantonlite::areas::ledger::state_handlers_test
