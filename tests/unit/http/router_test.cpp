#include "cantonlite/http/router.hpp"

#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace cantonlite::http::router_test {
namespace {

// An area whose handlers answer with the area's name, so a test can tell where a request went.
class NamedArea : public Area {
  public:
    NamedArea(std::string name, std::string prefix, std::string base)
        : Area(std::move(prefix), std::move(base)), name_(std::move(name)) {}

    void add(std::string method, std::string_view path) {
        add_route(std::move(method), path,
                  [name = name_](const RequestContext&) { return Response::text(200, name); });
    }

  protected:
    Response render_error(const ApiError& error, const Request& /*request*/) const override {
        return Response::text(http_status(error.kind()), error.what());
    }
    Response render_decode_error(const DecodeError& error) const override {
        return Response::text(400, error.what());
    }

  private:
    std::string name_;
};

class RouterTest : public testing::Test {
  protected:
    RouterTest() {
        auto scan = std::make_unique<NamedArea>("scan", "/api/scan/", "/api/scan");
        scan->add("GET", "/v0/lsu");
        scan->add("GET", "/livez");
        auto api = std::make_unique<NamedArea>("api", "/api/", "/api");
        api->add("GET", "/scan-like");
        api->add("GET", "/scan/v0/lsu");
        router_.mount(std::move(api));
        router_.mount(std::move(scan));
    }

    Response get(std::string target, std::vector<Header> headers = {}) const {
        return router_.handle(
            Request{.method = "GET", .target = std::move(target), .headers = std::move(headers)});
    }

    Router router_;
};

TEST_F(RouterTest, SendsARequestToTheAreaOfItsPrefix) {
    const Response response = get("/api/scan-like");

    EXPECT_EQ(response.status, 200);
    EXPECT_EQ(response.body, "api");
}

TEST_F(RouterTest, LongestPrefixWinsWhateverTheOrderOfMounting) {
    const Response response = get("/api/scan/v0/lsu");

    EXPECT_EQ(response.status, 200);
    EXPECT_EQ(response.body, "scan");
}

TEST_F(RouterTest, IgnoresTheQueryStringWhenRouting) {
    const Response response = get("/api/scan/v0/lsu?page=2&x=%zz");

    EXPECT_EQ(response.status, 200);
    EXPECT_EQ(response.body, "scan");
}

TEST_F(RouterTest, DecodesPercentEncodedSegmentsBeforeMatching) {
    const Response response = get("/api/scan/v0/ls%75");

    EXPECT_EQ(response.status, 200);
    EXPECT_EQ(response.body, "scan");
}

// Pekko matches routes against the decoded path, so "/api/sc%61n/..." is a Scan request there.
TEST_F(RouterTest, DecodesPercentEncodedSegmentsOfTheAreaPrefix) {
    const Response response = get("/api/sc%61n/livez");

    EXPECT_EQ(response.status, 200);
    EXPECT_EQ(response.body, "scan");
}

TEST_F(RouterTest, PathUnderNoPrefixIsTheNotFoundJson) {
    const Response response = get("/other/thing?q=1", {{"Host", "localhost:7575"}});

    EXPECT_EQ(response.status, 404);
    EXPECT_EQ(response.content_type, "application/json");
    EXPECT_EQ(nlohmann::json::parse(response.body),
              (nlohmann::json{{"error",
                               "The requested resource could not be found: "
                               "http://localhost:7575/other/thing?q=1"}}));
}

TEST_F(RouterTest, PrefixWithoutItsTrailingSlashIsNotFound) {
    const Response response = get("/api", {{"Host", "h"}});

    EXPECT_EQ(response.status, 404);
    EXPECT_EQ(
        nlohmann::json::parse(response.body),
        (nlohmann::json{{"error", "The requested resource could not be found: http://h/api"}}));
}

TEST_F(RouterTest, MalformedPercentEncodingIsBadRequestText) {
    const Response response = get("/api/scan/v0/l%zzsu");

    EXPECT_EQ(response.status, 400);
    EXPECT_EQ(response.content_type, "text/plain; charset=UTF-8");
    EXPECT_EQ(response.body, "Illegal request-target: invalid percent-encoding in path");
}

// Pekko's strict URI parsing refuses raw non-ASCII and control bytes in the request-target.
TEST_F(RouterTest, RawNonAsciiInTheTargetIsBadRequestText) {
    for (const char* target : {"/api/scan/v0/voterequests/\xff", "/\xc3\xa9", "/a\x01b"}) {
        const Response response = get(target);

        EXPECT_EQ(response.status, 400) << target;
        EXPECT_EQ(response.body, "Illegal request-target: invalid character in path");
    }
}

TEST_F(RouterTest, NotFoundBodyStaysValidJsonWithAnInvalidHost) {
    const Response response = get("/nowhere", {{"Host", "h\xff"}});

    EXPECT_EQ(response.status, 404);
    EXPECT_EQ(nlohmann::json::parse(response.body)["error"],
              "The requested resource could not be found: http://h\xEF\xBF\xBD/nowhere");
}

TEST_F(RouterTest, EchoesTraceparentInLowerCase) {
    const std::string traceparent = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";

    const Response response = get("/api/scan/livez", {{"TraceParent", traceparent}});

    ASSERT_EQ(response.headers.size(), 1U);
    EXPECT_EQ(response.headers[0].name, "traceparent");
    EXPECT_EQ(response.headers[0].value, traceparent);
}

TEST_F(RouterTest, EchoesTraceparentOnErrorResponses) {
    const Response response = get("/nowhere", {{"traceparent", "00-abc-def-01"}});

    EXPECT_EQ(response.status, 404);
    EXPECT_EQ(response.header("traceparent"), "00-abc-def-01");
}

TEST_F(RouterTest, AddsNoTraceparentWhenNoneWasSent) {
    const Response response = get("/api/scan/livez");

    EXPECT_FALSE(response.header("traceparent").has_value());
}

TEST(Router, WithoutAreasAnswersNotFound) {
    const Router router;

    const Response response = router.handle(
        Request{.method = "GET", .target = "/api/scan/livez", .headers = {{"host", "x:1"}}});

    EXPECT_EQ(response.status, 404);
    EXPECT_EQ(
        nlohmann::json::parse(response.body),
        (nlohmann::json{
            {"error", "The requested resource could not be found: http://x:1/api/scan/livez"}}));
}

TEST(Router, ListsMountedAreasInOrder) {
    Router router;
    router.mount(std::make_unique<NamedArea>("b", "/b/", "/b"));
    router.mount(std::make_unique<NamedArea>("a", "/a/", "/a"));

    ASSERT_EQ(router.areas().size(), 2U);
    EXPECT_EQ(router.areas()[0]->prefix(), "/b/");
    EXPECT_EQ(router.areas()[1]->prefix(), "/a/");
}

}  // namespace
}  // namespace cantonlite::http::router_test

