#pragma once
// The create arguments, choice arguments and results of the Splice templates the steps use, in
// Daml declaration order (../shared/docs/reference/splice-behavior.md §4.3).

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cantonlite/model/decimal.hpp"
#include "cantonlite/model/name.hpp"
#include "cantonlite/model/network.hpp"
#include "cantonlite/model/packed_value.hpp"
#include "cantonlite/model/value.hpp"

namespace cantonlite::model::packed {
class Writer;
}

namespace cantonlite::splice::payloads {

using model::Decimal;
using model::Timestamp;
using model::Value;
using Party = std::string;

// Template ids, from the network's package ids.
model::TemplateId amulet(const model::Network& n);
model::TemplateId locked_amulet(const model::Network& n);
model::TemplateId amulet_rules(const model::Network& n);
model::TemplateId external_party_amulet_rules(const model::Network& n);
model::TemplateId transfer_command_counter(const model::Network& n);
model::TemplateId transfer_preapproval(const model::Network& n);
model::TemplateId featured_app_right(const model::Network& n);
model::TemplateId open_mining_round(const model::Network& n);
model::TemplateId amulet_transfer_instruction(const model::Network& n);
model::TemplateId transfer_factory_interface(const model::Network& n);
model::TemplateId dso_rules(const model::Network& n);
model::TemplateId vote_request(const model::Network& n);
model::TemplateId ans_entry(const model::Network& n);
model::TemplateId wallet_app_install(const model::Network& n);
model::TemplateId transfer_offer(const model::Network& n);
model::TemplateId accepted_transfer_offer(const model::Network& n);
model::TemplateId transfer_preapproval_proposal(const model::Network& n);
model::TemplateId buy_traffic_request(const model::Network& n);

// The labels of Amulet, LockedAmulet and ExpiringAmount, interned once: for the code that writes
// or reads their packed values field by field.
struct AmuletLabels {
    model::Name dso{"dso"};
    model::Name owner{"owner"};
    model::Name amount{"amount"};
    model::Name initial_amount{"initialAmount"};
    model::Name created_at{"createdAt"};
    model::Name number{"number"};
    model::Name rate_per_round{"ratePerRound"};
    model::Name rate{"rate"};
    model::Name amulet{"amulet"};
};
const AmuletLabels& amulet_labels();

// Splice.Amulet:Amulet {dso, owner, amount: ExpiringAmount}, packed: written as such, for the
// steps a large seed repeats (mint, transfer); amulet_value() is its Value.
model::PackedValue amulet_packed(const Party& dso, const Party& owner, Decimal amount,
                                 std::int64_t round, Decimal rate);
Value amulet_value(const Party& dso, const Party& owner, Decimal amount, std::int64_t round,
                   Decimal rate);
// AmuletRules_DevNet_Tap (the faucet, the mint step's choice) as the facts its values hold: the
// argument {receiver, amount} and the result {amuletSum = {amulet}, meta: a mint's Metadata,
// reason "tapped faucet"}, packed as the mint step packs them. A state file keeps a tap's values as
// these facts (a tenth of a generated network's file, and of its load's checks).
struct TapFacts {
    static constexpr std::string_view choice = "AmuletRules_DevNet_Tap";
    model::Name receiver;
    Decimal amount;
    model::Name amulet;  // the Amulet it made

