// The token-standard registry's metadata API on Scan's root (splice-api-token-metadata-v1:
// GET /registry/metadata/v1/info, /instruments, /instruments/{instrumentId}), as Splice's
// HttpTokenStandardMetadataHandler answers: the DSO as admin, one instrument "Amulet" with 10
// decimals, its supply from the latest ACS snapshot; guardrail's encoders write an absent optional
// field as null, compactly. No token is needed. And the transfer-instruction API's transfer
// factory (POST /registry/transfer-instruction/v1/transfer-factory), as Splice's
// HttpTokenStandardTransferInstructionHandler.getTransferFactory answers.
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "areas/scan/scan_test_support.hpp"

namespace cantonlite::areas::scan::registry_test {
namespace {

using namespace scantest;  // NOLINT: the shared test network, steps and readers

const std::string info_path = "/registry/metadata/v1/info";
const std::string instruments_path = "/registry/metadata/v1/instruments";

// alice 100 (30 of it locked), bob 50, snapshot; then carol's 7, after the snapshot.
json supply_seed() {
    return seed_with({at(mint("alice", "100", "alice-coin"), "2025-01-01T01:00:00Z"),
                      at(mint("bob", "50.25", "bob-coin"), "2025-01-01T02:00:00Z"),
                      lock("alice-coin", "30", "alice-locked", "alice-change"),
                      snapshot_at("2025-01-02T00:00:00Z"),
                      at(mint("carol", "7", "carol-coin"), "2025-01-02T10:00:00Z")});
}

const ScanClient& api() {
    static const ScanClient client(supply_seed());
    return client;
}

const ScanClient& without_snapshot() {
    static const ScanClient client(seed_with({mint("alice", "100", "alice-coin")}));
    return client;
}

// The five v1 APIs the Amulet instrument implements, each at version 1.
const json supported_apis = {{"splice-api-token-metadata-v1", 1},
                             {"splice-api-token-holding-v1", 1},
                             {"splice-api-token-transfer-instruction-v1", 1},
                             {"splice-api-token-allocation-v1", 1},
                             {"splice-api-token-allocation-instruction-v1", 1}};

json amulet(json total_supply, json as_of) {
    return {{"id", "Amulet"},
            {"name", "Amulet"},
            {"symbol", "AMT"},
            {"totalSupply", std::move(total_supply)},
            {"totalSupplyAsOf", std::move(as_of)},
            {"decimals", 10},
            {"supportedApis", supported_apis}};
}

TEST(RegistryInfo, NamesTheDsoAsAdminAndTheMetadataApi) {
    const Response response = api().get(info_path);

    ASSERT_EQ(response.status, 200) << response.body;
    EXPECT_EQ(response.content_type, "application/json");
    EXPECT_EQ(response.body,
              R"({"adminId":")" + dso + R"(","supportedApis":{"splice-api-token-metadata-v1":1}})");
}

TEST(RegistryInfo, IgnoresABearerToken) {
    EXPECT_EQ(api().get(info_path, {{"Authorization", "Bearer x.y.z"}}).status, 200);
}

// The latest snapshot's amulets, locked and unlocked: carol's mint came after it.
TEST(RegistryInstruments, ListsAmuletWithTheLatestSnapshotsSupply) {
    const Response response = api().get(instruments_path);

    ASSERT_EQ(response.status, 200) << response.body;
    EXPECT_EQ(
        body_of(response),
        (json{{"instruments", json::array({amulet("150.2500000000", "2025-01-02T00:00:00Z")})},
              {"nextPageToken", nullptr}}));
}

TEST(RegistryInstruments, WritesTheFieldsInTheSchemasOrder) {
    const std::string body = api().get(instruments_path).body;

    EXPECT_TRUE(body.starts_with(R"({"instruments":[{"id":"Amulet","name":"Amulet","symbol":"AMT",)"
                                 R"("totalSupply":"150.2500000000",)"))
        << body;
    EXPECT_TRUE(body.ends_with(R"("decimals":10,"supportedApis":{)"
                               R"("splice-api-token-metadata-v1":1,)"
                               R"("splice-api-token-allocation-v1":1,)"
                               R"("splice-api-token-transfer-instruction-v1":1,)"
                               R"("splice-api-token-holding-v1":1,)"
                               R"("splice-api-token-allocation-instruction-v1":1}}],)"
                               R"("nextPageToken":null})"))
        << body;
}

// Scan never pages the one instrument: pageSize and pageToken are read and ignored.
TEST(RegistryInstruments, IgnoresPageSizeAndPageToken) {
    EXPECT_EQ(api().get(instruments_path + "?pageSize=1&pageToken=abc").body,
              api().get(instruments_path).body);
}

// guardrail declares pageSize an Int (token-metadata-v1.yaml: integer, int32) and reads it with
// Pekko's unmarshaller: PredefinedFromStringUnmarshallers.intFromStringUnmarshaller ("'<v>' is not
// a valid 32-bit signed integer value"), MalformedQueryParamRejection in RejectionHandler.default
// ("The query parameter '<name>' was malformed:\n<message>"), 400 text/plain. Empty is absent.
TEST(RegistryInstruments, AMalformedPageSizeIsPekkosRejection) {
    for (const std::string bad : {"abc", "1.5", "2147483648", " 5"}) {
        const Response r =
            api().get(instruments_path + "?pageSize=" + (bad == " 5" ? std::string("%205") : bad));
        EXPECT_TRUE(is_rejection(r, 400,
                                 "The query parameter 'pageSize' was malformed:\n'" + bad +
                                     "' is not a valid 32-bit signed integer value"))
            << bad;
    }
}

TEST(RegistryInstruments, APageSizeThatIsAnIntOrEmptyIsRead) {
    for (const std::string fine : {"-3", "%2B5", "2147483647", ""}) {
        EXPECT_EQ(api().get(instruments_path + "?pageSize=" + fine).status, 200) << fine;
    }
}

TEST(RegistryInstruments, WithoutASnapshotTheSupplyIsNull) {
    const Response response = without_snapshot().get(instruments_path);

    ASSERT_EQ(response.status, 200) << response.body;
    EXPECT_EQ(body_of(response).at("instruments").at(0), amulet(nullptr, nullptr));
}

TEST(RegistryInstrument, AmuletIsFoundById) {
    const Response response = api().get(instruments_path + "/Amulet");

    ASSERT_EQ(response.status, 200) << response.body;
    EXPECT_EQ(body_of(response), amulet("150.2500000000", "2025-01-02T00:00:00Z"));
}

TEST(RegistryInstrument, AnotherIdIsNotFound) {
    const Response response = api().get(instruments_path + "/CantonCoin");

    EXPECT_EQ(response.body, R"({"error":"No instrument with id CantonCoin found"})");
    EXPECT_TRUE(is_error(response, 404, "No instrument with id CantonCoin found"));
}

TEST(RegistryInstrument, TheIdIsCaseSensitive) {
    EXPECT_EQ(api().get(instruments_path + "/amulet").status, 404);
}

// ---- POST /registry/transfer-instruction/v1/transfer-factory --------------------------------

const std::string factory_path = "/registry/transfer-instruction/v1/transfer-factory";

json open_round(int round, const std::string& at_time, const std::string& label) {
    return {{"step", "open_mining_round"}, {"at", at_time}, {"round", round}, {"as", label}};
}

json preapproval_for(const std::string& receiver) {
    return {{"step", "create_transfer_preapproval"},
            {"receiver", receiver},
            {"provider", "provider"},
            {"expires_at", "2030-01-01T00:00:00Z"},
            {"as", receiver + "-preapproval"}};
}

// Round 6 opened at 01:00; round 7 opens at 01:20, after the ledger clock (01:16); bob has a
// preapproval.
json factory_seed() {
    json later = open_round(7, "2025-01-01T01:10:00Z", "round-7");
    later["opens_at"] = "2025-01-01T01:20:00Z";
    return seed_with({open_round(6, "2025-01-01T01:00:00Z", "round-6"), later,
                      at(preapproval_for("bob"), "2025-01-01T01:15:00Z"),
                      at(mint("alice", "100", "alice-coin"), "2025-01-01T01:16:00Z")});
}

const ScanClient& factory_api() {
    static const ScanClient client(factory_seed());
    return client;
}

// The same network once the clock has passed round 7's opening.
const ScanClient& later_api() {
    static const ScanClient client([] {
        json seed = factory_seed();
        seed["steps"].push_back(advance_time_to("2025-01-01T02:00:00Z"));
        return seed;
    }());
    return client;
}

// TransferFactory_Transfer in Daml-LF JSON, as the wallet SDK writes it.
json transfer_args(const std::string& sender, const std::string& receiver) {
    return {{"expectedAdmin", dso},
            {"transfer",
             {{"sender", sender},
              {"receiver", receiver},
              {"amount", "10.5"},
              {"instrumentId", {{"admin", dso}, {"id", "Amulet"}}},
              {"requestedAt", "2025-01-01T01:00:00Z"},
              {"executeBefore", "2025-01-02T01:00:00Z"},
              {"inputHoldingCids", {"00ab12"}},
              {"meta", {{"values", {{"splice.lfdecentralizedtrust.org/reason", "lunch"}}}}}}},
            {"extraArgs",
             {{"context", {{"values", json::object()}}}, {"meta", {{"values", json::object()}}}}}};
}

json factory_request(const std::string& sender, const std::string& receiver) {
    return {{"choiceArguments", transfer_args(sender, receiver)}};
}

// The only contract of `entity` the network created.
model::ContractPtr only(const ScanClient& client, const std::string& entity) {
    const std::vector<model::ContractPtr> found = all_created(client.store(), entity);
    if (found.size() != 1) throw std::runtime_error("not one " + entity);
    return found.front();
}

model::ContractPtr round_numbered(const ScanClient& client, std::int64_t number) {
    for (const model::ContractPtr& c : all_created(client.store(), "OpenMiningRound")) {
        if (model::field_at(c->argument, {"round", "number"})->number == number) return c;
    }
    throw std::runtime_error("no round " + std::to_string(number));
}

// DisclosedContract as the ChoiceContextBuilder writes it, debug fields and all.
nlohmann::ordered_json disclosed(const model::Contract& c) {
    return {{"templateId", c.template_id().to_string()},
            {"contractId", c.contract_id.str()},
            {"createdEventBlob", model::created_event_blob(c)},
            {"synchronizerId", global_synchronizer},
            {"debugPackageName", c.template_id().package_name.str()},
            {"debugPayload", nlohmann::ordered_json::parse(model::value_json(
                                 c.argument, model::ValueEncoding::api_compressed))},
            {"debugCreatedAt", model::format_offset_date_time(c.created_at)}};
}

nlohmann::ordered_json contract_id_value(const model::Contract& c) {
    return {{"tag", "AV_ContractId"}, {"value", c.contract_id.str()}};
}

// Bob has a preapproval: a direct transfer, whose context names it first (Scala's HashMap order),
// and whose disclosed contracts are the rules, the round, the preapproval, then the factory.
TEST(TransferFactory, ADirectTransferWithScansBytes) {
    const ScanClient& client = factory_api();
    const model::ContractPtr rules = only(client, "AmuletRules");
    const model::ContractPtr round = round_numbered(client, 6);
    const model::ContractPtr preapproval = only(client, "TransferPreapproval");
    const model::ContractPtr factory = only(client, "ExternalPartyAmuletRules");

    const Response response = client.post(factory_path, factory_request(alice, bob));

    ASSERT_EQ(response.status, 200) << response.body;
    EXPECT_EQ(response.content_type, "application/json");
    const nlohmann::ordered_json expected = {
        {"factoryId", factory->contract_id.str()},
        {"transferKind", "direct"},
        {"choiceContext",
         {{"choiceContextData",
           {{"values",
             {{"transfer-preapproval", contract_id_value(*preapproval)},
              {"open-round", contract_id_value(*round)},
              {"amulet-rules", contract_id_value(*rules)}}}}},
          {"disclosedContracts",
           {disclosed(*rules), disclosed(*round), disclosed(*preapproval), disclosed(*factory)}}}}};
    EXPECT_EQ(response.body, expected.dump());
}

// The preapproval's provider is a featured app: its FeaturedAppRight joins the context (last, in
// Scala's HashMap order) and the disclosed contracts (after the round, before the preapproval),
// as the builder's addOptionalContracts("featured-app-right", "transfer-preapproval") adds them.
TEST(TransferFactory, AFeaturedPreapprovalProviderAddsItsRight) {
    const ScanClient client([] {
        json seed = factory_seed();
        seed["steps"].push_back(
            at({{"step", "feature_app"}, {"provider", "alice"}}, "2025-01-01T01:16:30Z"));
        seed["steps"].push_back(
            at({{"step", "feature_app"}, {"provider", "provider"}}, "2025-01-01T01:17:00Z"));
        return seed;
    }());
    const model::ContractPtr rules = only(client, "AmuletRules");
    const model::ContractPtr round = round_numbered(client, 6);
    const model::ContractPtr preapproval = only(client, "TransferPreapproval");
    const model::ContractPtr factory = only(client, "ExternalPartyAmuletRules");
    model::ContractPtr right;
    for (const model::ContractPtr& c : all_created(client.store(), "FeaturedAppRight")) {
        if (model::field_at(c->argument, {"provider"})->text == provider) right = c;
    }
    ASSERT_NE(right, nullptr);

    const Response response = client.post(factory_path, factory_request(alice, bob));

    ASSERT_EQ(response.status, 200) << response.body;
    const nlohmann::ordered_json expected = {
        {"factoryId", factory->contract_id.str()},
        {"transferKind", "direct"},
        {"choiceContext",
         {{"choiceContextData",
           {{"values",
             {{"transfer-preapproval", contract_id_value(*preapproval)},
              {"open-round", contract_id_value(*round)},
              {"amulet-rules", contract_id_value(*rules)},
              {"featured-app-right", contract_id_value(*right)}}}}},
          {"disclosedContracts",
           {disclosed(*rules), disclosed(*round), disclosed(*right), disclosed(*preapproval),
            disclosed(*factory)}}}}};
    EXPECT_EQ(response.body, expected.dump());

    // No preapproval, no right looked up: an offer to carol and alice's self-transfer have none.
    for (const std::string& receiver : {carol, alice}) {
        const json body = body_of(client.post(factory_path, factory_request(alice, receiver)));
        EXPECT_FALSE(body.at("choiceContext")
                         .at("choiceContextData")
                         .at("values")
                         .contains("featured-app-right"))
            << receiver;
    }
}

// Carol has no preapproval: an offer, without one in the context.
TEST(TransferFactory, WithoutAPreapprovalTheTransferIsAnOffer) {
    const ScanClient& client = factory_api();
    const Response response = client.post(factory_path, factory_request(alice, carol));

    ASSERT_EQ(response.status, 200) << response.body;
    const json body = body_of(response);
    EXPECT_EQ(body.at("transferKind"), "offer");
    EXPECT_EQ(body.at("factoryId"), only(client, "ExternalPartyAmuletRules")->contract_id.str());
    const nlohmann::ordered_json values = {
        {"open-round", contract_id_value(*round_numbered(client, 6))},
        {"amulet-rules", contract_id_value(*only(client, "AmuletRules"))}};
    EXPECT_NE(response.body.find(R"("choiceContextData":{"values":)" + values.dump() + "}"),
              std::string::npos)
        << response.body;
    std::vector<std::string> templates;
    for (const json& d : body.at("choiceContext").at("disclosedContracts"))
        templates.push_back(d.at("templateId").get<std::string>().substr(65));
    EXPECT_EQ(templates, (std::vector<std::string>{
                             "Splice.AmuletRules:AmuletRules", "Splice.Round:OpenMiningRound",
                             "Splice.ExternalPartyAmuletRules:ExternalPartyAmuletRules"}));
}

// A self-transfer needs no preapproval, even when the party has one.
TEST(TransferFactory, ASelfTransferIsSelf) {
    for (const std::string& party : {alice, bob}) {
        const Response response = factory_api().post(factory_path, factory_request(party, party));

        ASSERT_EQ(response.status, 200) << response.body;
        const json body = body_of(response);
        EXPECT_EQ(body.at("transferKind"), "self");
        EXPECT_EQ(body.at("choiceContext").at("choiceContextData").at("values").size(), 2U);
        EXPECT_FALSE(body.at("choiceContext")
                         .at("choiceContextData")
                         .at("values")
                         .contains("transfer-preapproval"));
        EXPECT_EQ(body.at("choiceContext").at("disclosedContracts").size(), 3U);
    }
}

TEST(TransferFactory, ExcludeDebugFieldsWritesThemAsNull) {
    json request = factory_request(alice, bob);
    request["excludeDebugFields"] = true;
    const Response response = factory_api().post(factory_path, request);

    ASSERT_EQ(response.status, 200) << response.body;
    const json contracts = body_of(response).at("choiceContext").at("disclosedContracts");
    ASSERT_EQ(contracts.size(), 4U);
    for (const json& d : contracts) {
        EXPECT_EQ(d.size(), 7U);
        EXPECT_TRUE(d.at("debugPackageName").is_null());
        EXPECT_TRUE(d.at("debugPayload").is_null());
        EXPECT_TRUE(d.at("debugCreatedAt").is_null());
        EXPECT_TRUE(d.at("createdEventBlob").is_string());
    }
    EXPECT_NE(response.body.find(R"("synchronizerId":")" + global_synchronizer +
                                 R"(","debugPackageName":null,"debugPayload":null,)"
                                 R"("debugCreatedAt":null})"),
              std::string::npos);
}

