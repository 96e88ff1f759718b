// Validator wallet operations: GET /v0/wallet/transfer-offers (op 4) and
// POST /v0/wallet/buy-traffic-requests/{tracking_id}/status (op 5), and the wallet authorization
// in front of them (splice-behavior.md ops 4, 5, §4.3, §5.3; wallet-external.yaml
// ListTransferOffersResponse, GetBuyTrafficRequestStatusResponse; common-external.yaml Contract).
#include <algorithm>
#include <string>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "areas/validator/validator_test_support.hpp"

namespace cantonlite::areas::validator::wallet_ops_test {
namespace {

using namespace valtest;  // NOLINT: the validator test network, steps and tokens
using scantest::alice;
using scantest::all_created;
using scantest::bob;
using scantest::body_of;
using scantest::contract_json;
using scantest::dso;
using scantest::is_error;

const std::string offers_path = "/api/validator/v0/wallet/transfer-offers";

std::string status_path(const std::string& tracking_id) {
    return "/api/validator/v0/wallet/buy-traffic-requests/" + tracking_id + "/status";
}

Response offers_of(const std::string& user, const ScanClient& client = api()) {
    return client.get(offers_path, {token_of(client, user)});
}

// POST with an empty body and no Content-Type, as the yaml declares no request body.
Response traffic_status(const std::string& user, const std::string& tracking_id) {
    return api().send("POST", status_path(tracking_id), "", {token_of(api(), user)});
}

// The transfer offers of the network, in creation order: live, stale, accepted, withdrawn,
// expired, bob-carol.
model::ContractPtr offer(std::size_t n) {
    return all_created(api().store(), "TransferOffer").at(n);
}

json offers(const std::vector<std::size_t>& indexes) {
    json list = json::array();
    for (const std::size_t n : indexes) list.push_back(contract_json(*offer(n)));
    return {{"offers", list}};
}

std::vector<std::string> offer_ids(const Response& response) {
    std::vector<std::string> ids;
    const json body = body_of(response);
    for (const json& c : body.at("offers")) {
        ids.push_back(c.at("contract_id").get<std::string>());
    }
    return ids;
}

// ---- GET /v0/wallet/transfer-offers -------------------------------------------------------

TEST(ListTransferOffers, ListsTheOffersAliceSendsOrReceivesInCreationOrder) {
    const Response response = offers_of("alice");

    EXPECT_EQ(response.status, 200);
    EXPECT_EQ(response.content_type, "application/json");
    EXPECT_EQ(body_of(response), offers({0, 1}));
}

TEST(ListTransferOffers, ListsTheOffersBobSendsOrReceivesInCreationOrder) {
    const Response response = offers_of("bob");

    EXPECT_EQ(response.status, 200);
    EXPECT_EQ(body_of(response), offers({0, 1, 5}));
}

// No expiry filter: an offer stays listed until automation expires it on the ledger.
TEST(ListTransferOffers, ListsAnExpiredOfferThatWasNeverArchived) {
    const std::vector<std::string> ids = offer_ids(offers_of("alice"));

    EXPECT_NE(std::find(ids.begin(), ids.end(), offer(1)->contract_id), ids.end());
}

struct ArchivedOffer {
    std::string name;
    std::size_t index;
};

class ArchivedOfferNotListed : public testing::TestWithParam<ArchivedOffer> {};

TEST_P(ArchivedOfferNotListed, ForEitherParty) {
    const std::string id = offer(GetParam().index)->contract_id.str();

    for (const std::string user : {"alice", "bob"}) {
        const std::vector<std::string> ids = offer_ids(offers_of(user));
        EXPECT_EQ(std::find(ids.begin(), ids.end(), id), ids.end()) << user;
    }
}

INSTANTIATE_TEST_SUITE_P(Steps, ArchivedOfferNotListed,
                         testing::Values(ArchivedOffer{"Accepted", 2},
                                         ArchivedOffer{"Withdrawn", 3},
                                         ArchivedOffer{"ExpiredByItsStep", 4}),
                         [](const testing::TestParamInfo<ArchivedOffer>& info) {
                             return info.param.name;
                         });

TEST(ListTransferOffers, WritesEachOfferAsAContract) {
    const Response response = offers_of("alice");

    const json contract = body_of(response).at("offers").at(0);
    EXPECT_EQ(contract.size(), 5U);
    EXPECT_EQ(contract.at("template_id"),
              "10c31d3a0cdb5deea37c93f1c664866a4e3f5da88406805a7defb8b8de685bfc:"
              "Splice.Wallet.TransferOffer:TransferOffer");
    EXPECT_EQ(contract.at("contract_id"), offer(0)->contract_id);
    ASSERT_TRUE(contract.at("created_event_blob").is_string());
    EXPECT_FALSE(contract.at("created_event_blob").get<std::string>().empty());
    EXPECT_EQ(contract.at("created_at"), "2025-01-04T10:00:00.500Z");
}

// ApiCodecCompressed: Numeric without trailing zeros, the Unit enum as its constructor, times as
// Instant.toString.
TEST(ListTransferOffers, WritesThePayloadAsApiCodecCompressedJson) {
    const Response response = offers_of("alice");

    EXPECT_EQ(body_of(response).at("offers").at(0).at("payload"),
              (json{{"sender", alice},
                    {"receiver", bob},
                    {"dso", dso},
                    {"amount", {{"amount", "10.0"}, {"unit", "AmuletUnit"}}},
                    {"description", "offer offer-live"},
                    {"expiresAt", "2030-06-30T00:00:00Z"},
                    {"trackingId", "tracking-offer-live"}}));
}

TEST(ListTransferOffers, SenderAndReceiverEachSeeTheOneOffer) {
    const ScanClient one(
        seed_with({create_offer("alice", "bob", "12.5", "2030-01-01T00:00:00Z", "offer-1")}));
    const json expected = {
        {"offers", {contract_json(*all_created(one.store(), "TransferOffer").at(0))}}};

    const Response of_sender = offers_of("alice", one);
    const Response of_receiver = offers_of("bob", one);

    ASSERT_EQ(of_sender.status, 200) << of_sender.body;
    EXPECT_EQ(body_of(of_sender), expected);
    EXPECT_EQ(body_of(of_receiver), expected);
    EXPECT_EQ(body_of(of_sender).at("offers").at(0).at("payload").at("amount").at("amount"),
              "12.5");
}

TEST(ListTransferOffers, IsAnEmptyListWithoutOffers) {
    const ScanClient none(seed_with(json::array()));

    const Response response = offers_of("alice", none);

    EXPECT_EQ(response.status, 200);
    EXPECT_EQ(body_of(response), (json{{"offers", json::array()}}));
}

// ---- POST /v0/wallet/buy-traffic-requests/{tracking_id}/status ----------------------------------

struct StatusCase {
    std::string user;
    std::string tracking_id;
    json expected;
};

class BuyTrafficRequestStatus : public testing::TestWithParam<StatusCase> {};

TEST_P(BuyTrafficRequestStatus, IsTheLatestEventOfTheRequest) {
    const Response response = traffic_status(GetParam().user, GetParam().tracking_id);

    EXPECT_EQ(response.status, 200) << response.body;
    EXPECT_EQ(response.content_type, "application/json");
    EXPECT_EQ(body_of(response), GetParam().expected);
}

INSTANTIATE_TEST_SUITE_P(
    Requests, BuyTrafficRequestStatus,
    testing::Values(StatusCase{"alice", "traffic-created", {{"status", "created"}}},
                    StatusCase{"alice",
                               "traffic-cancelled",
                               {{"status", "failed"},
                                {"failure_reason", "rejected"},
                                {"rejection_reason", cancel_reason}}},
                    StatusCase{"alice",
                               "traffic-expired",
                               {{"status", "failed"},
                                {"failure_reason", "expired"},
                                {"rejection_reason", nullptr}}},
                    StatusCase{"bob", "traffic-bob", {{"status", "created"}}}),
    [](const testing::TestParamInfo<StatusCase>& info) {
        std::string name = info.param.tracking_id;
        std::erase(name, '-');
        return name;
    });

// The completing transaction is the one that archived the request.
TEST(BuyTrafficRequestCompleted, NamesTheCompletingTransaction) {
    const model::ContractPtr request = all_created(api().store(), "BuyTrafficRequest").at(1);
    const auto state = api().store().contract(request->contract_id);
    ASSERT_TRUE(state && state->archived_offset());
    const std::string completing =
        scantest::transaction_at(api().store(), *state->archived_offset()).update_id().str();

    const Response response = traffic_status("alice", "traffic-completed");

    EXPECT_EQ(response.status, 200) << response.body;
    EXPECT_EQ(body_of(response), (json{{"status", "completed"}, {"transaction_id", completing}}));
    EXPECT_NE(completing, scantest::creating_update_id(api().store(), request->contract_id.str()));
}

struct UnknownRequest {
    std::string name;
    std::string user;
    std::string tracking_id;
};

class BuyTrafficRequestNotFound : public testing::TestWithParam<UnknownRequest> {};

TEST_P(BuyTrafficRequestNotFound, NamesTheTrackingId) {
    const Response response = traffic_status(GetParam().user, GetParam().tracking_id);

    EXPECT_TRUE(
        is_error(response, 404,
                 "Couldn't find buy traffic request with tracking id " + GetParam().tracking_id));
}

INSTANTIATE_TEST_SUITE_P(
    Requests, BuyTrafficRequestNotFound,
    testing::Values(UnknownRequest{"NeverCreated", "alice", "no-such-request"},
                    UnknownRequest{"AnotherUsersRequest", "bob", "traffic-completed"},
                    UnknownRequest{"AnotherUsersPendingRequest", "alice", "traffic-bob"},
                    UnknownRequest{"AnOffersTrackingId", "alice", "tracking-offer-live"}),
    [](const testing::TestParamInfo<UnknownRequest>& info) { return info.param.name; });

// ---- wallet authorization -------------------------------------------------------------------

struct WalletOp {
    std::string operation_id;
    std::string method;
    std::string target;
};

std::vector<WalletOp> wallet_ops() {
    return {{"listTransferOffers", "GET", offers_path},
            {"getBuyTrafficRequestStatus", "POST", status_path("traffic-created")}};
}

Response send(const WalletOp& op, Header token) {
    return api().send(op.method, op.target, "", {std::move(token)});
}

class NoWallet : public testing::TestWithParam<std::tuple<WalletOp, std::string>> {};

// UserWalletAuthExtractor: no WalletAppInstall for the user, checked before the user's rights.
TEST_P(NoWallet, IsNotFoundNamingUserAndOperation) {
    const auto& [op, user] = GetParam();

    const Response response = send(op, token_for(user));

    EXPECT_TRUE(is_error(
        response, 404,
        "No wallet found for user '" + user + "' for operation '" + op.operation_id + "'"));
}

INSTANTIATE_TEST_SUITE_P(
    Users, NoWallet,
    testing::Combine(testing::ValuesIn(wallet_ops()),
                     testing::Values("carol",            // a ledger user without wallet
                                     "dave",             // no wallet and no act-as right
                                     "nobody-at-all")),  // not a user of the participant
    [](const testing::TestParamInfo<std::tuple<WalletOp, std::string>>& info) {
        std::string name = std::get<0>(info.param).operation_id + std::get<1>(info.param);
        std::erase(name, '-');
        return name;
    });

class CannotActAsWalletParty : public testing::TestWithParam<WalletOp> {};

TEST_P(CannotActAsWalletParty, IsForbidden) {
    const Response response = send(GetParam(), token_of(api(), "erin"));

    EXPECT_TRUE(is_error(response, 403, "Authorization Failed for erin"));
}

INSTANTIATE_TEST_SUITE_P(Operations, CannotActAsWalletParty, testing::ValuesIn(wallet_ops()),
                         [](const testing::TestParamInfo<WalletOp>& info) {
                             return info.param.operation_id;
                         });

}  // namespace
}  // namespace cantonlite::areas::validator::wallet_ops_test
