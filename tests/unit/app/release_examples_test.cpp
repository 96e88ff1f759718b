// The examples of `describe` follow the release served: each one, sent to a router of that release
// with its user's token, gets the status it expects; under splice-0.9 none asks a path that Canton
// 3.6 disables or Splice 0.9 removed (op 1 and op 3 ask their replacements).
#include <memory>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cantonlite/app/application.hpp"
#include "cantonlite/app/describe.hpp"
#include "cantonlite/app/examples.hpp"
#include "cantonlite/app/token.hpp"
#include "cantonlite/auth/jwt_verifier.hpp"
#include "cantonlite/seed/seed_loader.hpp"
#include "small_seed.hpp"

namespace cantonlite::app::release_examples_test {
namespace {

using areas::ApiProfile;
using areas::Release;
using nlohmann::json;

const ApiProfile splice_0_6{};
const ApiProfile splice_0_9{.release = Release::splice_0_9};

using testseeds::small_seed;  // the describe tests' network

std::unique_ptr<store::LedgerStore> load(const json& seed) {
    return seed::load_seed(seed, "seed.json");
}

std::unique_ptr<store::LedgerStore> default_network() {
    return seed::load_seed_file(std::string(CANTONLITE_SOURCE_DIR) +
                                "/config/default-network.json");
}

// The example as a client sends it, with a fresh token of its user.
http::Request request_of(const store::LedgerStore& store, const Example& e) {
    http::Request r{.method = e.method, .target = e.path, .body = e.body ? e.body->dump() : ""};
    if (e.body) r.headers.push_back({"Content-Type", "application/json"});
    if (e.user) {
        r.headers.push_back(
            {"Authorization",
             "Bearer " + make_token(store.network(), *e.user, auth::wall_clock_seconds(), 3600)});
    }
    return r;
}

// Sends every example of `profile` to a router of that release; each must get its status.
void expect_every_status(const store::LedgerStore& store, const ApiProfile& profile) {
    const auto router = make_router(store, profile);
    const std::vector<Example> examples = make_examples(store, profile);
    ASSERT_FALSE(examples.empty());
    for (const Example& e : examples) {
        const http::Response r = router->handle(request_of(store, e));
        EXPECT_EQ(r.status, e.expect_status)
            << "op " << e.op << " " << e.method << " " << e.path << " ("
            << areas::release_name(profile.release) << "): " << e.note << "\n"
            << (e.body ? e.body->dump() : "") << "\n-> " << r.body;
        // Neither a disabled endpoint nor a route the release does not serve.
        EXPECT_EQ(r.body.find("DEPRECATED_API_DISABLED"), std::string::npos) << e.path;
        EXPECT_EQ(r.body.find("The requested resource could not be found"), std::string::npos)
            << e.path << ": " << r.body;
    }
}

TEST(ReleaseExamples, Splice09ExamplesGetTheirStatusOnTheSmallNetwork) {
    expect_every_status(*load(small_seed()), splice_0_9);
}

TEST(ReleaseExamples, Splice09ExamplesGetTheirStatusOnTheDefaultNetwork) {
    expect_every_status(*default_network(), splice_0_9);
}

TEST(ReleaseExamples, Splice09ExamplesGetTheirStatusOnAnEmptyNetwork) {
    expect_every_status(*load(json::parse(R"({"network": {"dso_party": "DSO::1220d5"}})")),
                        splice_0_9);
}

TEST(ReleaseExamples, Splice09ExamplesGetTheirStatusWithoutLedgerAuth) {
    json seed = small_seed();
    seed["auth"]["ledger_auth"] = false;
    expect_every_status(*load(seed), splice_0_9);
}

TEST(ReleaseExamples, Splice06ExamplesStillGetTheirStatus) {
    expect_every_status(*load(small_seed()), splice_0_6);
    expect_every_status(*default_network(), splice_0_6);
}

TEST(ReleaseExamples, Splice09ExamplesUseNoRemovedOrDisabledPath) {
    const std::set<std::string> gone{
        "/v2/updates/transaction-by-offset",
        "/api/scan/v0/holdings/state",
        "/api/scan/v1/holdings/state",
        "/api/scan/v0/state/acs",
        "/api/scan/v1/state/acs",
    };
    for (const auto& store : {load(small_seed()), default_network()}) {
        for (const Example& e : make_examples(*store, splice_0_9)) {
            EXPECT_FALSE(gone.contains(e.path)) << "op " << e.op << " " << e.path;
        }
    }
}

TEST(ReleaseExamples, Splice09KeepsTheOperationsStatusesAndUsers) {
    const auto store = load(small_seed());
    const std::vector<Example> old = make_examples(*store, splice_0_6);
    const std::vector<Example> now = make_examples(*store, splice_0_9);
    ASSERT_EQ(now.size(), old.size());
    for (std::size_t i = 0; i < now.size(); ++i) {
        EXPECT_EQ(now[i].op, old[i].op);
        EXPECT_EQ(now[i].method, old[i].method);
        EXPECT_EQ(now[i].user, old[i].user);
        EXPECT_EQ(now[i].expect_status, old[i].expect_status);
        if (now[i].op != 1 && now[i].op != 3) {
            EXPECT_EQ(now[i].path, old[i].path);
            EXPECT_EQ(now[i].body, old[i].body);
            EXPECT_EQ(now[i].note, old[i].note);
        }
    }
}

TEST(ReleaseExamples, Splice09OpOneAsksUpdateByOffsetAtTheSameOffsets) {
    const auto store = load(small_seed());
    std::vector<Example> op1;
    for (const Example& e : make_examples(*store, splice_0_9)) {
        if (e.op == 1) op1.push_back(e);
    }
    ASSERT_EQ(op1.size(), 2U);
    const auto body = [](int offset) {
        return nlohmann::ordered_json::parse(R"({"offset": )" + std::to_string(offset) +
                                             R"(, "updateFormat": {"includeTransactions": {
            "eventFormat": {"filtersByParty": {"carol::1220c0": {}}, "verbose": true},
            "transactionShape": "TRANSACTION_SHAPE_ACS_DELTA"}}})");
    };
    EXPECT_EQ(op1[0].path, "/v2/updates/update-by-offset");
    const auto end = static_cast<int>(store->ledger_end());
    EXPECT_EQ(op1[0].body, body(end));  // the latest transaction: carol's mint
    EXPECT_EQ(op1[0].expect_status, 200);
    EXPECT_EQ(op1[1].body, body(end + 1));  // beyond the ledger end
    EXPECT_EQ(op1[1].expect_status, 404);
    for (const Example& e : op1) {
        EXPECT_EQ(e.user, "carol");
        EXPECT_EQ(
            e.note.rfind("splice-0.9's replacement of POST /v2/updates/transaction-by-offset", 0),
            0U)
            << e.note;
    }
}

