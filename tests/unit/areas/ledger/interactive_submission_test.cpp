// Interactive submission's prepare on the live default network, from Canton release-line-3.5's
// JsInteractiveSubmissionService (L182-207), InteractiveSubmissionServiceAuthorization
// (MatchUserId, ReadAs each actAs and readAs party), SubmitRequestValidator.validatePrepare and
// InteractiveSubmissionServiceImpl (L187-192 one command; L250-259 hashingDetails), and the wallet
// SDK's prepare request (research notes: interactive_submission_api.md): the transaction the
// commands would commit, nothing committed, with the hash its parties sign.
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "areas/admin/admin_test_support.hpp"
#include "cantonlite/interactive/external_party.hpp"
#include "cantonlite/interactive/transaction_hash.hpp"
#include "cantonlite/model/ids.hpp"
#include "cantonlite/splice/splice_views.hpp"

namespace cantonlite::areas::ledger::interactive_submission_test {
namespace {

using admin::admintest::alice;
using admin::admintest::bob;
using admin::admintest::LiveFixture;
using nlohmann::json;

const std::string synchronizer =
    "global-domain::1220b1431ef217342db44d516bb9befde802be7d8899637d290895fa58880f19accc";

class PrepareTest : public LiveFixture {
  protected:
    const splice::SpliceViews& views() const { return splice::views(network_->store()); }
    json tap(const std::string& receiver) const {
        return {{"ExerciseCommand",
                 {{"templateId", "#splice-amulet:Splice.AmuletRules:AmuletRules"},
                  {"contractId", views().amulet_rules()->contract->contract_id.str()},
                  {"choice", "AmuletRules_DevNet_Tap"},
                  {"choiceArgument",
                   {{"receiver", receiver},
                    {"amount", "10"},
                    {"openRound", views()
                                      .latest_usable_open_round(network_->store().now())
                                      ->contract->contract_id.str()}}}}}};
    }
    // As the wallet SDK sends it.
    json request(const std::string& party, const std::string& command_id = "prepare-tap") const {
        return {{"commands", json::array({tap(party)})},
                {"commandId", command_id},
                {"userId", ""},
                {"actAs", {party}},
                {"readAs", json::array()},
                // AmuletRules, as the scan-proxy hands it out
                {"disclosedContracts",
                 json::array({{{"contractId", views().amulet_rules()->contract->contract_id.str()},
                               {"createdEventBlob", ""}}})},
                {"synchronizerId", synchronizer},
                {"packageIdSelectionPreference", json::array()},
                {"verboseHashing", false}};
    }
    http::Response prepare(const json& body, const std::string& user = "alice") const {
        return as_user(user, "POST", "/v2/interactive-submission/prepare", body.dump());
    }
    static wire::PreparedTransaction decoded(const json& answer) {
        wire::PreparedTransaction p;
        EXPECT_TRUE(p.ParseFromString(
            model::base64_decode(answer.at("preparedTransaction").get<std::string>())
                .value_or("")));
        return p;
    }
    static std::string base64(const interactive::Hash& h) {
        return model::base64_encode(
            std::string_view(reinterpret_cast<const char*>(h.data()), h.size()));
    }
    static json error_of(const http::Response& r) { return json::parse(r.body); }
};

TEST_F(PrepareTest, AnswersTheTransactionAndTheHashItsClientRecomputes) {
    const std::int64_t before = ledger_end();

    const http::Response r = prepare(request(alice));

    ASSERT_EQ(r.status, 200) << r.body;
    const json answer = json::parse(r.body);
    EXPECT_EQ(answer.at("hashingSchemeVersion"), "HASHING_SCHEME_VERSION_V2");
    const wire::PreparedTransaction p = decoded(answer);
    // A careful client recomputes the hash from the transaction, and gets the one answered.
    EXPECT_EQ(base64(interactive::prepared_transaction_hash(p, interactive::HashingScheme::v2)),
              answer.at("preparedTransactionHash"));
    // The tap: its AmuletRules exercise, the mint below it and the new amulet.
    ASSERT_EQ(p.transaction().roots_size(), 1);
    const wire::Exercise& root = p.transaction().nodes(0).v1().exercise();
    EXPECT_EQ(root.choice_id(), "AmuletRules_DevNet_Tap");
    EXPECT_EQ(root.contract_id(), views().amulet_rules()->contract->contract_id.str());
    EXPECT_EQ(p.metadata().submitter_info().act_as(0), alice);
    EXPECT_EQ(p.metadata().submitter_info().command_id(), "prepare-tap");
    EXPECT_EQ(p.metadata().synchronizer_id(), synchronizer);
    EXPECT_EQ(p.metadata().transaction_uuid().size(), 36U);
    ASSERT_GE(p.metadata().input_contracts_size(), 1);
    // Nothing committed.
    EXPECT_EQ(ledger_end(), before);
}

TEST_F(PrepareTest, HashesWithV3WhenAsked) {
    json body = request(alice);
    body["hashingSchemeVersion"] = "HASHING_SCHEME_VERSION_V3";
    body["maxRecordTime"] = "2030-01-01T00:00:00Z";

    const http::Response r = prepare(body);

    ASSERT_EQ(r.status, 200) << r.body;
    const json answer = json::parse(r.body);
    EXPECT_EQ(answer.at("hashingSchemeVersion"), "HASHING_SCHEME_VERSION_V3");
    const wire::PreparedTransaction p = decoded(answer);
    EXPECT_TRUE(p.metadata().has_max_record_time());
    EXPECT_EQ(base64(interactive::prepared_transaction_hash(p, interactive::HashingScheme::v3)),
              answer.at("preparedTransactionHash"));
}

TEST_F(PrepareTest, EachPrepareIsATransactionOfItsOwn) {
    const json first = json::parse(prepare(request(alice)).body);
    const json second = json::parse(prepare(request(alice)).body);
    EXPECT_NE(first.at("preparedTransactionHash"), second.at("preparedTransactionHash"));
}

TEST_F(PrepareTest, VerboseHashingIsOffOnTheParticipant) {
    json body = request(alice);
    body["verboseHashing"] = true;
    const http::Response r = prepare(body);
    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(json::parse(r.body).at("hashingDetails"),
              "Verbose hashing is disabled on this participant. Contact the node administrator "
              "for more details.");
}

TEST_F(PrepareTest, PreparesForAnExternalParty) {
    // The party onboarded with a key, alice allowed to act as it.
    const std::string key = interactive::ed25519_public_key(std::string(32, '\x33'));
    const auto t = interactive::generate_onboarding(
        "exchange", key,
        "participant1::122056e00d8eef432e448963fb33d31cbc989835384ec290868e0a0f7573b254b1af");
    ASSERT_EQ(steps(json::array({{{"step", "add_party"},
                                  {"party", t.party_id},
                                  {"external_key", model::base64_encode(key)}},
                                 {{"step", "grant_rights"},
                                  {"user", "alice"},
                                  {"rights", {{"can_act_as", json::array({t.party_id})}}}}}))
                  .at("results")
                  .size(),
              2U);

    const http::Response r = prepare(request(t.party_id));

    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(decoded(json::parse(r.body)).metadata().submitter_info().act_as(0), t.party_id);
}

TEST_F(PrepareTest, RefusesInCantonsWords) {
    json body = request(alice);
    body["commandId"] = "";
    http::Response r = prepare(body);
    EXPECT_EQ(r.status, 400);
    EXPECT_EQ(error_of(r).at("code"), "MISSING_FIELD");
    EXPECT_EQ(error_of(r).at("cause"),
              "The submitted command is missing a mandatory field: command_id");

    body = request(alice);
    body.erase("synchronizerId");
    r = prepare(body);
    EXPECT_EQ(r.status, 400);
    EXPECT_EQ(r.body, "Invalid value for: body (Missing required field at 'synchronizerId')");

    body = request(alice);
    body["hashingSchemeVersion"] = "HASHING_SCHEME_VERSION_UNSPECIFIED";
    r = prepare(body);
    EXPECT_EQ(error_of(r).at("code"), "INVALID_FIELD");
    EXPECT_EQ(error_of(r).at("cause"),
              "The submitted command has a field with invalid value: Invalid field "
              "hashing_scheme_version: Unspecified version");

    body = request(alice);
    body["commands"].push_back(tap(alice));
    r = prepare(body);
    EXPECT_EQ(error_of(r).at("code"), "FAILED_TO_PREPARE_TRANSACTION");
    EXPECT_EQ(error_of(r).at("cause"),
              "The participant failed to prepare the transaction: Preparing multiple commands "
              "is currently not supported");

    body = request(alice);
    body["commands"][0]["ExerciseCommand"]["contractId"] =
        "00" + std::string(64, 'e') + "ca101220" + std::string(64, 'e');
    r = prepare(body);
    EXPECT_EQ(r.status, 404) << r.body;
    EXPECT_EQ(error_of(r).at("code"), "CONTRACT_NOT_FOUND");
}

TEST_F(PrepareTest, ReadingAsThePartiesIsNeeded) {
    const http::Response r = prepare(request(bob));  // alice may not read as bob
    EXPECT_EQ(r.status, 403) << r.body;
    json other_user = request(alice);
    other_user["userId"] = "bob";
    EXPECT_EQ(prepare(other_user).status, 403);
}

}  // namespace
}  // namespace cantonlite::areas::ledger::interactive_submission_test
