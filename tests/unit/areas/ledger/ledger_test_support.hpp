#pragma once
// The ledger tests' common fixture: one store and the application's router over it, built once per
// suite, and the user tokens `cantonlite token` would print for it.

#include <memory>
#include <string>

#include <gtest/gtest.h>

#include "cantonlite/app/application.hpp"
#include "cantonlite/app/token.hpp"
#include "cantonlite/auth/jwt_verifier.hpp"
#include "cantonlite/store/ledger_store.hpp"

namespace cantonlite::areas::ledger {

class LedgerSuite : public ::testing::Test {
  protected:
    // For a suite's SetUpTestSuite: serve `store` until the suite ends.
    static void serve(std::unique_ptr<store::LedgerStore> store) {
        store_ = store.release();
        router_ = app::make_router(*store_).release();
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

    static inline store::LedgerStore* store_ = nullptr;
    static inline http::Router* router_ = nullptr;
};

}  // namespace cantonlite::areas::ledger
