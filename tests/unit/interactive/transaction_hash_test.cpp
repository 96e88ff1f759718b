#include "cantonlite/interactive/transaction_hash.hpp"

#include <string>

#include <gtest/gtest.h>

#include "cantonlite/model/ids.hpp"

namespace cantonlite::interactive::transaction_hash_test {
namespace {

wire::Value text(const std::string& s) {
    wire::Value v;
    v.set_text(s);
    return v;
}

wire::Value int64(std::int64_t n) {
    wire::Value v;
    v.set_int64(n);
    return v;
}

wire::Value boolean(bool b) {
    wire::Value v;
    v.set_bool_(b);
    return v;
}

wire::Identifier test_id() {
    wire::Identifier id;
    id.set_package_id("package");
    id.set_module_name("module");
    id.set_entity_name("name");
    return id;
}

// ---- values: Canton 3.5's ValueHashTest (protocol/hash, release-line-3.5 1f9a4834) ----

TEST(ValueEncoding, Scalars) {
    wire::Value unit;
    unit.mutable_unit();
    EXPECT_EQ(model::hex(value_encoding(unit)), "00");
    EXPECT_EQ(model::hex(value_encoding(boolean(true))), "0101");
    EXPECT_EQ(model::hex(value_encoding(boolean(false))), "0100");
    EXPECT_EQ(model::hex(value_encoding(text("hello world!"))),
              "070000000c68656c6c6f20776f726c6421");
    wire::Value numeric;
    numeric.set_numeric("125.1002");
    EXPECT_EQ(model::hex(value_encoding(numeric)), "03000000083132352e31303032");
    wire::Value cid;
    cid.set_contract_id("0059b59ad7a6b6066e77b91ced54b8282f0e24e7089944685cb8f22f32fcbc4e1b");
    EXPECT_EQ(model::hex(value_encoding(cid)),
              "08000000210059b59ad7a6b6066e77b91ced54b8282f0e24e7089944685cb8f22f32fcbc4e1b");
    EXPECT_EQ(model::hex(value_encoding(int64(10))), "02000000000000000a");
    wire::Value timestamp;
    timestamp.set_timestamp(1729788226000000);
    EXPECT_EQ(model::hex(value_encoding(timestamp)), "040006253bb4bf5480");
    wire::Value date;
    date.set_date(20020);
    EXPECT_EQ(model::hex(value_encoding(date)), "0500004e34");
}

TEST(ValueEncoding, EnumVariantAndRecordCarryTheirIds) {
    wire::Value e;
    *e.mutable_enum_()->mutable_enum_id() = test_id();
    e.mutable_enum_()->set_constructor("ENUM");
    EXPECT_EQ(model::hex(value_encoding(e)),
              "0e01000000077061636b61676500000001000000066d6f64756c6500000001000000046e616d65000000"
              "04454e554d");

    wire::Value v;
    *v.mutable_variant()->mutable_variant_id() = test_id();
    v.mutable_variant()->set_constructor("ENUM");
    *v.mutable_variant()->mutable_value() = boolean(true);
    EXPECT_EQ(model::hex(value_encoding(v)),
              "0d01000000077061636b61676500000001000000066d6f64756c6500000001000000046e616d65000000"
              "04454e554d0101");

    wire::Value r;
    *r.mutable_record()->mutable_record_id() = test_id();
    auto* f1 = r.mutable_record()->add_fields();
    f1->set_label("field1");
    *f1->mutable_value() = boolean(true);
    auto* f2 = r.mutable_record()->add_fields();
    f2->set_label("field2");
    *f2->mutable_value() = text("hello");
    EXPECT_EQ(model::hex(value_encoding(r)),
              "0c01000000077061636b61676500000001000000066d6f64756c6500000001000000046e616d65000000"
              "0201000000066669656c6431010101000000066669656c6432070000000568656c6c6f");
}

TEST(ValueEncoding, Containers) {
    wire::Value list;
    *list.mutable_list()->add_elements() = text("five");
    *list.mutable_list()->add_elements() = int64(5);
    *list.mutable_list()->add_elements() = boolean(true);
    EXPECT_EQ(model::hex(value_encoding(list)),
              "0a000000030700000004666976650200000000000000050101");

    // A TextMap hashes by key, whatever the order it came in.
    wire::Value map;
    auto* foo = map.mutable_text_map()->add_entries();
    foo->set_key("foo");
    foo->mutable_value()->set_numeric("31380.0");
    auto* bar = map.mutable_text_map()->add_entries();
    bar->set_key("bar");
    *bar->mutable_value() = text("1284");
    EXPECT_EQ(model::hex(value_encoding(map)),
              "0b000000020000000362617207000000043132383400000003666f6f030000000733313338302e30");

    wire::Value gen;
    auto* five = gen.mutable_gen_map()->add_entries();
    *five->mutable_key() = int64(5);
    *five->mutable_value() = text("five");
    auto* ten = gen.mutable_gen_map()->add_entries();
    *ten->mutable_key() = int64(10);
    *ten->mutable_value() = text("ten");
    EXPECT_EQ(model::hex(value_encoding(gen)),
              "0f0000000202000000000000000507000000046669766502000000000000000a070000000374656e");

    wire::Value none;
    none.mutable_optional();
    EXPECT_EQ(model::hex(value_encoding(none)), "0900");
    wire::Value some;
    *some.mutable_optional()->mutable_value() = text("hello");
    EXPECT_EQ(model::hex(value_encoding(some)), "0901070000000568656c6c6f");
}

TEST(ValueEncoding, AContractIdThatIsNotHexCannotBeHashed) {
    wire::Value cid;
    cid.set_contract_id("00zz");
    EXPECT_THROW((void)value_encoding(cid), HashError);
}

// ---- metadata, V3: Canton 3.5's v3/MetadataHashTest with HashUtilsTest's inputs ----

wire::Metadata::InputContract disclosed(const std::string& cid, const std::string& party,
                                        std::uint64_t created_at) {
    wire::Metadata::InputContract c;
    auto* create = c.mutable_v1();
    create->set_lf_version("2");
    create->set_contract_id(cid);
    create->set_package_name("PkgName");
    create->mutable_template_id()->set_package_id("-dummyPkg-");
    create->mutable_template_id()->set_module_name("DummyModule");
    create->mutable_template_id()->set_entity_name("dummyName");
    create->mutable_argument()->set_contract_id(
        "0097a092402108f5593bac7fb3c909cd316910197dd98d603042a45ab85c81e0fd");
    create->add_signatories(party);
    create->add_stakeholders(party);
    c.set_created_at(created_at);
    return c;
}

TEST(MetadataHash, V3BindsTheMaxRecordTimeAndSortsTheInputsByContractId) {
    wire::Metadata m;
    m.mutable_submitter_info()->add_act_as("bob");
    m.mutable_submitter_info()->add_act_as("alice");
    m.mutable_submitter_info()->set_command_id("command-id");
    m.set_transaction_uuid("4c6471d3-4e09-49dd-addf-6cd90e19c583");
    m.set_mediator_group(0);
    m.set_synchronizer_id("synchronizer::id");
    m.set_min_ledger_effective_time(0xaaaa);
    m.set_max_ledger_effective_time(0xbbbb);
    m.set_preparation_time(0);
    *m.add_input_contracts() = disclosed(
        "0059b59ad7a6b6066e77b91ced54b8282f0e24e7089944685cb8f22f32fcbc4e1b", "bob", 1728000000000);
    *m.add_input_contracts() =
        disclosed("0007e7b5534931dfca8e1b485c105bae4e10808bd13ddc8e897f258015f9d921c5", "alice",
                  864000000000);
    m.set_max_record_time(2592000000000);

    const Hash h = metadata_hash(m, HashingScheme::v3);

    EXPECT_EQ(model::hex(std::string_view(reinterpret_cast<const char*>(h.data()), h.size())),
              "5a4c6aa89bb80d0af05a3f0614ba07bc7469795fff66d7b9e87c876eb0137e0a");
}

// ---- a real participant's prepared transaction: the wallet kernel's tx-visualizer test
// (hyperledger-labs/splice-wallet-kernel f889a438, core/tx-visualizer/src/Tx.test.ts): the bytes
// and the preparedTransactionHash Canton answered with them (V2).

constexpr const char* participant_prepared_transaction =
    "CsoHCgMyLjESATAamwcKATDCPpQHCpEHCgMyLjESQjAwMTY4Nzc3ODEwNzU3MmJlZWVjYzQzODk3MmQxODQ4M2VhZD"
    "I1MGQxZDUwYmI2MzU3ZjdmYjhmNjdkY2U3ZDYzNRoNc3BsaWNlLXdhbGxldCKCAQpAZWI2ZTAxZWZhY2MzMzk3ZTIz"
    "YzZiZThiOWJlN2RiNGJmMzc2NzIyMTE5NzRkNjllMjRiNDg5ODBlMmY5OGI3ZRIhU3BsaWNlLldhbGxldC5UcmFuc2"
    "ZlclByZWFwcHJvdmFsGhtUcmFuc2ZlclByZWFwcHJvdmFsUHJvcG9zYWwqtQNysgMKggEKQGViNmUwMWVmYWNjMzM5"
    "N2UyM2M2YmU4YjliZTdkYjRiZjM3NjcyMjExOTc0ZDY5ZTI0YjQ4OTgwZTJmOThiN2USIVNwbGljZS5XYWxsZXQuVH"
    "JhbnNmZXJQcmVhcHByb3ZhbBobVHJhbnNmZXJQcmVhcHByb3ZhbFByb3Bvc2FsElcKCHJlY2VpdmVyEks6SWJvYjo6"
    "MTIyMDViZTNiOWQxNzc1NzNmZmZiNjhlYjI0NTk4NmY4OGI5ZGY1OGQ0NGNlNTc1ODE5MDc4OTcwNTgwZDg3ZDFkYz"
    "AScgoIcHJvdmlkZXISZjpkYXBwX3VzZXJfbG9jYWxuZXQtbG9jYWxwYXJ0eS0xOjoxMjIwM2E1MmZlNWFmM2I4N2Uw"
    "Njk2MTgyYWM2NjhhNmNiMzE1ZGFiNGJkYzMwZGE5ZTViNmRkYTllYjcyODc4NDIxNhJeCgtleHBlY3RlZERzbxJPUk"
    "0KSzpJRFNPOjoxMjIwYmJkMDAwYjY5ODc1NzNiOGMwOWY0NDRlNGRmNTUwOWFmODk5N2I4MzkxMDlkN2UyYzIxMmQ1"
    "NDdmMGFmMDk1MDJJYm9iOjoxMjIwNWJlM2I5ZDE3NzU3M2ZmZmI2OGViMjQ1OTg2Zjg4YjlkZjU4ZDQ0Y2U1NzU4MT"
    "kwNzg5NzA1ODBkODdkMWRjMDpkYXBwX3VzZXJfbG9jYWxuZXQtbG9jYWxwYXJ0eS0xOjoxMjIwM2E1MmZlNWFmM2I4"
    "N2UwNjk2MTgyYWM2NjhhNmNiMzE1ZGFiNGJkYzMwZGE5ZTViNmRkYTllYjcyODc4NDIxNjpJYm9iOjoxMjIwNWJlM2"
    "I5ZDE3NzU3M2ZmZmI2OGViMjQ1OTg2Zjg4YjlkZjU4ZDQ0Y2U1NzU4MTkwNzg5NzA1ODBkODdkMWRjMCIiEiDBzeNc"
    "gqLvsssBxhNx7wP9pK71TsAprgz+a8jag/Lb3RL3ARJxCklib2I6OjEyMjA1YmUzYjlkMTc3NTczZmZmYjY4ZWIyND"
    "U5ODZmODhiOWRmNThkNDRjZTU3NTgxOTA3ODk3MDU4MGQ4N2QxZGMwEiQ5NzU4ZTQ2ZS05ZmJlLTRmOTQtOTczZC04"
    "NWQ5ZTBmMTMyNzUaU2dsb2JhbC1kb21haW46OjEyMjBiYmQwMDBiNjk4NzU3M2I4YzA5ZjQ0NGU0ZGY1NTA5YWY4OT"
    "k3YjgzOTEwOWQ3ZTJjMjEyZDU0N2YwYWYwOTUwKiQ5NGJkYmFmNS0wYjJjLTQwYmMtOTZjZC1jM2M5YTlkODQ3ZDIw"
    "+eaGkdz0jwM=";

wire::PreparedTransaction participant_transaction() {
    const auto bytes = model::base64_decode(participant_prepared_transaction);
    EXPECT_TRUE(bytes.has_value());
    wire::PreparedTransaction prepared;
    EXPECT_TRUE(prepared.ParseFromString(*bytes));
    return prepared;
}

TEST(PreparedTransactionHash, IsTheParticipantsHashOfItsTransaction) {
    const wire::PreparedTransaction prepared = participant_transaction();

    const Hash hash = prepared_transaction_hash(prepared, HashingScheme::v2);

    EXPECT_EQ(model::base64_encode(
                  std::string_view(reinterpret_cast<const char*>(hash.data()), hash.size())),
              "f97Cv1BO7QS7jmSY03p56JGsPf60Vx/ABXmRub7iiQI=");
}

TEST(PreparedTransactionHash, ReadsBackTheBytesItWasGiven) {
    const wire::PreparedTransaction prepared = participant_transaction();
    EXPECT_EQ(model::base64_encode(prepared.SerializeAsString()), participant_prepared_transaction);
}

TEST(PreparedTransactionHash, AnyChangeChangesIt) {
    const wire::PreparedTransaction original = participant_transaction();
    const Hash hash = prepared_transaction_hash(original, HashingScheme::v2);
    auto changed = [&](auto&& edit) {
        wire::PreparedTransaction p = original;
        edit(p);
        return prepared_transaction_hash(p, HashingScheme::v2) != hash;
    };
    EXPECT_TRUE(changed([](wire::PreparedTransaction& p) {
        p.mutable_metadata()->mutable_submitter_info()->set_command_id("other");
    }));
    EXPECT_TRUE(changed([](wire::PreparedTransaction& p) {
        p.mutable_metadata()->set_preparation_time(p.metadata().preparation_time() + 1);
    }));
    EXPECT_TRUE(changed([](wire::PreparedTransaction& p) {
        auto* create = p.mutable_transaction()->mutable_nodes(0)->mutable_v1()->mutable_create();
        create->add_stakeholders("mallory::1220");
    }));
    EXPECT_TRUE(changed([](wire::PreparedTransaction& p) {
        p.mutable_transaction()->mutable_node_seeds(0)->mutable_seed()->at(0) ^= 1;
    }));
    // V2 does not bind the max record time; V3 does.
    EXPECT_FALSE(changed(
        [](wire::PreparedTransaction& p) { p.mutable_metadata()->set_max_record_time(1); }));
    wire::PreparedTransaction bound = original;
    bound.mutable_metadata()->set_max_record_time(1);
    EXPECT_NE(prepared_transaction_hash(bound, HashingScheme::v3),
              prepared_transaction_hash(original, HashingScheme::v3));
    EXPECT_NE(prepared_transaction_hash(original, HashingScheme::v3), hash);
}

TEST(PreparedTransactionHash, ANodeNamedTwiceOrMissingCannotBeHashed) {
    wire::PreparedTransaction twice = participant_transaction();
    twice.mutable_transaction()->add_roots(twice.transaction().roots(0));
    EXPECT_THROW((void)prepared_transaction_hash(twice, HashingScheme::v2), HashError);
    wire::PreparedTransaction missing = participant_transaction();
    missing.mutable_transaction()->add_roots("42");
    EXPECT_THROW((void)prepared_transaction_hash(missing, HashingScheme::v2), HashError);
}

}  // namespace
}  // namespace cantonlite::interactive::transaction_hash_test
