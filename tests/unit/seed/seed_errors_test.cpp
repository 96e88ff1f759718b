// Every error a seed can stop start-up with: one line naming the source, the step and its kind,
// the JSON pointer of the offending value and the problem (docs/seed-format.md).
#include <exception>
#include <ostream>
#include <string>
#include <typeinfo>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "seed/seed_test_network.hpp"

namespace cantonlite::seed::seed_errors_test {
namespace {

using namespace seedtest;  // NOLINT: the shared test network's parties and readers

// The what() of the SeedError that loading `document` throws, "" when it loads, or a description
// of any other exception (a SeedError is the only exception load_seed may throw).
std::string load_error(const json& document) {
    try {
        (void)load_seed(document, "test-seed");
    } catch (const SeedError& e) {
        return e.what();
    } catch (const std::exception& e) {
        return std::string("not a SeedError: ") + typeid(e).name() + ": " + e.what();
    }
    return "";
}

void replace_all(std::string& text, const std::string& from, const std::string& to) {
    for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at)) {
        text.replace(at, from.size(), to);
        at += to.size();
    }
}

// ---- steps ----

json mint(const std::string& owner, const std::string& amount, const std::string& label) {
    return {{"step", "mint"}, {"owner", owner}, {"amount", amount}, {"as", label}};
}

json transfer(const json& inputs, const std::string& receiver, const std::string& amount) {
    return {{"step", "transfer"},
            {"sender", "alice"},
            {"inputs", inputs},
            {"outputs", {{{"receiver", receiver}, {"amount", amount}}}}};
}

json lock(const std::string& amulet, const std::string& amount) {
    return {{"step", "lock"},
            {"amulet", amulet},
            {"amount", amount},
            {"holders", {"provider"}},
            {"expires_at", "2025-03-01T00:00:00Z"}};
}

json offer(const std::string& sender) {
    return {{"step", "create_transfer_offer"},
            {"sender", sender},
            {"receiver", "bob"},
            {"amount", "15"},
            {"expires_at", "2025-02-01T00:00:00Z"},
            {"tracking_id", "offer-1"}};
}

json request_vote() {
    return {{"step", "request_vote"},
            {"requester", "Digital-Asset-2"},
            {"action", {{"offboard_sv", "Sv-3"}}},
            {"vote_before", "2025-01-10T00:00:00Z"},
            {"as", "vote-1"}};
}

json with(json step, const std::string& key, json value) {
    step[key] = std::move(value);
    return step;
}

json without(json step, const std::string& key) {
    step.erase(key);
    return step;
}

json raw_create(json argument, const std::string& template_name) {
    json create = {{"template", template_name}, {"signatories", {"alice"}}};
    if (!argument.is_null()) create["argument"] = std::move(argument);
    return {{"step", "transaction"}, {"submitters", {"alice"}}, {"nodes", {{{"create", create}}}}};
}

json raw_create(json argument) {
    return raw_create(std::move(argument), "splice-wallet:Splice.Wallet.Payment:AppPaymentRequest");
}

json raw_archive(const std::string& contract, const std::string& template_name) {
    return {{"step", "transaction"},
            {"submitters", {"alice"}},
            {"nodes",
             {{{"exercise",
                {{"contract", contract},
                 {"template", template_name},
                 {"choice", "Archive"},
                 {"consuming", true},
                 {"acting_parties", {"dso", "alice"}}}}}}}};
}

json without_signatories(json raw) {
    raw["nodes"][0]["create"].erase("signatories");
    return raw;
}

json one_field(json value) {
    return {{"record", {{"fields", {{{"label", "f"}, {"value", std::move(value)}}}}}}};
}

// ================================ step errors ================================

// A seed whose last step fails. "{cid}", in the steps and the error, stands for the contract id
// that node `cid_node` of offset `cid_offset` creates when the steps before the last one load.
struct StepErrorCase {
    std::string name;
    std::vector<json> steps;  // not a json: clang reads a one-step braced list as that step
    std::string error;
    store::Offset cid_offset = 0;
    int cid_node = 0;
};

