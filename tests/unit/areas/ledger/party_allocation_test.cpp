// POST /v2/parties on the live default network, from Canton release-line-3.5:
// JsPartyManagementService (L192-194, relaxed codec: every field optional),
// PartyManagementServiceAuthorization (L101-107: AdminOrIdpAdminOrSelfAdmin(userId)),
// ApiPartyManagementService (L277-280 an empty hint is "party-<uuid>"; L300-331 validation;
// L392-410 the userId's user may act as the new party; L450-466 the topology's
// MappingAlreadyExists remapped to INVALID_ARGUMENT), PartyAllocation.scala (L100-106: "Party
// already exists: party <hint>::<12 characters of the fingerprint>... is already allocated on
// this node"). The new party is usable at once by every API and is part of snapshots.
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "areas/admin/admin_test_support.hpp"

namespace cantonlite::areas::ledger::party_allocation_test {
namespace {

using admin::admintest::LiveFixture;
using nlohmann::json;

const std::string admin_user = "ledger-api-user";

class PartyAllocationTest : public LiveFixture {
  protected:
    http::Response allocate(const json& body, const std::string& user = admin_user) {
        return as_user(user, "POST", "/v2/parties", body.dump());
    }

    std::string expected_party(const std::string& hint) const {
        return seed::allocated_party(network_->store().network(), hint);
    }

    bool listed(const std::string& party) const {
        const http::Response r = as_user(admin_user, "GET", "/v2/parties");
        return r.body.find("\"" + party + "\"") != std::string::npos;
    }
};

TEST_F(PartyAllocationTest, AnAdminAllocatesAPartyInTheParticipantsNamespace) {
    const http::Response r = allocate({{"partyIdHint", "Exchange"}});

    ASSERT_EQ(r.status, 200) << r.body;
    const std::string party = expected_party("Exchange");
    EXPECT_EQ(r.body, R"({"partyDetails":{"party":")" + party +
                          R"(","isLocal":true,"localMetadata":{"resourceVersion":"0",)"
                          R"("annotations":{}},"identityProviderId":""}})");
    EXPECT_TRUE(listed(party));
}

TEST_F(PartyAllocationTest, ThePartyIsReadableAtOnce) {
    const std::string party =
        json::parse(allocate({{"partyIdHint", "Reader"}}).body)["partyDetails"]["party"];

    const http::Response one = as_user(admin_user, "GET", "/v2/parties/" + party);

    ASSERT_EQ(one.status, 200) << one.body;
    EXPECT_EQ(json::parse(one.body)["partyDetails"][0]["party"], party);
}

TEST_F(PartyAllocationTest, WithoutAHintThePartyIsNamedByAUuid) {
    const http::Response r = allocate(json::object());

    ASSERT_EQ(r.status, 200) << r.body;
    const std::string party = json::parse(r.body)["partyDetails"]["party"];
    EXPECT_TRUE(party.starts_with("party-")) << party;
    EXPECT_EQ(party.find("::"), std::string("party-").size() + 36) << party;
}

TEST_F(PartyAllocationTest, AnAllocatedHintIsRefused) {
    ASSERT_EQ(allocate({{"partyIdHint", "Twice"}}).status, 200);

    const http::Response again = allocate({{"partyIdHint", "Twice"}});

    EXPECT_EQ(again.status, 400) << again.body;
    const json e = json::parse(again.body);
    EXPECT_EQ(e["code"], "INVALID_ARGUMENT");
    const std::string fingerprint = expected_party("Twice").substr(std::string("Twice::").size());
    EXPECT_EQ(e["cause"],
              "The submitted request has invalid arguments: Party already exists: "
              "party Twice::" +
                  fingerprint.substr(0, 12) + "... is already allocated on this node");
}

TEST_F(PartyAllocationTest, AUserWithoutAdminRightsMayAllocateForItselfOnly) {
    const http::Response other = allocate({{"partyIdHint", "Mine"}}, "alice");
    EXPECT_EQ(other.status, 403) << other.body;

    const http::Response mine = allocate({{"partyIdHint", "Mine"}, {"userId", "alice"}}, "alice");

    ASSERT_EQ(mine.status, 200) << mine.body;
    const std::string party = expected_party("Mine");
    // The user may now act as it: its rights name the party.
    const http::Response rights = as_user("alice", "GET", "/v2/users/alice/rights");
    EXPECT_NE(rights.body.find(party), std::string::npos) << rights.body;
}

TEST_F(PartyAllocationTest, WithoutATokenIsUnauthenticated) {
    const http::Response r = call("POST", "/v2/parties", json{{"partyIdHint", "Anon"}}.dump());
    EXPECT_EQ(r.status, 401) << r.body;
}

TEST_F(PartyAllocationTest, AMalformedBodyIsRefusedBeforeTheClaims) {
    const http::Response r = call("POST", "/v2/parties", "{\"partyIdHint\": 5}");
    EXPECT_EQ(r.status, 400) << r.body;
    EXPECT_EQ(r.content_type, "text/plain; charset=UTF-8");
}

TEST_F(PartyAllocationTest, AHintThatIsNoIdentifierIsAnInvalidArgument) {
    const http::Response r = allocate({{"partyIdHint", "no spaces"}});
    EXPECT_EQ(r.status, 400) << r.body;
    EXPECT_EQ(json::parse(r.body)["code"], "INVALID_ARGUMENT");
}

TEST_F(PartyAllocationTest, ARevertTakesThePartyBack) {
    const json snapshot = admin("POST", "/snapshots");
    const std::string party = expected_party("Temporary");
    ASSERT_EQ(allocate({{"partyIdHint", "Temporary"}}).status, 200);
    ASSERT_TRUE(listed(party));

    admin("POST", "/snapshots/" + snapshot["id"].get<std::string>() + "/revert");

    EXPECT_FALSE(listed(party));
    EXPECT_EQ(allocate({{"partyIdHint", "Temporary"}}).status, 200);
}

}  // namespace
}  // namespace cantonlite::areas::ledger::party_allocation_test
