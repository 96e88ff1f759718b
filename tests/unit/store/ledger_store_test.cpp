#include "cantonlite/store/ledger_store.hpp"
#include "cantonlite/model/value_json.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <deque>
#include <memory>
#include <mutex>
#include <set>
#include <thread>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace cantonlite::store::ledger_store_test {
namespace {

using model::Decimal;
using model::Timestamp;
using model::Value;

const Party dso = "DSO::1220aa";
const Party alice = "alice::1220a1";
const Party bob = "bob::1220b1";
constexpr std::int64_t second = 1'000'000;

model::Network network() {
    return model::Network{.dso_party = dso,
                          .synchronizer_id = "global::1220dd",
                          .other_synchronizers = {"private::1220ee"},
                          .package_ids = model::default_package_ids()};
}

Value amulet_value(const Party& owner, const char* amount) {
    return Value::record(
        {{"dso", Value::party(dso)},
         {"owner", Value::party(owner)},
         {"amount", Value::record({{"initialAmount", Value::numeric(*Decimal::parse(amount))},
                                   {"createdAt", Value::record({{"number", Value::int64(0)}})},
                                   {"ratePerRound",
                                    Value::record({{"rate", Value::numeric(Decimal())}})}})}});
}

class LedgerStoreTest : public ::testing::Test {
  protected:
    LedgerStore store_{network(), Timestamp{1'000 * second}};

    TransactionDraft draft(std::int64_t at_seconds = 0) {
        const Offset offset = store_.next_offset();
        const Timestamp t{store_.now().micros + (at_seconds == 0 ? second : at_seconds * second)};
        return TransactionDraft{.offset = offset,
                                .update_id = store_.id_for(offset),
                                .submitters = {dso},
                                .effective_at = t,
                                .record_time = t,
                                .synchronizer_id = "global::1220dd"};
    }

    model::TemplateId amulet() const {
        return store_.network().template_id("splice-amulet", "Splice.Amulet", "Amulet");
    }

    CreateDraft amulet_create(const Party& owner, const char* amount) const {
        return CreateDraft{.template_id = amulet(),
                           .argument = amulet_value(owner, amount),
                           .signatories = {dso, owner}};
    }

    ExerciseDraft archive(const std::string& cid, const Party& actor) const {
        return ExerciseDraft{.contract_id = cid,
                             .template_id = amulet(),
                             .choice = "Archive",
                             .argument = Value::record({}),
                             .consuming = true,
                             .acting_parties = {actor},
                             .result = Value::unit()};
    }

    // Commits one root create of an amulet; returns its contract id.
    std::string mint(const Party& owner, const char* amount) {
        auto d = draft();
        const int node = d.add(-1, amulet_create(owner, amount));
        store_.append_transaction(d);
        return d.contract_id_of(node);
    }
};

TEST_F(LedgerStoreTest, OffsetsAreDenseFromOne) {
    mint(alice, "1");
    mint(alice, "2");

    EXPECT_EQ(store_.ledger_end(), 2);
    EXPECT_EQ(offset_of(*store_.update_at(1)), 1);
    EXPECT_EQ(offset_of(*store_.update_at(2)), 2);
    EXPECT_EQ(store_.update_at(0), nullptr);
    EXPECT_EQ(store_.update_at(3), nullptr);
}

TEST_F(LedgerStoreTest, RejectsADraftForAnotherOffset) {
    auto d = draft();
    d.add(-1, amulet_create(alice, "1"));
    mint(bob, "1");

    EXPECT_THROW(store_.append_transaction(d), AppendError);
}

TEST_F(LedgerStoreTest, CreatedContractIsActiveWithItsEncodings) {
    const std::string cid = mint(alice, "100");

    const auto state = store_.contract(cid);

    ASSERT_TRUE(state.has_value());
    EXPECT_EQ(state->created_offset(), 1);
    EXPECT_FALSE(state->archived_offset().has_value());
    EXPECT_EQ(state->synchronizer_id, "global::1220dd");
    EXPECT_EQ(model::texts(state->contract->signatories), (std::vector<Party>{dso, alice}));
    EXPECT_EQ(
        nlohmann::json::parse(model::value_json(
            state->contract->argument, model::ValueEncoding::codegen))["amount"]["initialAmount"],
        "100.0000000000");
    EXPECT_EQ(nlohmann::json::parse(model::value_json(
                  state->contract->argument,
                  model::ValueEncoding::api_compressed))["amount"]["initialAmount"],
              "100.0");
    EXPECT_EQ(store_.active_contracts().size(), 1U);
}

TEST_F(LedgerStoreTest, ConsumingExerciseArchivesTheContract) {
    const std::string cid = mint(alice, "1");
    auto d = draft();
    d.add(-1, archive(cid, alice));

    store_.append_transaction(d);

    EXPECT_EQ(store_.contract(cid)->archived_offset(), 2);
    EXPECT_TRUE(store_.active_contracts().empty());
}

TEST_F(LedgerStoreTest, RejectsExerciseOfAnUnknownContract) {
    auto d = draft();
    d.add(-1, archive("00nope", alice));

    try {
        store_.append_transaction(d);
        FAIL();
    } catch (const AppendError& e) {
        EXPECT_STREQ(e.what(), "unknown contract 00nope");
    }
}

TEST_F(LedgerStoreTest, RejectsExerciseOfAnArchivedContract) {
    const std::string cid = mint(alice, "1");
    auto first = draft();
    first.add(-1, archive(cid, alice));
    store_.append_transaction(first);
    auto second_draft = draft();
    second_draft.add(-1, archive(cid, alice));

    try {
        store_.append_transaction(second_draft);
        FAIL();
    } catch (const AppendError& e) {
        EXPECT_EQ(std::string(e.what()), "contract " + cid + " is archived");
    }
}

TEST_F(LedgerStoreTest, RejectsConsumingAContractTwiceInOneTransaction) {
    const std::string cid = mint(alice, "1");
    auto d = draft();
    d.add(-1, archive(cid, alice));
    d.add(-1, archive(cid, alice));

    try {
        store_.append_transaction(d);
        FAIL();
    } catch (const AppendError& e) {
        EXPECT_EQ(std::string(e.what()),
                  "contract " + cid + " was consumed earlier in this transaction");
    }
}

TEST_F(LedgerStoreTest, AFailedAppendLeavesTheStoreUnchanged) {
    const std::string cid = mint(alice, "1");
    auto d = draft();
    const int created = d.add(-1, amulet_create(bob, "5"));
    d.add(-1, archive(cid, alice));
    d.add(-1, archive(cid, alice));

    EXPECT_THROW(store_.append_transaction(d), AppendError);

    EXPECT_EQ(store_.ledger_end(), 1);
    EXPECT_FALSE(store_.contract(cid)->archived_offset().has_value());
    EXPECT_FALSE(store_.contract(d.contract_id_of(created)).has_value());
    EXPECT_EQ(store_.active_contracts().size(), 1U);
}

TEST_F(LedgerStoreTest, ContractCreatedInATransactionCanBeConsumedLaterInIt) {
    auto d = draft();
    const int created = d.add(-1, amulet_create(alice, "1"));
    d.add(-1, archive(d.contract_id_of(created), alice));

    store_.append_transaction(d);

    EXPECT_EQ(store_.contract(d.contract_id_of(created))->archived_offset(), 1);
}

TEST_F(LedgerStoreTest, RejectsNodesThatAreNotInPreOrder) {
    const std::string cid = mint(alice, "1");
    auto d = draft();
    const int root = d.add(-1, ExerciseDraft{.contract_id = cid,
                                             .template_id = amulet(),
                                             .choice = "Noop",
                                             .argument = Value::unit(),
                                             .acting_parties = {alice}});
    d.add(-1, amulet_create(bob, "1"));
    d.add(root, amulet_create(bob, "2"));  // a child of the first root after the second root

    EXPECT_THROW(store_.append_transaction(d), AppendError);
}

TEST_F(LedgerStoreTest, RejectsTimeGoingBackwards) {
    mint(alice, "1");
    auto d = draft();
    d.record_time = Timestamp{0};
    d.add(-1, amulet_create(alice, "1"));

    EXPECT_THROW(store_.append_transaction(d), AppendError);
}

TEST_F(LedgerStoreTest, WitnessesIncludeTheInformeesOfAncestors) {
    const std::string cid = mint(alice, "1");
    auto d = draft();
    const int root = d.add(-1, ExerciseDraft{.contract_id = cid,
                                             .template_id = amulet(),
                                             .choice = "Give",
                                             .argument = Value::unit(),
                                             .consuming = true,
                                             .acting_parties = {alice}});
    d.add(root,
          CreateDraft{
              .template_id = amulet(), .argument = amulet_value(bob, "1"), .signatories = {bob}});

    store_.append_transaction(d);

    const auto& tx = std::get<Transaction>(*store_.update_at(2));
    ASSERT_EQ(tx.nodes.size(), 2U);
    EXPECT_EQ(model::texts(tx.nodes[0].witnesses),
              (std::vector<Party>{dso, alice}));  // stakeholders + actor
    EXPECT_EQ(model::texts(tx.nodes[1].witnesses), (std::vector<Party>{dso, alice, bob}));
    const ExercisedNode& exercise = *exercised(tx.nodes[0]);
    EXPECT_EQ(children(tx, 0), std::vector<int>{1});
    EXPECT_EQ(exercise.last_descendant, 1);
    EXPECT_EQ(roots(tx), std::vector<int>{0});
}

TEST_F(LedgerStoreTest, RootsAndChildrenAreReadFromThePreOrder) {
    const std::string a = mint(alice, "1");
    const std::string b = mint(bob, "2");
    auto d = draft();
    ExerciseDraft look = archive(a, alice);
    look.choice = "Look";
    look.consuming = false;
    const int outer = d.add(-1, look);                // 0
    const int inner = d.add(outer, archive(b, bob));  // 1
    d.add(inner, amulet_create(bob, "3"));            // 2
    d.add(outer, amulet_create(alice, "4"));          // 3
    d.add(-1, amulet_create(alice, "5"));             // 4
    store_.append_transaction(d);

    const auto& tx = std::get<Transaction>(*store_.update_at(3));
    EXPECT_EQ(roots(tx), (std::vector<int>{0, 4}));
    EXPECT_EQ(children(tx, 0), (std::vector<int>{1, 3}));
    EXPECT_EQ(children(tx, 1), std::vector<int>{2});
    EXPECT_TRUE(children(tx, 2).empty());
    EXPECT_EQ(last_descendant(tx, 0), 3);
    EXPECT_EQ(last_descendant(tx, 4), 4);
}

TEST_F(LedgerStoreTest, NonConsumingExerciseInformsSignatoriesAndActorsOnly) {
    auto d0 = draft();
    d0.add(-1, CreateDraft{.template_id = amulet(),
                           .argument = amulet_value(alice, "1"),
                           .signatories = {dso},
                           .observers = {alice}});
    store_.append_transaction(d0);
    const std::string cid = d0.contract_id_of(0);
    auto d = draft();
    d.add(-1, ExerciseDraft{.contract_id = cid,
                            .template_id = amulet(),
                            .choice = "Look",
                            .argument = Value::unit(),
                            .acting_parties = {bob}});

    store_.append_transaction(d);

    const auto& tx = std::get<Transaction>(*store_.update_at(2));
    EXPECT_EQ(model::texts(tx.nodes[0].witnesses), (std::vector<Party>{dso, bob}));
}

TEST_F(LedgerStoreTest, ImportUpdatesAreTheActiveContractsByContractId) {
    std::vector<std::string> cids{mint(alice, "1"), mint(alice, "2"), mint(bob, "3"),
                                  mint(bob, "4")};
    std::sort(cids.begin(), cids.end());

    store_.migrate(Timestamp{store_.now().micros + second});

    EXPECT_EQ(store_.migration_id(), 1);
    const auto all = store_.import_updates(1, "", 10);
    ASSERT_EQ(all.size(), 4U);
    for (std::size_t i = 0; i < 4; ++i) EXPECT_EQ(all[i].contract->contract_id, cids[i]);
    const auto after_second = store_.import_updates(1, cids[1], 10);
    ASSERT_EQ(after_second.size(), 2U);
    EXPECT_EQ(after_second[0].contract->contract_id, cids[2]);
    EXPECT_TRUE(store_.import_updates(1, cids[3], 10).empty());
    const auto limited = store_.import_updates(1, cids[0], 2);
    ASSERT_EQ(limited.size(), 2U);
    EXPECT_EQ(limited[1].contract->contract_id, cids[2]);
    EXPECT_TRUE(store_.import_updates(0, "", 10).empty());
    EXPECT_TRUE(std::holds_alternative<Migration>(*store_.update_at(5)));
}

TEST_F(LedgerStoreTest, SnapshotHoldsTheDsoContractsInCreationOrderWithRowIds) {
    const std::string a = mint(alice, "1");
    const std::string b = mint(bob, "2");
    const Timestamp t1{store_.now().micros};
    store_.take_snapshot(t1);
    mint(alice, "3");
    const Timestamp t2{store_.now().micros + second};
    store_.take_snapshot(t2);

    const auto first = store_.snapshot(0, t1, false);
    const auto second_snapshot = store_.snapshot(0, t2, false);

    ASSERT_TRUE(first && second_snapshot);
    ASSERT_EQ(first->acs.rows.size(), 2U);
    EXPECT_EQ(first->acs.rows[0]->contract_id, a);
    EXPECT_EQ(first->acs.rows[1]->contract_id, b);
    EXPECT_EQ(first->first_acs_row_id(), 1);
    EXPECT_EQ(first->last_acs_row_id(), 2);
    EXPECT_EQ(second_snapshot->first_acs_row_id(), 3);
    EXPECT_EQ(second_snapshot->acs.rows.size(), 3U);
    EXPECT_EQ(first->acs.rows_by_stakeholder.at(alice), std::vector<std::uint32_t>{0});
    EXPECT_EQ(first->acs.rows_by_stakeholder.at(dso), (std::vector<std::uint32_t>{0, 1}));
    EXPECT_EQ(first->acs.rows_by_template.at("splice-amulet:Splice.Amulet:Amulet"),
              (std::vector<std::uint32_t>{0, 1}));
}

TEST_F(LedgerStoreTest, SnapshotLookupIsExactOrAtOrBeforeInclusive) {
    mint(alice, "1");
    const Timestamp t{store_.now().micros};
    store_.take_snapshot(t);

    EXPECT_NE(store_.snapshot(0, t, false), nullptr);
    EXPECT_EQ(store_.snapshot(0, Timestamp{t.micros + 1}, false), nullptr);
    EXPECT_EQ(store_.snapshot(0, Timestamp{t.micros + 1}, true), store_.snapshot(0, t, false));
    EXPECT_EQ(store_.snapshot(0, t, true), store_.snapshot(0, t, false));
    EXPECT_EQ(store_.snapshot(0, Timestamp{t.micros - 1}, true), nullptr);
    EXPECT_EQ(store_.snapshot(1, t, true), nullptr);
}

TEST_F(LedgerStoreTest, ReassignmentMovesTheContractAndCountsUp) {
    const std::string cid = mint(alice, "1");
    const Timestamp t{store_.now().micros + second};

    store_.unassign(cid, "private::1220ee", alice, t);

    EXPECT_EQ(store_.contract(cid)->synchronizer_id, "");
    auto d = draft();
    d.add(-1, archive(cid, alice));
    EXPECT_THROW(store_.append_transaction(d), AppendError);

    store_.assign(cid, alice, Timestamp{t.micros + second});

    EXPECT_EQ(store_.contract(cid)->synchronizer_id, "private::1220ee");
    EXPECT_EQ(store_.reassignment_counter(cid), 1);
    const auto& unassign = std::get<Reassignment>(*store_.update_at(2));
    const auto& assign = std::get<Reassignment>(*store_.update_at(3));
    EXPECT_EQ(unassign.kind, Reassignment::Kind::unassign);
    EXPECT_EQ(assign.kind, Reassignment::Kind::assign);
    EXPECT_EQ(unassign.unassign_id, assign.unassign_id);
    EXPECT_EQ(assign.reassignment_counter, 1);
    EXPECT_EQ(assign.source_synchronizer, "global::1220dd");
}

TEST_F(LedgerStoreTest, AContractListsTheOffsetsOfItsReassignments) {
    const std::string cid = mint(alice, "1");
    const Timestamp t{store_.now().micros + second};

    store_.unassign(cid, "private::1220ee", alice, t);
    store_.assign(cid, alice, Timestamp{t.micros + second});

    EXPECT_EQ(store_.reassignments_of(cid), (std::vector<Offset>{2, 3}));
}

TEST_F(LedgerStoreTest, FindsTheOffsetOfAnUpdateId) {
    mint(alice, "1");
    mint(alice, "2");

    EXPECT_EQ(store_.offset_of_update(store_.update_id_for(2)), 2);
    EXPECT_EQ(store_.offset_of_update("1220ff"), std::nullopt);
}

// Ids derived from the network's namespace are like no other: a store indexes them at the first
// lookup by id (or the first kept id), not at each append. Rollbacks before that lookup, across
// it and after it leave an index that finds what was appended and nothing else.
TEST_F(LedgerStoreTest, IndexesItsUpdateIdsAtTheFirstLookupWithRollbacksAroundIt) {
    for (int i = 0; i < 3; ++i) mint(alice, "1");
    EXPECT_FALSE(store_.update_ids_indexed());
    store_.undo().set_recording(true);

    const UndoLog::Mark before = store_.undo().mark();
    mint(alice, "2");
    mint(alice, "3");
    store_.rollback(before);
    EXPECT_FALSE(store_.update_ids_indexed());

    const UndoLog::Mark across = store_.undo().mark();
    mint(bob, "4");  // offset 4 again
    EXPECT_EQ(store_.offset_of_update(store_.update_id_for(2)), 2);
    EXPECT_TRUE(store_.update_ids_indexed());
    EXPECT_EQ(store_.offset_of_update(store_.update_id_for(4)), 4);
    EXPECT_EQ(store_.offset_of_update(store_.update_id_for(5)), std::nullopt);
    store_.rollback(across);
    EXPECT_EQ(store_.offset_of_update(store_.update_id_for(4)), std::nullopt);

    const UndoLog::Mark after = store_.undo().mark();
    mint(bob, "5");
    EXPECT_EQ(store_.offset_of_update(store_.update_id_for(4)), 4);
    store_.rollback(after);
    EXPECT_EQ(store_.offset_of_update(store_.update_id_for(4)), std::nullopt);
    for (Offset o = 1; o <= 3; ++o) EXPECT_EQ(store_.offset_of_update(store_.update_id_for(o)), o);
}

// A kept id that is an earlier update's derived id is refused, though no lookup indexed them yet.
TEST_F(LedgerStoreTest, AKeptUpdateIdIsNotAnUnindexedDerivedOne) {
    mint(alice, "1");
    mint(alice, "2");
    auto d = draft();
    d.update_id = store_.id_for(2);
    d.keeps_update_id = true;
    d.add(-1, amulet_create(alice, "3"));

    EXPECT_THROW(store_.append_transaction(d), AppendError);
    EXPECT_EQ(store_.ledger_end(), 2);
}

TEST_F(LedgerStoreTest, VisitsTheCreatedContractsInCreationOrderFromASequence) {
    const std::string a = mint(alice, "1");
    const std::string b = mint(bob, "2");
    const std::string c = mint(alice, "3");
    auto d = draft();
    d.add(-1, archive(b, bob));
    store_.append_transaction(d);

    std::vector<std::pair<std::uint64_t, std::string>> seen;
    store_.visit_created(1, [&](std::uint64_t sequence, const ContractState& state) {
        seen.emplace_back(sequence, state.contract->contract_id);
        EXPECT_EQ(state.archived_offset().has_value(), state.contract->contract_id == b);
        return seen.size() < 5;
    });

    EXPECT_EQ(seen, (std::vector<std::pair<std::uint64_t, std::string>>{{1, b}, {2, c}}));
    (void)a;
}

TEST_F(LedgerStoreTest, ARollbackForgetsTheNewUpdateIdsCreationsAndReassignments) {
    const std::string kept = mint(alice, "1");
    store_.undo().set_recording(true);
    const UndoLog::Mark mark = store_.undo().mark();
    mint(alice, "2");
    store_.unassign(kept, "private::1220ee", alice, Timestamp{store_.now().micros + second});

    store_.rollback(mark);

    EXPECT_EQ(store_.offset_of_update(store_.update_id_for(2)), std::nullopt);
    EXPECT_TRUE(store_.reassignments_of(kept).empty());
    int created = 0;
    store_.visit_created(0, [&](std::uint64_t, const ContractState&) { return ++created > 0; });
    EXPECT_EQ(created, 1);
}

TEST_F(LedgerStoreTest, ReassignmentToAnUnknownSynchronizerIsRejected) {
    const std::string cid = mint(alice, "1");

    EXPECT_THROW(store_.unassign(cid, "nowhere::1220", alice, store_.now()), AppendError);
}

// ---- a forked network (cantonlite fork): kept update ids and the fork's base ----

const std::string foreign_id_1 = "1220" + std::string(64, 'a');
const std::string foreign_id_2 = "1220" + std::string(64, 'b');

TEST_F(LedgerStoreTest, AnUpdateKeepsTheIdItCameWith) {
    auto d = draft();
    d.update_id = *model::UpdateId::parse(foreign_id_1);
    d.keeps_update_id = true;
    d.add(-1, amulet_create(alice, "1"));
    store_.append_transaction(d);

    EXPECT_EQ(update_id_of(*store_.update_at(1)).str(), foreign_id_1);
    EXPECT_EQ(store_.offset_of_update(foreign_id_1), 1);
    ASSERT_NE(store_.update_by_id(foreign_id_1), nullptr);
    // The next update's id is derived again, as on any network.
    const std::string next = mint(bob, "2");
    EXPECT_EQ(update_id_of(*store_.update_at(2)), store_.id_for(2));
    EXPECT_FALSE(next.empty());
}

TEST_F(LedgerStoreTest, AKeptUpdateIdIsNotTakenTwice) {
    auto d = draft();
    d.update_id = *model::UpdateId::parse(foreign_id_1);
    d.keeps_update_id = true;
    d.add(-1, amulet_create(alice, "1"));
    store_.append_transaction(d);
    auto again = draft();
    again.update_id = d.update_id;
    again.keeps_update_id = true;
    again.add(-1, amulet_create(alice, "2"));

    EXPECT_THROW(store_.append_transaction(again), AppendError);
    EXPECT_EQ(store_.ledger_end(), 1);
}

TEST_F(LedgerStoreTest, AReassignmentKeepsItsIdsAndItsUnassignId) {
    const std::string cid = mint(alice, "1");
    const LedgerStore::KeptIds unassigned{.update_id = *model::UpdateId::parse(foreign_id_1),
                                          .unassign_id = "the-source-unassign-id"};
    store_.unassign(cid, "private::1220ee", alice, store_.now(), unassigned);
    store_.assign(cid, alice, store_.now(),
                  LedgerStore::KeptIds{.update_id = *model::UpdateId::parse(foreign_id_2)});

    const auto& out = std::get<Reassignment>(*store_.update_at(2));
    const auto& in = std::get<Reassignment>(*store_.update_at(3));
    EXPECT_EQ(out.update_id().str(), foreign_id_1);
    EXPECT_EQ(out.unassign_id, "the-source-unassign-id");
    EXPECT_EQ(in.update_id().str(), foreign_id_2);
    EXPECT_EQ(in.unassign_id, "the-source-unassign-id");
    EXPECT_EQ(store_.offset_of_update(foreign_id_2), 3);
}

TransactionDraft fork_base_draft(const std::vector<std::pair<std::string, CreateDraft>>& creates,
                                 Timestamp created_at) {
    TransactionDraft d{
        .effective_at = created_at, .record_time = created_at, .synchronizer_id = "global::1220dd"};
    for (const auto& [cid, create] : creates) {
        d.add(-1, create);
        d.contract_id_cache.push_back(cid);
    }
    return d;
}

TEST_F(LedgerStoreTest, AForkBaseHoldsContractsOfNoOffsetThatLaterUpdatesConsume) {
    const std::string a = "00" + std::string(64, '1') + "ca101220" + std::string(64, '2');
    const std::string b = "00" + std::string(64, '3') + "ca101220" + std::string(64, '4');
    const Timestamp then{500 * second};  // before the store's genesis: created on the source
    store_.add_fork_base(
        fork_base_draft({{a, amulet_create(alice, "10")}, {b, amulet_create(bob, "20")}}, then), 4);

    EXPECT_EQ(store_.ledger_end(), 0);
    EXPECT_EQ(store_.migration_id(), 4);
    ASSERT_EQ(store_.fork_base().size(), 2U);
    const auto state = store_.contract(a);
    ASSERT_TRUE(state.has_value());
    EXPECT_EQ(state->created_offset(), 0);
    EXPECT_EQ(state->contract->created_at, then);
    EXPECT_EQ(state->synchronizer_id, "global::1220dd");
    EXPECT_EQ(store_.active_contracts().size(), 2U);

    auto d = draft();
    d.add(-1, archive(a, alice));
    store_.append_transaction(d);
    EXPECT_EQ(store_.contract(a)->archived_offset(), 1);
    EXPECT_EQ(store_.active_contracts().size(), 1U);
    EXPECT_EQ(std::get<Transaction>(*store_.update_at(1)).migration_id, 4);
}

TEST_F(LedgerStoreTest, AForkBaseComesFirstAndHoldsRootCreatesOfNewContracts) {
    const std::string a = "00" + std::string(64, '1') + "ca101220" + std::string(64, '2');
    EXPECT_THROW(store_.add_fork_base(fork_base_draft({{a, amulet_create(alice, "1")},
                                                       {a, amulet_create(alice, "2")}},
                                                      Timestamp{500 * second}),
                                      0),
                 AppendError);
    EXPECT_TRUE(store_.fork_base().empty());
    mint(alice, "1");
    EXPECT_THROW(store_.add_fork_base(
                     fork_base_draft({{a, amulet_create(alice, "1")}}, Timestamp{500 * second}), 0),
                 AppendError);
    EXPECT_EQ(store_.active_contracts().size(), 1U);
}

TEST_F(LedgerStoreTest, AForkedUpdateMayExerciseAContractItsSourceNeverShowed) {
    const std::string unseen = "00" + std::string(64, '9') + "ca101220" + std::string(64, '8');
    auto d = draft();
    auto exercise = archive(unseen, alice);
    exercise.contract_unknown = true;
    const int root = d.add(-1, exercise);
    d.add(root, amulet_create(bob, "5"));
    store_.append_transaction(d);

    const auto& tx = std::get<Transaction>(*store_.update_at(1));
    const ExercisedNode* e = exercised(tx.nodes[0]);
    ASSERT_NE(e, nullptr);
    EXPECT_EQ(e->contract_id, unseen);
    EXPECT_TRUE(e->stakeholders.empty());
    EXPECT_FALSE(store_.contract(unseen).has_value());  // nothing is made up, nothing archived
    EXPECT_EQ(store_.active_contracts().size(), 1U);
    EXPECT_TRUE(tx.nodes[1].witnesses.contains(Name(alice)));  // the acting party sees below

    // A contract the ledger holds is never taken for an unknown one.
    const std::string known = mint(alice, "1");
    auto again = draft();
    auto on_known = archive(known, alice);
    on_known.contract_unknown = true;
    again.add(-1, on_known);
    EXPECT_THROW(store_.append_transaction(again), AppendError);
}

// What restore() is given for `s`: its contents, read back through its public API (as a state
// file's writer reads them).
LedgerStore::Image image_of(const LedgerStore& s) {
    LedgerStore::Image image;
    s.visit_created(0, [&image](std::uint64_t, const ContractState& state) {
        image.contracts.push_back(state);
        return true;
    });
    for (Offset o = 1; o <= s.ledger_end(); ++o) {
        image.history.push_back(s.update_at(o));
        if (const auto* m = std::get_if<Migration>(s.update_at(o).get())) {
            for (const ImportUpdate& i : s.import_updates(m->migration_id, "", 1000)) {
                const auto it =
                    std::find_if(image.contracts.begin(), image.contracts.end(),
                                 [&i](const ContractState& c) { return c.contract == i.contract; });
                image.imports[m->migration_id].emplace_back(
                    static_cast<std::uint32_t>(it - image.contracts.begin()),
                    Name(i.synchronizer_id));
            }
        }
    }
    for (const auto& [migration, t] : s.snapshot_times())
        image.snapshots.push_back(s.snapshot(migration, t, false));
    image.now = s.now();
    image.migration_id = s.migration_id();
    image.fork_base_size = s.fork_base().size();
    image.fork_base_migration_id = s.fork_base_migration_id();
    image.fork_base_created_in = s.fork_base_runs();
    return image;
}

TEST_F(LedgerStoreTest, ARestoredStoreAnswersAsTheOneItWasTakenFrom) {
    const std::string kept = mint(alice, "1");
    const std::string gone = mint(alice, "2");
    const std::string moving = mint(bob, "3");
    const std::string moved = mint(bob, "4");
    auto d = draft();
    d.add(-1, archive(gone, alice));
    d.external_transaction_hash = std::string(64, 'a');
    store_.append_transaction(d);
    Timestamp t{store_.now().micros + second};
    store_.unassign(moved, "private::1220ee", bob, t);
    store_.assign(moved, bob, Timestamp{t.micros + second});
    store_.take_snapshot(Timestamp{t.micros + 2 * second});
    store_.migrate(Timestamp{t.micros + 3 * second});
    store_.unassign(moving, "private::1220ee", bob, Timestamp{t.micros + 4 * second});

    LedgerStore restored(network(), Timestamp{1'000 * second});
    restored.restore(image_of(store_)).finish();

    EXPECT_EQ(restored.ledger_end(), store_.ledger_end());
    EXPECT_EQ(restored.now(), store_.now());
    EXPECT_EQ(restored.migration_id(), 1);
    EXPECT_EQ(restored.contract(gone)->archived_offset(), 5);
    EXPECT_EQ(restored.active_contracts().size(), 3U);
    EXPECT_EQ(restored.reassignments_of(moved), (std::vector<Offset>{6, 7}));
    EXPECT_EQ(restored.reassignment_counter(moving), 1);
    EXPECT_EQ(restored.offset_of_update(store_.update_id_for(7)), 7);
    EXPECT_EQ(restored.offset_of_external_hash(std::string(64, 'a')), 5);
    EXPECT_TRUE(restored.knows_template("splice-amulet", "Splice.Amulet:Amulet"));
    EXPECT_EQ(restored.import_updates(1, "", 10).size(), 3U);
    EXPECT_EQ(restored.snapshot(0, Timestamp{t.micros + 2 * second}, false)->acs.rows.size(), 3U);
    // The contract in flight lands where its unassignment sent it; the others go on as before.
    restored.assign(moving, bob, Timestamp{t.micros + 5 * second});
    EXPECT_EQ(restored.contract(moving)->synchronizer_id, "private::1220ee");
    auto next = TransactionDraft{.offset = restored.next_offset(),
                                 .update_id = restored.id_for(restored.next_offset()),
                                 .submitters = {dso},
                                 .effective_at = Timestamp{t.micros + 6 * second},
                                 .record_time = Timestamp{t.micros + 6 * second},
                                 .synchronizer_id = "global::1220dd"};
    next.add(-1, archive(kept, alice));
    restored.append_transaction(next);
    EXPECT_EQ(restored.contract(kept)->archived_offset(), 11);
    // Its snapshots' rows go on from where the image's ended.
    restored.take_snapshot(Timestamp{t.micros + 7 * second});
    EXPECT_EQ(restored.snapshot(1, Timestamp{t.micros + 7 * second}, false)->first_acs_row_id(), 4);
}

// A state file's reader gives each update's id namespace, from which the index of update ids is
// built without going to the updates: it finds every update by its id as one built from them.
TEST_F(LedgerStoreTest, ARestoredStoreGivenItsIdNamespacesFindsEachUpdateByItsId) {
    mint(alice, "1");
    mint(bob, "2");
    store_.take_snapshot(Timestamp{store_.now().micros + second});
    store_.migrate(Timestamp{store_.now().micros + 2 * second});
    LedgerStore::Image image = image_of(store_);
    for (const UpdatePtr& u : image.history)
        image.id_namespaces.push_back(std::visit([](const auto& x) { return x.id_namespace; }, *u));

    LedgerStore restored(network(), Timestamp{1'000 * second});
    restored.restore(std::move(image)).finish();

    for (Offset o = 1; o <= store_.ledger_end(); ++o)
        EXPECT_EQ(restored.offset_of_update(store_.update_id_for(o)), o);
    EXPECT_EQ(restored.offset_of_update(store_.update_id_for(store_.ledger_end() + 1)),
              std::nullopt);
}

// A Decoder that gives `source`'s transactions (as a state file's reader gives them from its
// bytes, with its contracts), counting each read.
class CountingDecoder final : public History::Decoder {
  public:
    CountingDecoder(const LedgerStore& source, std::shared_ptr<std::atomic<int>> reads)
        : source_(source), reads_(std::move(reads)) {}
    UpdatePtr decode(Offset offset, const std::deque<ContractState>& contracts) override {
        ++*reads_;
        const UpdatePtr source = source_.update_at(offset);
        const auto& from = std::get<Transaction>(*source);
        Transaction tx{.offset = from.offset,
                       .command_id = from.command_id,
                       .workflow_id = from.workflow_id,
                       .submitters = from.submitters,
                       .synchronizer_id = from.synchronizer_id,
                       .id_namespace = from.id_namespace,
                       .migration_id = from.migration_id,
                       .external_transaction_hash = from.external_transaction_hash,
                       .traffic_cost = from.traffic_cost,
                       .effective_at = from.effective_at,
                       .record_time = from.record_time};
        std::vector<Node> nodes;
        std::vector<ExercisedNode> exercises;
        for (const Node& n : from.nodes) {
            Node copy{.node_id = n.node_id, .witnesses = n.witnesses};
            if (const CreatedNode* c = created(n)) {
                const auto sequence = static_cast<std::size_t>(
                    std::find_if(contracts.begin(), contracts.end(),
                                 [&c](const ContractState& s) {
                                     return s.contract->contract_id == c->contract->contract_id;
                                 }) -
                    contracts.begin());
                copy.event = CreatedNode{contracts.at(sequence).contract};
            } else {
                exercises.push_back(*exercised(n));
                copy.event = static_cast<const ExercisedNode*>(nullptr);
            }
            nodes.push_back(std::move(copy));
        }
        return transaction_update(std::move(tx), std::move(nodes), std::move(exercises));
    }

  private:
    const LedgerStore& source_;
    std::shared_ptr<std::atomic<int>> reads_;
};

// `s`'s image with its transactions left to a CountingDecoder, with what the indexes need of
// them, as a state file's reader gives it.
LedgerStore::Image unread_image_of(const LedgerStore& s, std::shared_ptr<std::atomic<int>> reads) {
    LedgerStore::Image image = image_of(s);
    for (UpdatePtr& u : image.history) {
        image.id_namespaces.push_back(std::visit([](const auto& x) { return x.id_namespace; }, *u));
        const auto* tx = std::get_if<Transaction>(u.get());
        if (tx == nullptr) continue;
        if (!tx->external_transaction_hash.empty())
            image.external_hashes.emplace_back(tx->external_transaction_hash, tx->offset);
        for (const Node& n : tx->nodes) {
            if (const ExercisedNode* e = exercised(n); e != nullptr && e->consuming)
                image.consumed.emplace_back(e->contract_id, tx->offset);
        }
        u = nullptr;
    }
    image.decoder = std::make_unique<CountingDecoder>(s, std::move(reads));
    return image;
}

// A state file's transactions are read when first asked for, each once: a restore reads none,
// and the store answers as the one it was taken from.
TEST_F(LedgerStoreTest, ARestoredStoreReadsEachTransactionWhenFirstAskedFor) {
    const std::string kept = mint(alice, "1");
    const std::string gone = mint(alice, "2");
    const std::string moved = mint(bob, "3");
    auto d = draft();
    d.add(-1, archive(gone, alice));
    d.external_transaction_hash = std::string(64, 'a');
    store_.append_transaction(d);
    const Timestamp t{store_.now().micros + second};
    store_.unassign(moved, "private::1220ee", bob, t);
    store_.take_snapshot(Timestamp{t.micros + second});
    store_.migrate(Timestamp{t.micros + 2 * second});
    auto reads = std::make_shared<std::atomic<int>>(0);

    LedgerStore restored(network(), Timestamp{1'000 * second});
    restored.restore(unread_image_of(store_, reads)).finish();

    EXPECT_EQ(*reads, 0);
    EXPECT_EQ(restored.ledger_end(), store_.ledger_end());
    EXPECT_EQ(restored.contract(gone)->archived_offset(), 4);
    EXPECT_EQ(restored.offset_of_external_hash(std::string(64, 'a')), 4);
    EXPECT_EQ(restored.reassignments_of(moved), (std::vector<Offset>{5}));
    for (Offset o = 1; o <= store_.ledger_end(); ++o)
        EXPECT_EQ(restored.offset_of_update(store_.update_id_for(o)), o);
    EXPECT_EQ(*reads, 0);  // the ids came from the namespaces

    const UpdatePtr fourth = restored.update_at(4);
    EXPECT_EQ(*reads, 1);
    EXPECT_EQ(restored.update_at(4), fourth);  // read once, then kept
    EXPECT_EQ(*reads, 1);
    const auto& tx = std::get<Transaction>(*fourth);
    EXPECT_EQ(tx.external_transaction_hash, std::string(64, 'a'));
    EXPECT_EQ(exercised(tx.nodes[0])->contract_id, gone);
    const auto& first = std::get<Transaction>(*restored.update_at(1));
    EXPECT_EQ(created(first.nodes[0])->contract, restored.active_contracts().front());
    EXPECT_EQ(restored.update_by_id(store_.update_id_for(2))->index(), 0U);
    EXPECT_EQ(restored.history_page(std::nullopt, 100).size(),
              store_.history_page(std::nullopt, 100).size());
    EXPECT_EQ(*reads, 4);  // the four transactions, each once

    // A store that takes the restored one's contents reads on from where it stands.
    auto more_reads = std::make_shared<std::atomic<int>>(0);
    LedgerStore again(network(), Timestamp{1'000 * second});
    again.restore(unread_image_of(store_, more_reads)).finish();
    LedgerStore other(network(), Timestamp{1'000 * second});
    other.swap_contents(again);
    EXPECT_EQ(std::get<Transaction>(*other.update_at(3)).offset, 3);
    EXPECT_EQ(*more_reads, 1);
    EXPECT_EQ(again.ledger_end(), 0);

    // A history of no update, with its decoder (a fork's, of its base alone).
    LedgerStore empty(network(), Timestamp{1'000 * second});
    empty.restore(unread_image_of(empty, more_reads)).finish();
    EXPECT_EQ(empty.ledger_end(), 0);
}

// A restored history whose ids all derive from the network's namespace (no kept id, so no two
// alike) indexes them when first looked up by id, not at the restore; appends and rollbacks before
// that, a swap of contents, and concurrent lookups all find what a store built as it went finds.
TEST_F(LedgerStoreTest, ARestoredStoreIndexesItsUpdateIdsAtTheFirstOfConcurrentLookups) {
    for (int i = 0; i < 20; ++i) mint(alice, "1");
    auto reads = std::make_shared<std::atomic<int>>(0);
    LedgerStore restored(network(), Timestamp{1'000 * second});
    restored.restore(unread_image_of(store_, reads)).finish();
    EXPECT_FALSE(restored.update_ids_indexed());

    // An append and its rollback before any lookup.
    restored.undo().set_recording(true);
    const UndoLog::Mark mark = restored.undo().mark();
    auto next = TransactionDraft{.offset = restored.next_offset(),
                                 .update_id = restored.id_for(restored.next_offset()),
                                 .submitters = {dso},
                                 .effective_at = restored.now(),
                                 .record_time = restored.now(),
                                 .synchronizer_id = "global::1220dd"};
    next.add(-1, archive(restored.active_contracts().front()->contract_id.str(), alice));
    restored.append_transaction(next);
    EXPECT_FALSE(restored.update_ids_indexed());
    restored.rollback(mark);

    std::vector<std::thread> readers;
    for (int r = 0; r < 3; ++r) {
        readers.emplace_back([&] {
            for (Offset o = 1; o <= 20; ++o)
                ASSERT_EQ(restored.offset_of_update(store_.update_id_for(o)), o);
            ASSERT_EQ(restored.offset_of_update(store_.update_id_for(21)), std::nullopt);
        });
    }
    for (std::thread& t : readers) t.join();
    EXPECT_TRUE(restored.update_ids_indexed());
    EXPECT_EQ(*reads, 0);  // no update was read to index it

    // Swapped into another store before any lookup, the index is built there when first needed.
    LedgerStore again(network(), Timestamp{1'000 * second});
    again.restore(unread_image_of(store_, reads)).finish();
    LedgerStore other(network(), Timestamp{1'000 * second});
    other.swap_contents(again);
    EXPECT_FALSE(other.update_ids_indexed());
    EXPECT_EQ(other.update_by_id(store_.update_id_for(7))->index(), 0U);
    EXPECT_TRUE(other.update_ids_indexed());
    EXPECT_EQ(std::get<Transaction>(*other.update_by_id(store_.update_id_for(7))).offset, 7);
}

// Readers that ask for one unread transaction at once read it once, and each gets it whole.
TEST_F(LedgerStoreTest, ConcurrentReadersOfAnUnreadTransactionReadItOnce) {
    for (int i = 0; i < 50; ++i) mint(alice, "1");
    auto reads = std::make_shared<std::atomic<int>>(0);
    LedgerStore restored(network(), Timestamp{1'000 * second});
    restored.restore(unread_image_of(store_, reads)).finish();

    std::vector<std::thread> readers;
    for (int r = 0; r < 4; ++r) {
        readers.emplace_back([&restored] {
            for (Offset o = 1; o <= 50; ++o) {
                const UpdatePtr u = restored.update_at(o);
                ASSERT_EQ(std::get<Transaction>(*u).offset, o);
            }
        });
    }
    for (std::thread& t : readers) t.join();
    EXPECT_EQ(*reads, 50);
}

TEST_F(LedgerStoreTest, RestoreRefusesAnImageThatWouldBreakItsIndexes) {
    const std::string first = mint(alice, "1");
    const std::string second_one = mint(alice, "2");
    auto d = draft();
    d.add(-1, archive(first, alice));
    store_.append_transaction(d);
    const auto refusal = [](LedgerStore::Image image) -> std::string {
        LedgerStore s(network(), Timestamp{1'000 * second});
        try {
            s.restore(std::move(image)).finish();
        } catch (const AppendError& e) {
            return e.what();
        }
        return "restored";
    };
    EXPECT_EQ(refusal(image_of(store_)), "restored");

    LedgerStore::Image twice = image_of(store_);
    twice.contracts.push_back(twice.contracts.front());
    EXPECT_EQ(refusal(std::move(twice)), "contract " + first + " is there twice");

    // Two migrations that kept one source update's id.
    const Name kept_source(model::kept_id_source(store_.id_for(1)));
    const auto same_ids_image = [&kept_source] {
        LedgerStore::Image same_ids;
        for (Offset o = 1; o <= 2; ++o) {
            same_ids.history.push_back(std::make_shared<const Update>(
                Migration{.offset = o, .id_namespace = kept_source, .migration_id = o}));
        }
        return same_ids;
    };
    EXPECT_EQ(refusal(same_ids_image()), "update " + store_.update_id_for(1) + " is there twice");
    // The same when the image gives each update's id namespace (as a state file's reader does).
    LedgerStore::Image same_ids = same_ids_image();
    same_ids.id_namespaces = {kept_source, kept_source};
    EXPECT_EQ(refusal(std::move(same_ids)),
              "update " + store_.update_id_for(1) + " is there twice");

    LedgerStore::Image misplaced = image_of(store_);
    std::swap(misplaced.history[0], misplaced.history[1]);
    EXPECT_EQ(refusal(std::move(misplaced)), "update 1 is out of place");

    LedgerStore::Image unarchived = image_of(store_);
    unarchived.contracts[1].archived_at = 3;  // the archive of the first
    EXPECT_EQ(refusal(std::move(unarchived)),
              "contract " + second_one + " is archived by no transaction");

    LedgerStore::Image beyond = image_of(store_);
    beyond.contracts[1].archived_at = 4;
    EXPECT_EQ(refusal(std::move(beyond)), "contract " + second_one + " is out of its history");

    // The same of transactions left to read: their consuming exercises say what they archive.
    auto reads = std::make_shared<std::atomic<int>>(0);
    EXPECT_EQ(refusal(unread_image_of(store_, reads)), "restored");
    LedgerStore::Image unconsumed = unread_image_of(store_, reads);
    unconsumed.consumed.clear();
    EXPECT_EQ(refusal(std::move(unconsumed)),
              "contract " + first + " is archived by no transaction");
    LedgerStore::Image elsewhere = unread_image_of(store_, reads);
    elsewhere.consumed.front().second = 2;
    EXPECT_EQ(refusal(std::move(elsewhere)),
              "contract " + first + " is archived by no transaction");
    // Each archived contract is one that a consuming exercise names: one named twice does not
    // stand for another.
    auto d2 = draft();
    d2.add(-1, archive(second_one, alice));
    LedgerStore both(network(), Timestamp{1'000 * second});
    both.restore(image_of(store_)).finish();
    both.append_transaction(d2);
    LedgerStore::Image named_twice = unread_image_of(both, reads);
    ASSERT_EQ(named_twice.consumed.size(), 2U);
    named_twice.consumed.back() = named_twice.consumed.front();
    EXPECT_EQ(refusal(std::move(named_twice)),
              "contract " + second_one + " is archived by no transaction");
    LedgerStore::Image hash_beyond = unread_image_of(store_, reads);
    hash_beyond.external_hashes.emplace_back(Name(std::string(64, 'b')), 4);
    EXPECT_EQ(refusal(std::move(hash_beyond)), "an external hash of no transaction left to read");
    EXPECT_EQ(*reads, 0);

    LedgerStore::Image unmade = image_of(store_);
    auto moved = std::make_shared<model::Contract>(*unmade.contracts[1].contract);
    moved->created_offset = 1;
    unmade.contracts[1].contract = moved;
    EXPECT_EQ(refusal(std::move(unmade)), "contract " + second_one + " is not where it was made");
}

// A restore's caller reads the contracts restored on a second thread while the store indexes
// them (a state file's load restores its views so): what it is given is the store's, in
// creation order.
TEST_F(LedgerStoreTest, RestoreGivesItsContractsToWhatRunsAlongside) {
    mint(alice, "1");
    const std::string gone = mint(alice, "2");
    auto d = draft();
    d.add(-1, archive(gone, alice));
    store_.append_transaction(d);
    LedgerStore::Image image = image_of(store_);
    std::vector<model::ContractPtr> given;
    for (const ContractState& state : image.contracts) given.push_back(state.contract);

    LedgerStore restored(network(), Timestamp{1'000 * second});
    std::vector<model::ContractPtr> seen;
    std::thread::id seen_on;
    restored
        .restore(std::move(image),
                 [&](const std::deque<ContractState>& contracts) {
                     seen_on = std::this_thread::get_id();
                     for (const ContractState& state : contracts) seen.push_back(state.contract);
                 })
        .finish();
    EXPECT_EQ(seen, given);
    EXPECT_NE(seen_on, std::this_thread::get_id());
    EXPECT_EQ(restored.contract(gone)->archived_offset(), 3);

    // What it throws, the restore throws, once the store is done.
    LedgerStore refused(network(), Timestamp{1'000 * second});
    try {
        refused
            .restore(
                image_of(store_),
                [](const std::deque<ContractState>&) { throw AppendError("a view refuses it"); })
            .finish();
        ADD_FAILURE() << "restored";
    } catch (const AppendError& e) {
        EXPECT_STREQ(e.what(), "a view refuses it");
    }
}

TEST_F(LedgerStoreTest, ConcurrentReadersSeeWholeUpdates) {
    constexpr int writes = 400;
    constexpr int checkpoints = 4;  // the writer waits for a reader every writes/checkpoints
    std::atomic<bool> done{false};
    std::atomic<int> checks{0};
    std::atomic<Offset> latest_seen{0};
    std::mutex seen_mutex;
    std::set<Offset> ends_seen;
    std::vector<std::thread> readers;
    for (int r = 0; r < 3; ++r) {
        readers.emplace_back([&] {
            while (!done.load()) {
                const Offset end = store_.ledger_end();
                for (Offset o = std::max<Offset>(1, end - 5); o <= end; ++o) {
                    const auto update = store_.update_at(o);
                    ASSERT_NE(update, nullptr);
                    const auto& tx = std::get<Transaction>(*update);
                    for (const Node& n : tx.nodes) {
                        const auto& c = std::get<CreatedNode>(n.event).contract;
                        ASSERT_TRUE(store_.contract(c->contract_id).has_value());
                    }
                }
                const auto active = store_.active_contracts();
                ASSERT_GE(static_cast<Offset>(active.size()), end);
                {
                    const std::lock_guard lock(seen_mutex);
                    ends_seen.insert(end);
                }
                Offset seen = latest_seen.load();
                while (seen < end && !latest_seen.compare_exchange_weak(seen, end)) {
                }
                ++checks;
            }
        });
    }
    for (int i = 1; i <= writes; ++i) {
        mint(i % 2 == 0 ? alice : bob, "1");
        // At each checkpoint wait (boundedly) until a reader has checked the ledger at this end,
        // so that the readers provably ran between the writes.
        if (i % (writes / checkpoints) == 0 && i < writes) {
            const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
            while (latest_seen.load() < i && std::chrono::steady_clock::now() < until) {
                std::this_thread::yield();
            }
        }
    }
    done = true;
    for (auto& t : readers) t.join();

    EXPECT_EQ(store_.ledger_end(), writes);
    EXPECT_GT(checks.load(), 0);
    // Readers checked the ledger at (at least) each checkpoint's end, while writes went on.
    std::size_t mid_write = 0;
    for (const Offset end : ends_seen) {
        if (end > 0 && end < writes) ++mid_write;
    }
    EXPECT_GE(mid_write, static_cast<std::size_t>(checkpoints - 1));
}

}  // namespace
}  // namespace cantonlite::store::ledger_store_test
