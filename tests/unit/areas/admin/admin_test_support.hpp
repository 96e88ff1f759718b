#pragma once
// Test helper for the admin API (/_cantonlite/v1/): the shipped default network, live, behind the
// daemon's router, with calls to any area and user tokens.

#include <chrono>
#include <filesystem>
#include <future>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cantonlite/app/application.hpp"
#include "cantonlite/app/describe.hpp"
#include "cantonlite/app/explorer.hpp"
#include "cantonlite/app/overview.hpp"
#include "cantonlite/app/token.hpp"
#include "cantonlite/journal/journal.hpp"
#include "cantonlite/seed/live_network.hpp"

namespace cantonlite::areas::admin::admintest {

using nlohmann::json;

inline const std::string default_seed = CANTONLITE_SOURCE_DIR "/config/default-network.json";
inline const std::string base = "/_cantonlite/v1";

// The default network's wallet users (docs/default-network.md) and op 4's path.
inline const std::string alice =
    "alice::12202bd806c97f0e00af1a1fc3328fa763a9269723c8db8fac4f93af71db186d6e90";
inline const std::string bob =
    "bob::122081b637d8fcd2c6da6359e6963113a1170de795e4b725b84d1e0b4cfd9ec58ce9";
inline const std::string offers = "/api/validator/v0/wallet/transfer-offers";

inline AdminOptions open_options() {
    return AdminOptions{
        .open = true,
        .describe =
            [](const store::LedgerStore& store) { return app::describe_json(store).dump(2); },
        .overview =
            [](const store::LedgerStore& store) { return app::overview_json(store).dump(); },
        .explore = app::explore_text};
}

// The default network, live, and the daemon's router over it.
class LiveFixture : public ::testing::Test {
  protected:
    explicit LiveFixture(AdminOptions options = open_options())
        : network_(seed::LiveNetwork::load_file(default_seed)),
          router_(app::make_router(*network_, std::move(options))) {}

    http::Response call(const std::string& method, const std::string& target,
                        const std::string& body = "",
                        std::vector<http::Header> headers = {}) const {
        headers.push_back({"Host", "localhost:7575"});
        // A body is JSON, typed as the real clients type it (the Splice apps require it).
        if (!body.empty()) headers.push_back({"Content-Type", "application/json"});
        http::Response r = router_->handle(http::Request{
            .method = method, .target = target, .headers = std::move(headers), .body = body});
        if (!r.deferred) return r;
        // A write waiting for the journal: the answer comes from the journal's thread.
        std::promise<http::Response> answer;
        auto future = answer.get_future();
        r.deferred([&answer](http::Response done) { answer.set_value(std::move(done)); });
        return future.get();
    }

    // An admin call that must answer 200; its JSON.
    json admin(const std::string& method, const std::string& path, const json& body = nullptr) {
        const http::Response r = call(method, base + path, body.is_null() ? "" : body.dump());
        EXPECT_EQ(r.status, 200) << method << " " << path << ": " << r.body;
        return json::parse(r.body, nullptr, false);
    }
    json steps(const json& body) { return admin("POST", "/steps", body); }

    // An admin call that must fail with `status`; its error text.
    std::string admin_error(const std::string& method, const std::string& path, int status,
                            const std::string& body = "") {
        const http::Response r = call(method, base + path, body);
        EXPECT_EQ(r.status, status) << method << " " << path << ": " << r.body;
        EXPECT_EQ(r.content_type, "application/json");
        const json j = json::parse(r.body, nullptr, false);
        return j.is_object() && j.contains("error") ? j["error"].get<std::string>() : r.body;
    }

    std::string bearer(const std::string& user) const {
        const auto now = std::chrono::duration_cast<std::chrono::seconds>(
                             std::chrono::system_clock::now().time_since_epoch())
                             .count();
        return "Bearer " + app::make_token(network_->store().network(), user, now, 3600);
    }

    // GET (or POST with `body`) as `user`.
    http::Response as_user(const std::string& user, const std::string& method,
                           const std::string& target, const std::string& body = "") const {
        return call(method, target, body, {{"Authorization", bearer(user)}});
    }

    [[nodiscard]] std::int64_t ledger_end() const { return network_->store().ledger_end(); }

    std::unique_ptr<seed::LiveNetwork> network_;
    std::unique_ptr<http::Router> router_;
};

// `Fixture` (a LiveFixture) with a file journal, and a restart that replays it into a second
// network from the same seed.
template <class Fixture>
class Journaled : public Fixture {
  protected:
    Journaled()
        : path_(std::filesystem::temp_directory_path() /
                ("cantonlite-test-journal-" + std::to_string(std::random_device{}()))) {
        journal_ = journal::open_file_journal(path_, "fingerprint");
        this->network_->attach_journal(*journal_);
    }
    ~Journaled() override {
        this->router_.reset();
        this->network_.reset();
        journal_.reset();
        std::filesystem::remove(path_);
    }

    void restart() {
        this->router_.reset();
        this->network_.reset();
        journal_.reset();
        journal_ = journal::open_file_journal(path_, "fingerprint");
        this->network_ = seed::LiveNetwork::load_file(default_seed);
        this->network_->attach_journal(*journal_);
        this->router_ = app::make_router(*this->network_, open_options());
    }

    std::filesystem::path path_;
    std::unique_ptr<journal::Journal> journal_;
};

}  // namespace cantonlite::areas::admin::admintest
