// Validator scan-proxy operations: POST /v1/scan-proxy/holdings/summary (op 6),
// GET /v0/scan-proxy/transfer-command-counter/{party} (op 7), the token standard's registry
// (metadata and the transfer factory),
// GET /v0/scan-proxy/ans-entries/by-name/{name} (op 9) and GET /v0/scan-proxy/dso-party-id
// (splice-behavior.md ops 6, 7, 9, 12, §0.5; scan-proxy.yaml). The proxy forwards to Scan: its
// answers equal Scan's, except for the proxy's own 404 texts of ops 6 and 9.
#include <map>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "areas/validator/validator_test_support.hpp"
#include "cantonlite/model/decimal.hpp"

namespace cantonlite::areas::validator::scan_proxy_test {
namespace {

using namespace valtest;  // NOLINT: the validator test network, steps and tokens
using model::Decimal;
using scantest::alice;
using scantest::all_created;
using scantest::BadBody;
using scantest::bob;
using scantest::body_of;
using scantest::carol;
using scantest::contract_json;
using scantest::da2;
using scantest::dso;
using scantest::is_error;
using scantest::is_rejection;
using scantest::malformed;
using scantest::percent_encoded;
using scantest::provider;
using scantest::sorted_summaries;
using scantest::summary_request;
using scantest::with;

const std::string proxy_summary = "/api/validator/v1/scan-proxy/holdings/summary";
const std::string scan_summary = "/api/scan/v1/holdings/summary";
const std::string scan_state = "/api/scan/v0/holdings/state";
const std::string proxy_counter = "/api/validator/v0/scan-proxy/transfer-command-counter/";
const std::string scan_counter = "/api/scan/v0/transfer-command-counter/";
const std::string proxy_by_name = "/api/validator/v0/scan-proxy/ans-entries/by-name/";
const std::string scan_by_name = "/api/scan/v0/ans-entries/by-name/";
const std::string proxy_dso = "/api/validator/v0/scan-proxy/dso-party-id";
const std::string scan_dso = "/api/scan/v0/dso-party-id";

// The scan-proxy answers with alice's token; Scan needs none.
Response proxy_get(const std::string& target, const ScanClient& client = api()) {
    return client.get(target, {token_of(client, "alice")});
}

Response proxy_post(const std::string& target, const json& body, const ScanClient& client = api()) {
    return client.post(target, body, {token_of(client, "alice")});
}

// Success when both answers have the same status, Content-Type and body, byte for byte.
testing::AssertionResult same_answer(const Response& proxy, const Response& scan) {
    if (proxy.status == scan.status && proxy.content_type == scan.content_type &&
        proxy.body == scan.body) {
        return testing::AssertionSuccess();
    }
    return testing::AssertionFailure()
           << "proxy: " << proxy.status << " '" << proxy.content_type << "' " << proxy.body
           << "\nscan:  " << scan.status << " '" << scan.content_type << "' " << scan.body;
}

json summary(const std::string& party, const std::string& unlocked, const std::string& locked,
             const std::string& total) {
    return {{"party_id", party},
            {"total_unlocked_coin", unlocked},
            {"total_locked_coin", locked},
            {"total_coin_holdings", total}};
}

// ---- POST /v1/scan-proxy/holdings/summary ---------------------------------------------------

TEST(ProxyHoldingsSummary, SumsInitialAmountsPerOwner) {
    const Response response =
        proxy_post(proxy_summary, summary_request(0, first_snapshot, {alice, bob}));

    ASSERT_EQ(response.status, 200) << response.body;
    EXPECT_EQ(response.content_type, "application/json");
    const json body = body_of(response);
    EXPECT_EQ(body.at("record_time"), first_snapshot);
    EXPECT_EQ(body.at("migration_id"), 0);
    EXPECT_EQ(sorted_summaries(body),
              (json{summary(alice, "70.0000000000", "30.0000000000", "100.0000000000"),
                    summary(bob, "50.0000000000", "0.0000000000", "50.0000000000")}));
    EXPECT_EQ(body.size(), 3U);
}

struct SummaryCase {
    std::string name;
    json request;
};

class ProxyHoldingsSummaryLikeScan : public testing::TestWithParam<SummaryCase> {};

TEST_P(ProxyHoldingsSummaryLikeScan, AnswersScansBytes) {
    const Response proxy = proxy_post(proxy_summary, GetParam().request);
    const Response scan = api().post(scan_summary, GetParam().request);

    EXPECT_EQ(proxy.status, 200) << proxy.body;
    EXPECT_TRUE(same_answer(proxy, scan));
}

INSTANTIATE_TEST_SUITE_P(
    Requests, ProxyHoldingsSummaryLikeScan,
    testing::Values(
        SummaryCase{"Exact", summary_request(0, first_snapshot, {alice, bob})},
        SummaryCase{"SecondSnapshot", summary_request(0, second_snapshot, {bob, alice})},
        SummaryCase{"ExplicitExact", with(summary_request(0, second_snapshot, {alice}),
                                          "record_time_match", "exact")},
        SummaryCase{"AtOrBefore", with(summary_request(0, "2025-01-02T23:00:00Z", {alice, bob}),
                                       "record_time_match", "at_or_before")},
        SummaryCase{"AtOrBeforeLaterMigration",
                    with(summary_request(1, "2030-01-01T00:00:00Z", {alice, bob, carol}),
                         "record_time_match", "at_or_before")},
        SummaryCase{"Migration1", summary_request(1, migrated_snapshot, {alice})},
        SummaryCase{"PartiesWithoutHoldings",
                    summary_request(0, first_snapshot, {carol, provider})},
        SummaryCase{"Dso", summary_request(0, first_snapshot, {dso})},
        SummaryCase{"APartyTwice", summary_request(0, first_snapshot, {bob, bob})},
        SummaryCase{"AValidPartyWithoutHoldings",
                    summary_request(0, first_snapshot, {"alice::dummy"})}),
    [](const testing::TestParamInfo<SummaryCase>& info) { return info.param.name; });

TEST(ProxyHoldingsSummary, AtOrBeforeAnswersWithTheSnapshotsRecordTime) {
    const json request = with(summary_request(0, "2025-01-02T23:00:00Z", {alice}),
                              "record_time_match", "at_or_before");

    const Response response = proxy_post(proxy_summary, request);

    ASSERT_EQ(response.status, 200) << response.body;
    EXPECT_EQ(body_of(response).at("record_time"), first_snapshot);
}

Decimal decimal(const json& text) {
    const auto d = Decimal::parse(text.get<std::string>());
    if (!d) throw std::runtime_error("not a decimal: " + text.dump());
    return *d;
}

// What a client computes from every page of Scan's holdings state (op 3): initial amounts per
// owner, parties without holdings left out.
json aggregate_of_pages(const json& owners, std::int64_t migration, const std::string& time) {
    std::map<std::string, std::pair<Decimal, Decimal>> totals;  // owner -> (unlocked, locked)
    json request = scantest::holdings_request(migration, time, owners, 1);
    for (int page = 0; page < 100; ++page) {
        const json body = body_of(api().post(scan_state, request));
        for (const json& e : body.at("created_events")) {
            const json& args = e.at("create_arguments");
            const bool locked = e.at("template_id").get<std::string>().ends_with(":LockedAmulet");
            const json& amulet = locked ? args.at("amulet") : args;
            auto& [unlocked_sum, locked_sum] = totals[amulet.at("owner").get<std::string>()];
            Decimal& sum = locked ? locked_sum : unlocked_sum;
            sum = sum + decimal(amulet.at("amount").at("initialAmount"));
        }
        if (body.at("next_page_token").is_null()) break;
        request["after"] = body.at("next_page_token");
    }
    json out = json::array();
    for (const auto& [party, sums] : totals) {
        out.push_back(summary(party, sums.first.to_scaled_string(), sums.second.to_scaled_string(),
                              (sums.first + sums.second).to_scaled_string()));
    }
    return out;
}

struct SnapshotAt {
    std::int64_t migration;
    std::string time;
};

class ProxyHoldingsSummaryOfPages : public testing::TestWithParam<std::tuple<json, SnapshotAt>> {};

TEST_P(ProxyHoldingsSummaryOfPages, EqualsTheAggregateOfTheHoldingsStatePages) {
    const auto& [owners, snapshot] = GetParam();

    const Response response =
        proxy_post(proxy_summary, summary_request(snapshot.migration, snapshot.time, owners));

    ASSERT_EQ(response.status, 200) << response.body;
    EXPECT_EQ(sorted_summaries(body_of(response)),
              aggregate_of_pages(owners, snapshot.migration, snapshot.time));
}

INSTANTIATE_TEST_SUITE_P(
    Owners, ProxyHoldingsSummaryOfPages,
    testing::Combine(testing::Values(json::array({alice}), json::array({bob}), json{alice, bob},
                                     json{alice, provider}, json::array({dso}),
                                     json{carol, bob, alice}),
                     testing::Values(SnapshotAt{0, first_snapshot}, SnapshotAt{0, second_snapshot},
                                     SnapshotAt{1, migrated_snapshot})));

class ProxyHoldingsSummaryNotFound : public testing::TestWithParam<SummaryCase> {};

// HttpScanAppClient maps Scan's 404 to None: the proxy's own text replaces Scan's.
TEST_P(ProxyHoldingsSummaryNotFound, HasTheProxysText) {
    const Response response = proxy_post(proxy_summary, GetParam().request);

    EXPECT_TRUE(is_error(response, 404, "Summary not found for given parameters"));
}

INSTANTIATE_TEST_SUITE_P(
    Requests, ProxyHoldingsSummaryNotFound,
    testing::Values(
        SummaryCase{"ExactMiss", summary_request(0, "2025-01-02T12:00:00Z", {alice})},
        SummaryCase{"AtOrBeforeMiss", with(summary_request(0, "2024-12-31T10:00:00Z", {alice}),
                                           "record_time_match", "at_or_before")},
        SummaryCase{"AtOrBeforeBeforeTheMigrationsFirst",
                    with(summary_request(1, second_snapshot, {alice}), "record_time_match",
                         "at_or_before")},
        SummaryCase{"AnotherMigrationsSnapshotTime", summary_request(1, first_snapshot, {alice})},
        SummaryCase{"UnknownMigration", summary_request(7, first_snapshot, {alice})}),
    [](const testing::TestParamInfo<SummaryCase>& info) { return info.param.name; });

struct BadParty {
    std::string name;
    std::string party;
    std::string error;
};

std::vector<BadParty> bad_parties() {
    return {
        {"MissingNamespace", "foo", "Invalid unique identifier `foo` with missing namespace."},
        {"EmptyIdentifier", "::abc", "Invalid unique identifier `::abc` with empty identifier."},
        {"Empty", "", "Empty string is not a valid unique identifier."}};
}

class ProxyHoldingsSummaryBadParty : public testing::TestWithParam<BadParty> {};

TEST_P(ProxyHoldingsSummaryBadParty, IsRejected) {
    const Response response =
        proxy_post(proxy_summary, summary_request(0, first_snapshot, {alice, GetParam().party}));

    EXPECT_TRUE(is_error(response, 400, GetParam().error));
}

// The proxy parses the parties before it asks Scan for a snapshot.
TEST_P(ProxyHoldingsSummaryBadParty, IsRejectedEvenWithoutSnapshot) {
    const Response response =
        proxy_post(proxy_summary, summary_request(0, "2025-01-02T12:00:00Z", {GetParam().party}));

    EXPECT_TRUE(is_error(response, 400, GetParam().error));
}

INSTANTIATE_TEST_SUITE_P(Parties, ProxyHoldingsSummaryBadParty, testing::ValuesIn(bad_parties()),
                         [](const testing::TestParamInfo<BadParty>& info) {
                             return info.param.name;
                         });

// Scan's other errors come back with Scan's status and message.
TEST(ProxyHoldingsSummary, EmptyOwnerPartyIdsAreRejectedWithScansText) {
    const Response response =
        proxy_post(proxy_summary, summary_request(0, first_snapshot, json::array()));

    EXPECT_TRUE(is_error(response, 400,
                         "Expected 'partyIds' to contain at least one item, but contained none."));
}

// 1000 amulets of 1 for alice, one of 2 for bob, then a snapshot.
const ScanClient& thousand_api() {
    static const ScanClient client([] {
        json steps = json::array();
        for (int i = 0; i < 1000; ++i) {
            steps.push_back(json{{"step", "mint"}, {"owner", "alice"}, {"amount", "1"}});
        }
        steps.push_back(json{{"step", "mint"}, {"owner", "bob"}, {"amount", "2"}});
        steps.push_back(scantest::snapshot_at(first_snapshot));
        return seed_with(steps);
    }());
    return client;
}

TEST(ProxyHoldingsSummary, MoreThanAThousandRowsAreRejectedWithScansText) {
    const json request = summary_request(0, first_snapshot, {alice, bob});

    const Response response = proxy_post(proxy_summary, request, thousand_api());

    EXPECT_TRUE(is_error(response, 400,
                         "Size of the result exceeded the limit in queryAcsSnapshot. Result size: "
                         "1001. Limit: 1000"));
    EXPECT_TRUE(same_answer(response, thousand_api().post(scan_summary, request)));
}

TEST(ProxyHoldingsSummary, AThousandRowsAreSummarised) {
    const Response response =
        proxy_post(proxy_summary, summary_request(0, first_snapshot, {alice}), thousand_api());

    ASSERT_EQ(response.status, 200) << response.body;
    EXPECT_EQ(body_of(response).at("summaries"),
              json::array({summary(alice, "1000.0000000000", "0.0000000000", "1000.0000000000")}));
}

class ProxyHoldingsSummaryBadBody : public testing::TestWithParam<BadBody> {};

// The proxy's own guardrail route decodes the body, after the token (customExtract comes before
// the entity directive).
TEST_P(ProxyHoldingsSummaryBadBody, IsRejected) {
    const Response response = api().send("POST", proxy_summary, GetParam().body,
                                         {token_of(api(), "alice"), scantest::json_type});

    EXPECT_TRUE(is_rejection(response, 400, GetParam().text));
}

INSTANTIATE_TEST_SUITE_P(
    Bodies, ProxyHoldingsSummaryBadBody,
    testing::Values(
        BadBody{"Empty", "", "Request entity expected but not supplied"},
        BadBody{"Truncated", R"({"migration_id":0,)", malformed("exhausted input")},
        BadBody{"NoOwners", R"({"migration_id":0,"record_time":"2025-01-02T00:00:00Z"})",
                malformed("DecodingFailure at .owner_party_ids: Missing required field")},
        BadBody{"NoRecordTime", R"({"migration_id":0,"owner_party_ids":["alice::1220a1"]})",
                malformed("DecodingFailure at .record_time: Missing required field")},
        BadBody{
            "UnknownRecordTimeMatch",
            R"({"migration_id":0,"record_time":"2025-01-02T00:00:00Z",)"
            R"("record_time_match":"nearest","owner_party_ids":["alice::1220a1"]})",
            malformed(
                "DecodingFailure at .record_time_match: nearest not a member of RecordTimeMatch")}),
    [](const testing::TestParamInfo<BadBody>& info) { return info.param.name; });

// ---- GET /v0/scan-proxy/transfer-command-counter/{party} ------------------------------------

model::ContractPtr counter(std::size_t n) {
    return all_created(api().store(), "TransferCommandCounter").at(n);
}

TEST(ProxyTransferCommandCounter, IsTheSendersCounterWithItsSynchronizer) {
    const Response response = proxy_get(proxy_counter + alice);

    EXPECT_EQ(response.status, 200);
    EXPECT_EQ(response.content_type, "application/json");
    EXPECT_EQ(body_of(response), (json{{"transfer_command_counter",
                                        {{"contract", contract_json(*counter(0))},
                                         {"domain_id", scantest::global_synchronizer}}}}));
}

TEST(ProxyTransferCommandCounter, InFlightHasANullDomainId) {
    const Response response = proxy_get(proxy_counter + percent_encoded(carol));

    ASSERT_EQ(response.status, 200) << response.body;
    EXPECT_EQ(body_of(response),
              (json{{"transfer_command_counter",
                     {{"contract", contract_json(*counter(1))}, {"domain_id", nullptr}}}}));
}

class ProxyTransferCommandCounterLikeScan : public testing::TestWithParam<std::string> {};

TEST_P(ProxyTransferCommandCounterLikeScan, AnswersScansBytes) {
    const Response proxy = proxy_get(proxy_counter + GetParam());
    const Response scan = api().get(scan_counter + GetParam());

    EXPECT_EQ(proxy.status, 200) << proxy.body;
    EXPECT_TRUE(same_answer(proxy, scan));
}

INSTANTIATE_TEST_SUITE_P(Parties, ProxyTransferCommandCounterLikeScan,
                         testing::Values(alice, percent_encoded(alice), percent_encoded(carol)));

class ProxyTransferCommandCounterNone : public testing::TestWithParam<std::string> {};

TEST_P(ProxyTransferCommandCounterNone, IsNotFoundWithScansText) {
    const Response response = proxy_get(proxy_counter + percent_encoded(GetParam()));

    EXPECT_TRUE(is_error(
        response, 404,
        "No TransferCommandCounter found for party: " + GetParam() + ", use 0 for the nonce"));
    EXPECT_TRUE(same_answer(response, api().get(scan_counter + percent_encoded(GetParam()))));
}

INSTANTIATE_TEST_SUITE_P(Parties, ProxyTransferCommandCounterNone,
                         testing::Values(bob, dso, "nobody::1220ff", "alice::dummy"));

class ProxyTransferCommandCounterBadParty : public testing::TestWithParam<BadParty> {};

TEST_P(ProxyTransferCommandCounterBadParty, IsRejected) {
    const Response response = proxy_get(proxy_counter + percent_encoded(GetParam().party));

    EXPECT_TRUE(is_error(response, 400, GetParam().error));
}

INSTANTIATE_TEST_SUITE_P(
    Parties, ProxyTransferCommandCounterBadParty,
    testing::Values(BadParty{"MissingNamespace", "foo",
                             "Invalid unique identifier `foo` with missing namespace."},
                    BadParty{"EmptyIdentifier", "::abc",
                             "Invalid unique identifier `::abc` with empty identifier."}),
    [](const testing::TestParamInfo<BadParty>& info) { return info.param.name; });

// ---- GET /v0/scan-proxy/transfer-preapprovals/by-party/{party} -------------------------------

const std::string proxy_preapproval =
    "/api/validator/v0/scan-proxy/transfer-preapprovals/by-party/";
const std::string scan_preapproval = "/api/scan/v0/transfer-preapprovals/by-party/";

TEST(ProxyTransferPreapproval, IsScansAnswerForTheReceiver) {
    const Response proxy = proxy_get(proxy_preapproval + percent_encoded(alice));

    ASSERT_EQ(proxy.status, 200) << proxy.body;
    EXPECT_EQ(body_of(proxy).at("transfer_preapproval").at("contract"),
              contract_json(*all_created(api().store(), "TransferPreapproval").at(0)));
    EXPECT_TRUE(same_answer(proxy, api().get(scan_preapproval + percent_encoded(alice))));
}

// The wallet SDK reads a 404 whose error starts "No TransferPreapproval found for party" as "none".
TEST(ProxyTransferPreapproval, NoneIsScansNotFound) {
    const Response proxy = proxy_get(proxy_preapproval + bob);

    EXPECT_TRUE(is_error(proxy, 404, "No TransferPreapproval found for party: " + bob));
    EXPECT_TRUE(same_answer(proxy, api().get(scan_preapproval + bob)));
}

TEST(ProxyTransferPreapproval, AMalformedPartyIsRejected) {
    const Response proxy = proxy_get(proxy_preapproval + "foo");

    EXPECT_TRUE(is_error(proxy, 400, "Invalid unique identifier `foo` with missing namespace."));
}

// ---- the token-standard registry under the scan-proxy ---------------------------------------

class ProxyRegistryLikeScan : public testing::TestWithParam<std::string> {};

// HttpTokenStandardScanProxyHandler passes Scan's answer through, 404s included.
TEST_P(ProxyRegistryLikeScan, AnswersScansBytes) {
    const Response proxy = proxy_get("/api/validator/v0/scan-proxy" + GetParam());
    const Response scan = api().get(GetParam());

    EXPECT_TRUE(same_answer(proxy, scan));
}

INSTANTIATE_TEST_SUITE_P(Paths, ProxyRegistryLikeScan,
                         testing::Values("/registry/metadata/v1/info",
                                         "/registry/metadata/v1/instruments",
                                         "/registry/metadata/v1/instruments/Amulet",
                                         "/registry/metadata/v1/instruments/Nope"));

TEST(ProxyRegistry, TheInstrumentsNameTheSnapshotsSupply) {
    const json body =
        body_of(proxy_get("/api/validator/v0/scan-proxy/registry/metadata/v1/instruments"));

    EXPECT_EQ(body.at("instruments").at(0).at("id"), "Amulet");
    EXPECT_TRUE(body.at("instruments").at(0).at("totalSupply").is_string());
}

// ---- POST /v0/scan-proxy/registry/transfer-instruction/v1/transfer-factory -----------------

const std::string factory_path = "/registry/transfer-instruction/v1/transfer-factory";
const std::string proxy_factory = "/api/validator/v0/scan-proxy" + factory_path;

// A usable open round and bob's preapproval.
const ScanClient& factory_network() {
    static const ScanClient client(
        seed_with({{{"step", "open_mining_round"}, {"at", "2025-01-01T01:00:00Z"}, {"as", "round"}},
                   {{"step", "create_transfer_preapproval"},
                    {"receiver", "bob"},
                    {"expires_at", "2030-01-01T00:00:00Z"}},
                   scantest::advance_time_to("2025-01-02T00:00:00Z")}));
    return client;
}

json factory_request(const std::string& sender, const std::string& receiver) {
    return {
        {"choiceArguments",
         {{"expectedAdmin", dso},
          {"transfer",
           {{"sender", sender},
            {"receiver", receiver},
            {"amount", "1.5"},
            {"instrumentId", {{"admin", dso}, {"id", "Amulet"}}},
            {"requestedAt", "2025-01-01T23:00:00Z"},
            {"executeBefore", "2025-01-03T00:00:00Z"},
            {"inputHoldingCids", json::array()},
            {"meta", {{"values", json::object()}}}}},
          {"extraArgs",
           {{"context", {{"values", json::object()}}}, {"meta", {{"values", json::object()}}}}}}}};
}

struct FactoryCase {
    std::string name;
    json request;
};

class ProxyTransferFactoryLikeScan : public testing::TestWithParam<FactoryCase> {};

// HttpTokenStandardScanProxyHandler passes Scan's answer through, errors included.
TEST_P(ProxyTransferFactoryLikeScan, AnswersScansBytes) {
    const Response proxy = proxy_post(proxy_factory, GetParam().request, factory_network());
    const Response scan = factory_network().post(factory_path, GetParam().request);

    EXPECT_TRUE(same_answer(proxy, scan));
}

INSTANTIATE_TEST_SUITE_P(
    Requests, ProxyTransferFactoryLikeScan,
    testing::Values(FactoryCase{"Direct", factory_request(alice, bob)},
                    FactoryCase{"Offer", factory_request(alice, carol)},
                    FactoryCase{"Self", factory_request(bob, bob)},
                    FactoryCase{"ExcludeDebugFields",
                                with(factory_request(alice, bob), "excludeDebugFields", true)},
                    FactoryCase{"BadChoiceArguments", {{"choiceArguments", {{"transfer", 1}}}}},
                    FactoryCase{"MalformedReceiver", factory_request(alice, "bob")},
                    FactoryCase{"NoChoiceArguments", {{"excludeDebugFields", false}}}),
    [](const testing::TestParamInfo<FactoryCase>& info) { return info.param.name; });

TEST(ProxyTransferFactory, AnswersWithTheChoiceContext) {
    const Response response =
        proxy_post(proxy_factory, factory_request(alice, bob), factory_network());

    ASSERT_EQ(response.status, 200) << response.body;
    const json body = body_of(response);
    EXPECT_EQ(body.at("transferKind"), "direct");
    EXPECT_EQ(body.at("choiceContext").at("disclosedContracts").size(), 4U);
}

// The validator network has no open round: Scan's 404, passed through.
TEST(ProxyTransferFactory, WithoutARoundIsScans404) {
    const Response proxy = proxy_post(proxy_factory, factory_request(alice, bob));

    EXPECT_TRUE(is_error(proxy, 404, "No open usable OpenMiningRound found."));
    EXPECT_TRUE(same_answer(proxy, api().post(factory_path, factory_request(alice, bob))));
}

TEST(ProxyTransferFactory, NeedsAToken) {
    const Response missing = factory_network().post(proxy_factory, factory_request(alice, bob));
    const Response invalid = factory_network().post(proxy_factory, factory_request(alice, bob),
                                                    {{"Authorization", "Bearer x.y.z"}});

    EXPECT_TRUE(is_unauthorized(missing, missing_text, valtest::scan_proxy_realm));
    EXPECT_TRUE(is_unauthorized(invalid, invalid_text, valtest::scan_proxy_realm));
}

// ---- GET /v0/scan-proxy/ans-entries/by-name/{name} ------------------------------------------

json dso_provided(const std::string& user, const std::string& name) {
    return {{"entry",
             {{"contract_id", nullptr},
              {"user", user},
              {"name", name},
              {"url", ""},
              {"description", ""},
              {"expires_at", nullptr}}}};
}

TEST(ProxyAnsEntryByName, TheDsoEntryIsProvidedByTheDso) {
    const Response response = proxy_get(proxy_by_name + "dso.ans");

    EXPECT_EQ(response.status, 200);
    EXPECT_EQ(response.content_type, "application/json");
    EXPECT_EQ(body_of(response), dso_provided(dso, "dso.ans"));
}

TEST(ProxyAnsEntryByName, AnSvsEntryIsProvidedByTheDso) {
    const Response response = proxy_get(proxy_by_name + "digital-asset-2.sv.ans");

    EXPECT_EQ(response.status, 200);
    EXPECT_EQ(body_of(response), dso_provided(da2, "digital-asset-2.sv.ans"));
}

TEST(ProxyAnsEntryByName, ALiveEntryIsFound) {
    const model::ContractPtr entry = all_created(api().store(), "AnsEntry").at(0);

    const Response response = proxy_get(proxy_by_name + "alice.unverified.ans");

    EXPECT_EQ(response.status, 200);
    EXPECT_EQ(body_of(response), (json{{"entry",
                                        {{"contract_id", entry->contract_id},
                                         {"user", alice},
                                         {"name", "alice.unverified.ans"},
                                         {"url", "https://alice.example"},
                                         {"description", "entry of alice"},
                                         {"expires_at", "2030-01-01T00:00:00Z"}}}}));
}

class ProxyAnsEntryLikeScan : public testing::TestWithParam<std::string> {};

TEST_P(ProxyAnsEntryLikeScan, AnswersScansBytes) {
    const Response proxy = proxy_get(proxy_by_name + GetParam());
    const Response scan = api().get(scan_by_name + GetParam());

    EXPECT_EQ(proxy.status, 200) << proxy.body;
    EXPECT_TRUE(same_answer(proxy, scan));
}

INSTANTIATE_TEST_SUITE_P(Names, ProxyAnsEntryLikeScan,
                         testing::Values("dso.ans", "digital-asset-2.sv.ans", "sv-2.sv.ans",
                                         "sv-3.sv.ans", "alice.unverified.ans"));

class ProxyAnsEntryNotFound : public testing::TestWithParam<std::string> {};

// Scan's "No ans entry found for name: …" is replaced by the proxy's own text.
TEST_P(ProxyAnsEntryNotFound, HasTheProxysText) {
    const Response response = proxy_get(proxy_by_name + GetParam());

    EXPECT_TRUE(is_error(response, 404, "Did not find a AnsEntry with name " + GetParam()));
}

INSTANTIATE_TEST_SUITE_P(Names, ProxyAnsEntryNotFound,
                         testing::Values("bob.unverified.ans",     // expired before the clock
                                         "nobody.unverified.ans",  //
                                         "Sv-2.sv.ans",            // SV names in lower case only
                                         "DSO.ans",                //
                                         "dso.cns",                // another acronym
                                         "alice.unverified"));     // exact names only

// ---- GET /v0/scan-proxy/dso-party-id ------------------------------------------------------

TEST(ProxyDsoPartyId, IsTheDsoParty) {
    const Response response = proxy_get(proxy_dso);

    EXPECT_EQ(response.status, 200);
    EXPECT_EQ(response.content_type, "application/json");
    EXPECT_EQ(body_of(response), (json{{"dso_party_id", dso}}));
    EXPECT_TRUE(same_answer(response, api().get(scan_dso)));
}

}  // namespace
}  // namespace cantonlite::areas::validator::scan_proxy_test
