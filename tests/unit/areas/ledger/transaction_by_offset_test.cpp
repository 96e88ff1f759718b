// POST /v2/updates/transaction-by-offset over the default network (canton-ledger-behavior.md).
#include <chrono>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cantonlite/app/application.hpp"
#include "cantonlite/app/token.hpp"
#include "cantonlite/seed/seed_loader.hpp"

namespace cantonlite::areas::ledger {
namespace {

using nlohmann::json;

const std::string alice =
    "alice::12202bd806c97f0e00af1a1fc3328fa763a9269723c8db8fac4f93af71db186d6e90";
const std::string bob = "bob::122081b637d8fcd2c6da6359e6963113a1170de795e4b725b84d1e0b4cfd9ec58ce9";

class TransactionByOffsetTest : public ::testing::Test {
  protected:
    static void SetUpTestSuite() {
        store_ = seed::load_seed_file(std::string(CANTONLITE_SOURCE_DIR) +
                                      "/config/default-network.json")
                     .release();
        router_ = app::make_router(*store_).release();
    }
    static void TearDownTestSuite() {
        delete router_;
        delete store_;
    }

    static std::string token(const std::string& user) {
        const auto now = std::chrono::duration_cast<std::chrono::seconds>(
                             std::chrono::system_clock::now().time_since_epoch())
                             .count();
        return app::make_token(store_->network(), user, now, 3600);
    }

    static http::Response post(const json& body, const std::string& user = "alice") {
        http::Request r{
            .method = "POST", .target = "/v2/updates/transaction-by-offset", .body = body.dump()};
        if (!user.empty()) r.headers.push_back({"Authorization", "Bearer " + token(user)});
        return router_->handle(r);
    }

    static json format(const std::string& party, const char* shape,
                       json cumulative = json::array()) {
        json by_party = json::object();
        by_party[party] = {{"cumulative", cumulative}};
        json event_format = json::object();
        event_format["filtersByParty"] = by_party;
        return {{"eventFormat", event_format}, {"transactionShape", shape}};
    }

