// Admin writes over real sockets to a daemon with a journal: a write is answered once its record
// is durable, without holding an io thread (so writers on more connections than io threads share
// syncs), pipelined requests keep their order around a deferred answer, readers keep being served,
// and every acknowledged write is in the journal. Run under ThreadSanitizer by `make tsan`.
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <functional>
#include <memory>
#include <random>
#include <shared_mutex>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cantonlite/app/application.hpp"
#include "cantonlite/journal/journal.hpp"
#include "cantonlite/net/server.hpp"
#include "cantonlite/seed/live_network.hpp"
#include "http_client.hpp"

namespace cantonlite::testing::journaled_writes_test {
namespace {

using json = nlohmann::json;

const std::string default_seed =
    std::string(CANTONLITE_SOURCE_DIR) + "/config/default-network.json";

std::string mint(int i) {
    return json{{"step", "mint"}, {"owner", "alice"}, {"amount", std::to_string(i + 1)}}.dump();
}

class JournaledDaemon : public ::testing::Test {
  protected:
    JournaledDaemon()
        : path_(std::filesystem::temp_directory_path() /
                ("cantonlite-journaled-" + std::to_string(::getpid()) + "-" +
                 std::to_string(std::random_device{}()))) {
        journal_ = journal::open_file_journal(path_, "fingerprint");
        network_ = seed::LiveNetwork::load_file(default_seed);
        network_->attach_journal(*journal_);
        router_ = app::make_router(*network_, {.open = true});
        // Two io threads, as on the 2-core machine: more writers than threads must not stall.
        server_ = std::make_unique<net::Server>(
            net::ServerOptions{.address = "127.0.0.1", .port = 0, .io_threads = 2}, *router_);
        server_->start();
    }
    ~JournaledDaemon() override {
        server_->stop();
        // Writes still waiting for their sync are answered (into closed sessions) while the
        // server's io context still exists, as the daemon stops: the journal's flusher may post
        // into it until the journal is gone.
        journal_.reset();
        server_.reset();
        router_.reset();
        network_.reset();
        std::filesystem::remove(path_);
    }

    std::int64_t ledger_end() {
        const auto r = fetch(server_->port(), "GET", "/_cantonlite/v1/time");
        return r ? json::parse(r->body).at("ledger_end").get<std::int64_t>() : -1;
    }

    std::filesystem::path path_;
    std::unique_ptr<journal::Journal> journal_;
    std::unique_ptr<seed::LiveNetwork> network_;
    std::unique_ptr<http::Router> router_;
    std::unique_ptr<net::Server> server_;
};

TEST_F(JournaledDaemon, WritersOnMoreConnectionsThanIoThreadsAreAllAcknowledgedAndJournaled) {
    const std::int64_t start = ledger_end();
    constexpr int writers = 8;
    constexpr int per_writer = 25;
    std::atomic<int> acknowledged{0};
    std::atomic<int> failures{0};
    std::atomic<bool> writing{true};
    std::atomic<int> reads_while_writing{0};

    std::thread reader([&] {
        HttpConnection c(server_->port());
        while (writing.load()) {
            c.send(make_request("GET", "/api/scan/v0/dso-party-id"));
            const auto r = c.read_response();
            if (!r || r->status != 200) {
                ++failures;
                return;
            }
            if (writing.load()) ++reads_while_writing;
        }
    });
    std::vector<std::thread> threads;
    for (int w = 0; w < writers; ++w) {
        threads.emplace_back([&] {
            HttpConnection c(server_->port());
            for (int i = 0; i < per_writer; ++i) {
                c.send(make_request("POST", "/_cantonlite/v1/steps", mint(i),
                                    "Content-Type: application/json\r\n"));
                const auto r = c.read_response(std::chrono::seconds(30));
                if (r && r->status == 200) {
                    ++acknowledged;
                } else {
                    ++failures;
                }
            }
        });
    }
    for (std::thread& t : threads) t.join();
    writing = false;
    reader.join();

    EXPECT_EQ(failures.load(), 0);
    EXPECT_EQ(acknowledged.load(), writers * per_writer);
    EXPECT_EQ(ledger_end(), start + writers * per_writer);
    EXPECT_GT(reads_while_writing.load(), 0);  // the reader was served while writes waited
    server_->stop();
    journal_.reset();
    EXPECT_EQ(journal::open_file_journal(path_, "fingerprint")->recovered().size(),
              static_cast<std::size_t>(writers * per_writer));
}

TEST_F(JournaledDaemon, PipelinedRequestsAreAnsweredInOrderAroundADeferredWrite) {
    HttpConnection c(server_->port());
    const std::string write = make_request("POST", "/_cantonlite/v1/steps", mint(0),
                                           "Content-Type: application/json\r\n");
    ASSERT_TRUE(c.send(write + make_request("GET", "/_cantonlite/v1/time") + write +
                       make_request("GET", "/api/scan/v0/dso-party-id")));
    const auto first = c.read_response();
    const auto second = c.read_response();
    const auto third = c.read_response();
    const auto fourth = c.read_response();
    ASSERT_TRUE(first && second && third && fourth);
    EXPECT_EQ(first->status, 200);
    const std::int64_t after_first = json::parse(first->body).at("ledger_end");
    // The time read was answered after the first write was acknowledged, so it sees it.
    EXPECT_EQ(json::parse(second->body).at("ledger_end"), after_first);
    EXPECT_EQ(json::parse(third->body).at("ledger_end"), after_first + 1);
    EXPECT_TRUE(json::parse(fourth->body).contains("dso_party_id"));
}

}  // namespace
}  // namespace cantonlite::testing::journaled_writes_test

