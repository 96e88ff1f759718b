// The command service of the JSON Ledger API on the live default network, from Canton
// release-line-3.5 and Splice 0.6 (research notes: command_service.md, splice_choices.md):
// - JsCommandService (JsCommands by deriveConfiguredCodec: commands, commandId, actAs required;
//   L335-351), TranscodePackageIdResolver (L52-54: an empty actAs is MISSING_FIELD before any
//   claim), SchemaProcessorsImpl (L187-194: unknown templates 404
//   TEMPLATES_OR_INTERFACES_NOT_FOUND; L161-166 an unknown choice INVALID_ARGUMENT), JsonCodec
//   (L44-53: missing and unexpected fields), IdentifierConverter (JsonV2Tests L748-761: a
//   templateId of three parts);
// - CommandServiceAuthorization (L48-59: MatchUserId, ActAs, ReadAs), CommandsValidator
//   (L117-176: command_id), CommandServiceImpl (L80-84: {updateId, completionOffset});
// - CommandDeduplicationError (L15-27: DUPLICATE_COMMAND "Command submission already exists.",
//   409, context completion_offset, existingSubmissionId, definite_answer "true");
// - LfEngine errors (CONTRACT_NOT_FOUND 404 "Contract could not be found with id <cid>";
//   DAML_FAILURE category 9 "Interpretation error: Error: User failure: <id> (error category 9):
//   <message>"; DAML_AUTHORIZATION_ERROR category 8);
// - AmuletRules.daml AmuletRules_DevNet_Tap (l.376-391) and AmuletRules_Mint (l.348-374);
//   ExternalPartyAmuletRules.daml TransferFactory_Transfer (l.341-444: self, offer, direct);
//   AmuletTransferInstruction.daml accept, reject, withdraw (l.77-108); AmuletRules.daml
//   checkTransferConstraints' insufficient funds (l.1070-1111).
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "areas/ledger/command_test_support.hpp"
#include "cantonlite/splice/splice_views.hpp"
#include "cantonlite/store/update.hpp"

namespace cantonlite::areas::ledger::command_service_test {
namespace {

using admin::admintest::alice;
using admin::admintest::bob;
using commandtest::carol;
using commandtest::factory_interface;
using commandtest::instruction_interface;
using commandtest::offer_template;
using commandtest::rules_template;
using nlohmann::json;

class CommandServiceTest : public commandtest::CommandFixture {
  protected:
    http::Response submit(const std::string& user, const json& body,
                          const std::string& path = "/v2/commands/submit-and-wait") const {
        return as_user(user, "POST", path, body.dump());
    }
    http::Response tap(const std::string& user, const std::string& party, const std::string& amount,
                       const std::string& id) const {
        return submit(user, commands(tap_command(party, amount), party, id, {rules()}));
    }
    const store::Transaction& transaction_at(std::int64_t offset) const {
        kept_ = network_->store().update_at(offset);
        return std::get<store::Transaction>(*kept_);
    }
    std::string tapped_amulet(const http::Response& r) const {
        const auto& tx =
            transaction_at(json::parse(r.body)["completionOffset"].get<std::int64_t>());
        return store::created(tx.nodes[2])->contract->contract_id.str();
    }
    http::Response tap_for_transaction(const std::string& id, const json& format) const {
        return submit("alice",
                      {{"commands", commands(tap_command(alice, "3"), alice, id, {rules()})},
                       {"transactionFormat", format}},
                      "/v2/commands/submit-and-wait-for-transaction");
    }
    // The AmuletTransferInstruction the last transaction created ("" when none).
    std::string created_instruction() const {
        for (const auto& node : transaction_at(ledger_end()).nodes) {
            if (const auto* c = store::created(node);
                c != nullptr &&
                c->contract->template_id().entity_name.str() == "AmuletTransferInstruction")
                return c->contract->contract_id.str();
        }
        return "";
    }
    // A TransferOffer's create arguments (TransferOffer.daml l.40-57: signatory sender, observer
    // receiver): alice offers bob 3 Amulet for an hour.
    json offer_arguments(const std::string& tracking_id,
                         const std::string& description = "by command") const {
        return {{"sender", alice},
                {"receiver", bob},
                {"dso", dso()},
                {"amount", {{"amount", "3"}, {"unit", "AmuletUnit"}}},
                {"description", description},
                {"expiresAt", now_text(3600)},
                {"trackingId", tracking_id}};
    }
    // A CreateAndExerciseCommand of such an offer and `choice`.
    json create_and_exercise_offer(const std::string& tracking_id, const std::string& choice,
                                   const json& argument = json::object()) const {
        return {{"CreateAndExerciseCommand",
                 {{"templateId", offer_template},
                  {"createArguments", offer_arguments(tracking_id)},
                  {"choice", choice},
                  {"choiceArgument", argument}}}};
    }

  private:
    mutable store::UpdatePtr kept_;
};

// ---- submit-and-wait and the tap ----

TEST_F(CommandServiceTest, ATapAnswersTheUpdateIdAndCompletionOffset) {
    const std::int64_t before = ledger_end();

    const http::Response r = tap("alice", alice, "25.5", "tap-1");

    ASSERT_EQ(r.status, 200) << r.body;
    const json j = json::parse(r.body);
    EXPECT_EQ(j["completionOffset"], before + 1);
    EXPECT_EQ(j["updateId"], network_->store().update_id_for(before + 1));
    EXPECT_EQ(r.body, R"({"updateId":")" + network_->store().update_id_for(before + 1) +
                          R"(","completionOffset":)" + std::to_string(before + 1) + "}");
}

TEST_F(CommandServiceTest, ATapRunsTheMintInsideItAndCreatesTheReceiversAmulet) {
    const http::Response r = tap("alice", alice, "25.5", "tap-tree");
    ASSERT_EQ(r.status, 200) << r.body;

    const auto& tx = transaction_at(json::parse(r.body)["completionOffset"].get<std::int64_t>());
    ASSERT_EQ(tx.nodes.size(), 3U);
    const auto* tap_node = store::exercised(tx.nodes[0]);
    ASSERT_NE(tap_node, nullptr);
    EXPECT_EQ(tap_node->choice.str(), "AmuletRules_DevNet_Tap");
    EXPECT_FALSE(tap_node->consuming);
    EXPECT_EQ(model::texts(tap_node->acting_parties), std::vector<std::string>{alice});
    const auto* mint = store::exercised(tx.nodes[1]);
    ASSERT_NE(mint, nullptr);
    EXPECT_EQ(mint->choice.str(), "AmuletRules_Mint");
    EXPECT_EQ(mint->acting_parties.size(), 2U);  // dso and the receiver
    const auto* created = store::created(tx.nodes[2]);
    ASSERT_NE(created, nullptr);
    EXPECT_EQ(created->contract->template_id().entity_name.str(), "Amulet");
    const std::string cid = created->contract->contract_id.str();
    const auto mine = amulets_of(alice);
    EXPECT_NE(std::find(mine.begin(), mine.end(), cid), mine.end());
    EXPECT_EQ(tx.command_id.str(), "tap-tree");
}

