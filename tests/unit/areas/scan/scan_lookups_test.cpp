// Scan lookups: GET /v0/transfer-command-counter/{party} (op 7, scan side),
// GET /v0/ans-entries/by-name/{name} (op 9, scan side), GET /v0/voterequests/{id} (op 8) and
// GET /v0/admin/sv/voterequests (op 10) (splice-behavior.md ops 7-10, §4.3; scan.yaml
// LookupTransferCommandCounterByPartyResponse, LookupEntryByNameResponse, AnsEntry;
// common-internal.yaml ContractWithState, LookupDsoRulesVoteRequestResponse,
// ListDsoRulesVoteRequestsResponse; common-external.yaml Contract).
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "areas/scan/scan_test_support.hpp"

namespace cantonlite::areas::scan::scan_lookups_test {
namespace {

using namespace scantest;  // NOLINT: the shared test network, steps and readers

const std::string counter_path = "/api/scan/v0/transfer-command-counter/";
const std::string preapproval_path = "/api/scan/v0/transfer-preapprovals/by-party/";
const std::string by_name = "/api/scan/v0/ans-entries/by-name/";
const std::string vote_request_path = "/api/scan/v0/voterequests/";
const std::string vote_requests_list = "/api/scan/v0/admin/sv/voterequests";
const std::string ledger_clock = "2025-01-10T00:00:00Z";

json preapproval(const std::string& receiver, const std::string& expires_at,
                 const std::string& label = "") {
    json step = {{"step", "create_transfer_preapproval"},
                 {"receiver", receiver},
                 {"expires_at", expires_at}};
    if (!label.empty()) step["as"] = label;
    return step;
}

// Counters: alice's twice bumped (nextNonce 2), carol's left in flight, bob's reassigned to the
// private synchronizer. ANS entries: alice's (live), bob's (expired), carol's (expiring exactly at
// the ledger clock), bob's shop (renewed), alice's second (an expiry with a fraction). Votes:
// A (Digital-Asset-2), B (Sv-2), A voted on by Sv-2, C (Sv-3) closed. The clock ends at
// 2025-01-10T00:00:00Z.
json lookups_seed() {
    return seed_with(
        {transfer_command("alice", "alice-counter"),
         at(transfer_command("alice"), "2025-01-01T10:00:00.5Z"),
         transfer_command("carol", "carol-counter"),
         unassign("carol-counter", private_synchronizer),
         transfer_command("bob", "bob-counter"),
         reassign("bob-counter", private_synchronizer),
         register_ans("alice", "alice.unverified.ans", "2030-01-01T00:00:00Z", "alice-ans"),
         register_ans("bob", "bob.unverified.ans", "2025-01-05T00:00:00Z", "bob-ans"),
         register_ans("carol", "carol.unverified.ans", ledger_clock, "carol-ans"),
         register_ans("bob", "bob-shop.unverified.ans", "2025-01-03T00:00:00Z", "bob-shop"),
         renew_ans("bob-shop", "2031-01-01T00:00:00Z"),
         register_ans("alice", "alice-2.unverified.ans", "2030-06-01T12:00:00.250Z", "alice-2"),
         request_vote("Digital-Asset-2", "Sv-3", "vote-a"),
         request_vote("Sv-2", "Digital-Asset-2", "vote-b"),
         cast_vote("vote-a", "Sv-2"),
         request_vote("Sv-3", "Sv-2", "vote-c"),
         close_vote("vote-c"),
         at(preapproval("alice", "2025-03-01T00:00:00Z"), "2025-01-02T00:00:00Z"),
         at(preapproval("alice", "2025-02-01T00:00:00Z"), "2025-01-03T00:00:00.25Z"),
         at(preapproval("carol", "2026-01-01T00:00:00Z", "carol-preapproval"),
            "2025-01-04T00:00:00Z"),
         unassign("carol-preapproval", private_synchronizer),
         advance_time_to(ledger_clock)});
}

const ScanClient& api() {
    static const ScanClient client(lookups_seed());
    return client;
}

const store::LedgerStore& ledger() {
    return api().store();
}

// The n-th contract of `entity` the seed created.
model::ContractPtr nth(const std::string& entity, std::size_t n) {
    return all_created(ledger(), entity).at(n);
}

model::ContractPtr alice_counter() {
    return nth("TransferCommandCounter", 1);
}
model::ContractPtr carol_counter() {
    return nth("TransferCommandCounter", 2);
}
model::ContractPtr bob_counter() {
    return nth("TransferCommandCounter", 3);
}

model::ContractPtr vote_a() {
    return nth("VoteRequest", 0);
}
model::ContractPtr vote_b() {
    return nth("VoteRequest", 1);
}
model::ContractPtr vote_a_recreated() {
    return nth("VoteRequest", 2);
}
model::ContractPtr vote_c() {
    return nth("VoteRequest", 3);
}

// ---- GET /v0/transfer-command-counter/{party} -------------------------------------------------

TEST(TransferCommandCounter, IsTheSendersCounterWithItsSynchronizer) {
    const Response response = api().get(counter_path + alice);

    EXPECT_EQ(response.status, 200);
    EXPECT_EQ(response.content_type, "application/json");
    EXPECT_EQ(body_of(response), (json{{"transfer_command_counter",
                                        {{"contract", contract_json(*alice_counter())},
                                         {"domain_id", global_synchronizer}}}}));
}

TEST(TransferCommandCounter, WritesThePayloadWithTheNonceAsString) {
    const Response response = api().get(counter_path + alice);

    const json contract = body_of(response).at("transfer_command_counter").at("contract");
    EXPECT_EQ(contract.at("payload"), (json{{"dso", dso}, {"sender", alice}, {"nextNonce", "2"}}));
    EXPECT_EQ(contract.at("template_id"),
              "dbeda50efee6c5e53959638ef5422116723a9a6137fcdd4d2d82544291726a88:"
              "Splice.ExternalPartyAmuletRules:TransferCommandCounter");
    EXPECT_EQ(contract.at("contract_id"), alice_counter()->contract_id);
}

TEST(TransferCommandCounter, WritesCreatedAtAsInstantAndANonEmptyBlob) {
    const Response response = api().get(counter_path + alice);

    const json contract = body_of(response).at("transfer_command_counter").at("contract");
    EXPECT_EQ(contract.at("created_at"), "2025-01-01T10:00:00.500Z");
    ASSERT_TRUE(contract.at("created_event_blob").is_string());
    EXPECT_FALSE(contract.at("created_event_blob").get<std::string>().empty());
}

TEST(TransferCommandCounter, InFlightHasANullDomainId) {
    const Response response = api().get(counter_path + carol);

    ASSERT_EQ(response.status, 200) << response.body;
    EXPECT_EQ(body_of(response),
              (json{{"transfer_command_counter",
                     {{"contract", contract_json(*carol_counter())}, {"domain_id", nullptr}}}}));
}

TEST(TransferCommandCounter, ReassignedNamesTheSynchronizerItIsOn) {
    const Response response = api().get(counter_path + bob);

    ASSERT_EQ(response.status, 200) << response.body;
    EXPECT_EQ(body_of(response), (json{{"transfer_command_counter",
                                        {{"contract", contract_json(*bob_counter())},
                                         {"domain_id", private_synchronizer}}}}));
}

TEST(TransferCommandCounter, AcceptsAPercentEncodedParty) {
    const Response response = api().get(counter_path + percent_encoded(alice));

    EXPECT_EQ(response.status, 200);
    EXPECT_EQ(body_of(response), body_of(api().get(counter_path + alice)));
}

TEST(TransferCommandCounter, IgnoresABearerToken) {
    const Response response = api().get(counter_path + alice, {{"Authorization", "Bearer x.y.z"}});

    EXPECT_EQ(response.status, 200);
}

class TransferCommandCounterNone : public testing::TestWithParam<std::string> {};

// Found by TransferCommandCounter.sender only: the DSO (its signatory) has none.
TEST_P(TransferCommandCounterNone, IsNotFound) {
    const Response response = api().get(counter_path + percent_encoded(GetParam()));

    EXPECT_TRUE(is_error(
        response, 404,
        "No TransferCommandCounter found for party: " + GetParam() + ", use 0 for the nonce"));
}

INSTANTIATE_TEST_SUITE_P(Parties, TransferCommandCounterNone,
                         testing::Values(dso, provider, "nobody::1220ff", "alice::dummy"));

struct BadParty {
    std::string in_path;
    std::string error;
};

class TransferCommandCounterBadParty : public testing::TestWithParam<BadParty> {};

TEST_P(TransferCommandCounterBadParty, IsRejected) {
    const Response response = api().get(counter_path + GetParam().in_path);

    EXPECT_TRUE(is_error(response, 400, GetParam().error));
}

INSTANTIATE_TEST_SUITE_P(
    Parties, TransferCommandCounterBadParty,
    testing::Values(BadParty{"foo", "Invalid unique identifier `foo` with missing namespace."},
                    BadParty{"%3A%3Aabc",
                             "Invalid unique identifier `::abc` with empty identifier."}));

// ---- GET /v0/transfer-preapprovals/by-party/{party} -------------------------------------------

// Scan's store orders a receiver's preapprovals by validFrom, latest first, whatever their expiry.
TEST(TransferPreapproval, IsTheReceiversLatestWithItsSynchronizer) {
    const Response response = api().get(preapproval_path + alice);

    ASSERT_EQ(response.status, 200) << response.body;
    EXPECT_EQ(response.content_type, "application/json");
    EXPECT_EQ(body_of(response),
              (json{{"transfer_preapproval",
                     {{"contract", contract_json(*nth("TransferPreapproval", 1))},
                      {"domain_id", global_synchronizer}}}}));
}

TEST(TransferPreapproval, WritesTheTemplatesPayload) {
    const json contract =
        body_of(api().get(preapproval_path + alice)).at("transfer_preapproval").at("contract");

    EXPECT_EQ(contract.at("payload"), (json{{"dso", dso},
                                            {"receiver", alice},
                                            {"provider", validator},
                                            {"validFrom", "2025-01-03T00:00:00.250Z"},
                                            {"lastRenewedAt", "2025-01-03T00:00:00.250Z"},
                                            {"expiresAt", "2025-02-01T00:00:00Z"}}));
    EXPECT_EQ(contract.at("created_at"), "2025-01-03T00:00:00.250Z");
    EXPECT_TRUE(contract.at("template_id")
                    .get<std::string>()
                    .ends_with(":Splice.AmuletRules:TransferPreapproval"));
}

TEST(TransferPreapproval, InFlightHasANullDomainId) {
    const Response response = api().get(preapproval_path + percent_encoded(carol));

    ASSERT_EQ(response.status, 200) << response.body;
    EXPECT_EQ(body_of(response).at("transfer_preapproval").at("domain_id"), nullptr);
}

class TransferPreapprovalNone : public testing::TestWithParam<std::string> {};

// Found by the receiver only: the provider and the DSO (signatories too) have none. The text is
// the one the wallet SDK matches by prefix ("No TransferPreapproval found for party").
TEST_P(TransferPreapprovalNone, IsNotFound) {
    const Response response = api().get(preapproval_path + percent_encoded(GetParam()));

    EXPECT_EQ(response.body,
              R"({"error":"No TransferPreapproval found for party: )" + GetParam() + R"("})");
    EXPECT_TRUE(is_error(response, 404, "No TransferPreapproval found for party: " + GetParam()));
}

INSTANTIATE_TEST_SUITE_P(Parties, TransferPreapprovalNone,
                         testing::Values(bob, dso, validator, "nobody::1220ff"));

class TransferPreapprovalBadParty : public testing::TestWithParam<BadParty> {};

TEST_P(TransferPreapprovalBadParty, IsRejected) {
    const Response response = api().get(preapproval_path + GetParam().in_path);

    EXPECT_TRUE(is_error(response, 400, GetParam().error));
}

INSTANTIATE_TEST_SUITE_P(
    Parties, TransferPreapprovalBadParty,
    testing::Values(BadParty{"foo", "Invalid unique identifier `foo` with missing namespace."},
                    BadParty{"%3A%3Aabc",
                             "Invalid unique identifier `::abc` with empty identifier."}));

// ---- GET /v0/ans-entries/by-name/{name} -------------------------------------------------------

json dso_provided(const std::string& user, const std::string& name) {
    return {{"entry",
             {{"contract_id", nullptr},
              {"user", user},
              {"name", name},
              {"url", ""},
              {"description", ""},
              {"expires_at", nullptr}}}};
}

TEST(AnsEntryByName, TheDsoEntryIsProvidedByTheDso) {
    const Response response = api().get(by_name + "dso.ans");

    EXPECT_EQ(response.status, 200);
    EXPECT_EQ(response.content_type, "application/json");
    EXPECT_EQ(body_of(response), dso_provided(dso, "dso.ans"));
}

struct SvCase {
    std::string name;
    std::string party;
};

class AnsEntryOfSv : public testing::TestWithParam<SvCase> {};

TEST_P(AnsEntryOfSv, IsProvidedByTheDso) {
    const Response response = api().get(by_name + GetParam().name);

    EXPECT_EQ(response.status, 200);
    EXPECT_EQ(body_of(response), dso_provided(GetParam().party, GetParam().name));
}

INSTANTIATE_TEST_SUITE_P(Svs, AnsEntryOfSv,
                         testing::Values(SvCase{"digital-asset-2.sv.ans", da2},
                                         SvCase{"sv-2.sv.ans", sv2}, SvCase{"sv-3.sv.ans", sv3}));

TEST(AnsEntryByName, ALiveEntryIsFoundByItsExactName) {
    const model::ContractPtr entry = nth("AnsEntry", 0);

    const Response response = api().get(by_name + "alice.unverified.ans");

    EXPECT_EQ(response.status, 200);
    EXPECT_EQ(body_of(response), (json{{"entry",
                                        {{"contract_id", entry->contract_id},
                                         {"user", alice},
                                         {"name", "alice.unverified.ans"},
                                         {"url", "https://alice.example"},
                                         {"description", "entry of alice"},
                                         {"expires_at", "2030-01-01T00:00:00Z"}}}}));
}

TEST(AnsEntryByName, WritesExpiresAtAsOffsetDateTime) {
    const Response response = api().get(by_name + "alice-2.unverified.ans");

    EXPECT_EQ(body_of(response).at("entry").at("expires_at"), "2030-06-01T12:00:00.25Z");
}

// "Now" is the ledger clock (docs/FIDELITY.md row 10); an entry is found while expiresAt >= now.
TEST(AnsEntryByName, AnEntryExpiringAtTheLedgerClockIsStillFound) {
    const Response response = api().get(by_name + "carol.unverified.ans");

    ASSERT_EQ(response.status, 200) << response.body;
    EXPECT_EQ(body_of(response).at("entry").at("expires_at"), ledger_clock);
}

TEST(AnsEntryByName, ARenewedEntryIsItsNewContract) {
    const model::ContractPtr renewed = nth("AnsEntry", 4);

    const Response response = api().get(by_name + "bob-shop.unverified.ans");

    ASSERT_EQ(response.status, 200) << response.body;
    EXPECT_EQ(body_of(response).at("entry").at("contract_id"), renewed->contract_id);
    EXPECT_EQ(body_of(response).at("entry").at("expires_at"), "2031-01-01T00:00:00Z");
}

TEST(AnsEntryByName, IgnoresABearerToken) {
    const Response response =
        api().get(by_name + "alice.unverified.ans", {{"Authorization", "Bearer x.y.z"}});

    EXPECT_EQ(response.status, 200);
}

class AnsEntryNotFound : public testing::TestWithParam<std::string> {};

TEST_P(AnsEntryNotFound, NamesTheName) {
    const Response response = api().get(by_name + GetParam());

    EXPECT_TRUE(is_error(response, 404, "No ans entry found for name: " + GetParam()));
}

INSTANTIATE_TEST_SUITE_P(
    Names, AnsEntryNotFound,
    testing::Values("bob.unverified.ans",      // expired before the ledger clock, still active
                    "Sv-2.sv.ans",             // an SV's name must be given in lower case
                    "Digital-Asset-2.sv.ans",  //
                    "DSO.ans",                 //
                    "dso.cns",                 // another acronym
                    "sv-9.sv.ans",             // no such SV
                    "alice.unverified",        // exact names only
                    "alice.unverified.ans.x",  //
                    "ALICE.unverified.ans",    //
                    "nobody.unverified.ans"));

TEST(AnsEntryByName, UsesTheNetworksAcronym) {
    json network = network_json();
    network["ans_acronym"] = "cns";
    const ScanClient cns(seed_with(json::array(), network));

    EXPECT_EQ(body_of(cns.get(by_name + "dso.cns")), dso_provided(dso, "dso.cns"));
    EXPECT_EQ(body_of(cns.get(by_name + "sv-2.sv.cns")), dso_provided(sv2, "sv-2.sv.cns"));
    EXPECT_TRUE(
        is_error(cns.get(by_name + "dso.ans"), 404, "No ans entry found for name: dso.ans"));
}

// ---- GET /v0/voterequests/{vote_request_contract_id} ------------------------------------------

TEST(VoteRequest, TheOriginalIdFindsTheCurrentIncarnation) {
    const Response response = api().get(vote_request_path + vote_a()->contract_id);

    EXPECT_EQ(response.status, 200);
    EXPECT_EQ(response.content_type, "application/json");
    EXPECT_EQ(body_of(response),
              (json{{"dso_rules_vote_request", contract_json(*vote_a_recreated())}}));
    EXPECT_NE(vote_a_recreated()->contract_id, vote_a()->contract_id);
}

TEST(VoteRequest, TheCurrentIncarnationHoldsBothVotesAndTracksTheOriginal) {
    const Response response = api().get(vote_request_path + vote_a()->contract_id);

    const json payload = body_of(response).at("dso_rules_vote_request").at("payload");
    ASSERT_EQ(payload.at("votes").size(), 2U);
    EXPECT_EQ(payload.at("votes")[0][0], "Digital-Asset-2");
    EXPECT_EQ(payload.at("votes")[1][0], "Sv-2");
    EXPECT_EQ(payload.at("votes")[1][1].at("sv"), sv2);
    EXPECT_EQ(payload.at("votes")[1][1].at("reason"), (json{{"url", ""}, {"body", "agreed"}}));
    EXPECT_EQ(payload.at("trackingCid"), vote_a()->contract_id);
}

TEST(VoteRequest, TheReCreatedContractsOwnIdIsNotFound) {
    const std::string id = vote_a_recreated()->contract_id.str();

    const Response response = api().get(vote_request_path + id);

    EXPECT_TRUE(is_error(response, 404, "No VoteRequest found contract: " + id));
}

TEST(VoteRequest, AnUntouchedRequestIsFoundByItsId) {
    const Response response = api().get(vote_request_path + vote_b()->contract_id);

    EXPECT_EQ(response.status, 200);
    EXPECT_EQ(body_of(response), (json{{"dso_rules_vote_request", contract_json(*vote_b())}}));
}

// ApiCodecCompressed: votes as [[name, vote]] pairs, Optional None as null, times as Instant.
TEST(VoteRequest, WritesThePayloadAsApiCodecCompressedJson) {
    const model::ContractPtr b = vote_b();

    const Response response = api().get(vote_request_path + b->contract_id);

    const json contract = body_of(response).at("dso_rules_vote_request");
    const json payload = contract.at("payload");
    EXPECT_EQ(contract.at("template_id"),
              "3b372c1b3665da6b09b69a0c89d9c721ef06ebbab88f08541b2a6ff2c3450ef3:"
              "Splice.DsoRules:VoteRequest");
    EXPECT_EQ(payload.at("dso"), dso);
    EXPECT_EQ(payload.at("requester"), "Sv-2");
    EXPECT_EQ(payload.at("reason"),
              (json{{"url", "https://forum.example/vote-b"}, {"body", "vote vote-b"}}));
    EXPECT_EQ(payload.at("voteBefore"), "2025-03-01T00:00:00Z");
    EXPECT_EQ(payload.at("votes"),
              json::array({json::array(
                  {"Sv-2",
                   {{"sv", sv2},
                    {"accept", true},
                    {"reason", {{"url", ""}, {"body", "I accept, as I requested the vote."}}},
                    {"optCastAt", model::format_instant(b->created_at)}}})}));
    EXPECT_EQ(payload.at("trackingCid"), nullptr);
    EXPECT_EQ(payload.at("targetEffectiveAt"), nullptr);
    EXPECT_EQ(payload.at("action").at("tag"), "ARC_DsoRules");
}

TEST(VoteRequest, AClosedRequestIsNotFound) {
    const std::string id = vote_c()->contract_id.str();

    const Response response = api().get(vote_request_path + id);

    EXPECT_TRUE(is_error(response, 404, "No VoteRequest found contract: " + id));
}

TEST(VoteRequest, AnyOtherIdIsNotFound) {
    const Response response = api().get(vote_request_path + "not-a-contract-id");

    EXPECT_TRUE(is_error(response, 404, "No VoteRequest found contract: not-a-contract-id"));
}

TEST(VoteRequest, TheOriginalIdFollowsEveryRecreation) {
    const ScanClient voted(seed_with({request_vote("Digital-Asset-2", "Sv-3", "vote-a"),
                                      cast_vote("vote-a", "Sv-2"), cast_vote("vote-a", "Sv-3")}));
    const std::vector<model::ContractPtr> incarnations = all_created(voted.store(), "VoteRequest");
    ASSERT_EQ(incarnations.size(), 3U);

    const Response response = voted.get(vote_request_path + incarnations[0]->contract_id);

    const json contract = body_of(response).at("dso_rules_vote_request");
    EXPECT_EQ(contract.at("contract_id"), incarnations[2]->contract_id);
    EXPECT_EQ(contract.at("payload").at("votes").size(), 3U);
    EXPECT_EQ(contract.at("payload").at("trackingCid"), incarnations[0]->contract_id);
    EXPECT_TRUE(is_error(voted.get(vote_request_path + incarnations[1]->contract_id), 404,
                         "No VoteRequest found contract: " + incarnations[1]->contract_id));
}

TEST(VoteRequest, IgnoresABearerToken) {
    const Response response =
        api().get(vote_request_path + vote_b()->contract_id, {{"Authorization", "Bearer x.y.z"}});

    EXPECT_EQ(response.status, 200);
}

// ---- GET /v0/admin/sv/voterequests ------------------------------------------------------------

TEST(VoteRequests, ListsTheActiveRequestsInIngestionOrder) {
    const Response response = api().get(vote_requests_list);

    EXPECT_EQ(response.status, 200);
    EXPECT_EQ(response.content_type, "application/json");
    EXPECT_EQ(body_of(response),
              (json{{"dso_rules_vote_requests",
                     {contract_json(*vote_b()), contract_json(*vote_a_recreated())}}}));
}

TEST(VoteRequests, IsAnEmptyListWithoutRequests) {
    const ScanClient none(seed_with(json::array()));

    const Response response = none.get(vote_requests_list);

    EXPECT_EQ(response.status, 200);
    EXPECT_EQ(body_of(response), (json{{"dso_rules_vote_requests", json::array()}}));
}

struct OrderCase {
    std::string voted;                  // the request voted on after both were made
    std::vector<std::string> expected;  // requesters, in list order
};

class VoteRequestsOrder : public testing::TestWithParam<OrderCase> {};

// A re-created request is ingested again: it moves behind requests made before its new vote.
TEST_P(VoteRequestsOrder, FollowsTheCreationOfTheCurrentContracts) {
    const ScanClient voted(
        seed_with({request_vote("Digital-Asset-2", "Sv-3", "vote-a"),
                   request_vote("Sv-2", "Sv-3", "vote-b"), cast_vote(GetParam().voted, "Sv-3")}));

    const json list = body_of(voted.get(vote_requests_list)).at("dso_rules_vote_requests");

    std::vector<std::string> requesters;
    for (const json& c : list)
        requesters.push_back(c.at("payload").at("requester").get<std::string>());
    EXPECT_EQ(requesters, GetParam().expected);
}

INSTANTIATE_TEST_SUITE_P(Cases, VoteRequestsOrder,
                         testing::Values(OrderCase{"vote-a", {"Sv-2", "Digital-Asset-2"}},
                                         OrderCase{"vote-b", {"Digital-Asset-2", "Sv-2"}}));

TEST(VoteRequests, IgnoresABearerToken) {
    const Response response = api().get(vote_requests_list, {{"Authorization", "Bearer x.y.z"}});

    EXPECT_EQ(response.status, 200);
}

}  // namespace
}  // namespace cantonlite::areas::scan::scan_lookups_test
