// Which events of one transaction each reader of POST /v2/updates/transaction-by-offset sees
// (canton-ledger-behavior.md §3.3), on a small seed of our own, and the request errors that depend
// on what the participant knows (§3.2, §3.4, §3.5, §5.2).
#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cantonlite/app/application.hpp"
#include "cantonlite/app/token.hpp"
#include "cantonlite/seed/seed_loader.hpp"
#include "ledger_test_support.hpp"

namespace cantonlite::areas::ledger::transaction_visibility_test {
namespace {

using nlohmann::json;

const std::string A = "party-a::1220aa01";
const std::string B = "party-b::1220bb02";
const std::string C = "party-c::1220cc03";
const std::string D = "party-d::1220dd04";
const std::string E = "party-e::1220ee05";
const std::string package_id = "5d1c0ffee0000000000000000000000000000000000000000000000000000001";

// Offset 1 is the bootstrap. Offsets 2-4 create the contracts that offset 5 uses:
//   x (Asset, signatory A, observer B), y (Asset, signatory D), n (Notice, signatory C, observer
//   E).
// Offset 5, submitted by A with command id "cmd-vis", is the transaction under test:
//   node 0  A exercises Asset_Run on x (consuming, actor A)          informees A, B
//   node 1    creates z (Receipt, signatory C)                        stakeholders C
//   node 2    exercises Archive on y (consuming, actor D)             informees D
//   node 3    exercises Notice_Peek on n (non-consuming, actor A)    informees C (signatory), A
// Witnesses (informees plus the informees of the ancestors): node 0 {A,B}, node 1 {A,B,C},
// node 2 {A,B,D}, node 3 {A,B,C}. E, an observer of n, witnesses nothing: a non-consuming
// exercise informs the signatories and actors only.
const char* const seed_text = R"({
  "network": {
    "dso_party": "DSO::1220d5",
    "synchronizer_id": "global-domain::1220f0",
    "participant_id": "PAR::participant1::1220f2",
    "validator_party": "validator::1220bb",
    "packages": {"vis-model": "5d1c0ffee0000000000000000000000000000000000000000000000000000001"},
    "start_time": "2025-01-01T00:00:00Z"
  },
  "users": [
    {"id": "a", "party": "party-a::1220aa01"},
    {"id": "b", "party": "party-b::1220bb02"},
    {"id": "c", "party": "party-c::1220cc03"},
    {"id": "d", "party": "party-d::1220dd04"},
    {"id": "e", "party": "party-e::1220ee05"},
    {"id": "reader", "party": "reader::1220ff06",
     "rights": {"can_act_as": [], "can_read_as": [], "can_read_as_any_party": true}}
  ],
  "auth": {"hs256": {"secret": "visibility-secret"}, "audience": "https://visibility.example",
           "ledger_auth": true},
  "steps": [
    {"step": "transaction", "submitters": ["a"], "nodes": [
      {"create": {"template": "vis-model:Vis.Model:Asset",
                  "argument": {"record": {"fields": [{"label": "owner", "value": {"party": "a"}}]}},
                  "signatories": ["a"], "observers": ["b"], "as": "x"}}]},
    {"step": "transaction", "submitters": ["d"], "nodes": [
      {"create": {"template": "vis-model:Vis.Model:Asset",
                  "argument": {"record": {"fields": [{"label": "owner", "value": {"party": "d"}}]}},
                  "signatories": ["d"], "as": "y"}}]},
    {"step": "transaction", "submitters": ["c"], "nodes": [
      {"create": {"template": "vis-model:Vis.Model:Notice",
                  "argument": {"record": {"fields": [{"label": "author", "value": {"party": "c"}}]}},
                  "signatories": ["c"], "observers": ["e"], "as": "n"}}]},
    {"step": "transaction", "submitters": ["a"], "command_id": "cmd-vis", "workflow_id": "wf-vis",
     "nodes": [
      {"exercise": {"contract": "x", "template": "vis-model:Vis.Model:Asset", "choice": "Asset_Run",
                    "consuming": true, "acting_parties": ["a"],
                    "argument": {"record": {"fields": []}}, "result": {"unit": {}},
                    "children": [
        {"create": {"template": "vis-model:Vis.Model:Receipt",
                    "argument": {"record": {"fields": [{"label": "holder", "value": {"party": "c"}}]}},
                    "signatories": ["c"], "as": "z"}},
        {"exercise": {"contract": "y", "template": "vis-model:Vis.Model:Asset", "choice": "Archive",
                      "consuming": true, "acting_parties": ["d"]}},
        {"exercise": {"contract": "n", "template": "vis-model:Vis.Model:Notice",
                      "choice": "Notice_Peek", "consuming": false, "acting_parties": ["a"]}}]}}]}
  ]
})";