TEST_F(CommandServiceTest, ForTransactionAnswersTheTransactionOfTheSubmitters) {
    const http::Response r =
        submit("alice", {{"commands", commands(tap_command(alice, "3"), alice, "t-tx", {rules()})}},
               "/v2/commands/submit-and-wait-for-transaction");

    ASSERT_EQ(r.status, 200) << r.body;
    const json tx = json::parse(r.body)["transaction"];
    EXPECT_EQ(tx["commandId"], "t-tx");
    ASSERT_EQ(tx["events"].size(), 1U);  // ACS_DELTA: the amulet alone
    EXPECT_EQ(tx["events"][0]["CreatedEvent"]["createArgument"]["owner"], alice);
    EXPECT_EQ(tx["events"][0]["CreatedEvent"]["createArgument"]["amount"]["initialAmount"],
              "3.0000000000");
}

TEST_F(CommandServiceTest, ForTransactionWithAFormatShowsWhatItAsksFor) {
    const json format{
        {"eventFormat",
         {{"filtersByParty",
           {{alice,
             {{"cumulative",
               json::array({{{"identifierFilter",
                              {{"WildcardFilter", {{"value", json::object()}}}}}}})}}}}},
          {"verbose", true}}},
        {"transactionShape", "TRANSACTION_SHAPE_LEDGER_EFFECTS"}};

    const http::Response r = tap_for_transaction("t-fmt", format);

    ASSERT_EQ(r.status, 200) << r.body;
    const json events = json::parse(r.body)["transaction"]["events"];
    ASSERT_EQ(events.size(), 3U);  // LEDGER_EFFECTS: the tap, the mint, the amulet
    EXPECT_EQ(events[0]["ExercisedEvent"]["choice"], "AmuletRules_DevNet_Tap");
    EXPECT_EQ(events[1]["ExercisedEvent"]["choice"], "AmuletRules_Mint");
}

TEST_F(CommandServiceTest, ForTransactionWithAFormatForAnotherPartyNeedsItsClaims) {
    const json format{{"eventFormat", {{"filtersByParty", {{bob, json::object()}}}}},
                      {"transactionShape", "TRANSACTION_SHAPE_ACS_DELTA"}};

    const http::Response r = tap_for_transaction("t-bob", format);

    EXPECT_EQ(r.status, 403) << r.body;
}

TEST_F(CommandServiceTest, AsyncSubmitAnswersAnEmptyObjectAndTheCommandCompletes) {
    const http::Response r =
        submit("alice", commands(tap_command(alice, "1"), alice, "async-1", {rules()}),
               "/v2/commands/async/submit");

    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(r.body, "{}");
    const http::Response c =
        as_user("alice", "POST", "/v2/commands/completions",
                json{{"userId", "alice"}, {"parties", {alice}}, {"beginExclusive", 0}}.dump());
    ASSERT_EQ(c.status, 200) << c.body;
    const json list = json::parse(c.body);
    ASSERT_EQ(list.size(), 1U);
    const json done = list[0]["completionResponse"]["Completion"]["value"];
    EXPECT_EQ(done["commandId"], "async-1");
    EXPECT_EQ(done["status"], json::parse(R"({"code":0,"message":"","details":[]})"));
    EXPECT_EQ(done["userId"], "alice");
    EXPECT_EQ(done["actAs"], json::array({alice}));
    EXPECT_EQ(done["offset"], ledger_end());
    EXPECT_EQ(done["updateId"], network_->store().update_id_for(ledger_end()));
}

// ---- deduplication ----

TEST_F(CommandServiceTest, TheSameCommandIdAgainIsADuplicateWithTheEarlierCompletion) {
    json body = commands(tap_command(alice, "2"), alice, "dup-1", {rules()});
    body["submissionId"] = "first";
    ASSERT_EQ(submit("alice", body).status, 200);
    const std::int64_t first = ledger_end();
    body["submissionId"] = "second";

    const http::Response again = submit("alice", body);

    EXPECT_EQ(again.status, 409) << again.body;
    const json e = error_of(again);
    EXPECT_EQ(e["code"], "DUPLICATE_COMMAND");
    EXPECT_EQ(e["cause"], "Command submission already exists.");
    EXPECT_EQ(e["errorCategory"], 10);
    EXPECT_EQ(e["correlationId"], "second");
    EXPECT_EQ(e["context"]["completion_offset"], std::to_string(first));
    EXPECT_EQ(e["context"]["existingSubmissionId"], "Some(first)");
    EXPECT_EQ(e["context"]["definite_answer"], "true");
    EXPECT_EQ(ledger_end(), first);  // nothing committed
}

TEST_F(CommandServiceTest, ADeduplicationOffsetAfterTheEarlierCommandLetsItRunAgain) {
    ASSERT_EQ(tap("alice", alice, "2", "dup-2").status, 200);
    json body = commands(tap_command(alice, "2"), alice, "dup-2", {rules()});
    body["deduplicationPeriod"] = {{"DeduplicationOffset", {{"value", ledger_end()}}}};

    EXPECT_EQ(submit("alice", body).status, 200);
}

TEST_F(CommandServiceTest, ADeduplicationDurationOfAnySizeIsAPeriodBackFromNow) {
    ASSERT_EQ(tap("alice", alice, "2", "dup-3").status, 200);
    json body = commands(tap_command(alice, "2"), alice, "dup-3", {rules()});
    body["deduplicationPeriod"] = {
        {"DeduplicationDuration",
         {{"value",
           {{"seconds", std::numeric_limits<std::int64_t>::max()}, {"nanos", 999999999}}}}}};
    EXPECT_EQ(submit("alice", body).status, 409);

    // A zero period reaches back to nothing: the earlier command is outside it.
    body["deduplicationPeriod"] = {{"DeduplicationDuration", {{"value", {{"seconds", 0}}}}}};
    EXPECT_EQ(submit("alice", body).status, 200);
}

TEST_F(CommandServiceTest, AnotherUserMayUseTheSameCommandId) {
    ASSERT_EQ(tap("alice", alice, "2", "shared-id").status, 200);
    EXPECT_EQ(tap("ledger-api-user", alice, "2", "shared-id").status, 403);  // may not act as alice
    EXPECT_EQ(tap("bob", bob, "2", "shared-id").status, 200);
}

