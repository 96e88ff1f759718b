// The admin API with a journal: every write is acknowledged once its record is durable, and a
// network loaded again from the seed and the journal answers as the first one did.
#include <filesystem>
#include <future>
#include <random>

#include "areas/admin/admin_test_support.hpp"
#include "cantonlite/model/ids.hpp"

namespace cantonlite::areas::admin::journal_admin_test {
namespace {

using admintest::base;
using admintest::LiveFixture;
using nlohmann::json;

using JournaledAdmin = admintest::Journaled<LiveFixture>;

TEST_F(JournaledAdmin, AWriteIsAnsweredWhenItsRecordIsDurableAndSurvivesARestart) {
    const http::Response first = router_->handle(http::Request{
        .method = "POST",
        .target = base + "/steps",
        .body = R"({"step": "mint", "owner": "alice", "amount": "3", "as": "kept"})"});
    EXPECT_TRUE(static_cast<bool>(first.deferred));  // the io thread does not wait for the sync

    steps(json{{"step", "add_user"}, {"id", "zoe"}, {"wallet", true}});
    admin("POST", "/time", {{"advance", "PT4H"}});
    EXPECT_EQ(admin("POST", "/snapshots").at("id"), "1");
    steps(json{{"step", "mint"}, {"owner", "zoe"}, {"amount", "1"}});
    admin("POST", "/snapshots/1/revert");
    steps(json{{"step", "transfer"},
               {"sender", "alice"},
               {"inputs", {"kept"}},
               {"outputs", {{{"receiver", "zoe"}, {"amount", "2"}}}}});
    const std::string network = call("GET", base + "/network").body;
    const std::string time = call("GET", base + "/time").body;

    // A second network from the same seed, replaying the journal.
    router_.reset();
    network_.reset();
    journal_.reset();
    journal_ = journal::open_file_journal(path_, "fingerprint");
    EXPECT_EQ(journal_->recovered().size(), 7U);
    network_ = seed::LiveNetwork::load_file(admintest::default_seed);
    network_->attach_journal(*journal_);
    router_ = app::make_router(*network_, admintest::open_options());

    EXPECT_EQ(call("GET", base + "/network").body, network);
    EXPECT_EQ(call("GET", base + "/time").body, time);
    EXPECT_EQ(admin("GET", "/snapshots").at("snapshots").size(), 1U);
}

// The Ledger API's writes are journaled as the admin API's are (POST /v2/parties).
TEST_F(JournaledAdmin, AnAllocatedPartySurvivesARestart) {
    const http::Response allocated =
        router_->handle(http::Request{.method = "POST",
                                      .target = "/v2/parties",
                                      .headers = {{"Authorization", bearer("ledger-api-user")}},
                                      .body = R"({"partyIdHint": "Kept", "userId": "bob"})"});
    ASSERT_TRUE(static_cast<bool>(allocated.deferred));  // acknowledged once durable
    std::promise<http::Response> answer;
    auto future = answer.get_future();
    allocated.deferred([&answer](http::Response r) { answer.set_value(std::move(r)); });
    ASSERT_EQ(future.get().status, 200);
    const std::string rights = as_user("bob", "GET", "/v2/users/bob/rights").body;

    router_.reset();
    network_.reset();
    journal_.reset();
    journal_ = journal::open_file_journal(path_, "fingerprint");
    network_ = seed::LiveNetwork::load_file(admintest::default_seed);
    network_->attach_journal(*journal_);
    router_ = app::make_router(*network_, admintest::open_options());

    const std::string party = seed::allocated_party(network_->store().network(), "Kept");
    EXPECT_NE(as_user("ledger-api-user", "GET", "/v2/parties").body.find(party), std::string::npos);
    EXPECT_EQ(as_user("bob", "GET", "/v2/users/bob/rights").body, rights);
    EXPECT_NE(rights.find(party), std::string::npos) << rights;
}

TEST_F(JournaledAdmin, ARefusedWriteIsNotJournaled) {
    EXPECT_EQ(
        admin_error("POST", "/steps", 400, R"({"step": "mint", "owner": "nobody"})").substr(0, 15),
        "step 0 (mint): ");
    admin_error("POST", "/time", 409, R"({"set": "2020-01-01T00:00:00Z"})");
    admin_error("POST", "/snapshots/4/revert", 404);
    journal_.reset();
    router_.reset();
    network_.reset();
    EXPECT_TRUE(journal::open_file_journal(path_, "fingerprint")->recovered().empty());
}

}  // namespace
}  // namespace cantonlite::areas::admin::journal_admin_test