TEST(TransferFactory, ExcludeDebugFieldsFalseOrNullKeepsThem) {
    for (const json& flag : {json(false), json(nullptr)}) {
        json request = factory_request(alice, bob);
        request["excludeDebugFields"] = flag;

        EXPECT_EQ(factory_api().post(factory_path, request).body,
                  factory_api().post(factory_path, factory_request(alice, bob)).body);
    }
}

// The debug fields: the package name, the payload as Scan writes contracts, the creation time.
TEST(TransferFactory, TheRoundsDebugFieldsAreItsContract) {
    const ScanClient& client = factory_api();
    const json contracts = body_of(client.post(factory_path, factory_request(alice, carol)))
                               .at("choiceContext")
                               .at("disclosedContracts");
    const json round = contracts.at(1);

    EXPECT_EQ(round.at("debugPackageName"), "splice-amulet");
    EXPECT_EQ(round.at("debugCreatedAt"), "2025-01-01T01:00:00Z");
    EXPECT_EQ(round.at("debugPayload").at("round"), (json{{"number", "6"}}));
    EXPECT_EQ(round.at("debugPayload").at("opensAt"), "2025-01-01T01:00:00Z");
    EXPECT_EQ(round.at("debugPayload").at("targetClosesAt"), "2025-01-01T01:20:00Z");
    EXPECT_EQ(round.at("debugPayload").at("dso"), dso);
}

