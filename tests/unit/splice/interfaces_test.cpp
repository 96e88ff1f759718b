// The token standard interfaces of the emulated Splice templates and their views (Splice.Amulet,
// Splice.ExternalPartyAmuletRules: `interface instance ... where view = ...`).
#include "cantonlite/splice/interfaces.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace cantonlite::splice::interfaces_test {

using model::ContractPtr;
using model::Decimal;
using model::make_contract;
using model::Name;
using model::parse_timestamp;
using model::TemplateId;
using model::Timestamp;
using model::Value;
namespace {

const std::string dso = "DSO::1220aa";
const std::string alice = "alice::1220bb";
const std::string bob = "bob::1220cc";

TemplateId splice_amulet(std::string module, std::string entity) {
    return TemplateId{.package_id = Name(std::string(64, 'a')),
                      .module_name = Name(module),
                      .entity_name = Name(entity),
                      .package_name = Name("splice-amulet")};
}

Value amulet_argument(std::string_view amount, std::int64_t round, std::string_view rate) {
    return Value::record(
        {{"dso", Value::party(dso)},
         {"owner", Value::party(alice)},
         {"amount",
          Value::record({{"initialAmount", Value::numeric(*Decimal::parse(amount))},
                         {"createdAt", Value::record({{"number", Value::int64(round)}})},
                         {"ratePerRound",
                          Value::record({{"rate", Value::numeric(*Decimal::parse(rate))}})}})}});
}

const InterfaceInstance& instance(std::string_view interface_entity,
                                  std::string_view template_entity) {
    for (const InterfaceInstance& i : interface_instances()) {
        if (i.interface_ref.entity_name == interface_entity &&
            i.template_ref.entity_name == template_entity)
            return i;
    }
    throw std::runtime_error("no such instance");
}

TEST(Interfaces, AmuletAndLockedAmuletImplementHoldingV1) {
    for (const char* t : {"Amulet", "LockedAmulet"}) {
        const InterfaceInstance& i = instance("Holding", t);
        EXPECT_EQ(i.interface_ref.package_name, "splice-api-token-holding-v1");
        EXPECT_EQ(i.interface_ref.module_name, "Splice.Api.Token.HoldingV1");
        EXPECT_TRUE(i.implemented_by(splice_amulet("Splice.Amulet", t)));
    }
}

TEST(Interfaces, ExternalPartyAmuletRulesImplementsTheV1Factories) {
    const TemplateId rules =
        splice_amulet("Splice.ExternalPartyAmuletRules", "ExternalPartyAmuletRules");
    EXPECT_TRUE(instance("TransferFactory", "ExternalPartyAmuletRules").implemented_by(rules));
    EXPECT_TRUE(instance("AllocationFactory", "ExternalPartyAmuletRules").implemented_by(rules));
    EXPECT_EQ(instance("AllocationFactory", "ExternalPartyAmuletRules").interface_ref.package_name,
              "splice-api-token-allocation-instruction-v1");
}

TEST(Interfaces, KnowsInterfacesByPackageNameModuleAndEntity) {
    EXPECT_TRUE(
        is_known_interface("splice-api-token-holding-v1", "Splice.Api.Token.HoldingV1", "Holding"));
    EXPECT_TRUE(is_known_interface("splice-api-token-transfer-instruction-v1",
                                   "Splice.Api.Token.TransferInstructionV1", "TransferFactory"));
    EXPECT_FALSE(is_known_interface("splice-api-token-holding-v1", "Splice.Api.Token.HoldingV1",
                                    "Holdings"));
    EXPECT_FALSE(is_known_interface("splice-amulet", "Splice.Amulet", "Amulet"));  // a template
}

// The wallet SDK filters on all seven v1 interfaces of the token standard; those no emulated
// template implements are known all the same (their packages are on the participant).
TEST(Interfaces, KnowsTheTokenStandardsInterfacesThatNothingImplementsHere) {
    EXPECT_TRUE(is_known_interface("splice-api-token-transfer-instruction-v1",
                                   "Splice.Api.Token.TransferInstructionV1",
                                   "TransferInstruction"));
    EXPECT_TRUE(is_known_interface("splice-api-token-allocation-instruction-v1",
                                   "Splice.Api.Token.AllocationInstructionV1",
                                   "AllocationInstruction"));
    EXPECT_TRUE(is_known_interface("splice-api-token-allocation-v1",
                                   "Splice.Api.Token.AllocationV1", "Allocation"));
    EXPECT_TRUE(is_known_interface("splice-api-token-allocation-request-v1",
                                   "Splice.Api.Token.AllocationRequestV1", "AllocationRequest"));
    EXPECT_FALSE(is_known_interface("splice-api-token-allocation-v1",
                                    "Splice.Api.Token.AllocationV1", "AllocationRequest"));
}

TEST(Interfaces, AmuletHoldingViewIsOwnerInstrumentAmountAndRoundMetadata) {
    const ContractPtr c =
        make_contract("00aa", splice_amulet("Splice.Amulet", "Amulet"),
                      amulet_argument("200.0", 1, "0.00380518"), {dso, alice}, {}, Timestamp{0});

    const auto view = instance("Holding", "Amulet").view(*c);

    ASSERT_TRUE(view);
    // Key order as the HoldingView record declares it; the docs' deposit example shows the values.
    EXPECT_EQ(*view,
              R"({"owner":"alice::1220bb","instrumentId":{"admin":"DSO::1220aa","id":"Amulet"},)"
              R"("amount":"200.0000000000","lock":null,"meta":{"values":{)"
              R"("amulet.splice.lfdecentralizedtrust.org/created-in-round":"1",)"
              R"("amulet.splice.lfdecentralizedtrust.org/rate-per-round":"0.00380518"}}})");
}

TEST(Interfaces, LockedAmuletHoldingViewCarriesTheLock) {
    const Value argument = Value::record(
        {{"amulet", amulet_argument("5.5", 7, "0.0000190259")},
         {"lock", Value::record({{"holders", Value::list({Value::party(bob)})},
                                 {"expiresAt", Value::timestamp(*parse_timestamp(
                                                   "2025-01-02T03:04:05.123456Z"))},
                                 {"optContext", Value::some(Value::text_value("offer"))}})}});
    const ContractPtr c = make_contract("00bb", splice_amulet("Splice.Amulet", "LockedAmulet"),
                                        argument, {dso, alice, bob}, {}, Timestamp{0});

    const auto view = instance("Holding", "LockedAmulet").view(*c);

    ASSERT_TRUE(view);
    const auto v = nlohmann::ordered_json::parse(*view);
    EXPECT_EQ(v["owner"], alice);
    EXPECT_EQ(v["amount"], "5.5000000000");
    EXPECT_EQ(v["lock"].dump(),
              R"({"holders":["bob::1220cc"],"expiresAt":"2025-01-02T03:04:05.123456Z",)"
              R"("expiresAfter":null,"context":"offer"})");
    EXPECT_EQ(v["meta"]["values"]["amulet.splice.lfdecentralizedtrust.org/rate-per-round"],
              "0.0000190259");
}

// Trailing None fields of a record are not written (canton-ledger-behavior.md §6): the Lock of a
// lock without context ends at expiresAt.
TEST(Interfaces, LockWithoutContextEndsAtExpiresAt) {
    const Value argument =
        Value::record({{"amulet", amulet_argument("1", 0, "0.1")},
                       {"lock", Value::record({{"holders", Value::list({})},
                                               {"expiresAt", Value::timestamp(Timestamp{0})},
                                               {"optContext", Value::none()}})}});
    const ContractPtr c = make_contract("00cc", splice_amulet("Splice.Amulet", "LockedAmulet"),
                                        argument, {dso, alice}, {}, Timestamp{0});

    const auto view = instance("Holding", "LockedAmulet").view(*c);

    ASSERT_TRUE(view);
    EXPECT_EQ(nlohmann::ordered_json::parse(*view)["lock"].dump(),
              R"({"holders":[],"expiresAt":"1970-01-01T00:00:00Z"})");
}

TEST(Interfaces, FactoryViewsAreTheAdminWithEmptyMetadata) {
    const ContractPtr c = make_contract(
        "00dd", splice_amulet("Splice.ExternalPartyAmuletRules", "ExternalPartyAmuletRules"),
        Value::record({{"dso", Value::party(dso)}}), {dso}, {}, Timestamp{0});

    for (const char* i : {"TransferFactory", "AllocationFactory"}) {
        EXPECT_EQ(instance(i, "ExternalPartyAmuletRules").view(*c),
                  R"({"admin":"DSO::1220aa","meta":{"values":{}}})");
    }
}

TEST(Interfaces, ViewOfAnArgumentWithoutTheFieldsIsNone) {
    const ContractPtr c =
        make_contract("00ee", splice_amulet("Splice.Amulet", "Amulet"),
                      Value::record({{"dso", Value::party(dso)}}), {dso}, {}, Timestamp{0});

    EXPECT_FALSE(instance("Holding", "Amulet").view(*c));
}

TEST(DamlShowNumeric, DropsTrailingZerosButKeepsOneFractionDigit) {
    EXPECT_EQ(daml_show_numeric("0.0038051800"), "0.00380518");
    EXPECT_EQ(daml_show_numeric("1.0000000000"), "1.0");
    EXPECT_EQ(daml_show_numeric("-12.5000000000"), "-12.5");
    EXPECT_EQ(daml_show_numeric("10"), "10.0");
}

}  // namespace
}  // namespace cantonlite::splice::interfaces_test