// GoogleTest prints the case by name instead of its bytes.
void PrintTo(const StepErrorCase& c, std::ostream* os) {
    *os << c.name;
}

class SeedStepErrors : public testing::TestWithParam<StepErrorCase> {};

TEST_P(SeedStepErrors, NameTheStepThePointerAndTheProblemOnOneLine) {
    const StepErrorCase& c = GetParam();
    std::string steps = json(c.steps).dump();
    std::string expected = c.error;
    if (c.cid_offset > 0) {
        json before = c.steps;
        before.erase(before.size() - 1);
        const std::string cid =
            created_at(*load(seed_with(before)), c.cid_offset, c.cid_node)->contract_id.str();
        replace_all(steps, "{cid}", cid);
        replace_all(expected, "{cid}", cid);
    }

    const std::string error = load_error(seed_with(json::parse(steps)));

    EXPECT_EQ(error, expected);
    EXPECT_EQ(error.find('\n'), std::string::npos);
}

const std::string known_kinds =
    "accept_transfer_offer, add_party, add_user, advance_time, assign, cancel_buy_traffic_request, "
    "cast_vote, "
    "close_vote, complete_buy_traffic_request, create_buy_traffic_request, "
    "create_transfer_instruction, create_transfer_offer, create_transfer_preapproval, "
    "create_user, delete_user, execute, expire_buy_traffic_request, "
    "expire_transfer_offer, feature_app, grant_rights, grant_user_rights, lock, migrate, "
    "mint, open_mining_round, reassign, register_ans_entry, renew_ans_entry, request_vote, "
    "revoke_user_rights, snapshot, submit, transaction, "
    "transfer, transfer_command, unassign, unlock, update_user, withdraw_transfer_offer";

const std::string rfc3339 = "must be an RFC 3339 date-time such as \"2024-05-01T10:00:00Z\", got ";

INSTANTIATE_TEST_SUITE_P(
    SeedReferences, SeedStepErrors,
    testing::Values(
        StepErrorCase{"UnknownParty",
                      {mint("zed", "10", "a1")},
                      "test-seed: step 0 (mint): /steps/0/owner: unknown party 'zed'"},
        StepErrorCase{
            "UnknownPartyInAnOutput",
            {mint("alice", "100", "a1"), transfer({"a1"}, "zed", "10")},
            "test-seed: step 1 (transfer): /steps/1/outputs/0/receiver: unknown party 'zed'"},
        StepErrorCase{"PartyReferenceNotAString",
                      {with(mint("alice", "10", "a1"), "owner", 7)},
                      "test-seed: step 0 (mint): /steps/0/owner: must be a party reference, got 7"},
        StepErrorCase{"UnknownContractLabel",
                      {lock("nope", "10")},
                      "test-seed: step 0 (lock): /steps/0/amulet: unknown contract 'nope'"},
        // A value with control characters is named on one line (found by fuzz_seed).
        StepErrorCase{
            "UnknownContractLabelWithANewline",
            {lock("no\npe\x01", "10")},
            "test-seed: step 0 (lock): /steps/0/amulet: unknown contract 'no\\npe\\u0001'"},
        // docs/seed-format.md: "A step that consumes a contract makes its label point nowhere".
        StepErrorCase{"LabelOfAnArchivedContract",
                      {mint("alice", "100", "a1"), transfer({"a1"}, "bob", "100"),
                       transfer({"a1"}, "bob", "100")},
                      "test-seed: step 2 (transfer): /steps/2/inputs/0: unknown contract 'a1'"},
        StepErrorCase{"LabelOfAnArchivedContractInARawExercise",
                      {mint("alice", "100", "a1"), transfer({"a1"}, "bob", "100"),
                       raw_archive("a1", "splice-amulet:Splice.Amulet:Amulet")},
                      "test-seed: step 2 (transaction): /steps/2/nodes/0/exercise/contract: "
                      "unknown contract 'a1'"},
        StepErrorCase{"IdOfAnArchivedContract",
                      {mint("alice", "100", "a1"), transfer({"a1"}, "bob", "100"),
                       transfer({"{cid}"}, "bob", "100")},
                      "test-seed: step 2 (transfer): /steps/2/inputs/0: contract {cid} is archived",
                      2,
                      1},
        StepErrorCase{"SameInputTwice",
                      {mint("alice", "100", "a1"), transfer({"a1", "a1"}, "bob", "10")},
                      "test-seed: step 1 (transfer): /steps/1/inputs/1: appears twice"}),
    [](const testing::TestParamInfo<StepErrorCase>& info) { return info.param.name; });