// ---- the JSON layer, before any claim ----

TEST_F(CommandServiceTest, AnEmptyActAsIsAMissingFieldEvenWithoutAToken) {
    json body = commands(tap_command(alice, "1"), alice, "no-actas");
    body["actAs"] = json::array();

    const http::Response r = call("POST", "/v2/commands/submit-and-wait", body.dump());

    EXPECT_EQ(r.status, 400) << r.body;
    EXPECT_EQ(error_of(r)["code"], "MISSING_FIELD");
    EXPECT_EQ(error_of(r)["cause"],
              "The submitted command is missing a mandatory field: act_as/actAs");
}

TEST_F(CommandServiceTest, AMissingCommandIdKeyIsTapirsTextError) {
    json body = commands(tap_command(alice, "1"), alice, "x");
    body.erase("commandId");

    const http::Response r = submit("alice", body);

    EXPECT_EQ(r.status, 400);
    EXPECT_EQ(r.content_type, "text/plain; charset=UTF-8");
    EXPECT_EQ(r.body, "Invalid value for: body (Missing required field at 'commandId')");
}

TEST_F(CommandServiceTest, ATemplateIdOfTwoPartsIsTapirsTextError) {
    json command = tap_command(alice, "1");
    command["ExerciseCommand"]["templateId"] = "Splice.AmuletRules:AmuletRules";

    const http::Response r = submit("alice", commands(command, alice, "x"));

    EXPECT_EQ(r.status, 400);
    EXPECT_EQ(r.body,
              "Invalid value for: body (Invalid identifier format (Splice.AmuletRules:AmuletRules) "
              "not matching the expected format (<package>:<moduleName>:<entityName>) at "
              "'commands[0].ExerciseCommand.templateId')");
}

TEST_F(CommandServiceTest, AnUnknownTemplateIs404) {
    json command = tap_command(alice, "1");
    command["ExerciseCommand"]["templateId"] = "Bad:Template:Id";

    const http::Response r = submit("alice", commands(command, alice, "x"));

    EXPECT_EQ(r.status, 404) << r.body;
    EXPECT_EQ(error_of(r)["code"], "TEMPLATES_OR_INTERFACES_NOT_FOUND");
    EXPECT_EQ(error_of(r)["cause"], "Templates do not exist: [Bad:Template:Id].");
    EXPECT_EQ(error_of(r)["errorCategory"], 11);
}

TEST_F(CommandServiceTest, AnUnknownPackageNameFailsThePackageSelection) {
    json command = tap_command(alice, "1");
    command["ExerciseCommand"]["templateId"] = "#no-such-package:M:E";

    const http::Response r = submit("alice", commands(command, alice, "x"));

    EXPECT_EQ(r.status, 400) << r.body;
    EXPECT_EQ(error_of(r)["code"], "JSON_API_PACKAGE_SELECTION_FAILED");
}

TEST_F(CommandServiceTest, AChoiceCantonliteDoesNotModelIsRefusedSayingSo) {
    const http::Response r = submit(
        "alice",
        commands(exercise(rules_template, rules(), "AmuletRules_BuyMemberTraffic", json::object()),
                 alice, "x"));

    EXPECT_EQ(r.status, 400) << r.body;
    const json e = error_of(r);
    EXPECT_EQ(e["code"], "INVALID_ARGUMENT");
    const std::string cause = e["cause"];
    EXPECT_TRUE(cause.starts_with("The submitted request has invalid arguments: Invalid template:" +
                                  network_->store().network().package_ids.at("splice-amulet") +
                                  ":Splice.AmuletRules:AmuletRules or choice:"
                                  "AmuletRules_BuyMemberTraffic"))
        << cause;
    EXPECT_NE(cause.find("cantonlite does not model this choice"), std::string::npos);
    EXPECT_NE(cause.find("AmuletRules_DevNet_Tap"), std::string::npos);
}

TEST_F(CommandServiceTest, AMissingArgumentFieldIsAPreprocessingFailure) {
    json command = tap_command(alice, "1");
    command["ExerciseCommand"]["choiceArgument"].erase("openRound");

    const http::Response r = submit("alice", commands(command, alice, "x"));

    EXPECT_EQ(r.status, 400) << r.body;
    EXPECT_EQ(error_of(r)["code"], "COMMAND_PREPROCESSING_FAILED");
    EXPECT_EQ(error_of(r)["cause"], "Missing non-optional fields: Set(openRound)");
    EXPECT_EQ(error_of(r)["definiteAnswer"], false);  // built by the JSON layer
}

TEST_F(CommandServiceTest, AnUnexpectedArgumentFieldIsAnInvalidArgument) {
    json command = tap_command(alice, "1");
    command["ExerciseCommand"]["choiceArgument"]["extra"] = 1;

    const http::Response r = submit("alice", commands(command, alice, "x"));

    EXPECT_EQ(r.status, 400) << r.body;
    EXPECT_EQ(error_of(r)["cause"],
              "The submitted request has invalid arguments: Unexpected fields: Set(extra)");
}

TEST_F(CommandServiceTest, CreatingATemplateCantonliteDoesNotModelIsRefusedSayingWhy) {
    const json create{
        {"CreateCommand", {{"templateId", rules_template}, {"createArguments", json::object()}}}};

    const http::Response r = submit("alice", commands(create, alice, "x"));

    EXPECT_EQ(r.status, 400) << r.body;
    EXPECT_NE(error_of(r)["cause"].get<std::string>().find("cantonlite does not model creating"),
              std::string::npos);
}

TEST_F(CommandServiceTest, ASenderCreatesATransferOfferTheReceiverAccepts) {
    const json create{
        {"CreateCommand",
         {{"templateId", offer_template}, {"createArguments", offer_arguments("created-offer")}}}};

    const http::Response r = submit("alice", commands(create, alice, "create-offer"));

    ASSERT_EQ(r.status, 200) << r.body;
    const auto* created = store::created(transaction_at(ledger_end()).nodes[0]);
    ASSERT_NE(created, nullptr);
    EXPECT_EQ(model::texts(created->contract->signatories), std::vector<std::string>{alice});
    const std::string offer = created->contract->contract_id.str();
    const auto bobs_before = amulets_of(bob).size();
    const http::Response accepted = submit(
        "bob", commands(exercise(offer_template, offer, "TransferOffer_Accept", json::object()),
                        bob, "accept-created"));
    ASSERT_EQ(accepted.status, 200) << accepted.body;
    EXPECT_EQ(amulets_of(bob).size(), bobs_before + 1);
}

