// The same seed always gives the same offsets, update ids, contract ids and events
// (docs/seed-format.md); the id namespace salts every id; ids have Canton's shapes.
#include <regex>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cantonlite/model/value_json.hpp"
#include "cantonlite/splice/splice_views.hpp"
#include "seed/seed_test_network.hpp"

namespace cantonlite::seed::determinism_test {
namespace {

using namespace seedtest;  // NOLINT: the shared test network's parties and readers

json mint(const std::string& owner, const std::string& amount, const std::string& label) {
    return {{"step", "mint"}, {"owner", owner}, {"amount", amount}, {"as", label}};
}

json offer(const std::string& label) {
    return {{"step", "create_transfer_offer"},
            {"sender", "alice"},
            {"receiver", "bob"},
            {"amount", "15"},
            {"description", "lunch"},
            {"expires_at", "2025-02-01T00:00:00Z"},
            {"tracking_id", label},
            {"as", label}};
}

json buy_traffic(const std::string& label) {
    return {{"step", "create_buy_traffic_request"},
            {"user", "alice"},
            {"traffic_amount", 200000},
            {"tracking_id", label},
            {"expires_at", "2025-01-02T00:00:00Z"},
            {"as", label}};
}

// One step of every kind, some with command and workflow ids.
json every_step() {
    return {
        mint("alice", "1000", "a1"),
        {{"step", "mint"}, {"owner", "bob"}, {"amount", "500"}, {"as", "b1"}, {"command_id", "c"}},
        {{"step", "lock"},
         {"amulet", "a1"},
         {"amount", "250"},
         {"holders", {"provider"}},
         {"expires_at", "2025-03-01T00:00:00Z"},
         {"context", "order 17"},
         {"as", "l1"},
         {"change_as", "c1"}},
        {{"step", "unlock"}, {"locked_amulet", "l1"}, {"as", "u1"}},
        {{"step", "transfer"},
         {"sender", "alice"},
         {"inputs", {"c1"}},
         {"outputs",
          {{{"receiver", "bob"}, {"amount", "100"}, {"as", "b2"}},
           {{"receiver", "bob"},
            {"amount", "50"},
            {"lock", {{"holders", {"provider"}}, {"expires_at", "2025-04-01T00:00:00Z"}}}}}},
         {"change_as", "c2"},
         {"workflow_id", "wf"}},
        offer("o1"),
        {{"step", "accept_transfer_offer"}, {"offer", "o1"}},
        offer("o2"),
        {{"step", "withdraw_transfer_offer"}, {"offer", "o2"}, {"reason", "changed my mind"}},
        offer("o3"),
        {{"step", "expire_transfer_offer"}, {"offer", "o3"}},
        buy_traffic("t1"),
        {{"step", "complete_buy_traffic_request"}, {"request", "t1"}},
        buy_traffic("t2"),
        {{"step", "cancel_buy_traffic_request"}, {"request", "t2"}, {"reason", "out of funds"}},
        buy_traffic("t3"),
        {{"step", "expire_buy_traffic_request"}, {"request", "t3"}},
        {{"step", "register_ans_entry"},
         {"user", "alice"},
         {"name", "alice.unverified.ans"},
         {"expires_at", "2026-01-01T00:00:00Z"},
         {"as", "e1"}},
        {{"step", "renew_ans_entry"}, {"entry", "e1"}, {"expires_at", "2027-01-01T00:00:00Z"}},
        {{"step", "request_vote"},
         {"requester", "Digital-Asset-2"},
         {"action", {{"offboard_sv", "Sv-3"}}},
         {"vote_before", "2025-01-10T00:00:00Z"},
         {"as", "v1"}},
        {{"step", "cast_vote"}, {"vote_request", "v1"}, {"voter", "Sv-2"}, {"accept", true}},
        {{"step", "close_vote"}, {"vote_request", "v1"}},
        {{"step", "transfer_command"}, {"sender", "alice"}},
        {{"step", "transfer_command"}, {"sender", "alice"}},
        {{"step", "reassign"}, {"contract", "b1"}, {"to", private_synchronizer}},
        {{"step", "unassign"}, {"contract", "b2"}, {"to", private_synchronizer}},
        {{"step", "assign"}, {"contract", "b2"}},
        {{"step", "snapshot"}},
        {{"step", "migrate"}},
        {{"step", "advance_time"}, {"by_seconds", 3600}},
        {{"step", "transaction"},
         {"submitters", {"alice"}},
         {"nodes",
          {{{"exercise",
             {{"contract", "u1"},
              {"template", "splice-amulet:Splice.Amulet:Amulet"},
              {"choice", "Archive"},
              {"consuming", true},
              {"acting_parties", {"dso", "alice"}}}}},
           {{"create",
             {{"template", "splice-wallet:Splice.Wallet.Payment:AppPaymentRequest"},
              {"argument",
               {{"record",
                 {{"fields", {{{"label", "sender"}, {"value", {{"party", "alice"}}}}}}}}}},
              {"signatories", {"alice"}}}}}}}},
        {{"step", "snapshot"}},
    };
}

json seed_in(const std::string& id_namespace) {
    json network = network_json();
    network["id_namespace"] = id_namespace;
    return seed_with(every_step(), network);
}

json contract_json(const model::Contract& c) {
    return {{"contract_id", c.contract_id},
            {"template_id", c.template_id().to_string()},
            {"package_name", c.template_id().package_name},
            {"signatories", c.signatories},
            {"observers", model::NameSet(c.observers())},
            {"stakeholders", c.stakeholders},
            {"created_at", c.created_at.micros},
            {"created_event_blob", model::created_event_blob(c)},
            {"codegen_json", model::value_json(c.argument, model::ValueEncoding::codegen)},
            {"api_json", model::value_json(c.argument, model::ValueEncoding::api_compressed)},
            {"protobuf_json", model::value_json(c.argument, model::ValueEncoding::protobuf)},
            {"ledger_json", model::value_json(c.argument, model::ValueEncoding::ledger)}};
}

json exercised_json(const store::Transaction& tx, const store::Node& n) {
    const store::ExercisedNode& e = *store::exercised(n);
    return {{"contract_id", e.contract_id},
            {"template_id", e.template_id().to_string()},
            {"interface_id", e.has_interface ? e.interface.get().to_string() : ""},
            {"choice", e.choice},
            {"choice_argument", model::value_json(e.choice_argument, model::ValueEncoding::ledger)},
            {"consuming", e.consuming},
            {"acting_parties", e.acting_parties},
            {"exercise_result", model::value_json(e.exercise_result, model::ValueEncoding::ledger)},
            {"contract_stakeholders", e.stakeholders},
            {"children", store::children(tx, n.node_id)},
            {"last_descendant", e.last_descendant}};
}

json transaction_json(const store::Transaction& tx) {
    json nodes = json::array();
    for (const store::Node& n : tx.nodes) {
        const auto* c = std::get_if<store::CreatedNode>(&n.event);
        nodes.push_back({{"node_id", n.node_id},
                         {"witnesses", n.witnesses},
                         {"event", c ? contract_json(*c->contract) : exercised_json(tx, n)}});
    }
    return {{"offset", tx.offset},
            {"update_id", tx.update_id().str()},
            {"command_id", tx.command_id},
            {"workflow_id", tx.workflow_id},
            {"submitters", tx.submitters},
            {"effective_at", tx.effective_at.micros},
            {"record_time", tx.record_time.micros},
            {"synchronizer_id", tx.synchronizer_id},
            {"migration_id", tx.migration_id},
            {"roots", store::roots(tx)},
            {"nodes", nodes}};
}

json reassignment_json(const store::Reassignment& r) {
    return {{"offset", r.offset},
            {"update_id", r.update_id().str()},
            {"kind", r.kind == store::Reassignment::Kind::unassign ? "unassign" : "assign"},
            {"contract", contract_json(*r.contract)},
            {"submitter", r.submitter},
            {"source", r.source_synchronizer},
            {"target", r.target_synchronizer},
            {"unassign_id", r.unassign_id},
            {"reassignment_counter", r.reassignment_counter},
            {"migration_id", r.migration_id},
            {"record_time", r.record_time.micros}};
}

json migration_json(const store::Migration& m) {
    return {{"offset", m.offset},
            {"update_id", m.update_id().str()},
            {"migration_id", m.migration_id},
            {"record_time", m.record_time.micros},
            {"imported_contracts", m.imported_contracts}};
}

// Everything the store keeps of one update.
json update_json(const store::Update& u) {
    if (const auto* tx = std::get_if<store::Transaction>(&u)) return transaction_json(*tx);
    if (const auto* r = std::get_if<store::Reassignment>(&u)) return reassignment_json(*r);
    return migration_json(std::get<store::Migration>(u));
}

std::vector<std::string> update_ids(const store::LedgerStore& s) {
    std::vector<std::string> ids;
    for (store::Offset o = 1; o <= s.ledger_end(); ++o)
        ids.push_back(update_id_of(*s.update_at(o)).str());
    return ids;
}

// Every contract id the history creates, in creation order.
std::vector<std::string> created_contract_ids(const store::LedgerStore& s) {
    std::vector<std::string> ids;
    for (store::Offset o = 1; o <= s.ledger_end(); ++o) {
        const auto* tx = std::get_if<store::Transaction>(s.update_at(o).get());
        if (tx == nullptr) continue;
        for (const store::Node& n : tx->nodes) {
            if (const auto* c = std::get_if<store::CreatedNode>(&n.event)) {
                ids.push_back(c->contract->contract_id.str());
            }
        }
    }
    return ids;
}

json snapshots_json(const store::LedgerStore& s) {
    json out = json::array();
    for (const auto& [migration, time] : s.snapshot_times()) {
        const splice::HoldingsSnapshotPtr snap =
            splice::views(s).holdings(*s.snapshot(migration, time, false));
        json rows = json::array();
        for (std::size_t i = 0; i < snap->size(); ++i) {
            const splice::HoldingRow& r = snap->row(i);
            rows.push_back({snap->row_id(i), r.contract->contract_id, r.owner,
                            r.amount().to_scaled_string(), r.locked});
        }
        out.push_back({{"migration_id", migration}, {"time", time.micros}, {"rows", rows}});
    }
    return out;
}

json imports_json(const store::LedgerStore& s) {
    json out = json::array();
    for (const store::ImportUpdate& i : s.import_updates(1, "", 1000)) {
        out.push_back({i.contract->contract_id, i.migration_id, i.synchronizer_id});
    }
    return out;
}

class DeterminismTest : public testing::Test {
  protected:
    DeterminismTest()
        : first_(load(seed_with(every_step()))), second_(load(seed_with(every_step()))) {}