INSTANTIATE_TEST_SUITE_P(
    SeedShapes, SeedStepErrors,
    testing::Values(
        StepErrorCase{
            "UnknownStepKind",
            {{{"step", "mintt"}}},
            "test-seed: step 0 (mintt): /steps/0/step: unknown step kind 'mintt' (one of " +
                known_kinds + ")"},
        StepErrorCase{"MissingStepKind",
                      {{{"owner", "alice"}}},
                      "test-seed: step 0 (?): /steps/0/step: is required"},
        StepErrorCase{"StepNotAnObject",
                      {"mint"},
                      "test-seed: step 0 (?): /steps/0: must be an object, got \"mint\""},
        StepErrorCase{"UnknownKeyInAStep",
                      {with(mint("alice", "10", "a1"), "amout", "10")},
                      "test-seed: step 0 (mint): /steps/0/amout: unknown key"},
        StepErrorCase{"UnknownKeyInAnOutput",
                      {mint("alice", "100", "a1"), with(transfer({"a1"}, "bob", "10"), "outputs",
                                                        {{{"receiver", "bob"}, {"amt", "10"}}})},
                      "test-seed: step 1 (transfer): /steps/1/outputs/0/amt: unknown key"},
        StepErrorCase{"MissingAmount",
                      {without(mint("alice", "10", "a1"), "amount")},
                      "test-seed: step 0 (mint): /steps/0/amount: is required"},
        StepErrorCase{"MissingOwner",
                      {without(mint("alice", "10", "a1"), "owner")},
                      "test-seed: step 0 (mint): /steps/0/owner: is required"},
        StepErrorCase{
            "MissingOfferExpiry",
            {without(offer("alice"), "expires_at")},
            "test-seed: step 0 (create_transfer_offer): /steps/0/expires_at: is required"},
        StepErrorCase{"MissingVoteDeadline",
                      {without(request_vote(), "vote_before")},
                      "test-seed: step 0 (request_vote): /steps/0/vote_before: is required"},
        StepErrorCase{"MissingRawCreateArgument",
                      {raw_create(nullptr)},
                      "test-seed: step 0 (transaction): /steps/0/nodes/0/create/argument: is "
                      "required"},
        StepErrorCase{
            "TransferWithoutInputs",
            {mint("alice", "100", "a1"), transfer(json::array(), "bob", "10")},
            "test-seed: step 1 (transfer): /steps/1/inputs: must be a non-empty array of amulets"},
        StepErrorCase{
            "LockWithoutHolders",
            {mint("alice", "100", "a1"), with(lock("a1", "10"), "holders", json::array())},
            "test-seed: step 1 (lock): /steps/1/holders: needs at least one lock holder"},
        StepErrorCase{"AdvanceTimeWithoutTarget",
                      {{{"step", "advance_time"}}},
                      "test-seed: step 0 (advance_time): /steps/0: needs exactly one of to and "
                      "by_seconds"}),
    [](const testing::TestParamInfo<StepErrorCase>& info) { return info.param.name; });