constexpr int tx_offset = 5;

const std::string acs = "TRANSACTION_SHAPE_ACS_DELTA";
const std::string effects = "TRANSACTION_SHAPE_LEDGER_EFFECTS";

// ---- filters ----

json wildcard(bool blob) {
    return {{"identifierFilter",
             {{"WildcardFilter", {{"value", {{"includeCreatedEventBlob", blob}}}}}}}};
}

json template_filter(const std::string& template_id, bool blob = false) {
    return {{"identifierFilter",
             {{"TemplateFilter",
               {{"value", {{"templateId", template_id}, {"includeCreatedEventBlob", blob}}}}}}}};
}

// filtersByParty from party -> cumulative list (an empty list is a template wildcard).
json request(const std::string& shape, const std::map<std::string, json>& by_party,
             int offset = tx_offset) {
    json filters = json::object();
    for (const auto& [party, cumulative] : by_party) filters[party] = {{"cumulative", cumulative}};
    return {{"offset", offset},
            {"transactionFormat",
             {{"transactionShape", shape}, {"eventFormat", {{"filtersByParty", filters}}}}}};
}

json wildcards(const std::string& shape, const std::vector<std::string>& parties) {
    std::map<std::string, json> by_party;
    for (const std::string& p : parties) by_party[p] = json::array();
    return request(shape, by_party);
}

json any_party(const std::string& shape, json cumulative = json::array()) {
    return {{"offset", tx_offset},
            {"transactionFormat",
             {{"transactionShape", shape},
              {"eventFormat",
               {{"filtersByParty", json::object()},
                {"filtersForAnyParty", {{"cumulative", std::move(cumulative)}}}}}}}};
}

// ---- reading the answer ----

// Each event as {kind, nodeId, witnesses (sorted)} plus acsDelta where the kind has it.
json summary(const json& transaction) {
    json out = json::array();
    for (const json& event : transaction.at("events")) {
        const std::string kind = event.begin().key();
        const json& e = event.begin().value();
        std::vector<std::string> witnesses = e.at("witnessParties");
        std::sort(witnesses.begin(), witnesses.end());
        json s = {{"kind", kind}, {"node", e.at("nodeId")}, {"witnesses", witnesses}};
        if (e.contains("acsDelta")) s["acsDelta"] = e.at("acsDelta");
        out.push_back(s);
    }
    return out;
}

json archived(int node, std::vector<std::string> witnesses) {
    std::sort(witnesses.begin(), witnesses.end());
    return {{"kind", "ArchivedEvent"}, {"node", node}, {"witnesses", witnesses}};
}

json created(int node, std::vector<std::string> witnesses, bool acs_delta) {
    std::sort(witnesses.begin(), witnesses.end());
    return {{"kind", "CreatedEvent"},
            {"node", node},
            {"witnesses", witnesses},
            {"acsDelta", acs_delta}};
}

json exercised(int node, std::vector<std::string> witnesses, bool acs_delta) {
    std::sort(witnesses.begin(), witnesses.end());
    return {{"kind", "ExercisedEvent"},
            {"node", node},
            {"witnesses", witnesses},
            {"acsDelta", acs_delta}};
}

class TransactionVisibilityTest : public LedgerSuite {
  protected:
    static void SetUpTestSuite() {
        serve(seed::load_seed(json::parse(seed_text), "visibility-seed"));
    }

    // As "reader", who may read every party: the answers depend on the filters only.
    static http::Response post(const json& body, const std::string& user = "reader") {
        http::Request r{.method = "POST",
                        .target = "/v2/updates/transaction-by-offset",
                        .headers = {{"Authorization", "Bearer " + token(user)}},
                        .body = body.dump()};
        return router_->handle(r);
    }

    // The transaction of a 200 answer (a failed assertion and null otherwise).
    static json transaction(const json& body, const std::string& user = "reader") {
        const http::Response r = post(body, user);
        EXPECT_EQ(r.status, 200) << body.dump() << " -> " << r.body;
        if (r.status != 200) return nullptr;
        return json::parse(r.body).at("transaction");
    }

    static json events_of(const json& body) {
        const json tx = transaction(body);
        return tx.is_null() ? json() : summary(tx);
    }

