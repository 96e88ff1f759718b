// The shipped default network (config/default-network.json, docs/default-network.md) holds every
// state the operations serve, and its no-LSU twin differs from it only in the LSU announcement.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <memory>
#include <set>
#include <string>
#include <variant>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cantonlite/model/value_json.hpp"
#include "cantonlite/seed/seed_loader.hpp"
#include "cantonlite/splice/splice_views.hpp"

namespace cantonlite::seed::default_network_test {
namespace {

using nlohmann::json;
using splice::BuyTrafficStatus;
using store::LedgerStore;

std::filesystem::path config_file(const std::string& name) {
    return std::filesystem::path(CANTONLITE_SOURCE_DIR) / "config" / name;
}

json read_json(const std::string& name) {
    std::ifstream in(config_file(name));
    return json::parse(in);
}

json payload(const model::ContractPtr& contract) {
    return json::parse(model::value_json(contract->argument, model::ValueEncoding::api_compressed));
}

model::Timestamp time_of(const json& text) {
    const auto t = model::parse_timestamp(text.get<std::string>());
    if (!t) throw std::runtime_error("not a timestamp: " + text.dump());
    return *t;
}

bool is_entity(const model::ContractPtr& c, const std::string& entity) {
    return c->template_id().entity_name == entity;
}

class DefaultNetwork : public testing::Test {
  protected:
    static void SetUpTestSuite() {
        store_ = load_seed_file(config_file("default-network.json")).release();
        no_lsu_ = load_seed_file(config_file("default-network-no-lsu.json")).release();
    }
    static void TearDownTestSuite() {
        delete store_;
        delete no_lsu_;
        store_ = nullptr;
        no_lsu_ = nullptr;
    }

    static const LedgerStore& store() { return *store_; }
    static const LedgerStore& no_lsu() { return *no_lsu_; }

    static std::string party_of(const std::string& user) {
        const model::User* u = store().network().find_user(user);
        if (u == nullptr) throw std::runtime_error("no user " + user);
        return u->party;
    }

    // The second synchronizer, to which contracts are reassigned.
    static std::string private_synchronizer() {
        return store().network().other_synchronizers.at(0);
    }