// CreateAndExerciseCommand: the create, then the choice on the contract just created, two roots
// of one transaction (Canton's CommandPreprocessor: Command.CreateAndExercise).
TEST_F(CommandServiceTest, CreateAndExerciseCreatesThenExercisesTheNewContract) {
    const json command = create_and_exercise_offer(
        "created-and-withdrawn", "TransferOffer_Withdraw", {{"reason", "changed my mind"}});

    const http::Response r = submit("alice", commands(command, alice, "create-and-withdraw"));

    ASSERT_EQ(r.status, 200) << r.body;
    const auto& tx = transaction_at(ledger_end());
    ASSERT_GE(tx.nodes.size(), 2U);
    const auto* created = store::created(tx.nodes[0]);
    ASSERT_NE(created, nullptr);
    const auto* withdrawn = store::exercised(tx.nodes[1]);
    ASSERT_NE(withdrawn, nullptr);
    EXPECT_EQ(withdrawn->contract_id, created->contract->contract_id);
    EXPECT_EQ(withdrawn->choice.str(), "TransferOffer_Withdraw");
    EXPECT_TRUE(withdrawn->consuming);
    EXPECT_EQ(model::texts(withdrawn->acting_parties), std::vector<std::string>{alice});
    // Two roots: the exercise is not under the create.
    EXPECT_EQ(tx.nodes[1].node_id, 1);
    // Transient: created and archived at once, so never active.
    EXPECT_FALSE(
        network_->store().contract(created->contract->contract_id.str())->archived_offset() ==
        std::nullopt);
}

TEST_F(CommandServiceTest, CreateAndExerciseArchiveIsTheArchiveChoice) {
    const json command = create_and_exercise_offer("created-and-archived", "Archive");

    const http::Response r = submit("alice", commands(command, alice, "create-and-archive"));

    ASSERT_EQ(r.status, 200) << r.body;
    const auto& tx = transaction_at(ledger_end());
    ASSERT_EQ(tx.nodes.size(), 2U);
    const auto* archived = store::exercised(tx.nodes[1]);
    ASSERT_NE(archived, nullptr);
    EXPECT_EQ(archived->choice.str(), "Archive");
    EXPECT_EQ(archived->contract_id, store::created(tx.nodes[0])->contract->contract_id);
}

TEST_F(CommandServiceTest, CreateAndExerciseChecksTheChoicesControllers) {
    // TransferOffer_Accept's controller is the receiver: alice alone cannot accept her own offer.
    const json command = create_and_exercise_offer("self-accept", "TransferOffer_Accept");
    const std::int64_t before = ledger_end();

    const http::Response r = submit("alice", commands(command, alice, "self-accept"));

    EXPECT_EQ(r.status, 400) << r.body;
    EXPECT_EQ(error_of(r)["code"], "DAML_AUTHORIZATION_ERROR");
    EXPECT_EQ(ledger_end(), before);
}

TEST_F(CommandServiceTest, CreateAndExerciseOfAChoiceNotModelledIsAnInvalidArgument) {
    const json command = create_and_exercise_offer("unmodelled", "TransferOffer_Renew");

    const http::Response r = submit("alice", commands(command, alice, "unmodelled"));

    EXPECT_EQ(r.status, 400) << r.body;
    EXPECT_EQ(error_of(r)["code"], "INVALID_ARGUMENT");
    EXPECT_NE(error_of(r)["cause"].get<std::string>().find("cantonlite does not model this choice"),
              std::string::npos);
}

TEST_F(CommandServiceTest, CreateAndExerciseOfATemplateNotModelledIsRefusedSayingWhy) {
    const json command{{"CreateAndExerciseCommand",
                        {{"templateId", rules_template},
                         {"createArguments", json::object()},
                         {"choice", "Archive"},
                         {"choiceArgument", json::object()}}}};

    const http::Response r = submit("alice", commands(command, alice, "x"));

    EXPECT_EQ(r.status, 400) << r.body;
    EXPECT_NE(error_of(r)["cause"].get<std::string>().find("cantonlite does not model creating"),
              std::string::npos);
}

TEST_F(CommandServiceTest, ExerciseByKeyFindsNoKeyOnTheSpliceTemplates) {
    const json command{{"ExerciseByKeyCommand",
                        {{"templateId", rules_template},
                         {"contractKey", dso()},
                         {"choice", "AmuletRules_DevNet_Tap"},
                         {"choiceArgument", json::object()}}}};

    const http::Response r = submit("alice", commands(command, alice, "by-key"));

    EXPECT_EQ(r.status, 400) << r.body;
    EXPECT_EQ(error_of(r)["code"], "COMMAND_PREPROCESSING_FAILED");
    EXPECT_EQ(error_of(r)["cause"],
              "unknown template key " +
                  network_->store().contract(rules())->contract->template_id().to_string());
}

TEST_F(CommandServiceTest, CreatingAnAmuletNeedsTheDsosAuthority) {
    const json create{{"CreateCommand",
                       {{"templateId", "#splice-amulet:Splice.Amulet:Amulet"},
                        {"createArguments",
                         {{"dso", dso()},
                          {"owner", alice},
                          {"amount",
                           {{"initialAmount", "1000000"},
                            {"createdAt", {{"number", "1"}}},
                            {"ratePerRound", {{"rate", "0.0"}}}}}}}}}};

    const http::Response r = submit("alice", commands(create, alice, "free-money"));

    EXPECT_EQ(r.status, 400) << r.body;
    EXPECT_EQ(error_of(r)["code"], "DAML_AUTHORIZATION_ERROR");
}

TEST_F(CommandServiceTest, ACreateFailingItsEnsureIsAPreconditionViolation) {
    const json create{{"CreateCommand",
                       {{"templateId", offer_template},
                        {"createArguments", offer_arguments("long", std::string(280, 'x'))}}}};

    const http::Response r = submit("alice", commands(create, alice, "too-long"));

    EXPECT_EQ(r.status, 400) << r.body;
    EXPECT_EQ(error_of(r)["code"], "TEMPLATE_PRECONDITION_VIOLATED");
}

// ---- the claims ----

TEST_F(CommandServiceTest, WithoutATokenIsUnauthenticated) {
    const http::Response r = call("POST", "/v2/commands/submit-and-wait",
                                  commands(tap_command(alice, "1"), alice, "x").dump());
    EXPECT_EQ(r.status, 401) << r.body;
}

TEST_F(CommandServiceTest, ActingAsAPartyTheUserHasNoRightToIsDenied) {
    const http::Response r = tap("alice", bob, "1", "as-bob");

    EXPECT_EQ(r.status, 403) << r.body;
    EXPECT_EQ(error_of(r)["code"], "NA");  // redacted
}

TEST_F(CommandServiceTest, AnotherUsersUserIdIsDenied) {
    json body = commands(tap_command(alice, "1"), alice, "x", {rules()});
    body["userId"] = "bob";

    EXPECT_EQ(submit("alice", body).status, 403);
}