INSTANTIATE_TEST_SUITE_P(
    SeedValues, SeedStepErrors,
    testing::Values(
        StepErrorCase{"DecimalWithTooManyDecimals",
                      {mint("alice", "12.34567890123", "a1")},
                      "test-seed: step 0 (mint): /steps/0/amount: must be a decimal string such as "
                      "\"100.5\" with at most 10 decimals, got \"12.34567890123\""},
        StepErrorCase{"DecimalAsANumber",
                      {with(mint("alice", "10", "a1"), "amount", 100)},
                      "test-seed: step 0 (mint): /steps/0/amount: must be a decimal string such as "
                      "\"100.5\" with at most 10 decimals, got 100"},
        StepErrorCase{"ZeroAmount",
                      {mint("alice", "0", "a1")},
                      "test-seed: step 0 (mint): /steps/0/amount: must be positive"},
        StepErrorCase{"BadTimestamp",
                      {with(offer("alice"), "expires_at", "tomorrow")},
                      "test-seed: step 0 (create_transfer_offer): /steps/0/expires_at: " + rfc3339 +
                          "\"tomorrow\""},
        StepErrorCase{"AtWithoutTime",
                      {with(mint("alice", "10", "a1"), "at", "2025-01-02")},
                      "test-seed: step 0 (mint): /steps/0/at: " + rfc3339 + "\"2025-01-02\""},
        StepErrorCase{"AtBeforeTheStart",
                      {with(mint("alice", "10", "a1"), "at", "2024-12-31T00:00:00Z")},
                      "test-seed: step 0 (mint): /steps/0/at: time goes backwards: "
                      "2024-12-31T00:00:00Z is before the ledger time 2025-01-01T00:00:00Z"},
        StepErrorCase{"AtBeforeAnEarlierStep",
                      {with(mint("alice", "10", "a1"), "at", "2025-01-02T00:00:00Z"),
                       with(mint("alice", "10", "a2"), "at", "2025-01-01T12:00:00Z")},
                      "test-seed: step 1 (mint): /steps/1/at: time goes backwards: "
                      "2025-01-01T12:00:00Z is before the ledger time 2025-01-02T00:00:00Z"},
        StepErrorCase{"AdvanceTimeBackwards",
                      {{{"step", "advance_time"}, {"to", "2024-06-01T00:00:00Z"}}},
                      "test-seed: step 0 (advance_time): /steps/0/to: time goes backwards: "
                      "2024-06-01T00:00:00Z is before the ledger time 2025-01-01T00:00:00Z"},
        StepErrorCase{"OpenRoundWithAZeroPrice",
                      {{{"step", "open_mining_round"}, {"amulet_price", "0"}}},
                      "test-seed: step 0 (open_mining_round): /steps/0/amulet_price: must be "
                      "positive"},
        StepErrorCase{"OpenRoundNegative",
                      {{{"step", "open_mining_round"}, {"round", -1}}},
                      "test-seed: step 0 (open_mining_round): /steps/0/round: must be an integer "
                      "from 0 to 15372286728, got -1"},
        StepErrorCase{"OpenRoundClosingBeforeItOpens",
                      {{{"step", "open_mining_round"},
                        {"opens_at", "2025-01-02T00:00:00Z"},
                        {"target_closes_at", "2025-01-01T23:00:00Z"}}},
                      "test-seed: step 0 (open_mining_round): /steps/0/target_closes_at: the "
                      "round must close after it opens (2025-01-02T00:00:00Z)"},
        StepErrorCase{"OpenRoundUnknownKey",
                      {{{"step", "open_mining_round"}, {"price", "1"}}},
                      "test-seed: step 0 (open_mining_round): /steps/0/price: unknown key"}),
    [](const testing::TestParamInfo<StepErrorCase>& info) { return info.param.name; });

