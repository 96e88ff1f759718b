// FaultTable: which requests a rule names, and how many of them it delays, fails and resets.
#include "cantonlite/http/faults.hpp"

#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace cantonlite::http::faults_test {
namespace {

using namespace std::chrono_literals;

const std::string dso = "/api/scan/v0/dso-party-id";
const std::string vote = "/api/scan/v0/voterequests/{vote_request_contract_id}";
const std::string ledger_end = "/v2/state/ledger-end";

class Faults : public ::testing::Test {
  protected:
    Faults() {
        table_.add_routes({{"GET", dso},
                           {"GET", vote},
                           {"GET", "/api/scan/livez"},
                           {"GET", ledger_end},
                           {"POST", "/v2/updates/flats"}});
    }

    // The decision for a GET of a route without parameters.
    std::optional<FaultDecision> get(const std::string& route) {
        return table_.decide("GET", route, route);
    }

    FaultTable table_;
};

TEST(Glob, StarStandsForAnyRunOfCharacters) {
    EXPECT_TRUE(glob_matches("/api/scan/*", "/api/scan/v0/dso-party-id"));
    EXPECT_TRUE(glob_matches("*", ""));
    EXPECT_TRUE(glob_matches("*/livez", "/api/validator/livez"));
    EXPECT_TRUE(glob_matches("/v2/*/ledger-*", "/v2/state/ledger-end"));
    EXPECT_TRUE(glob_matches("/v2/state/ledger-end", "/v2/state/ledger-end"));
    EXPECT_FALSE(glob_matches("/v2/state/ledger-end", "/v2/state/ledger-end/x"));
    EXPECT_FALSE(glob_matches("/api/scan/*", "/api/validator/livez"));
    EXPECT_FALSE(glob_matches("*/livez", "/api/scan/livez/x"));
}

TEST(Glob, AParameterSegmentOfATemplateStandsForOneSegment) {
    EXPECT_TRUE(template_matches(vote, "/api/scan/v0/voterequests/00abc"));
    EXPECT_FALSE(template_matches(vote, "/api/scan/v0/voterequests/"));
    EXPECT_FALSE(template_matches(vote, "/api/scan/v0/voterequests/a/b"));
    EXPECT_TRUE(template_matches(dso, dso));
    EXPECT_FALSE(template_matches(dso, "/api/scan/v0/dso"));
}

TEST_F(Faults, WithNoRuleNothingIsArmedAndNothingIsDecided) {
    EXPECT_FALSE(table_.armed());
    EXPECT_FALSE(get(dso));
    table_.add({.route = dso, .latency = 5ms});
    EXPECT_TRUE(table_.armed());
    EXPECT_EQ(table_.clear(), 1U);
    EXPECT_FALSE(table_.armed());
}

TEST_F(Faults, ARuleHitsExactlyTheRoutesItNames) {
    table_.add({.route = dso, .error_status = 503, .error_share = share_scale});

    EXPECT_EQ(get(dso)->error_status, 503);
    EXPECT_FALSE(get("/api/scan/livez"));
    EXPECT_FALSE(get(ledger_end));
    EXPECT_FALSE(table_.decide("POST", "/v2/updates/flats", "/v2/updates/flats"));
}

TEST_F(Faults, ATemplateAPathOrAPatternNamesARoute) {
    const std::string id_path = "/api/scan/v0/voterequests/00ab";
    table_.add({.route = id_path, .latency = 7ms});

    EXPECT_EQ(table_.decide("GET", vote, id_path)->delay, 7ms);
    EXPECT_FALSE(table_.decide("GET", vote, "/api/scan/v0/voterequests/00cd"));

    table_.clear();
    table_.add({.route = vote, .latency = 8ms});
    EXPECT_EQ(table_.decide("GET", vote, "/api/scan/v0/voterequests/00cd")->delay, 8ms);

    table_.clear();
    table_.add({.route = "/api/scan/*", .latency = 9ms});
    EXPECT_EQ(get(dso)->delay, 9ms);
    EXPECT_EQ(get("/api/scan/livez")->delay, 9ms);
    EXPECT_FALSE(get(ledger_end));
}

TEST_F(Faults, AMethodNarrowsARule) {
    table_.add({.route = "/v2/*", .method = "POST", .latency = 1ms});

    EXPECT_FALSE(get(ledger_end));
    EXPECT_TRUE(table_.decide("POST", "/v2/updates/flats", "/v2/updates/flats"));
}

TEST_F(Faults, SharesAreExactAndDeterministic) {
    table_.add({.route = dso, .error_status = 429, .error_share = share_scale / 2});
    std::vector<int> statuses;
    for (int i = 0; i < 6; ++i) statuses.push_back(get(dso)->error_status);
    EXPECT_EQ(statuses, (std::vector<int>{0, 429, 0, 429, 0, 429}));

    table_.clear();
    table_.add({.route = ledger_end, .reset_share = share_scale / 10});  // 0.1: exactly 1 in 10
    int resets = 0;
    for (int i = 0; i < 100; ++i) resets += get(ledger_end)->reset ? 1 : 0;
    EXPECT_EQ(resets, 10);
}

TEST_F(Faults, AResetAndAnErrorDueTogetherGiveTheResetThenTheError) {
    table_.add({.route = dso,
                .error_status = 500,
                .error_share = share_scale / 2,
                .reset_share = share_scale / 2});
    std::vector<std::string> outcomes;
    for (int i = 0; i < 6; ++i) {
        const auto d = get(dso);
        outcomes.push_back(d->reset ? "reset" : d->error_status == 500 ? "500" : "ok");
    }
    EXPECT_EQ(outcomes, (std::vector<std::string>{"ok", "reset", "500", "reset", "500", "reset"}));
    const FaultRuleState state = table_.rules().front();
    EXPECT_EQ(state.matched, 6U);
    EXPECT_EQ(state.resets, 3U);
    EXPECT_EQ(state.errors, 2U);
}

TEST_F(Faults, TimesEndsARuleAndTheNextRuleMatches) {
    table_.add({.route = dso, .error_status = 503, .error_share = share_scale, .times = 2});
    table_.add({.route = "*", .latency = 3ms});

    EXPECT_EQ(get(dso)->error_status, 503);
    EXPECT_EQ(get(dso)->error_status, 503);
    const auto third = get(dso);
    EXPECT_EQ(third->error_status, 0);
    EXPECT_EQ(third->delay, 3ms);
    EXPECT_EQ(third->rule, 2U);
    EXPECT_EQ(table_.rules().front().matched, 2U);
}

TEST_F(Faults, CountsAreKeptByKindAndStatusAcrossAClear) {
    table_.add({.route = dso, .latency = 1ms, .error_status = 503, .error_share = share_scale});
    table_.add({.route = ledger_end, .error_status = 429, .error_share = share_scale});
    (void)get(dso);
    (void)get(dso);
    (void)get(ledger_end);
    table_.clear();

    const FaultCounts c = table_.counts();
    EXPECT_EQ(c.delayed, 2U);
    EXPECT_EQ(c.resets, 0U);
    EXPECT_EQ(c.errors, (std::vector<std::pair<int, std::uint64_t>>{{429, 1}, {503, 2}}));
}

TEST_F(Faults, RemoveTakesOneRuleAndIdsAreNeverReused) {
    const auto a = table_.add({.route = dso, .latency = 1ms});
    const auto b = table_.add({.route = ledger_end, .latency = 1ms});
    EXPECT_TRUE(table_.remove(a));
    EXPECT_FALSE(table_.remove(a));
    EXPECT_TRUE(table_.armed());
    EXPECT_TRUE(table_.remove(b));
    EXPECT_FALSE(table_.armed());
    EXPECT_EQ(table_.add({.route = dso, .latency = 1ms}), b + 1);
}

TEST_F(Faults, RulesThatCannotHitOrCannotBeAreRefused) {
    const auto refused = [&](FaultRule rule) {
        try {
            table_.add(std::move(rule));
        } catch (const std::invalid_argument& e) {
            return std::string(e.what());
        }
        return std::string("accepted");
    };
    EXPECT_NE(refused({.route = "/api/scan/v0/nope", .latency = 1ms}).find("names none of the"),
              std::string::npos);
    EXPECT_NE(refused({.route = dso, .method = "POST", .latency = 1ms}).find("names none"),
              std::string::npos);
    EXPECT_EQ(refused({.route = dso, .error_status = 404, .error_share = 1}),
              "error_status must be 429, 500 or 503");
    EXPECT_NE(
        refused({.route = dso, .error_status = 500, .error_share = share_scale, .reset_share = 1})
            .find("together at most 1"),
        std::string::npos);
    EXPECT_NE(refused({.route = dso, .latency = 600'001ms}).find("ten minutes"), std::string::npos);
    EXPECT_EQ(refused({.route = "/api/scan/v0/voterequests/x", .latency = 1ms}), "accepted");
    EXPECT_FALSE(table_.rules().empty());
}

}  // namespace
}  // namespace cantonlite::http::faults_test