// ---- the ledger's checks ----

TEST_F(CommandServiceTest, AnUnknownContractIsNotFoundWithTheSubmissionIdAsCorrelationId) {
    json body = commands(exercise(rules_template, "00ab", "AmuletRules_DevNet_Tap",
                                  {{"receiver", alice}, {"amount", "1"}, {"openRound", round()}}),
                         alice, "x");
    body["submissionId"] = "sub-404";

    const http::Response r = submit("alice", body);

    EXPECT_EQ(r.status, 404) << r.body;
    const json e = error_of(r);
    EXPECT_EQ(e["code"], "CONTRACT_NOT_FOUND");
    EXPECT_EQ(e["cause"], "Contract could not be found with id 00ab");
    EXPECT_EQ(e["correlationId"], "sub-404");
    EXPECT_EQ(e["resources"], json::parse(R"j([["ErrorResource(CONTRACT_ID)","00ab"]])j"));
}

TEST_F(CommandServiceTest, AContractTheSubmittersCannotSeeMustBeDisclosed) {
    // The AmuletRules are the DSO's: a client discloses them, as the registry hands them out.
    const http::Response r = submit("alice", commands(tap_command(alice, "1"), alice, "hidden"));

    EXPECT_EQ(r.status, 404) << r.body;
    EXPECT_EQ(error_of(r)["code"], "CONTRACT_NOT_FOUND");
}

TEST_F(CommandServiceTest, TappingForAnotherPartyLacksItsAuthority) {
    const http::Response r =
        submit("alice", commands(tap_command(bob, "1"), alice, "for-bob", {rules()}));

    EXPECT_EQ(r.status, 400) << r.body;
    EXPECT_EQ(error_of(r)["code"], "DAML_AUTHORIZATION_ERROR");
    EXPECT_EQ(error_of(r)["errorCategory"], 8);
}

TEST_F(CommandServiceTest, ATapAboveTheLimitFailsTheRequirement) {
    const http::Response r = tap("alice", alice, "100000001", "too-much");

    EXPECT_EQ(r.status, 400) << r.body;
    const json e = error_of(r);
    EXPECT_EQ(e["code"], "DAML_FAILURE");
    EXPECT_EQ(e["errorCategory"], 9);
    EXPECT_EQ(e["cause"],
              "Interpretation error: Error: User failure: "
              "UNHANDLED_EXCEPTION/DA.Exception.AssertionFailed:AssertionFailed (error category "
              "9): The requirement 'Tapped amount <= 100,000,000' was not met.");
    EXPECT_EQ(e["context"]["error_id"],
              "UNHANDLED_EXCEPTION/DA.Exception.AssertionFailed:AssertionFailed");
}

// ---- the token standard's transfer factory ----

TEST_F(CommandServiceTest, ASelfTransferMergesTheInputsIntoOneAmulet) {
    const std::string a = tapped_amulet(tap("alice", alice, "10", "m1"));
    const std::string b = tapped_amulet(tap("alice", alice, "5", "m2"));

    const http::Response r = submit("alice", commands(factory_transfer(alice, alice, "15", {a, b}),
                                                      alice, "merge", {factory()}));

    ASSERT_EQ(r.status, 200) << r.body;
    const auto mine = amulets_of(alice);
    EXPECT_EQ(std::find(mine.begin(), mine.end(), a), mine.end());
    EXPECT_EQ(std::find(mine.begin(), mine.end(), b), mine.end());
    const auto& tx = transaction_at(ledger_end());
    const auto* root = store::exercised(tx.nodes[0]);
    ASSERT_NE(root, nullptr);
    EXPECT_EQ(root->choice.str(), "TransferFactory_Transfer");
    ASSERT_TRUE(root->interface_id().has_value());
    EXPECT_EQ(root->interface_id()->entity_name.str(), "TransferFactory");
    int created = 0;
    for (const auto& node : tx.nodes) created += store::created(node) != nullptr ? 1 : 0;
    EXPECT_EQ(created, 1);  // one amulet of 15, no change
}

TEST_F(CommandServiceTest, ASplitLeavesTheChangeWithTheSender) {
    const std::string a = tapped_amulet(tap("alice", alice, "10", "s1"));

    const http::Response r = submit(
        "alice", commands(factory_transfer(alice, alice, "4", {a}), alice, "split", {factory()}));

    ASSERT_EQ(r.status, 200) << r.body;
    const auto& tx = transaction_at(ledger_end());
    std::vector<std::string> amounts;
    for (const auto& node : tx.nodes) {
        if (const auto* c = store::created(node)) {
            amounts.push_back(model::unpack(c->contract->argument)
                                  .items.at(2)
                                  .items.at(0)
                                  .decimal.to_compact_string());
        }
    }
    EXPECT_EQ(amounts, (std::vector<std::string>{"4.0", "6.0"}));
}

TEST_F(CommandServiceTest, SpendingMoreThanTheInputsIsInsufficientFunds) {
    const std::string a = tapped_amulet(tap("alice", alice, "10", "f1"));
    const std::int64_t before = ledger_end();

    const http::Response r = submit(
        "alice", commands(factory_transfer(alice, alice, "12.5", {a}), alice, "poor", {factory()}));

    EXPECT_EQ(r.status, 400) << r.body;
    const json e = error_of(r);
    EXPECT_EQ(e["code"], "DAML_FAILURE");
    EXPECT_EQ(e["cause"],
              "Interpretation error: Error: User failure: "
              "splice.lfdecentralizedtrust.org/insufficient-funds (error category 9): "
              "Insufficient funds: you are missing 2.5 to complete this transfer.");
    EXPECT_EQ(e["context"]["requiredAmount"], "2.5");
    EXPECT_EQ(ledger_end(), before);
    const auto mine = amulets_of(alice);
    EXPECT_NE(std::find(mine.begin(), mine.end(), a), mine.end());  // not spent
}

TEST_F(CommandServiceTest, AnAmuletIsSpentOnceTheSecondSpendIsNotFound) {
    const std::string a = tapped_amulet(tap("alice", alice, "10", "d1"));
    ASSERT_EQ(submit("alice", commands(factory_transfer(alice, alice, "10", {a}), alice, "spend-1",
                                       {factory()}))
                  .status,
              200);

    const http::Response again = submit("alice", commands(factory_transfer(alice, alice, "10", {a}),
                                                          alice, "spend-2", {factory()}));

    EXPECT_EQ(again.status, 404) << again.body;
    EXPECT_EQ(error_of(again)["code"], "CONTRACT_NOT_FOUND");
}