    std::unique_ptr<store::LedgerStore> first_;
    std::unique_ptr<store::LedgerStore> second_;
};

TEST_F(DeterminismTest, TheSeedUsesEveryKindOfUpdate) {
    std::set<std::size_t> kinds;
    for (store::Offset o = 1; o <= first_->ledger_end(); ++o) {
        kinds.insert(first_->update_at(o)->index());
    }

    EXPECT_EQ(kinds, (std::set<std::size_t>{0, 1, 2}));
    EXPECT_EQ(first_->snapshot_times().size(), 2U);
}

TEST_F(DeterminismTest, TwoLoadsReachTheSameLedgerEnd) {
    EXPECT_EQ(first_->ledger_end(), second_->ledger_end());
}

TEST_F(DeterminismTest, TwoLoadsGiveIdenticalUpdatesAtEveryOffset) {
    ASSERT_EQ(first_->ledger_end(), second_->ledger_end());

    for (store::Offset o = 1; o <= first_->ledger_end(); ++o) {
        SCOPED_TRACE("offset " + std::to_string(o));
        EXPECT_EQ(update_json(*first_->update_at(o)), update_json(*second_->update_at(o)));
    }
}

TEST_F(DeterminismTest, TwoLoadsGiveIdenticalSnapshots) {
    EXPECT_EQ(snapshots_json(*first_), snapshots_json(*second_));
}

TEST_F(DeterminismTest, TwoLoadsGiveIdenticalImportUpdates) {
    EXPECT_FALSE(imports_json(*first_).empty());
    EXPECT_EQ(imports_json(*first_), imports_json(*second_));
}

TEST_F(DeterminismTest, TwoLoadsGiveTheSameActiveContractsInTheSameOrder) {
    std::vector<std::string> first, second;
    for (const auto& c : first_->active_contracts()) first.push_back(c->contract_id.str());
    for (const auto& c : second_->active_contracts()) second.push_back(c->contract_id.str());

    EXPECT_EQ(first, second);
}

TEST_F(DeterminismTest, TheDefaultNamespaceIsCantonlite) {
    const auto named = load(seed_in("cantonlite"));

    EXPECT_EQ(update_ids(*named), update_ids(*first_));
    EXPECT_EQ(created_contract_ids(*named), created_contract_ids(*first_));
}

TEST_F(DeterminismTest, AnotherNamespaceSharesNoUpdateId) {
    const auto other = load(seed_in("other-network"));

    ASSERT_EQ(other->ledger_end(), first_->ledger_end());
    const std::vector<std::string> mine = update_ids(*first_);
    const std::vector<std::string> their_ids = update_ids(*other);
    const std::set<std::string> theirs(their_ids.begin(), their_ids.end());
    for (const std::string& id : mine) EXPECT_FALSE(theirs.contains(id)) << id;
}

TEST_F(DeterminismTest, AnotherNamespaceSharesNoContractId) {
    const auto other = load(seed_in("other-network"));

    const std::vector<std::string> mine = created_contract_ids(*first_);
    const std::vector<std::string> their_ids = created_contract_ids(*other);
    ASSERT_EQ(their_ids.size(), mine.size());
    const std::set<std::string> theirs(their_ids.begin(), their_ids.end());
    for (const std::string& id : mine) EXPECT_FALSE(theirs.contains(id)) << id;
}

TEST_F(DeterminismTest, UpdateIdsAreMultihashesOfSha256) {
    const std::regex shape("1220[0-9a-f]{64}");

    for (const std::string& id : update_ids(*first_)) {
        EXPECT_TRUE(std::regex_match(id, shape)) << id;
    }
}

TEST_F(DeterminismTest, ContractIdsAreV1ContractIds) {
    const std::regex shape("00[0-9a-f]{64}ca101220[0-9a-f]{64}");

    for (const std::string& id : created_contract_ids(*first_)) {
        EXPECT_TRUE(std::regex_match(id, shape)) << id;
    }
}

TEST_F(DeterminismTest, EveryUpdateIdAndContractIdIsUnique) {
    const std::vector<std::string> updates = update_ids(*first_);
    const std::vector<std::string> contracts = created_contract_ids(*first_);

    EXPECT_EQ(std::set<std::string>(updates.begin(), updates.end()).size(), updates.size());
    EXPECT_EQ(std::set<std::string>(contracts.begin(), contracts.end()).size(), contracts.size());
}

}  // namespace
}  // namespace cantonlite::seed::determinism_test