    static json error_of(const json& body, int status) {
        const http::Response r = post(body);
        EXPECT_EQ(r.status, status) << body.dump() << " -> " << r.body;
        EXPECT_EQ(r.content_type, "application/json");
        return json::parse(r.body);
    }
};

void expect_not_found(const json& e, int offset = tx_offset) {
    EXPECT_EQ(e["code"], "UPDATE_NOT_FOUND");
    EXPECT_EQ(e["cause"], "Update not found, or not visible.");
    EXPECT_EQ(e["errorCategory"], 11);
    EXPECT_EQ(e["grpcCodeValue"], 5);
    EXPECT_EQ(e["resources"],
              json::array({json::array({"ErrorResource(OFFSET)", std::to_string(offset)})}));
}

// ================================ ACS_DELTA ================================

TEST_F(TransactionVisibilityTest, AcsDeltaShowsTheArchivesAndCreatesOfTheReadersContracts) {
    EXPECT_EQ(events_of(wildcards(acs, {A})), json::array({archived(0, {A})}));
    EXPECT_EQ(events_of(wildcards(acs, {B})), json::array({archived(0, {B})}));
    EXPECT_EQ(events_of(wildcards(acs, {C})), json::array({created(1, {C}, true)}));
    EXPECT_EQ(events_of(wildcards(acs, {D})), json::array({archived(2, {D})}));
}

TEST_F(TransactionVisibilityTest, AcsDeltaWitnessesAreTheStakeholdersAmongTheReaders) {
    EXPECT_EQ(events_of(wildcards(acs, {A, B})), json::array({archived(0, {A, B})}));
    EXPECT_EQ(events_of(wildcards(acs, {A, C})),
              json::array({archived(0, {A}), created(1, {C}, true)}));
    EXPECT_EQ(events_of(wildcards(acs, {A, B, C, D, E})),
              json::array({archived(0, {A, B}), created(1, {C}, true), archived(2, {D})}));
}

TEST_F(TransactionVisibilityTest, RequestingPartiesAreTheAcsDeltaWithWildcards) {
    const json tx = transaction({{"offset", tx_offset}, {"requestingParties", {A, C}}});

    EXPECT_EQ(summary(tx), json::array({archived(0, {A}), created(1, {C}, true)}));
}

TEST_F(TransactionVisibilityTest, ADivulgedCreateIsNotInTheAcsDelta) {
    // A witnessed the create of z (its root action) but is not a stakeholder of z.
    for (const json& e : events_of(wildcards(acs, {A})))
        EXPECT_NE(e["kind"], "CreatedEvent") << e.dump();
}

TEST_F(TransactionVisibilityTest, ANonStakeholderFindsNothingInTheAcsDelta) {
    // E observes n, whose only event here is a non-consuming exercise.
    expect_not_found(error_of(wildcards(acs, {E}), 404));
}

// ================================ LEDGER_EFFECTS ================================

TEST_F(TransactionVisibilityTest, LedgerEffectsShowsEveryEventTheReaderWitnessed) {
    EXPECT_EQ(events_of(wildcards(effects, {A})),
              json::array({exercised(0, {A}, true), created(1, {A}, false),
                           exercised(2, {A}, false), exercised(3, {A}, false)}));
    EXPECT_EQ(events_of(wildcards(effects, {B})),
              json::array({exercised(0, {B}, true), created(1, {B}, false),
                           exercised(2, {B}, false), exercised(3, {B}, false)}));
}

TEST_F(TransactionVisibilityTest, LedgerEffectsOfAnInformeeBelowTheRoot) {
    // C: the create of z (stakeholder) and the non-consuming exercise on n (signatory).
    EXPECT_EQ(events_of(wildcards(effects, {C})),
              json::array({created(1, {C}, true), exercised(3, {C}, false)}));
    // D: the archive of y only (its acsDelta: consuming, and D a stakeholder).
    EXPECT_EQ(events_of(wildcards(effects, {D})), json::array({exercised(2, {D}, true)}));
}

TEST_F(TransactionVisibilityTest, ADivulgedCreateIsInTheLedgerEffects) {
    const json events = events_of(wildcards(effects, {A}));

    ASSERT_EQ(events.size(), 4U);
    EXPECT_EQ(events[1], created(1, {A}, false));
}