TEST_F(CommandServiceTest, ATransferToAPreapprovedReceiverCompletesAtOnce) {
    const std::string a = tapped_amulet(tap("alice", alice, "10", "p1"));
    const std::string preapproval =
        views().transfer_preapproval_of(bob)->contract->contract_id.str();
    const auto bobs_before = amulets_of(bob).size();

    const http::Response r = submit(
        "alice",
        commands(factory_transfer(
                     alice, bob, "7", {a},
                     {{"transfer-preapproval", {{"tag", "AV_ContractId"}, {"value", preapproval}}},
                      {"open-round", {{"tag", "AV_ContractId"}, {"value", round()}}}}),
                 alice, "direct", {factory(), preapproval}));

    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(amulets_of(bob).size(), bobs_before + 1);
}

TEST_F(CommandServiceTest, AnOfferLocksTheAmountAndTheReceiverAcceptsIt) {
    const std::string a = tapped_amulet(tap("alice", alice, "10", "o1"));
    const auto carols_before = amulets_of(carol).size();

    const http::Response offer = submit(
        "alice", commands(factory_transfer(alice, carol, "6", {a}), alice, "offer", {factory()}));
    ASSERT_EQ(offer.status, 200) << offer.body;
    const std::string instruction = created_instruction();
    ASSERT_FALSE(instruction.empty());
    const json accept = exercise(
        instruction_interface, instruction, "TransferInstruction_Accept",
        {{"extraArgs",
          {{"context", {{"values", json::object()}}}, {"meta", {{"values", json::object()}}}}}});

    // The sender cannot accept it: the receiver controls the choice.
    const http::Response by_sender = submit("alice", commands(accept, alice, "accept-a"));
    EXPECT_EQ(by_sender.status, 400) << by_sender.body;
    EXPECT_EQ(error_of(by_sender)["code"], "DAML_AUTHORIZATION_ERROR");

    const http::Response r = submit("carol", commands(accept, carol, "accept"));

    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(amulets_of(carol).size(), carols_before + 1);
    EXPECT_FALSE(network_->store().contract(instruction)->archived_offset() == std::nullopt);
}

TEST_F(CommandServiceTest, AWithdrawnOfferGivesTheAmountBack) {
    const std::string a = tapped_amulet(tap("alice", alice, "10", "w1"));
    ASSERT_EQ(submit("alice", commands(factory_transfer(alice, carol, "10", {a}), alice, "offer-w",
                                       {factory()}))
                  .status,
              200);
    const std::string instruction = created_instruction();
    const auto alices_before = amulets_of(alice).size();

    const http::Response r =
        submit("alice",
               commands(exercise(instruction_interface, instruction, "TransferInstruction_Withdraw",
                                 {{"extraArgs",
                                   {{"context", {{"values", json::object()}}},
                                    {"meta", {{"values", json::object()}}}}}}),
                        alice, "withdraw"));

    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(amulets_of(alice).size(), alices_before + 1);
}

// ---- AmuletRules_Transfer, the preapprovals ----

json amulet_transfer_argument(const std::string& sender, const std::string& receiver,
                              const std::string& amount, const std::string& input,
                              const std::string& round, const json& expected_dso) {
    return {{"transfer",
             {{"sender", sender},
              {"provider", sender},
              {"inputs", json::array({{{"tag", "InputAmulet"}, {"value", input}}})},
              {"outputs", json::array({{{"receiver", receiver},
                                        {"receiverFeeRatio", "0.0"},
                                        {"amount", amount},
                                        {"lock", nullptr},
                                        {"meta", nullptr}}})},
              {"beneficiaries", nullptr}}},
            {"context",
             {{"openMiningRound", round},
              {"issuingMiningRounds", json::array()},
              {"validatorRights", json::array()},
              {"featuredAppRight", nullptr}}},
            {"expectedDso", expected_dso}};
}

TEST_F(CommandServiceTest, AnAmuletRulesTransferToTheSenderSplitsItsAmulet) {
    const std::string a = tapped_amulet(tap("alice", alice, "10", "art-1"));

    const http::Response r = submit(
        "alice", commands(exercise(rules_template, rules(), "AmuletRules_Transfer",
                                   amulet_transfer_argument(alice, alice, "4", a, round(), dso())),
                          alice, "art-split", {rules()}));

    ASSERT_EQ(r.status, 200) << r.body;
    const auto& tx = transaction_at(ledger_end());
    EXPECT_EQ(store::exercised(tx.nodes[0])->choice.str(), "AmuletRules_Transfer");
    const auto mine = amulets_of(alice);
    EXPECT_EQ(std::find(mine.begin(), mine.end(), a), mine.end());
}

TEST_F(CommandServiceTest, AnAmuletRulesTransferToAnotherNeedsTheReceiversAuthority) {
    const std::string a = tapped_amulet(tap("alice", alice, "10", "art-2"));

    const http::Response r = submit(
        "alice", commands(exercise(rules_template, rules(), "AmuletRules_Transfer",
                                   amulet_transfer_argument(alice, bob, "4", a, round(), dso())),
                          alice, "art-bob", {rules()}));

    EXPECT_EQ(r.status, 400) << r.body;
    EXPECT_EQ(error_of(r)["code"], "DAML_AUTHORIZATION_ERROR");
}

TEST_F(CommandServiceTest, AnAmuletRulesTransferWithoutItsExpectedDsoAborts) {
    const std::string a = tapped_amulet(tap("alice", alice, "10", "art-3"));

    const http::Response r =
        submit("alice",
               commands(exercise(rules_template, rules(), "AmuletRules_Transfer",
                                 amulet_transfer_argument(alice, alice, "4", a, round(), nullptr)),
                        alice, "art-nodso", {rules()}));

    EXPECT_EQ(r.status, 400) << r.body;
    EXPECT_EQ(error_of(r)["cause"],
              "Interpretation error: Error: User failure: "
              "UNHANDLED_EXCEPTION/DA.Exception.GeneralError:GeneralError (error category 9): "
              "Expected DSO party not set by caller. Please change your code to set it as a "
              "prudent security measure.");
}