namespace cantonlite::testing::journaled_writes_test {
namespace {

// A journal shared with other daemons, played by the test: it hands the network the others'
// records (follow) and reports this daemon's writes lost in a restart (on_diverged).
class SharedJournalStub : public journal::Journal {
  public:
    const std::vector<journal::Record>& recovered() const override { return none_; }
    std::uint64_t append(std::string_view payload) override {
        records.emplace_back(payload);
        return records.size();
    }
    void wait_durable(std::uint64_t /*ticket*/) override {}
    void when_durable(std::uint64_t /*ticket*/,
                      std::function<void(std::exception_ptr)> done) override {
        done(nullptr);
    }
    Stats stats() const override { return {}; }
    void follow(Follow follow) override { follow_ = std::move(follow); }
    void on_diverged(Diverged handler) override { diverged_ = std::move(handler); }

    std::vector<std::string> records;
    Follow follow_;
    Diverged diverged_;

  private:
    std::vector<journal::Record> none_;
};

std::int64_t ledger_end_of(seed::LiveNetwork& network) {
    const std::shared_lock lock(network.gate());
    return network.store().ledger_end();
}

// Writes lost in a PostgreSQL restart while another daemon wrote are taken back (the undo log),
// and the other daemon's records then apply in their place; a snapshot cannot be taken back.
TEST(SharedJournal, LostWritesAreTakenBackAndTheOthersRecordsApplied) {
    SharedJournalStub journal;
    const auto network = seed::LiveNetwork::load_file(default_seed);
    network->attach_journal(journal);
    ASSERT_TRUE(journal.follow_ && journal.diverged_);
    const std::int64_t start = ledger_end_of(*network);
    (void)network->apply_steps(json::parse(mint(0)));
    (void)network->apply_steps(json::parse(mint(1)));
    ASSERT_EQ(ledger_end_of(*network), start + 2);
    ASSERT_EQ(journal.records.size(), 2U);

    EXPECT_TRUE(journal.diverged_(1));  // the second write was lost
    EXPECT_EQ(ledger_end_of(*network), start + 1);
    EXPECT_TRUE(journal.diverged_(0));  // and the first
    EXPECT_EQ(ledger_end_of(*network), start);

    // The other daemon's record 1 (here: the second mint, as it wrote it) applies in its place.
    const std::string others = journal.records[1];
    journal.follow_([&](const journal::Journal::Apply& apply) {
        apply(journal::Record{.offset = 1, .payload = others, .where = "number 1"});
    });
    EXPECT_EQ(ledger_end_of(*network), start + 1);

    (void)network->take_snapshot();
    (void)network->apply_steps(json::parse(mint(2)));
    const auto records = journal.records.size();
    EXPECT_FALSE(journal.diverged_(records - 2));  // a snapshot among them: not taken back
    EXPECT_EQ(ledger_end_of(*network), start + 2);
}

}  // namespace
}  // namespace cantonlite::testing::journaled_writes_test
