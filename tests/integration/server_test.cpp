// The Beast server end to end, over real sockets on a free port.
#include <atomic>
#include <condition_variable>
#include <csignal>
#include <future>
#include <memory>
#include <mutex>
#include <string_view>
#include <system_error>
#include <thread>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cantonlite/app/application.hpp"
#include "cantonlite/seed/seed_loader.hpp"
#include "http_client.hpp"
#include "test_server.hpp"

namespace cantonlite::testing::server_test {
namespace {

using namespace std::chrono_literals;

const std::string dso_body = R"({"dso_party_id":"DSO::1220ca19"})";

TEST(Server, ServesDsoPartyIdOverSocket) {
    TestServer server;

    const auto r = fetch(server.port(), "GET", "/api/scan/v0/dso-party-id");

    ASSERT_TRUE(r.has_value());
    EXPECT_EQ(r->status, 200);
    EXPECT_EQ(r->header("Content-Type"), "application/json");
    EXPECT_EQ(nlohmann::json::parse(r->body), nlohmann::json::parse(dso_body));
}

TEST(Server, SendsServerAndDateHeaders) {
    TestServer server(net::ServerOptions{.server_header = "cantonlite/test"});

    const auto r = fetch(server.port(), "GET", "/api/scan/livez");

    ASSERT_TRUE(r.has_value());
    EXPECT_EQ(r->header("Server"), "cantonlite/test");
    EXPECT_TRUE(r->header("Date").has_value());
}

TEST(Server, LivezIsEmptyWithContentLengthZeroAndNoContentType) {
    TestServer server;

    const auto r = fetch(server.port(), "GET", "/api/validator/livez");

    ASSERT_TRUE(r.has_value());
    EXPECT_EQ(r->status, 200);
    EXPECT_EQ(r->header("Content-Length"), "0");
    EXPECT_FALSE(r->header("Content-Type").has_value());
    EXPECT_EQ(r->body, "");
}

TEST(Server, KeepAliveServesSeveralRequestsOnOneConnection) {
    TestServer server;
    HttpConnection c(server.port());

    for (int i = 0; i < 5; ++i) {
        ASSERT_TRUE(c.send(make_request("GET", "/api/scan/v0/dso-party-id")));
        const auto r = c.read_response();
        ASSERT_TRUE(r.has_value()) << "request " << i;
        EXPECT_EQ(r->status, 200);
    }

    EXPECT_FALSE(c.closed_by_peer(100ms));
}

TEST(Server, PipelinedRequestsAreAnsweredInOrder) {
    TestServer server;
    HttpConnection c(server.port());

    ASSERT_TRUE(c.send(
        make_request("GET", "/api/scan/v0/dso-party-id") + make_request("GET", "/api/scan/livez") +
        make_request("GET", "/api/scan/v0/lsu") + make_request("GET", "/api/scan/no-such-path")));

    const auto first = c.read_response();
    const auto second = c.read_response();
    const auto third = c.read_response();
    const auto fourth = c.read_response();
    ASSERT_TRUE(first && second && third && fourth);
    EXPECT_EQ(first->body, dso_body);
    EXPECT_EQ(second->body, "");
    EXPECT_TRUE(nlohmann::json::parse(third->body).contains("lsu"));
    EXPECT_EQ(fourth->status, 404);
}

TEST(Server, UnknownPathIsNotFoundWithErrorBody) {
    TestServer server;

    const auto r = fetch(server.port(), "GET", "/api/scan/v0/nothing-here?x=1");

    ASSERT_TRUE(r.has_value());
    EXPECT_EQ(r->status, 404);
    EXPECT_EQ(r->header("Content-Type"), "application/json");
    EXPECT_EQ(nlohmann::json::parse(r->body),
              nlohmann::json::parse(R"({"error":"The requested resource could not be found: )"
                                    R"(http://127.0.0.1/api/scan/v0/nothing-here?x=1"})"));
}

TEST(Server, WrongMethodIsMethodNotAllowedWithAllowHeader) {
    TestServer server;

    const auto r = fetch(server.port(), "POST", "/api/scan/v0/lsu", "{}");

    ASSERT_TRUE(r.has_value());
    EXPECT_EQ(r->status, 405);
    EXPECT_EQ(r->header("Allow"), "GET");
    EXPECT_EQ(r->body, "HTTP method not allowed, supported methods: GET");
}

TEST(Server, BodyOverLimitIsPayloadTooLargeAndCloses) {
    TestServer server(net::ServerOptions{.max_body_bytes = 64});
    HttpConnection c(server.port());

    ASSERT_TRUE(c.send(make_request("POST", "/api/scan/v0/lsu", std::string(100, 'x'))));
    const auto r = c.read_response();

    ASSERT_TRUE(r.has_value());
    EXPECT_EQ(r->status, 413);
    EXPECT_EQ(r->header("Connection"), "close");
    EXPECT_TRUE(c.closed_by_peer());
}

TEST(Server, ChunkedBodyOverLimitIsPayloadTooLarge) {
    TestServer server(net::ServerOptions{.max_body_bytes = 64});
    HttpConnection c(server.port());

    ASSERT_TRUE(
        c.send("POST /api/scan/v0/lsu HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
               "64\r\n" +
               std::string(100, 'x') + "\r\n0\r\n\r\n"));
    const auto r = c.read_response();

    ASSERT_TRUE(r.has_value());
    EXPECT_EQ(r->status, 413);
}

TEST(Server, BodyWithinLimitIsRouted) {
    TestServer server(net::ServerOptions{.max_body_bytes = 64});

    const auto r = fetch(server.port(), "POST", "/api/scan/v0/lsu", std::string(64, 'x'));

    ASSERT_TRUE(r.has_value());
    EXPECT_EQ(r->status, 405);
}

TEST(Server, MalformedRequestLineIsBadRequestTextAndCloses) {
    TestServer server;
    HttpConnection c(server.port());

    ASSERT_TRUE(c.send("GET\r\n\r\n"));
    const auto r = c.read_response();

    ASSERT_TRUE(r.has_value());
    EXPECT_EQ(r->status, 400);
    EXPECT_EQ(r->header("Content-Type"), "text/plain; charset=UTF-8");
    EXPECT_TRUE(c.closed_by_peer());
}

TEST(Server, MalformedPercentEncodingIsBadRequest) {
    TestServer server;

    const auto r = fetch(server.port(), "GET", "/api/scan/v0/%zz");

    ASSERT_TRUE(r.has_value());
    EXPECT_EQ(r->status, 400);
    EXPECT_EQ(r->header("Content-Type"), "text/plain; charset=UTF-8");
}

TEST(Server, HeaderOverLimitIsRequestHeaderFieldsTooLarge) {
    TestServer server(net::ServerOptions{.max_header_bytes = 1024});
    HttpConnection c(server.port());

    ASSERT_TRUE(c.send(
        make_request("GET", "/api/scan/livez", "", "X-Big: " + std::string(2000, 'a') + "\r\n")));
    const auto r = c.read_response();

    ASSERT_TRUE(r.has_value());
    EXPECT_EQ(r->status, 431);
    EXPECT_TRUE(c.closed_by_peer());
}

TEST(Server, ExpectContinueGetsInterimResponseThenAnswer) {
    TestServer server;
    HttpConnection c(server.port());

    ASSERT_TRUE(
        c.send("POST /api/scan/v0/lsu HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\n"
               "Content-Length: 2\r\n\r\n"));
    const auto interim = c.read_response();
    ASSERT_TRUE(c.send("{}"));
    const auto final_response = c.read_response();

    ASSERT_TRUE(interim && final_response);
    EXPECT_EQ(interim->status, 100);
    EXPECT_EQ(final_response->status, 405);
}

TEST(Server, ConnectionCloseRequestClosesAfterResponse) {
    TestServer server;
    HttpConnection c(server.port());

    ASSERT_TRUE(c.send(make_request("GET", "/api/scan/livez", "", "Connection: close\r\n")));
    const auto r = c.read_response();

    ASSERT_TRUE(r.has_value());
    EXPECT_EQ(r->status, 200);
    EXPECT_TRUE(c.closed_by_peer());
}

TEST(Server, IdleConnectionIsClosedAfterIdleTimeout) {
    TestServer server(net::ServerOptions{.idle_timeout = 200ms});
    HttpConnection c(server.port());

    ASSERT_TRUE(c.send(make_request("GET", "/api/scan/livez")));
    ASSERT_TRUE(c.read_response().has_value());

    EXPECT_TRUE(c.closed_by_peer(5s));
}

TEST(Server, IncompleteRequestIsClosedAfterReadTimeout) {
    TestServer server(net::ServerOptions{.read_timeout = 200ms});
    HttpConnection c(server.port());

    ASSERT_TRUE(c.send("POST /api/scan/v0/lsu HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\n{"));

    EXPECT_TRUE(c.closed_by_peer(5s));
}

// Sends `bytes` one at a time, `gap` apart, until the server closes the connection. Returns
// whether it did before the last byte was sent.
bool trickle_until_closed(HttpConnection& c, std::string_view bytes,
                          std::chrono::milliseconds gap) {
    for (const char byte : bytes) {
        if (!c.send(std::string_view(&byte, 1)) || c.closed_by_peer(gap)) return true;
    }
    return false;
}

// A request has read_timeout from its first byte to its last, however slowly it comes: bytes
// that keep arriving do not extend it, and a new connection's idle time does not apply once it
// has started (a byte every 20 ms would take about 5 s here).
TEST(Server, HeaderTrickledAByteAtATimeIsClosedAtTheReadTimeout) {
    TestServer server(net::ServerOptions{.read_timeout = 300ms, .idle_timeout = 60s});
    HttpConnection c(server.port());

    const std::string request =
        make_request("GET", "/api/scan/livez", "", "X-Pad: " + std::string(200, 'a') + "\r\n");

    EXPECT_TRUE(trickle_until_closed(c, request, 20ms)) << "the whole request trickled in";
}

// The header and then the body each come within read_timeout, but not the two together.
TEST(Server, BodyTrickledAfterASlowHeaderIsClosedAtTheReadTimeout) {
    TestServer server(net::ServerOptions{.read_timeout = 1s, .idle_timeout = 60s});
    HttpConnection c(server.port());
    const std::string header = "POST /api/scan/v0/lsu HTTP/1.1\r\nContent-Length: 20\r\n\r\n";

    // The header over about 500 ms, then the body over about 800 ms.
    ASSERT_TRUE(c.send(header.substr(0, header.size() - 5)));
    ASSERT_FALSE(trickle_until_closed(c, header.substr(header.size() - 5), 100ms));
    EXPECT_TRUE(trickle_until_closed(c, std::string(20, 'x'), 40ms)) << "the whole body came";
}

TEST(Server, FiftyConcurrentClientsAreAllAnswered) {
    TestServer server(net::ServerOptions{.io_threads = 2});
    constexpr int clients = 50;
    constexpr int requests_each = 20;
    std::atomic<int> ok{0};
    std::vector<std::thread> threads;

    for (int i = 0; i < clients; ++i) {
        threads.emplace_back([&] {
            HttpConnection c(server.port());
            for (int j = 0; j < requests_each; ++j) {
                if (!c.send(make_request("GET", "/api/scan/v0/dso-party-id"))) return;
                const auto r = c.read_response();
                if (r && r->status == 200 && r->body == dso_body) ++ok;
            }
        });
    }
    for (auto& t : threads) t.join();

    EXPECT_EQ(ok.load(), clients * requests_each);
}

// At max_connections the server accepts no more until one closes: the next connection waits in
// the backlog (as with Pekko's max-connections) and is served once a slot is free.
TEST(Server, AtMaxConnectionsTheNextConnectionWaitsForAFreeSlot) {
    TestServer server(net::ServerOptions{.io_threads = 2, .max_connections = 3});
    std::vector<std::unique_ptr<HttpConnection>> first;
    for (int i = 0; i < 3; ++i) {
        first.push_back(std::make_unique<HttpConnection>(server.port()));
        ASSERT_TRUE(first.back()->send(make_request("GET", "/api/scan/v0/dso-party-id")));
        const auto r = first.back()->read_response();
        ASSERT_TRUE(r && r->status == 200);
    }
    HttpConnection waiting(server.port());
    ASSERT_TRUE(waiting.send(make_request("GET", "/api/scan/v0/dso-party-id")));
    EXPECT_FALSE(waiting.read_response(300ms).has_value()) << "served past the cap";

    first.front().reset();  // a slot frees up
    const auto r = waiting.read_response();
    ASSERT_TRUE(r.has_value());
    EXPECT_EQ(r->status, 200);
    // The others are still served.
    ASSERT_TRUE(first.back()->send(make_request("GET", "/api/scan/livez")));
    EXPECT_EQ(first.back()->read_response()->status, 200);
}

TEST(Server, AccessLogHasOneLinePerRequest) {
    TestServer server;

    ASSERT_TRUE(fetch(server.port(), "GET", "/api/scan/v0/dso-party-id").has_value());
    ASSERT_TRUE(fetch(server.port(), "GET", "/nowhere").has_value());

    const auto lines = server.access_lines(2);
    ASSERT_EQ(lines.size(), 2U);
    EXPECT_EQ(lines[0], "GET /api/scan/v0/dso-party-id 200 " + std::to_string(dso_body.size()));
    EXPECT_EQ(lines[1].substr(0, 17), "GET /nowhere 404 ");
}

// The server flushes the access log after the responses that were ready together, so that a log
// may write their lines with one write: every line is flushed, with no more flushes than lines.
TEST(Server, AccessLogIsFlushedAfterTheResponses) {
    TestServer server(net::ServerOptions{.io_threads = 2});
    HttpConnection c(server.port());
    std::string burst;
    for (int i = 0; i < 20; ++i) burst += make_request("GET", "/api/scan/livez");
    ASSERT_TRUE(c.send(burst));
    for (int i = 0; i < 20; ++i) ASSERT_TRUE(c.read_response().has_value()) << i;

    EXPECT_EQ(server.access_lines(20).size(), 20U);
    EXPECT_GE(server.access_flushes(), 1U);
    EXPECT_LE(server.access_flushes(), 20U);
}

// A line logged just before the server is destroyed (its io_context stopped, whatever handlers were
// pending dropped) is still flushed.
TEST(Server, AccessLogIsFlushedWhenTheServerStops) {
    std::vector<std::string> written;
    std::mutex mutex;
    std::condition_variable logged;
    std::vector<std::string> held;
    {
        net::ServerOptions options{.address = "127.0.0.1", .port = 0};
        options.access_log = [&](const net::AccessRecord& r) {
            {
                const std::lock_guard lock(mutex);
                held.emplace_back(r.target);
            }
            logged.notify_all();
        };
        options.access_log_flush = [&] {
            const std::lock_guard lock(mutex);
            written.insert(written.end(), held.begin(), held.end());
            held.clear();
        };
        const auto store = seed::load_seed(small_seed(), "test seed");
        const auto router = app::make_router(*store);
        net::Server s(options, *router);
        s.start();
        ASSERT_TRUE(fetch(s.port(), "GET", "/api/scan/livez").has_value());
        // The line is logged after the response is written: wait until it is, flushed or not.
        std::unique_lock lock(mutex);
        logged.wait_for(lock, 5s, [&] { return held.size() + written.size() == 1; });
    }
    EXPECT_EQ(written, std::vector<std::string>{"/api/scan/livez"});
    EXPECT_TRUE(held.empty());
}

// The JSON Ledger API answers a HEAD as its GET, without the body.
TEST(Server, HeadIsAnsweredLikeGetWithoutBodyOnTheLedgerApi) {
    TestServer server;
    const auto get = fetch(server.port(), "GET", "/v2/state/ledger-end");
    ASSERT_TRUE(get.has_value());
    HttpConnection c(server.port());

    // The client reads Content-Length bytes of body, which a HEAD answer does not have: the
    // answers to the GETs after it fill them.
    std::string requests = make_request("HEAD", "/v2/state/ledger-end");
    for (int i = 0; i < 20; ++i) requests += make_request("GET", "/api/scan/v0/dso-party-id");
    ASSERT_TRUE(c.send(requests));
    const auto head = c.read_response();

    ASSERT_TRUE(head.has_value());
    EXPECT_EQ(head->status, get->status);
    EXPECT_EQ(head->header("Content-Length"), std::to_string(get->body.size()));
    EXPECT_TRUE(head->body.starts_with("HTTP/1.1 200 OK")) << "a body was sent";
}

// The Splice apps run Pekko with transparent-head-requests off: their GET routes reject a HEAD,
// 405 with Allow: GET and the length of the text it does not send.
TEST(Server, HeadIsMethodNotAllowedOnTheSpliceApps) {
    TestServer server;
    HttpConnection c(server.port());

    std::string requests = make_request("HEAD", "/api/scan/v0/dso-party-id");
    for (int i = 0; i < 5; ++i) requests += make_request("GET", "/api/scan/v0/dso-party-id");
    ASSERT_TRUE(c.send(requests));
    const auto head = c.read_response();

    ASSERT_TRUE(head.has_value());
    EXPECT_EQ(head->status, 405);
    EXPECT_EQ(head->header("Allow"), "GET");
    // "HTTP method not allowed, supported methods: GET", not sent.
    EXPECT_EQ(head->header("Content-Length"), "47");
    EXPECT_TRUE(head->body.starts_with("HTTP/1.1 200 OK")) << "a body was sent";
}

TEST(Server, SecondServerOnSamePortFailsToStart) {
    TestServer first;
    net::Server second(net::ServerOptions{.address = "127.0.0.1", .port = first.port()},
                       http::Router{});

    EXPECT_THROW(second.start(), std::system_error);
}

// Sends a request's header and the first byte of its two-byte body, and returns once the server has
// read the header (its 100 Continue says so): the request is then in flight, without a sleep.
void start_request_in_flight(HttpConnection& c) {
    ASSERT_TRUE(
        c.send("POST /api/scan/v0/lsu HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\n"
               "Content-Length: 2\r\n\r\n"));
    const auto interim = c.read_response();
    ASSERT_TRUE(interim.has_value());
    ASSERT_EQ(interim->status, 100);
    ASSERT_TRUE(c.send("{"));
}

TEST(Server, GracefulStopClosesIdleConnections) {
    TestServer server;
    HttpConnection idle(server.port());
    ASSERT_TRUE(idle.send(make_request("GET", "/api/scan/livez")));
    ASSERT_TRUE(idle.read_response().has_value());

    server.server().stop();
    server.server().wait();

    EXPECT_TRUE(idle.closed_by_peer(1s));
}

TEST(Server, GracefulStopLetsInFlightRequestFinish) {
    TestServer server;
    HttpConnection c(server.port());
    start_request_in_flight(c);

    server.server().stop();
    std::thread waiter([&] { server.server().wait(); });
    ASSERT_TRUE(c.send("}"));
    const auto r = c.read_response();
    waiter.join();

    ASSERT_TRUE(r.has_value());
    EXPECT_EQ(r->status, 405);
    EXPECT_EQ(r->header("Connection"), "close");
}

TEST(Server, GracefulStopIsBoundedByGracePeriod) {
    TestServer server(net::ServerOptions{.shutdown_grace = 200ms});
    HttpConnection c(server.port());
    start_request_in_flight(c);

    server.server().stop();
    server.server().wait();  // returns although the request never completes

    EXPECT_TRUE(c.closed_by_peer(1s));
}

// On SIGINT or SIGTERM the server stops as stop() does, and waits for the requests in flight; a
// second signal closes the connections left at once (a second Ctrl-C), instead of after the grace.
TEST(Server, ASecondSignalClosesTheConnectionsLeftAtOnce) {
    TestServer server(net::ServerOptions{.shutdown_grace = 60s});
    server.server().stop_on_signals();
    const std::uint16_t port = server.port();
    auto c = std::make_unique<HttpConnection>(port);
    start_request_in_flight(*c);

    ASSERT_EQ(std::raise(SIGINT), 0);
    auto stopped = std::async(std::launch::async, [&] { server.server().wait(); });
    // The stop has begun once nothing new is accepted (for at most 5 s of tries).
    bool refused = false;
    for (int i = 0; i < 500 && !refused; ++i) {
        try {
            HttpConnection another(port);
            std::this_thread::sleep_for(10ms);
        } catch (const std::runtime_error&) {
            refused = true;
        }
    }
    ASSERT_TRUE(refused);
    EXPECT_EQ(stopped.wait_for(0s), std::future_status::timeout);  // the request is awaited

    ASSERT_EQ(std::raise(SIGTERM), 0);
    const bool at_once = stopped.wait_for(5s) == std::future_status::ready;
    EXPECT_TRUE(at_once);
    if (at_once) {
        EXPECT_TRUE(c->closed_by_peer(1s));
    }
    c.reset();  // else the stop ends when the client goes
    stopped.wait();
}

TEST(Server, NewConnectionsAreRefusedAfterStop) {
    TestServer server;
    const std::uint16_t port = server.port();

    server.server().stop();
    server.server().wait();

    EXPECT_THROW(HttpConnection{port}, std::runtime_error);
}

}  // namespace
}  // namespace cantonlite::testing::server_test