  private:
    static inline LedgerStore* store_ = nullptr;
    static inline LedgerStore* no_lsu_ = nullptr;
};

TEST_F(DefaultNetwork, HasTheDsoAndAtLeastTwoSvs) {
    const model::Network& n = store().network();

    EXPECT_EQ(n.dso_party,
              "DSO::1220fb89d62774bd5b3fd8a11c1b22c8c5453e8286c3cf7add515c98d7bca192ef18");
    EXPECT_GE(n.svs.size(), 2U);
    EXPECT_EQ(store().active_counts().at("splice-dso-governance:Splice.DsoRules:DsoRules"), 1U);
    EXPECT_FALSE(n.other_synchronizers.empty());
}

TEST_F(DefaultNetwork, HasUsersOfEveryKind) {
    const auto& users = store().network().users;
    const auto count = [&](auto predicate) {
        return std::count_if(users.begin(), users.end(), predicate);
    };

    EXPECT_GE(users.size(), 4U);
    EXPECT_GE(count([](const model::User& u) { return u.wallet; }), 2);
    // Without a wallet, but acting as its own party on the ledger.
    EXPECT_GE(count([](const model::User& u) {
                  return !u.wallet && u.rights.can_act_as == std::vector<std::string>{u.party} &&
                         u.rights.can_read_as.empty() && !u.rights.can_read_as_any_party;
              }),
              1);
    // Ledger-only readers of other parties.
    EXPECT_GE(
        count([](const model::User& u) { return !u.wallet && !u.rights.can_read_as.empty(); }), 1);
    EXPECT_GE(count([](const model::User& u) {
                  return !u.wallet && u.rights.can_read_as_any_party && u.rights.can_act_as.empty();
              }),
              1);
}

TEST_F(DefaultNetwork, HoldsUnlockedAndLockedAmuletsOfSeveralOwners) {
    std::set<std::string> unlocked_owners;
    std::set<std::string> locked_owners;
    for (const auto& c : store().active_contracts()) {
        if (is_entity(c, "Amulet")) unlocked_owners.insert(payload(c).at("owner"));
        if (is_entity(c, "LockedAmulet")) locked_owners.insert(payload(c).at("amulet").at("owner"));
    }

    const auto counts = store().active_counts();
    EXPECT_GE(counts.at("splice-amulet:Splice.Amulet:Amulet"), 2U);
    EXPECT_GE(counts.at("splice-amulet:Splice.Amulet:LockedAmulet"), 2U);
    EXPECT_GE(unlocked_owners.size(), 2U);
    EXPECT_GE(locked_owners.size(), 2U);
}

TEST_F(DefaultNetwork, AWalletUserHasALiveAndAnExpiredTransferOffer) {
    const model::Timestamp now = store().now();
    int live = 0;
    int expired = 0;
    for (const auto& offer : splice::views(store()).transfer_offers_of(party_of("alice"))) {
        (time_of(payload(offer).at("expiresAt")) > now ? live : expired) += 1;
    }

    EXPECT_GE(live, 1);
    EXPECT_GE(expired, 1);
    EXPECT_GE(store().active_counts().at(
                  "splice-wallet:Splice.Wallet.TransferOffer:AcceptedTransferOffer"),
              1U);
}

TEST_F(DefaultNetwork, FindsTheLiveAnsEntriesButNotTheExpiredOne) {
    const model::Timestamp now = store().now();

    const auto alice = splice::views(store()).ans_entry("alice.unverified.ans", now);
    ASSERT_TRUE(alice.has_value());
    EXPECT_EQ(alice->user, party_of("alice"));
    EXPECT_GT(alice->expires_at, now);

    EXPECT_FALSE(splice::views(store()).ans_entry("bob-shop.unverified.ans", now).has_value());
    const auto active = store().active_contracts();
    EXPECT_TRUE(std::any_of(active.begin(), active.end(), [](const model::ContractPtr& c) {
        return is_entity(c, "AnsEntry") && payload(c).at("name") == "bob-shop.unverified.ans";
    })) << "the expired entry stays active";
}

TEST_F(DefaultNetwork, HasARenewedAnsEntry) {
    const auto bob = splice::views(store()).ans_entry("bob.unverified.ans", store().now());
    ASSERT_TRUE(bob.has_value());
    const auto state = store().contract(bob->contract->contract_id);
    ASSERT_TRUE(state.has_value());
    const auto update = store().update_at(state->created_offset());
    ASSERT_NE(update, nullptr);
    const auto* tx = std::get_if<store::Transaction>(update.get());
    ASSERT_NE(tx, nullptr);
    const auto* renew = store::exercised(tx->nodes.at(0));
    ASSERT_NE(renew, nullptr);
    EXPECT_EQ(renew->choice, "AnsEntry_Renew");
}

TEST_F(DefaultNetwork, HasARecreatedVoteRequestAndAnUntouchedOne) {
    int recreated = 0;
    int untouched = 0;
    for (const auto& request : splice::views(store()).active_vote_requests()) {
        const json tracking = payload(request).at("trackingCid");
        if (tracking.is_null()) {
            const auto found =
                splice::views(store()).vote_request_by_tracking_cid(request->contract_id);
            ASSERT_NE(found, nullptr);
            EXPECT_EQ(found->contract_id, request->contract_id);
            ++untouched;
            continue;
        }
        const std::string original = tracking.get<std::string>();
        const auto found = splice::views(store()).vote_request_by_tracking_cid(original);
        ASSERT_NE(found, nullptr) << original;
        EXPECT_NE(found->contract_id, original);
        EXPECT_EQ(found->contract_id, request->contract_id);
        const auto state = store().contract(original);
        ASSERT_TRUE(state.has_value());
        EXPECT_TRUE(state->archived_offset().has_value());
        ++recreated;
    }

    EXPECT_GE(recreated, 1);
    EXPECT_GE(untouched, 1);
}

TEST_F(DefaultNetwork, HasBuyTrafficRequestsInEveryState) {
    const auto event = [&](const std::string& user, const std::string& tracking_id) {
        const auto e = splice::views(store()).latest_buy_traffic_event(party_of(user), tracking_id);
        if (!e) throw std::runtime_error("no buy-traffic request " + tracking_id);
        return *e;
    };

    EXPECT_EQ(event("alice", "traffic-alice-2").status, BuyTrafficStatus::created);
    EXPECT_EQ(event("alice", "traffic-alice-1").status, BuyTrafficStatus::completed);
    const auto rejected = event("bob", "traffic-bob-1");
    EXPECT_EQ(rejected.status, BuyTrafficStatus::rejected);
    EXPECT_TRUE(rejected.reason.starts_with("out of funds")) << rejected.reason;
    EXPECT_EQ(event("bob", "traffic-bob-2").status, BuyTrafficStatus::expired);
}

TEST_F(DefaultNetwork, HasTransferCommandCounters) {
    const auto alice = splice::views(store()).transfer_command_counter_of(party_of("alice"));
    ASSERT_TRUE(alice.has_value());
    EXPECT_EQ(payload(alice->contract).at("nextNonce"), "2");
    EXPECT_EQ(alice->synchronizer_id, store().network().synchronizer_id);

    const auto carol = splice::views(store()).transfer_command_counter_of(party_of("carol"));
    ASSERT_TRUE(carol.has_value());
    EXPECT_EQ(carol->synchronizer_id, "") << "in flight";

    EXPECT_FALSE(splice::views(store()).transfer_command_counter_of(party_of("bob")).has_value());
}

// What the registry's transfer factory and the preapproval lookups need: an open mining round
// usable at the ledger clock, and a receiver with a preapproval beside one without.
TEST_F(DefaultNetwork, HasAnOpenRoundUsableAtTheLedgerClock) {
    const auto round = splice::views(store()).latest_usable_open_round(store().now());
    ASSERT_TRUE(round.has_value());
    const json p = payload(round->contract);
    EXPECT_LT(time_of(p.at("opensAt")), store().now());
    EXPECT_GT(time_of(p.at("targetClosesAt")), store().now()) << "still open at the clock";
}

TEST_F(DefaultNetwork, BobHasATransferPreapprovalAndAliceNone) {
    const auto bob = splice::views(store()).transfer_preapproval_of(party_of("bob"));
    ASSERT_TRUE(bob.has_value());
    EXPECT_EQ(payload(bob->contract).at("provider"), store().network().validator_party);
    EXPECT_GT(time_of(payload(bob->contract).at("expiresAt")), store().now());

    EXPECT_FALSE(splice::views(store()).transfer_preapproval_of(party_of("alice")).has_value());
}

TEST_F(DefaultNetwork, ReassignedAContractToTheSecondSynchronizer) {
    std::string reassigned;
    for (store::Offset o = 1; o <= store().ledger_end(); ++o) {
        const auto* r = std::get_if<store::Reassignment>(store().update_at(o).get());
        if (r != nullptr && r->kind == store::Reassignment::Kind::assign &&
            r->target_synchronizer == private_synchronizer()) {
            reassigned = r->contract->contract_id;
        }
    }

    ASSERT_FALSE(reassigned.empty());
    const auto state = store().contract(reassigned);
    ASSERT_TRUE(state.has_value());
    EXPECT_FALSE(state->archived_offset().has_value());
    EXPECT_EQ(state->synchronizer_id, private_synchronizer());
}

TEST_F(DefaultNetwork, HasTwoMigrationsWithImportUpdates) {
    EXPECT_EQ(store().migration_id(), 1);
    EXPECT_FALSE(store().import_updates(1, "", 1000).empty());
}

TEST_F(DefaultNetwork, HasSnapshotsWhoseHoldingsChangeInBothMigrations) {
    for (const std::int64_t migration : {0, 1}) {
        std::vector<store::SnapshotPtr> snapshots;
        for (const auto& [m, t] : store().snapshot_times()) {
            if (m == migration) snapshots.push_back(store().snapshot(m, t, false));
        }
        ASSERT_GE(snapshots.size(), 2U) << "migration " << migration;
        std::set<std::set<std::string>> distinct;
        for (const auto& s : snapshots) {
            ASSERT_NE(s, nullptr);
            std::set<std::string> ids;
            const splice::HoldingsSnapshotPtr holdings = splice::views(store()).holdings(*s);
            for (std::size_t i = 0; i < holdings->size(); ++i) {
                ids.insert(holdings->row(i).contract->contract_id.str());
            }
            distinct.insert(ids);
        }
        EXPECT_EQ(distinct.size(), snapshots.size()) << "migration " << migration;
    }
}

TEST_F(DefaultNetwork, AnnouncesAnLsuAndItsTwinDoesNot) {
    ASSERT_TRUE(store().network().lsu.has_value());
    EXPECT_EQ(store().network().lsu->successor_physical_synchronizer_id,
              store().network().synchronizer_id + "::34-1");
    EXPECT_FALSE(no_lsu().network().lsu.has_value());
}

TEST_F(DefaultNetwork, TheNoLsuSeedDiffersOnlyInTheLsu) {
    json with = read_json("default-network.json");
    const json without = read_json("default-network-no-lsu.json");

    ASSERT_TRUE(with.at("network").contains("lsu"));
    EXPECT_FALSE(without.at("network").contains("lsu"));
    with.at("network").erase("lsu");
    EXPECT_EQ(with, without);
}

TEST_F(DefaultNetwork, TheNoLsuConfigDiffersOnlyInTheSeed) {
    json with = read_json("cantonlite.json");
    json without = read_json("cantonlite-no-lsu.json");

    EXPECT_EQ(with.at("seed"), "default-network.json");
    EXPECT_EQ(without.at("seed"), "default-network-no-lsu.json");
    with.erase("seed");
    without.erase("seed");
    EXPECT_EQ(with, without);
}

TEST_F(DefaultNetwork, LoadsDeterministically) {
    const auto again = load_seed_file(config_file("default-network.json"));

    for (const LedgerStore* other :
         std::initializer_list<const LedgerStore*>{again.get(), &no_lsu()}) {
        ASSERT_EQ(other->ledger_end(), store().ledger_end());
        EXPECT_EQ(other->now(), store().now());
        for (store::Offset o = 1; o <= store().ledger_end(); ++o) {
            EXPECT_EQ(store::update_id_of(*other->update_at(o)),
                      store::update_id_of(*store().update_at(o)))
                << "offset " << o;
        }
        EXPECT_EQ(other->snapshot_times(), store().snapshot_times());
        const auto ids = [](const LedgerStore& s) {
            std::vector<std::string> out;
            for (const auto& c : s.active_contracts()) out.push_back(c->contract_id.str());
            return out;
        };
        EXPECT_EQ(ids(*other), ids(store()));
    }
}

}  // namespace
}  // namespace cantonlite::seed::default_network_test
