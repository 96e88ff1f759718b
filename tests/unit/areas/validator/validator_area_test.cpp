#include "cantonlite/areas/validator/validator_area.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "areas/validator/validator_test_support.hpp"
#include "cantonlite/http/path.hpp"
#include "cantonlite/model/network.hpp"
#include "cantonlite/splice/splice_views.hpp"
#include "cantonlite/store/ledger_store.hpp"

namespace cantonlite::areas::validator::validator_area_test {
namespace {

class ValidatorAreaTest : public testing::Test {
  protected:
    http::Response get(const std::string& target) const {
        const http::Request request{
            .method = "GET", .target = target, .headers = {{"Host", "v:5003"}}};
        return area_.handle(request, *http::split_path(request.path()));
    }

    store::LedgerStore store_{
        model::Network{.dso_party = "DSO::1220ab", .validator_party = "validator::1220cd"},
        model::Timestamp{}};
    const splice::SpliceViews& views_ = splice::SpliceViews::attach(store_);
    ValidatorArea area_{store_};
};

// validator-internal.yaml getValidatorUserInfo (security: [], validator_public): the validator
// operator's party and ledger API user; `featured` when it holds a FeaturedAppRight
// (HttpValidatorPublicHandler: lookupValidatorFeaturedAppRight().isDefined).
TEST_F(ValidatorAreaTest, TheValidatorUserIsTheOperatorWithoutAToken) {
    const http::Response response = get("/api/validator/v0/validator-user");

    ASSERT_EQ(response.status, 200) << response.body;
    EXPECT_EQ(response.body,
              R"({"party_id":"validator::1220cd","user_name":"ledger-api-user","featured":false})");
}

TEST(ValidatorUser, TheSeedNamesTheOperatorsLedgerApiUser) {
    store::LedgerStore store{model::Network{.dso_party = "DSO::1220ab",
                                            .validator_party = "validator-1::1220ef",
                                            .validator_user = "validator-operator"},
                             model::Timestamp{}};
    splice::SpliceViews::attach(store);
    const ValidatorArea area{store};
    const http::Request request{.method = "GET", .target = "/api/validator/v0/validator-user"};

    const http::Response response = area.handle(request, *http::split_path(request.path()));

    EXPECT_EQ(nlohmann::json::parse(response.body),
              nlohmann::json::parse(R"({"party_id": "validator-1::1220ef",
                                        "user_name": "validator-operator", "featured": false})"));
}

TEST(ValidatorUser, IsFeaturedOnceTheOperatorHoldsAFeaturedAppRight) {
    using valtest::seed_with;
    const valtest::ScanClient featured(
        seed_with({{{"step", "feature_app"}, {"provider", scan::scantest::validator}}}));
    const valtest::ScanClient another(
        seed_with({{{"step", "feature_app"}, {"provider", "alice"}}}));

    EXPECT_EQ(
        scan::scantest::body_of(featured.get("/api/validator/v0/validator-user")).at("featured"),
        true);
    EXPECT_EQ(
        scan::scantest::body_of(another.get("/api/validator/v0/validator-user")).at("featured"),
        false);
}

TEST_F(ValidatorAreaTest, ServesThePrefixApiValidator) {
    EXPECT_EQ(area_.prefix(), "/api/validator/");
}

TEST_F(ValidatorAreaTest, LivezIsOkWithEmptyBodyAndNoContentType) {
    const http::Response response = get("/api/validator/livez");

    EXPECT_EQ(response.status, 200);
    EXPECT_EQ(response.content_type, "");
    EXPECT_EQ(response.body, "");
}

TEST_F(ValidatorAreaTest, UnknownPathIsTheNotFoundJson) {
    const http::Response response = get("/api/validator/v0/nope");

    EXPECT_EQ(response.status, 404);
    EXPECT_EQ(response.content_type, "application/json");
    EXPECT_EQ(nlohmann::json::parse(response.body),
              (nlohmann::json{{"error",
                               "The requested resource could not be found: "
                               "http://v:5003/api/validator/v0/nope"}}));
}

}  // namespace
}  // namespace cantonlite::areas::validator::validator_area_test
