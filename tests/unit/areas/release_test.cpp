// The release switch: each line's routes, Canton 3.6's DEPRECATED_API_DISABLED and the flags that
// re-enable the deprecated APIs (splice-0.9/SOURCE.md; ApiDeprecation.scala,
// JsonV2DeprecatedApiDisabledTests), the settings that choose it, and describe's report of it.
#include "cantonlite/areas/release.hpp"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cantonlite/app/application.hpp"
#include "cantonlite/app/config.hpp"
#include "cantonlite/app/describe.hpp"
#include "cantonlite/app/token.hpp"
#include "cantonlite/auth/jwt_verifier.hpp"
#include "cantonlite/seed/seed_loader.hpp"

namespace cantonlite::areas::release_test {
namespace {

using nlohmann::json;

const std::string default_seed =
    std::string(CANTONLITE_SOURCE_DIR) + "/config/default-network.json";

class ReleaseRoutes : public testing::Test {
  protected:
    static void SetUpTestSuite() { store_ = seed::load_seed_file(default_seed).release(); }
    static void TearDownTestSuite() {
        delete store_;
        store_ = nullptr;
    }

    static http::Response call(const http::Router& router, const std::string& method,
                               const std::string& target, const std::string& body = "",
                               const std::string& user = "alice") {
        http::Request request{.method = method, .target = target, .body = body};
        if (!body.empty()) request.headers.push_back({"Content-Type", "application/json"});
        request.headers.push_back(
            {"Authorization", "Bearer " + app::make_token(store_->network(), user,
                                                          auth::wall_clock_seconds(), 3600)});
        return router.handle(request);
    }

    static std::string op1_body() {
        return json{{"offset", 2},
                    {"requestingParties", {store_->network().find_user("alice")->party}}}
            .dump();
    }

