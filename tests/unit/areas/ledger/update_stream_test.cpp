// The WebSocket stream of /v2/updates, apart from the socket (asyncapi.yaml /v2/updates; Canton
// 3.5 Endpoints.websocket, JsUpdateService): one GetUpdatesRequest, then each visible update as
// one message, byte for byte an element of POST /v2/updates' list; tailing without endInclusive,
// done at it; an error is one JsCantonError message and the end.

#include <memory>
#include <optional>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cantonlite/app/application.hpp"
#include "cantonlite/areas/ledger/ledger_handlers.hpp"
#include "cantonlite/model/timestamp.hpp"
#include "cantonlite/seed/live_network.hpp"
#include "cantonlite/store/update.hpp"
#include "seed/seed_test_network.hpp"

namespace cantonlite::areas::ledger::update_stream_test {
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

// alice's and bob's mints at offsets 2-4 (alice, bob, alice); auth off, as an unauthenticated
// participant.
class UpdateStreamTest : public ::testing::Test {
  protected:
    void SetUp() override {
        json seed = seed_with({mint("alice", "10"), mint("bob", "20"), mint("alice", "30")});
        seed["auth"] = {{"hs256", {{"secret", "test-secret"}}}, {"ledger_auth", false}};
        network_ = seed::LiveNetwork::load(seed, "test-seed", ".");
        auth_ = std::make_unique<LedgerAuth>(network_->store().network());
        router_ = app::make_router(network_->store());
    }

    std::unique_ptr<http::MessageStream> stream() const {
        return make_update_stream(network_->store(), RouteAuth(*auth_, Claims::read_as), Caller{},
                                  ApiProfile{});
    }

    static json request(std::int64_t begin, std::optional<std::int64_t> end = std::nullopt) {
        json r = {{"beginExclusive", begin},
                  {"verbose", false},
                  {"filter", {{"filtersByParty", {{alice, json::object()}}}}}};
        if (end) r["endInclusive"] = *end;
        return r;
    }

    // POST /v2/updates' answer to `body`.
    std::string listed(const json& body) const {
        const http::Response r = router_->handle(http::Request{
            .method = "POST", .target = "/v2/updates", .headers = {}, .body = body.dump()});
        EXPECT_EQ(r.status, 200) << r.body;
        return r.body;
    }

    static std::string as_list(const std::vector<std::string>& messages) {
        std::string out = "[";
        for (std::size_t i = 0; i < messages.size(); ++i) out += (i > 0 ? "," : "") + messages[i];
        return out + "]";
    }

