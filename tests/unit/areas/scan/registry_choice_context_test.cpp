// The registry's choice contexts of a transfer instruction, and the seed step that makes one.
// Splice 0.6.12 (tellary/splice@48c36f27):
// - apps/scan/.../admin/http/HttpTokenStandardTransferInstructionHandler.scala: accept
//   (l.107-124, requireLockedAmulet = true), reject (l.126-143), withdraw (l.145-162),
//   getAmuletTransferInstruction (l.442-460: "AmuletTransferInstruction '<id>' not found.");
// - apps/scan/.../util/ChoiceContextBuilder.scala getTwoStepTransferContext (l.149-212): the
//   locked amulet, then getAmuletRulesTransferContext (the rules, the latest usable open round or
//   404 "No open usable OpenMiningRound found."), then expire-lock true with the locked amulet
//   disclosed last; with the locked amulet gone, 404 "LockedAmulet '<Some(ContractId(cid))>' not
//   found for AmuletTransferInstruction '<id>', which expires on <Some(time)>" for accept, and
//   {"expire-lock": false} alone for reject and withdraw.
// - daml/splice-amulet/daml/Splice/ExternalPartyAmuletRules.daml l.341-421 and
//   Splice/Amulet/TwoStepTransfer.daml l.63-91: the factory's offer locks the amount to the DSO
//   until executeBefore ("transfer to '<receiver>'") and creates the AmuletTransferInstruction
//   (Splice/AmuletTransferInstruction.daml l.25-38), its transfer's inputs the locked amulet.
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "areas/scan/scan_test_support.hpp"
#include "areas/validator/validator_test_support.hpp"
#include "cantonlite/model/contract.hpp"
#include "cantonlite/model/value_json.hpp"

namespace cantonlite::areas::scan::registry_choice_context_test {
namespace {

using namespace scantest;  // NOLINT: the shared test network, steps and readers

const std::string base = "/registry/transfer-instruction/v1/";

json instruction_step(const std::string& label = "offer-1") {
    return {{"step", "create_transfer_instruction"},
            {"sender", "alice"},
            {"receiver", "bob"},
            {"amount", "30"},
            {"inputs", json::array({"alice-coin"})},
            {"execute_before", "2025-01-05T00:00:00Z"},
            {"locked_as", label + "-locked"},
            {"change_as", label + "-change"},
            {"as", label}};
}

// Round 6 opened at 01:00; alice's 100; her offer of 30 to bob at 02:00 (the clock).
json offer_steps() {
    return json::array({at({{"step", "open_mining_round"}, {"round", 6}, {"as", "round-6"}},
                           "2025-01-01T01:00:00Z"),
                        at(mint("alice", "100", "alice-coin"), "2025-01-01T01:30:00Z"),
                        at(instruction_step(), "2025-01-01T02:00:00Z")});
}

class ChoiceContextTest : public ::testing::Test {
  protected:
    ChoiceContextTest() : client_(validator::valtest::seed_with(offer_steps())) {}

    [[nodiscard]] model::ContractPtr only(const std::string& entity) const {
        const auto found = all_created(client_.store(), entity);
        if (found.size() != 1) throw std::runtime_error("not one " + entity);
        return found.front();
    }

    [[nodiscard]] Response context(const std::string& choice, const json& body = json::object(),
                                   const std::string& id = "") const {
        const std::string cid =
            id.empty() ? only("AmuletTransferInstruction")->contract_id.str() : id;
        return client_.post(base + cid + "/choice-contexts/" + choice, body);
    }

    // DisclosedContract, debug fields and all.
    static json disclosed(const model::Contract& c) {
        return {{"templateId", c.template_id().to_string()},
                {"contractId", c.contract_id.str()},
                {"createdEventBlob", model::created_event_blob(c)},
                {"synchronizerId", global_synchronizer},
                {"debugPackageName", c.template_id().package_name.str()},
                {"debugPayload",
                 json::parse(model::value_json(c.argument, model::ValueEncoding::api_compressed))},
                {"debugCreatedAt", model::format_offset_date_time(c.created_at)}};
    }

