// Labels of contracts (docs/seed-format.md "References"): what each label names after set_label,
// relabel, a consuming exercise and a rollback. A contract's labels move together, in the order
// they were set, and a run-time step reports them in that order.
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cantonlite/model/json_fields.hpp"
#include "seed/seed_context.hpp"
#include "seed/seed_test_network.hpp"
#include "seed/state_codec.hpp"

namespace cantonlite::seed::labels_test {
namespace {

using namespace seedtest;  // NOLINT: the shared test network's parties
using Labels = std::vector<std::pair<std::string, std::string>>;

json mint(const std::string& owner, const std::string& amount, const std::string& label) {
    return {{"step", "mint"}, {"owner", owner}, {"amount", amount}, {"as", label}};
}

class SeedLabels : public ::testing::Test {
  protected:
    LoadedSeed seed = load_seed_with_context(
        seed_with({mint("alice", "10", "a1"), mint("alice", "20", "a2"), mint("bob", "5", "b1")}),
        "test-seed", ".");
    SeedContext& ctx = *seed.context;
    const std::string a1 = resolve("a1");
    const std::string a2 = resolve("a2");
    const std::string b1 = resolve("b1");

    std::string resolve(const std::string& label) const {
        return seed.context->resolve_contract(label, "/contract");
    }
    // What moving every label of `from` to `to` reports, in order.
    Labels relabelled(const std::string& from, const std::string& to) {
        ctx.clear_step_labels();
        ctx.relabel(from, to);
        Labels out;
        for (const auto& [label, id] : ctx.step_labels()) out.emplace_back(label.str(), id.str());
        return out;
    }
};

TEST_F(SeedLabels, EachLabelNamesItsContract) {
    EXPECT_NE(a1, a2);
    EXPECT_EQ(resolve(a1), a1);  // a contract id stands for itself
    EXPECT_THROW((void)resolve("nothing"), model::JsonFieldError);
}

TEST_F(SeedLabels, AContractsLabelsMoveTogetherInTheOrderTheyWereSet) {
    ctx.set_label("x", a1);
    ctx.set_label("y", a1);

    EXPECT_EQ(relabelled(a1, b1), (Labels{{"a1", b1}, {"x", b1}, {"y", b1}}));
    EXPECT_EQ(resolve("a1"), b1);
    EXPECT_EQ(resolve("y"), b1);
    EXPECT_EQ(relabelled(b1, a2), (Labels{{"b1", a2}, {"a1", a2}, {"x", a2}, {"y", a2}}));
    EXPECT_TRUE(relabelled(a1, b1).empty());  // a1 has no labels left
}

TEST_F(SeedLabels, ALabelSetAgainLeavesItsFormerContract) {
    ctx.set_label("x", a1);
    ctx.set_label("y", a1);

    ctx.set_label("x", a2);   // from the middle of a1's labels
    ctx.set_label("a1", b1);  // the first
    EXPECT_EQ(resolve("x"), a2);
    EXPECT_EQ(resolve("a1"), b1);
    EXPECT_EQ(relabelled(a1, b1), (Labels{{"y", b1}}));
    EXPECT_EQ(relabelled(a2, a1), (Labels{{"a2", a1}, {"x", a1}}));
}

TEST_F(SeedLabels, ALabelSetAgainOnItsOwnContractGoesLast) {
    ctx.set_label("x", a1);
    ctx.set_label("a1", a1);

    EXPECT_EQ(relabelled(a1, a2), (Labels{{"x", a2}, {"a1", a2}}));
}

TEST_F(SeedLabels, ARollbackPutsTheLabelsBack) {
    store::LedgerStore& store = *seed.store;
    store.undo().set_recording(true);
    const auto mark = store.undo().mark();
    ctx.set_label("x", a1);
    ctx.set_label("a1", a2);
    (void)relabelled(a2, b1);

    store.rollback(mark);
    EXPECT_EQ(resolve("a1"), a1);
    EXPECT_EQ(resolve("a2"), a2);
    EXPECT_THROW((void)resolve("x"), model::JsonFieldError);
    EXPECT_EQ(relabelled(a1, b1), (Labels{{"a1", b1}}));
}

// A state file's record of the labels: by contract id, each contract's in the order they were
// set.
TEST_F(SeedLabels, TheListIsByContractIdWithEachContractsLabelsInTheOrderTheyWereSet) {
    ctx.set_label("x", a1);
    ctx.set_label("z", b1);
    ctx.set_label("a1", b1);  // moved from a1
    ctx.set_label("y", a1);
    std::vector<std::pair<std::string, std::vector<std::string>>> by_contract = {
        {a1, {"x", "y"}}, {a2, {"a2"}}, {b1, {"b1", "z", "a1"}}};
    std::sort(by_contract.begin(), by_contract.end());
    Labels expected;
    for (const auto& [contract, labels] : by_contract) {
        for (const std::string& label : labels) expected.emplace_back(label, contract);
    }
    Labels listed;
    for (const auto& [label, contract] : ctx.labels())
        listed.emplace_back(label.str(), contract.str());
    EXPECT_EQ(listed, expected);
}

TEST_F(SeedLabels, AContextRestoredFromItsListHasTheSameLabelsInTheSameOrder) {
    ctx.set_label("x", a1);
    ctx.set_label("a1", b1);
    ctx.set_label("y", b1);
    SeedContext restored(*seed.store, std::nullopt);
    restored.restore_labels(ctx.labels());

    EXPECT_EQ(restored.labels(), ctx.labels());
    EXPECT_EQ(restored.resolve_contract("y", "/contract"), b1);
    SeedContext again(*seed.store, std::nullopt);
    auto listed = ctx.labels();
    listed.push_back(listed.front());
    EXPECT_THROW(again.restore_labels(listed), std::invalid_argument);  // a label twice
    SeedContext apart(*seed.store, std::nullopt);
    listed = ctx.labels();
    listed.emplace_back(model::Name("z"), listed.front().second);
    EXPECT_THROW(apart.restore_labels(listed), std::invalid_argument);
}

// A state file keeps every label, each contract's in the order they were set, and a loaded one
// saves the same bytes: labels moved between contracts out of their creation and id orders, and a
// label naming a contract the store does not hold (set_label does not check).
TEST_F(SeedLabels, AStateFileKeepsEachContractsLabelsInOrder) {
    ctx.set_label("x", b1);
    ctx.set_label("a1", a2);  // moved from a1
    ctx.set_label("y", a1);
    ctx.set_label("z", b1);
    const std::string saved = write_state(*seed.store, ctx);
    const auto labels = ctx.labels();
    ctx.set_label("elsewhere", "00not-a-contract-of-this-store");
    const std::string with_elsewhere = write_state(*seed.store, ctx);

    for (const auto& [bytes, expected] :
         {std::pair{saved, labels}, {with_elsewhere, ctx.labels()}}) {
        const LoadedSeed loaded = read_state(bytes);
        EXPECT_EQ(loaded.context->labels(), expected);
        EXPECT_EQ(write_state(*loaded.store, *loaded.context), bytes);
    }
    const LoadedSeed loaded = read_state(saved);
    for (const std::string label : {"a1", "a2", "b1", "x", "y", "z"})
        EXPECT_EQ(loaded.context->resolve_contract(label, "/contract"), resolve(label)) << label;
    EXPECT_EQ(read_state(with_elsewhere).context->resolve_contract("elsewhere", "/contract"),
              "00not-a-contract-of-this-store");
}

TEST(SeedLabelsOfConsumedContracts, AreForgotten) {
    const json archive = {{"step", "transaction"},
                          {"submitters", {"alice"}},
                          {"nodes",
                           {{{"exercise",
                              {{"contract", "a1"},
                               {"template", "splice-amulet:Splice.Amulet:Amulet"},
                               {"choice", "Archive"},
                               {"consuming", true},
                               {"acting_parties", {"alice"}}}}}}}};
    const LoadedSeed seed =
        load_seed_with_context(seed_with({mint("alice", "10", "a1"), archive}), "test-seed", ".");

    EXPECT_THROW((void)seed.context->resolve_contract("a1", "/contract"), model::JsonFieldError);
}

}  // namespace
}  // namespace cantonlite::seed::labels_test