// Scan's lookupLatestUsableOpenMiningRound: the highest round whose opensAt has passed.
TEST(TransferFactory, TheRoundIsTheLatestThatHasOpened) {
    const auto round_in = [](const ScanClient& client) {
        return body_of(client.post(factory_path, factory_request(alice, carol)))
            .at("choiceContext")
            .at("choiceContextData")
            .at("values")
            .at("open-round")
            .at("value");
    };

    EXPECT_EQ(round_in(factory_api()), round_numbered(factory_api(), 6)->contract_id.str());
    EXPECT_EQ(round_in(later_api()), round_numbered(later_api(), 7)->contract_id.str());
}

// A 404 Scan throws (gRPC NOT_FOUND): indented, as HttpErrorHandler prints it.
TEST(TransferFactory, WithoutAnOpenRoundIs404) {
    const ScanClient client(seed_with({mint("alice", "100", "alice-coin")}));

    const Response response = client.post(factory_path, factory_request(alice, bob));

    EXPECT_TRUE(is_error(response, 404, "No open usable OpenMiningRound found."));
    EXPECT_EQ(response.body, "{\n  \"error\" : \"No open usable OpenMiningRound found.\"\n}");
}

// opensAt must be strictly before the clock.
TEST(TransferFactory, ARoundOpeningAtTheClockIsNotUsable) {
    const ScanClient client(seed_with({open_round(3, "2025-01-01T01:00:00Z", "round-3")}));

    EXPECT_TRUE(is_error(client.post(factory_path, factory_request(alice, bob)), 404,
                         "No open usable OpenMiningRound found."));
}