    static inline store::LedgerStore* store_ = nullptr;
    static inline http::Router* router_ = nullptr;
};

TEST_F(TransactionByOffsetTest, RequestingPartiesGiveTheAcsDeltaOfTheirContracts) {
    const http::Response r = post({{"offset", 2}, {"requestingParties", {alice}}});

    ASSERT_EQ(r.status, 200) << r.body;
    const json events = json::parse(r.body)["transaction"]["events"];
    ASSERT_EQ(events.size(), 1U);  // the tap's exercise is not in the ACS delta
    EXPECT_TRUE(events[0].contains("CreatedEvent"));
    EXPECT_EQ(events[0]["CreatedEvent"]["witnessParties"], json::array({alice}));
    EXPECT_EQ(events[0]["CreatedEvent"]["acsDelta"], true);
}

TEST_F(TransactionByOffsetTest, LedgerEffectsShowsTheExerciseAndItsCreate) {
    const http::Response r = post(
        {{"offset", 2}, {"transactionFormat", format(alice, "TRANSACTION_SHAPE_LEDGER_EFFECTS")}});

    ASSERT_EQ(r.status, 200) << r.body;
    const json events = json::parse(r.body)["transaction"]["events"];
    ASSERT_EQ(events.size(), 2U);
    EXPECT_EQ(events[0]["ExercisedEvent"]["choice"], "AmuletRules_DevNet_Tap");
    EXPECT_EQ(events[0]["ExercisedEvent"]["acsDelta"], false);
    EXPECT_EQ(events[1]["CreatedEvent"]["nodeId"], 1);
}

TEST_F(TransactionByOffsetTest, AnotherPartysTransactionIsNotFound) {
    const http::Response r = post({{"offset", 2}, {"requestingParties", {bob}}}, "bob");

    ASSERT_EQ(r.status, 404);
    const json e = json::parse(r.body);
    EXPECT_EQ(e["code"], "UPDATE_NOT_FOUND");
    EXPECT_EQ(e["cause"], "Update not found, or not visible.");
    EXPECT_EQ(e["resources"], json::array({json::array({"ErrorResource(OFFSET)", "2"})}));
}

TEST_F(TransactionByOffsetTest, AReassignmentsOffsetIsNotFound) {
    const http::Response r = post({{"offset", 38}, {"requestingParties", {alice}}});

    EXPECT_EQ(r.status, 404);
}

TEST_F(TransactionByOffsetTest, TemplateFilterOfAnotherTemplateHidesTheEvent) {
    const json cumulative = {
        {{"identifierFilter",
          {{"TemplateFilter",
            {{"value",
              {{"templateId", "#splice-wallet:Splice.Wallet.TransferOffer:TransferOffer"}}}}}}}}};

    const http::Response r =
        post({{"offset", 2},
              {"transactionFormat", format(alice, "TRANSACTION_SHAPE_ACS_DELTA", cumulative)}});

    EXPECT_EQ(r.status, 404);
}

struct SelectorCase {
    const char* name;
    json body;
    const char* code;
    const char* cause;
};

class TransactionByOffsetErrors : public TransactionByOffsetTest,
                                  public ::testing::WithParamInterface<SelectorCase> {};

TEST_P(TransactionByOffsetErrors, AreJsCantonErrorsWithTheRealTexts) {
    const SelectorCase& c = GetParam();

    const http::Response r = post(c.body);

    EXPECT_EQ(r.status, 400) << r.body;
    EXPECT_EQ(r.content_type, "application/json");
    const json e = json::parse(r.body);
    EXPECT_EQ(e["code"], c.code);
    EXPECT_EQ(e["cause"], c.cause);
    EXPECT_EQ(e["errorCategory"], 8);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, TransactionByOffsetErrors,
    ::testing::Values(
        SelectorCase{
            "Neither",
            {{"offset", 2}},
            "INVALID_ARGUMENT",
            "The submitted request has invalid arguments: Either transaction_format or "
            "requesting_parties is "
            "required. Please use either backwards compatible arguments (requesting_parties) or "
            "transaction_format."},
        SelectorCase{"Both",
                     {{"offset", 2},
                      {"requestingParties", {alice}},
                      {"transactionFormat",
                       {{"transactionShape", "TRANSACTION_SHAPE_ACS_DELTA"},
                        {"eventFormat", {{"filtersByParty", {{alice, json::object()}}}}}}}},
                     "INVALID_ARGUMENT",
                     "The submitted request has invalid arguments: Both transaction_format and "
                     "requesting_parties are "
                     "set. Please use either backwards compatible arguments (requesting_parties) "
                     "or transaction_format "
                     "but not both."},
        SelectorCase{"NonPositiveOffset",
                     {{"offset", 0}, {"requestingParties", {alice}}},
                     "NON_POSITIVE_OFFSET",
                     "Offset 0 in offset is not a positive integer: the offset has to be a "
                     "positive integer (>0)"},
        SelectorCase{"UnspecifiedShape",
                     {{"offset", 2},
                      {"transactionFormat",
                       {{"transactionShape", "TRANSACTION_SHAPE_UNSPECIFIED"},
                        {"eventFormat", {{"filtersByParty", {{alice, json::object()}}}}}}}},
                     "MISSING_FIELD",
                     "The submitted command is missing a mandatory field: transaction_shape"},
        SelectorCase{
            "PackageIdTemplate",
            {{"offset", 2},
             {"transactionFormat",
              {{"transactionShape", "TRANSACTION_SHAPE_ACS_DELTA"},
               {"eventFormat",
                {{"filtersByParty",
                  {{alice,
                    {{"cumulative",
                      {{{"identifierFilter",
                         {{"TemplateFilter",
                           {{"value", {{"templateId", "abc:Splice.Amulet:Amulet"}}}}}}}}}}}}}}}}}}},
            "INVALID_FIELD",
            "The submitted command has a field with invalid value: Invalid field packageId: "
            "Received an "
            "identifier with package ID abc, but expected a package name."}),
    [](const auto& info) { return std::string(info.param.name); });

TEST_F(TransactionByOffsetTest, NoTokenIsARedactedUnauthenticated) {
    const http::Response r = post({{"offset", 2}, {"requestingParties", {alice}}}, "");

    ASSERT_EQ(r.status, 401);
    const json e = json::parse(r.body);
    EXPECT_EQ(e["code"], "NA");
    EXPECT_EQ(e["grpcCodeValue"], 16);
    EXPECT_EQ(e["context"], json::object());
}

TEST_F(TransactionByOffsetTest, ReadingAnotherPartyWithoutRightsIsARedactedPermissionDenied) {
    const http::Response r = post({{"offset", 2}, {"requestingParties", {bob}}}, "alice");

    ASSERT_EQ(r.status, 403);
    EXPECT_EQ(json::parse(r.body)["grpcCodeValue"], 7);
}

TEST_F(TransactionByOffsetTest, ReadAsRightsAllowReadingAnotherParty) {
    const http::Response r = post({{"offset", 2}, {"requestingParties", {alice}}}, "dave");

    EXPECT_EQ(r.status, 200) << r.body;
}

TEST_F(TransactionByOffsetTest, AnyPartyFilterNeedsCanReadAsAnyParty) {
    const json any = {{"offset", 2},
                      {"transactionFormat",
                       {{"transactionShape", "TRANSACTION_SHAPE_ACS_DELTA"},
                        {"eventFormat", {{"filtersForAnyParty", json::object()}}}}}};

    EXPECT_EQ(post(any, "dave").status, 403);
    const http::Response r = post(any, "auditor");
    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(
        json::parse(r.body)["transaction"]["events"][0]["CreatedEvent"]["witnessParties"].size(),
        2U);
}

TEST_F(TransactionByOffsetTest, SelectorIsCheckedBeforeTheToken) {
    const http::Response r = post({{"offset", 2}}, "");

    EXPECT_EQ(r.status, 400);
}

TEST_F(TransactionByOffsetTest, UndecodableBodyIsPlainText) {
    http::Request req{
        .method = "POST", .target = "/v2/updates/transaction-by-offset", .body = R"({"offset":)"};

    const http::Response r = router_->handle(req);

    EXPECT_EQ(r.status, 400);
    EXPECT_EQ(r.content_type, "text/plain; charset=UTF-8");
    EXPECT_EQ(r.body, "Invalid value for: body (exhausted input)");
}

}  // namespace
}  // namespace cantonlite::areas::ledger