TEST_F(TransactionVisibilityTest, LedgerEffectsWitnessesAreTheWitnessesAmongTheReaders) {
    EXPECT_EQ(events_of(wildcards(effects, {A, C})),
              json::array({exercised(0, {A}, true), created(1, {A, C}, true),
                           exercised(2, {A}, false), exercised(3, {A, C}, false)}));
    EXPECT_EQ(
        events_of(wildcards(effects, {C, D})),
        json::array({created(1, {C}, true), exercised(2, {D}, true), exercised(3, {C}, false)}));
}

TEST_F(TransactionVisibilityTest, AnObserverDoesNotWitnessANonConsumingExercise) {
    expect_not_found(error_of(wildcards(effects, {E}), 404));
}

// ================================ the transaction and its events ================================

TEST_F(TransactionVisibilityTest, EventsAreInNodeOrderWithTheTransactionsOffset) {
    const json tx = transaction(wildcards(effects, {B}));
    ASSERT_FALSE(tx.is_null());

    EXPECT_EQ(tx["offset"], tx_offset);
    int previous = -1;
    for (const json& event : tx["events"]) {
        const json& e = event.begin().value();
        EXPECT_EQ(e["offset"], tx_offset);
        EXPECT_GT(e["nodeId"].get<int>(), previous);
        previous = e["nodeId"].get<int>();
    }
    EXPECT_EQ(tx["events"].size(), 4U);
}

TEST_F(TransactionVisibilityTest, TheEventsCarryTheirNodes) {
    const json tx = transaction(wildcards(effects, {A}));
    ASSERT_FALSE(tx.is_null());
    const json& events = tx["events"];
    ASSERT_EQ(events.size(), 4U);

    const json& root = events[0]["ExercisedEvent"];
    EXPECT_EQ(root["choice"], "Asset_Run");
    EXPECT_EQ(root["consuming"], true);
    EXPECT_EQ(root["actingParties"], json::array({A}));
    EXPECT_EQ(root["lastDescendantNodeId"], 3);
    EXPECT_EQ(root["templateId"], package_id + ":Vis.Model:Asset");
    EXPECT_EQ(root["packageName"], "vis-model");

    const json& z = events[1]["CreatedEvent"];
    EXPECT_EQ(z["templateId"], package_id + ":Vis.Model:Receipt");
    EXPECT_EQ(z["signatories"], json::array({C}));
    EXPECT_EQ(z["observers"], json::array());

    EXPECT_EQ(events[2]["ExercisedEvent"]["choice"], "Archive");
    EXPECT_EQ(events[2]["ExercisedEvent"]["actingParties"], json::array({D}));
    EXPECT_EQ(events[2]["ExercisedEvent"]["lastDescendantNodeId"], 2);
    EXPECT_EQ(events[3]["ExercisedEvent"]["choice"], "Notice_Peek");
    EXPECT_EQ(events[3]["ExercisedEvent"]["consuming"], false);
}

TEST_F(TransactionVisibilityTest, TheArchivedEventIsTheConsumingExercise) {
    const json tx = transaction(wildcards(acs, {D}));
    ASSERT_FALSE(tx.is_null());
    ASSERT_EQ(tx["events"].size(), 1U);

    const json& e = tx["events"][0]["ArchivedEvent"];
    EXPECT_EQ(e["nodeId"], 2);
    EXPECT_EQ(e["offset"], tx_offset);
    EXPECT_EQ(e["templateId"], package_id + ":Vis.Model:Asset");
    EXPECT_EQ(e["packageName"], "vis-model");
    EXPECT_EQ(e["witnessParties"], json::array({D}));
}

TEST_F(TransactionVisibilityTest, TheCommandIdIsOnlyForReadersAmongTheSubmitters) {
    // Submitted by A.
    EXPECT_EQ(transaction(wildcards(acs, {A}))["commandId"], "cmd-vis");
    EXPECT_EQ(transaction(wildcards(effects, {A, C}))["commandId"], "cmd-vis");
    EXPECT_EQ(transaction(wildcards(acs, {C}))["commandId"], "");
    EXPECT_EQ(transaction(wildcards(effects, {B, D}))["commandId"], "");
    EXPECT_EQ(transaction(any_party(acs))["commandId"], "cmd-vis");
}

// ================================ filters ================================

