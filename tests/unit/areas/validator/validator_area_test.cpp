#include "cantonlite/areas/validator/validator_area.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cantonlite/http/path.hpp"
#include "cantonlite/model/network.hpp"
#include "cantonlite/store/ledger_store.hpp"

namespace cantonlite::areas::validator {
namespace {

class ValidatorAreaTest : public testing::Test {
  protected:
    http::Response get(const std::string& target) const {
        const http::Request request{
            .method = "GET", .target = target, .headers = {{"Host", "v:5003"}}};
        return area_.handle(request, *http::split_path(request.path()));
    }

    store::LedgerStore store_{model::Network{.dso_party = "DSO::1220ab"}, model::Timestamp{}};
    ValidatorArea area_{store_};
};

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
}  // namespace cantonlite::areas::validator
