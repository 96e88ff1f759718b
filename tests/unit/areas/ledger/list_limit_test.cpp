// The HTTP list endpoints' node limit (Endpoints.asList, handleListLimit: 200 elements, then 413
// JSON_API_MAXIMUM_LIST_ELEMENTS_NUMBER_REACHED) over a generated network of 250 mints.

#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cantonlite/app/generate.hpp"
#include "cantonlite/seed/seed_loader.hpp"
#include "ledger_test_support.hpp"

namespace cantonlite::areas::ledger::list_limit_test {
namespace {

using nlohmann::json;

class ListLimitTest : public LedgerSuite {
  protected:
    static void SetUpTestSuite() {
        std::ostringstream seed;
        app::write_generated_seed(seed, {.parties = 1, .amulets = 250, .updates = 0, .seed = 7});
        serve(seed::load_seed(json::parse(seed.str()), "generated"));
    }

    static json format() {
        const std::string party = store_->network().find_user("party-0")->rights.can_act_as.at(0);
        json by_party = json::object();
        by_party[party] = {{"cumulative", json::array()}};
        return {{"filtersByParty", by_party}};
    }
    static json updates_body() {
        return {
            {"beginExclusive", 0},
            {"updateFormat",
             {{"includeTransactions",
               {{"eventFormat", format()}, {"transactionShape", "TRANSACTION_SHAPE_ACS_DELTA"}}}}}};
    }
    static json acs_body() {
        return {{"activeAtOffset", store_->ledger_end()}, {"eventFormat", format()}};
    }

    static http::Response post(const std::string& target, const json& body) {
        return call("POST", target, body.dump(), "party-0");
    }
};

void expect_too_large(const http::Response& r) {
    EXPECT_EQ(r.status, 413) << r.body.substr(0, 300);
    const json e = json::parse(r.body);
    EXPECT_EQ(e["code"], "JSON_API_MAXIMUM_LIST_ELEMENTS_NUMBER_REACHED");
    EXPECT_EQ(e["cause"],
              "The number of matching elements (201) is greater than the node limit (200).");
    EXPECT_EQ(e["errorCategory"], 2);
    EXPECT_EQ(e["grpcCodeValue"], 10);
    EXPECT_EQ(e["context"], json::object());
    EXPECT_EQ(e["retryInfo"], "1 second");
    EXPECT_EQ(e["definiteAnswer"], false);
    EXPECT_EQ(e["correlationId"], e["traceId"]);
}

TEST_F(ListLimitTest, MoreUpdatesThanTheNodeLimitAre413) {
    expect_too_large(post("/v2/updates", updates_body()));
}

TEST_F(ListLimitTest, MoreActiveContractsThanTheNodeLimitAre413) {
    expect_too_large(post("/v2/state/active-contracts", acs_body()));
}

TEST_F(ListLimitTest, ALimitUpToTheNodeLimitNeverErrs) {
    const http::Response r = post("/v2/updates?limit=200", updates_body());

    ASSERT_EQ(r.status, 200);
    EXPECT_EQ(json::parse(r.body).size(), 200U);
}

TEST_F(ListLimitTest, ALimitAboveTheNodeLimitIsIgnored) {
    expect_too_large(post("/v2/state/active-contracts?limit=1000", acs_body()));
}

TEST_F(ListLimitTest, ThePagesOfTheAcsAddUpToTheAcs) {
    json body = {{"eventFormat", format()}, {"maxPageSize", 100}};
    std::vector<std::string> paged;
    for (int guard = 0; guard < 10; ++guard) {
        const http::Response r = post("/v2/state/active-contracts-page", body);
        ASSERT_EQ(r.status, 200) << r.body.substr(0, 300);
        const json page = json::parse(r.body);
        for (const json& c : page["activeContracts"])
            paged.push_back(c["contractEntry"]["JsActiveContract"]["createdEvent"]["contractId"]);
        if (page["nextPageToken"].is_null()) break;
        body["pageToken"] = page["nextPageToken"];
    }
    const json first = json::parse(post("/v2/state/active-contracts?limit=200", acs_body()).body);

    ASSERT_GT(paged.size(), 200U);
    for (std::size_t i = 0; i < first.size(); ++i)
        EXPECT_EQ(first[i]["contractEntry"]["JsActiveContract"]["createdEvent"]["contractId"],
                  paged[i]);
}

}  // namespace
}  // namespace cantonlite::areas::ledger::list_limit_test
