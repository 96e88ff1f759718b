// What each seed step kind compiles to (docs/seed-format.md "Steps"): the transaction tree read
// back through LedgerStore::update_at, the indexes the step feeds, and the payload encodings.
#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cantonlite/model/timestamp.hpp"
#include "cantonlite/model/value_json.hpp"
#include "cantonlite/splice/splice_views.hpp"
#include "seed/seed_test_network.hpp"

namespace cantonlite::seed::step_compiler_test {
namespace {

using namespace seedtest;  // NOLINT: the shared test network's parties and readers

const std::string amulet_rules_template = "splice-amulet:Splice.AmuletRules:AmuletRules";
const std::string amulet_template = "splice-amulet:Splice.Amulet:Amulet";
const std::string locked_amulet_template = "splice-amulet:Splice.Amulet:LockedAmulet";
const std::string install_template = "splice-wallet:Splice.Wallet.Install:WalletAppInstall";
const std::string offer_template = "splice-wallet:Splice.Wallet.TransferOffer:TransferOffer";
const std::string buy_traffic_template =
    "splice-wallet:Splice.Wallet.BuyTrafficRequest:BuyTrafficRequest";
const std::string ans_template = "splice-amulet-name-service:Splice.Ans:AnsEntry";
const std::string dso_rules_template = "splice-dso-governance:Splice.DsoRules:DsoRules";
const std::string vote_request_template = "splice-dso-governance:Splice.DsoRules:VoteRequest";
const std::string external_rules_template =
    "splice-amulet:Splice.ExternalPartyAmuletRules:ExternalPartyAmuletRules";
const std::string counter_template =
    "splice-amulet:Splice.ExternalPartyAmuletRules:TransferCommandCounter";
const std::string preapproval_template = "splice-amulet:Splice.AmuletRules:TransferPreapproval";
const std::string open_round_template = "splice-amulet:Splice.Round:OpenMiningRound";

// ---- expected nodes ----

json create_node(int id, const std::string& template_name, json signatories, json observers,
                 json witnesses) {
    return {{"node", id},
            {"create", template_name},
            {"signatories", std::move(signatories)},
            {"observers", std::move(observers)},
            {"witnesses", std::move(witnesses)}};
}

struct Exercise {
    int id = 0;
    std::string choice;
    std::string template_name;
    std::string contract;
    bool consuming = false;
    json acting_parties;
    json children = json::array();
    int last_descendant = 0;
    json witnesses;
};

json exercise_node(const Exercise& e) {
    return {{"node", e.id},
            {"exercise", e.choice},
            {"template", e.template_name},
            {"contract", e.contract},
            {"consuming", e.consuming},
            {"acting_parties", e.acting_parties},
            {"children", e.children},
            {"last_descendant", e.last_descendant},
            {"witnesses", e.witnesses}};
}

json tree(json roots, json nodes) {
    return {{"roots", std::move(roots)}, {"nodes", std::move(nodes)}};
}

// ---- steps ----

json mint(const std::string& owner, const std::string& amount, const std::string& label) {
    return {{"step", "mint"}, {"owner", owner}, {"amount", amount}, {"as", label}};
}

json at(json step, const std::string& time) {
    step["at"] = time;
    return step;
}

json offer_step() {
    return {{"step", "create_transfer_offer"},
            {"sender", "alice"},
            {"receiver", "bob"},
            {"amount", "15"},
            {"description", "lunch"},
            {"expires_at", "2025-02-01T00:00:00Z"},
            {"tracking_id", "offer-1"},
            {"as", "offer-1"}};
}

json buy_traffic_step() {
    return {{"step", "create_buy_traffic_request"},
            {"user", "alice"},
            {"traffic_amount", 200000},
            {"tracking_id", "traffic-1"},
            {"expires_at", "2025-01-02T00:00:00Z"},
            {"as", "traffic-1"}};
}

json register_step() {
    return {{"step", "register_ans_entry"},
            {"user", "alice"},
            {"name", "alice.unverified.ans"},
            {"url", "https://alice.example"},
            {"description", "Alice"},
            {"expires_at", "2026-01-01T00:00:00Z"},
            {"as", "alice-ans"}};
}

json request_vote_step() {
    return {{"step", "request_vote"},
            {"requester", "Digital-Asset-2"},
            {"action", {{"offboard_sv", "Sv-3"}}},
            {"reason", {{"url", "https://forum.example/1"}, {"body", "SV3 is leaving"}}},
            {"vote_before", "2025-01-10T00:00:00Z"},
            {"as", "vote-1"}};
}

json cast_vote_step(const std::string& voter) {
    return {{"step", "cast_vote"},
            {"vote_request", "vote-1"},
            {"voter", voter},
            {"accept", true},
            {"reason", {{"url", ""}, {"body", "agreed"}}}};
}

std::string cid(const store::LedgerStore& s, store::Offset offset, int node) {
    return created_at(s, offset, node)->contract_id.str();
}

model::Timestamp time_of(const std::string& text) {
    return *model::parse_timestamp(text);
}

json payload_json(const std::string& encoded) {
    return json::parse(encoded);
}

// Bootstrap contracts (offset 1): DsoRules, AmuletRules, ExternalPartyAmuletRules, then the
// wallet installs of alice and bob.
std::string dso_rules(const store::LedgerStore& s) {
    return cid(s, 1, 0);
}
std::string amulet_rules(const store::LedgerStore& s) {
    return cid(s, 1, 1);
}
std::string external_rules(const store::LedgerStore& s) {
    return cid(s, 1, 2);
}
std::string alice_install(const store::LedgerStore& s) {
    return cid(s, 1, 3);
}

// ================================ bootstrap ================================

TEST(StepBootstrap, CreatesTheRulesAndOneWalletInstallPerWalletUser) {
    const auto s = load(seed_with(json::array()));

    const json expected = tree(
        json::array({0, 1, 2, 3, 4}),
        json::array(
            {create_node(0, dso_rules_template, {dso}, json::array(), {dso}),
             create_node(1, amulet_rules_template, {dso}, json::array(), {dso}),
             create_node(2, external_rules_template, {dso}, json::array(), {dso}),
             // WalletAppInstall: signatory endUserParty, validatorParty.
             create_node(3, install_template, {alice, validator}, json::array(),
                         {alice, validator}),
             create_node(4, install_template, {bob, validator}, json::array(), {bob, validator})}));
    EXPECT_EQ(tree_json(transaction_at(*s, 1)), expected);
}

TEST(StepBootstrap, IsCommittedAtTheStartTime) {
    const auto s = load(seed_with(json::array()));

    const store::Transaction& tx = transaction_at(*s, 1);
    EXPECT_EQ(s->ledger_end(), 1);
    EXPECT_EQ(tx.record_time.micros, start_micros);
    EXPECT_EQ(tx.effective_at.micros, start_micros);
    EXPECT_EQ(tx.synchronizer_id, global_synchronizer);
}

// The doc says "submitted by the DSO"; the WalletAppInstalls are signed by the validator, so the
// validator must be among the submitters for the transaction to be authorized.
TEST(StepBootstrap, IsSubmittedByTheDsoAndTheValidator) {
    const auto s = load(seed_with(json::array()));

    EXPECT_EQ(model::texts(transaction_at(*s, 1).submitters),
              (std::vector<std::string>{dso, validator}));
}

TEST(StepBootstrap, WalletInstallPayloadNamesTheUser) {
    const auto s = load(seed_with(json::array()));

    const json expected = {{"dsoParty", dso},
                           {"validatorParty", validator},
                           {"endUserName", "alice"},
                           {"endUserParty", alice}};
    EXPECT_EQ(payload_json(model::value_json(created_at(*s, 1, 3)->argument,
                                             model::ValueEncoding::api_compressed)),
              expected);
}

// ================================ time and ids ================================

TEST(StepRecordTime, DefaultsToOneSecondAfterTheLedgerClock) {
    const auto s = load(seed_with({mint("alice", "10", "a1"), mint("alice", "10", "a2")}));

    EXPECT_EQ(transaction_at(*s, 2).record_time.micros, start_micros + 1 * second);
    EXPECT_EQ(transaction_at(*s, 3).record_time.micros, start_micros + 2 * second);
}

TEST(StepRecordTime, AtSetsTheRecordTimeAndEffectiveTime) {
    const auto s = load(seed_with({at(mint("alice", "10", "a1"), "2025-01-01T05:00:00.25Z")}));

    const store::Transaction& tx = transaction_at(*s, 2);
    EXPECT_EQ(tx.record_time, time_of("2025-01-01T05:00:00.25Z"));
    EXPECT_EQ(tx.effective_at, time_of("2025-01-01T05:00:00.25Z"));
    EXPECT_EQ(created_at(*s, 2, 1)->created_at, time_of("2025-01-01T05:00:00.25Z"));
}

TEST(StepRecordTime, AtMayEqualTheLedgerClock) {
    const auto s = load(seed_with({at(mint("alice", "10", "a1"), start_time)}));

    EXPECT_EQ(transaction_at(*s, 2).record_time.micros, start_micros);
}

TEST(StepRecordTime, DefaultFollowsAnEarlierAt) {
    const auto s = load(seed_with(
        {at(mint("alice", "10", "a1"), "2025-01-03T00:00:00Z"), mint("alice", "10", "a2")}));

    EXPECT_EQ(transaction_at(*s, 3).record_time, time_of("2025-01-03T00:00:01Z"));
}

TEST(StepIds, CommandAndWorkflowIdsAreRecorded) {
    json step = mint("alice", "10", "a1");
    step["command_id"] = "cmd-1";
    step["workflow_id"] = "wf-1";

    const auto s = load(seed_with({step}));

    EXPECT_EQ(transaction_at(*s, 2).command_id, "cmd-1");
    EXPECT_EQ(transaction_at(*s, 2).workflow_id, "wf-1");
}

TEST(StepIds, CommandAndWorkflowIdsDefaultToEmpty) {
    const auto s = load(seed_with({mint("alice", "10", "a1")}));

    EXPECT_EQ(transaction_at(*s, 2).command_id, "");
    EXPECT_EQ(transaction_at(*s, 2).workflow_id, "");
}

TEST(StepIds, UpdateIdIsTheStoresIdOfTheOffset) {
    const auto s = load(seed_with({mint("alice", "10", "a1")}));

    EXPECT_EQ(transaction_at(*s, 2).update_id(), s->update_id_for(2));
    EXPECT_EQ(transaction_at(*s, 2).offset, 2);
}

// ================================ mint ================================

TEST(StepMint, ExercisesDevNetTapWhichCreatesAnAmulet) {
    const auto s = load(seed_with({mint("alice", "1000", "a1")}));

    const json expected = tree(
        json::array({0}),
        json::array({exercise_node({.id = 0,
                                    .choice = "AmuletRules_DevNet_Tap",
                                    .template_name = amulet_rules_template,
                                    .contract = amulet_rules(*s),
                                    .consuming = false,
                                    .acting_parties = {alice},
                                    .children = {1},
                                    .last_descendant = 1,
                                    .witnesses = {dso, alice}}),
                     create_node(1, amulet_template, {dso, alice}, json::array(), {dso, alice})}));
    EXPECT_EQ(tree_json(transaction_at(*s, 2)), expected);
}

TEST(StepMint, IsSubmittedByTheOwner) {
    const auto s = load(seed_with({mint("alice", "1000", "a1")}));

    EXPECT_EQ(model::texts(transaction_at(*s, 2).submitters), std::vector<std::string>{alice});
}

TEST(StepMint, RecordsTheTapArgumentAndResult) {
    const auto s = load(seed_with({mint("alice", "1000", "a1")}));

    const store::ExercisedNode& tap = exercised_at(*s, 2, 0);
    EXPECT_EQ(json::parse(model::value_json(tap.choice_argument, model::ValueEncoding::ledger)),
              (json{{"receiver", alice}, {"amount", "1000.0000000000"}}));
    EXPECT_EQ(json::parse(model::value_json(tap.exercise_result, model::ValueEncoding::ledger)),
              (json{{"amuletSum", {{"amulet", cid(*s, 2, 1)}}},
                    {"meta",
                     {{"values",
                       {{"splice.lfdecentralizedtrust.org/reason", "tapped faucet"},
                        {"splice.lfdecentralizedtrust.org/tx-kind", "mint"}}}}}}));
}

// The mint's values exactly, kinds included (the JSON encodings above drop an Optional's Some):
// AmuletRules_DevNet_Tap {receiver, amount}, its AmuletRules_DevNet_TapResult {amuletSum =
// AmuletCreateSummary {amulet}, meta = Some Metadata} and the Amulet, as splice-behavior.md §4.3.
TEST(StepMint, WritesTheTapAndTheAmuletAsTheirDamlValues) {
    json step = mint("alice", "1000", "a1");
    step["round"] = 7;
    step["rate_per_round"] = "0.5";

    const auto s = load(seed_with({step}));

    using model::Value;
    const auto number = [](std::string_view d) {
        return Value::numeric(*model::Decimal::parse(d));
    };
    const std::string meta_key = "splice.lfdecentralizedtrust.org/";
    const store::ExercisedNode& tap = exercised_at(*s, 2, 0);
    EXPECT_EQ(model::unpack(tap.choice_argument),
              Value::record({{"receiver", Value::party(alice)}, {"amount", number("1000")}}));
    EXPECT_EQ(
        model::unpack(tap.exercise_result),
        Value::record(
            {{"amuletSum", Value::record({{"amulet", Value::contract_id(cid(*s, 2, 1))}})},
             {"meta",
              Value::some(Value::record(
                  {{"values",
                    Value::text_map({{meta_key + "reason", Value::text_value("tapped faucet")},
                                     {meta_key + "tx-kind", Value::text_value("mint")}})}}))}}));
    EXPECT_EQ(model::unpack(created_at(*s, 2, 1)->argument),
              Value::record(
                  {{"dso", Value::party(dso)},
                   {"owner", Value::party(alice)},
                   {"amount",
                    Value::record({{"initialAmount", number("1000")},
                                   {"createdAt", Value::record({{"number", Value::int64(7)}})},
                                   {"ratePerRound", Value::record({{"rate", number("0.5")}})}})}}));
}

TEST(StepMint, AmuletCodegenJsonHasTheReferenceShape) {
    json step = mint("alice", "100", "a1");
    step["round"] = 12;

    const auto s = load(seed_with({step}));

    // splice-behavior.md §4.3, Splice.Amulet:Amulet, with our parties.
    const json expected = {{"dso", dso},
                           {"owner", alice},
                           {"amount",
                            {{"initialAmount", "100.0000000000"},
                             {"createdAt", {{"number", "12"}}},
                             {"ratePerRound", {{"rate", "0.0000190259"}}}}}};
    EXPECT_EQ(payload_json(
                  model::value_json(created_at(*s, 2, 1)->argument, model::ValueEncoding::codegen)),
              expected);
}

TEST(StepMint, AmuletApiJsonStripsTrailingZeros) {
    json step = mint("alice", "100", "a1");
    step["round"] = 12;

    const auto s = load(seed_with({step}));

    const json expected = {{"dso", dso},
                           {"owner", alice},
                           {"amount",
                            {{"initialAmount", "100.0"},
                             {"createdAt", {{"number", "12"}}},
                             {"ratePerRound", {{"rate", "0.0000190259"}}}}}};
    EXPECT_EQ(payload_json(model::value_json(created_at(*s, 2, 1)->argument,
                                             model::ValueEncoding::api_compressed)),
              expected);
}

TEST(StepMint, AmuletLedgerJsonKeepsTheFullScale) {
    json step = mint("alice", "12.5", "a1");
    step["round"] = 3;

    const auto s = load(seed_with({step}));

    const json expected = {{"dso", dso},
                           {"owner", alice},
                           {"amount",
                            {{"initialAmount", "12.5000000000"},
                             {"createdAt", {{"number", "3"}}},
                             {"ratePerRound", {{"rate", "0.0000190259"}}}}}};
    EXPECT_EQ(payload_json(
                  model::value_json(created_at(*s, 2, 1)->argument, model::ValueEncoding::ledger)),
              expected);
}

TEST(StepMint, DefaultRoundIsOnePerTenMinutesSinceTheStart) {
    const auto s = load(seed_with({at(mint("alice", "10", "a1"), "2025-01-01T00:25:00Z")}));

    EXPECT_EQ(payload_json(model::value_json(created_at(*s, 2, 1)->argument,
                                             model::ValueEncoding::codegen))["amount"]["createdAt"],
              (json{{"number", "2"}}));
}

TEST(StepMint, RatePerRoundOverridesTheDefault) {
    json step = mint("alice", "10", "a1");
    step["rate_per_round"] = "0.5";

    const auto s = load(seed_with({step}));

    EXPECT_EQ(payload_json(model::value_json(
                  created_at(*s, 2, 1)->argument,
                  model::ValueEncoding::api_compressed))["amount"]["ratePerRound"],
              (json{{"rate", "0.5"}}));
}

TEST(StepMint, AmuletTemplateHasTheSpliceAmuletPackageId) {
    const auto s = load(seed_with({mint("alice", "10", "a1")}));

    EXPECT_EQ(created_at(*s, 2, 1)->template_id().to_string(),
              "dbeda50efee6c5e53959638ef5422116723a9a6137fcdd4d2d82544291726a88:Splice.Amulet:"
              "Amulet");
}

TEST(StepMint, NetworkPackagesOverrideThePackageId) {
    json network = network_json();
    network["packages"] = {{"splice-amulet", std::string(64, 'c')}};

    const auto s = load(seed_with({mint("alice", "10", "a1")}, network));

    EXPECT_EQ(created_at(*s, 2, 1)->template_id().package_id, std::string(64, 'c'));
    EXPECT_EQ(exercised_at(*s, 2, 0).template_id().package_id, std::string(64, 'c'));
}

// ================================ lock / unlock ================================

json lock_step() {
    return {{"step", "lock"},
            {"amulet", "a1"},
            {"amount", "250"},
            {"holders", {"provider"}},
            {"expires_at", "2025-03-01T00:00:00Z"},
            {"context", "order 17"},
            {"as", "l1"},
            {"change_as", "c1"}};
}

TEST(StepLock, TransfersToALockedAmuletAndTheChange) {
    const auto s = load(seed_with({mint("alice", "1000", "a1"), lock_step()}));

    const json expected = tree(
        json::array({0}),
        json::array({exercise_node({.id = 0,
                                    .choice = "AmuletRules_Transfer",
                                    .template_name = amulet_rules_template,
                                    .contract = amulet_rules(*s),
                                    .consuming = false,
                                    .acting_parties = {alice},
                                    .children = {1, 2, 3},
                                    .last_descendant = 3,
                                    .witnesses = {dso, alice}}),
                     exercise_node({.id = 1,
                                    .choice = "Archive",
                                    .template_name = amulet_template,
                                    .contract = cid(*s, 2, 1),
                                    .consuming = true,
                                    .acting_parties = {dso, alice},
                                    .last_descendant = 1,
                                    .witnesses = {dso, alice}}),
                     create_node(2, locked_amulet_template, {dso, alice, provider}, json::array(),
                                 {dso, alice, provider}),
                     create_node(3, amulet_template, {dso, alice}, json::array(), {dso, alice})}));
    EXPECT_EQ(tree_json(transaction_at(*s, 3)), expected);
}

TEST(StepLock, IsSubmittedByTheOwner) {
    const auto s = load(seed_with({mint("alice", "1000", "a1"), lock_step()}));

    EXPECT_EQ(model::texts(transaction_at(*s, 3).submitters), std::vector<std::string>{alice});
}

TEST(StepLock, LockedAmuletCodegenJsonHasTheReferenceShape) {
    const auto s = load(seed_with({mint("alice", "1000", "a1"), lock_step()}));

    // splice-behavior.md §4.3, Splice.Amulet:LockedAmulet, with our values.
    const json expected = {{"amulet",
                            {{"dso", dso},
                             {"owner", alice},
                             {"amount",
                              {{"initialAmount", "250.0000000000"},
                               {"createdAt", {{"number", "0"}}},
                               {"ratePerRound", {{"rate", "0.0000190259"}}}}}}},
                           {"lock",
                            {{"holders", {provider}},
                             {"expiresAt", "2025-03-01T00:00:00Z"},
                             {"optContext", "order 17"}}}};
    EXPECT_EQ(payload_json(
                  model::value_json(created_at(*s, 3, 2)->argument, model::ValueEncoding::codegen)),
              expected);
}

TEST(StepLock, LedgerJsonDropsAnAbsentTrailingContext) {
    json step = lock_step();
    step.erase("context");

    const auto s = load(seed_with({mint("alice", "1000", "a1"), step}));

    EXPECT_EQ(payload_json(model::value_json(created_at(*s, 3, 2)->argument,
                                             model::ValueEncoding::ledger))["lock"],
              (json{{"holders", {provider}}, {"expiresAt", "2025-03-01T00:00:00Z"}}));
    EXPECT_EQ(
        payload_json(model::value_json(created_at(*s, 3, 2)->argument,
                                       model::ValueEncoding::api_compressed))["lock"]["optContext"],
        nullptr);
}

TEST(StepLock, ChangeHasTheRestOfTheAmulet) {
    const auto s = load(seed_with({mint("alice", "1000", "a1"), lock_step()}));

    EXPECT_EQ(payload_json(model::value_json(
                  created_at(*s, 3, 3)->argument,
                  model::ValueEncoding::api_compressed))["amount"]["initialAmount"],
              "750.0");
}

TEST(StepLock, WithoutAmountLocksTheWholeAmuletAndMakesNoChange) {
    json step = lock_step();
    step.erase("amount");

    const auto s = load(seed_with({mint("alice", "1000", "a1"), step}));

    const store::Transaction& tx = transaction_at(*s, 3);
    ASSERT_EQ(tx.nodes.size(), 3U);
    EXPECT_EQ(template_name(created_at(*s, 3, 2)->template_id()), locked_amulet_template);
    EXPECT_EQ(payload_json(model::value_json(
                  created_at(*s, 3, 2)->argument,
                  model::ValueEncoding::api_compressed))["amulet"]["amount"]["initialAmount"],
              "1000.0");
}

TEST(StepLock, LabelsTheLockedAmuletAndTheChange) {
    const json unlock = {{"step", "unlock"}, {"locked_amulet", "l1"}};
    const json spend_change = {{"step", "transfer"},
                               {"sender", "alice"},
                               {"inputs", {"c1"}},
                               {"outputs", {{{"receiver", "bob"}, {"amount", "750"}}}}};

    const auto s =
        load(seed_with({mint("alice", "1000", "a1"), lock_step(), unlock, spend_change}));

    EXPECT_EQ(exercised_at(*s, 4, 0).contract_id, cid(*s, 3, 2));
    EXPECT_EQ(exercised_at(*s, 5, 1).contract_id, cid(*s, 3, 3));
}

TEST(StepUnlock, ExercisesUnlockAsOwnerAndHoldersAndCreatesTheAmulet) {
    const json unlock = {{"step", "unlock"}, {"locked_amulet", "l1"}, {"as", "u1"}};

    const auto s = load(seed_with({mint("alice", "1000", "a1"), lock_step(), unlock}));

    const json expected =
        tree(json::array({0}), json::array({exercise_node({.id = 0,
                                                           .choice = "LockedAmulet_Unlock",
                                                           .template_name = locked_amulet_template,
                                                           .contract = cid(*s, 3, 2),
                                                           .consuming = true,
                                                           .acting_parties = {alice, provider},
                                                           .children = {1},
                                                           .last_descendant = 1,
                                                           .witnesses = {dso, alice, provider}}),
                                            create_node(1, amulet_template, {dso, alice},
                                                        json::array(), {dso, alice, provider})}));
    EXPECT_EQ(tree_json(transaction_at(*s, 4)), expected);
}

TEST(StepUnlock, UnlockedAmuletHasTheLockedAmount) {
    const json unlock = {{"step", "unlock"}, {"locked_amulet", "l1"}, {"as", "u1"}};

    const auto s = load(seed_with({mint("alice", "1000", "a1"), lock_step(), unlock}));

    EXPECT_EQ(payload_json(model::value_json(
                  created_at(*s, 4, 1)->argument,
                  model::ValueEncoding::api_compressed))["amount"]["initialAmount"],
              "250.0");
}

// The choice's controllers are the owner and the lock holders: a real submission must act as all
// of them.
TEST(StepUnlock, IsSubmittedByTheOwnerAndTheLockHolders) {
    const json unlock = {{"step", "unlock"}, {"locked_amulet", "l1"}};

    const auto s = load(seed_with({mint("alice", "1000", "a1"), lock_step(), unlock}));

    EXPECT_EQ(model::texts(transaction_at(*s, 4).submitters),
              (std::vector<std::string>{alice, provider}));
}

// ================================ transfer ================================

json transfer_step() {
    return {{"step", "transfer"},
            {"sender", "alice"},
            {"inputs", {"a1"}},
            {"outputs",
             {{{"receiver", "bob"}, {"amount", "40"}, {"as", "b1"}},
              {{"receiver", "bob"},
               {"amount", "10"},
               {"lock", {{"holders", {"provider"}}, {"expires_at", "2025-04-01T00:00:00Z"}}}}}},
            {"change_as", "c1"}};
}

TEST(StepTransfer, ArchivesTheInputsAndCreatesTheOutputsAndTheChange) {
    const auto s = load(seed_with({mint("alice", "1000", "a1"), transfer_step()}));

    const json expected = tree(
        json::array({0}),
        json::array({exercise_node({.id = 0,
                                    .choice = "AmuletRules_Transfer",
                                    .template_name = amulet_rules_template,
                                    .contract = amulet_rules(*s),
                                    .consuming = false,
                                    .acting_parties = {alice},
                                    .children = {1, 2, 3, 4},
                                    .last_descendant = 4,
                                    .witnesses = {dso, alice}}),
                     exercise_node({.id = 1,
                                    .choice = "Archive",
                                    .template_name = amulet_template,
                                    .contract = cid(*s, 2, 1),
                                    .consuming = true,
                                    .acting_parties = {dso, alice},
                                    .last_descendant = 1,
                                    .witnesses = {dso, alice}}),
                     create_node(2, amulet_template, {dso, bob}, json::array(), {dso, alice, bob}),
                     create_node(3, locked_amulet_template, {dso, bob, provider}, json::array(),
                                 {dso, alice, bob, provider}),
                     create_node(4, amulet_template, {dso, alice}, json::array(), {dso, alice})}));
    EXPECT_EQ(tree_json(transaction_at(*s, 3)), expected);
}

TEST(StepTransfer, IsSubmittedByTheSender) {
    const auto s = load(seed_with({mint("alice", "1000", "a1"), transfer_step()}));

    EXPECT_EQ(model::texts(transaction_at(*s, 3).submitters), std::vector<std::string>{alice});
}

TEST(StepTransfer, ResultNamesTheCreatedAmuletsAndTheChange) {
    const auto s = load(seed_with({mint("alice", "1000", "a1"), transfer_step()}));

    const json expected = {{"round", {{"number", "0"}}},
                           {"createdAmulets",
                            {{{"tag", "TransferResultAmulet"}, {"value", cid(*s, 3, 2)}},
                             {{"tag", "TransferResultLockedAmulet"}, {"value", cid(*s, 3, 3)}}}},
                           {"senderChangeAmulet", cid(*s, 3, 4)},
                           {"meta",
                            {{"values",
                              {{"splice.lfdecentralizedtrust.org/burned", "0.0"},
                               {"splice.lfdecentralizedtrust.org/sender", alice},
                               {"splice.lfdecentralizedtrust.org/tx-kind", "transfer"}}}}}};
    EXPECT_EQ(json::parse(model::value_json(exercised_at(*s, 3, 0).exercise_result,
                                            model::ValueEncoding::ledger)),
              expected);
}

// Splice's executeTransfer: a transfer whose every output stays the sender's, unlocked or locked
// to the sender alone, is a merge-split and names no sender; fees are not charged, so the burn is
// always 0.0 (Daml's `show` of a Decimal).
json result_meta(const json& result) {
    return result["meta"]["values"];
}

TEST(StepTransfer, ToOnlyTheSenderIsAMergeSplit) {
    json step = transfer_step();
    step["outputs"] = {
        {{"receiver", "alice"}, {"amount", "400"}},
        {{"receiver", "alice"},
         {"amount", "100"},
         {"lock", {{"holders", {"alice"}}, {"expires_at", "2025-04-01T00:00:00Z"}}}}};

    const auto s = load(seed_with({mint("alice", "1000", "a1"), step}));

    EXPECT_EQ(result_meta(json::parse(model::value_json(exercised_at(*s, 3, 0).exercise_result,
                                                        model::ValueEncoding::ledger))),
              (json{{"splice.lfdecentralizedtrust.org/burned", "0.0"},
                    {"splice.lfdecentralizedtrust.org/tx-kind", "merge-split"}}));
}

TEST(StepTransfer, LockedToAnotherPartyIsATransferBySender) {
    const auto s = load(seed_with({mint("alice", "1000", "a1"), lock_step()}));

    EXPECT_EQ(result_meta(json::parse(model::value_json(exercised_at(*s, 3, 0).exercise_result,
                                                        model::ValueEncoding::ledger))),
              (json{{"splice.lfdecentralizedtrust.org/burned", "0.0"},
                    {"splice.lfdecentralizedtrust.org/sender", alice},
                    {"splice.lfdecentralizedtrust.org/tx-kind", "transfer"}}));
}

TEST(StepTransfer, ChangeHasTheInputsMinusTheOutputs) {
    const auto s = load(seed_with({mint("alice", "1000", "a1"), transfer_step()}));

    EXPECT_EQ(payload_json(model::value_json(
                  created_at(*s, 3, 4)->argument,
                  model::ValueEncoding::api_compressed))["amount"]["initialAmount"],
              "950.0");
}

TEST(StepTransfer, SpendingEverythingCreatesNoChange) {
    json step = transfer_step();
    step["outputs"] = {{{"receiver", "bob"}, {"amount", "1000"}}};
    step.erase("change_as");

    const auto s = load(seed_with({mint("alice", "1000", "a1"), step}));

    EXPECT_EQ(transaction_at(*s, 3).nodes.size(), 3U);
    EXPECT_EQ(json::parse(model::value_json(exercised_at(*s, 3, 0).exercise_result,
                                            model::ValueEncoding::ledger))["senderChangeAmulet"],
              nullptr);
}

TEST(StepTransfer, ArchivesEveryInput) {
    json step = transfer_step();
    step["inputs"] = {"a1", "a2"};
    step["outputs"] = {{{"receiver", "bob"}, {"amount", "120"}}};

    const auto s = load(seed_with({mint("alice", "100", "a1"), mint("alice", "50", "a2"), step}));

    const store::Transaction& tx = transaction_at(*s, 4);
    ASSERT_EQ(tx.nodes.size(), 5U);
    EXPECT_EQ(exercised_at(*s, 4, 1).contract_id, cid(*s, 2, 1));
    EXPECT_EQ(exercised_at(*s, 4, 2).contract_id, cid(*s, 3, 1));
    EXPECT_EQ(payload_json(model::value_json(
                  created_at(*s, 4, 4)->argument,
                  model::ValueEncoding::api_compressed))["amount"]["initialAmount"],
              "30.0");
}

TEST(StepTransfer, SnapshotHoldsTheOutputsAndTheChange) {
    const auto s =
        load(seed_with({mint("alice", "1000", "a1"), transfer_step(), {{"step", "snapshot"}}}));

    const store::SnapshotPtr snap = s->snapshot(0, s->now(), false);
    ASSERT_NE(snap, nullptr);
    std::multiset<std::string> holdings;
    const splice::HoldingsSnapshotPtr rows = splice::views(*s).holdings(*snap);
    for (std::size_t i = 0; i < rows->size(); ++i) {
        const splice::HoldingRow row = rows->row(i);
        holdings.insert(row.owner + " " + row.amount().to_compact_string() +
                        (row.locked ? " locked" : ""));
    }
    EXPECT_EQ(holdings,
              (std::multiset<std::string>{bob + " 40.0", bob + " 10.0 locked", alice + " 950.0"}));
}

// ================================ transfer offers ================================

TEST(StepTransferOffer, CreateExercisesTheSendersWalletInstall) {
    const auto s = load(seed_with({offer_step()}));

    const json expected = tree(
        json::array({0}),
        json::array({exercise_node({.id = 0,
                                    .choice = "WalletAppInstall_CreateTransferOffer",
                                    .template_name = install_template,
                                    .contract = alice_install(*s),
                                    .consuming = false,
                                    .acting_parties = {alice},
                                    .children = {1},
                                    .last_descendant = 1,
                                    .witnesses = {alice, validator}}),
                     create_node(1, offer_template, {alice}, {bob}, {alice, bob, validator})}));
    EXPECT_EQ(tree_json(transaction_at(*s, 2)), expected);
    EXPECT_EQ(model::texts(transaction_at(*s, 2).submitters), std::vector<std::string>{alice});
}

TEST(StepTransferOffer, CreateResultNamesTheOffer) {
    const auto s = load(seed_with({offer_step()}));

    EXPECT_EQ(json::parse(model::value_json(exercised_at(*s, 2, 0).exercise_result,
                                            model::ValueEncoding::ledger)),
              (json{{"transferOffer", cid(*s, 2, 1)}}));
}

TEST(StepTransferOffer, OfferApiJsonHasTheReferenceShape) {
    const auto s = load(seed_with({offer_step()}));

    const json expected = {{"sender", alice},
                           {"receiver", bob},
                           {"dso", dso},
                           {"amount", {{"amount", "15.0"}, {"unit", "AmuletUnit"}}},
                           {"description", "lunch"},
                           {"expiresAt", "2025-02-01T00:00:00Z"},
                           {"trackingId", "offer-1"}};
    EXPECT_EQ(payload_json(model::value_json(created_at(*s, 2, 1)->argument,
                                             model::ValueEncoding::api_compressed)),
              expected);
}

TEST(StepTransferOffer, OfferIsListedForSenderAndReceiver) {
    const auto s = load(seed_with({offer_step()}));

    ASSERT_EQ(splice::views(*s).transfer_offers_of(alice).size(), 1U);
    ASSERT_EQ(splice::views(*s).transfer_offers_of(bob).size(), 1U);
    EXPECT_EQ(splice::views(*s).transfer_offers_of(alice)[0]->contract_id, cid(*s, 2, 1));
    EXPECT_EQ(splice::views(*s).transfer_offers_of(bob)[0]->contract_id, cid(*s, 2, 1));
}

TEST(StepTransferOffer, AcceptArchivesTheOfferAndCreatesAnAcceptedOffer) {
    const json accept = {{"step", "accept_transfer_offer"}, {"offer", "offer-1"}, {"as", "acc"}};

    const auto s = load(seed_with({offer_step(), accept}));

    const json expected =
        tree(json::array({0}),
             json::array(
                 {exercise_node({.id = 0,
                                 .choice = "TransferOffer_Accept",
                                 .template_name = offer_template,
                                 .contract = cid(*s, 2, 1),
                                 .consuming = true,
                                 .acting_parties = {bob},
                                 .children = {1},
                                 .last_descendant = 1,
                                 .witnesses = {alice, bob}}),
                  create_node(1, "splice-wallet:Splice.Wallet.TransferOffer:AcceptedTransferOffer",
                              {alice, bob}, json::array(), {alice, bob})}));
    EXPECT_EQ(tree_json(transaction_at(*s, 3)), expected);
    EXPECT_EQ(model::texts(transaction_at(*s, 3).submitters), std::vector<std::string>{bob});
}

TEST(StepTransferOffer, AcceptedOfferIsNoLongerListed) {
    const json accept = {{"step", "accept_transfer_offer"}, {"offer", "offer-1"}};

    const auto s = load(seed_with({offer_step(), accept}));

    EXPECT_TRUE(splice::views(*s).transfer_offers_of(alice).empty());
    EXPECT_TRUE(splice::views(*s).transfer_offers_of(bob).empty());
}

TEST(StepTransferOffer, WithdrawIsConsumingActingAsTheSenderWithTheReason) {
    const json withdraw = {
        {"step", "withdraw_transfer_offer"}, {"offer", "offer-1"}, {"reason", "changed my mind"}};

    const auto s = load(seed_with({offer_step(), withdraw}));

    const json expected =
        tree(json::array({0}), json::array({exercise_node({.id = 0,
                                                           .choice = "TransferOffer_Withdraw",
                                                           .template_name = offer_template,
                                                           .contract = cid(*s, 2, 1),
                                                           .consuming = true,
                                                           .acting_parties = {alice},
                                                           .last_descendant = 0,
                                                           .witnesses = {alice, bob}})}));
    EXPECT_EQ(tree_json(transaction_at(*s, 3)), expected);
    EXPECT_EQ(json::parse(model::value_json(exercised_at(*s, 3, 0).choice_argument,
                                            model::ValueEncoding::ledger)),
              (json{{"reason", "changed my mind"}}));
    EXPECT_EQ(model::texts(transaction_at(*s, 3).submitters), std::vector<std::string>{alice});
}

TEST(StepTransferOffer, ExpireIsConsumingActingAsTheSender) {
    const json expire = {{"step", "expire_transfer_offer"}, {"offer", "offer-1"}};

    const auto s = load(seed_with({offer_step(), expire}));

    const json expected =
        tree(json::array({0}), json::array({exercise_node({.id = 0,
                                                           .choice = "TransferOffer_Expire",
                                                           .template_name = offer_template,
                                                           .contract = cid(*s, 2, 1),
                                                           .consuming = true,
                                                           .acting_parties = {alice},
                                                           .last_descendant = 0,
                                                           .witnesses = {alice, bob}})}));
    EXPECT_EQ(tree_json(transaction_at(*s, 3)), expected);
    EXPECT_EQ(json::parse(model::value_json(exercised_at(*s, 3, 0).choice_argument,
                                            model::ValueEncoding::ledger)),
              (json{{"actor", alice}}));
    EXPECT_TRUE(splice::views(*s).transfer_offers_of(bob).empty());
}

TEST(StepTransferOffer, OfferPastItsExpiryStaysListed) {
    const json later = {{"step", "advance_time"}, {"to", "2025-03-01T00:00:00Z"}};

    const auto s = load(seed_with({offer_step(), later}));

    EXPECT_EQ(splice::views(*s).transfer_offers_of(bob).size(), 1U);
}

// ================================ buy-traffic requests ================================

TEST(StepBuyTraffic, CreateExercisesTheUsersWalletInstall) {
    const auto s = load(seed_with({buy_traffic_step()}));

    const json expected = tree(
        json::array({0}),
        json::array(
            {exercise_node({.id = 0,
                            .choice = "WalletAppInstall_CreateBuyTrafficRequest",
                            .template_name = install_template,
                            .contract = alice_install(*s),
                            .consuming = false,
                            .acting_parties = {alice},
                            .children = {1},
                            .last_descendant = 1,
                            .witnesses = {alice, validator}}),
             create_node(1, buy_traffic_template, {alice}, json::array(), {alice, validator})}));
    EXPECT_EQ(tree_json(transaction_at(*s, 2)), expected);
    EXPECT_EQ(model::texts(transaction_at(*s, 2).submitters), std::vector<std::string>{alice});
}

TEST(StepBuyTraffic, RequestCodegenJsonHasTheReferenceShape) {
    const auto s = load(seed_with({buy_traffic_step()}));

    const json expected = {{"dso", dso},
                           {"endUserParty", alice},
                           {"expiresAt", "2025-01-02T00:00:00Z"},
                           {"trackingId", "traffic-1"},
                           {"trafficAmount", "200000"},
                           {"memberId", participant},
                           {"synchronizerId", global_synchronizer},
                           {"migrationId", "0"}};
    EXPECT_EQ(payload_json(
                  model::value_json(created_at(*s, 2, 1)->argument, model::ValueEncoding::codegen)),
              expected);
}

TEST(StepBuyTraffic, MemberAndSynchronizerIdsOverrideTheDefaults) {
    json step = buy_traffic_step();
    step["member_id"] = "PAR::other::1220ff";
    step["synchronizer_id"] = private_synchronizer;

    const auto s = load(seed_with({step}));

    const json payload = payload_json(
        model::value_json(created_at(*s, 2, 1)->argument, model::ValueEncoding::codegen));
    EXPECT_EQ(payload["memberId"], "PAR::other::1220ff");
    EXPECT_EQ(payload["synchronizerId"], private_synchronizer);
}

TEST(StepBuyTraffic, CreateRecordsACreatedEvent) {
    const auto s = load(seed_with({buy_traffic_step()}));

    const auto event = splice::views(*s).latest_buy_traffic_event(alice, "traffic-1");
    ASSERT_TRUE(event.has_value());
    EXPECT_EQ(event->status, splice::BuyTrafficStatus::created);
    EXPECT_EQ(event->update_id, transaction_at(*s, 2).update_id());
    EXPECT_EQ(event->offset, 2);
}

TEST(StepBuyTraffic, CompleteArchivesTheRequestActingAsTheUser) {
    const json complete = {{"step", "complete_buy_traffic_request"}, {"request", "traffic-1"}};

    const auto s = load(seed_with({buy_traffic_step(), complete}));

    const json expected =
        tree(json::array({0}), json::array({exercise_node({.id = 0,
                                                           .choice = "BuyTrafficRequest_Complete",
                                                           .template_name = buy_traffic_template,
                                                           .contract = cid(*s, 2, 1),
                                                           .consuming = true,
                                                           .acting_parties = {alice},
                                                           .last_descendant = 0,
                                                           .witnesses = {alice}})}));
    EXPECT_EQ(tree_json(transaction_at(*s, 3)), expected);
    EXPECT_EQ(json::parse(model::value_json(exercised_at(*s, 3, 0).exercise_result,
                                            model::ValueEncoding::ledger))["trackingInfo"],
              (json{{"trackingId", "traffic-1"}, {"endUserParty", alice}}));
}

TEST(StepBuyTraffic, CompleteRecordsACompletedEventWithItsUpdateId) {
    const json complete = {{"step", "complete_buy_traffic_request"}, {"request", "traffic-1"}};

    const auto s = load(seed_with({buy_traffic_step(), complete}));

    const auto event = splice::views(*s).latest_buy_traffic_event(alice, "traffic-1");
    ASSERT_TRUE(event.has_value());
    EXPECT_EQ(event->status, splice::BuyTrafficStatus::completed);
    EXPECT_EQ(event->update_id, transaction_at(*s, 3).update_id());
}

TEST(StepBuyTraffic, CancelRecordsARejectedEventWithTheReason) {
    const json cancel = {{"step", "cancel_buy_traffic_request"},
                         {"request", "traffic-1"},
                         {"reason", "out of funds"}};

    const auto s = load(seed_with({buy_traffic_step(), cancel}));

    EXPECT_EQ(exercised_at(*s, 3, 0).choice, "BuyTrafficRequest_Cancel");
    EXPECT_TRUE(exercised_at(*s, 3, 0).consuming);
    EXPECT_EQ(json::parse(model::value_json(exercised_at(*s, 3, 0).choice_argument,
                                            model::ValueEncoding::ledger)),
              (json{{"reason", "out of funds"}}));
    const auto event = splice::views(*s).latest_buy_traffic_event(alice, "traffic-1");
    ASSERT_TRUE(event.has_value());
    EXPECT_EQ(event->status, splice::BuyTrafficStatus::rejected);
    EXPECT_EQ(event->reason, "out of funds");
}

TEST(StepBuyTraffic, ExpireRecordsAnExpiredEvent) {
    const json expire = {{"step", "expire_buy_traffic_request"}, {"request", "traffic-1"}};

    const auto s = load(seed_with({buy_traffic_step(), expire}));

    EXPECT_EQ(exercised_at(*s, 3, 0).choice, "BuyTrafficRequest_Expire");
    EXPECT_TRUE(exercised_at(*s, 3, 0).consuming);
    const auto event = splice::views(*s).latest_buy_traffic_event(alice, "traffic-1");
    ASSERT_TRUE(event.has_value());
    EXPECT_EQ(event->status, splice::BuyTrafficStatus::expired);
}

TEST(StepBuyTraffic, RequestsOfOtherUsersAreNotTheirs) {
    const auto s = load(seed_with({buy_traffic_step()}));

    EXPECT_FALSE(splice::views(*s).latest_buy_traffic_event(bob, "traffic-1").has_value());
}

// ================================ name service ================================

TEST(StepAns, RegisterCreatesAnEntrySignedByTheUserAndTheDso) {
    const auto s = load(seed_with({register_step()}));

    const json expected = tree(
        json::array({0}),
        json::array({create_node(0, ans_template, {dso, alice}, json::array(), {dso, alice})}));
    EXPECT_EQ(tree_json(transaction_at(*s, 2)), expected);
    EXPECT_EQ(model::texts(transaction_at(*s, 2).submitters), std::vector<std::string>{dso});
}

TEST(StepAns, RegisteredEntryIsFoundByName) {
    const auto s = load(seed_with({register_step()}));

    const auto entry = splice::views(*s).ans_entry("alice.unverified.ans", s->now());
    ASSERT_TRUE(entry.has_value());
    EXPECT_EQ(entry->contract->contract_id, cid(*s, 2, 0));
    EXPECT_EQ(entry->user, alice);
    EXPECT_EQ(entry->url, "https://alice.example");
    EXPECT_EQ(entry->description, "Alice");
    EXPECT_EQ(entry->expires_at, time_of("2026-01-01T00:00:00Z"));
}

TEST(StepAns, EntryApiJsonHasTheTemplateFields) {
    const auto s = load(seed_with({register_step()}));

    const json expected = {{"user", alice},
                           {"dso", dso},
                           {"name", "alice.unverified.ans"},
                           {"url", "https://alice.example"},
                           {"description", "Alice"},
                           {"expiresAt", "2026-01-01T00:00:00Z"}};
    EXPECT_EQ(payload_json(model::value_json(created_at(*s, 2, 0)->argument,
                                             model::ValueEncoding::api_compressed)),
              expected);
}

json renew_step(const std::string& expires_at) {
    return {{"step", "renew_ans_entry"}, {"entry", "alice-ans"}, {"expires_at", expires_at}};
}

TEST(StepAns, RenewArchivesAndRecreatesTheEntryActingAsTheDso) {
    const auto s = load(seed_with({register_step(), renew_step("2027-01-01T00:00:00Z")}));

    const json expected = tree(
        json::array({0}),
        json::array({exercise_node({.id = 0,
                                    .choice = "AnsEntry_Renew",
                                    .template_name = ans_template,
                                    .contract = cid(*s, 2, 0),
                                    .consuming = true,
                                    .acting_parties = {dso},
                                    .children = {1},
                                    .last_descendant = 1,
                                    .witnesses = {dso, alice}}),
                     create_node(1, ans_template, {dso, alice}, json::array(), {dso, alice})}));
    EXPECT_EQ(tree_json(transaction_at(*s, 3)), expected);
    EXPECT_EQ(model::texts(transaction_at(*s, 3).submitters), std::vector<std::string>{dso});
}

TEST(StepAns, RenewExtendsByTheDifferenceOfTheExpiries) {
    const auto s = load(seed_with({register_step(), renew_step("2027-01-01T00:00:00Z")}));

    EXPECT_EQ(json::parse(model::value_json(exercised_at(*s, 3, 0).choice_argument,
                                            model::ValueEncoding::ledger)),
              (json{{"extension", {{"microseconds", "31536000000000"}}}}));
    EXPECT_EQ(json::parse(model::value_json(exercised_at(*s, 3, 0).exercise_result,
                                            model::ValueEncoding::ledger)),
              (json{{"entryCid", cid(*s, 3, 1)}}));
}

TEST(StepAns, RenewedEntryIsFoundWithTheNewExpiry) {
    const auto s = load(seed_with({register_step(), renew_step("2027-01-01T00:00:00Z")}));

    const auto entry = splice::views(*s).ans_entry("alice.unverified.ans", s->now());
    ASSERT_TRUE(entry.has_value());
    EXPECT_EQ(entry->contract->contract_id, cid(*s, 3, 1));
    EXPECT_EQ(entry->expires_at, time_of("2027-01-01T00:00:00Z"));
}

TEST(StepAns, RenewKeepsTheLabelOnTheNewEntry) {
    const auto s = load(seed_with(
        {register_step(), renew_step("2027-01-01T00:00:00Z"), renew_step("2028-01-01T00:00:00Z")}));

    EXPECT_EQ(exercised_at(*s, 4, 0).contract_id, cid(*s, 3, 1));
    EXPECT_EQ(splice::views(*s).ans_entry("alice.unverified.ans", s->now())->expires_at,
              time_of("2028-01-01T00:00:00Z"));
}

TEST(StepAns, ExpiredEntryIsNotFound) {
    const json later = {{"step", "advance_time"}, {"to", "2026-06-01T00:00:00Z"}};

    const auto s = load(seed_with({register_step(), later}));

    EXPECT_FALSE(splice::views(*s).ans_entry("alice.unverified.ans", s->now()).has_value());
}

// ================================ governance ================================

TEST(StepVote, RequestExercisesDsoRulesAndCreatesAVoteRequest) {
    const auto s = load(seed_with({request_vote_step()}));

    const json expected = tree(
        json::array({0}),
        json::array({exercise_node({.id = 0,
                                    .choice = "DsoRules_RequestVote",
                                    .template_name = dso_rules_template,
                                    .contract = dso_rules(*s),
                                    .consuming = false,
                                    .acting_parties = {da2},
                                    .children = {1},
                                    .last_descendant = 1,
                                    .witnesses = {dso, da2}}),
                     create_node(1, vote_request_template, {dso}, json::array(), {dso, da2})}));
    EXPECT_EQ(tree_json(transaction_at(*s, 2)), expected);
    EXPECT_EQ(model::texts(transaction_at(*s, 2).submitters), std::vector<std::string>{da2});
}

TEST(StepVote, RequestHoldsTheRequestersOwnVoteAndNoTracking) {
    const auto s = load(seed_with({request_vote_step()}));

    // splice-behavior.md §4.3, Splice.DsoRules:VoteRequest payload (ApiCodecCompressed).
    const json expected = {
        {"dso", dso},
        {"requester", "Digital-Asset-2"},
        {"action",
         {{"tag", "ARC_DsoRules"},
          {"value", {{"dsoAction", {{"tag", "SRARC_OffboardSv"}, {"value", {{"sv", sv3}}}}}}}}},
        {"reason", {{"url", "https://forum.example/1"}, {"body", "SV3 is leaving"}}},
        {"voteBefore", "2025-01-10T00:00:00Z"},
        {"votes", json::array({json::array(
                      {"Digital-Asset-2",
                       {{"sv", da2},
                        {"accept", true},
                        {"reason", {{"url", ""}, {"body", "I accept, as I requested the vote."}}},
                        {"optCastAt", "2025-01-01T00:00:01Z"}}})})},
        {"trackingCid", nullptr},
        {"targetEffectiveAt", nullptr}};
    EXPECT_EQ(payload_json(model::value_json(created_at(*s, 2, 1)->argument,
                                             model::ValueEncoding::api_compressed)),
              expected);
}

TEST(StepVote, RequestIsFoundByItsOwnContractId) {
    const auto s = load(seed_with({request_vote_step()}));

    const model::ContractPtr found = splice::views(*s).vote_request_by_tracking_cid(cid(*s, 2, 1));
    ASSERT_NE(found, nullptr);
    EXPECT_EQ(found->contract_id, cid(*s, 2, 1));
}

TEST(StepVote, CastVoteRecreatesTheRequestActingAsTheDso) {
    const auto s = load(seed_with({request_vote_step(), cast_vote_step("Sv-2")}));

    const json expected = tree(
        json::array({0}),
        json::array({exercise_node({.id = 0,
                                    .choice = "DsoRules_CastVote",
                                    .template_name = dso_rules_template,
                                    .contract = dso_rules(*s),
                                    .consuming = false,
                                    .acting_parties = {sv2},
                                    .children = {1},
                                    .last_descendant = 2,
                                    .witnesses = {dso, sv2}}),
                     exercise_node({.id = 1,
                                    .choice = "VoteRequest_CastVote",
                                    .template_name = vote_request_template,
                                    .contract = cid(*s, 2, 1),
                                    .consuming = true,
                                    .acting_parties = {dso},
                                    .children = {2},
                                    .last_descendant = 2,
                                    .witnesses = {dso, sv2}}),
                     create_node(2, vote_request_template, {dso}, json::array(), {dso, sv2})}));
    EXPECT_EQ(tree_json(transaction_at(*s, 3)), expected);
    EXPECT_EQ(model::texts(transaction_at(*s, 3).submitters), std::vector<std::string>{sv2});
}

TEST(StepVote, CastVoteAddsTheVoteAndTracksTheOriginal) {
    const auto s = load(seed_with({request_vote_step(), cast_vote_step("Sv-2")}));

    const json payload = payload_json(
        model::value_json(created_at(*s, 3, 2)->argument, model::ValueEncoding::api_compressed));
    EXPECT_EQ(payload["trackingCid"], cid(*s, 2, 1));
    ASSERT_EQ(payload["votes"].size(), 2U);
    EXPECT_EQ(payload["votes"][1], json::array({"Sv-2",
                                                {{"sv", sv2},
                                                 {"accept", true},
                                                 {"reason", {{"url", ""}, {"body", "agreed"}}},
                                                 {"optCastAt", "2025-01-01T00:00:02Z"}}}));
}

TEST(StepVote, OriginalContractIdFindsTheCurrentIncarnation) {
    const auto s = load(seed_with({request_vote_step(), cast_vote_step("Sv-2")}));

    const model::ContractPtr found = splice::views(*s).vote_request_by_tracking_cid(cid(*s, 2, 1));
    ASSERT_NE(found, nullptr);
    EXPECT_EQ(found->contract_id, cid(*s, 3, 2));
}

TEST(StepVote, RecreatedContractIdIsNoTrackingId) {
    const auto s = load(seed_with({request_vote_step(), cast_vote_step("Sv-2")}));

    EXPECT_EQ(splice::views(*s).vote_request_by_tracking_cid(cid(*s, 3, 2)), nullptr);
}

TEST(StepVote, SecondCastVoteThroughTheLabelKeepsTheOriginalTracking) {
    const auto s =
        load(seed_with({request_vote_step(), cast_vote_step("Sv-2"), cast_vote_step("Sv-3")}));

    EXPECT_EQ(exercised_at(*s, 4, 1).contract_id, cid(*s, 3, 2));
    EXPECT_EQ(payload_json(model::value_json(created_at(*s, 4, 2)->argument,
                                             model::ValueEncoding::api_compressed))["trackingCid"],
              cid(*s, 2, 1));
    EXPECT_EQ(payload_json(model::value_json(created_at(*s, 4, 2)->argument,
                                             model::ValueEncoding::api_compressed))["votes"]
                  .size(),
              3U);
    EXPECT_EQ(splice::views(*s).vote_request_by_tracking_cid(cid(*s, 2, 1))->contract_id,
              cid(*s, 4, 2));
}

TEST(StepVote, CastingAgainReplacesTheVotersVote) {
    json again = cast_vote_step("Sv-2");
    again["accept"] = false;

    const auto s = load(seed_with({request_vote_step(), cast_vote_step("Sv-2"), again}));

    const json votes = payload_json(model::value_json(
        created_at(*s, 4, 2)->argument, model::ValueEncoding::api_compressed))["votes"];
    ASSERT_EQ(votes.size(), 2U);
    EXPECT_EQ(votes[1][1]["accept"], false);
}

TEST(StepVote, CloseArchivesTheRequestActingAsTheDso) {
    const json close = {{"step", "close_vote"}, {"vote_request", "vote-1"}};

    const auto s = load(seed_with({request_vote_step(), close}));

    const json expected =
        tree(json::array({0}), json::array({exercise_node({.id = 0,
                                                           .choice = "DsoRules_CloseVoteRequest",
                                                           .template_name = dso_rules_template,
                                                           .contract = dso_rules(*s),
                                                           .consuming = false,
                                                           .acting_parties = {dso},
                                                           .children = {1},
                                                           .last_descendant = 1,
                                                           .witnesses = {dso}}),
                                            exercise_node({.id = 1,
                                                           .choice = "Archive",
                                                           .template_name = vote_request_template,
                                                           .contract = cid(*s, 2, 1),
                                                           .consuming = true,
                                                           .acting_parties = {dso},
                                                           .last_descendant = 1,
                                                           .witnesses = {dso}})}));
    EXPECT_EQ(tree_json(transaction_at(*s, 3)), expected);
    EXPECT_EQ(model::texts(transaction_at(*s, 3).submitters), std::vector<std::string>{dso});
}

TEST(StepVote, ClosedRequestIsNoLongerActive) {
    const json close = {{"step", "close_vote"}, {"vote_request", "vote-1"}};

    const auto s = load(seed_with({request_vote_step(), close}));

    EXPECT_TRUE(splice::views(*s).active_vote_requests().empty());
    EXPECT_EQ(splice::views(*s).vote_request_by_tracking_cid(cid(*s, 2, 1)), nullptr);
}

// ================================ transfer commands ================================

const json transfer_command = {{"step", "transfer_command"}, {"sender", "alice"}};

TEST(StepTransferCommand, FirstCommandCreatesTheCounter) {
    const auto s = load(seed_with({transfer_command}));

    const json expected =
        tree(json::array({0}),
             json::array({exercise_node({.id = 0,
                                         .choice = "ExternalPartyAmuletRules_CreateTransferCommand",
                                         .template_name = external_rules_template,
                                         .contract = external_rules(*s),
                                         .consuming = false,
                                         .acting_parties = {alice},
                                         .children = {1},
                                         .last_descendant = 1,
                                         .witnesses = {dso, alice}}),
                          create_node(1, counter_template, {dso}, {alice}, {dso, alice})}));
    EXPECT_EQ(tree_json(transaction_at(*s, 2)), expected);
    EXPECT_EQ(model::texts(transaction_at(*s, 2).submitters), std::vector<std::string>{alice});
}

TEST(StepTransferCommand, FirstCounterHasNonceOne) {
    const auto s = load(seed_with({transfer_command}));

    const auto counter = splice::views(*s).transfer_command_counter_of(alice);
    ASSERT_TRUE(counter.has_value());
    EXPECT_EQ(payload_json(model::value_json(counter->contract->argument,
                                             model::ValueEncoding::api_compressed)),
              (json{{"dso", dso}, {"sender", alice}, {"nextNonce", "1"}}));
}

TEST(StepTransferCommand, LaterCommandsArchiveAndRecreateTheCounter) {
    const auto s = load(seed_with({transfer_command, transfer_command}));

    const json expected =
        tree(json::array({0}),
             json::array({exercise_node({.id = 0,
                                         .choice = "ExternalPartyAmuletRules_CreateTransferCommand",
                                         .template_name = external_rules_template,
                                         .contract = external_rules(*s),
                                         .consuming = false,
                                         .acting_parties = {alice},
                                         .children = {1, 2},
                                         .last_descendant = 2,
                                         .witnesses = {dso, alice}}),
                          exercise_node({.id = 1,
                                         .choice = "Archive",
                                         .template_name = counter_template,
                                         .contract = cid(*s, 2, 1),
                                         .consuming = true,
                                         .acting_parties = {dso},
                                         .last_descendant = 1,
                                         .witnesses = {dso, alice}}),
                          create_node(2, counter_template, {dso}, {alice}, {dso, alice})}));
    EXPECT_EQ(tree_json(transaction_at(*s, 3)), expected);
}

TEST(StepTransferCommand, CounterHasTheNextNonce) {
    const auto s = load(seed_with({transfer_command, transfer_command}));

    const auto counter = splice::views(*s).transfer_command_counter_of(alice);
    ASSERT_TRUE(counter.has_value());
    EXPECT_EQ(counter->contract->contract_id, cid(*s, 3, 2));
    EXPECT_EQ(payload_json(model::value_json(counter->contract->argument,
                                             model::ValueEncoding::api_compressed))["nextNonce"],
              "2");
}

TEST(StepTransferCommand, CountersArePerSender) {
    const json by_bob = {{"step", "transfer_command"}, {"sender", "bob"}};

    const auto s = load(seed_with({transfer_command, by_bob}));

    EXPECT_EQ(payload_json(model::value_json(
                  splice::views(*s).transfer_command_counter_of(bob)->contract->argument,
                  model::ValueEncoding::api_compressed))["nextNonce"],
              "1");
    EXPECT_EQ(splice::views(*s).transfer_command_counter_of(alice)->contract->contract_id,
              cid(*s, 2, 1));
}

// ================================ transfer preapprovals ================================

// Splice.AmuletRules:TransferPreapproval (daml/splice-amulet): signatories receiver, provider and
// DSO; AmuletRules_CreateTransferPreapproval (controllers provider and receiver) sets validFrom
// and lastRenewedAt to the ledger time.
const json preapproval = {{"step", "create_transfer_preapproval"},
                          {"receiver", "alice"},
                          {"provider", "provider"},
                          {"expires_at", "2025-06-01T00:00:00Z"},
                          {"as", "alice-preapproval"}};

TEST(StepTransferPreapproval, ExercisesTheAmuletRulesChoiceAsProviderAndReceiver) {
    const auto s = load(seed_with({preapproval}));

    const json expected =
        tree(json::array({0}),
             json::array({exercise_node({.id = 0,
                                         .choice = "AmuletRules_CreateTransferPreapproval",
                                         .template_name = amulet_rules_template,
                                         .contract = amulet_rules(*s),
                                         .consuming = false,
                                         .acting_parties = {alice, provider},
                                         .children = {1},
                                         .last_descendant = 1,
                                         .witnesses = {dso, alice, provider}}),
                          create_node(1, preapproval_template, {dso, alice, provider},
                                      json::array(), {dso, alice, provider})}));
    EXPECT_EQ(tree_json(transaction_at(*s, 2)), expected);
    EXPECT_EQ(model::texts(transaction_at(*s, 2).submitters),
              (std::vector<std::string>{alice, provider}));
}

TEST(StepTransferPreapproval, PayloadIsValidFromTheLedgerTime) {
    json step = preapproval;
    step["at"] = "2025-01-03T10:00:00Z";
    const auto s = load(seed_with({step}));

    const auto found = splice::views(*s).transfer_preapproval_of(alice);
    ASSERT_TRUE(found.has_value());
    EXPECT_EQ(payload_json(model::value_json(found->contract->argument,
                                             model::ValueEncoding::api_compressed)),
              (json{{"dso", dso},
                    {"receiver", alice},
                    {"provider", provider},
                    {"validFrom", "2025-01-03T10:00:00Z"},
                    {"lastRenewedAt", "2025-01-03T10:00:00Z"},
                    {"expiresAt", "2025-06-01T00:00:00Z"}}));
    EXPECT_EQ(found->contract->contract_id, cid(*s, 2, 1));
}

TEST(StepTransferPreapproval, ProviderDefaultsToTheValidatorOperator) {
    json step = preapproval;
    step.erase("provider");
    const auto s = load(seed_with({step}));

    const auto found = splice::views(*s).transfer_preapproval_of(alice);
    ASSERT_TRUE(found.has_value());
    EXPECT_EQ(payload_json(model::value_json(found->contract->argument,
                                             model::ValueEncoding::api_compressed))["provider"],
              validator);
}

TEST(StepTransferPreapproval, TheLatestValidFromIsTheReceiversPreapproval) {
    json first = preapproval;
    first["at"] = "2025-01-02T00:00:00Z";
    json second = preapproval;
    second["at"] = "2025-01-03T00:00:00Z";
    second["expires_at"] = "2025-02-01T00:00:00Z";  // sooner: Scan orders by validFrom
    const auto s = load(seed_with({first, second}));

    EXPECT_EQ(splice::views(*s).transfer_preapproval_of(alice)->contract->contract_id,
              cid(*s, 3, 1));
    EXPECT_FALSE(splice::views(*s).transfer_preapproval_of(bob).has_value());
}

TEST(StepTransferPreapproval, ExpiryMustFollowTheLedgerTime) {
    json step = preapproval;
    step["at"] = "2025-06-01T00:00:00Z";

    EXPECT_THROW(
        {
            try {
                (void)load(seed_with({step}));
            } catch (const SeedError& e) {
                EXPECT_NE(std::string(e.what()).find("/steps/0/expires_at"), std::string::npos)
                    << e.what();
                throw;
            }
        },
        SeedError);
}

// ================================ featured apps ================================

// Splice.Amulet:FeaturedAppRight {dso, provider} (signatory the DSO, observer the provider),
// created by AmuletRules_DevNet_FeatureApp (non-consuming, controller the provider).
const std::string featured_template = "splice-amulet:Splice.Amulet:FeaturedAppRight";

TEST(StepFeatureApp, ExercisesDevNetFeatureAppAsTheProvider) {
    const auto s = load(seed_with({{{"step", "feature_app"}, {"provider", "provider"}}}));

    const json expected =
        tree(json::array({0}),
             json::array({exercise_node({.id = 0,
                                         .choice = "AmuletRules_DevNet_FeatureApp",
                                         .template_name = amulet_rules_template,
                                         .contract = amulet_rules(*s),
                                         .consuming = false,
                                         .acting_parties = {provider},
                                         .children = {1},
                                         .last_descendant = 1,
                                         .witnesses = {dso, provider}}),
                          create_node(1, featured_template, {dso}, {provider}, {dso, provider})}));
    EXPECT_EQ(tree_json(transaction_at(*s, 2)), expected);
    EXPECT_EQ(model::texts(transaction_at(*s, 2).submitters), std::vector<std::string>{provider});
}

TEST(StepFeatureApp, ArgumentIsTheProviderResultTheRightAndPayloadBothParties) {
    const auto s = load(seed_with({{{"step", "feature_app"}, {"provider", "alice"}, {"as", "f"}}}));

    const store::ExercisedNode& feature = exercised_at(*s, 2, 0);
    EXPECT_EQ(json::parse(
                  model::value_json(feature.choice_argument, model::ValueEncoding::api_compressed)),
              (json{{"provider", alice}}));
    EXPECT_EQ(json::parse(
                  model::value_json(feature.exercise_result, model::ValueEncoding::api_compressed)),
              (json{{"featuredAppRightCid", cid(*s, 2, 1)}}));
    EXPECT_EQ(payload_json(model::value_json(created_at(*s, 2, 1)->argument,
                                             model::ValueEncoding::api_compressed)),
              (json{{"dso", dso}, {"provider", alice}}));
}

TEST(StepFeatureApp, TheProviderDefaultsToTheValidatorOperator) {
    const auto s = load(seed_with({{{"step", "feature_app"}}}));

    EXPECT_EQ(payload_json(model::value_json(created_at(*s, 2, 1)->argument,
                                             model::ValueEncoding::api_compressed))["provider"],
              s->network().validator_party);
}

// ================================ open mining rounds ================================

// Splice.Round:OpenMiningRound (signatory the DSO), created by AmuletRules_AdvanceOpenMiningRounds
// (non-consuming, controller the DSO), reduced to its create child.
const json open_round = {{"step", "open_mining_round"}, {"as", "round"}};

TEST(StepOpenMiningRound, ExercisesAdvanceOpenMiningRoundsAsTheDso) {
    const auto s = load(seed_with({open_round}));

    const json expected =
        tree(json::array({0}),
             json::array({exercise_node({.id = 0,
                                         .choice = "AmuletRules_AdvanceOpenMiningRounds",
                                         .template_name = amulet_rules_template,
                                         .contract = amulet_rules(*s),
                                         .consuming = false,
                                         .acting_parties = {dso},
                                         .children = {1},
                                         .last_descendant = 1,
                                         .witnesses = {dso}}),
                          create_node(1, open_round_template, {dso}, json::array(), {dso})}));
    EXPECT_EQ(tree_json(transaction_at(*s, 2)), expected);
    EXPECT_EQ(model::texts(transaction_at(*s, 2).submitters), std::vector<std::string>{dso});
}

TEST(StepOpenMiningRound, ArgumentIsThePriceAndResultTheRound) {
    json step = open_round;
    step["amulet_price"] = "0.25";
    const auto s = load(seed_with({step}));

    const store::ExercisedNode& advance = exercised_at(*s, 2, 0);
    EXPECT_EQ(json::parse(
                  model::value_json(advance.choice_argument, model::ValueEncoding::api_compressed)),
              (json{{"amuletPrice", "0.25"}}));
    EXPECT_EQ(json::parse(
                  model::value_json(advance.exercise_result, model::ValueEncoding::api_compressed)),
              (json{{"openRoundCid", cid(*s, 2, 1)}}));
}

// The defaults: the round of the step's time (one per 10 minutes), price 0.005, opening at the
// step's time and closing two 10-minute ticks later, issuing for round × tick.
TEST(StepOpenMiningRound, PayloadDefaultsFollowTheClock) {
    const auto s = load(seed_with({at(open_round, "2025-01-01T01:05:00Z")}));

    const json payload = payload_json(
        model::value_json(created_at(*s, 2, 1)->argument, model::ValueEncoding::api_compressed));
    EXPECT_EQ(payload["dso"], dso);
    EXPECT_EQ(payload["round"], (json{{"number", "6"}}));
    EXPECT_EQ(payload["amuletPrice"], "0.005");
    EXPECT_EQ(payload["opensAt"], "2025-01-01T01:05:00Z");
    EXPECT_EQ(payload["targetClosesAt"], "2025-01-01T01:25:00Z");
    EXPECT_EQ(payload["issuingFor"], (json{{"microseconds", "3600000000"}}));
    EXPECT_EQ(payload["tickDuration"], (json{{"microseconds", "600000000"}}));
    EXPECT_TRUE(payload["transferConfigUsd"].is_object());
    EXPECT_EQ(payload["issuanceConfig"]["amuletToIssuePerYear"], "40000000000.0");
    const nlohmann::ordered_json ordered = nlohmann::ordered_json::parse(
        model::value_json(created_at(*s, 2, 1)->argument, model::ValueEncoding::api_compressed));
    std::vector<std::string> keys;
    for (const auto& [key, _] : ordered.items()) keys.push_back(key);
    EXPECT_EQ(keys, (std::vector<std::string>{"dso", "round", "amuletPrice", "opensAt",
                                              "targetClosesAt", "issuingFor", "transferConfigUsd",
                                              "issuanceConfig", "tickDuration"}));
}

TEST(StepOpenMiningRound, TakesTheRoundPriceAndTimes) {
    json step = open_round;
    step["round"] = 42;
    step["amulet_price"] = "0.5";
    step["opens_at"] = "2025-01-01T00:00:00Z";
    step["target_closes_at"] = "2025-01-03T00:00:00Z";
    const auto s = load(seed_with({at(step, "2025-01-02T00:00:00Z")}));

    const json payload = payload_json(
        model::value_json(created_at(*s, 2, 1)->argument, model::ValueEncoding::api_compressed));
    EXPECT_EQ(payload["round"], (json{{"number", "42"}}));
    EXPECT_EQ(payload["amuletPrice"], "0.5");
    EXPECT_EQ(payload["opensAt"], "2025-01-01T00:00:00Z");
    EXPECT_EQ(payload["targetClosesAt"], "2025-01-03T00:00:00Z");
}

// Scan's latest usable round: the highest round number that opened before the clock.
TEST(StepOpenMiningRound, TheLatestUsableRoundIsTheHighestThatHasOpened) {
    json first = at(open_round, "2025-01-01T01:00:00Z");
    first["round"] = 6;
    json second = at(open_round, "2025-01-01T01:10:00Z");
    second["round"] = 7;
    second["opens_at"] = "2025-01-01T01:20:00Z";
    const auto s = load(seed_with({first, second}));
    const splice::SpliceViews& views = splice::views(*s);

    EXPECT_FALSE(views.latest_usable_open_round(time_of("2025-01-01T01:00:00Z")).has_value());
    EXPECT_EQ(
        views.latest_usable_open_round(time_of("2025-01-01T01:15:00Z"))->contract->contract_id,
        cid(*s, 2, 1));
    EXPECT_EQ(views.latest_usable_open_round(time_of("2025-01-01T01:20:00.000001Z"))
                  ->contract->contract_id,
              cid(*s, 3, 1));
}

TEST(StepOpenMiningRound, TheViewsFindTheRules) {
    const auto s = load(seed_with(json::array()));

    EXPECT_EQ(splice::views(*s).amulet_rules()->contract->contract_id, amulet_rules(*s));
    EXPECT_EQ(splice::views(*s).external_party_amulet_rules()->contract->contract_id,
              external_rules(*s));
}

TEST(StepOpenMiningRound, TheRoundMustCloseAfterItOpens) {
    json step = open_round;
    step["opens_at"] = "2025-01-02T00:00:00Z";
    step["target_closes_at"] = "2025-01-02T00:00:00Z";

    EXPECT_THROW(
        {
            try {
                (void)load(seed_with({step}));
            } catch (const SeedError& e) {
                EXPECT_NE(std::string(e.what()).find("/steps/0/target_closes_at"),
                          std::string::npos)
                    << e.what();
                throw;
            }
        },
        SeedError);
}

// ================================ synchronizers ================================

json reassignment_json(const store::Reassignment& r) {
    return {{"kind", r.kind == store::Reassignment::Kind::unassign ? "unassign" : "assign"},
            {"contract", r.contract->contract_id},
            {"submitter", r.submitter},
            {"source", r.source_synchronizer},
            {"target", r.target_synchronizer},
            {"counter", r.reassignment_counter},
            {"migration", r.migration_id},
            {"record_time", r.record_time.micros}};
}

json reassign_step() {
    return {{"step", "reassign"},
            {"contract", "b1"},
            {"to", private_synchronizer},
            {"submitter", "bob"}};
}

TEST(StepReassign, CommitsTheUnassignmentAndOneSecondLaterTheAssignment) {
    const auto s = load(seed_with({mint("bob", "50", "b1"), reassign_step()}));

    ASSERT_EQ(s->ledger_end(), 4);
    const json unassigned = {{"kind", "unassign"},
                             {"contract", cid(*s, 2, 1)},
                             {"submitter", bob},
                             {"source", global_synchronizer},
                             {"target", private_synchronizer},
                             {"counter", 1},
                             {"migration", 0},
                             {"record_time", start_micros + 2 * second}};
    json assigned = unassigned;
    assigned["kind"] = "assign";
    assigned["record_time"] = start_micros + 3 * second;
    EXPECT_EQ(reassignment_json(update_as<store::Reassignment>(*s, 3)), unassigned);
    EXPECT_EQ(reassignment_json(update_as<store::Reassignment>(*s, 4)), assigned);
}

TEST(StepReassign, BothHalvesShareTheUnassignId) {
    const auto s = load(seed_with({mint("bob", "50", "b1"), reassign_step()}));

    const auto& unassigned = update_as<store::Reassignment>(*s, 3);
    const auto& assigned = update_as<store::Reassignment>(*s, 4);
    EXPECT_FALSE(unassigned.unassign_id.empty());
    EXPECT_EQ(assigned.unassign_id, unassigned.unassign_id);
    EXPECT_EQ(unassigned.update_id(), s->update_id_for(3));
    EXPECT_EQ(assigned.update_id(), s->update_id_for(4));
}

TEST(StepReassign, MovesTheContractAndCountsTheReassignment) {
    const auto s = load(seed_with({mint("bob", "50", "b1"), reassign_step()}));

    const auto state = s->contract(cid(*s, 2, 1));
    ASSERT_TRUE(state.has_value());
    EXPECT_EQ(state->synchronizer_id, private_synchronizer);
    EXPECT_EQ(s->reassignment_counter(cid(*s, 2, 1)), 1);
    EXPECT_FALSE(state->archived_offset().has_value());
}

TEST(StepReassign, SubmitterDefaultsToTheContractsFirstSignatory) {
    json step = reassign_step();
    step.erase("submitter");

    const auto s = load(seed_with({mint("bob", "50", "b1"), step}));

    EXPECT_EQ(update_as<store::Reassignment>(*s, 3).submitter, dso);
    EXPECT_EQ(update_as<store::Reassignment>(*s, 4).submitter, dso);
}

TEST(StepReassign, NextStepFollowsTheAssignment) {
    const auto s =
        load(seed_with({mint("bob", "50", "b1"), reassign_step(), mint("bob", "1", "b2")}));

    EXPECT_EQ(transaction_at(*s, 5).record_time.micros, start_micros + 4 * second);
}

TEST(StepReassign, SecondReassignmentCountsTwo) {
    json back = reassign_step();
    back["to"] = global_synchronizer;

    const auto s = load(seed_with({mint("bob", "50", "b1"), reassign_step(), back}));

    EXPECT_EQ(s->reassignment_counter(cid(*s, 2, 1)), 2);
    EXPECT_EQ(s->contract(cid(*s, 2, 1))->synchronizer_id, global_synchronizer);
}

json unassign_step() {
    return {{"step", "unassign"}, {"contract", "b1"}, {"to", private_synchronizer}};
}

TEST(StepUnassign, LeavesTheContractInFlight) {
    const auto s = load(seed_with({mint("bob", "50", "b1"), unassign_step()}));

    ASSERT_EQ(s->ledger_end(), 3);
    const auto state = s->contract(cid(*s, 2, 1));
    ASSERT_TRUE(state.has_value());
    EXPECT_EQ(state->synchronizer_id, "");
    EXPECT_EQ(s->reassignment_counter(cid(*s, 2, 1)), 1);
    const auto& r = update_as<store::Reassignment>(*s, 3);
    EXPECT_EQ(r.kind, store::Reassignment::Kind::unassign);
    EXPECT_EQ(r.submitter, dso);
    EXPECT_EQ(r.target_synchronizer, private_synchronizer);
}

TEST(StepAssign, LandsTheContractOnTheTarget) {
    const json assign = {{"step", "assign"}, {"contract", "b1"}, {"submitter", "bob"}};

    const auto s = load(seed_with({mint("bob", "50", "b1"), unassign_step(), assign}));

    const auto state = s->contract(cid(*s, 2, 1));
    EXPECT_EQ(state->synchronizer_id, private_synchronizer);
    EXPECT_EQ(s->reassignment_counter(cid(*s, 2, 1)), 1);
    const auto& r = update_as<store::Reassignment>(*s, 4);
    EXPECT_EQ(r.kind, store::Reassignment::Kind::assign);
    EXPECT_EQ(r.submitter, bob);
    EXPECT_EQ(r.record_time.micros, start_micros + 3 * second);
    EXPECT_EQ(r.unassign_id, update_as<store::Reassignment>(*s, 3).unassign_id);
}

// ================================ migrations ================================

TEST(StepMigrate, CommitsAMigrationUpdate) {
    const auto s = load(seed_with({mint("alice", "10", "a1"), {{"step", "migrate"}}}));

    const auto& m = update_as<store::Migration>(*s, 3);
    EXPECT_EQ(m.migration_id, 1);
    EXPECT_EQ(m.record_time.micros, start_micros + 2 * second);
    EXPECT_EQ(m.imported_contracts, 6U);  // five of the bootstrap and the amulet
    EXPECT_EQ(m.update_id(), s->update_id_for(3));
    EXPECT_EQ(s->migration_id(), 1);
}

TEST(StepMigrate, ReimportsEveryActiveContractByContractId) {
    const auto s = load(seed_with({mint("alice", "10", "a1"), {{"step", "migrate"}}}));

    const auto imports = s->import_updates(1, "", 100);
    std::vector<std::string> imported;
    for (const auto& i : imports) {
        imported.push_back(i.contract->contract_id.str());
        EXPECT_EQ(i.migration_id, 1);
        EXPECT_EQ(i.synchronizer_id, global_synchronizer);
    }
    std::vector<std::string> active;
    for (const auto& c : s->active_contracts()) active.push_back(c->contract_id.str());
    std::sort(active.begin(), active.end());
    EXPECT_EQ(imported, active);
}

TEST(StepMigrate, LaterTransactionsCarryTheNewMigrationId) {
    const auto s = load(
        seed_with({mint("alice", "10", "a1"), {{"step", "migrate"}}, mint("alice", "5", "a2")}));

    EXPECT_EQ(transaction_at(*s, 2).migration_id, 0);
    EXPECT_EQ(transaction_at(*s, 4).migration_id, 1);
}

// ================================ snapshots ================================

// The holdings of the snapshot of migration `m` at `t`.
splice::HoldingsSnapshotPtr holdings_at(const store::LedgerStore& s, std::int64_t m,
                                        model::Timestamp t) {
    const store::SnapshotPtr snap = s.snapshot(m, t, false);
    if (!snap) throw std::runtime_error("no snapshot");
    return splice::views(s).holdings(*snap);
}

json rows_json(const splice::HoldingsSnapshot& snap) {
    json rows = json::array();
    for (std::size_t i = 0; i < snap.size(); ++i) {
        const splice::HoldingRow& r = snap.row(i);
        rows.push_back({{"row_id", snap.row_id(i)},
                        {"contract", r.contract->contract_id},
                        {"owner", r.owner},
                        {"amount", r.amount().to_scaled_string()},
                        {"locked", r.locked}});
    }
    return rows;
}

TEST(StepSnapshot, HoldsTheActiveAmuletsInCreationOrder) {
    const auto s = load(
        seed_with({mint("alice", "100", "a1"), mint("bob", "50", "b1"), {{"step", "snapshot"}}}));

    const store::SnapshotPtr snap = s->snapshot(0, s->now(), false);
    ASSERT_NE(snap, nullptr);
    EXPECT_EQ(snap->record_time.micros, start_micros + 3 * second);
    const json expected = {{{"row_id", 1},
                            {"contract", cid(*s, 2, 1)},
                            {"owner", alice},
                            {"amount", "100.0000000000"},
                            {"locked", false}},
                           {{"row_id", 2},
                            {"contract", cid(*s, 3, 1)},
                            {"owner", bob},
                            {"amount", "50.0000000000"},
                            {"locked", false}}};
    EXPECT_EQ(rows_json(*holdings_at(*s, 0, s->now())), expected);
}

TEST(StepSnapshot, RowIdsContinueAcrossSnapshots) {
    const auto s = load(seed_with({mint("alice", "100", "a1"),
                                   mint("bob", "50", "b1"),
                                   {{"step", "snapshot"}},
                                   {{"step", "snapshot"}}}));

    const auto times = s->snapshot_times();
    ASSERT_EQ(times.size(), 2U);
    const auto second_snap = holdings_at(*s, 0, times[1].second);
    EXPECT_EQ(second_snap->first_row_id(), 3);
    EXPECT_EQ(second_snap->last_row_id(), 4);
}

TEST(StepSnapshot, IndexesRowsByStakeholder) {
    const auto s = load(
        seed_with({mint("alice", "100", "a1"), mint("bob", "50", "b1"), {{"step", "snapshot"}}}));

    const splice::HoldingsSnapshotPtr holdings = holdings_at(*s, 0, s->now());
    EXPECT_EQ(holdings->rows_of(alice), std::vector<std::uint32_t>{0});
    EXPECT_EQ(holdings->rows_of(bob), std::vector<std::uint32_t>{1});
    EXPECT_EQ(holdings->rows_of(dso), (std::vector<std::uint32_t>{0, 1}));
    EXPECT_TRUE(holdings->rows_of(carol).empty());
}

TEST(StepSnapshot, DoesNotAdvanceTheOffsets) {
    const auto s = load(seed_with({mint("alice", "100", "a1"), {{"step", "snapshot"}}}));

    EXPECT_EQ(s->ledger_end(), 2);
    EXPECT_EQ(s->now().micros, start_micros + 2 * second);
}

json with_interval(std::int64_t seconds) {
    json network = network_json();
    network["snapshot_interval_seconds"] = seconds;
    return network;
}

TEST(StepSnapshot, IntervalSnapshotsAreTakenAtMultiplesOfTheInterval) {
    const json steps = {at(mint("alice", "100", "a1"), "2025-01-01T00:00:30Z"),
                        at(mint("bob", "50", "b1"), "2025-01-01T00:01:30Z"),
                        {{"step", "advance_time"}, {"to", "2025-01-01T00:02:00Z"}}};

    const auto s = load(seed_with(steps, with_interval(60)));

    const std::vector<std::pair<std::int64_t, model::Timestamp>> expected{
        {0, time_of("2025-01-01T00:01:00Z")}, {0, time_of("2025-01-01T00:02:00Z")}};
    EXPECT_EQ(s->snapshot_times(), expected);
    EXPECT_EQ(holdings_at(*s, 0, time_of("2025-01-01T00:01:00Z"))->size(), 1U);
    EXPECT_EQ(holdings_at(*s, 0, time_of("2025-01-01T00:02:00Z"))->size(), 2U);
}

// A snapshot step at an interval boundary is the interval snapshot of that time: the seed loads.
TEST(StepSnapshot, AtAnIntervalBoundaryCoincidesWithTheIntervalSnapshot) {
    const json steps = json::array({at({{"step", "snapshot"}}, "2025-01-01T00:00:10Z")});

    std::unique_ptr<store::LedgerStore> s;
    EXPECT_NO_THROW(s = load(seed_with(steps, with_interval(10))));

    if (s) {
        const std::vector<std::pair<std::int64_t, model::Timestamp>> expected{
            {0, time_of("2025-01-01T00:00:10Z")}};
        EXPECT_EQ(s->snapshot_times(), expected);
    }
}

// An unassignment exactly at an interval boundary must not make the interval snapshot of that
// time go "backwards" behind the assignment one second later.
TEST(StepReassign, AtAnIntervalBoundaryKeepsTheIntervalSnapshot) {
    const json steps = {mint("bob", "50", "b1"), at(reassign_step(), "2025-01-01T00:00:10Z")};

    std::unique_ptr<store::LedgerStore> s;
    EXPECT_NO_THROW(s = load(seed_with(steps, with_interval(10))));

    if (s) {
        EXPECT_NE(s->snapshot(0, time_of("2025-01-01T00:00:10Z"), false), nullptr);
    }
}

// ================================ time ================================

TEST(StepAdvanceTime, ToMovesTheLedgerClock) {
    const json steps = {{{"step", "advance_time"}, {"to", "2025-01-05T00:00:00Z"}},
                        mint("alice", "1", "a1")};

    const auto s = load(seed_with(steps));

    EXPECT_EQ(s->ledger_end(), 2);
    EXPECT_EQ(transaction_at(*s, 2).record_time, time_of("2025-01-05T00:00:01Z"));
}

TEST(StepAdvanceTime, BySecondsMovesTheLedgerClock) {
    const json steps = {{{"step", "advance_time"}, {"by_seconds", 3600}}, mint("alice", "1", "a1")};

    const auto s = load(seed_with(steps));

    EXPECT_EQ(transaction_at(*s, 2).record_time.micros, start_micros + 3601 * second);
}

// ================================ raw transactions ================================

json raw_example() {
    return {
        {"step", "transaction"},
        {"submitters", {"alice"}},
        {"nodes",
         {{{"exercise",
            {{"contract", "a1"},
             {"template", "splice-amulet:Splice.Amulet:Amulet"},
             {"choice", "Archive"},
             {"consuming", true},
             {"acting_parties", {"dso", "alice"}},
             {"argument", {{"record", {{"fields", json::array()}}}}},
             {"result", {{"unit", json::object()}}},
             {"children", json::array()}}}},
          {{"create",
            {{"template", "splice-wallet:Splice.Wallet.Payment:AppPaymentRequest"},
             {"argument",
              {{"record", {{"fields", {{{"label", "sender"}, {"value", {{"party", "alice"}}}}}}}}}},
             {"signatories", {"alice"}},
             {"observers", {"dso"}},
             {"as", "payment-1"}}}}}}};
}

TEST(StepRawTransaction, CommitsTheNodesAsGiven) {
    const auto s = load(seed_with({mint("alice", "10", "a1"), raw_example()}));

    const json expected =
        tree(json::array({0, 1}),
             json::array({exercise_node({.id = 0,
                                         .choice = "Archive",
                                         .template_name = amulet_template,
                                         .contract = cid(*s, 2, 1),
                                         .consuming = true,
                                         .acting_parties = {dso, alice},
                                         .last_descendant = 0,
                                         .witnesses = {dso, alice}}),
                          create_node(1, "splice-wallet:Splice.Wallet.Payment:AppPaymentRequest",
                                      {alice}, {dso}, {dso, alice})}));
    EXPECT_EQ(tree_json(transaction_at(*s, 3)), expected);
    EXPECT_EQ(model::texts(transaction_at(*s, 3).submitters), std::vector<std::string>{alice});
}

TEST(StepRawTransaction, CreatedArgumentIsTheTypedValue) {
    const auto s = load(seed_with({mint("alice", "10", "a1"), raw_example()}));

    EXPECT_EQ(payload_json(model::value_json(created_at(*s, 3, 1)->argument,
                                             model::ValueEncoding::api_compressed)),
              (json{{"sender", alice}}));
}

json create_of(const std::string& party) {
    return {{"create",
             {{"template", "splice-wallet:Splice.Wallet.Payment:AppPaymentRequest"},
              {"argument", {{"record", json::object()}}},
              {"signatories", {party}}}}};
}

TEST(StepRawTransaction, ChildrenNestUnderTheirExercise) {
    const json inner = {{"exercise",
                         {{"contract", "dummy"},
                          {"template", "splice-dso-governance:Splice.DsoRules:DsoRules"},
                          {"choice", "DsoRules_Inner"},
                          {"consuming", false},
                          {"acting_parties", {"dso"}},
                          {"children", {create_of("alice")}}}}};
    json step = {{"step", "transaction"},
                 {"submitters", {"alice", "dso"}},
                 {"nodes",
                  {{{"exercise",
                     {{"contract", "dummy"},
                      {"template", "splice-amulet:Splice.AmuletRules:AmuletRules"},
                      {"choice", "AmuletRules_Outer"},
                      {"consuming", false},
                      {"acting_parties", {"alice"}},
                      {"children", {inner, create_of("alice")}}}}},
                   create_of("bob")}}};
    const auto bootstrap_only = load(seed_with(json::array()));
    step["nodes"][0]["exercise"]["contract"] = amulet_rules(*bootstrap_only);
    step["nodes"][0]["exercise"]["children"][0]["exercise"]["contract"] =
        dso_rules(*bootstrap_only);

    const auto s = load(seed_with({step}));

    const std::string payment = "splice-wallet:Splice.Wallet.Payment:AppPaymentRequest";
    const json expected =
        tree(json::array({0, 4}),
             json::array({exercise_node({.id = 0,
                                         .choice = "AmuletRules_Outer",
                                         .template_name = amulet_rules_template,
                                         .contract = amulet_rules(*s),
                                         .acting_parties = {alice},
                                         .children = {1, 3},
                                         .last_descendant = 3,
                                         .witnesses = {dso, alice}}),
                          exercise_node({.id = 1,
                                         .choice = "DsoRules_Inner",
                                         .template_name = dso_rules_template,
                                         .contract = dso_rules(*s),
                                         .acting_parties = {dso},
                                         .children = {2},
                                         .last_descendant = 2,
                                         .witnesses = {dso, alice}}),
                          create_node(2, payment, {alice}, json::array(), {dso, alice}),
                          create_node(3, payment, {alice}, json::array(), {dso, alice}),
                          create_node(4, payment, {bob}, json::array(), {bob})}));
    EXPECT_EQ(tree_json(transaction_at(*s, 2)), expected);
}

TEST(StepRawTransaction, LabelsCreatedContractsForLaterSteps) {
    const json archive_payment = {
        {"step", "transaction"},
        {"submitters", {"alice"}},
        {"nodes",
         {{{"exercise",
            {{"contract", "payment-1"},
             {"template", "splice-wallet:Splice.Wallet.Payment:AppPaymentRequest"},
             {"choice", "Archive"},
             {"consuming", true},
             {"acting_parties", {"alice"}}}}}}}};

    const auto s = load(seed_with({mint("alice", "10", "a1"), raw_example(), archive_payment}));

    EXPECT_EQ(exercised_at(*s, 4, 0).contract_id, cid(*s, 3, 1));
    EXPECT_TRUE(s->contract(cid(*s, 3, 1))->archived_offset().has_value());
}

TEST(StepRawTransaction, PackageIdFormTakesThePackageName) {
    const std::string package_id(64, 'a');
    const json step = {{"step", "transaction"},
                       {"submitters", {"alice"}},
                       {"nodes",
                        {{{"create",
                           {{"template", package_id + ":My.Module:Thing"},
                            {"package_name", "my-package"},
                            {"argument", {{"record", json::object()}}},
                            {"signatories", {"alice"}}}}}}}};

    const auto s = load(seed_with({step}));

    const model::TemplateId expected{.package_id = model::Name(package_id),
                                     .module_name = model::Name("My.Module"),
                                     .entity_name = model::Name("Thing"),
                                     .package_name = model::Name("my-package")};
    EXPECT_EQ(created_at(*s, 2, 0)->template_id(), expected);
}

TEST(StepRawTransaction, TypedValuesOfEveryKindBecomeTheArgument) {
    const json fields = {
        {{"label", "t"}, {"value", {{"text", "x"}}}},
        {{"label", "i"}, {"value", {{"int64", "12"}}}},
        {{"label", "n"}, {"value", {{"numeric", "1.5"}}}},
        {{"label", "b"}, {"value", {{"bool", true}}}},
        {{"label", "p"}, {"value", {{"party", "bob"}}}},
        {{"label", "c"}, {"value", {{"contractId", "a1"}}}},
        {{"label", "ts"}, {"value", {{"timestamp", "2025-06-01T12:00:00Z"}}}},
        {{"label", "d"}, {"value", {{"date", "2025-01-31"}}}},
        {{"label", "u"}, {"value", {{"unit", json::object()}}}},
        {{"label", "none"}, {"value", {{"optional", json::object()}}}},
        {{"label", "some"}, {"value", {{"optional", {{"value", {{"text", "y"}}}}}}}},
        {{"label", "l"}, {"value", {{"list", {{"elements", {{{"text", "a"}}}}}}}}},
        {{"label", "tm"},
         {"value", {{"textMap", {{"entries", {{{"key", "k"}, {"value", {{"text", "v"}}}}}}}}}}},
        {{"label", "gm"},
         {"value",
          {{"genMap",
            {{"entries", {{{"key", {{"int64", "1"}}}, {"value", {{"text", "one"}}}}}}}}}}},
        {{"label", "v"},
         {"value", {{"variant", {{"constructor", "C"}, {"value", {{"unit", json::object()}}}}}}}},
        {{"label", "e"}, {"value", {{"enum", {{"constructor", "E"}}}}}}};
    const json step = {{"step", "transaction"},
                       {"submitters", {"alice"}},
                       {"nodes",
                        {{{"create",
                           {{"template", "splice-wallet:Splice.Wallet.Payment:AppPaymentRequest"},
                            {"argument", {{"record", {{"fields", fields}}}}},
                            {"signatories", {"alice"}}}}}}}};

    const auto s = load(seed_with({mint("alice", "10", "a1"), step}));

    const json expected = {{"t", "x"},
                           {"i", "12"},
                           {"n", "1.5000000000"},
                           {"b", true},
                           {"p", bob},
                           {"c", cid(*s, 2, 1)},
                           {"ts", "2025-06-01T12:00:00Z"},
                           {"d", "2025-01-31"},
                           {"u", json::object()},
                           {"none", nullptr},
                           {"some", "y"},
                           {"l", {"a"}},
                           {"tm", {{"k", "v"}}},
                           {"gm", json::array({json::array({"1", "one"})})},
                           {"v", {{"tag", "C"}, {"value", json::object()}}},
                           {"e", "E"}};
    EXPECT_EQ(payload_json(
                  model::value_json(created_at(*s, 3, 0)->argument, model::ValueEncoding::codegen)),
              expected);
}

TEST(StepRawTransaction, ExerciseArgumentAndResultAreTheTypedValues) {
    const auto s = load(seed_with({mint("alice", "10", "a1"), raw_example()}));

    EXPECT_EQ(json::parse(model::value_json(exercised_at(*s, 3, 0).choice_argument,
                                            model::ValueEncoding::ledger)),
              json::object());
    EXPECT_EQ(json::parse(model::value_json(exercised_at(*s, 3, 0).exercise_result,
                                            model::ValueEncoding::ledger)),
              json::object());
}

}  // namespace
}  // namespace cantonlite::seed::step_compiler_test
