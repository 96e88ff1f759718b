// POST /v2/updates/transaction-by-offset over the default network (canton-ledger-behavior.md).

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cantonlite/app/application.hpp"
#include "cantonlite/app/token.hpp"
#include "cantonlite/seed/seed_loader.hpp"
#include "ledger_test_support.hpp"

namespace cantonlite::areas::ledger::transaction_by_offset_test {
namespace {

using nlohmann::json;

class TransactionByOffsetTest : public LedgerSuite {
  protected:
    static void SetUpTestSuite() { serve_default_network(); }

    static http::Response post(const json& body, const std::string& user = "alice") {
        return LedgerSuite::post("/v2/updates/transaction-by-offset", body, user);
    }

    static json format(const std::string& party, const char* shape,
                       json cumulative = json::array()) {
        json by_party = json::object();
        by_party[party] = {{"cumulative", cumulative}};
        json event_format = json::object();
        event_format["filtersByParty"] = by_party;
        return {{"eventFormat", event_format}, {"transactionShape", shape}};
    }
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

const std::string holding_id =
    "718a0f77e505a8de22f188bd4c87fe74101274e9d4cb1bfac7d09aec7158d35b:Splice.Api.Token.HoldingV1:"
    "Holding";
const std::string splice_amulet_id =
    "dbeda50efee6c5e53959638ef5422116723a9a6137fcdd4d2d82544291726a88";

json interface_filter(const std::string& interface_id, bool view, bool blob = false) {
    return {{"identifierFilter",
             {{"InterfaceFilter",
               {{"value",
                 {{"interfaceId", interface_id},
                  {"includeInterfaceView", view},
                  {"includeCreatedEventBlob", blob}}}}}}}};
}

// Offset 6: alice locks 300 of alice-coin-1: the coin is archived, a LockedAmulet and the change
// Amulet are created.
TEST_F(TransactionByOffsetTest, HoldingInterfaceFilterRendersTheHoldingViews) {
    const json cumulative = json::array({interface_filter(
        "#splice-api-token-holding-v1:Splice.Api.Token.HoldingV1:Holding", true)});

    const http::Response r =
        post({{"offset", 6},
              {"transactionFormat", format(alice, "TRANSACTION_SHAPE_ACS_DELTA", cumulative)}});

    ASSERT_EQ(r.status, 200) << r.body;
    const json events = json::parse(r.body)["transaction"]["events"];
    ASSERT_EQ(events.size(), 3U) << events.dump();
    const json archived = events[0]["ArchivedEvent"];
    EXPECT_EQ(archived["implementedInterfaces"], json::array({holding_id}));
    for (const json& e : {events[1]["CreatedEvent"], events[2]["CreatedEvent"]}) {
        ASSERT_EQ(e["interfaceViews"].size(), 1U) << e.dump();
        const json v = e["interfaceViews"][0];
        EXPECT_EQ(v["interfaceId"], holding_id);
        EXPECT_EQ(v["viewStatus"], json::parse(R"({"code":0,"message":"","details":[]})"));
        EXPECT_EQ(v["implementationPackageId"], splice_amulet_id);
        EXPECT_EQ(v["viewValue"]["owner"], alice);
        EXPECT_EQ(v["viewValue"]["instrumentId"]["id"], "Amulet");
        EXPECT_EQ(e["createdEventBlob"], "");
    }
    const json locked =
        events[1]["CreatedEvent"]["templateId"] == splice_amulet_id + ":Splice.Amulet:LockedAmulet"
            ? events[1]["CreatedEvent"]
            : events[2]["CreatedEvent"];
    EXPECT_EQ(locked["interfaceViews"][0]["viewValue"]["amount"], "300.0000000000");
    EXPECT_FALSE(locked["interfaceViews"][0]["viewValue"]["lock"].is_null());
}

// implementedInterfaces is for consuming exercises only; views only on creates.
TEST_F(TransactionByOffsetTest, LedgerEffectsListsInterfacesOnConsumingExercises) {
    const json cumulative = json::array({interface_filter(
        "#splice-api-token-holding-v1:Splice.Api.Token.HoldingV1:Holding", true)});

    const http::Response r = post(
        {{"offset", 6},
         {"transactionFormat", format(alice, "TRANSACTION_SHAPE_LEDGER_EFFECTS", cumulative)}});

    ASSERT_EQ(r.status, 200) << r.body;
    int consuming = 0;
    const json events = json::parse(r.body)["transaction"]["events"];
    for (const json& e : events) {
        if (e.contains("ExercisedEvent")) {
            const json& x = e["ExercisedEvent"];
            EXPECT_TRUE(x["templateId"].get<std::string>().ends_with(":Splice.Amulet:Amulet"))
                << x.dump();  // the AmuletRules exercise is no holding: filtered out
            EXPECT_EQ(x["implementedInterfaces"],
                      x["consuming"] ? json::array({holding_id}) : json::array());
            consuming += x["consuming"].get<bool>() ? 1 : 0;
        } else {
            EXPECT_EQ(e["CreatedEvent"]["interfaceViews"].size(), 1U);
        }
    }
    EXPECT_EQ(consuming, 1);
}

TEST_F(TransactionByOffsetTest, InterfaceFilterWithoutViewMatchesButRendersNoView) {
    const json cumulative = json::array({interface_filter(
        "#splice-api-token-holding-v1:Splice.Api.Token.HoldingV1:Holding", false, true)});

    const http::Response r =
        post({{"offset", 6},
              {"transactionFormat", format(alice, "TRANSACTION_SHAPE_ACS_DELTA", cumulative)}});

    ASSERT_EQ(r.status, 200) << r.body;
    const json events = json::parse(r.body)["transaction"]["events"];
    ASSERT_EQ(events.size(), 3U);
    EXPECT_EQ(events[0]["ArchivedEvent"]["implementedInterfaces"], json::array());
    EXPECT_EQ(events[1]["CreatedEvent"]["interfaceViews"], json::array());
    EXPECT_NE(events[1]["CreatedEvent"]["createdEventBlob"], "");  // the filter asked for it
}

TEST_F(TransactionByOffsetTest, InterfaceFilterOfAnInterfaceNoTemplateOfTheTxImplementsHidesIt) {
    const json cumulative = json::array({interface_filter(
        "#splice-api-token-transfer-instruction-v1:Splice.Api.Token.TransferInstructionV1:"
        "TransferFactory",
        true)});

    const http::Response r =
        post({{"offset", 6},
              {"transactionFormat", format(alice, "TRANSACTION_SHAPE_ACS_DELTA", cumulative)}});

    EXPECT_EQ(r.status, 404) << r.body;
}

TEST_F(TransactionByOffsetTest, UnionOfTemplateAndInterfaceFiltersShowsBoth) {
    // Offset 11: alice's transfer offer; offset 6 has her holdings. A template filter for the
    // offer together with the Holding interface filter matches both kinds.
    const json cumulative = {
        {{"identifierFilter",
          {{"TemplateFilter",
            {{"value",
              {{"templateId", "#splice-wallet:Splice.Wallet.TransferOffer:TransferOffer"}}}}}}}},
        interface_filter("#splice-api-token-holding-v1:Splice.Api.Token.HoldingV1:Holding", true)};
    const json shape = format(alice, "TRANSACTION_SHAPE_ACS_DELTA", cumulative);

    EXPECT_EQ(post({{"offset", 6}, {"transactionFormat", shape}}).status, 200);
    const http::Response r = post({{"offset", 11}, {"transactionFormat", shape}});
    ASSERT_EQ(r.status, 200) << r.body;
    const json created = json::parse(r.body)["transaction"]["events"][0]["CreatedEvent"];
    EXPECT_EQ(created["interfaceViews"], json::array());  // an offer is no holding
}

TEST_F(TransactionByOffsetTest, ExternalPartyAmuletRulesRendersTheTransferFactoryView) {
    const json cumulative = json::array({interface_filter(
        "#splice-api-token-transfer-instruction-v1:Splice.Api.Token.TransferInstructionV1:"
        "TransferFactory",
        true)});
    const json any = {{"offset", 1},
                      {"transactionFormat",
                       {{"transactionShape", "TRANSACTION_SHAPE_ACS_DELTA"},
                        {"eventFormat", {{"filtersForAnyParty", {{"cumulative", cumulative}}}}}}}};

    const http::Response r = post(any, "auditor");

    ASSERT_EQ(r.status, 200) << r.body;
    const json events = json::parse(r.body)["transaction"]["events"];
    ASSERT_EQ(events.size(), 1U);
    const json view = events[0]["CreatedEvent"]["interfaceViews"][0];
    EXPECT_EQ(view["interfaceId"],
              "55ba4deb0ad4662c4168b39859738a0e91388d252286480c7331b3f71a517281:Splice.Api.Token."
              "TransferInstructionV1:TransferFactory");
    EXPECT_EQ(view["viewValue"]["meta"], json::parse(R"({"values":{}})"));
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

// ParticipantOffsetValidator's error is a ContextualizedDamlError: no definite_answer in context.
TEST_F(TransactionByOffsetTest, NonPositiveOffsetHasNoDefiniteAnswer) {
    const json e = json::parse(post({{"offset", -3}, {"requestingParties", {alice}}}).body);

    EXPECT_EQ(e["code"], "NON_POSITIVE_OFFSET");
    EXPECT_FALSE(e["context"].contains("definite_answer")) << e.dump();
    EXPECT_EQ(e["context"]["category"], "8");
    const json missing = json::parse(
        post({{"offset", 2},
              {"transactionFormat", {{"transactionShape", "TRANSACTION_SHAPE_ACS_DELTA"}}}})
            .body);
    EXPECT_EQ(missing["code"], "MISSING_FIELD");
    EXPECT_EQ(missing["context"]["definite_answer"], "false");
}

TEST_F(TransactionByOffsetTest, UnknownInterfaceIsNotFound) {
    const auto post_interface = [&](const std::string& id) {
        return post({{"offset", 6},
                     {"transactionFormat", format(alice, "TRANSACTION_SHAPE_ACS_DELTA",
                                                  json::array({interface_filter(id, true)}))}});
    };

    const http::Response unknown =
        post_interface("#splice-api-token-holding-v1:Splice.Api.Token.HoldingV1:Wallet");
    ASSERT_EQ(unknown.status, 404) << unknown.body;
    EXPECT_EQ(json::parse(unknown.body)["code"],
              "NO_INTERFACE_FOR_PACKAGE_NAME_AND_QUALIFIED_NAME");
    EXPECT_EQ(json::parse(unknown.body)["cause"],
              "The following package-name/interface qualified-name pairs do not reference any "
              "interface-id uploaded on this participant: "
              "[(splice-api-token-holding-v1,Splice.Api.Token.HoldingV1:Wallet)].");

    const http::Response package = post_interface("#no-such-package:A:B");
    ASSERT_EQ(package.status, 404);
    EXPECT_EQ(json::parse(package.body)["code"], "PACKAGE_NAMES_NOT_FOUND");

    // A template is not an interface.
    EXPECT_EQ(post_interface("#splice-amulet:Splice.Amulet:Amulet").status, 404);
}

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
}  // namespace cantonlite::areas::ledger::transaction_by_offset_test
