#include "cantonlite/areas/scan/scan_handlers.hpp"

#include <algorithm>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cantonlite/app/application.hpp"
#include "cantonlite/http/router.hpp"
#include "cantonlite/seed/scan_bulk.hpp"
#include "cantonlite/seed/seed_loader.hpp"

namespace cantonlite::areas::scan::scan_handlers_test {
namespace {

using http::Header;
using http::Request;
using http::Response;
using nlohmann::json;

const std::string dso_party =
    "DSO::1220fb89d62774bd5b3fd8a11c1b22c8c5453e8286c3cf7add515c98d7bca192ef18";
const std::string successor =
    "global-domain::1220b1431ef217342db44d516bb9befde802be7d8899637d290895fa58880f19accc::34-1";

json seed_with_lsu() {
    return {{"network",
             {{"dso_party", dso_party},
              {"lsu",
               {{"topology_freeze_time", "2030-01-15T12:00:00Z"},
                {"upgrade_time", "2030-01-15T14:00:00Z"},
                {"successor_physical_synchronizer_id", successor}}}}}};
}

json seed_without_lsu() {
    return {{"network", {{"dso_party", dso_party}}}};
}

// The real router over a store loaded from an inline seed, driven with plain Requests.
class ScanClient {
  public:
    explicit ScanClient(const json& seed)
        : store_(seed::load_seed(seed, "test-seed")), router_(app::make_router(*store_)) {}

    Response get(std::string target, std::vector<Header> headers = {}) const {
        return send("GET", std::move(target), std::move(headers));
    }

    Response send(std::string method, std::string target, std::vector<Header> headers = {}) const {
        if (std::none_of(headers.begin(), headers.end(),
                         [](const Header& h) { return h.name == "Host"; }))
            headers.insert(headers.begin(), Header{"Host", "localhost:7575"});
        return router_->handle(Request{.method = std::move(method),
                                       .target = std::move(target),
                                       .headers = std::move(headers)});
    }

