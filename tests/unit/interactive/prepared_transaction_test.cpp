#include "cantonlite/interactive/prepared_transaction.hpp"

#include <gtest/gtest.h>

#include "cantonlite/interactive/transaction_hash.hpp"
#include "cantonlite/model/ids.hpp"
#include "cantonlite/model/network.hpp"
#include "cantonlite/model/packed_value.hpp"

namespace cantonlite::interactive::prepared_transaction_test {
namespace {

using model::Value;

const std::string dso = "DSO::1220aa";
const std::string alice = "alice::1220a1";
const std::string bob = "bob::1220b1";

model::TemplateId amulet() {
    return model::TemplateId{.package_id = model::Name(std::string(64, 'a')),
                             .module_name = model::Name("Splice.Amulet"),
                             .entity_name = model::Name("Amulet"),
                             .package_name = model::Name("splice-amulet")};
}

Value coin(const std::string& owner) {
    return Value::record({{"dso", Value::party(dso)},
                          {"owner", Value::party(owner)},
                          {"amount", Value::numeric(*model::Decimal::parse("10"))}});
}

// alice's coin, on the ledger before the transaction.
const model::ContractPtr input =
    model::make_contract(model::make_contract_id("earlier", 0), amulet(), coin(alice), {dso, alice},
                         {}, model::Timestamp{1'000'000});

// alice exercises a choice on her coin, which archives it and creates bob's; the result names
// the new coin.
store::TransactionDraft transfer() {
    store::TransactionDraft d{.offset = 7, .update_id = model::UpdateId::of("test", 7)};
    const int root =
        d.add(-1, store::ExerciseDraft{.contract_id = input->contract_id.str(),
                                       .template_id = amulet(),
                                       .choice = "Give",
                                       .argument = Value::record({{"to", Value::party(bob)}}),
                                       .consuming = true,
                                       .acting_parties = {alice}});
    const int created =
        d.add(root, store::CreateDraft{
                        .template_id = amulet(), .argument = coin(bob), .signatories = {dso, bob}});
    d.set_result(root, Value::record({{"coin", Value::contract_id(d.contract_id_of(created))}}));
    return d;
}

PrepareInputs inputs() {
    return PrepareInputs{.act_as = {alice},
                         .command_id = "give",
                         .synchronizer_id = "global::1220dd",
                         .transaction_uuid = "4c6471d3-4e09-49dd-addf-6cd90e19c583",
                         .preparation_time = model::Timestamp{5'000'000},
                         .contract = [](const std::string& cid) {
                             return cid == input->contract_id.str() ? input : nullptr;
                         }};
}

TEST(PreparedTransaction, EncodesTheTreeWithSeedsAndUnsuffixedCreatedIds) {
    const store::TransactionDraft d = transfer();

    const wire::PreparedTransaction p = encode_prepared(d, inputs());

    const auto& t = p.transaction();
    EXPECT_EQ(t.version(), "2.1");
    ASSERT_EQ(t.roots_size(), 1);
    EXPECT_EQ(t.roots(0), "0");
    ASSERT_EQ(t.nodes_size(), 2);
    const wire::Exercise& give = t.nodes(0).v1().exercise();
    EXPECT_EQ(give.contract_id(), input->contract_id.str());  // an input keeps its full id
    EXPECT_EQ(give.choice_id(), "Give");
    ASSERT_EQ(give.children_size(), 1);
    EXPECT_EQ(give.children(0), "1");
    EXPECT_EQ(std::vector<std::string>(give.signatories().begin(), give.signatories().end()),
              (std::vector<std::string>{dso, alice}));  // sorted as strings
    const wire::Create& created = t.nodes(1).v1().create();
    const std::string full = d.contract_id_of(1);
    EXPECT_EQ(created.contract_id(), full.substr(0, 66));
    EXPECT_EQ(give.exercise_result().record().fields(0).value().contract_id(), full.substr(0, 66));
    EXPECT_EQ(t.node_seeds_size(), 2);
    EXPECT_EQ(t.node_seeds(0).seed().size(), 32U);
    // The metadata: the submitter, the input coin with its creation time.
    const auto& m = p.metadata();
    EXPECT_EQ(m.submitter_info().act_as(0), alice);
    EXPECT_EQ(m.transaction_uuid(), "4c6471d3-4e09-49dd-addf-6cd90e19c583");
    ASSERT_EQ(m.input_contracts_size(), 1);
    EXPECT_EQ(m.input_contracts(0).v1().contract_id(), input->contract_id.str());
    EXPECT_EQ(m.input_contracts(0).created_at(), 1'000'000U);
    EXPECT_FALSE(m.input_contracts(0).event_blob().empty());
    EXPECT_FALSE(m.has_max_record_time());
}

TEST(PreparedTransaction, HashesTheSameAfterTheWire) {
    const wire::PreparedTransaction p = encode_prepared(transfer(), inputs());
    wire::PreparedTransaction read;
    ASSERT_TRUE(read.ParseFromString(p.SerializeAsString()));

    EXPECT_EQ(prepared_transaction_hash(read, HashingScheme::v2),
              prepared_transaction_hash(p, HashingScheme::v2));
    // The same draft and uuid prepare the same transaction; another uuid, other seeds.
    EXPECT_EQ(encode_prepared(transfer(), inputs()).SerializeAsString(), p.SerializeAsString());
    PrepareInputs other = inputs();
    other.transaction_uuid = "00000000-0000-0000-0000-000000000000";
    EXPECT_NE(prepared_transaction_hash(encode_prepared(transfer(), other), HashingScheme::v2),
              prepared_transaction_hash(p, HashingScheme::v2));
}

// A step may give a node's values packed already (the amulets of a transfer, a mint's tap): the
// transaction prepared is the same, byte for byte.
TEST(PreparedTransaction, ValuesPackedInTheDraftPrepareAsTheirValues) {
    store::TransactionDraft packed = transfer();
    auto& give = std::get<store::ExerciseDraft>(packed.nodes[0].event);
    give.packed_argument = model::pack(give.argument);
    give.packed_result = model::pack(give.result);
    give.argument = Value::unit();
    give.result = Value::unit();
    auto& created = std::get<store::CreateDraft>(packed.nodes[1].event);
    created.packed_argument = model::pack(created.argument);
    created.argument = Value::unit();

    EXPECT_EQ(encode_prepared(packed, inputs()).SerializeAsString(),
              encode_prepared(transfer(), inputs()).SerializeAsString());
}

TEST(PreparedTransaction, AnExerciseOfAnUnknownContractCannotBePrepared) {
    PrepareInputs none = inputs();
    none.contract = [](const std::string&) { return model::ContractPtr(); };
    EXPECT_THROW((void)encode_prepared(transfer(), none), std::invalid_argument);
}

}  // namespace
}  // namespace cantonlite::interactive::prepared_transaction_test
