// serve --localnet's routers: each role's validator serves the wallets of its own users (Splice
// LocalNet's conf/splice/<role>/app-auth.conf: validator-wallet-users), while the main port's
// validator serves every wallet user. Users without a `validator` are served by every validator.
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "areas/validator/validator_test_support.hpp"
#include "cantonlite/app/application.hpp"
#include "cantonlite/app/localnet.hpp"
#include "cantonlite/app/token.hpp"
#include "cantonlite/seed/seed_loader.hpp"
#include "cantonlite/util/shared_gate.hpp"

namespace cantonlite::app::localnet_test {
namespace {

using areas::validator::valtest::bearer;
using areas::validator::valtest::claims_for;
using areas::validator::valtest::jwt;
using nlohmann::json;
namespace scantest = areas::scan::scantest;

const std::string offers = "/api/validator/v0/wallet/transfer-offers";

// alice's wallet is the app-user validator's, bob's the app-provider's, carol's any validator's;
// zoe, added by a step, is the sv validator's.
json role_seed() {
    json users = json::array();
    users.push_back(
        {{"id", "alice"}, {"party", scantest::alice}, {"wallet", true}, {"validator", "app-user"}});
    users.push_back(
        {{"id", "bob"}, {"party", scantest::bob}, {"wallet", true}, {"validator", "app-provider"}});
    users.push_back({{"id", "carol"}, {"party", scantest::carol}, {"wallet", true}});
    json steps = json::array();
    steps.push_back({{"step", "add_user"}, {"id", "zoe"}, {"wallet", true}, {"validator", "sv"}});
    return {{"network", scantest::network_json()},
            {"users", users},
            {"auth",
             {{"hs256", {{"secret", areas::validator::valtest::secret}}},
              {"audience", areas::validator::valtest::audience}}},
            {"steps", steps}};
}

class LocalNetRoles : public testing::Test {
  protected:
    LocalNetRoles()
        : store_(seed::load_seed(role_seed(), "test-seed")),
          main_(make_router(*store_, {})),
          localnet_(make_localnet(*store_, gate_, *main_, {})) {}

    // The status of user's GET of their transfer offers through the router listening on `port`
    // (0: the main port), with Host `host`.
    int offers_status(std::uint16_t port, const std::string& user,
                      const std::string& host = "localhost") {
        const http::Router* router = main_.get();
        for (const auto& l : localnet_.listeners) {
            if (l.port == port) router = l.router;
        }
        const std::string h = port == 0 ? host : host + ":" + std::to_string(port);
        last_ = router->handle(http::Request{
            .method = "GET",
            .target = offers,
            .headers = {{"Host", h}, bearer(jwt(claims_for(user)))},
        });
        return last_.status;
    }

    std::unique_ptr<store::LedgerStore> store_;
    util::SharedGate gate_;
    std::unique_ptr<http::Router> main_;
    LocalNet localnet_;
    http::Response last_;
};

TEST_F(LocalNetRoles, EachRolesValidatorServesItsOwnWalletUsers) {
    EXPECT_EQ(offers_status(2903, "alice"), 200);
    EXPECT_EQ(offers_status(3903, "bob"), 200);
    EXPECT_EQ(offers_status(4903, "zoe"), 200);
}

TEST_F(LocalNetRoles, AnotherRolesValidatorHasNoWalletForTheUser) {
    EXPECT_EQ(offers_status(3903, "alice"), 404);
    EXPECT_EQ(
        json::parse(last_.body),
        json({{"error", "No wallet found for user 'alice' for operation 'listTransferOffers'"}}));
    EXPECT_EQ(offers_status(4903, "alice"), 404);
    EXPECT_EQ(offers_status(2903, "bob"), 404);
    EXPECT_EQ(offers_status(2903, "zoe"), 404);
}

TEST_F(LocalNetRoles, TheHostRoutedValidatorsServeTheirRolesUsers) {
    EXPECT_EQ(offers_status(2000, "alice", "wallet.localhost"), 200);
    EXPECT_EQ(offers_status(2000, "bob", "wallet.localhost"), 404);
    EXPECT_EQ(offers_status(3000, "bob", "wallet.localhost"), 200);
    EXPECT_EQ(offers_status(4000, "zoe", "wallet.localhost"), 200);
    EXPECT_EQ(offers_status(4000, "alice", "wallet.localhost"), 404);
}

TEST_F(LocalNetRoles, AUserWithoutAValidatorIsServedByEveryValidator) {
    for (const std::uint16_t port : {2903, 3903, 4903})
        EXPECT_EQ(offers_status(port, "carol"), 200);
}

TEST_F(LocalNetRoles, TheMainPortServesEveryWalletUser) {
    for (const char* user : {"alice", "bob", "carol", "zoe"})
        EXPECT_EQ(offers_status(0, user), 200);
}

// The shipped LocalNet-shaped network (config/localnet-network.json), as `serve --localnet`
// loads it through the shipped config: LocalNet's users, each wallet on its role's validator.
class ShippedLocalNet : public testing::Test {
  protected:
    ShippedLocalNet()
        : store_(seed::load_seed_file(std::string(CANTONLITE_SOURCE_DIR) +
                                      "/config/localnet-network.json")),
          main_(make_router(*store_, {})),
          localnet_(make_localnet(*store_, gate_, *main_, {})) {}