// Scan leaves the admin and the instrument to the ledger.
TEST(TransferFactory, DoesNotCheckTheAdminOrTheInstrument) {
    json request = factory_request(alice, bob);
    request["choiceArguments"]["expectedAdmin"] = "someone::1220ff";
    request["choiceArguments"]["transfer"]["instrumentId"] = {{"admin", "x::1220ee"},
                                                              {"id", "NotAmulet"}};

    const Response response = factory_api().post(factory_path, request);

    ASSERT_EQ(response.status, 200) << response.body;
    EXPECT_EQ(body_of(response).at("transferKind"), "direct");
}

// The Java codegen's decoders also take a record as an array of its fields, numbers for Numeric
// and Int, and every AnyValue constructor.
TEST(TransferFactory, DecodesEveryFormOfTheChoiceArguments) {
    json args = transfer_args(alice, bob);
    args["transfer"]["amount"] = 10.5;
    args["transfer"]["instrumentId"] = {dso, "Amulet"};
    args["extraArgs"]["context"]["values"] = {
        {"text", {{"tag", "AV_Text"}, {"value", "x"}}},
        {"int", {{"tag", "AV_Int"}, {"value", 5}}},
        {"int-text", {{"tag", "AV_Int"}, {"value", "-5"}}},
        {"decimal", {{"value", "1.25"}, {"tag", "AV_Decimal"}}},
        {"bool", {{"tag", "AV_Bool"}, {"value", true}}},
        {"date", {{"tag", "AV_Date"}, {"value", "2024-02-29"}}},
        {"time", {{"tag", "AV_Time"}, {"value", "2025-01-01T00:00:00.123456Z"}}},
        {"reltime", {{"tag", "AV_RelTime"}, {"value", {{"microseconds", "1000"}}}}},
        {"party", {{"tag", "AV_Party"}, {"value", bob}}},
        {"cid", {{"tag", "AV_ContractId"}, {"value", "00cd"}}},
        {"list", {{"tag", "AV_List"}, {"value", {{{"tag", "AV_Bool"}, {"value", false}}}}}},
        {"map", {{"tag", "AV_Map"}, {"value", {{"k", {{"tag", "AV_Text"}, {"value", "v"}}}}}}}};

    const Response response = factory_api().post(factory_path, {{"choiceArguments", args}});

    EXPECT_EQ(response.status, 200) << response.body;
}

