// External party onboarding on the live default network, from Canton release-line-3.5's
// ApiPartyManagementService (generateExternalPartyTopology L991-1139, allocateExternalParty
// L840-989), ExternalPartyOnboardingDetails and the wallet SDK's requests (research notes:
// external_parties.md): the generated topology, the party's signature of its multi-hash, the
// party hosted from then on; each refusal in Canton's words.
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "areas/admin/admin_test_support.hpp"
#include "cantonlite/interactive/external_party.hpp"
#include "cantonlite/model/ids.hpp"
#include "cantonlite/splice/splice_views.hpp"

namespace cantonlite::areas::ledger::external_party_test {
namespace {

using admin::admintest::LiveFixture;
using nlohmann::json;

const std::string synchronizer =
    "global-domain::1220b1431ef217342db44d516bb9befde802be7d8899637d290895fa58880f19accc";
const std::string participant =
    "participant1::122056e00d8eef432e448963fb33d31cbc989835384ec290868e0a0f7573b254b1af";

class ExternalPartyTest : public LiveFixture {
  protected:
    // The party's signer: an Ed25519 key of the test's own.
    const std::string private_key = std::string(32, '\x11');
    const std::string public_key = interactive::ed25519_public_key(private_key);

    json generate_request(const std::string& hint) const {
        // As the wallet SDK sends it (party/external/service.ts).
        return {{"synchronizer", synchronizer},
                {"partyHint", hint},
                {"publicKey",
                 {{"format", "CRYPTO_KEY_FORMAT_RAW"},
                  {"keyData", model::base64_encode(public_key)},
                  {"keySpec", "SIGNING_KEY_SPEC_EC_CURVE25519"}}},
                {"localParticipantObservationOnly", false},
                {"confirmationThreshold", 1},
                {"otherConfirmingParticipantUids", json::array()},
                {"observingParticipantUids", json::array()}};
    }
    http::Response generate(const json& request, const std::string& user = "alice") const {
        return as_user(user, "POST", "/v2/parties/external/generate-topology", request.dump());
    }
    // The allocate request the SDK sends for a generated topology, signed with `key`.
    json allocate_request(const json& topology, const std::string& key) const {
        json transactions = json::array();
        for (const json& t : topology.at("topologyTransactions"))
            transactions.push_back({{"transaction", t}});
        const std::string multi_hash =
            *model::base64_decode(topology.at("multiHash").get<std::string>());
        return {{"synchronizer", synchronizer},
                {"identityProviderId", ""},
                {"onboardingTransactions", transactions},
                {"multiHashSignatures",
                 json::array({{{"format", "SIGNATURE_FORMAT_CONCAT"},
                               {"signature",
                                model::base64_encode(interactive::ed25519_sign(key, multi_hash))},
                               {"signedBy", topology.at("publicKeyFingerprint")},
                               {"signingAlgorithmSpec", "SIGNING_ALGORITHM_SPEC_ED25519"}}})}};
    }
    http::Response allocate(const json& request,
                            const std::string& user = "ledger-api-user") const {
        return as_user(user, "POST", "/v2/parties/external/allocate", request.dump());
    }
    json topology(const std::string& hint) const {
        const http::Response r = generate(generate_request(hint));
        EXPECT_EQ(r.status, 200) << r.body;
        return json::parse(r.body);
    }
    static json error_of(const http::Response& r) { return json::parse(r.body); }
};

TEST_F(ExternalPartyTest, GenerateAnswersThePartyItsFingerprintTheTopologyAndItsMultiHash) {
    const http::Response r = generate(generate_request("exchange"));

    ASSERT_EQ(r.status, 200) << r.body;
    const json t = json::parse(r.body);
    const std::string fingerprint = interactive::key_fingerprint(public_key);
    EXPECT_EQ(t.at("partyId"), "exchange::" + fingerprint);
    EXPECT_EQ(t.at("publicKeyFingerprint"), fingerprint);
    ASSERT_EQ(t.at("topologyTransactions").size(), 1U);
    const interactive::OnboardingTopology expected =
        interactive::generate_onboarding("exchange", public_key, participant);
    EXPECT_EQ(t.at("topologyTransactions")[0], model::base64_encode(expected.transactions[0]));
    EXPECT_EQ(t.at("multiHash"), model::base64_encode(expected.multi_hash));
    // Keys in the order Canton writes them.
    EXPECT_EQ(r.body.find("\"partyId\""), 1U);
}

TEST_F(ExternalPartyTest, GenerateTakesTheKeyAsItsSubjectPublicKeyInfoToo) {
    json request = generate_request("exchange");
    request["publicKey"]["format"] = "CRYPTO_KEY_FORMAT_DER_X509_SUBJECT_PUBLIC_KEY_INFO";
    request["publicKey"]["keyData"] = model::base64_encode(
        std::string("\x30\x2a\x30\x05\x06\x03\x2b\x65\x70\x03\x21\x00", 12) + public_key);

    const http::Response r = generate(request);

    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(json::parse(r.body), topology("exchange"));
}

TEST_F(ExternalPartyTest, GenerateRefusesABadRequestInCantonsWords) {
    const auto cause = [&](const json& request) {
        const http::Response r = generate(request);
        EXPECT_EQ(r.status, 400) << r.body;
        return error_of(r).value("cause", "");
    };
    json r = generate_request("");
    EXPECT_EQ(cause(r), "The submitted request has invalid arguments: Party hint is empty");
    r = generate_request("a::b");
    EXPECT_EQ(cause(r),
              "The submitted request has invalid arguments: party_hint: String contains reserved "
              "delimiter `::`.");
    r = generate_request("exchange");
    r["synchronizer"] = "other::1220aa";
    EXPECT_EQ(cause(r),
              "The submitted request has invalid arguments: Unknown or not connected "
              "synchronizer other::1220aa");
    r = generate_request("exchange");
    r.erase("publicKey");
    EXPECT_EQ(cause(r),
              "The submitted request has invalid arguments: Field `public_key` is not set");
    r = generate_request("exchange");
    r["confirmationThreshold"] = 2;
    EXPECT_EQ(cause(r),
              "The submitted request has invalid arguments: Confirmation threshold exceeds number "
              "of confirming participants");
    r = generate_request("exchange");
    r["otherConfirmingParticipantUids"] = json::array({participant});
    EXPECT_NE(cause(r).find("is also listed in 'otherConfirmingParticipantUids'"),
              std::string::npos);
    r = generate_request("exchange");
    r["publicKey"]["keyData"] = model::base64_encode("short");
    EXPECT_NE(cause(r).find("Invalid public key"), std::string::npos);
}

TEST_F(ExternalPartyTest, GenerateNeedsAToken) {
    const http::Response r =
        call("POST", "/v2/parties/external/generate-topology", generate_request("exchange").dump());
    EXPECT_EQ(r.status, 401) << r.body;
}

TEST_F(ExternalPartyTest, AllocateSignedByThePartysKeyHostsIt) {
    const json t = topology("exchange");
    const std::int64_t before = ledger_end();

    const http::Response r = allocate(allocate_request(t, private_key));

    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(json::parse(r.body), (json{{"partyId", t.at("partyId")}}));
    const auto& n = network_->store().network();
    EXPECT_EQ(n.external_keys.at(t.at("partyId").get<std::string>()), public_key);
    EXPECT_EQ(ledger_end(), before);  // a topology change, no transaction
    // Readable as any party from then on.
    const http::Response party =
        as_user("ledger-api-user", "GET", "/v2/parties/" + t.at("partyId").get<std::string>());
    EXPECT_EQ(party.status, 200) << party.body;
    EXPECT_NE(party.body.find(t.at("partyId").get<std::string>()), std::string::npos);
}

TEST_F(ExternalPartyTest, AllocateTwiceIsAnExistingParty) {
    const json t = topology("exchange");
    ASSERT_EQ(allocate(allocate_request(t, private_key)).status, 200);

    const http::Response again = allocate(allocate_request(t, private_key));

    EXPECT_EQ(again.status, 400) << again.body;
    EXPECT_NE(error_of(again).value("cause", "").find("already exists on synchronizer"),
              std::string::npos);
}

TEST_F(ExternalPartyTest, AllocateSignedByAnotherKeyChangesNothing) {
    const json t = topology("exchange");

    const http::Response r = allocate(allocate_request(t, std::string(32, '\x22')));

    EXPECT_EQ(r.status, 400) << r.body;
    // A status without Canton's ErrorInfo: its description is the code.
    EXPECT_EQ(error_of(r).at("code"), "Transaction signature verification failed");
    EXPECT_EQ(error_of(r).at("cause"),
              "INVALID_ARGUMENT: Transaction signature verification failed");
    EXPECT_EQ(error_of(r).at("errorCategory"), -1);
    EXPECT_FALSE(network_->store().network().external_keys.contains(t.at("partyId")));
}

TEST_F(ExternalPartyTest, AllocateOfATamperedTransactionChangesNothing) {
    const json t = topology("exchange");
    json request = allocate_request(t, private_key);
    // The party's hint changed after signing: exchangf.
    std::string bytes = *model::base64_decode(t.at("topologyTransactions")[0].get<std::string>());
    bytes[bytes.find("exchange")] = 'f';
    request["onboardingTransactions"][0]["transaction"] = model::base64_encode(bytes);

    const http::Response r = allocate(request);

    EXPECT_EQ(r.status, 400) << r.body;
    EXPECT_EQ(error_of(r).at("code"), "Transaction signature verification failed");
    EXPECT_TRUE(network_->store().network().external_keys.empty());
}

TEST_F(ExternalPartyTest, AllocateWithoutASignatureIsNotAuthorized) {
    const json t = topology("exchange");
    json request = allocate_request(t, private_key);
    request.erase("multiHashSignatures");

    const http::Response r = allocate(request);

    EXPECT_EQ(r.status, 400) << r.body;
    EXPECT_EQ(error_of(r).at("code"),
              "Topology transaction is not properly authorized by any namespace key");
    EXPECT_TRUE(network_->store().network().external_keys.empty());
}

TEST_F(ExternalPartyTest, AllocateRefusesBadFieldsInCantonsWords) {
    const json t = topology("exchange");
    json r = allocate_request(t, private_key);
    r["onboardingTransactions"] = json::array();
    http::Response a = allocate(r);
    EXPECT_EQ(a.status, 400);
    EXPECT_EQ(error_of(a).at("cause"),
              "The submitted command has a field with invalid value: Invalid field "
              "onboarding_transactions.transactions: Transactions field is empty");
    r = allocate_request(t, private_key);
    r["synchronizer"] = "";
    a = allocate(r);
    EXPECT_EQ(error_of(a).at("code"), "MISSING_FIELD");
    r = allocate_request(t, private_key);
    r["onboardingTransactions"][0]["transaction"] = model::base64_encode("garbage");
    a = allocate(r);
    EXPECT_EQ(error_of(a).at("code"), "INVALID_FIELD");
    r = allocate_request(t, private_key);
    r["multiHashSignatures"][0]["format"] = "SIGNATURE_FORMAT_UNSPECIFIED";
    a = allocate(r);
    EXPECT_NE(error_of(a).value("cause", "").find("Signature format must be specified"),
              std::string::npos);
}

TEST_F(ExternalPartyTest, AllocateForItselfNeedsItsOwnUserIdOrAdmin) {
    const json t = topology("exchange");

    const http::Response r = allocate(allocate_request(t, private_key), "alice");

    EXPECT_EQ(r.status, 403) << r.body;
    json own = allocate_request(t, private_key);
    own["userId"] = "alice";
    const http::Response mine = allocate(own, "alice");
    EXPECT_EQ(mine.status, 200) << mine.body;
}

// An external party's transactions need its signature: the command service, which the
// participant signs, cannot submit as it (AdmissibleSynchronizersComputation L191: hosted with
// confirmation, not submission), even for a user with the right to act as it.
TEST_F(ExternalPartyTest, TheCommandServiceCannotSubmitAsAnExternalParty) {
    const json t = topology("exchange");
    json request = allocate_request(t, private_key);
    request["userId"] = "alice";  // alice may act as the party from then on
    ASSERT_EQ(allocate(request).status, 200);
    const std::string party = t.at("partyId");
    const auto& views = splice::views(network_->store());
    const json tap{{"ExerciseCommand",
                    {{"templateId", "#splice-amulet:Splice.AmuletRules:AmuletRules"},
                     {"contractId", views.amulet_rules()->contract->contract_id.str()},
                     {"choice", "AmuletRules_DevNet_Tap"},
                     {"choiceArgument",
                      {{"receiver", party},
                       {"amount", "10"},
                       {"openRound", views.latest_usable_open_round(network_->store().now())
                                         ->contract->contract_id.str()}}}}}};
    const std::int64_t before = ledger_end();

    const http::Response r = as_user(
        "alice", "POST", "/v2/commands/submit-and-wait",
        json{{"commands", json::array({tap})}, {"commandId", "tap"}, {"actAs", {party}}}.dump());

    EXPECT_EQ(r.status, 404) << r.body;
    EXPECT_EQ(error_of(r).at("code"), "NO_SYNCHRONIZER_ON_WHICH_ALL_SUBMITTERS_CAN_SUBMIT");
    EXPECT_EQ(error_of(r).at("cause"),
              "This participant cannot submit as the given submitter on any connected "
              "synchronizer");
    EXPECT_EQ(ledger_end(), before);
}

TEST_F(ExternalPartyTest, AllocationIsJournaledAndTakenBackByAReset) {
    const json t = topology("exchange");
    ASSERT_EQ(allocate(allocate_request(t, private_key)).status, 200);

    admin("POST", "/reset");

    EXPECT_TRUE(network_->store().network().external_keys.empty());
    EXPECT_EQ(allocate(allocate_request(t, private_key)).status, 200);
}

}  // namespace
}  // namespace cantonlite::areas::ledger::external_party_test