// The wallet SDK's amulet.preapproval.command.create: the receiver proposes, and the validator's
// AcceptTransferPreapprovalProposalTrigger accepts for it (TransferPreapprovalProposal_Accept,
// whose AmuletRules_CreateTransferPreapproval creates the preapproval, for 90 days).
TEST_F(CommandServiceTest, TheValidatorAcceptsAPreapprovalProposalForItsReceiver) {
    const std::string validator = network_->store().network().validator_party;
    steps({{"step", "grant_rights"},
           {"user", "ledger-api-user"},
           {"rights", {{"can_act_as", {"carol"}}}}});
    const std::int64_t before = ledger_end();
    const auto propose = [&](const std::string& id) {
        return submit(
            "ledger-api-user",
            commands({{"CreateCommand",
                       {{"templateId",
                         "#splice-wallet:Splice.Wallet.TransferPreapproval:"
                         "TransferPreapprovalProposal"},
                        {"createArguments",
                         {{"provider", validator}, {"receiver", carol}, {"expectedDso", dso()}}}}}},
                     carol, id));
    };

    const http::Response r = propose("propose");

    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(json::parse(r.body).at("completionOffset"), before + 1);
    ASSERT_EQ(ledger_end(), before + 2);  // the proposal, then the validator's accept
    const auto& accept = transaction_at(before + 2);
    const auto* root = store::exercised(accept.nodes[0]);
    ASSERT_NE(root, nullptr);
    EXPECT_EQ(root->choice.str(), "TransferPreapprovalProposal_Accept");
    EXPECT_EQ(store::exercised(accept.nodes[1])->choice.str(),
              "AmuletRules_CreateTransferPreapproval");
    const auto preapproval = views().transfer_preapproval_of(carol);
    ASSERT_TRUE(preapproval.has_value());
    const model::Value argument = model::unpack(preapproval->contract->argument);
    const auto provider = std::find(argument.labels.begin(), argument.labels.end(), "provider");
    ASSERT_NE(provider, argument.labels.end());
    EXPECT_EQ(argument.items[static_cast<std::size_t>(provider - argument.labels.begin())].text,
              validator);
    // A second proposal while one exists is left alone.
    const http::Response again = propose("propose-again");
    ASSERT_EQ(again.status, 200) << again.body;
    EXPECT_EQ(ledger_end(), before + 3);
}

// TransferPreapproval_Renew (controller provider: the same contract, lastRenewedAt its old
// expiry) and TransferPreapproval_Cancel (receiver or provider), AmuletRules.daml l.2147-2178.
TEST_F(CommandServiceTest, TheProviderRenewsAPreapprovalAndTheReceiverCancelsIt) {
    const std::string validator = network_->store().network().validator_party;
    steps({{{"step", "grant_rights"},
            {"user", "ledger-api-user"},
            {"rights", {{"can_act_as", {"carol"}}}}},
           {{"step", "create_transfer_preapproval"},
            {"receiver", "carol"},
            {"expires_at", now_text(10 * 24 * 3600)}}});
    const std::string preapproval =
        views().transfer_preapproval_of(carol)->contract->contract_id.str();
    const json context{{"amuletRules", rules()},
                       {"context",
                        {{"openMiningRound", round()},
                         {"issuingMiningRounds", json::array()},
                         {"validatorRights", json::array()},
                         {"featuredAppRight", nullptr}}}};
    const std::string preapproval_template =
        "#splice-amulet:Splice.AmuletRules:TransferPreapproval";
    const auto renew = [&](const std::string& id, const std::string& until) {
        json body = commands(
            exercise(preapproval_template, preapproval, "TransferPreapproval_Renew",
                     {{"context", context}, {"inputs", json::array()}, {"newExpiresAt", until}}),
            validator, id, {rules()});
        return submit("ledger-api-user", body);
    };

    http::Response r = renew("renew-early", now_text(5 * 24 * 3600));
    EXPECT_EQ(r.status, 400) << r.body;
    EXPECT_EQ(error_of(r)["cause"],
              "Interpretation error: Error: User failure: "
              "UNHANDLED_EXCEPTION/DA.Exception.AssertionFailed:AssertionFailed (error category "
              "9): The requirement 'newExpiresAt is after expiresAt' was not met.");
    r = renew("renew", now_text(40 * 24 * 3600));
    ASSERT_EQ(r.status, 200) << r.body;
    const auto renewed = views().transfer_preapproval_of(carol);
    ASSERT_TRUE(renewed.has_value());
    EXPECT_NE(renewed->contract->contract_id.str(), preapproval);

    const std::string current = renewed->contract->contract_id.str();
    const auto cancel = [&](const std::string& actor, const std::string& id) {
        return submit("ledger-api-user",
                      commands(exercise(preapproval_template, current, "TransferPreapproval_Cancel",
                                        {{"p", actor}}),
                               actor, id));
    };
    steps({{"step", "grant_rights"},
           {"user", "ledger-api-user"},
           {"rights", {{"can_act_as", {"bob"}}}}});
    r = cancel(bob, "cancel-by-bob");
    EXPECT_EQ(r.status, 404) << r.body;  // bob is no stakeholder: the contract is not his to see
    r = submit("ledger-api-user", commands(exercise(preapproval_template, current,
                                                    "TransferPreapproval_Cancel", {{"p", bob}}),
                                           bob, "cancel-by-bob-disclosed", {current}));
    EXPECT_EQ(r.status, 400) << r.body;
    EXPECT_EQ(error_of(r)["cause"],
              "Interpretation error: Error: User failure: "
              "UNHANDLED_EXCEPTION/DA.Exception.AssertionFailed:AssertionFailed (error category "
              "9): The requirement 'Controller '" +
                  bob + "' is either receiver or provider' was not met.");
    r = cancel(carol, "cancel");
    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_FALSE(views().transfer_preapproval_of(carol).has_value());
}

TEST_F(CommandServiceTest, AReceiverAndItsProviderCreateAPreapproval) {
    const std::string validator = network_->store().network().validator_party;
    steps({{"step", "grant_rights"},
           {"user", "ledger-api-user"},
           {"rights", {{"can_act_as", {"carol"}}}}});
    ASSERT_FALSE(views().transfer_preapproval_of(carol).has_value());
    json body = commands(exercise(rules_template, rules(), "AmuletRules_CreateTransferPreapproval",
                                  {{"context",
                                    {{"amuletRules", rules()},
                                     {"context",
                                      {{"openMiningRound", round()},
                                       {"issuingMiningRounds", json::array()},
                                       {"validatorRights", json::array()},
                                       {"featuredAppRight", nullptr}}}}},
                                   {"inputs", json::array()},
                                   {"receiver", carol},
                                   {"provider", validator},
                                   {"expiresAt", now_text(30 * 24 * 3600)},
                                   {"expectedDso", dso()},
                                   {"optCreatedAt", nullptr}}),
                         carol, "preapprove", {rules()});
    body["actAs"] = {validator, carol};

    const http::Response r = submit("ledger-api-user", body);

    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_TRUE(views().transfer_preapproval_of(carol).has_value());
}