    static inline store::LedgerStore* store_ = nullptr;
};

const std::string op1_cause =
    "POST /v2/updates/transaction-by-offset was deprecated in Canton 3.4, is disabled by default "
    "since Canton 3.6 and will be removed in Canton 3.7. Set "
    "`canton.participants.<participant>.features.deprecated.enable-deprecated-endpoints-34 = "
    "true` to re-enable it temporarily.";

TEST_F(ReleaseRoutes, Splice06ServesOpOneAndTheV0AndV1HoldingsState) {
    const auto router = app::make_router(*store_);
    EXPECT_EQ(call(*router, "POST", "/v2/updates/transaction-by-offset", op1_body()).status, 200);
    const std::string holdings =
        R"({"migration_id": 0, "record_time": "2025-01-20T00:00:00Z", "page_size": 10})";
    EXPECT_NE(call(*router, "POST", "/api/scan/v0/holdings/state", holdings).status, 404);
    EXPECT_NE(call(*router, "POST", "/api/scan/v1/holdings/state", holdings).status, 404);
    // No deprecation is in force before Canton 3.6: flats and transaction-by-id, which the wallet
    // SDK reads, and the transaction trees are served (tree_handlers_test.cpp).
    EXPECT_NE(call(*router, "POST", "/v2/updates/flats", "{}").status, 404);
    EXPECT_NE(call(*router, "POST", "/v2/updates/transaction-by-id", "{}").status, 404);
    EXPECT_NE(call(*router, "POST", "/v2/updates/trees", "{}").status, 404);
    EXPECT_NE(call(*router, "GET", "/v2/updates/transaction-tree-by-offset/2", "").status, 404);
    EXPECT_NE(call(*router, "GET", "/v2/updates/transaction-tree-by-id/1220aa", "").status, 404);
}

TEST_F(ReleaseRoutes, Splice09DisablesOpOneWithDeprecatedApiDisabled) {
    const auto router = app::make_router(*store_, {.release = Release::splice_0_9});
    const http::Response r = call(*router, "POST", "/v2/updates/transaction-by-offset", op1_body());
    EXPECT_EQ(r.status, 400);  // FAILED_PRECONDITION, as the JSON API maps it
    const json error = json::parse(r.body);
    EXPECT_EQ(error.at("code"), "DEPRECATED_API_DISABLED");
    EXPECT_EQ(error.at("cause"), op1_cause);
    EXPECT_EQ(error.at("errorCategory"), 9);  // InvalidGivenCurrentSystemStateOther
    EXPECT_EQ(error.at("grpcCodeValue"), 9);
}

TEST_F(ReleaseRoutes, TheRejectionComesBeforeTheBodyAndTheToken) {
    const auto router = app::make_router(*store_, {.release = Release::splice_0_9});
    const http::Response r = router->handle(http::Request{
        .method = "POST", .target = "/v2/updates/transaction-by-offset", .body = "not JSON"});
    EXPECT_EQ(r.status, 400);
    EXPECT_EQ(json::parse(r.body).at("code"), "DEPRECATED_API_DISABLED");
}

TEST_F(ReleaseRoutes, Splice09DisablesEveryDeprecatedEndpointOfTheSpec) {
    const auto router = app::make_router(*store_, {.release = Release::splice_0_9});
    const struct {
        const char* method;
        const char* target;
        const char* flag;
    } cases[] = {
        {"POST", "/v2/updates/flats", "enable-deprecated-endpoints-34"},
        {"POST", "/v2/updates/trees", "enable-deprecated-endpoints-34"},
        {"POST", "/v2/updates/transaction-by-id", "enable-deprecated-endpoints-34"},
        {"GET", "/v2/updates/transaction-tree-by-offset/3", "enable-deprecated-endpoints-34"},
        {"GET", "/v2/updates/transaction-tree-by-id/x", "enable-deprecated-endpoints-34"},
        {"POST", "/v2/commands/submit-and-wait-for-transaction-tree",
         "enable-deprecated-endpoints-34"},
        {"GET", "/v2/interactive-submission/preferred-package-version",
         "enable-deprecated-endpoints-34"},
        {"GET", "/v2/package-vetting", "enable-deprecated-endpoints-35"},
        {"POST", "/v2/package-vetting", "enable-deprecated-endpoints-35"},
        {"GET", "/v2/state/active-contracts-page", "enable-deprecated-endpoints-35"},
    };
    for (const auto& c : cases) {
        const http::Response r = call(*router, c.method, c.target, "{}");
        EXPECT_EQ(r.status, 400) << c.target;
        const json error = json::parse(r.body);
        EXPECT_EQ(error.at("code"), "DEPRECATED_API_DISABLED") << c.target;
        // Each rejection names its own flag (JsonV2DeprecatedApiDisabledTests).
        EXPECT_NE(error.at("cause").get<std::string>().find(c.flag), std::string::npos)
            << error.at("cause");
    }
}

TEST_F(ReleaseRoutes, TheParticipantFlagReEnablesOpOne) {
    const auto router = app::make_router(
        *store_, {.release = Release::splice_0_9, .deprecated = {.endpoints_34 = true}});
    const auto reference = app::make_router(*store_);
    const http::Response r = call(*router, "POST", "/v2/updates/transaction-by-offset", op1_body());
    EXPECT_EQ(r.status, 200);
    EXPECT_EQ(
        json::parse(r.body).at("transaction"),
        json::parse(call(*reference, "POST", "/v2/updates/transaction-by-offset", op1_body()).body)
            .at("transaction"));
    // 3.5's deprecations keep their own flag.
    EXPECT_EQ(json::parse(call(*router, "GET", "/v2/package-vetting").body).at("code"),
              "DEPRECATED_API_DISABLED");
}

TEST_F(ReleaseRoutes, TheFilterAndVerboseFieldsAreDisabledUntilTheirFlagIsSet) {
    const std::string party = store_->network().find_user("alice")->party;
    const std::string legacy = json{{"beginExclusive", 0},
                                    {"endInclusive", 3},
                                    {"verbose", true},
                                    {"filter", {{"filtersByParty", {{party, json::object()}}}}}}
                                   .dump();
    const auto disabled = app::make_router(*store_, {.release = Release::splice_0_9});
    const http::Response r = call(*disabled, "POST", "/v2/updates", legacy);
    EXPECT_EQ(r.status, 400);
    EXPECT_EQ(json::parse(r.body).at("cause"),
              "The fields filter/verbose of the /v2/updates requests was deprecated in Canton 3.4, "
              "is disabled by default since Canton 3.6 and will be removed in Canton 3.7. Set "
              "`canton.participants.<participant>.features.deprecated.enable-deprecated-"
              "parameters-34 = true` to re-enable it temporarily.");
    const auto enabled = app::make_router(
        *store_, {.release = Release::splice_0_9, .deprecated = {.parameters_34 = true}});
    const auto original = app::make_router(*store_);
    EXPECT_EQ(call(*enabled, "POST", "/v2/updates", legacy).status, 200);
    EXPECT_EQ(call(*original, "POST", "/v2/updates", legacy).status, 200);
    // The read side itself is in both lines.
    for (const auto* router : {disabled.get(), original.get()}) {
        EXPECT_EQ(call(*router, "GET", "/v2/state/ledger-end").status, 200);
    }
}

TEST_F(ReleaseRoutes, Splice09RemovedTheV0AndV1HoldingsState) {
    const auto router = app::make_router(*store_, {.release = Release::splice_0_9});
    const auto unknown = call(*router, "POST", "/api/scan/v9/unknown", "{}");
    for (const char* path : {"/api/scan/v0/holdings/state", "/api/scan/v1/holdings/state"}) {
        const http::Response r = call(*router, "POST", path, "{}");
        EXPECT_EQ(r.status, 404) << path;
        EXPECT_EQ(json::parse(r.body).at("error").get<std::string>(),
                  "The requested resource could not be found: " + std::string(path));
    }
    EXPECT_EQ(unknown.status, 404);
    // What stays: the summaries, the lookups, import updates; what 0.9 adds answers there only.
    EXPECT_EQ(call(*router, "GET", "/api/scan/v0/dso-party-id").status, 200);
    const std::string v2 = R"({"migration_id": 0, "record_time": "2025-01-02T00:00:00Z",
        "owner_party_ids": [")" +
                           store_->network().find_user("alice")->party + R"("], "page_size": 10})";
    EXPECT_EQ(call(*router, "POST", "/api/scan/v2/holdings/state", v2).status, 200);
    EXPECT_EQ(call(*app::make_router(*store_), "POST", "/api/scan/v2/holdings/state", v2).status,
              404);
}

