// The admin API's fault injection (/_cantonlite/v1/faults): rules set, listed and cleared, each
// area's error answers in its real shape, exactly the routes a rule names, and a reset clears them.
#include <string>

#include "areas/admin/admin_test_support.hpp"

namespace cantonlite::areas::admin::faults_admin_test {
namespace {

using admintest::LiveFixture;
using nlohmann::json;
using namespace std::chrono_literals;

const std::string dso = "/api/scan/v0/dso-party-id";
const std::string ledger_end_path = "/v2/state/ledger-end";
const std::string& offers = admintest::offers;  // the validator's op 4

class AdminFaults : public LiveFixture {
  protected:
    json add(const json& rule) { return admin("POST", "/faults", rule); }
};

TEST_F(AdminFaults, ARuleIsAnsweredListedAndCleared) {
    const json rule = add({{"route", dso}, {"error_status", 503}, {"error_share", 0.5}});
    EXPECT_EQ(rule, json({{"id", "1"},
                          {"route", dso},
                          {"method", nullptr},
                          {"latency_ms", 0},
                          {"error_status", 503},
                          {"error_share", 0.5},
                          {"reset_share", 0.0},
                          {"times", nullptr},
                          {"matched", 0},
                          {"delayed", 0},
                          {"errors", 0},
                          {"resets", 0}}));
    add({{"route", "/v2/*"}, {"method", "GET"}, {"latency_ms", 20}, {"times", 3}});

    for (int i = 0; i < 4; ++i) call("GET", dso);
    const json listed = admin("GET", "/faults");
    ASSERT_EQ(listed.at("faults").size(), 2U);
    EXPECT_EQ(listed["faults"][0]["matched"], 4);
    EXPECT_EQ(listed["faults"][0]["errors"], 2);
    EXPECT_EQ(listed["faults"][1]["id"], "2");
    EXPECT_EQ(listed["faults"][1]["method"], "GET");
    EXPECT_EQ(listed["faults"][1]["times"], 3);

    EXPECT_EQ(admin("DELETE", "/faults/1"), json({{"deleted", "1"}}));
    EXPECT_EQ(admin_error("DELETE", "/faults/1", 404), "no fault rule '1'");
    EXPECT_EQ(admin("DELETE", "/faults"), json({{"cleared", 1}}));
    EXPECT_EQ(admin("GET", "/faults"), json({{"faults", json::array()}}));
    EXPECT_EQ(call("GET", dso).status, 200);
}

TEST_F(AdminFaults, RulesThatAreNotRulesAre400) {
    const auto refused = [&](const std::string& body) {
        return admin_error("POST", "/faults", 400, body);
    };
    EXPECT_EQ(refused(R"({"latency_ms": 5})"), "route is required");
    EXPECT_EQ(refused(R"({"route": "/api/scan/*"})"),
              "a rule needs latency_ms, error_status or reset_share");
    EXPECT_EQ(refused(R"({"route": "/api/scan/*", "latency": 5})"),
              "unknown key 'latency' (route, method, latency_ms, error_status, error_share, "
              "reset_share, times)");
    EXPECT_EQ(refused(R"({"route": "/api/scan/*", "error_share": 0.5})"),
              "error_share needs error_status (429, 500 or 503)");
    EXPECT_EQ(refused(R"({"route": "/api/scan/*", "reset_share": 1.5})"),
              "reset_share must be a number from 0 to 1");
    EXPECT_EQ(refused(R"({"route": "/api/scan/*", "latency_ms": -1})"),
              "latency_ms must be a whole number from 0 to 600000");
    EXPECT_EQ(refused(R"({"route": "/api/scan/*", "error_status": 418})"),
              "error_status must be 429, 500 or 503");
    EXPECT_EQ(refused(R"({"route": "/api/scan/*", "method": "get", "latency_ms": 1})"),
              "method must be an HTTP method in capitals (GET, POST)");
    EXPECT_NE(refused(R"({"route": "/api/scan/v0/nothing-here", "latency_ms": 1})")
                  .find("names none of the routes"),
              std::string::npos);
    // cantonlite's own routes are not the APIs': they answer while faults are set.
    EXPECT_NE(refused(R"({"route": "/_cantonlite/v1/faults", "latency_ms": 1})")
                  .find("names none of the routes"),
              std::string::npos);
    EXPECT_EQ(admin("GET", "/faults"), json({{"faults", json::array()}}));
}

TEST_F(AdminFaults, ARuleHitsExactlyTheRoutesItNames) {
    add({{"route", dso}, {"error_status", 500}});

    EXPECT_EQ(call("GET", dso).status, 500);
    EXPECT_EQ(call("GET", "/api/scan/livez").status, 200);
    EXPECT_EQ(call("GET", "/api/validator/livez").status, 200);
    EXPECT_EQ(as_user("alice", "GET", ledger_end_path).status, 200);
    EXPECT_EQ(call("GET", "/api/scan/v0/no-such-route").status, 404);  // unmatched: untouched
}

TEST_F(AdminFaults, EveryRouteIsHitByStarButTheAdminApiAndMetricsAnswer) {
    add({{"route", "*"}, {"error_status", 503}});

    EXPECT_EQ(call("GET", dso).status, 503);
    EXPECT_EQ(as_user("alice", "GET", ledger_end_path).status, 503);
    EXPECT_EQ(as_user("alice", "GET", offers).status, 503);
    EXPECT_EQ(call("GET", "/metrics").status, 200);
    EXPECT_EQ(admin("GET", "/faults")["faults"][0]["errors"], 3);
}

TEST_F(AdminFaults, TheLedgerFailsWithCantonErrors) {
    add({{"route", ledger_end_path}, {"error_status", 503}, {"times", 1}});
    add({{"route", ledger_end_path}, {"error_status", 429}, {"times", 1}});
    add({{"route", ledger_end_path}, {"error_status", 500}, {"times", 1}});

    const http::Response unavailable = as_user("alice", "GET", ledger_end_path);
    EXPECT_EQ(unavailable.status, 503);
    const json u = json::parse(unavailable.body);
    EXPECT_EQ(u["code"], "SERVICE_NOT_RUNNING");
    EXPECT_EQ(u["cause"], "Ledger API has been shut down.");
    EXPECT_EQ(u["errorCategory"], 1);
    EXPECT_EQ(u["grpcCodeValue"], 14);
    EXPECT_EQ(u["retryInfo"], "1 second");

    const http::Response overloaded = as_user("alice", "GET", ledger_end_path);
    EXPECT_EQ(overloaded.status, 429);
    const json o = json::parse(overloaded.body);
    EXPECT_EQ(o["code"], "PARTICIPANT_BACKPRESSURE");
    EXPECT_EQ(o["cause"], "The participant is overloaded: fault rule 2 of cantonlite");
    EXPECT_EQ(o["errorCategory"], 2);

    const http::Response internal = as_user("alice", "GET", ledger_end_path);
    EXPECT_EQ(internal.status, 500);
    const json i = json::parse(internal.body);
    EXPECT_EQ(i["cause"], "A security-sensitive error has been received");  // redacted, as any 500
    EXPECT_EQ(i["grpcCodeValue"], 13);

    EXPECT_EQ(as_user("alice", "GET", ledger_end_path).status, 200);  // each rule ran out
}

TEST_F(AdminFaults, TheSpliceAppsFailWithTheirErrorBodies) {
    add({{"route", dso}, {"error_status", 429}, {"times", 1}});
    add({{"route", dso}, {"error_status", 503}, {"times", 1}});
    add({{"route", offers}, {"error_status", 500}});

    const http::Response limited = call("GET", dso);
    EXPECT_EQ(limited.status, 429);
    EXPECT_EQ(limited.content_type, "application/json");
    EXPECT_EQ(json::parse(limited.body), json({{"error", "Too Many Requests"}}));

    const http::Response slow = call("GET", dso);
    EXPECT_EQ(slow.status, 503);
    EXPECT_EQ(json::parse(slow.body),
              json({{"error",
                     "The server is taking too long to respond to the (GET) request at "
                     "http://localhost:7575/api/scan/v0/dso-party-id"}}));

    const http::Response failed = as_user("alice", "GET", offers);
    EXPECT_EQ(failed.status, 500);
    EXPECT_EQ(json::parse(failed.body), json({{"error", "An unexpected error occurred."}}));
}

TEST_F(AdminFaults, LatencyAndResetsAreLeftToTheSession) {
    add({{"route", dso}, {"latency_ms", 250}, {"reset_share", 0.5}});

    const http::Response first = call("GET", dso);
    EXPECT_EQ(first.status, 200);
    EXPECT_EQ(first.delay, 250ms);
    EXPECT_FALSE(first.reset);
    const http::Response second = call("GET", dso);
    EXPECT_TRUE(second.reset);
    EXPECT_EQ(second.delay, 250ms);
    EXPECT_EQ(second.route, dso);
}

TEST_F(AdminFaults, AResetOfTheNetworkClearsThem) {
    add({{"route", "*"}, {"latency_ms", 10}});
    admin("POST", "/reset");
    EXPECT_EQ(admin("GET", "/faults"), json({{"faults", json::array()}}));
    EXPECT_EQ(call("GET", dso).delay, 0ms);
}

TEST_F(AdminFaults, MetricsCountThem) {
    add({{"route", dso}, {"error_status", 503}, {"latency_ms", 1}, {"times", 2}});
    add({{"route", "/api/scan/livez"}, {"reset_share", 1}, {"times", 1}});
    call("GET", dso);
    call("GET", dso);
    call("GET", "/api/scan/livez");

    const std::string text = call("GET", "/metrics").body;
    for (const std::string line :
         {"cantonlite_fault_rules 2", "cantonlite_faults_injected_total{kind=\"latency\"} 2",
          "cantonlite_faults_injected_total{kind=\"reset\"} 1",
          "cantonlite_faults_injected_total{kind=\"error\",status=\"503\"} 2"}) {
        EXPECT_NE(text.find("\n" + line + "\n"), std::string::npos) << line;
    }
}

}  // namespace
}  // namespace cantonlite::areas::admin::faults_admin_test