TEST_F(CommandServiceTest, ASenderSendsThroughTheReceiversPreapproval) {
    const std::string a = tapped_amulet(tap("alice", alice, "10", "pre-1"));
    const std::string preapproval =
        views().transfer_preapproval_of(bob)->contract->contract_id.str();
    const auto bobs_before = amulets_of(bob).size();

    const http::Response r =
        submit("alice",
               commands(exercise("#splice-amulet:Splice.AmuletRules:TransferPreapproval",
                                 preapproval, "TransferPreapproval_Send",
                                 {{"context",
                                   {{"amuletRules", rules()},
                                    {"context",
                                     {{"openMiningRound", round()},
                                      {"issuingMiningRounds", json::array()},
                                      {"validatorRights", json::array()},
                                      {"featuredAppRight", nullptr}}}}},
                                  {"inputs", json::array({{{"tag", "InputAmulet"}, {"value", a}}})},
                                  {"amount", "2.5"},
                                  {"sender", alice},
                                  {"description", "rent"}}),
                        alice, "pre-send", {preapproval}));

    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(amulets_of(bob).size(), bobs_before + 1);
    const auto& tx = transaction_at(ledger_end());
    EXPECT_EQ(store::exercised(tx.nodes[0])->choice.str(), "TransferPreapproval_Send");
    EXPECT_EQ(store::exercised(tx.nodes[1])->choice.str(), "AmuletRules_Transfer");
}

// ---- the wallet's transfer offers ----

TEST_F(CommandServiceTest, AReceiverAcceptsAnOfferAndTheSendersWalletPaysIt) {
    const json made = steps({{"step", "create_transfer_offer"},
                             {"sender", "alice"},
                             {"receiver", "bob"},
                             {"amount", "5"},
                             {"expires_at", "2030-01-01T00:00:00Z"},
                             {"tracking_id", "t-cmd"},
                             {"as", "offer-cmd"}});
    const std::string offer = made["results"][0]["contracts"]["offer-cmd"];
    const auto bobs_before = amulets_of(bob).size();

    const http::Response r = submit(
        "bob", commands(exercise(offer_template, offer, "TransferOffer_Accept", json::object()),
                        bob, "accept-offer"));

    ASSERT_EQ(r.status, 200) << r.body;
    const std::int64_t accepted_at = json::parse(r.body)["completionOffset"];
    EXPECT_EQ(store::exercised(transaction_at(accepted_at).nodes[0])->choice.str(),
              "TransferOffer_Accept");
    EXPECT_EQ(ledger_end(), accepted_at + 1);  // the sender's wallet completed it
    EXPECT_EQ(amulets_of(bob).size(), bobs_before + 1);
}

TEST_F(CommandServiceTest, TheSenderWithdrawsAnOfferWithAReason) {
    const json made = steps({{"step", "create_transfer_offer"},
                             {"sender", "alice"},
                             {"receiver", "bob"},
                             {"amount", "5"},
                             {"expires_at", "2030-01-01T00:00:00Z"},
                             {"tracking_id", "t-w"},
                             {"as", "offer-w"}});
    const std::string offer = made["results"][0]["contracts"]["offer-w"];
    const json withdraw =
        exercise(offer_template, offer, "TransferOffer_Withdraw", {{"reason", "changed my mind"}});

    EXPECT_EQ(submit("bob", commands(withdraw, bob, "w-bob")).status, 400);  // the sender's
    const http::Response r = submit("alice", commands(withdraw, alice, "w-alice"));

    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_TRUE(network_->store().contract(offer)->archived_offset().has_value());
}

// ---- completions, reverts ----

TEST_F(CommandServiceTest, CompletionsNeedTheirParties) {
    const http::Response r =
        as_user("alice", "POST", "/v2/commands/completions", json{{"userId", "alice"}}.dump());

    EXPECT_EQ(r.status, 400) << r.body;
    EXPECT_EQ(error_of(r)["cause"], "The submitted command is missing a mandatory field: parties");
}

TEST_F(CommandServiceTest, TheCompletionsWebSocketTailsTheUsersCompletions) {
    // asyncapi.yaml /v2/commands/completions: one request, then a message per completion.
    ASSERT_EQ(tap("alice", alice, "1", "ws-1").status, 200);
    http::Response up = router_->handle(
        http::Request{.method = "GET",
                      .target = "/v2/commands/completions",
                      .headers = {{"Host", "localhost:7575"}, {"Authorization", bearer("alice")}},
                      .websocket_upgrade = true});
    ASSERT_EQ(up.status, 101) << up.body;
    ASSERT_NE(up.stream, nullptr);

    const auto first = up.stream->on_message(
        json{{"userId", "alice"}, {"parties", {alice}}, {"beginExclusive", 0}}.dump());
    ASSERT_EQ(first.messages.size(), 1U);
    EXPECT_EQ(
        json::parse(first.messages[0])["completionResponse"]["Completion"]["value"]["commandId"],
        "ws-1");
    EXPECT_FALSE(first.done);
    EXPECT_TRUE(up.stream->poll().messages.empty());

    ASSERT_EQ(tap("alice", alice, "1", "ws-2").status, 200);
    ASSERT_EQ(tap("bob", bob, "1", "ws-bob").status, 200);  // another user's: not in it
    const auto later = up.stream->poll();
    ASSERT_EQ(later.messages.size(), 1U);
    EXPECT_EQ(
        json::parse(later.messages[0])["completionResponse"]["Completion"]["value"]["commandId"],
        "ws-2");
}

TEST_F(CommandServiceTest, ACompletionsStreamRequestForAnotherUserIsOneErrorThenTheEnd) {
    http::Response up = router_->handle(
        http::Request{.method = "GET",
                      .target = "/v2/commands/completions",
                      .headers = {{"Host", "localhost:7575"}, {"Authorization", bearer("alice")}},
                      .websocket_upgrade = true});
    ASSERT_NE(up.stream, nullptr);

    const auto out = up.stream->on_message(json{{"userId", "bob"}, {"parties", {alice}}}.dump());

    ASSERT_EQ(out.messages.size(), 1U);
    EXPECT_TRUE(out.done);
    EXPECT_EQ(json::parse(out.messages[0])["code"], "NA");  // the redacted PERMISSION_DENIED
}

TEST_F(CommandServiceTest, ARevertForgetsTheCommandAndItsDeduplication) {
    const json snapshot = admin("POST", "/snapshots");
    ASSERT_EQ(tap("alice", alice, "2", "revert-me").status, 200);
    const std::int64_t end = ledger_end();

    admin("POST", "/snapshots/" + snapshot["id"].get<std::string>() + "/revert");

    EXPECT_EQ(ledger_end(), end - 1);
    EXPECT_EQ(tap("alice", alice, "2", "revert-me").status, 200);  // no longer a duplicate
}

}  // namespace
}  // namespace cantonlite::areas::ledger::command_service_test