    [[nodiscard]] model::PackedValue argument() const;
    [[nodiscard]] model::PackedValue result() const;
    // The facts of a tap whose argument and result are argument() and result() of them, byte for
    // byte; nullopt for any other values.
    [[nodiscard]] static std::optional<TapFacts> of(const model::PackedValue& argument,
                                                    const model::PackedValue& result);
};

// Splice.Amulet:LockedAmulet {amulet, lock: TimeLock}.
Value locked_amulet_value(Value amulet, const std::vector<Party>& holders, Timestamp expires_at,
                          const std::optional<std::string>& context);
// The TimeLock record.
Value time_lock(const std::vector<Party>& holders, Timestamp expires_at,
                const std::optional<std::string>& context);

Value transfer_offer_value(const Party& sender, const Party& receiver, const Party& dso,
                           Decimal amount, const std::string& description, Timestamp expires_at,
                           const std::string& tracking_id);
// The PaymentAmount {amount, unit = AmuletUnit}.
Value payment_amount(Decimal amount);
Value accepted_transfer_offer_value(const Value& offer);

Value ans_entry_value(const Party& user, const Party& dso, const std::string& name,
                      const std::string& url, const std::string& description, Timestamp expires_at);

// Vote {sv, accept, reason, optCastAt}.
Value vote(const Party& sv, bool accept, Value reason, std::optional<Timestamp> cast_at);
Value reason(const std::string& url, const std::string& body);
Value vote_request_value(const Party& dso, const std::string& requester, Value action, Value reason,
                         Timestamp vote_before, std::vector<std::pair<Value, Value>> votes,
                         std::optional<std::string> tracking_cid,
                         std::optional<Timestamp> target_effective_at);
// ARC_DsoRules {dsoAction = SRARC_OffboardSv {sv}}.
Value offboard_sv_action(const Party& sv);

Value buy_traffic_request_value(const Party& dso, const Party& end_user, Timestamp expires_at,
                                const std::string& tracking_id, std::int64_t traffic_amount,
                                const std::string& member_id, const std::string& synchronizer_id,
                                std::int64_t migration_id);
Value transfer_command_counter_value(const Party& dso, const Party& sender,
                                     std::int64_t next_nonce);
// Splice.AmuletRules:TransferPreapproval, as AmuletRules_CreateTransferPreapproval creates it:
// valid from, and last renewed at, `now`.
Value transfer_preapproval_value(const Party& dso, const Party& receiver, const Party& provider,
                                 Timestamp now, Timestamp expires_at);

// Splice.Round:OpenMiningRound {dso, round, amuletPrice, opensAt, targetClosesAt, issuingFor,
// transferConfigUsd, issuanceConfig, tickDuration}, with a tick of `tick_micros`, issuing for
// `round` ticks. transferConfigUsd and issuanceConfig are reduced records: the holding fee, and
// the first step of Splice's default issuance curve.
Value open_mining_round_value(const Party& dso, std::int64_t round, Decimal amulet_price,
                              Timestamp opens_at, Timestamp target_closes_at,
                              std::int64_t tick_micros);
// Splice.Amulet:FeaturedAppRight {dso, provider}.
Value featured_app_right_value(const Party& dso, const Party& provider);

// Splice.Api.Token.TransferInstructionV1:Transfer {sender, receiver, amount, instrumentId
// {admin, id}, requestedAt, executeBefore, inputHoldingCids, meta} of Amulet (admin the DSO).
Value token_transfer_value(const Party& dso, const Party& sender, const Party& receiver,
                           Decimal amount, Timestamp requested_at, Timestamp execute_before,
                           const std::vector<std::string>& input_holding_cids);
// The token standard's empty Metadata {values = {}} and an ExtraArgs {context, meta} whose
// context's values are `context`.
Value empty_metadata();
Value extra_args(std::vector<std::pair<std::string, Value>> context);

// A DA.Time RelTime {microseconds}.
Value rel_time(std::int64_t micros);

Value wallet_app_install_value(const Party& dso, const Party& validator,
                               const std::string& user_name, const Party& user_party);
Value dso_rules_value(const model::Network& n);
Value amulet_rules_value(const Party& dso);
Value external_party_amulet_rules_value(const Party& dso);

// The kinds of holding transaction Splice names in its results' metadata (TokenApiUtils' TxKind).
enum class TxKind { transfer, merge_split, mint };
// Splice.Api.Token.MetadataV1:Metadata {values: TextMap}, as Splice's holdingTxMeta writes it:
// `splice.lfdecentralizedtrust.org/` tx-kind, and, when given, reason, sender and burned (Daml's
// `show` of the Decimal).
Value holding_tx_meta(TxKind kind, const std::optional<std::string>& reason,
                      const std::optional<Party>& sender, std::optional<Decimal> burned);
// The same Metadata written into `w` (a result packed node by node), its texts as Names.
void write_holding_tx_meta(model::packed::Writer& w, TxKind kind, std::optional<model::Name> reason,
                           std::optional<model::Name> sender, std::optional<Decimal> burned);

// A record of one field, for the many choice results of the shape {name: value}.
Value single(const std::string& label, Value v);
// The empty record: arguments of choices without parameters (Archive, ...).
Value empty_record();

}  // namespace cantonlite::splice::payloads