INSTANTIATE_TEST_SUITE_P(
    SeedRules, SeedStepErrors,
    testing::Values(
        StepErrorCase{"OutputsExceedInputs",
                      {mint("alice", "100", "a1"), transfer({"a1"}, "bob", "150")},
                      "test-seed: step 1 (transfer): /steps/1/outputs: the outputs (150.0) exceed "
                      "the inputs (100.0)"},
        // A lock has no "outputs" or "inputs": the text should speak of the step's own keys.
        StepErrorCase{"LockAmountExceedsTheAmulet",
                      {mint("alice", "100", "a1"), lock("a1", "150")},
                      "test-seed: step 1 (lock): /steps/1/amount: the amount (150.0) exceeds the "
                      "amulet's amount (100.0)"},
        StepErrorCase{"AmuletOfAnotherOwner",
                      {mint("bob", "100", "b1"), transfer({"b1"}, "bob", "10")},
                      "test-seed: step 1 (transfer): /steps/1/inputs/0: amulet {cid} is owned by " +
                          bob + ", not by " + alice,
                      2,
                      1},
        StepErrorCase{"UnlockOfAnAmulet",
                      {mint("alice", "100", "a1"), {{"step", "unlock"}, {"locked_amulet", "a1"}}},
                      "test-seed: step 1 (unlock): /steps/1/locked_amulet: contract {cid} is an "
                      "Amulet, not a LockedAmulet",
                      2,
                      1},
        StepErrorCase{
            "AcceptOfAnAmulet",
            {mint("alice", "100", "a1"), {{"step", "accept_transfer_offer"}, {"offer", "a1"}}},
            "test-seed: step 1 (accept_transfer_offer): /steps/1/offer: contract {cid} "
            "is an Amulet, not a TransferOffer",
            2,
            1},
        StepErrorCase{"OfferFromAUserWithoutWallet",
                      {offer("carol")},
                      "test-seed: step 0 (create_transfer_offer): /steps/0/sender: " + carol +
                          " has no wallet"},
        StepErrorCase{"BuyTrafficForAUserWithoutWallet",
                      {{{"step", "create_buy_traffic_request"},
                        {"user", "carol"},
                        {"traffic_amount", 1000},
                        {"tracking_id", "t"},
                        {"expires_at", "2025-01-02T00:00:00Z"}}},
                      "test-seed: step 0 (create_buy_traffic_request): /steps/0/user: " + carol +
                          " has no wallet"},
        StepErrorCase{"VoteByANonSv",
                      {request_vote(),
                       {{"step", "cast_vote"},
                        {"vote_request", "vote-1"},
                        {"voter", "alice"},
                        {"accept", true}}},
                      "test-seed: step 1 (cast_vote): /steps/1/voter: " + alice +
                          " is not a super validator"},
        StepErrorCase{"RenewalMovingTheExpiryBack",
                      {{{"step", "register_ans_entry"},
                        {"user", "alice"},
                        {"name", "alice.unverified.ans"},
                        {"expires_at", "2026-01-01T00:00:00Z"},
                        {"as", "e1"}},
                       {{"step", "renew_ans_entry"},
                        {"entry", "e1"},
                        {"expires_at", "2025-06-01T00:00:00Z"}}},
                      "test-seed: step 1 (renew_ans_entry): /steps/1/expires_at: a renewal cannot "
                      "move the expiry back"}),
    [](const testing::TestParamInfo<StepErrorCase>& info) { return info.param.name; });

// Errors the store finds: the pointer should still name the step's key at fault.
INSTANTIATE_TEST_SUITE_P(
    SeedStoreChecks, SeedStepErrors,
    testing::Values(
        StepErrorCase{"ReassignToAnUnknownSynchronizer",
                      {mint("alice", "100", "a1"),
                       {{"step", "reassign"}, {"contract", "a1"}, {"to", "nowhere::1220ff"}}},
                      "test-seed: step 1 (reassign): /steps/1/to: unknown synchronizer "
                      "nowhere::1220ff"},
        StepErrorCase{"UnassignToAnUnknownSynchronizer",
                      {mint("alice", "100", "a1"),
                       {{"step", "unassign"}, {"contract", "a1"}, {"to", "nowhere::1220ff"}}},
                      "test-seed: step 1 (unassign): /steps/1/to: unknown synchronizer "
                      "nowhere::1220ff"},
        StepErrorCase{"AssignOfAContractNotInFlight",
                      {mint("alice", "100", "a1"), {{"step", "assign"}, {"contract", "a1"}}},
                      "test-seed: step 1 (assign): /steps/1/contract: contract {cid} is not in "
                      "flight",
                      2,
                      1},
        StepErrorCase{"TransferOfAContractInFlight",
                      {mint("alice", "100", "a1"),
                       {{"step", "unassign"}, {"contract", "a1"}, {"to", private_synchronizer}},
                       transfer({"a1"}, "bob", "10")},
                      "test-seed: step 2 (transfer): /steps/2/inputs/0: contract {cid} is "
                      "unassigned (in flight)",
                      2,
                      1},
        StepErrorCase{"RawCreateWithoutSignatories",
                      {without_signatories(raw_create(one_field({{"unit", json::object()}})))},
                      "test-seed: step 0 (transaction): /steps/0/nodes/0/create/signatories: a "
                      "contract needs at least one signatory"},
        StepErrorCase{"SnapshotTwiceAtTheSameTime",
                      {{{"step", "snapshot"}, {"at", "2025-01-01T00:00:05Z"}},
                       {{"step", "snapshot"}, {"at", "2025-01-01T00:00:05Z"}}},
                      "test-seed: step 1 (snapshot): /steps/1/at: a snapshot of migration 0 at "
                      "2025-01-01T00:00:05Z exists already"},
        StepErrorCase{"RawExerciseWithTheWrongTemplate",
                      {mint("alice", "100", "a1"),
                       raw_archive("a1", "splice-dso-governance:Splice.DsoRules:DsoRules")},
                      "test-seed: step 1 (transaction): /steps/1/nodes/0/exercise/template: "
                      "contract {cid} is a Splice.Amulet:Amulet, not a Splice.DsoRules:DsoRules",
                      2,
                      1}),
    [](const testing::TestParamInfo<StepErrorCase>& info) { return info.param.name; });