#include "cantonlite/app/application.hpp"
#include "cantonlite/seed/seed_loader.hpp"

namespace cantonlite::testing::server_test {
namespace {

// A second listener, answered by a router of its own (as serve --localnet adds them).
class MoreListeners : public ::testing::Test {
  protected:
    std::unique_ptr<store::LedgerStore> store_ = seed::load_seed(small_seed(), "test seed");
    std::unique_ptr<http::Router> router_ = app::make_router(*store_);
    http::Router other_;  // no area: every path is the real services' 404
};

TEST_F(MoreListeners, EachPortAnswersThroughItsOwnRouter) {
    TestServer server(net::ServerOptions{.also_listen = {{.port = 0, .router = &other_}}});

    const auto main = fetch(server.port(), "GET", "/api/scan/v0/dso-party-id");
    const auto other = fetch(server.server().port(1), "GET", "/api/scan/v0/dso-party-id");

    ASSERT_TRUE(main && other);
    EXPECT_NE(server.port(), server.server().port(1));
    EXPECT_EQ(main->status, 200);
    EXPECT_EQ(other->status, 404);
    EXPECT_EQ(server.access_lines(2).size(), 2U);  // one access log for every listener
}

TEST_F(MoreListeners, APortInUseIsNamedAndNothingListens) {
    TestServer holder;  // holds a port
    net::Server server(
        net::ServerOptions{.port = 0, .also_listen = {{.port = holder.port(), .router = &other_}}},
        *router_);
    try {
        server.start();
        FAIL() << "started on a port in use";
    } catch (const std::system_error& e) {
        EXPECT_EQ(std::string(e.what()).rfind(
                      "cannot listen on 127.0.0.1:" + std::to_string(holder.port()), 0),
                  0U)
            << e.what();
    }
}

TEST_F(MoreListeners, AStopClosesEveryListener) {
    auto server = std::make_unique<TestServer>(
        net::ServerOptions{.also_listen = {{.port = 0, .router = &other_}}});
    const std::uint16_t other = server->server().port(1);
    HttpConnection idle(other);  // an idle connection on the second listener
    ASSERT_TRUE(idle.send(make_request("GET", "/x")));
    ASSERT_TRUE(idle.read_response().has_value());

    server.reset();  // stop and wait: returns once both listeners' sessions are closed

    EXPECT_TRUE(idle.closed_by_peer(1000ms));
    EXPECT_EQ(connect_raw(other), -1);
}

}  // namespace
}  // namespace cantonlite::testing::server_test
