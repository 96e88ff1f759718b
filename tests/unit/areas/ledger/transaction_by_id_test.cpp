// POST /v2/updates/transaction-by-id and POST /v2/updates/flats (Canton 3.5; both deprecated and
// disabled in 3.6) over the default network. The wallet SDK reads a party's holding transactions
// through them. transaction-by-id is transaction-by-offset found by the update id: the same body
// for the same transaction, and update-by-id's validation and 404; flats answers as /v2/updates.

#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "ledger_test_support.hpp"

namespace cantonlite::areas::ledger::transaction_by_id_test {
namespace {

using nlohmann::json;

class TransactionByIdTest : public LedgerSuite {
  protected:
    static void SetUpTestSuite() { serve_default_network(); }

    static std::string update_id_at(store::Offset offset) {
        const json tx =
            json::parse(post("/v2/updates/transaction-by-offset",
                             {{"offset", offset}, {"requestingParties", {alice}}}, "alice")
                            .body);
        return tx.at("transaction").at("updateId");
    }

    static json ledger_effects(const std::string& party) {
        json by_party = json::object();
        by_party[party] = {{"cumulative", json::array()}};
        return {{"eventFormat", {{"filtersByParty", by_party}, {"verbose", true}}},
                {"transactionShape", "TRANSACTION_SHAPE_LEDGER_EFFECTS"}};
    }
};

TEST_F(TransactionByIdTest, IsTheTransactionByOffsetsAnswerForTheSameTransaction) {
    const std::string id = update_id_at(2);

    const http::Response by_id = post("/v2/updates/transaction-by-id",
                                      {{"updateId", id}, {"requestingParties", {alice}}}, "alice");
    const http::Response by_offset = post("/v2/updates/transaction-by-offset",
                                          {{"offset", 2}, {"requestingParties", {alice}}}, "alice");

    ASSERT_EQ(by_id.status, 200) << by_id.body;
    EXPECT_EQ(by_id.body, by_offset.body);
}

TEST_F(TransactionByIdTest, TakesATransactionFormat) {
    const std::string id = update_id_at(2);

    const http::Response r = post("/v2/updates/transaction-by-id",
                                  {{"updateId", id}, {"transactionFormat", ledger_effects(alice)}});

    ASSERT_EQ(r.status, 200) << r.body;
    const json events = json::parse(r.body).at("transaction").at("events");
    ASSERT_EQ(events.size(), 2U);
    EXPECT_EQ(events[0]["ExercisedEvent"]["choice"], "AmuletRules_DevNet_Tap");
}

TEST_F(TransactionByIdTest, AnotherPartysTransactionIsNotFoundByItsId) {
    const std::string id = update_id_at(2);

    const http::Response r = post("/v2/updates/transaction-by-id",
                                  {{"updateId", id}, {"requestingParties", {bob}}}, "bob");

    ASSERT_EQ(r.status, 404) << r.body;
    const json e = json::parse(r.body);
    EXPECT_EQ(e["code"], "UPDATE_NOT_FOUND");
    EXPECT_EQ(e["resources"], json::array({json::array({"ErrorResource(UPDATE_ID)", id})}));
}

TEST_F(TransactionByIdTest, AnUnknownIdIsNotFound) {
    const http::Response r = post("/v2/updates/transaction-by-id",
                                  {{"updateId", "1220aa"}, {"requestingParties", {alice}}});

    EXPECT_EQ(r.status, 404) << r.body;
}

TEST_F(TransactionByIdTest, AMissingIdIsAMissingField) {
    const http::Response r =
        post("/v2/updates/transaction-by-id", {{"requestingParties", {alice}}});

    expect_error(r, 400, "MISSING_FIELD",
                 "The submitted command is missing a mandatory field: update_id");
}

TEST_F(TransactionByIdTest, NeitherPartiesNorFormatIsRefused) {
    const http::Response r = post("/v2/updates/transaction-by-id", {{"updateId", "1220aa"}});

    expect_error(r, 400, "INVALID_ARGUMENT",
                 "The submitted request has invalid arguments: Either transaction_format or "
                 "requesting_parties is required. Please use either backwards compatible "
                 "arguments (requesting_parties) or transaction_format.");
}

TEST_F(TransactionByIdTest, AnotherUsersPartyIsForbidden) {
    const http::Response r = post("/v2/updates/transaction-by-id",
                                  {{"updateId", "1220aa"}, {"requestingParties", {bob}}}, "alice");

    EXPECT_EQ(r.status, 403) << r.body;
}

// ---- POST /v2/updates/flats ------------------------------------------------------------------

TEST_F(TransactionByIdTest, FlatsAnswersAsUpdates) {
    for (const json& body :
         {json{{"beginExclusive", 0},
               {"endInclusive", 12},
               {"filter", {{"filtersByParty", {{alice, json::object()}}}}},
               {"verbose", false}},
          json{{"beginExclusive", 1},
               {"updateFormat", {{"includeTransactions", ledger_effects(alice)}}},
               {"verbose", false}}}) {
        const http::Response flats = post("/v2/updates/flats", body);
        const http::Response updates = post("/v2/updates", body);

        ASSERT_EQ(flats.status, 200) << flats.body;
        EXPECT_EQ(flats.body, updates.body);
        EXPECT_GT(json::parse(flats.body).size(), 0U);
    }
}

}  // namespace
}  // namespace cantonlite::areas::ledger::transaction_by_id_test