INSTANTIATE_TEST_SUITE_P(
    SeedRawTransactions, SeedStepErrors,
    testing::Values(
        StepErrorCase{"TemplateWithoutModule",
                      {raw_create(one_field({{"unit", json::object()}}), "Amulet")},
                      "test-seed: step 0 (transaction): /steps/0/nodes/0/create/template: must be "
                      "<package>:<Module>:<Entity>, got \"Amulet\""},
        StepErrorCase{"TemplateOfAnUnknownPackage",
                      {raw_create(one_field({{"unit", json::object()}}), "nope:My.Module:Thing")},
                      "test-seed: step 0 (transaction): /steps/0/nodes/0/create/template: unknown "
                      "package 'nope' (name it in network.packages, or give package_name)"},
        StepErrorCase{"UnknownValueKind",
                      {raw_create({{"number", 1}})},
                      "test-seed: step 0 (transaction): /steps/0/nodes/0/create/argument: unknown "
                      "value kind 'number'"},
        StepErrorCase{"UntypedValue",
                      {raw_create("x")},
                      "test-seed: step 0 (transaction): /steps/0/nodes/0/create/argument: must be "
                      "a typed value such as {\"text\": \"x\"}, got \"x\""},
        StepErrorCase{"BadInt64",
                      {raw_create(one_field({{"int64", "twelve"}}))},
                      "test-seed: step 0 (transaction): "
                      "/steps/0/nodes/0/create/argument/record/fields/0/value/int64: must be an "
                      "integer string such as \"12\""},
        StepErrorCase{"BadNumeric",
                      {raw_create(one_field({{"numeric", "1.5e3"}}))},
                      "test-seed: step 0 (transaction): "
                      "/steps/0/nodes/0/create/argument/record/fields/0/value/numeric: must be a "
                      "decimal string such as \"1.5\""},
        StepErrorCase{"UnknownPartyInAValue",
                      {raw_create(one_field({{"party", "zed"}}))},
                      "test-seed: step 0 (transaction): "
                      "/steps/0/nodes/0/create/argument/record/fields/0/value/party: unknown party "
                      "'zed'"},
        StepErrorCase{"RecordLabelTwice",
                      {raw_create({{"record",
                                    {{"fields",
                                      {{{"label", "a"}, {"value", {{"text", "x"}}}},
                                       {{"label", "a"}, {"value", {{"text", "y"}}}}}}}}})},
                      "test-seed: step 0 (transaction): "
                      "/steps/0/nodes/0/create/argument/record/fields/1/label: appears twice"},
        StepErrorCase{"NodeWithCreateAndExercise",
                      {{{"step", "transaction"},
                        {"submitters", {"alice"}},
                        {"nodes", {{{"create", json::object()}, {"exercise", json::object()}}}}}},
                      "test-seed: step 0 (transaction): /steps/0/nodes/0: must have exactly one of "
                      "create and exercise"}),
    [](const testing::TestParamInfo<StepErrorCase>& info) { return info.param.name; });

