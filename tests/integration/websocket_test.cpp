// The WebSocket of /v2/updates over a real socket (asyncapi.yaml; Canton 3.5 Endpoints.websocket):
// the handshake answers "daml.ws.auth" whatever the client offered, one request message brings
// the updates as text messages, an end closes with 1000, and a stopping server says 1001.
#include <chrono>
#include <string>
#include <thread>

#include <gtest/gtest.h>
#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core/buffers_to_string.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/websocket.hpp>
#include <nlohmann/json.hpp>

#include "test_server.hpp"

namespace cantonlite::testing::websocket_test {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
using nlohmann::json;

const std::string alice = "alice::1220a1";

// alice with two mints; the ledger API without auth.
json network_seed() {
    json seed = small_seed();
    seed["users"] = json::array({{{"id", "alice"}, {"party", alice}}});
    seed["auth"] = {{"hs256", {{"secret", "test-secret"}}}, {"ledger_auth", false}};
    seed["steps"] = json::array({{{"step", "mint"}, {"owner", "alice"}, {"amount", "10"}},
                                 {{"step", "mint"}, {"owner", "alice"}, {"amount", "20"}}});
    return seed;
}

json request(std::int64_t begin, std::optional<std::int64_t> end) {
    json r = {{"beginExclusive", begin},
              {"verbose", true},
              {"filter", {{"filtersByParty", {{alice, json::object()}}}}}};
    if (end) r["endInclusive"] = *end;
    return r;
}

struct Client {
    asio::io_context io;
    websocket::stream<asio::ip::tcp::socket> ws{io};
    std::string protocol;  // the server's Sec-WebSocket-Protocol

    Client(std::uint16_t port, const std::string& path, const std::string& offered) {
        const asio::ip::tcp::endpoint at(asio::ip::make_address("127.0.0.1"), port);
        ws.next_layer().connect(at);
        ws.set_option(websocket::stream_base::decorator([offered](websocket::request_type& req) {
            if (!offered.empty()) req.set(beast::http::field::sec_websocket_protocol, offered);
        }));
        websocket::response_type res;
        ws.handshake(res, "127.0.0.1:" + std::to_string(port), path);
        protocol = std::string(res[beast::http::field::sec_websocket_protocol]);
    }

    std::string read() {
        beast::flat_buffer buffer;
        ws.read(buffer);
        return beast::buffers_to_string(buffer.data());
    }
};

TEST(WebSocketUpdates, AnswersWithDamlsProtocolAndSendsEachUpdateThenCloses) {
    TestServer server({}, network_seed());
    Client client(server.port(), "//v2/updates", "jwt.token.x.y.z, daml.ws.auth");
    EXPECT_EQ(client.protocol, "daml.ws.auth");

    client.ws.write(asio::buffer(request(0, 3).dump()));

    const json first = json::parse(client.read());
    const json second = json::parse(client.read());
    EXPECT_EQ(first["update"]["Transaction"]["value"]["offset"], 2);
    EXPECT_EQ(second["update"]["Transaction"]["value"]["offset"], 3);
    beast::flat_buffer rest;
    beast::error_code ec;
    client.ws.read(rest, ec);
    EXPECT_EQ(ec, websocket::error::closed);
    EXPECT_EQ(client.ws.reason().code, websocket::close_code::normal);
}

TEST(WebSocketUpdates, AnErrorIsOneMessageThenTheClose) {
    TestServer server({}, network_seed());
    Client client(server.port(), "/v2/updates", "daml.ws.auth");

    client.ws.write(asio::buffer(request(0, 99).dump()));

    EXPECT_EQ(json::parse(client.read())["code"], "OFFSET_AFTER_LEDGER_END");
    beast::flat_buffer rest;
    beast::error_code ec;
    client.ws.read(rest, ec);
    EXPECT_EQ(ec, websocket::error::closed);
}

TEST(WebSocketUpdates, ATailingStreamIsClosedAsGoingAwayWhenTheServerStops) {
    auto server = std::make_unique<TestServer>(net::ServerOptions{}, network_seed());
    Client client(server->port(), "/v2/updates", "");
    client.ws.write(asio::buffer(request(2, std::nullopt).dump()));
    EXPECT_EQ(json::parse(client.read())["update"]["Transaction"]["value"]["offset"], 3);
    // Caught up with the ledger end: the tailing stream's OffsetCheckpoint.
    EXPECT_EQ(json::parse(client.read())["update"]["OffsetCheckpoint"]["value"]["offset"], 3);

    std::thread stopper([&] { server.reset(); });
    beast::flat_buffer rest;
    beast::error_code ec;
    client.ws.read(rest, ec);
    stopper.join();

    EXPECT_EQ(ec, websocket::error::closed);
    EXPECT_EQ(client.ws.reason().code, websocket::close_code::going_away);
}

}  // namespace
}  // namespace cantonlite::testing::websocket_test