  private:
    std::unique_ptr<store::LedgerStore> store_;
    std::unique_ptr<http::Router> router_;
};

class ScanApiTest : public testing::Test {
  protected:
    ScanClient api_{seed_with_lsu()};
};

// --- Op 11: GET /api/scan/v0/lsu ------------------------------------------------------------

TEST_F(ScanApiTest, LsuReturnsTheAnnouncedUpgrade) {
    const Response response = api_.get("/api/scan/v0/lsu");

    EXPECT_EQ(response.status, 200);
    EXPECT_EQ(response.content_type, "application/json");
    EXPECT_EQ(json::parse(response.body),
              (json{{"lsu",
                     {{"topologyFreezeTime", "2030-01-15T12:00:00Z"},
                      {"upgradeTime", "2030-01-15T14:00:00Z"},
                      {"successorPhysicalSynchronizerId", successor}}}}));
}

TEST_F(ScanApiTest, LsuWritesItsKeysInSpecOrder) {
    const Response response = api_.get("/api/scan/v0/lsu");

    const nlohmann::ordered_json lsu = nlohmann::ordered_json::parse(response.body).at("lsu");
    std::vector<std::string> keys;
    for (const auto& [key, _] : lsu.items()) keys.push_back(key);
    EXPECT_EQ(keys, (std::vector<std::string>{"topologyFreezeTime", "upgradeTime",
                                              "successorPhysicalSynchronizerId"}));
}

TEST(ScanApi, LsuIsNullWhenTheSeedHasNone) {
    const ScanClient api(seed_without_lsu());

    const Response response = api.get("/api/scan/v0/lsu");

    EXPECT_EQ(response.status, 200);
    EXPECT_EQ(response.content_type, "application/json");
    EXPECT_EQ(response.body, R"({"lsu":null})");
}

struct LsuTimeCase {
    std::string seed_time;
    std::string printed;
};

class ScanApiLsuTimes : public testing::TestWithParam<LsuTimeCase> {};

// ISO_OFFSET_DATE_TIME at UTC: seconds always, the fewest fraction digits, 'Z'.
TEST_P(ScanApiLsuTimes, ArePrintedAsIsoOffsetDateTimeAtUtc) {
    const LsuTimeCase& c = GetParam();
    json seed = seed_with_lsu();
    seed["network"]["lsu"]["topology_freeze_time"] = c.seed_time;
    seed["network"]["lsu"]["upgrade_time"] = c.seed_time;
    const ScanClient api(seed);

    const json lsu = json::parse(api.get("/api/scan/v0/lsu").body).at("lsu");

    EXPECT_EQ(lsu.at("topologyFreezeTime"), c.printed);
    EXPECT_EQ(lsu.at("upgradeTime"), c.printed);
}

INSTANTIATE_TEST_SUITE_P(
    Times, ScanApiLsuTimes,
    testing::Values(LsuTimeCase{"2030-01-15T14:00:00Z", "2030-01-15T14:00:00Z"},
                    LsuTimeCase{"2030-01-15T15:00:00+01:00", "2030-01-15T14:00:00Z"},
                    LsuTimeCase{"2030-01-15T14:00:00.120Z", "2030-01-15T14:00:00.12Z"},
                    LsuTimeCase{"2030-01-15T14:00:00.123456Z", "2030-01-15T14:00:00.123456Z"},
                    LsuTimeCase{"2030-01-15T14:00:00.500000-02:00", "2030-01-15T16:00:00.5Z"},
                    LsuTimeCase{"2030-01-01T00:30:00+01:00", "2029-12-31T23:30:00Z"}));

// --- Op 12: GET /api/scan/v0/dso-party-id ---------------------------------------------------

TEST_F(ScanApiTest, DsoPartyIdReturnsTheSeedsDsoParty) {
    const Response response = api_.get("/api/scan/v0/dso-party-id");

    EXPECT_EQ(response.status, 200);
    EXPECT_EQ(response.content_type, "application/json");
    EXPECT_EQ(response.body, R"({"dso_party_id":")" + dso_party + R"("})");
}

// --- Op 13: GET /api/scan/livez -------------------------------------------------------------

TEST_F(ScanApiTest, LivezIsOkWithEmptyBodyAndNoContentType) {
    const Response response = api_.get("/api/scan/livez");

    EXPECT_EQ(response.status, 200);
    EXPECT_EQ(response.content_type, "");
    EXPECT_EQ(response.body, "");
    EXPECT_TRUE(response.headers.empty());
}

// --- Cross-cutting (splice-behavior.md §0.1, §5.1) ------------------------------------------

class ScanApiAcceptsHeaders : public testing::TestWithParam<std::vector<Header>> {};

// Scan needs no token: one sent anyway is not checked. A JSON Content-Type on a GET is harmless.
TEST_P(ScanApiAcceptsHeaders, OnAScanCall) {
    const ScanClient api(seed_with_lsu());

    const Response response = api.get("/api/scan/v0/dso-party-id", GetParam());

    EXPECT_EQ(response.status, 200);
    EXPECT_EQ(json::parse(response.body), (json{{"dso_party_id", dso_party}}));
}

INSTANTIATE_TEST_SUITE_P(
    Headers, ScanApiAcceptsHeaders,
    testing::Values(std::vector<Header>{{"Authorization", "Bearer not.a.jwt"}},
                    std::vector<Header>{{"Authorization", "Basic YWxpY2U6c2VjcmV0"}},
                    std::vector<Header>{{"Content-Type", "application/json"}},
                    std::vector<Header>{{"Content-Type", "application/json"},
                                        {"Authorization", "Bearer eyJhbGciOiJIUzI1NiJ9.e30.x"}}));

class ScanApiDecodesPath : public testing::TestWithParam<std::string> {};

TEST_P(ScanApiDecodesPath, BeforeMatchingARoute) {
    const ScanClient api(seed_with_lsu());

    const Response response = api.get(GetParam());

    EXPECT_EQ(response.status, 200) << GetParam();
    EXPECT_EQ(json::parse(response.body), (json{{"dso_party_id", dso_party}}));
}

INSTANTIATE_TEST_SUITE_P(Targets, ScanApiDecodesPath,
                         testing::Values("/api/scan/v0/dso%2Dparty%2Did",
                                         "/api/scan/v0/dso-party-%69d",
                                         "/api/scan/%76%30/dso-party-id",
                                         "/api/scan/v0/dso-party-id?unused=%zz"));

class ScanApiNotFound : public testing::TestWithParam<std::string> {};

TEST_P(ScanApiNotFound, NamesTheFullRequestUri) {
    const ScanClient api(seed_with_lsu());
    const std::string& target = GetParam();

    const Response response = api.get(target);

    EXPECT_EQ(response.status, 404);
    EXPECT_EQ(response.content_type, "application/json");
    EXPECT_EQ(json::parse(response.body),
              (json{{"error", "The requested resource could not be found: http://localhost:7575" +
                                  target}}));
}

INSTANTIATE_TEST_SUITE_P(Targets, ScanApiNotFound,
                         testing::Values("/api/scan/v0/unknown", "/api/scan/v0/lsu/extra",
                                         "/api/scan/v1/lsu", "/api/scan/v0/unknown?page=2",
                                         "/api/scan/v0/dso-party-id%2Fx", "/api/scan/",
                                         "/api/scanner/v0/lsu", "/unknown"));

class ScanApiMethodNotAllowed : public testing::TestWithParam<std::string> {};

TEST_P(ScanApiMethodNotAllowed, OnAGetRoute) {
    const ScanClient api(seed_with_lsu());

    const Response response = api.send(GetParam(), "/api/scan/v0/lsu");

    EXPECT_EQ(response.status, 405);
    EXPECT_EQ(response.content_type, "text/plain; charset=UTF-8");
    EXPECT_EQ(response.body, "HTTP method not allowed, supported methods: GET");
    EXPECT_EQ(response.header("Allow"), "GET");
}

INSTANTIATE_TEST_SUITE_P(Methods, ScanApiMethodNotAllowed,
                         testing::Values("POST", "PUT", "DELETE", "PATCH"));

TEST_F(ScanApiTest, EchoesTraceparent) {
    const std::string traceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

    const Response response = api_.get("/api/scan/livez", {{"TRACEPARENT", traceparent}});

    EXPECT_EQ(response.status, 200);
    ASSERT_EQ(response.headers.size(), 1U);
    EXPECT_EQ(response.headers[0].name, "traceparent");
    EXPECT_EQ(response.headers[0].value, traceparent);
}

TEST_F(ScanApiTest, EchoesTraceparentOnNotFound) {
    const Response response = api_.get("/api/scan/nope", {{"traceparent", "00-aa-bb-01"}});

    EXPECT_EQ(response.status, 404);
    EXPECT_EQ(response.header("traceparent"), "00-aa-bb-01");
}

// --- The handlers on their own -------------------------------------------------------------

TEST(GetDsoPartyId, AnswersFromTheStore) {
    const auto store = seed::load_seed(seed_without_lsu(), "test-seed");
    const http::PathParams params;
    const Request request{.method = "GET", .target = "/api/scan/v0/dso-party-id"};

    const Response response = get_dso_party_id(*store, {.request = request, .params = params});

    EXPECT_EQ(response.status, 200);
    EXPECT_EQ(response.body, R"({"dso_party_id":")" + dso_party + R"("})");
}

TEST(GetLsu, WritesTheCompactBody) {
    const auto store = seed::load_seed(seed_with_lsu(), "test-seed");
    const http::PathParams params;
    const Request request{.method = "GET", .target = "/api/scan/v0/lsu"};

    const Response response = get_lsu(*store, {.request = request, .params = params});

    EXPECT_EQ(response.body, R"({"lsu":{"topologyFreezeTime":"2030-01-15T12:00:00Z",)"
                             R"("upgradeTime":"2030-01-15T14:00:00Z",)"
                             R"("successorPhysicalSynchronizerId":")" +
                                 successor + R"("}})");
}

