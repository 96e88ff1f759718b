#include "cantonlite/areas/ledger/transaction_json.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cantonlite/seed/seed_loader.hpp"

namespace cantonlite::areas::ledger::transaction_json_test {
namespace {

using nlohmann::json;
using nlohmann::ordered_json;

const std::string alice = "alice::1220a1";
const std::string dso = "DSO::1220aa";

// A network with one mint (offset 2: AmuletRules_DevNet_Tap with a create below it) and a transfer
// that archives it (offset 3).
std::unique_ptr<store::LedgerStore> mint_and_transfer() {
    const json seed = {
        {"network", {{"dso_party", dso}, {"start_time", "2025-01-01T00:00:00Z"}}},
        {"users", {{{"id", "alice"}, {"party", alice}}, {{"id", "bob"}, {"party", "bob::1220b1"}}}},
        {"steps",
         {{{"step", "mint"},
           {"owner", "alice"},
           {"amount", "10"},
           {"as", "a"},
           {"command_id", "cmd-1"}},
          {{"step", "transfer"},
           {"sender", "alice"},
           {"inputs", {"a"}},
           {"outputs", {{{"receiver", "bob"}, {"amount", "4"}}}}}}}};
    return seed::load_seed(seed, "test-seed");
}

std::vector<std::string> keys_of(const ordered_json& object) {
    std::vector<std::string> keys;
    for (const auto& [key, _] : object.items()) keys.push_back(key);
    return keys;
}

class TransactionJsonTest : public ::testing::Test {
  protected:
    std::unique_ptr<store::LedgerStore> store_ = mint_and_transfer();

    const store::Transaction& tx(store::Offset offset) {
        keep_.push_back(store_->update_at(offset));
        return std::get<store::Transaction>(*keep_.back());
    }

