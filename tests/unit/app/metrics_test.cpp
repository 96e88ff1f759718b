#include "cantonlite/app/metrics.hpp"

#include <string>

#include <gtest/gtest.h>

#include "../areas/admin/admin_test_support.hpp"

namespace cantonlite::app::metrics_test {
namespace {

using areas::admin::admintest::LiveFixture;

class Metrics : public LiveFixture {
  protected:
    RootArea& root() { return *find_root_area(*router_); }

    // Answers the request through the router and counts it as the server would.
    http::Response counted(const std::string& method, const std::string& target,
                           std::int64_t micros = 50, const std::string& body = "") {
        http::Response r = call(method, target, body);
        root().requests().record(net::AccessRecord{.method = method,
                                                   .target = target,
                                                   .status = r.status,
                                                   .micros = micros,
                                                   .area = r.area,
                                                   .route = r.route});
        return r;
    }

    std::string exposition() { return call("GET", "/metrics").body; }
};

bool has_line(const std::string& text, const std::string& line) {
    return text.find("\n" + line + "\n") != std::string::npos;
}

TEST_F(Metrics, CountsARequestUnderItsRouteTemplateNotItsPath) {
    const http::Response r = counted("GET", "/api/scan/v0/voterequests/00aa", 50);
    EXPECT_EQ(r.route, "/api/scan/v0/voterequests/{vote_request_contract_id}");
    EXPECT_EQ(r.area, "/api/scan/");

    const std::string text = exposition();
    EXPECT_TRUE(has_line(text,
                         "cantonlite_http_requests_total{area=\"scan\",method=\"GET\","
                         "route=\"/api/scan/v0/voterequests/{vote_request_contract_id}\","
                         "status=\"" +
                             std::to_string(r.status) + "\"} 1"))
        << text.substr(0, 2000);
    EXPECT_EQ(text.find("00aa"), std::string::npos);
}

TEST_F(Metrics, AnUnknownPathIsUnmatchedInTheAreaThatRefusedIt) {
    EXPECT_EQ(counted("GET", "/api/scan/v0/no-such-thing").status, 404);
    EXPECT_EQ(counted("GET", "/nowhere/at/all").status, 404);
    EXPECT_EQ(counted("DELETE", "/api/scan/v0/dso-party-id").status, 405);

    const std::string text = exposition();
    EXPECT_TRUE(has_line(text,
                         "cantonlite_http_requests_total{area=\"scan\",method=\"other\","
                         "route=\"unmatched\",status=\"404\"} 1"));
    EXPECT_TRUE(has_line(text,
                         "cantonlite_http_requests_total{area=\"scan\",method=\"other\","
                         "route=\"unmatched\",status=\"405\"} 1"));
    EXPECT_TRUE(has_line(text,
                         "cantonlite_http_requests_total{area=\"root\",method=\"other\","
                         "route=\"unmatched\",status=\"404\"} 1"));
}

// The real services' 404 for a path no area serves is unchanged by the root area.
TEST_F(Metrics, TheRootAreaAnswersUnknownPathsAsTheRealServicesDo) {
    const http::Response r = call("GET", "/nowhere");
    EXPECT_EQ(r.status, 404);
    EXPECT_EQ(r.body,
              "{\n  \"error\" : \"The requested resource could not be found: "
              "http://localhost:7575/nowhere\"\n}");
}

TEST_F(Metrics, TheHistogramIsCumulative) {
    counted("GET", "/api/scan/v0/dso-party-id", 80);          // <= 100 µs
    counted("GET", "/api/scan/v0/dso-party-id", 300);         // <= 500 µs
    counted("GET", "/api/scan/v0/dso-party-id", 20'000'000);  // > 10 s
    const std::string text = exposition();
    const std::string series = "{area=\"scan\",method=\"GET\",route=\"/api/scan/v0/dso-party-id\"";
    const std::string bucket = "cantonlite_http_request_duration_seconds_bucket" + series;
    EXPECT_TRUE(has_line(text, bucket + ",le=\"0.0001\"} 1")) << text.substr(0, 3000);
    EXPECT_TRUE(has_line(text, bucket + ",le=\"0.00025\"} 1"));
    EXPECT_TRUE(has_line(text, bucket + ",le=\"0.0005\"} 2"));
    EXPECT_TRUE(has_line(text, bucket + ",le=\"10\"} 2"));
    EXPECT_TRUE(has_line(text, bucket + ",le=\"+Inf\"} 3"));
    EXPECT_TRUE(has_line(text, "cantonlite_http_request_duration_seconds_count" + series + "} 3"));
    EXPECT_TRUE(
        has_line(text, "cantonlite_http_request_duration_seconds_sum" + series + "} 20.00038"));
}

TEST_F(Metrics, AStatusOutsideHttpsRangeIsOther) {
    root().requests().record(net::AccessRecord{.status = 0, .micros = 1});
    EXPECT_TRUE(has_line(exposition(),
                         "cantonlite_http_requests_total{area=\"none\","
                         "method=\"other\",route=\"unmatched\",status=\"other\"} 1"));
}

TEST_F(Metrics, ShowsTheLedgerAndTheAdminWrites) {
    EXPECT_EQ(call("POST", "/_cantonlite/v1/snapshots").status, 200);
    const std::string text = exposition();
    EXPECT_TRUE(has_line(
        text, "cantonlite_ledger_end_offset " + std::to_string(network_->store().ledger_end())));
    EXPECT_TRUE(has_line(text, "cantonlite_admin_writes_total{kind=\"snapshot\"} 1"));
    EXPECT_TRUE(has_line(text, "cantonlite_admin_writes_total{kind=\"steps\"} 0"));
    EXPECT_TRUE(has_line(text, "cantonlite_snapshots 1"));
    EXPECT_TRUE(has_line(
        text, "cantonlite_active_contracts{template=\"splice-amulet:Splice.Amulet:Amulet\"} 10"));
    EXPECT_TRUE(has_line(text, "# TYPE process_resident_memory_bytes gauge"));
}

// The journal's figures, when the daemon has one (none: no journal families at all).
TEST_F(Metrics, ShowsTheJournal) {
    EXPECT_EQ(exposition().find("cantonlite_journal_"), std::string::npos);
    root().set_journal([] {
        return journal::Journal::Stats{.records_written = 7,
                                       .records_followed = 3,
                                       .commits = 2,
                                       .turns = 4,
                                       .available = false};
    });
    const std::string text = exposition();
    EXPECT_TRUE(has_line(text, "cantonlite_journal_records_total{origin=\"this_daemon\"} 7"));
    EXPECT_TRUE(has_line(text, "cantonlite_journal_records_total{origin=\"other_daemons\"} 3"));
    EXPECT_TRUE(has_line(text, "cantonlite_journal_commits_total 2"));
    EXPECT_TRUE(has_line(text, "cantonlite_journal_turns_total 4"));
    EXPECT_TRUE(has_line(text, "cantonlite_journal_available 0"));
    EXPECT_TRUE(has_line(text, "# TYPE cantonlite_journal_commits_total counter"));
}

}  // namespace
}  // namespace cantonlite::app::metrics_test
