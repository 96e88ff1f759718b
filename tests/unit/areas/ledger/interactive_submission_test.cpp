// Interactive submission's prepare on the live default network, from Canton release-line-3.5's
// JsInteractiveSubmissionService (L182-207), InteractiveSubmissionServiceAuthorization
// (MatchUserId, ReadAs each actAs and readAs party), SubmitRequestValidator.validatePrepare and
// InteractiveSubmissionServiceImpl (L187-192 one command; L250-259 hashingDetails), and the wallet
// SDK's prepare request (research notes: interactive_submission_api.md): the transaction the
// commands would commit, nothing committed, with the hash its parties sign.
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "areas/ledger/command_test_support.hpp"
#include "cantonlite/app/application.hpp"
#include "cantonlite/areas/release.hpp"
#include "cantonlite/interactive/external_party.hpp"
#include "cantonlite/interactive/transaction_hash.hpp"
#include "cantonlite/model/ids.hpp"
#include "cantonlite/seed/commands.hpp"
#include "cantonlite/seed/live_network.hpp"
#include "cantonlite/splice/splice_views.hpp"

namespace cantonlite::areas::ledger::interactive_submission_test {
namespace {

using admin::admintest::alice;
using admin::admintest::bob;
using nlohmann::json;

const std::string synchronizer =
    "global-domain::1220b1431ef217342db44d516bb9befde802be7d8899637d290895fa58880f19accc";

class PrepareTest : public commandtest::CommandFixture {
  protected:
    json tap(const std::string& receiver) const { return tap_command(receiver, "10"); }
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
    // An external party onboarded with the public key of `private_key`, alice allowed to act as
    // it; its party id.
    std::string onboard_external(const std::string& hint, const std::string& private_key) {
        const std::string key = interactive::ed25519_public_key(private_key);
        const auto t = interactive::generate_onboarding(
            hint, key,
            "participant1::122056e00d8eef432e448963fb33d31cbc989835384ec290868e0a0f7573b254b1af");
        EXPECT_EQ(steps(json::array({{{"step", "add_party"},
                                      {"party", t.party_id},
                                      {"external_key", model::base64_encode(key)}},
                                     {{"step", "grant_rights"},
                                      {"user", "alice"},
                                      {"rights", {{"can_act_as", json::array({t.party_id})}}}}}))
                      .at("results")
                      .size(),
                  2U);
        return t.party_id;
    }
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
    const std::string exchange = onboard_external("exchange", std::string(32, '\x33'));

    const http::Response r = prepare(request(exchange));

    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(decoded(json::parse(r.body)).metadata().submitter_info().act_as(0), exchange);
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

// ---- execute: the wallet SDK's executeAndWait, and its refusals in Canton's words
// (SubmitRequestValidator.validateExecute, InteractiveSubmission.verifySignatures) ----

class ExecuteTest : public PrepareTest {
  protected:
    const std::string key_ = std::string(32, '\x44');
    std::string exchange_;
    void SetUp() override { exchange_ = onboard_external("exchange", key_); }

