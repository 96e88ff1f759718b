#pragma once
// The ledger tests' common fixture: one store and the application's router over it, built once per
// suite, and the user tokens `cantonlite token` would print for it.

#include <memory>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cantonlite/app/application.hpp"
#include "cantonlite/app/token.hpp"
#include "cantonlite/auth/jwt_signer.hpp"
#include "cantonlite/auth/jwt_verifier.hpp"
#include "cantonlite/seed/seed_loader.hpp"
#include "cantonlite/store/ledger_store.hpp"

namespace cantonlite::areas::ledger {

// The default network's users' parties (docs/default-network.md).
inline const std::string alice =
    "alice::12202bd806c97f0e00af1a1fc3328fa763a9269723c8db8fac4f93af71db186d6e90";
inline const std::string bob =
    "bob::122081b637d8fcd2c6da6359e6963113a1170de795e4b725b84d1e0b4cfd9ec58ce9";
inline const std::string carol =
    "carol::12204c26d9074c27d89ede59270c0ac14b71e071b15239519f75474b2f3ba63481f5";
inline const std::string dave =
    "dave::122061ea0803f8853523b777d414ace3130cd4d3f92de2cd7ff8695c337d79c2eeee";

// An EventFormat reading `party` with no filter entries (a template wildcard).
inline nlohmann::json event_format(const std::string& party) {
    nlohmann::json by_party = nlohmann::json::object();
    by_party[party] = {{"cumulative", nlohmann::json::array()}};
    return {{"filtersByParty", by_party}};
}

class LedgerSuite : public ::testing::Test {
  protected:
    // For a suite's SetUpTestSuite: serve `store` until the suite ends.
    static void serve(std::unique_ptr<store::LedgerStore> store) {
        store_ = store.release();
        router_ = app::make_router(*store_).release();
    }
    // For a suite's SetUpTestSuite: serve the shipped default network (docs/default-network.md).
    static void serve_default_network() {
        serve(seed::load_seed_file(std::string(CANTONLITE_SOURCE_DIR) +
                                   "/config/default-network.json"));
    }
    static void TearDownTestSuite() {
        delete router_;
        delete store_;
        router_ = nullptr;
        store_ = nullptr;
    }

    // A token that `cantonlite token --user <user>` would print now, valid for an hour.
    static std::string token(const std::string& user) {
        return app::make_token(store_->network(), user, auth::wall_clock_seconds(), 3600);
    }

    // A correctly signed token of the default network's settings for a user the participant
    // may not know (its audience and secret: docs/default-network.md).
    static std::string forged_user_token(const std::string& user) {
        const std::int64_t now = auth::wall_clock_seconds();
        const nlohmann::json header = {{"alg", "HS256"}, {"typ", "JWT"}};
        const nlohmann::json claims = {
            {"sub", user},
            {"aud", nlohmann::json::array({store_->network().auth.audience})},
            {"iat", now},
            {"exp", now + 3600}};
        return auth::sign_hs256(store_->network().auth.hs256_secret.value_or(""), header.dump(),
                                claims.dump());
    }

    // `method target` with `body`, as `user` ("" for no token).
    static http::Response call(const std::string& method, const std::string& target,
                               const std::string& body, const std::string& user = "alice") {
        http::Request r{.method = method, .target = target, .body = body};
        if (!user.empty()) r.headers.push_back({"Authorization", "Bearer " + token(user)});
        return router_->handle(r);
    }

    // POST `body` to `target` as `user` ("" for no token).
    static http::Response post(const std::string& target, const nlohmann::json& body,
                               const std::string& user = "alice") {
        return call("POST", target, body.dump(), user);
    }

    // A redacted JsCantonError (canton-ledger-behavior.md §5.1 A).
    static void expect_redacted(const http::Response& r, int status, int grpc_code,
                                const nlohmann::json& context = nlohmann::json::object()) {
        EXPECT_EQ(r.status, status) << r.body;
        const nlohmann::json e = nlohmann::json::parse(r.body);
        EXPECT_EQ(e["code"], "NA");
        EXPECT_EQ(e["cause"], "A security-sensitive error has been received");
        EXPECT_EQ(e["errorCategory"], -1);
        EXPECT_EQ(e["grpcCodeValue"], grpc_code);
        EXPECT_EQ(e["context"], context);
    }

    // A JsCantonError with this status, code and cause.
    static void expect_error(const http::Response& r, int status, const std::string& code,
                             const std::string& cause) {
        EXPECT_EQ(r.status, status) << r.body;
        if (r.content_type != "application/json") return;
        const nlohmann::json e = nlohmann::json::parse(r.body);
        EXPECT_EQ(e["code"], code) << r.body;
        EXPECT_EQ(e["cause"], cause) << r.body;
    }

    static inline store::LedgerStore* store_ = nullptr;
    static inline http::Router* router_ = nullptr;
};

// One case of a table of requests that a handler refuses: the body posted, and the status, error
// code and cause of the JsCantonError it answers (LedgerSuite::expect_error).
struct ErrorCase {
    const char* name;
    nlohmann::json body;
    int status;
    const char* code;
    const char* cause;
};

}  // namespace cantonlite::areas::ledger