    std::vector<store::UpdatePtr> keep_;
};

TEST_F(TransactionJsonTest, WritesTheTransactionFieldsInCantonsOrder) {
    const store::Transaction& t = tx(2);
    TransactionView view{.transaction = &t,
                         .events = {{.kind = EventView::Kind::created,
                                     .node = &t.nodes[1],
                                     .witness_parties = {model::Name(alice)}}}};

    const ordered_json body = ordered_json::parse(transaction_response(view))["transaction"];

    EXPECT_EQ(keys_of(body), (std::vector<std::string>{
                                 "updateId", "commandId", "workflowId", "effectiveAt", "events",
                                 "offset", "synchronizerId", "traceContext", "recordTime",
                                 "externalTransactionHash", "paidTrafficCost"}));
    EXPECT_EQ(body["updateId"], t.update_id().str());
    EXPECT_EQ(body["offset"], 2);
    EXPECT_EQ(body["effectiveAt"], "2025-01-01T00:00:01Z");
    EXPECT_TRUE(body["externalTransactionHash"].is_null());
    EXPECT_TRUE(body["paidTrafficCost"].is_null());
    EXPECT_TRUE(body["traceContext"]["tracestate"].is_null());
    EXPECT_EQ(body["traceContext"]["traceparent"].get<std::string>().size(), 55U);
}

TEST_F(TransactionJsonTest, CommandIdOnlyForASubmittingReader) {
    const store::Transaction& t = tx(2);
    TransactionView view{.transaction = &t,
                         .events = {{.kind = EventView::Kind::created,
                                     .node = &t.nodes[1],
                                     .witness_parties = {model::Name(alice)}}}};

    const json hidden = json::parse(transaction_response(view))["transaction"];
    view.submitter_visible = true;
    const json shown = json::parse(transaction_response(view))["transaction"];

    EXPECT_EQ(hidden["commandId"], "");
    EXPECT_EQ(shown["commandId"], "cmd-1");
}

TEST_F(TransactionJsonTest, WritesACreatedEventWithTheLedgerEncoding) {
    const store::Transaction& t = tx(2);
    TransactionView view{.transaction = &t,
                         .events = {{.kind = EventView::Kind::created,
                                     .node = &t.nodes[1],
                                     .witness_parties = {model::Name(alice)},
                                     .acs_delta = true}}};

    const ordered_json event =
        ordered_json::parse(transaction_response(view))["transaction"]["events"][0]["CreatedEvent"];

    EXPECT_EQ(
        keys_of(event),
        (std::vector<std::string>{
            "offset", "nodeId", "contractId", "templateId", "contractKey", "contractKeyHash",
            "createArgument", "createdEventBlob", "interfaceViews", "witnessParties", "signatories",
            "observers", "createdAt", "packageName", "representativePackageId", "acsDelta"}));
    const auto& c = *std::get<store::CreatedNode>(t.nodes[1].event).contract;
    EXPECT_EQ(event["nodeId"], 1);
    EXPECT_EQ(event["contractId"], c.contract_id);
    EXPECT_EQ(event["templateId"], c.template_id().to_string());
    EXPECT_EQ(event["createArgument"]["amount"]["initialAmount"], "10.0000000000");
    EXPECT_EQ(event["createdEventBlob"], "");
    EXPECT_TRUE(event["contractKey"].is_null());
    EXPECT_EQ(event["packageName"], "splice-amulet");
    EXPECT_EQ(event["representativePackageId"], c.template_id().package_id);
    EXPECT_EQ(event["acsDelta"], true);
}

TEST_F(TransactionJsonTest, CreatedEventBlobWhenAFilterAskedForIt) {
    const store::Transaction& t = tx(2);
    TransactionView view{.transaction = &t,
                         .events = {{.kind = EventView::Kind::created,
                                     .node = &t.nodes[1],
                                     .witness_parties = {model::Name(alice)},
                                     .include_created_event_blob = true}}};

    const json event =
        json::parse(transaction_response(view))["transaction"]["events"][0]["CreatedEvent"];

    EXPECT_EQ(event["createdEventBlob"],
              model::created_event_blob(*std::get<store::CreatedNode>(t.nodes[1].event).contract));
}

TEST_F(TransactionJsonTest, WritesAnExercisedEventWithItsSubtree) {
    const store::Transaction& t = tx(2);
    TransactionView view{.transaction = &t,
                         .events = {{.kind = EventView::Kind::exercised,
                                     .node = &t.nodes[0],
                                     .witness_parties = {model::Name(alice)}}}};

    const ordered_json event = ordered_json::parse(
        transaction_response(view))["transaction"]["events"][0]["ExercisedEvent"];

    EXPECT_EQ(keys_of(event), (std::vector<std::string>{
                                  "offset", "nodeId", "contractId", "templateId", "interfaceId",
                                  "choice", "choiceArgument", "actingParties", "consuming",
                                  "witnessParties", "lastDescendantNodeId", "exerciseResult",
                                  "packageName", "implementedInterfaces", "acsDelta"}));
    EXPECT_EQ(event["choice"], "AmuletRules_DevNet_Tap");
    EXPECT_EQ(event["consuming"], false);
    EXPECT_EQ(event["lastDescendantNodeId"], 1);
    EXPECT_TRUE(event["interfaceId"].is_null());
    EXPECT_EQ(event["actingParties"], ordered_json::array({alice}));
    EXPECT_EQ(event["choiceArgument"]["receiver"], alice);
}

TEST_F(TransactionJsonTest, WritesAnArchivedEventForAConsumingExercise) {
    const store::Transaction& t = tx(3);
    const store::Node* archive = nullptr;
    for (const auto& n : t.nodes) {
        const auto* x = store::exercised(n);
        if (x != nullptr && x->consuming) archive = &n;
    }
    ASSERT_NE(archive, nullptr);
    TransactionView view{.transaction = &t,
                         .events = {{.kind = EventView::Kind::archived,
                                     .node = archive,
                                     .witness_parties = {model::Name(alice)}}}};

    const ordered_json event = ordered_json::parse(
        transaction_response(view))["transaction"]["events"][0]["ArchivedEvent"];

    EXPECT_EQ(keys_of(event),
              (std::vector<std::string>{"offset", "nodeId", "contractId", "templateId",
                                        "witnessParties", "packageName", "implementedInterfaces"}));
    EXPECT_EQ(event["offset"], 3);
    EXPECT_EQ(event["contractId"], store::exercised(*archive)->contract_id);
    EXPECT_EQ(event["implementedInterfaces"], ordered_json::array());
}

}  // namespace
}  // namespace cantonlite::areas::ledger::transaction_json_test