TEST(ReleaseExamples, Splice09OpThreeAsksTheV2HoldingsStateOfTheSameSnapshot) {
    const auto store = load(small_seed());
    std::vector<Example> old, now;
    for (const Example& e : make_examples(*store, splice_0_6)) {
        if (e.op == 3) old.push_back(e);
    }
    for (const Example& e : make_examples(*store, splice_0_9)) {
        if (e.op == 3) now.push_back(e);
    }
    ASSERT_EQ(now.size(), 2U);
    ASSERT_EQ(old.size(), 2U);
    for (std::size_t i = 0; i < now.size(); ++i) {
        EXPECT_EQ(now[i].path, "/api/scan/v2/holdings/state");
        EXPECT_EQ(now[i].body, old[i].body);  // the same snapshot and owner
        EXPECT_EQ(now[i].note,
                  "splice-0.9's replacement of POST /api/scan/v0/holdings/state "
                  "(removed with v1 in Splice 0.9): " +
                      old[i].note);
    }
}

TEST(ReleaseExamples, DescribeListsTheExamplesOfItsRelease) {
    const auto store = load(small_seed());
    const nlohmann::ordered_json doc = describe_json(*store, splice_0_9);
    std::vector<std::string> paths;
    for (const auto& e : doc["examples"]) {
        if (e["op"] == 1 || e["op"] == 3) paths.push_back(e["path"]);
    }
    EXPECT_EQ(paths, (std::vector<std::string>{
                         "/v2/updates/update-by-offset", "/v2/updates/update-by-offset",
                         "/api/scan/v2/holdings/state", "/api/scan/v2/holdings/state"}));
    const std::string text = describe_text(*store, {.profile = splice_0_9});
    const std::string url = "http://127.0.0.1:7575";
    EXPECT_NE(text.find(url + "/v2/updates/update-by-offset "), std::string::npos) << text;
    EXPECT_NE(text.find(url + "/api/scan/v2/holdings/state "), std::string::npos) << text;
    EXPECT_EQ(text.find(url + "/v2/updates/transaction-by-offset"), std::string::npos) << text;
    EXPECT_EQ(text.find(url + "/api/scan/v0/holdings/state"), std::string::npos) << text;
}

}  // namespace
}  // namespace cantonlite::app::release_examples_test