TEST_F(TransactionVisibilityTest, ATemplateFilterForOnePartyAndAWildcardForAnother) {
    // A wants only receipts, C everything.
    const json union_effects =
        request(effects, {{A, json::array({template_filter("#vis-model:Vis.Model:Receipt")})},
                          {C, json::array({wildcard(false)})}});
    EXPECT_EQ(events_of(union_effects),
              json::array({created(1, {A, C}, true), exercised(3, {A, C}, false)}));

    // A wants only assets, D everything.
    const json union_acs =
        request(acs, {{A, json::array({template_filter("#vis-model:Vis.Model:Asset")})},
                      {D, json::array({wildcard(false)})}});
    EXPECT_EQ(events_of(union_acs), json::array({archived(0, {A}), archived(2, {D})}));

    const json receipts_for_a =
        request(acs, {{A, json::array({template_filter("#vis-model:Vis.Model:Receipt")})},
                      {D, json::array({wildcard(false)})}});
    EXPECT_EQ(events_of(receipts_for_a), json::array({archived(2, {D})}));
}

TEST_F(TransactionVisibilityTest, ATemplateMatchesOnlyForAWitnessThatListedIt) {
    // A lists receipts but is no stakeholder of z; C is, but lists only assets; C is no
    // stakeholder of x or y.
    const json crossed =
        request(acs, {{A, json::array({template_filter("#vis-model:Vis.Model:Receipt")})},
                      {C, json::array({template_filter("#vis-model:Vis.Model:Asset")})}});

    expect_not_found(error_of(crossed, 404));
}

TEST_F(TransactionVisibilityTest, TheCreatedEventBlobIsThereOnlyWhenAFilterAsksForIt) {
    const json with_blob = transaction(request(acs, {{C, json::array({wildcard(true)})}}));
    const json without_blob = transaction(request(acs, {{C, json::array({wildcard(false)})}}));
    const json by_default = transaction({{"offset", tx_offset}, {"requestingParties", {C}}});
    const json by_template = transaction(
        request(acs, {{C, json::array({template_filter("#vis-model:Vis.Model:Receipt", true)})}}));
    ASSERT_FALSE(with_blob.is_null());
    ASSERT_FALSE(without_blob.is_null());
    ASSERT_FALSE(by_default.is_null());
    ASSERT_FALSE(by_template.is_null());

    const json& blob = with_blob["events"][0]["CreatedEvent"]["createdEventBlob"];
    ASSERT_TRUE(blob.is_string());
    EXPECT_FALSE(blob.get<std::string>().empty());
    EXPECT_EQ(without_blob["events"][0]["CreatedEvent"]["createdEventBlob"], "");
    EXPECT_EQ(by_default["events"][0]["CreatedEvent"]["createdEventBlob"], "");
    EXPECT_NE(by_template["events"][0]["CreatedEvent"]["createdEventBlob"], "");
}

TEST_F(TransactionVisibilityTest, TheBlobFollowsTheFiltersOfTheWitnesses) {
    // Under LEDGER_EFFECTS A witnesses z and asks for blobs: there is one.
    const json effects_tx = transaction(request(
        effects, {{A, json::array({wildcard(true)})}, {C, json::array({wildcard(false)})}}));
    ASSERT_FALSE(effects_tx.is_null());
    ASSERT_EQ(effects_tx["events"].size(), 4U);
    EXPECT_NE(effects_tx["events"][1]["CreatedEvent"]["createdEventBlob"], "");

    // Under ACS_DELTA only C (a stakeholder) witnesses z, and C does not ask for it.
    const json acs_tx = transaction(
        request(acs, {{A, json::array({wildcard(true)})}, {C, json::array({wildcard(false)})}}));
    ASSERT_FALSE(acs_tx.is_null());
    ASSERT_EQ(acs_tx["events"].size(), 2U);
    EXPECT_EQ(acs_tx["events"][1]["CreatedEvent"]["createdEventBlob"], "");
}

TEST_F(TransactionVisibilityTest, FiltersForAnyPartySeeAllWitnesses) {
    EXPECT_EQ(events_of(any_party(acs)),
              json::array({archived(0, {A, B}), created(1, {C}, true), archived(2, {D})}));
    EXPECT_EQ(events_of(any_party(effects)),
              json::array({exercised(0, {A, B}, true), created(1, {A, B, C}, true),
                           exercised(2, {A, B, D}, true), exercised(3, {A, B, C}, false)}));
}

TEST_F(TransactionVisibilityTest, FiltersForAnyPartyWithATemplateFilter) {
    EXPECT_EQ(
        events_of(any_party(acs, json::array({template_filter("#vis-model:Vis.Model:Receipt")}))),
        json::array({created(1, {C}, true)}));
}

// ================================ errors ================================