TEST(GetLsu, AnswersFromEachStoreItIsGiven) {
    json later = seed_with_lsu();
    later["network"]["lsu"]["upgrade_time"] = "2031-02-03T04:05:06Z";
    const auto first = seed::load_seed(seed_with_lsu(), "test-seed");
    const auto second = seed::load_seed(later, "test-seed");
    const auto none = seed::load_seed(seed_without_lsu(), "test-seed");
    const http::PathParams params;
    const Request request{.method = "GET", .target = "/api/scan/v0/lsu"};
    const auto upgrade_time = [&](const store::LedgerStore& store) {
        const json body = json::parse(get_lsu(store, {.request = request, .params = params}).body);
        return body.at("lsu").is_null() ? json() : body.at("lsu").at("upgradeTime");
    };

    const std::vector<json> answers{upgrade_time(*first), upgrade_time(*second),
                                    upgrade_time(*none), upgrade_time(*first)};

    EXPECT_EQ(answers, (std::vector<json>{"2030-01-15T14:00:00Z", "2031-02-03T04:05:06Z", json(),
                                          "2030-01-15T14:00:00Z"}));
}

// listBulkAcsSnapshotObjects and the download it names (FIDELITY 92).
TEST(ScanBulkAcs, ListsTheSnapshotsObjectsWhichDownloadAsScanWritesThem) {
    std::ifstream in(std::string(CANTONLITE_SOURCE_DIR) + "/config/default-network.json");
    const ScanClient scan(json::parse(in));
    const Response listing =
        scan.get("/api/scan/v0/history/bulk/acs?at_or_before_record_time=2025-01-06T00:00:00Z");
    ASSERT_EQ(listing.status, 200) << listing.body;
    const json body = json::parse(listing.body);
    EXPECT_EQ(body["record_time"], "2025-01-05T00:00:00Z") << "the latest at or before";
    ASSERT_EQ(body["object_refs"].size(), 1U);
    const std::string url = body["object_refs"][0]["url"];
    const std::string prefix = "http://localhost:7575/api/scan/v0/history/bulk/download/";
    ASSERT_EQ(url.substr(0, prefix.size()), prefix);
    EXPECT_EQ(url.substr(prefix.size()), "2025-01-05T00%3A00%3A00Z%2FACS_compact_json_0.zstd");

    const Response object = scan.get(url.substr(std::string("http://localhost:7575").size()));
    ASSERT_EQ(object.status, 200);
    EXPECT_EQ(object.content_type, "application/octet-stream");
    EXPECT_EQ(seed::bulk_digest(object.body), body["object_refs"][0]["digest"]);
    const std::string text = seed::zstd_decompress(object.body, 1 << 24);
    const auto lines = seed::bulk_lines(text);
    ASSERT_FALSE(lines.empty());
    for (const auto line : lines) {
        const json event = json::parse(line);  // keys sorted, as noSpacesSortKeys writes them
        EXPECT_EQ(event.dump(), line);
        EXPECT_TRUE(event.contains("contract_id") && event.contains("create_arguments"));
    }
    EXPECT_EQ(scan.get("/api/scan/v0/history/bulk/download/nope").status, 404);
}

TEST(ScanBulkAcs, AHostThatIsNotUtf8IsWrittenAsCirceWritesIt) {
    // The fuzzer's finding: the Host header went into the JSON as it came.
    std::ifstream in(std::string(CANTONLITE_SOURCE_DIR) + "/config/default-network.json");
    const ScanClient scan(json::parse(in));
    const Response listing =
        scan.get("/api/scan/v0/history/bulk/acs?at_or_before_record_time=2025-01-06T00:00:00Z",
                 {{"Host", "h\xff\x01\"x"}});
    ASSERT_EQ(listing.status, 200);
    ASSERT_TRUE(json::accept(listing.body)) << listing.body;
    const std::string url = json::parse(listing.body)["object_refs"][0]["url"];
    EXPECT_TRUE(url.starts_with("http://h\xef\xbf\xbd\x01\"x/api/scan/")) << url;
}

}  // namespace
}  // namespace cantonlite::areas::scan::scan_handlers_test