struct BadArguments {
    std::string name;
    json arguments;
};

json with_transfer(const std::string& key, json value) {
    json args = transfer_args(alice, bob);
    if (value.is_null() && key != "amount") {
        args["transfer"].erase(key);
    } else {
        args["transfer"][key] = std::move(value);
    }
    return args;
}

class TransferFactoryBadArguments : public testing::TestWithParam<BadArguments> {};

// Scan's INVALID_ARGUMENT, thrown: indented. The text after the colon is cantonlite's.
TEST_P(TransferFactoryBadArguments, Are400) {
    const Response response =
        factory_api().post(factory_path, {{"choiceArguments", GetParam().arguments}});

    ASSERT_TRUE(is_error(response, 400)) << response.body;
    const std::string text = body_of(response).at("error");
    EXPECT_TRUE(text.starts_with(
        "Field `choiceArguments` does not contain a valid `TransferFactory_Transfer`: "))
        << text;
    EXPECT_TRUE(response.body.starts_with("{\n  \"error\" : ")) << response.body;
}

INSTANTIATE_TEST_SUITE_P(
    Arguments, TransferFactoryBadArguments,
    testing::Values(
        BadArguments{"NotAnObject", "transfer"}, BadArguments{"Null", nullptr},
        BadArguments{"Empty", json::object()},
        BadArguments{"MissingSender", with_transfer("sender", nullptr)},
        BadArguments{"MissingMeta", with_transfer("meta", nullptr)},
        BadArguments{"UnknownField", with_transfer("memo", "hi")},
        BadArguments{"AmountNull", with_transfer("amount", nullptr)},
        BadArguments{"AmountNotANumber", with_transfer("amount", "ten")},
        BadArguments{"AmountTooLarge", with_transfer("amount", "1e28")},
        BadArguments{"SenderNotAString", with_transfer("sender", 7)},
        BadArguments{"BadTime", with_transfer("requestedAt", "2025-01-01")},
        BadArguments{"HoldingsNotAList", with_transfer("inputHoldingCids", "00ab")},
        BadArguments{"MetaValueNotText", with_transfer("meta", {{"values", {{"k", 1}}}})},
        BadArguments{"ShortArrayRecord", with_transfer("instrumentId", {dso})},
        BadArguments{
            "UnknownAnyValue",
            [] {
                json args = transfer_args(alice, bob);
                args["extraArgs"]["context"]["values"]["x"] = {{"tag", "AV_Nope"}, {"value", 1}};
                return args;
            }()},
        BadArguments{
            "IntWithAFraction",
            [] {
                json args = transfer_args(alice, bob);
                args["extraArgs"]["context"]["values"]["x"] = {{"tag", "AV_Int"}, {"value", 1.5}};
                return args;
            }()},
        BadArguments{"ImpossibleDate",
                     [] {
                         json args = transfer_args(alice, bob);
                         args["extraArgs"]["context"]["values"]["x"] = {{"tag", "AV_Date"},
                                                                        {"value", "2025-02-29"}};
                         return args;
                     }()},
        BadArguments{"MissingExtraArgs",
                     [] {
                         json args = transfer_args(alice, bob);
                         args.erase("extraArgs");
                         return args;
                     }()}),
    [](const testing::TestParamInfo<BadArguments>& info) { return info.param.name; });