TEST(ReleaseNames, ParseAndPrint) {
    EXPECT_EQ(parse_release("splice-0.6"), Release::splice_0_6);
    EXPECT_EQ(parse_release("splice-0.9"), Release::splice_0_9);
    EXPECT_FALSE(parse_release("0.9").has_value());
    EXPECT_EQ(release_name(Release::splice_0_9), "splice-0.9");
    EXPECT_EQ(canton_version(Release::splice_0_9), "3.6");
    EXPECT_EQ(splice_version(Release::splice_0_6), "0.6.12");
}

TEST(ReleaseSettings, FromTheFileTheVariableAndTheFlag) {
    const auto dir = std::filesystem::temp_directory_path() /
                     ("cantonlite-release-test-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    const auto file = dir / "c.json";
    std::ofstream(file) << R"({"seed": "s.json", "release": "splice-0.9",
        "deprecated": {"enable_deprecated_endpoints_34": true}})";
    app::Config config = app::load_config(file);
    EXPECT_EQ(config.api.release, Release::splice_0_9);
    EXPECT_TRUE(config.api.deprecated.endpoints_34);
    EXPECT_FALSE(config.api.deprecated.parameters_34);

    app::apply_environment(config, [](const char* name) -> const char* {
        return std::string(name) == "CANTONLITE_RELEASE" ? "splice-0.6" : nullptr;
    });
    EXPECT_EQ(config.api.release, Release::splice_0_6);
    app::apply_setting(config, "release", "splice-0.9", "--release");
    app::apply_setting(config, "enable_deprecated", "true", "--enable-deprecated");
    EXPECT_EQ(config.api.release, Release::splice_0_9);
    EXPECT_TRUE(config.api.deprecated.parameters_34 && config.api.deprecated.endpoints_35);

    const auto error = [&](const std::string& text) {
        std::ofstream(file) << text;
        try {
            (void)app::load_config(file);
        } catch (const app::ConfigError& e) {
            return std::string(e.what()).substr(file.string().size() + 2);
        }
        return std::string();
    };
    EXPECT_EQ(error(R"({"seed": "s.json", "release": "0.9"})"),
              R"(/release: must be "splice-0.6" or "splice-0.9", got "0.9")");
    EXPECT_EQ(error(R"({"seed": "s.json", "deprecated": {"endpoints_34": true}})"),
              "/deprecated/endpoints_34: unknown key");
    EXPECT_EQ(error(R"({"seed": "s.json", "deprecated": {"enable_deprecated_endpoints_34": 1}})"),
              "/deprecated/enable_deprecated_endpoints_34: must be true or false, got 1");
    try {
        app::apply_setting(config, "release", "3.6", "--release");
        ADD_FAILURE();
    } catch (const app::ConfigError& e) {
        EXPECT_STREQ(e.what(), R"(--release: must be "splice-0.6" or "splice-0.9", got "3.6")");
    }
    std::filesystem::remove_all(dir);
}

TEST_F(ReleaseRoutes, DescribeSaysWhichReleaseIsServed) {
    const json doc =
        json::parse(app::describe_json(*store_, {.release = Release::splice_0_9}).dump());
    EXPECT_EQ(doc.at("release"), json::parse(R"({"name": "splice-0.9", "canton": "3.6",
        "splice": "0.9", "deprecated_apis_enabled": false})"));
    EXPECT_EQ(json::parse(app::describe_json(*store_).dump()).at("release").at("name"),
              "splice-0.6");
    EXPECT_NE(app::describe_text(*store_, {.profile = {.release = Release::splice_0_9}})
                  .find("  release           splice-0.9 (Canton 3.6, Splice 0.9)\n"),
              std::string::npos);
}

}  // namespace
}  // namespace cantonlite::areas::release_test