    ScanClient client_;
};

TEST_F(ChoiceContextTest, TheStepLocksTheAmountToTheDsoUntilExecuteBefore) {
    const model::ContractPtr locked = only("LockedAmulet");
    const json payload =
        json::parse(model::value_json(locked->argument, model::ValueEncoding::api_compressed));

    EXPECT_EQ(payload["amulet"]["owner"], alice);
    EXPECT_EQ(payload["amulet"]["amount"]["initialAmount"], "30.0");
    EXPECT_EQ(payload["lock"]["holders"], json::array({dso}));
    EXPECT_EQ(payload["lock"]["expiresAt"], "2025-01-05T00:00:00Z");
    EXPECT_EQ(payload["lock"]["optContext"], "transfer to '" + bob + "'");
}

TEST_F(ChoiceContextTest, TheInstructionNamesTheLockedAmulet) {
    const model::ContractPtr instruction = only("AmuletTransferInstruction");
    const json payload =
        json::parse(model::value_json(instruction->argument, model::ValueEncoding::api_compressed));

    EXPECT_EQ(payload["lockedAmulet"], only("LockedAmulet")->contract_id.str());
    EXPECT_EQ(payload["transfer"]["sender"], alice);
    EXPECT_EQ(payload["transfer"]["receiver"], bob);
    EXPECT_EQ(payload["transfer"]["amount"], "30.0");
    EXPECT_EQ(payload["transfer"]["instrumentId"], json({{"admin", dso}, {"id", "Amulet"}}));
    EXPECT_EQ(payload["transfer"]["inputHoldingCids"],
              json::array({only("LockedAmulet")->contract_id.str()}));
    std::vector<std::string> signatories;
    for (const model::Name& p : instruction->signatories) signatories.push_back(p.str());
    EXPECT_EQ(signatories, (std::vector<std::string>{dso, alice}));  // sorted: "DSO" < "alice"
    ASSERT_EQ(instruction->observers().size(), 1U);
    EXPECT_EQ(instruction->observers().front().str(), bob);
}

TEST_F(ChoiceContextTest, AcceptNamesTheRulesAndTheRoundAndDisclosesTheLockedAmulet) {
    const model::ContractPtr rules = only("AmuletRules");
    const model::ContractPtr round = only("OpenMiningRound");
    const model::ContractPtr locked = only("LockedAmulet");

    const Response r = context("accept");

    ASSERT_EQ(r.status, 200) << r.body;
    const json expected = {
        {"choiceContextData",
         {{"values",
           {{"expire-lock", {{"tag", "AV_Bool"}, {"value", true}}},
            {"open-round", {{"tag", "AV_ContractId"}, {"value", round->contract_id.str()}}},
            {"amulet-rules", {{"tag", "AV_ContractId"}, {"value", rules->contract_id.str()}}}}}}},
        {"disclosedContracts", {disclosed(*rules), disclosed(*round), disclosed(*locked)}}};
    EXPECT_EQ(body_of(r), expected);
    // The keys in the order of the builder's HashMap.
    EXPECT_TRUE(r.body.starts_with(R"({"choiceContextData":{"values":{"expire-lock":)")) << r.body;
}

TEST_F(ChoiceContextTest, RejectAndWithdrawGetTheSameContext) {
    const std::string accept = context("accept").body;

    EXPECT_EQ(context("reject").body, accept);
    EXPECT_EQ(context("withdraw").body, accept);
}

TEST_F(ChoiceContextTest, ExcludeDebugFieldsWritesThemAsNull) {
    const json body = body_of(context("accept", {{"excludeDebugFields", true}}));

    for (const json& d : body["disclosedContracts"]) {
        EXPECT_TRUE(d["debugPackageName"].is_null());
        EXPECT_TRUE(d["debugPayload"].is_null());
        EXPECT_TRUE(d["debugCreatedAt"].is_null());
    }
}

TEST_F(ChoiceContextTest, AnUnknownInstructionIsNotFound) {
    EXPECT_TRUE(is_error(context("accept", json::object(), "00ff"), 404,
                         "AmuletTransferInstruction '00ff' not found."));
    // Another template's contract is no instruction either.
    const std::string locked = only("LockedAmulet")->contract_id.str();
    EXPECT_TRUE(is_error(context("reject", json::object(), locked), 404,
                         "AmuletTransferInstruction '" + locked + "' not found."));
}

TEST_F(ChoiceContextTest, TheScanProxyAnswersTheSameWithAToken) {
    using namespace validator::valtest;  // NOLINT: the test network's tokens
    const std::string cid = only("AmuletTransferInstruction")->contract_id.str();
    const std::string path = "/api/validator/v0/scan-proxy/registry/transfer-instruction/v1/" +
                             cid + "/choice-contexts/accept";

    EXPECT_EQ(client_.post(path, json::object(), {bearer(jwt(claims_for("bob")))}).body,
              context("accept").body);
    EXPECT_EQ(client_.post(path, json::object()).status, 401);
}

TEST(ChoiceContextWithoutRound, IsNotFoundForEveryChoice) {
    const ScanClient client(validator::valtest::seed_with(
        json::array({at(mint("alice", "100", "alice-coin"), "2025-01-01T01:30:00Z"),
                     at(instruction_step(), "2025-01-01T02:00:00Z")})));
    const std::string cid =
        all_created(client.store(), "AmuletTransferInstruction").front()->contract_id.str();

    for (const std::string choice : {"accept", "reject", "withdraw"}) {
        EXPECT_TRUE(is_error(client.post(base + cid + "/choice-contexts/" + choice, json::object()),
                             404, "No open usable OpenMiningRound found."))
            << choice;
    }
}

// Once the lock has expired and the amulet was unlocked, only reject and withdraw have a context.
TEST(ChoiceContextUnlocked, AcceptIsNotFoundAndTheOthersLeaveTheLock) {
    json steps = offer_steps();
    steps.push_back(
        at({{"step", "unlock"}, {"locked_amulet", "offer-1-locked"}}, "2025-01-06T00:00:00Z"));
    const ScanClient client(validator::valtest::seed_with(steps));
    const std::string cid =
        all_created(client.store(), "AmuletTransferInstruction").front()->contract_id.str();
    const std::string locked =
        all_created(client.store(), "LockedAmulet").front()->contract_id.str();

    EXPECT_TRUE(is_error(client.post(base + cid + "/choice-contexts/accept", json::object()), 404,
                         "LockedAmulet 'Some(ContractId(" + locked +
                             "))' not found for AmuletTransferInstruction '" + cid +
                             "', which expires on Some(2025-01-05T00:00:00Z)"));
    for (const std::string choice : {"reject", "withdraw"}) {
        const Response r = client.post(base + cid + "/choice-contexts/" + choice, json::object());
        EXPECT_EQ(
            r.body,
            R"({"choiceContextData":{"values":{"expire-lock":{"tag":"AV_Bool","value":false}}},)"
            R"("disclosedContracts":[]})")
            << choice;
    }
}

// ---- the step's checks ----

TEST(TransferInstructionStep, RefusesAReceiverWithAPreapproval) {
    json steps = offer_steps();
    steps.insert(steps.begin() + 2, {{"step", "create_transfer_preapproval"},
                                     {"receiver", "bob"},
                                     {"expires_at", "2030-01-01T00:00:00Z"}});
    EXPECT_THROW(ScanClient(validator::valtest::seed_with(steps)), std::exception);
}

TEST(TransferInstructionStep, RefusesAnExecuteBeforeInThePast) {
    json steps = offer_steps();
    steps[2]["execute_before"] = "2025-01-01T00:00:00Z";
    EXPECT_THROW(ScanClient(validator::valtest::seed_with(steps)), std::exception);
}

TEST(TransferInstructionStep, RefusesMoreThanTheInputs) {
    json steps = offer_steps();
    steps[2]["amount"] = "100.5";
    EXPECT_THROW(ScanClient(validator::valtest::seed_with(steps)), std::exception);
}

}  // namespace
}  // namespace cantonlite::areas::scan::registry_choice_context_test