TEST_F(TransactionVisibilityTest, AnOffsetBeyondTheLedgerEndIsNotFound) {
    ASSERT_EQ(store_->ledger_end(), tx_offset);  // the transaction under test is the last one
    EXPECT_EQ(transaction(request(acs, {{A, json::array()}}, tx_offset))["offset"], tx_offset);
    const json beyond = request(acs, {{A, json::array()}}, tx_offset + 1);

    expect_not_found(error_of(beyond, 404), tx_offset + 1);
    expect_not_found(error_of(request(acs, {{A, json::array()}}, 1000), 404), 1000);
}

TEST_F(TransactionVisibilityTest, AnUnknownPackageNameIsNotFound) {
    const json e = error_of(
        request(acs, {{A, json::array({template_filter("#no-such-package:Vis.Model:Asset")})}}),
        404);

    EXPECT_EQ(e["code"], "PACKAGE_NAMES_NOT_FOUND");
    EXPECT_EQ(e["cause"],
              "The following package names do not match upgradable packages uploaded on this "
              "participant: [no-such-package].");
    EXPECT_EQ(e["errorCategory"], 11);
    EXPECT_EQ(e["grpcCodeValue"], 5);
}

TEST_F(TransactionVisibilityTest, AnUnknownTemplateOfAKnownPackageIsNotFound) {
    const json e = error_of(
        request(acs, {{A, json::array({template_filter("#vis-model:Vis.Model:Nope")})}}), 404);

    EXPECT_EQ(e["code"], "NO_TEMPLATES_FOR_PACKAGE_NAME_AND_QUALIFIED_NAME");
    EXPECT_EQ(e["cause"].get<std::string>().rfind(
                  "The following package-name/template qualified-name pairs do not reference any "
                  "template-id uploaded on this participant: [",
                  0),
              0U)
        << e["cause"];
    EXPECT_EQ(e["errorCategory"], 11);
    EXPECT_EQ(e["grpcCodeValue"], 5);
}

TEST_F(TransactionVisibilityTest, ATemplateFilterWithoutTemplateIdIsAMissingField) {
    const json no_template = {
        {"identifierFilter",
         {{"TemplateFilter", {{"value", {{"includeCreatedEventBlob", false}}}}}}}};

    const json e = error_of(request(acs, {{A, json::array({no_template})}}), 400);

    EXPECT_EQ(e["code"], "MISSING_FIELD");
    EXPECT_EQ(e["cause"], "The submitted command is missing a mandatory field: templateId");
    EXPECT_EQ(e["context"]["field_name"], "templateId");
    EXPECT_EQ(e["errorCategory"], 8);
    EXPECT_EQ(e["grpcCodeValue"], 3);
}

TEST_F(TransactionVisibilityTest, AFilterKeyThatIsNoDamlLfPartyIsAnInvalidArgument) {
    // "reader" may read as any party, so authorization passes and validation rejects the key.
    const json e = error_of(request(acs, {{"a!", json::array()}}), 400);

    EXPECT_EQ(e["code"], "INVALID_ARGUMENT");
    EXPECT_EQ(e["cause"],
              "The submitted request has invalid arguments: non expected character 0x21 in "
              "Daml-LF Party \"a!\"");
    EXPECT_EQ(e["errorCategory"], 8);
}

TEST_F(TransactionVisibilityTest, AnEmptyFilterKeyIsAnInvalidArgument) {
    const json e = error_of(request(acs, {{"", json::array()}}), 400);

    EXPECT_EQ(e["code"], "INVALID_ARGUMENT");
    EXPECT_EQ(e["cause"], "The submitted request has invalid arguments: Daml-LF Party is empty");
}

TEST_F(TransactionVisibilityTest, NoFiltersAtAllIsAnInvalidArgument) {
    const json body = {
        {"offset", tx_offset},
        {"transactionFormat",
         {{"transactionShape", acs}, {"eventFormat", {{"filtersByParty", json::object()}}}}}};

    // No party to authorize: any user's token passes authorization.
    const http::Response r = post(body, "a");

    EXPECT_EQ(r.status, 400) << r.body;
    const json e = json::parse(r.body);
    EXPECT_EQ(e["code"], "INVALID_ARGUMENT");
    EXPECT_EQ(e["cause"],
              "The submitted request has invalid arguments: filtersByParty and filtersForAnyParty "
              "cannot be empty simultaneously");
    EXPECT_EQ(e["errorCategory"], 8);
}

}  // namespace
}  // namespace cantonlite::areas::ledger::transaction_visibility_test
