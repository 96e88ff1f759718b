// Injected faults over real sockets: the session delays an answer, resets a connection, and
// drops a delayed answer when the server stops.
#include <atomic>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "http_client.hpp"
#include "test_server.hpp"

namespace cantonlite::testing::fault_injection_test {
namespace {

using namespace std::chrono_literals;

const std::string dso = "/api/scan/v0/dso-party-id";

TEST(FaultInjection, LatencyHoldsTheAnswerAndKeepsTheConnection) {
    TestServer server;
    server.faults().add({.route = dso, .latency = 300ms});
    HttpConnection c(server.port());

    const auto start = std::chrono::steady_clock::now();
    ASSERT_TRUE(c.send(make_request("GET", dso)));
    const auto delayed = c.read_response();
    const auto waited = std::chrono::steady_clock::now() - start;

    ASSERT_TRUE(delayed.has_value());
    EXPECT_EQ(delayed->status, 200);
    EXPECT_NE(delayed->body.find("DSO::1220ca19"), std::string::npos);
    EXPECT_GE(waited, 300ms);  // a lower bound only: never late is not asserted
    ASSERT_TRUE(c.send(make_request("GET", "/api/scan/livez")));  // the same connection goes on
    const auto next = c.read_response();
    ASSERT_TRUE(next.has_value());
    EXPECT_EQ(next->status, 200);
}

TEST(FaultInjection, AResetClosesTheConnectionWithoutAnAnswer) {
    TestServer server;
    server.faults().add({.route = dso, .reset_share = http::share_scale, .times = 1});

    HttpConnection c(server.port());
    ASSERT_TRUE(c.send(make_request("GET", dso)));
    EXPECT_FALSE(c.read_response(2000ms).has_value());
    EXPECT_TRUE(c.closed_by_peer(2000ms));
    const auto lines = server.access_lines(1);
    ASSERT_FALSE(lines.empty());
    EXPECT_EQ(lines.front(), "GET " + dso + " 444 0");  // nginx's code for no answer

    const auto after = fetch(server.port(), "GET", dso);  // the rule ran out
    ASSERT_TRUE(after.has_value());
    EXPECT_EQ(after->status, 200);
}

TEST(FaultInjection, AStoppingServerDoesNotWaitForADelayedAnswer) {
    TestServer server(net::ServerOptions{.shutdown_grace = 200ms});
    server.faults().add({.route = dso, .latency = 600'000ms});
    HttpConnection c(server.port());
    ASSERT_TRUE(c.send(make_request("GET", dso)));
    // Waits until the rule matched the request: its answer is then held by the delay.
    const auto deadline = std::chrono::steady_clock::now() + 10s;
    while (server.faults().rules().front().matched == 0) {
        ASSERT_LT(std::chrono::steady_clock::now(), deadline) << "the request never arrived";
        std::this_thread::yield();
    }

    server.server().stop();
    server.server().wait();  // returns once the grace is over: the ten-minute delay is dropped

    EXPECT_FALSE(c.read_response(1000ms).has_value());
}

TEST(FaultInjection, ConcurrentClientsGetExactlyTheShare) {
    TestServer server(net::ServerOptions{.io_threads = 4});
    server.faults().add({.route = dso, .error_status = 503, .error_share = http::share_scale / 4});
    constexpr int clients = 8, each = 20;
    std::atomic<int> failed{0}, ok{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < clients; ++t) {
        threads.emplace_back([&] {
            HttpConnection c(server.port());
            for (int i = 0; i < each; ++i) {
                if (!c.send(make_request("GET", dso))) return;
                const auto r = c.read_response();
                if (!r) return;
                (r->status == 503 ? failed : ok).fetch_add(1);
            }
        });
    }
    for (auto& t : threads) t.join();

    EXPECT_EQ(failed.load(), clients * each / 4);
    EXPECT_EQ(ok.load(), clients * each * 3 / 4);
    EXPECT_EQ(server.faults().rules().front().matched, static_cast<std::uint64_t>(clients * each));
}

}  // namespace
}  // namespace cantonlite::testing::fault_injection_test
