// The WebSocket form of the active contracts (asyncapi.yaml /v2/state/active-contracts; Canton 3.5
// JsStateService.getActiveContractsStream through Endpoints.websocket): one
// GetActiveContractsRequest, then each element of the snapshot as one message, byte for byte an
// element of POST /v2/state/active-contracts' list, then the end; an error is one JsCantonError
// message and the end.

#include <memory>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cantonlite/app/application.hpp"
#include "cantonlite/seed/live_network.hpp"
#include "seed/seed_test_network.hpp"

namespace cantonlite::areas::ledger::active_contracts_stream_test {
namespace {

using nlohmann::json;
using namespace seed::seedtest;  // NOLINT: the shared test network's parties and steps
// A declaration, not only the directive: in a unity batch, ledger_test_support.hpp's own alice
// (cantonlite::areas::ledger) would hide the directive's.
using seed::seedtest::alice;
using Output = http::MessageStream::Output;

json mint(const std::string& owner, const std::string& amount) {
    return {{"step", "mint"}, {"owner", owner}, {"amount", amount}};
}

// alice's and bob's mints at offsets 2-4; auth off, as an unauthenticated participant.
class ActiveContractsStreamTest : public ::testing::Test {
  protected:
    void SetUp() override {
        json seed = seed_with({mint("alice", "10"), mint("bob", "20"), mint("alice", "30")});
        seed["auth"] = {{"hs256", {{"secret", "test-secret"}}}, {"ledger_auth", false}};
        network_ = seed::LiveNetwork::load(seed, "test-seed", ".");
        router_ = app::make_router(network_->store());
    }

    static json request(std::int64_t at) {
        return {
            {"activeAtOffset", at},
            {"eventFormat", {{"filtersByParty", {{alice, json::object()}}}, {"verbose", false}}}};
    }

    // The upgraded GET's stream.
    std::shared_ptr<http::MessageStream> open() const {
        http::Request r{.method = "GET", .target = "/v2/state/active-contracts"};
        r.websocket_upgrade = true;
        const http::Response response = router_->handle(r);
        EXPECT_EQ(response.status, 101) << response.body;
        EXPECT_EQ(response.subprotocol, "daml.ws.auth");
        return response.stream;
    }

    std::string listed(const json& body) const {
        const http::Response r =
            router_->handle(http::Request{.method = "POST",
                                          .target = "/v2/state/active-contracts",
                                          .headers = {},
                                          .body = body.dump()});
        EXPECT_EQ(r.status, 200) << r.body;
        return r.body;
    }

    static std::string as_list(const std::vector<std::string>& messages) {
        std::string out = "[";
        for (std::size_t i = 0; i < messages.size(); ++i) out += (i > 0 ? "," : "") + messages[i];
        return out + "]";
    }

    std::unique_ptr<seed::LiveNetwork> network_;
    std::unique_ptr<http::Router> router_;
};

TEST_F(ActiveContractsStreamTest, SendsTheSnapshotOneMessageEachThenEnds) {
    const auto stream = open();
    ASSERT_NE(stream, nullptr);

    const Output out = stream->on_message(request(4).dump());

    EXPECT_EQ(as_list(out.messages), listed(request(4)));
    EXPECT_GE(out.messages.size(), 2U);  // her two holdings, and her wallet install
    EXPECT_TRUE(out.done);
}

TEST_F(ActiveContractsStreamTest, OnlyTheFirstRequestCounts) {
    const auto stream = open();
    ASSERT_NE(stream, nullptr);
    (void)stream->on_message(request(4).dump());

    const Output again = stream->on_message(request(2).dump());

    EXPECT_TRUE(again.messages.empty());
}

TEST_F(ActiveContractsStreamTest, AnErrorIsOneMessageThenTheEnd) {
    const auto stream = open();
    ASSERT_NE(stream, nullptr);

    const Output out = stream->on_message(request(99).dump());

    ASSERT_EQ(out.messages.size(), 1U);
    EXPECT_EQ(json::parse(out.messages[0])["code"], "OFFSET_AFTER_LEDGER_END");
    EXPECT_TRUE(out.done);
}

TEST_F(ActiveContractsStreamTest, AFrameThatIsNoRequestIsTheInternalError) {
    const auto stream = open();
    ASSERT_NE(stream, nullptr);

    const Output out = stream->on_message("not json");

    ASSERT_EQ(out.messages.size(), 1U);
    EXPECT_EQ(json::parse(out.messages[0])["grpcCodeValue"], 13);
    EXPECT_TRUE(out.done);
}

}  // namespace
}  // namespace cantonlite::areas::ledger::active_contracts_stream_test
