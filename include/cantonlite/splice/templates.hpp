#pragma once
// The Splice templates and the token-standard interfaces that cantonlite emulates, each named
// once ("<package name>:<Module>:<Entity>"): the payload builders, the views and the interface
// instances all read them from here.

#include "cantonlite/model/network.hpp"
#include "cantonlite/model/template_id.hpp"

namespace cantonlite::splice::templates {

using model::QualifiedRef;

inline constexpr QualifiedRef amulet{"splice-amulet", "Splice.Amulet", "Amulet"};
inline constexpr QualifiedRef locked_amulet{"splice-amulet", "Splice.Amulet", "LockedAmulet"};
inline constexpr QualifiedRef amulet_rules{"splice-amulet", "Splice.AmuletRules", "AmuletRules"};
inline constexpr QualifiedRef featured_app_right{"splice-amulet", "Splice.Amulet",
                                                 "FeaturedAppRight"};
inline constexpr QualifiedRef transfer_preapproval{"splice-amulet", "Splice.AmuletRules",
                                                   "TransferPreapproval"};
inline constexpr QualifiedRef amulet_transfer_instruction{
    "splice-amulet", "Splice.AmuletTransferInstruction", "AmuletTransferInstruction"};
inline constexpr QualifiedRef open_mining_round{"splice-amulet", "Splice.Round", "OpenMiningRound"};
inline constexpr QualifiedRef external_party_amulet_rules{
    "splice-amulet", "Splice.ExternalPartyAmuletRules", "ExternalPartyAmuletRules"};
inline constexpr QualifiedRef transfer_command_counter{
    "splice-amulet", "Splice.ExternalPartyAmuletRules", "TransferCommandCounter"};
inline constexpr QualifiedRef dso_rules{"splice-dso-governance", "Splice.DsoRules", "DsoRules"};
inline constexpr QualifiedRef vote_request{"splice-dso-governance", "Splice.DsoRules",
                                           "VoteRequest"};
inline constexpr QualifiedRef ans_entry{"splice-amulet-name-service", "Splice.Ans", "AnsEntry"};
inline constexpr QualifiedRef wallet_app_install{"splice-wallet", "Splice.Wallet.Install",
                                                 "WalletAppInstall"};
inline constexpr QualifiedRef transfer_offer{"splice-wallet", "Splice.Wallet.TransferOffer",
                                             "TransferOffer"};
inline constexpr QualifiedRef accepted_transfer_offer{
    "splice-wallet", "Splice.Wallet.TransferOffer", "AcceptedTransferOffer"};
inline constexpr QualifiedRef transfer_preapproval_proposal{
    "splice-wallet", "Splice.Wallet.TransferPreapproval", "TransferPreapprovalProposal"};
inline constexpr QualifiedRef buy_traffic_request{
    "splice-wallet", "Splice.Wallet.BuyTrafficRequest", "BuyTrafficRequest"};

// The token standard's v1 interfaces.
inline constexpr QualifiedRef holding_v1{"splice-api-token-holding-v1",
                                         "Splice.Api.Token.HoldingV1", "Holding"};
inline constexpr QualifiedRef transfer_factory_v1{"splice-api-token-transfer-instruction-v1",
                                                  "Splice.Api.Token.TransferInstructionV1",
                                                  "TransferFactory"};
inline constexpr QualifiedRef transfer_instruction_v1{"splice-api-token-transfer-instruction-v1",
                                                      "Splice.Api.Token.TransferInstructionV1",
                                                      "TransferInstruction"};
inline constexpr QualifiedRef allocation_instruction_v1{
    "splice-api-token-allocation-instruction-v1", "Splice.Api.Token.AllocationInstructionV1",
    "AllocationInstruction"};
inline constexpr QualifiedRef allocation_v1{"splice-api-token-allocation-v1",
                                            "Splice.Api.Token.AllocationV1", "Allocation"};
inline constexpr QualifiedRef allocation_request_v1{"splice-api-token-allocation-request-v1",
                                                    "Splice.Api.Token.AllocationRequestV1",
                                                    "AllocationRequest"};
inline constexpr QualifiedRef allocation_factory_v1{"splice-api-token-allocation-instruction-v1",
                                                    "Splice.Api.Token.AllocationInstructionV1",
                                                    "AllocationFactory"};

// Whether `t` is a template `ref` names (of any package version).
[[nodiscard]] inline bool is(const model::TemplateId& t, const QualifiedRef& ref) {
    return ref.names(t.package_name, t.module_name, t.entity_name);
}

// Whether `a` and `b` name the same template or interface.
[[nodiscard]] inline bool is_same(const QualifiedRef& a, const QualifiedRef& b) {
    return a.names(b.package_name, b.module_name, b.entity_name);
}

// The template id of `ref` in network `n` (its package id from the network's packages).
[[nodiscard]] inline model::TemplateId id_of(const model::Network& n, const QualifiedRef& ref) {
    return n.template_id(ref.package_name, ref.module_name, ref.entity_name);
}

}  // namespace cantonlite::splice::templates