namespace cantonlite::http::router_test {
namespace {

// Two routers behind a third that picks one by host name, as LocalNet's nginx does.
class VirtualHosts : public testing::Test {
  protected:
    VirtualHosts() {
        auto scan = std::make_unique<NamedArea>("scan", "/api/scan/", "/api/scan");
        scan->add("GET", "/v0/lsu");
        scan_.mount(std::move(scan));
        auto wallet = std::make_unique<NamedArea>("wallet", "/api/validator/", "/api/validator");
        wallet->add("GET", "/v0/lsu");
        wallet_.mount(std::move(wallet));
        hosts_.add_host("scan.localhost", &scan_);
        hosts_.add_host("Wallet.Localhost", &wallet_);
    }

    Response get(const std::string& target, const std::string& host) const {
        std::vector<Header> headers;
        if (!host.empty()) headers.push_back({"Host", host});
        return hosts_.handle(Request{.method = "GET", .target = target, .headers = headers});
    }

    Router scan_, wallet_, hosts_;
};

TEST_F(VirtualHosts, TheHostNameChoosesTheRouterWithAnyPortAndCase) {
    EXPECT_EQ(get("/api/scan/v0/lsu", "scan.localhost:4000").body, "scan");
    EXPECT_EQ(get("/api/scan/v0/lsu", "SCAN.localhost").body, "scan");
    EXPECT_EQ(get("/api/validator/v0/lsu", "wallet.localhost:4000").body, "wallet");
    // The chosen router answers as it would alone: its 404 for a path it does not serve.
    EXPECT_EQ(get("/api/validator/v0/lsu", "scan.localhost:4000").status, 404);
}

TEST_F(VirtualHosts, AnyOtherHostIsNotFound) {
    for (const std::string host : {"localhost:4000", "sv.localhost:4000", "[::1]:4000", ""}) {
        const Response r = get("/api/scan/v0/lsu", host);
        EXPECT_EQ(r.status, 404) << host;
        EXPECT_NE(r.body.find("could not be found"), std::string::npos) << host;
    }
}

TEST_F(VirtualHosts, ATraceparentIsEchoedOnce) {
    const Response r = hosts_.handle(
        Request{.method = "GET",
                .target = "/api/scan/v0/lsu",
                .headers = {{"Host", "scan.localhost"}, {"traceparent", "00-aa-bb-01"}}});
    int echoed = 0;
    for (const Header& h : r.headers) echoed += h.name == "traceparent" ? 1 : 0;
    EXPECT_EQ(echoed, 1);
}

}  // namespace
}  // namespace cantonlite::http::router_test