    // The answer to `user`'s token on `target` through the LocalNet listener on `port`.
    http::Response get(std::uint16_t port, const std::string& user, const std::string& target) {
        return send(port, user, "GET", target, "");
    }

    http::Response send(std::uint16_t port, const std::string& user, const std::string& method,
                        const std::string& target, const std::string& body) {
        const http::Router* router = nullptr;
        for (const auto& l : localnet_.listeners) {
            if (l.port == port) router = l.router;
        }
        const std::int64_t now = areas::validator::valtest::now_seconds();
        return router->handle(http::Request{
            .method = method,
            .target = target,
            .headers = {{"Host", "localhost:" + std::to_string(port)},
                        {"Content-Type", "application/json"},
                        bearer(make_token(store_->network(), user, now - 10, 3600))},
            .body = body,
        });
    }

    std::unique_ptr<store::LedgerStore> store_;
    util::SharedGate gate_;
    std::unique_ptr<http::Router> main_;
    LocalNet localnet_;
};

TEST_F(ShippedLocalNet, HasLocalnetsUsers) {
    const model::Network& n = store_->network();
    ASSERT_NE(n.find_user("ledger-api-user"), nullptr);
    EXPECT_EQ(n.find_user("app-user")->validator, "app-user");
    EXPECT_EQ(n.find_user("app-provider")->validator, "app-provider");
    EXPECT_EQ(n.find_user("sv")->validator, "sv");
    EXPECT_TRUE(n.find_user("app-user")->party.starts_with("app_user_localnet-localparty-1::"));
    EXPECT_TRUE(
        n.find_user("app-provider")->party.starts_with("app_provider_localnet-localparty-1::"));
    EXPECT_EQ(n.find_user("sv")->party, n.svs.at(0).party);
}

TEST_F(ShippedLocalNet, EachWalletUserHasTheirWalletOnTheirRolesValidatorOnly) {
    const std::string offers_path = "/api/validator/v0/wallet/transfer-offers";
    const std::vector<std::pair<std::string, std::uint16_t>> homes = {
        {"app-user", 2903}, {"app-provider", 3903}, {"sv", 4903}};
    for (const auto& [user, home] : homes) {
        for (const std::uint16_t port : {2903, 3903, 4903}) {
            EXPECT_EQ(get(port, user, offers_path).status, port == home ? 200 : 404)
                << user << " on " << port;
        }
    }
    // The open offer from app-provider to app-user is in both their wallets.
    const json offers = json::parse(get(2903, "app-user", offers_path).body)["offers"];
    ASSERT_EQ(offers.size(), 1U);
    EXPECT_EQ(offers[0]["payload"]["trackingId"], "refund-licence-1");
}

TEST_F(ShippedLocalNet, TheLedgerApiUserReadsEveryRolesPartyOnEveryLedgerPort) {
    const std::int64_t end =
        json::parse(get(2975, "ledger-api-user", "/v2/state/ledger-end").body)["offset"];
    for (const char* role : {"app-user", "app-provider", "sv"}) {
        const json request = {
            {"filter",
             {{"filtersByParty", {{store_->network().find_user(role)->party, json::object()}}}}},
            {"verbose", false},
            {"activeAtOffset", end}};
        for (const std::uint16_t port : {2975, 3975, 4975}) {
            const http::Response acs =
                send(port, "ledger-api-user", "POST", "/v2/state/active-contracts", request.dump());
            EXPECT_EQ(acs.status, 200) << role << " on " << port << ": " << acs.body;
            EXPECT_FALSE(json::parse(acs.body).empty()) << role;
        }
    }
}

// The shipped network opens round 144 (after its snapshot), so the token standard's transfer
// factory answers on Scan's root, as the wallet SDK asks it.
TEST_F(ShippedLocalNet, ScanServesTheTransferFactoryWithItsOpenRound) {
    const model::Network& n = store_->network();
    const std::string sender = n.find_user("app-user")->party;
    const json request = {
        {"choiceArguments",
         {{"expectedAdmin", n.dso_party},
          {"transfer",
           {{"sender", sender},
            {"receiver", n.find_user("app-provider")->party},
            {"amount", "1.5"},
            {"instrumentId", {{"admin", n.dso_party}, {"id", "Amulet"}}},
            {"requestedAt", "2026-01-02T00:00:00Z"},
            {"executeBefore", "2026-01-03T00:00:00Z"},
            {"inputHoldingCids", json::array()},
            {"meta", {{"values", json::object()}}}}},
          {"extraArgs",
           {{"context", {{"values", json::object()}}}, {"meta", {{"values", json::object()}}}}}}},
        {"excludeDebugFields", true}};

    const http::Response response = main_->handle(http::Request{
        .method = "POST",
        .target = "/registry/transfer-instruction/v1/transfer-factory",
        .headers = {{"Host", "localhost:7575"}, {"Content-Type", "application/json"}},
        .body = request.dump(),
    });

    ASSERT_EQ(response.status, 200) << response.body;
    const json body = json::parse(response.body);
    EXPECT_EQ(body["transferKind"], "offer");
    const auto round = splice::views(*store_).latest_usable_open_round(store_->now());
    ASSERT_TRUE(round.has_value());
    EXPECT_EQ(body["choiceContext"]["choiceContextData"]["values"]["open-round"]["value"],
              round->contract->contract_id.str());
}

}  // namespace
}  // namespace cantonlite::app::localnet_test
