#include "cantonlite/splice/splice_views.hpp"

#include <gtest/gtest.h>

#include "cantonlite/splice/holdings_query.hpp"
#include "cantonlite/splice/templates.hpp"

namespace cantonlite::splice::splice_views_test {
namespace {

using model::Decimal;
using model::Timestamp;
using model::Value;
using store::AppendError;
using store::CreateDraft;
using store::ExerciseDraft;
using store::TransactionDraft;

const Party dso = "DSO::1220aa";
const Party alice = "alice::1220a1";
const Party bob = "bob::1220b1";
constexpr std::int64_t second = 1'000'000;

Value amount(const char* initial) {
    return Value::record({{"initialAmount", Value::numeric(*Decimal::parse(initial))},
                          {"createdAt", Value::record({{"number", Value::int64(3)}})},
                          {"ratePerRound", Value::record({{"rate", Value::numeric(Decimal())}})}});
}

Value amulet_value(const Party& owner, const char* initial) {
    return Value::record(
        {{"dso", Value::party(dso)}, {"owner", Value::party(owner)}, {"amount", amount(initial)}});
}

// A store with the Splice views attached, as the seed loader builds it.
class SpliceViewsTest : public ::testing::Test {
  protected:
    store::LedgerStore store_{model::Network{.dso_party = dso,
                                             .synchronizer_id = "global::1220dd",
                                             .package_ids = model::default_package_ids()},
                              Timestamp{1'000 * second}};
    SpliceViews& views_ = SpliceViews::attach(store_);

    TransactionDraft draft() {
        const store::Offset offset = store_.next_offset();
        const Timestamp t{store_.now().micros + second};
        return TransactionDraft{.offset = offset,
                                .update_id = store_.id_for(offset),
                                .submitters = {dso},
                                .effective_at = t,
                                .record_time = t,
                                .synchronizer_id = "global::1220dd"};
    }

    model::TemplateId tid(const char* entity) const {
        return store_.network().template_id("splice-amulet", "Splice.Amulet", entity);
    }

    std::string commit_create(const model::TemplateId& t, Value argument, const Party& owner) {
        auto d = draft();
        const int node = d.add(-1, CreateDraft{.template_id = t,
                                               .argument = std::move(argument),
                                               .signatories = {dso, owner}});
        store_.append_transaction(d);
        return d.contract_id_of(node);
    }

    std::string mint(const Party& owner, const char* initial) {
        return commit_create(tid("Amulet"), amulet_value(owner, initial), owner);
    }

    std::string lock(const Party& owner, const char* initial) {
        return commit_create(
            tid("LockedAmulet"),
            Value::record({{"amulet", amulet_value(owner, initial)}, {"lock", Value::record({})}}),
            owner);
    }

    void archive(const std::string& cid, const char* entity) {
        auto d = draft();
        d.add(-1, ExerciseDraft{.contract_id = cid,
                                .template_id = tid(entity),
                                .choice = "Archive",
                                .argument = Value::record({}),
                                .consuming = true,
                                .acting_parties = {dso},
                                .result = Value::unit()});
        store_.append_transaction(d);
    }

    HoldingsSnapshotPtr snapshot_now() {
        const Timestamp t{store_.now().micros + second};
        store_.take_snapshot(t);
        return views_.holdings(*store_.snapshot(store_.migration_id(), t, false));
    }
};

TEST_F(SpliceViewsTest, ASnapshotHoldsTheHoldingsInCreationOrderWithRowIds) {
    const std::string a = mint(alice, "1");
    const std::string b = lock(bob, "2");
    const auto first = snapshot_now();
    mint(alice, "3");
    const auto second_snapshot = snapshot_now();

    ASSERT_EQ(first->size(), 2U);
    EXPECT_EQ(first->row(0).contract->contract_id, a);
    EXPECT_EQ(first->row(1).contract->contract_id, b);
    EXPECT_EQ(first->row(1).owner, bob);
    EXPECT_TRUE(first->row(1).locked);
    EXPECT_EQ(first->row(1).amount(), *Decimal::parse("2"));
    EXPECT_EQ(first->row(0).created_round(), 3);
    EXPECT_EQ(first->row(1).created_round(), 3);  // amulet.amount of the LockedAmulet
    EXPECT_EQ(first->row(0).rate_per_round(), Decimal());
    EXPECT_EQ(first->first_row_id(), 1);
    EXPECT_EQ(first->last_row_id(), 2);
    EXPECT_EQ(second_snapshot->first_row_id(), 3);
    EXPECT_EQ(second_snapshot->size(), 3U);
    EXPECT_EQ(first->rows_of(alice), std::vector<std::uint32_t>{0});
    EXPECT_EQ(first->rows_of(dso), (std::vector<std::uint32_t>{0, 1}));
}

// Amulets and LockedAmulets among other contracts: the holdings are the snapshot's rows of
// either template, in the rows' order, whichever template each is.
TEST_F(SpliceViewsTest, ASnapshotsHoldingsAreItsAmuletsAndLockedAmuletsInRowOrder) {
    std::vector<std::string> holdings;
    holdings.push_back(mint(alice, "1"));
    holdings.push_back(lock(bob, "2"));
    commit_create(tid("Unrelated"), Value::record({}), alice);
    holdings.push_back(mint(bob, "3"));
    holdings.push_back(lock(alice, "4"));
    holdings.push_back(lock(alice, "5"));
    commit_create(tid("Unrelated"), Value::record({}), bob);
    holdings.push_back(mint(alice, "6"));
    const auto snapshot = snapshot_now();

    std::vector<std::string> rows;
    for (std::size_t i = 0; i < snapshot->size(); ++i)
        rows.push_back(snapshot->row(i).contract->contract_id.str());
    EXPECT_EQ(rows, holdings);
    EXPECT_EQ(snapshot->last_row_id() - snapshot->first_row_id() + 1, 6);
    EXPECT_TRUE(snapshot->row(3).locked);
    EXPECT_FALSE(snapshot->row(5).locked);
}

TEST_F(SpliceViewsTest, SnapshotsOfUnchangedHoldingsShareTheirRowsAndTheRowsTheirContracts) {
    mint(alice, "1");
    const auto first = snapshot_now();
    const auto again = snapshot_now();
    mint(bob, "2");
    const auto third = snapshot_now();

    EXPECT_EQ(first->data, again->data);
    EXPECT_EQ(again->first_row_id(), 2);  // its own row ids all the same
    EXPECT_NE(third->data, first->data);
    EXPECT_EQ(third->row(0).contract, first->row(0).contract);  // not a copy
}

TEST_F(SpliceViewsTest, AnArchivedAmuletLeavesTheHoldingsAndItsOwnersUnlockedAmulets) {
    const std::string kept = mint(alice, "1");
    const std::string spent = mint(alice, "2");
    lock(alice, "3");
    archive(spent, "Amulet");

    const auto unlocked = views_.unlocked_amulets_of(alice);
    ASSERT_EQ(unlocked.size(), 1U);
    EXPECT_EQ(unlocked[0]->contract_id, kept);
    EXPECT_EQ(snapshot_now()->size(), 2U);
}

TEST_F(SpliceViewsTest, ARollbackUndoesTheViewsWithTheStore) {
    const std::string kept = mint(alice, "1");
    store_.undo().set_recording(true);
    const store::UndoLog::Mark mark = store_.undo().mark();
    mint(alice, "2");
    archive(kept, "Amulet");
    snapshot_now();

    store_.rollback(mark);

    const auto unlocked = views_.unlocked_amulets_of(alice);
    ASSERT_EQ(unlocked.size(), 1U);
    EXPECT_EQ(unlocked[0]->contract_id, kept);
    const auto after = snapshot_now();
    EXPECT_EQ(after->size(), 1U);
    EXPECT_EQ(after->first_row_id(), 1);  // the rolled-back snapshot's row ids are free again
}

TEST_F(SpliceViewsTest, AnAmuletWithoutItsAmountIsRefusedAndNothingChanges) {
    mint(alice, "1");
    auto d = draft();
    d.add(-1, CreateDraft{.template_id = tid("Amulet"),
                          .argument = amulet_value(bob, "2"),
                          .signatories = {dso, bob}});
    d.add(-1, CreateDraft{.template_id = tid("Amulet"),
                          .argument = Value::record({{"owner", Value::party(bob)}}),
                          .signatories = {dso, bob}});

    try {
        store_.append_transaction(d);
        FAIL() << "appended";
    } catch (const AppendError& e) {
        EXPECT_STREQ(e.what(), "Splice.Amulet:Amulet argument has no field amount");
    }
    EXPECT_EQ(store_.ledger_end(), 1);
    EXPECT_TRUE(views_.unlocked_amulets_of(bob).empty());
    EXPECT_EQ(snapshot_now()->size(), 1U);
}

TEST_F(SpliceViewsTest, HoldingsPagesKeepTheRowsOfTheOwners) {
    mint(alice, "1");
    lock(bob, "2");
    mint(alice, "3");
    const auto s = snapshot_now();

    const HoldingsPage page = query_holdings(*s, {alice}, std::nullopt, 10);

    ASSERT_EQ(page.rows.size(), 2U);
    EXPECT_EQ(page.rows[1].amount(), *Decimal::parse("3"));
    EXPECT_FALSE(page.next_page_token.has_value());
}

// What a state file's decoding threads read ahead of restore(): an Amulet's owner, a LockedAmulet's
// owner and lock, nothing of another template; an Amulet without an owner is still a holding
// (restore() then refuses it as an append would).
TEST_F(SpliceViewsTest, AHoldingReaderReadsOwnersAndLocksAheadOfARestore) {
    const auto contract = [&](const char* entity, const Value& argument) {
        model::Contract c;
        c.template_ref = model::TemplateRef(tid(entity));
        c.argument = model::pack(argument);
        return c;
    };
    SpliceViews::HoldingReader read;

    const SpliceViews::Holding amulet = read(contract("Amulet", amulet_value(alice, "1")));
    const SpliceViews::Holding locked = read(
        contract("LockedAmulet",
                 Value::record({{"amulet", amulet_value(bob, "2")}, {"lock", Value::record({})}})));
    const SpliceViews::Holding other = read(contract("AmuletRules", Value::record({})));
    const SpliceViews::Holding ownerless =
        read(contract("Amulet", Value::record({{"dso", Value::party(dso)}})));

    EXPECT_TRUE(amulet.holding);
    EXPECT_EQ(amulet.owner, alice);
    EXPECT_FALSE(amulet.locked);
    EXPECT_TRUE(locked.holding);
    EXPECT_EQ(locked.owner, bob);
    EXPECT_TRUE(locked.locked);
    EXPECT_FALSE(other.holding);
    EXPECT_TRUE(other.owner.empty());
    EXPECT_TRUE(ownerless.holding);
    EXPECT_TRUE(ownerless.owner.empty());

    // Of a contract's state: active unless archived.
    auto held =
        std::make_shared<const model::Contract>(contract("Amulet", amulet_value(alice, "1")));
    EXPECT_TRUE(read(store::ContractState{.contract = held}).active);
    const SpliceViews::Holding archived =
        read(store::ContractState{.contract = held, .archived_at = 7});
    EXPECT_FALSE(archived.active);
    EXPECT_EQ(archived.owner, alice);
}

// The views a state file's load restores read each contract's facts from its packed argument, field
// by field: they answer as the views the contracts were appended to, and refuse an argument
// without a field the views read as an append does.
TEST_F(SpliceViewsTest, ViewsRestoredFromPackedArgumentsAnswerAsTheAppendedOnes) {
    const auto tid_of = [&](const model::QualifiedRef& r) {
        return store_.network().template_id(std::string(r.package_name), std::string(r.module_name),
                                            std::string(r.entity_name));
    };
    const Timestamp later{store_.now().micros + 3'600 * second};
    const auto offer = [&](bool with_sender) {
        std::vector<std::pair<std::string, Value>> fields;
        if (with_sender) fields.emplace_back("sender", Value::party(alice));
        fields.emplace_back("receiver", Value::party(bob));
        fields.emplace_back("amount", amount("5"));
        fields.emplace_back("description", Value::text_value("rent"));
        fields.emplace_back("expiresAt", Value::timestamp(later));
        fields.emplace_back("trackingId", Value::text_value("t1"));
        return Value::record(std::move(fields));
    };
    mint(alice, "1");
    commit_create(tid_of(templates::transfer_offer), offer(true), alice);
    commit_create(tid_of(templates::ans_entry),
                  Value::record({{"user", Value::party(alice)},
                                 {"dso", Value::party(dso)},
                                 {"name", Value::text_value("alice.unverified.cns")},
                                 {"url", Value::text_value("https://alice.example")},
                                 {"description", Value::text_value("Alice")},
                                 {"expiresAt", Value::timestamp(later)}}),
                  alice);
    commit_create(tid_of(templates::transfer_command_counter),
                  Value::record({{"sender", Value::party(alice)}, {"nextNonce", Value::int64(3)}}),
                  alice);

    // Restores a store of the same network from `contracts`, as a state file's load does.
    const auto restored = [&](std::deque<store::ContractState> contracts, store::LedgerStore& into,
                              SpliceViews& views) {
        store::LedgerStore::Image image;
        SpliceViews::HoldingReader read;
        std::vector<SpliceViews::Holding> holdings;
        for (const store::ContractState& c : contracts) holdings.push_back(read(c));
        for (store::Offset o = 1; o <= store_.ledger_end(); ++o)
            image.history.push_back(store_.update_at(o));
        image.contracts = std::move(contracts);
        image.now = store_.now();
        into.restore(std::move(image),
                     [&](const std::deque<store::ContractState>& restored_contracts) {
                         views.restore(views_.kept(), holdings, restored_contracts, {});
                     })
            .finish();
    };
    std::deque<store::ContractState> contracts;
    store_.visit_created(0, [&](std::uint64_t, const store::ContractState& c) {
        contracts.push_back(c);
        return true;
    });
    store::LedgerStore again(store_.network(), Timestamp{1'000 * second});
    SpliceViews& again_views = SpliceViews::attach(again);
    restored(contracts, again, again_views);

    ASSERT_EQ(again_views.transfer_offers_of(bob).size(), 1U);
    EXPECT_EQ(again_views.transfer_offers_of(bob), views_.transfer_offers_of(bob));
    const auto entry = again_views.ans_entry("alice.unverified.cns", store_.now());
    ASSERT_TRUE(entry.has_value());
    EXPECT_EQ(entry->user, alice);
    EXPECT_EQ(entry->url, "https://alice.example");
    EXPECT_EQ(entry->description, "Alice");
    EXPECT_EQ(entry->expires_at, later);
    ASSERT_TRUE(again_views.transfer_command_counter_of(alice).has_value());
    EXPECT_EQ(again_views.transfer_command_counter_of(alice)->contract,
              views_.transfer_command_counter_of(alice)->contract);
    EXPECT_EQ(again_views.expiring_until(later).size(), views_.expiring_until(later).size());
    EXPECT_EQ(again_views.unlocked_amulets_of(alice), views_.unlocked_amulets_of(alice));

    // An offer without its sender: refused as its append is.
    auto broken = std::make_shared<model::Contract>(*contracts[1].contract);
    broken->argument = model::pack(offer(false));
    broken->created_offset = 0;  // made by no transaction, as a fork's base: the store takes it
    contracts[1].contract = broken;
    store::LedgerStore refused(store_.network(), Timestamp{1'000 * second});
    SpliceViews& refused_views = SpliceViews::attach(refused);
    try {
        restored(contracts, refused, refused_views);
        ADD_FAILURE() << "restored";
    } catch (const AppendError& e) {
        EXPECT_STREQ(e.what(),
                     "Splice.Wallet.TransferOffer:TransferOffer argument has no field sender");
    }
}

TEST(SpliceViews, AStoreWithoutThemSaysSo) {
    const store::LedgerStore bare(model::Network{.dso_party = dso}, Timestamp{});
    EXPECT_THROW((void)views(bare), std::logic_error);
}

}  // namespace
}  // namespace cantonlite::splice::splice_views_test