// A newer version's trailing optional field left at None reads as the record without it: the
// wallet SDK's tap sends `transfer.lock: null` (FIDELITY row 82). With a value it is refused
// (UnknownField above).
TEST(TransferFactory, ANullFieldOfANewerVersionIsReadAsAbsent) {
    json args = transfer_args(alice, bob);
    args["transfer"]["lock"] = nullptr;

    const Response response = factory_api().post(factory_path, {{"choiceArguments", args}});

    EXPECT_EQ(response.status, 200) << response.body;
}

// PartyId.tryFromProtoPrimitive of the receiver: Canton's UniqueIdentifier text.
TEST(TransferFactory, AMalformedReceiverIs400) {
    const Response response = factory_api().post(factory_path, factory_request(alice, "bob"));

    EXPECT_TRUE(is_error(response, 400, "Invalid unique identifier `bob` with missing namespace."));
}

// Scan parses only the receiver.
TEST(TransferFactory, AMalformedSenderIsNotChecked) {
    const Response response = factory_api().post(factory_path, factory_request("alice", carol));

    ASSERT_EQ(response.status, 200) << response.body;
    EXPECT_EQ(body_of(response).at("transferKind"), "offer");
}

// The checks in Scan's order: the arguments, the round, then the receiver.
TEST(TransferFactory, WithoutARoundAMalformedReceiverIs404) {
    const ScanClient client(seed_with({mint("alice", "100", "alice-coin")}));

    EXPECT_EQ(client.post(factory_path, factory_request(alice, "bob")).status, 404);
}