// ================================ network and users ================================

struct DocumentErrorCase {
    std::string name;
    json document;
    std::string error;
};

void PrintTo(const DocumentErrorCase& c, std::ostream* os) {
    *os << c.name;
}

class SeedDocumentErrors : public testing::TestWithParam<DocumentErrorCase> {};

TEST_P(SeedDocumentErrors, NameThePointerAndTheProblemOnOneLine) {
    const DocumentErrorCase& c = GetParam();

    const std::string error = load_error(c.document);

    EXPECT_EQ(error, c.error);
    EXPECT_EQ(error.find('\n'), std::string::npos);
}

json with_network(const std::string& key, json value) {
    json document = seed_with(json::array());
    document["network"][key] = std::move(value);
    return document;
}

json with_users(json users) {
    json document = seed_with(json::array());
    document["users"] = std::move(users);
    return document;
}

std::string bad_party(const std::string& pointer, const std::string& party) {
    return "test-seed: " + pointer + ": must be a party id such as \"alice::1220ab…\", got \"" +
           party + "\"";
}

INSTANTIATE_TEST_SUITE_P(
    SeedDocuments, SeedDocumentErrors,
    testing::Values(
        DocumentErrorCase{"DsoPartyWithoutFingerprint", with_network("dso_party", "DSO"),
                          bad_party("/network/dso_party", "DSO")},
        DocumentErrorCase{"ValidatorPartyWithEmptyFingerprint",
                          with_network("validator_party", "validator::"),
                          bad_party("/network/validator_party", "validator::")},
        DocumentErrorCase{"SvPartyWithoutFingerprint",
                          with_network("svs", {{{"name", "Sv-1"}, {"party", "sv-1"}}}),
                          bad_party("/network/svs/0/party", "sv-1")},
        DocumentErrorCase{"AliasPartyWithEmptyHint",
                          with_network("parties", {{"provider", "::1220d0"}}),
                          bad_party("/network/parties/provider", "::1220d0")},
        DocumentErrorCase{"UserPartyWithoutFingerprint",
                          with_users({{{"id", "alice"}, {"party", "alice"}}}),
                          bad_party("/users/0/party", "alice")},
        DocumentErrorCase{
            "DuplicateUserId",
            with_users({{{"id", "alice"}, {"party", alice}}, {{"id", "alice"}, {"party", bob}}}),
            "test-seed: /users/1/id: user 'alice' appears twice"},
        DocumentErrorCase{"UnknownPartyInRights",
                          with_users({{{"id", "alice"},
                                       {"party", alice},
                                       {"rights", {{"can_act_as", {"zed"}}}}}}),
                          "test-seed: /users/0/rights/can_act_as/0: unknown party 'zed'"},
        DocumentErrorCase{
            "UnknownValidator",
            with_users(
                {{{"id", "alice"}, {"party", alice}, {"wallet", true}, {"validator", "app_user"}}}),
            "test-seed: /users/0/validator: must be a LocalNet validator: "
            "\"app-user\", \"app-provider\" or \"sv\", got \"app_user\""},
        DocumentErrorCase{"ValidatorOfAUserWithoutWallet",
                          with_users({{{"id", "alice"}, {"party", alice}, {"validator", "sv"}}}),
                          "test-seed: /users/0/validator: names the validator of a wallet: "
                          "the user needs \"wallet\": true"},
        DocumentErrorCase{"StartTimeWithoutTime", with_network("start_time", "2025-01-01"),
                          "test-seed: /network/start_time: " + rfc3339 + "\"2025-01-01\""},
        DocumentErrorCase{"StepsNotAnArray", seed_with(json::object()),
                          "test-seed: /steps: must be an array"}),
    [](const testing::TestParamInfo<DocumentErrorCase>& info) { return info.param.name; });

}  // namespace
}  // namespace cantonlite::seed::seed_errors_test