    std::unique_ptr<seed::LiveNetwork> network_;
    std::unique_ptr<LedgerAuth> auth_;
    std::unique_ptr<http::Router> router_;
};

TEST_F(UpdateStreamTest, SendsWhatTheListHasOneMessageEach) {
    const Output out = stream()->on_message(request(0, 4).dump());

    EXPECT_EQ(as_list(out.messages), listed(request(0, 4)));
    EXPECT_EQ(out.messages.size(), 3U);  // her wallet install at 1, her mints at 2 and 4
    EXPECT_TRUE(out.done);
}

// The offset of an OffsetCheckpoint message; nullopt for any other message.
std::optional<std::int64_t> checkpoint_offset(const std::string& message) {
    const json m = json::parse(message);
    if (!m.contains("update") || !m["update"].contains("OffsetCheckpoint")) return std::nullopt;
    return m["update"]["OffsetCheckpoint"]["value"]["offset"].get<std::int64_t>();
}

TEST_F(UpdateStreamTest, WithoutAnEndItTailsTheLedger) {
    const auto s = stream();
    const Output first = s->on_message(request(2).dump());
    ASSERT_EQ(first.messages.size(), 2U);  // offset 4, then the checkpoint
    EXPECT_EQ(json::parse(first.messages[0])["update"]["Transaction"]["value"]["offset"], 4);
    EXPECT_EQ(checkpoint_offset(first.messages[1]), 4);
    EXPECT_FALSE(first.done);
    EXPECT_TRUE(s->poll().messages.empty());

    (void)network_->apply_steps(json::array({mint("bob", "1"), mint("alice", "2")}));

    const Output later = s->poll();
    ASSERT_EQ(later.messages.size(), 2U);  // alice's at 6, not bob's at 5; the checkpoint
    EXPECT_EQ(json::parse(later.messages[0])["update"]["Transaction"]["value"]["offset"], 6);
    EXPECT_EQ(checkpoint_offset(later.messages[1]), 6);
    EXPECT_FALSE(later.done);
    EXPECT_TRUE(s->poll().messages.empty());
}

// CheckpointInTailingStreamsIT: a stream begun at the ledger end gets a checkpoint at once, and
// one after every write, seen or not; each is the list's checkpoint, byte for byte.
TEST_F(UpdateStreamTest, ATailingStreamGetsACheckpointAfterEveryWrite) {
    const auto s = stream();
    const Output first = s->on_message(request(4).dump());
    ASSERT_EQ(first.messages.size(), 1U);
    EXPECT_EQ(as_list(first.messages), listed(request(4)));

    (void)network_->apply_steps(json::array({mint("bob", "1")}));

    const Output later = s->poll();
    ASSERT_EQ(later.messages.size(), 1U);
    EXPECT_EQ(checkpoint_offset(later.messages[0]), 5);
    EXPECT_EQ(as_list(later.messages), listed(request(4)));  // bob's mint at 5 is not hers
}

TEST_F(UpdateStreamTest, ACheckpointHasTheSynchronizersLatestRecordTime) {
    const Output out = stream()->on_message(request(4).dump());

    ASSERT_EQ(out.messages.size(), 1U);
    const json value = json::parse(out.messages[0])["update"]["OffsetCheckpoint"]["value"];
    const store::UpdatePtr latest = network_->store().update_at(4);
    EXPECT_EQ(value,
              (json{{"offset", 4},
                    {"synchronizerTimes",
                     {{{"synchronizerId", network_->store().network().synchronizer_id},
                       {"recordTime", model::format_instant(store::record_time_of(*latest))}}}}}));
}

TEST_F(UpdateStreamTest, AnEndAheadOfNothingIsRefusedAsTheListRefusesIt) {
    const Output out = stream()->on_message(request(0, 9).dump());

    ASSERT_EQ(out.messages.size(), 1U);
    EXPECT_TRUE(out.done);
    const json error = json::parse(out.messages[0]);
    EXPECT_EQ(error["code"], "OFFSET_AFTER_LEDGER_END");
}

TEST_F(UpdateStreamTest, AnInvalidRequestIsOneErrorMessage) {
    const Output out = stream()->on_message(R"({"beginExclusive": 0})");

    ASSERT_EQ(out.messages.size(), 1U);
    EXPECT_TRUE(out.done);
    const json error = json::parse(out.messages[0]);
    EXPECT_EQ(error["code"], "INVALID_ARGUMENT");
    EXPECT_NE(error["cause"].get<std::string>().find("Either filter/verbose or update_format"),
              std::string::npos);
}

// tapir's frame decode failure becomes Canton's internal error, which reaches the client redacted.
TEST_F(UpdateStreamTest, AFrameThatIsNoRequestIsARedactedInternalError) {
    const Output out = stream()->on_message("not json");

    ASSERT_EQ(out.messages.size(), 1U);
    EXPECT_TRUE(out.done);
    const json error = json::parse(out.messages[0]);
    EXPECT_EQ(error["code"], "NA");
    EXPECT_EQ(error["grpcCodeValue"], 13);
}

TEST_F(UpdateStreamTest, OnlyTheFirstRequestCounts) {
    const auto s = stream();
    (void)s->on_message(request(4).dump());

    const Output second = s->on_message(request(0, 4).dump());

    EXPECT_TRUE(second.messages.empty());
    EXPECT_FALSE(second.done);
}

// ---- the route -------------------------------------------------------------------------------

TEST_F(UpdateStreamTest, AnUpgradeIsAnsweredWithTheStreamAndDamlsProtocol) {
    for (const std::string target : {"/v2/updates", "//v2/updates", "/v2/updates/flats"}) {
        http::Request r{.method = "GET", .target = target};
        r.websocket_upgrade = true;

        const http::Response response = router_->handle(r);

        EXPECT_EQ(response.status, 101) << target << ": " << response.body;
        EXPECT_NE(response.stream, nullptr) << target;
        EXPECT_EQ(response.subprotocol, "daml.ws.auth");
    }
}

// The 3.5 line's GET /v2/updates/trees: the stream of POST /v2/updates/trees' elements
// (JsUpdateService.getTreesStream; asyncapi.yaml /v2/updates/trees).
TEST_F(UpdateStreamTest, TheTreesStreamSendsWhatTheTreesListHas) {
    const auto trees = make_update_stream(network_->store(), RouteAuth(*auth_, Claims::read_as),
                                          Caller{}, ApiProfile{}, true);

    const Output out = trees->on_message(request(0, 4).dump());

    const http::Response listed = router_->handle(http::Request{.method = "POST",
                                                                .target = "/v2/updates/trees",
                                                                .headers = {},
                                                                .body = request(0, 4).dump()});
    ASSERT_EQ(listed.status, 200) << listed.body;
    EXPECT_EQ(as_list(out.messages), listed.body);
    ASSERT_FALSE(out.messages.empty());
    EXPECT_TRUE(out.messages[0].starts_with(R"({"update":{"TransactionTree":)")) << out.messages[0];
}

TEST_F(UpdateStreamTest, APlainGetIsAnUnknownPath) {
    const http::Response response =
        router_->handle(http::Request{.method = "GET", .target = "/v2/updates"});

    EXPECT_EQ(response.status, 404) << response.body;
    EXPECT_EQ(response.stream, nullptr);
}

// tapir skips empty segments, so the wallet SDK's doubled slash reaches the same routes.
TEST_F(UpdateStreamTest, TheLedgerApiSkipsEmptySegments) {
    const http::Response doubled = router_->handle(http::Request{
        .method = "POST", .target = "//v2/updates", .headers = {}, .body = request(0, 4).dump()});

    EXPECT_EQ(doubled.status, 200) << doubled.body;
    EXPECT_EQ(
        router_->handle(http::Request{.method = "GET", .target = "//api/scan/v0/dso-party-id"})
            .status,
        404);  // Pekko keeps them: the Splice apps do not
}

}  // namespace
}  // namespace cantonlite::areas::ledger::update_stream_test