    // The prepare answer for a tap to the exchange, as the exchange prepares it.
    json prepared(const std::string& command_id = "withdrawal-1") const {
        const http::Response r = prepare(request(exchange_, command_id));
        EXPECT_EQ(r.status, 200) << r.body;
        return json::parse(r.body);
    }
    // The wallet SDK's executeAndWait body: the prepared transaction back, the party's
    // signature of the hash it was answered (signedBy its namespace).
    json execute_request(const json& answer, const std::string& signature) const {
        return {{"userId", "alice"},
                {"preparedTransaction", answer.at("preparedTransaction")},
                {"hashingSchemeVersion", answer.at("hashingSchemeVersion")},
                {"submissionId", "9d5bd2c6-4b37-4a7f-8e0c-2f0c3a3c6b1d"},
                {"deduplicationPeriod", {{"Empty", json::object()}}},
                {"partySignatures",
                 {{"signatures",
                   json::array(
                       {{{"party", exchange_},
                         {"signatures",
                          json::array({{{"signature", signature},
                                        {"signedBy", exchange_.substr(exchange_.find("::") + 2)},
                                        {"format", "SIGNATURE_FORMAT_CONCAT"},
                                        {"signingAlgorithmSpec",
                                         "SIGNING_ALGORITHM_SPEC_ED25519"}}})}}})}}}};
    }
    std::string sign(const std::string& hash_base64) const {
        return model::base64_encode(
            interactive::ed25519_sign(key_, model::base64_decode(hash_base64).value()));
    }
    json signed_request(const json& answer) const {
        return execute_request(answer, sign(answer.at("preparedTransactionHash")));
    }
    http::Response execute(const json& body, const std::string& path = "executeAndWait",
                           const std::string& user = "alice") const {
        return as_user(user, "POST", "/v2/interactive-submission/" + path, body.dump());
    }
    // The answer with its prepared transaction replaced by `p`, and its hash by p's.
    static json with_transaction(json answer, const wire::PreparedTransaction& p) {
        answer["preparedTransaction"] = model::base64_encode(p.SerializeAsString());
        answer["preparedTransactionHash"] =
            base64(interactive::prepared_transaction_hash(p, interactive::HashingScheme::v2));
        return answer;
    }
    std::string cause_of(const http::Response& r) const {
        return error_of(r).at("cause").get<std::string>();
    }
};

TEST_F(ExecuteTest, CommitsTheTransactionThePartySigned) {
    const json answer = prepared();
    const wire::PreparedTransaction p = decoded(answer);
    const std::int64_t before = ledger_end();

    const http::Response r = execute(signed_request(answer));

    ASSERT_EQ(r.status, 200) << r.body;
    const json done = json::parse(r.body);
    EXPECT_EQ(done.at("completionOffset"), before + 1);
    EXPECT_EQ(ledger_end(), before + 1);
    EXPECT_EQ(done.at("updateId"), network_->store().id_for(before + 1).str());
    // The amulet it created is the one prepared: its id, suffixed at commit.
    std::string created;
    for (const auto& node : p.transaction().nodes()) {
        if (node.v1().has_create() && node.v1().create().template_id().entity_name() == "Amulet")
            created = node.v1().create().contract_id();
    }
    ASSERT_EQ(created.size(), 66U);
    bool found = false;
    for (const model::ContractPtr& amulet : views().unlocked_amulets_of(exchange_)) {
        found = found || amulet->contract_id.str().substr(0, 66) == created;
    }
    EXPECT_TRUE(found);
    // Its completion, for the user and the party.
    const http::Response completions = as_user(
        "alice", "POST", "/v2/commands/completions",
        json{{"userId", "alice"}, {"parties", {exchange_}}, {"beginExclusive", before}}.dump());
    ASSERT_EQ(completions.status, 200) << completions.body;
    const json c = json::parse(completions.body).at(0)["completionResponse"]["Completion"]["value"];
    EXPECT_EQ(c.at("commandId"), "withdrawal-1");
    EXPECT_EQ(c.at("submissionId"), "9d5bd2c6-4b37-4a7f-8e0c-2f0c3a3c6b1d");
    EXPECT_EQ(c.at("actAs"), json::array({exchange_}));
}

TEST_F(ExecuteTest, ExecuteAnswersNothingAndTheTransactionFormAnswersTheTransaction) {
    http::Response r = execute(signed_request(prepared("w-1")), "execute");
    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(r.body, "{}");

    const json answer = prepared("w-2");
    r = execute(signed_request(answer), "executeAndWaitForTransaction");
    ASSERT_EQ(r.status, 200) << r.body;
    const json tx = json::parse(r.body).at("transaction");
    EXPECT_EQ(tx.at("commandId"), "w-2");
    // One hash everywhere: the committed transaction carries the hash the party signed, in hex
    // (ProtocolConverters: Hash.toHexString).
    EXPECT_EQ(
        tx.at("externalTransactionHash"),
        model::hex(
            model::base64_decode(answer.at("preparedTransactionHash").get<std::string>()).value()));
    EXPECT_EQ(tx.at("offset"), ledger_end());
    EXPECT_FALSE(tx.at("events").empty());  // the exchange's new amulet
}

TEST_F(ExecuteTest, RunsOnceForItsCommandId) {
    const json answer = prepared();
    ASSERT_EQ(execute(signed_request(answer)).status, 200);
    const http::Response again = execute(signed_request(answer));
    EXPECT_EQ(again.status, 409) << again.body;
    EXPECT_EQ(error_of(again).at("code"), "DUPLICATE_COMMAND");
}

TEST_F(ExecuteTest, RefusesASignatureOfAnotherHash) {
    const json answer = prepared();
    const json other = prepared("withdrawal-2");
    const std::int64_t before = ledger_end();

    const http::Response r =
        execute(execute_request(answer, sign(other.at("preparedTransactionHash"))));

    EXPECT_EQ(r.status, 400) << r.body;
    EXPECT_EQ(error_of(r).at("code"), "FAILED_TO_EXECUTE_TRANSACTION");
    const std::string hash_hex = model::hex(
        model::base64_decode(answer.at("preparedTransactionHash").get<std::string>()).value());
    EXPECT_EQ(cause_of(r),
              "The participant failed to execute the transaction: Received 0 valid signatures "
              "from distinct keys (1 invalid), but expected at least 1 valid for " +
                  exchange_ + ". Transaction hash to be signed: 1220" + hash_hex +
                  ". Ensure the correct transaction hash is signed with the correct key(s).");
    EXPECT_EQ(ledger_end(), before);
}

TEST_F(ExecuteTest, RefusesATransactionChangedAfterPrepareEvenIfSigned) {
    // The client raises the tap's amount in the prepared transaction and signs what it changed:
    // the signature is good, but the ledger's own run of the command is not that transaction.
    const json answer = prepared();
    wire::PreparedTransaction p = decoded(answer);
    wire::Exercise& root =
        *p.mutable_transaction()->mutable_nodes(0)->mutable_v1()->mutable_exercise();
    for (auto& field : *root.mutable_chosen_value()->mutable_record()->mutable_fields()) {
        if (field.label() == "amount") field.mutable_value()->set_numeric("1000.0000000000");
    }
    const std::int64_t before = ledger_end();

    const http::Response r = execute(signed_request(with_transaction(answer, p)));

    EXPECT_EQ(r.status, 400) << r.body;
    EXPECT_EQ(error_of(r).at("code"), "LOCAL_VERDICT_FAILED_MODEL_CONFORMANCE_CHECK");
    EXPECT_EQ(ledger_end(), before);
}

TEST_F(ExecuteTest, AnInputSpentSincePrepareIsRefused) {
    // The exchange's amulet, then two merges of it prepared before either is executed.
    ASSERT_EQ(execute(signed_request(prepared("fund"))).status, 200);
    const std::vector<std::string> amulets = amulets_of(exchange_);
    ASSERT_EQ(amulets.size(), 1U);
    const auto merge = [&](const std::string& id) {
        json body = request(exchange_, id);
        body["commands"] = json::array({factory_transfer(exchange_, exchange_, "5", amulets)});
        body["disclosedContracts"] =
            json::array({{{"contractId", factory()}, {"createdEventBlob", ""}}});
        const http::Response r = prepare(body);
        EXPECT_EQ(r.status, 200) << r.body;
        return json::parse(r.body);
    };
    const json first = merge("merge-1");
    const json second = merge("merge-2");
    ASSERT_EQ(execute(signed_request(first)).status, 200);
    const std::int64_t before = ledger_end();

    const http::Response r = execute(signed_request(second));

    EXPECT_EQ(r.status, 404) << r.body;
    EXPECT_EQ(error_of(r).at("code"), "LOCAL_VERDICT_INACTIVE_CONTRACTS");
    EXPECT_EQ(ledger_end(), before);
}

TEST_F(ExecuteTest, EveryActAsPartySigns) {
    json body = signed_request(prepared());
    body["partySignatures"]["signatures"][0]["party"] = alice;  // ignored: not an actAs party

    const http::Response r = execute(body);

    EXPECT_EQ(r.status, 400) << r.body;
    EXPECT_EQ(cause_of(r),
              "The participant failed to execute the transaction: The following actAs parties "
              "did not provide an external signature: " +
                  exchange_);
}

TEST_F(ExecuteTest, ATransactionWithoutActAsPartiesIsRefused) {
    const json answer = prepared();
    wire::PreparedTransaction p = decoded(answer);
    p.mutable_metadata()->mutable_submitter_info()->clear_act_as();
    const std::int64_t before = ledger_end();

    const http::Response r = execute(signed_request(with_transaction(answer, p)));

    EXPECT_EQ(r.status, 400) << r.body;
    EXPECT_EQ(cause_of(r),
              "The participant failed to execute the transaction: Failed to "
              "deserialize submitter info: no actAs party");
    EXPECT_EQ(ledger_end(), before);
}

// The API area checks the signatures outside the writers' lock, with a copy of the parties' keys;
// the step trusts that check only while each key is still the party's.
TEST_F(ExecuteTest, ACheckAgainstAKeyThePartyNoLongerHasIsDoneAgain) {
    const json answer = prepared();
    const std::string other_key(32, '\x55');
    const std::string hash =
        model::base64_decode(answer.at("preparedTransactionHash").get<std::string>()).value();
    const auto step = [&](const std::string& private_key) {
        return json{
            {"step", "execute"},
            {"user_id", "alice"},
            {"submission_id", "s-1"},
            {"prepared", answer.at("preparedTransaction")},
            {"hashing_scheme", 2},
            {"signatures",
             {{{"party", exchange_},
               {"signatures",
                {{{"format", "SIGNATURE_FORMAT_CONCAT"},
                  {"algorithm", "SIGNING_ALGORITHM_SPEC_ED25519"},
                  {"signed_by",
                   interactive::key_fingerprint(interactive::ed25519_public_key(private_key))},
                  {"signature",
                   model::base64_encode(interactive::ed25519_sign(private_key, hash))}}}}}}}};
    };
    const std::int64_t before = ledger_end();

    // Signed by another key, and checked against that key: the check passes...
    const auto checked =
        seed::check_execution(decoded(answer), step(other_key),
                              {{exchange_, interactive::ed25519_public_key(other_key)}});
    ASSERT_NE(checked, nullptr);
    // ...but it is not the exchange's key: the step checks again, and refuses.
    try {
        (void)network_->apply_submission(step(other_key), {}, checked);
        ADD_FAILURE() << "committed a transaction its party did not sign";
    } catch (const seed::CommandError& e) {
        EXPECT_EQ(e.code(), "FAILED_TO_EXECUTE_TRANSACTION");
    }
    EXPECT_EQ(ledger_end(), before);

    // A check that fails is no check: the step runs its own.
    EXPECT_EQ(seed::check_execution(decoded(answer), step(other_key), {}), nullptr);
    // The exchange's own signature, checked against its key, commits.
    const auto good = seed::check_execution(decoded(answer), step(key_),
                                            {{exchange_, interactive::ed25519_public_key(key_)}});
    ASSERT_NE(good, nullptr);
    (void)network_->apply_submission(step(key_), {}, good);
    EXPECT_EQ(ledger_end(), before + 1);
}

TEST_F(ExecuteTest, ALocalPartyHasNoSigningKeys) {
    // Preparing as a local party is allowed; executing it is not.
    const http::Response prepared_for_alice = prepare(request(alice));
    ASSERT_EQ(prepared_for_alice.status, 200);
    const json answer = json::parse(prepared_for_alice.body);
    json body = signed_request(answer);
    body["partySignatures"]["signatures"][0]["party"] = alice;

    const http::Response r = execute(body);

    EXPECT_EQ(r.status, 400) << r.body;
    EXPECT_EQ(cause_of(r),
              "The participant failed to execute the transaction: Could not find "
              "party signing keys for " +
                  alice + ".");
}

TEST_F(ExecuteTest, TheMaximumRecordTimeBinds) {
    json body = request(exchange_);
    body["hashingSchemeVersion"] = "HASHING_SCHEME_VERSION_V3";
    body["maxRecordTime"] = model::format_instant(
        model::Timestamp{network_->store().now().micros + 60'000'000});  // a minute from now
    const http::Response r = prepare(body);
    ASSERT_EQ(r.status, 200) << r.body;
    const json answer = json::parse(r.body);
    steps(json::array({{{"step", "advance_time"}, {"by_seconds", 120}}}));

    const http::Response late = execute(signed_request(answer));

    EXPECT_EQ(late.status, 409) << late.body;
    EXPECT_EQ(error_of(late).at("code"), "LOCAL_VERDICT_MAX_RECORD_TIME_EXCEEDED");
    EXPECT_EQ(cause_of(late).rfind("Rejected transaction as record time exceeds the maximum "
                                   "record time: recordTime=",
                                   0),
              0U);
}

TEST_F(ExecuteTest, ExecutingNeedsTheRightToActAsTheParty) {
    const http::Response r = execute(signed_request(prepared()), "executeAndWait", "bob");
    EXPECT_EQ(r.status, 403) << r.body;
}

TEST_F(ExecuteTest, RefusesBadRequestsInCantonsWords) {
    json body = signed_request(prepared());
    body["preparedTransaction"] = "AAAA";
    http::Response r = execute(body);
    EXPECT_EQ(r.status, 400);
    EXPECT_EQ(cause_of(r),
              "The submitted request has invalid arguments: Cannot parse prepared_transaction");

    body = signed_request(prepared());
    body.erase("partySignatures");
    r = execute(body);
    EXPECT_EQ(r.status, 400);
    EXPECT_EQ(r.body, "Invalid value for: body (Missing required field at 'partySignatures')");

    body = signed_request(prepared());
    body["partySignatures"]["signatures"][0]["signatures"][0]["format"] =
        "SIGNATURE_FORMAT_UNSPECIFIED";
    r = execute(body);
    EXPECT_EQ(error_of(r).at("code"), "INVALID_FIELD");
    EXPECT_EQ(cause_of(r),
              "The submitted command has a field with invalid value: Invalid field "
              "format: Signature format must be specified");

    body = signed_request(prepared());
    body["hashingSchemeVersion"] = "HASHING_SCHEME_VERSION_UNSPECIFIED";
    r = execute(body);
    EXPECT_EQ(error_of(r).at("code"), "INVALID_FIELD");

    // Signed with V2, executed as V3: the hash differs, so does the signature's.
    body = signed_request(prepared());
    body["hashingSchemeVersion"] = "HASHING_SCHEME_VERSION_V3";
    r = execute(body);
    EXPECT_EQ(error_of(r).at("code"), "FAILED_TO_EXECUTE_TRANSACTION");
}

// ---- one hash everywhere: the Canton 3.6 lookups by the hash the party signed ----

class HashLookupTest : public ExecuteTest {
  protected:
    void SetUp() override {
        ExecuteTest::SetUp();
        router_ = app::make_router(*network_, admin::admintest::open_options(),
                                   ApiProfile{.release = Release::splice_0_9});
    }
    http::Response post(const std::string& path, const json& body,
                        const std::string& user = "alice") const {
        return as_user(user, "POST", path, body.dump());
    }
    static json update_format(const std::string& party) {
        return {
            {"includeTransactions",
             {{"eventFormat", {{"filtersByParty", {{party, json::object()}}}, {"verbose", false}}},
              {"transactionShape", "TRANSACTION_SHAPE_ACS_DELTA"}}}};
    }
};

TEST_F(HashLookupTest, FindTheExecutedTransactionAndItsCompletion) {
    const json answer = prepared();
    const http::Response done = execute(signed_request(answer));
    ASSERT_EQ(done.status, 200) << done.body;
    const json committed = json::parse(done.body);
    const std::string hash = answer.at("preparedTransactionHash");  // base64, as signed
    const std::string hex = model::hex(model::base64_decode(hash).value());

    const http::Response update =
        post("/v2/updates/update-by-hash",
             {{"transactionHash", hash}, {"updateFormat", update_format(exchange_)}});
    ASSERT_EQ(update.status, 200) << update.body;
    const json tx = json::parse(update.body)["update"]["Transaction"]["value"];
    EXPECT_EQ(tx.at("updateId"), committed.at("updateId"));
    EXPECT_EQ(tx.at("externalTransactionHash"), hex);
    EXPECT_EQ(tx.at("transactionHash"), hex);  // 3.6: the same value under its new name

    const http::Response completion =
        post("/v2/commands/completion-by-hash", {{"transactionHash", hash}});
    ASSERT_EQ(completion.status, 200) << completion.body;
    const json c = json::parse(completion.body);
    EXPECT_EQ(c["acceptedCompletion"].at("commandId"), "withdrawal-1");
    EXPECT_EQ(c["acceptedCompletion"].at("offset"), committed.at("completionOffset"));
    EXPECT_EQ(c.at("lastRejectedCompletions"), json::array());

    // Scan: the update, with the hash, by the hash; and in its update history.
    const http::Response scan = call("GET", "/api/scan/v2/updates/hash/" + hex);
    ASSERT_EQ(scan.status, 200) << scan.body;
    const json item = json::parse(scan.body);
    EXPECT_EQ(item.at("update_id"), committed.at("updateId"));
    EXPECT_EQ(item.at("external_transaction_hash"), hex);
    const json by_id = json::parse(
        call("GET", "/api/scan/v2/updates/" + item.at("update_id").get<std::string>()).body);
    EXPECT_EQ(by_id.at("external_transaction_hash"), hex);
    const http::Response unknown = call("GET", "/api/scan/v2/updates/hash/" + std::string(64, 'a'));
    EXPECT_EQ(unknown.status, 404);
    EXPECT_EQ(json::parse(unknown.body).at("error"),
              "Transaction with hash " + std::string(64, 'a') + " not found");
}

TEST_F(HashLookupTest, AnUnknownOrInvisibleHashIsNotFound) {
    const json answer = prepared();
    ASSERT_EQ(execute(signed_request(answer)).status, 200);
    const std::string other = model::base64_encode(std::string(32, '\x07'));

    http::Response r = post("/v2/updates/update-by-hash",
                            {{"transactionHash", other}, {"updateFormat", update_format(alice)}});
    EXPECT_EQ(r.status, 404) << r.body;
    EXPECT_EQ(error_of(r).at("code"), "UPDATE_NOT_FOUND");
    r = post("/v2/commands/completion-by-hash", {{"transactionHash", other}});
    EXPECT_EQ(r.status, 404) << r.body;
    EXPECT_EQ(error_of(r).at("code"), "COMPLETION_NOT_FOUND");
    EXPECT_EQ(error_of(r).at("cause"), "Completion not found, or not visible.");
    // bob reads as neither the exchange nor anyone who acted.
    r = post("/v2/commands/completion-by-hash",
             {{"transactionHash", answer.at("preparedTransactionHash")}}, "bob");
    EXPECT_EQ(r.status, 404) << r.body;
    // An empty hash: the validators' own errors.
    r = post("/v2/commands/completion-by-hash", {{"transactionHash", ""}});
    EXPECT_EQ(r.status, 400) << r.body;
    EXPECT_EQ(error_of(r).at("cause"),
              "The submitted request has invalid arguments: Missing field: transaction_hash");
    r = post("/v2/updates/update-by-hash",
             {{"transactionHash", ""}, {"updateFormat", update_format(alice)}});
    EXPECT_EQ(error_of(r).at("code"), "MISSING_FIELD");
}

TEST_F(ExecuteTest, TheLookupsByHashAreCanton36s) {
    EXPECT_EQ(
        as_user("alice", "POST", "/v2/commands/completion-by-hash", R"({"transactionHash":"AAAA"})")
            .status,
        404);
}

// ---- the journal: an executed transaction is a step, replayed through the same checks ----

class JournaledExecuteTest : public admin::admintest::Journaled<ExecuteTest> {};

TEST_F(JournaledExecuteTest, AnExecutedTransactionSurvivesARestart) {
    const json answer = prepared();
    ASSERT_EQ(execute(signed_request(answer)).status, 200);
    const std::int64_t end = ledger_end();
    const std::string update = network_->store().id_for(end).str();
    const auto amulets = views().unlocked_amulets_of(exchange_).size();

    restart();

    EXPECT_EQ(ledger_end(), end);
    EXPECT_EQ(network_->store().id_for(end).str(), update);
    EXPECT_EQ(views().unlocked_amulets_of(exchange_).size(), amulets);
    // And it stays executed once.
    EXPECT_EQ(execute(signed_request(answer)).status, 409);
}

}  // namespace
}  // namespace cantonlite::areas::ledger::interactive_submission_test