// guardrail's decoder of GetFactoryRequest: Pekko's plain-text rejections.
TEST(TransferFactory, ABodyWithoutChoiceArgumentsIsRejected) {
    EXPECT_TRUE(
        is_rejection(factory_api().post(factory_path, {{"excludeDebugFields", true}}), 400,
                     malformed("DecodingFailure at .choiceArguments: Missing required field")));
}

TEST(TransferFactory, ANonBooleanExcludeDebugFieldsIsRejected) {
    json request = factory_request(alice, bob);
    request["excludeDebugFields"] = "yes";

    EXPECT_TRUE(is_rejection(factory_api().post(factory_path, request), 400,
                             malformed("DecodingFailure at .excludeDebugFields: Got value "
                                       "'\"yes\"' with wrong type, expecting 'true' or 'false'")));
}

TEST(TransferFactory, ABodyThatIsNotJsonIsRejected) {
    const Response response = factory_api().send("POST", factory_path, "{not json",
                                                 {{"Content-Type", "application/json"}});

    EXPECT_EQ(response.status, 400);
    EXPECT_TRUE(response.body.starts_with("The request content was malformed:")) << response.body;
}

TEST(TransferFactory, NeedsNoToken) {
    EXPECT_EQ(factory_api()
                  .post(factory_path, factory_request(alice, bob), {{"Authorization", "Bearer x"}})
                  .status,
              200);
}

// ---- the scan-proxy's copy -------------------------------------------------------------------

TEST(ProxyRegistry, NeedsAToken) {
    const Response response = api().get("/api/validator/v0/scan-proxy" + info_path);

    EXPECT_EQ(response.status, 401) << response.body;
}

}  // namespace
}  // namespace cantonlite::areas::scan::registry_test
