// POST /v2/events/events-by-contract-id over the default network (JsEventService,
// EventQueryServiceRequestValidator, EventsReader.getEventsByContractId).

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cantonlite/seed/seed_loader.hpp"
#include "ledger_test_support.hpp"

namespace cantonlite::areas::ledger::event_handlers_test {
namespace {

using nlohmann::json;

// alice-coin-1: created at 2, archived at 6.
const std::string alice_coin_1 =
    "005c56bcaed417fa65ad43cea966eb1d0bca35ab26595e75fbdff884fa933ca050ca10122054c070629d7bc1a744"
    "c6b8ab3cc940b6759bae1f8fed8aad16683c1eab7bba18";
// alice-coin-4: created at 43, active.
const std::string alice_coin_4 =
    "004e49a4381652186e68ac35c5e6718b2c007675b1df5621a9ed59b5b8b5969c9cca101220b22e5318cb03990f28"
    "d56decb525ee6f781b968e7f87d3412bf2535d2812a56a";

class EventHandlersTest : public LedgerSuite {
  protected:
    static void SetUpTestSuite() { serve_default_network(); }
    static http::Response post(const json& body, const std::string& user = "alice") {
        return LedgerSuite::post("/v2/events/events-by-contract-id", body, user);
    }
};

TEST_F(EventHandlersTest, AnArchivedContractHasItsCreateAndArchive) {
    const http::Response r =
        post({{"contractId", alice_coin_1}, {"eventFormat", event_format(alice)}});

    ASSERT_EQ(r.status, 200) << r.body;
    const json body = json::parse(r.body);
    EXPECT_EQ(body["created"]["createdEvent"]["offset"], 2);
    EXPECT_EQ(body["created"]["createdEvent"]["witnessParties"], json::array({alice}));
    EXPECT_EQ(body["archived"]["archivedEvent"]["offset"], 6);
    EXPECT_EQ(body["archived"]["archivedEvent"]["contractId"], alice_coin_1);
    EXPECT_EQ(body["archived"]["synchronizerId"], body["created"]["synchronizerId"]);
}

TEST_F(EventHandlersTest, AnActiveContractHasANullArchive) {
    const http::Response r =
        post({{"contractId", alice_coin_4}, {"eventFormat", event_format(alice)}});

    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_TRUE(json::parse(r.body)["archived"].is_null());
}

TEST_F(EventHandlersTest, TheCreateEqualsTheOneOfItsTransaction) {
    const json events = json::parse(
        post({{"contractId", alice_coin_4}, {"eventFormat", event_format(alice)}}).body);
    const json tx = json::parse(call("POST", "/v2/updates/transaction-by-offset",
                                     json{{"offset", 43}, {"requestingParties", {alice}}}.dump())
                                    .body);

    bool found = false;
    for (const json& e : tx["transaction"]["events"]) {
        if (e.contains("CreatedEvent") && e["CreatedEvent"]["contractId"] == alice_coin_4) {
            EXPECT_EQ(e["CreatedEvent"], events["created"]["createdEvent"]);
            found = true;
        }
    }
    EXPECT_TRUE(found);
}

TEST_F(EventHandlersTest, AnotherPartysContractIsNotFound) {
    const http::Response r =
        post({{"contractId", alice_coin_4}, {"eventFormat", event_format(bob)}}, "bob");

    expect_error(r, 404, "CONTRACT_EVENTS_NOT_FOUND", "Contract events not found, or not visible.");
    EXPECT_EQ(json::parse(r.body)["resources"],
              json::array({json::array({"ErrorResource(CONTRACT_ID)", alice_coin_4})}));
}

TEST_F(EventHandlersTest, ValidationErrors) {
    expect_error(post({{"eventFormat", event_format(alice)}}), 400, "MISSING_FIELD",
                 "The submitted command is missing a mandatory field: contract_id");
    expect_error(post({{"contractId", "xyz"}, {"eventFormat", event_format(alice)}}), 400,
                 "INVALID_FIELD",
                 "The submitted command has a field with invalid value: Invalid field "
                 "contract_id: cannot parse ContractId \"xyz\"");
    expect_error(post({{"contractId", alice_coin_4}}), 400, "MISSING_FIELD",
                 "The submitted command is missing a mandatory field: event_format");
    expect_error(
        post({{"contractId", "00" + std::string(64, 'a')}, {"eventFormat", event_format(alice)}}),
        404, "CONTRACT_EVENTS_NOT_FOUND", "Contract events not found, or not visible.");
}

TEST_F(EventHandlersTest, FollowsTheAuthMatrix) {
    const std::string body =
        json{{"contractId", alice_coin_4}, {"eventFormat", event_format(alice)}}.dump();

    expect_redacted(call("POST", "/v2/events/events-by-contract-id", body, ""), 401, 16);
    expect_redacted(call("POST", "/v2/events/events-by-contract-id", body, "bob"), 403, 7);
    EXPECT_EQ(call("POST", "/v2/events/events-by-contract-id", body, "dave").status, 200);
    EXPECT_EQ(call("POST", "/v2/events/events-by-contract-id", body, "auditor").status, 200);
}

}  // namespace
}  // namespace cantonlite::areas::ledger::event_handlers_test
