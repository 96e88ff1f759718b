// The commands of the JSON Ledger API's command service (seed/commands.hpp): their resolution
// against the templates and choices cantonlite models, and the "submit" step that runs them.
// Each choice follows its Daml in Splice 0.6 (daml/splice-amulet) and the token standard
// (token-standard/splice-api-token-*-v1): its controllers, its checks in their order with their
// failure texts, its nodes and its result. What a choice leaves out is in docs/FIDELITY.md.
#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "cantonlite/model/lf_type.hpp"
#include "cantonlite/seed/commands.hpp"
#include "cantonlite/splice/payloads.hpp"
#include "cantonlite/splice/splice_views.hpp"
#include "cantonlite/splice/templates.hpp"
#include "steps.hpp"

namespace cantonlite::seed {
namespace commands_impl {

namespace tpl = splice::templates;
using model::LfType;
using model::QualifiedRef;

// ---- errors, as the participant reports them (research: CommandExecutionErrors) ----

[[noreturn]] void contract_not_found(const std::string& cid) {
    throw CommandError("CONTRACT_NOT_FOUND", 11, "Contract could not be found with id " + cid, {},
                       {{"CONTRACT_ID", cid}});
}

// DAML_FAILURE of a Daml exception nobody caught: `require` (AssertionFailed) and `fail`/`abort`
// (GeneralError), category 9 (Speedy converts legacy exceptions to a FailureStatus).
[[noreturn]] void daml_exception(std::string_view type, const std::string& message) {
    const std::string id = "UNHANDLED_EXCEPTION/" + std::string(type);
    throw CommandError(
        "DAML_FAILURE", 9,
        "Interpretation error: Error: User failure: " + id + " (error category 9): " + message,
        {{"error_id", id}});
}

[[noreturn]] void general_error(const std::string& message) {
    daml_exception("DA.Exception.GeneralError:GeneralError", message);
}

// Splice.Util.require.
void require(const std::string& what, bool holds) {
    if (!holds) {
        daml_exception("DA.Exception.AssertionFailed:AssertionFailed",
                       "The requirement '" + what + "' was not met.");
    }
}

// failWithStatus (FailureStatus errorId category message meta): DAML_FAILURE in its category.
[[noreturn]] void failure_status(const std::string& error_id, int category,
                                 const std::string& message, CommandError::KeyValues meta = {}) {
    meta.emplace_back("error_id", error_id);
    throw CommandError("DAML_FAILURE", category,
                       "Interpretation error: Error: User failure: " + error_id +
                           " (error category " + std::to_string(category) + "): " + message,
                       std::move(meta));
}

std::string show_party(const std::string& p) {
    return "'" + p + "'";
}

// DA.Assert.assertWithinDeadline: passes while the ledger time is before `deadline`.
void within_deadline(Timestamp now, const std::string& name, Timestamp deadline) {
    if (now < deadline) return;
    failure_status(
        "stdlib.daml.com/deadline-exceeded", 9,
        "Ledger time is at or past deadline '" + name + "' at " + model::format_instant(deadline),
        {{"deadline", model::format_instant(deadline)}});
}

// DA.Assert.assertDeadlineExceeded: passes once the ledger time is at or past `deadline`.
void deadline_exceeded(Timestamp now, const std::string& name, Timestamp deadline) {
    if (!(now < deadline)) return;
    failure_status("stdlib.daml.com/deadline-not-exceeded", 9,
                   "Ledger time is strictly before deadline '" + name + "' at " +
                       model::format_instant(deadline),
                   {{"deadline", model::format_instant(deadline)}});
}

// ---- the Daml types of the modelled arguments ----

struct Types {
    const LfType* metadata;
    const LfType* any_value;
    const LfType* extra_args;
    const LfType* instrument_id;
    const LfType* token_transfer;
    const LfType* transfer_factory_transfer;
    const LfType* transfer_instruction_choice;
    const LfType* tap;
    const LfType* archive;
    const LfType* transfer_context;
    const LfType* payment_context;
    const LfType* transfer_input;
    const LfType* amulet_rules_transfer;
    const LfType* create_preapproval;
    const LfType* proposal_accept;
    const LfType* preapproval_renew;
    const LfType* preapproval_cancel;
    const LfType* preapproval_send;
    const LfType* no_fields;
    const LfType* offer_withdraw;
};

const Types& types() {
    static const Types t = [] {
        const LfType* party = LfType::party();
        const LfType* text = LfType::text();
        const LfType* numeric = LfType::numeric();
        const LfType* time = LfType::timestamp();
        const LfType* cid = LfType::contract_id();
        Types out{};
        out.metadata = LfType::record("Splice.Api.Token.MetadataV1:Metadata",
                                      {{"values", LfType::text_map(text)}});
        // Splice.Api.Token.MetadataV1:AnyValue refers to itself.
        LfType* any = LfType::declare_variant("Splice.Api.Token.MetadataV1:AnyValue");
        any->fields = {
            {"AV_Text", text},
            {"AV_Int", LfType::int64()},
            {"AV_Decimal", numeric},
            {"AV_Bool", LfType::boolean()},
            {"AV_Date", LfType::date()},
            {"AV_Time", time},
            {"AV_RelTime",
             LfType::record("DA.Time.Types:RelTime", {{"microseconds", LfType::int64()}})},
            {"AV_Party", party},
            {"AV_ContractId", cid},
            {"AV_List", LfType::list(any)},
            {"AV_Map", LfType::text_map(any)},
        };
        out.any_value = any;
        const LfType* context = LfType::record("Splice.Api.Token.MetadataV1:ChoiceContext",
                                               {{"values", LfType::text_map(any)}});
        out.extra_args = LfType::record("Splice.Api.Token.MetadataV1:ExtraArgs",
                                        {{"context", context}, {"meta", out.metadata}});
        out.instrument_id = LfType::record("Splice.Api.Token.HoldingV1:InstrumentId",
                                           {{"admin", party}, {"id", text}});
        out.token_transfer = LfType::record("Splice.Api.Token.TransferInstructionV1:Transfer",
                                            {{"sender", party},
                                             {"receiver", party},
                                             {"amount", numeric},
                                             {"instrumentId", out.instrument_id},
                                             {"requestedAt", time},
                                             {"executeBefore", time},
                                             {"inputHoldingCids", LfType::list(cid)},
                                             {"meta", out.metadata}});
        out.transfer_factory_transfer =
            LfType::record("Splice.Api.Token.TransferInstructionV1:TransferFactory_Transfer",
                           {{"expectedAdmin", party},
                            {"transfer", out.token_transfer},
                            {"extraArgs", out.extra_args}});
        out.transfer_instruction_choice =
            LfType::record("Splice.Api.Token.TransferInstructionV1:TransferInstruction_Accept",
                           {{"extraArgs", out.extra_args}});
        out.tap = LfType::record("Splice.AmuletRules:AmuletRules_DevNet_Tap",
                                 {{"receiver", party}, {"amount", numeric}, {"openRound", cid}});
        out.archive = LfType::record("DA.Internal.Template:Archive", {});
        // Splice.AmuletRules (AmuletRules.daml l.1777-1873).
        const LfType* round = LfType::record("Splice.Types:Round", {{"number", LfType::int64()}});
        out.transfer_context = LfType::record("Splice.AmuletRules:TransferContext",
                                              {{"openMiningRound", cid},
                                               {"issuingMiningRounds", LfType::gen_map(round, cid)},
                                               {"validatorRights", LfType::gen_map(party, cid)},
                                               {"featuredAppRight", LfType::optional(cid)}});
        out.payment_context =
            LfType::record("Splice.AmuletRules:PaymentTransferContext",
                           {{"amuletRules", cid}, {"context", out.transfer_context}});
        out.transfer_input = LfType::variant(
            "Splice.AmuletRules:TransferInput",
            {{"InputAppRewardCoupon", cid},
             {"InputValidatorRewardCoupon", cid},
             {"InputSvRewardCoupon", cid},
             {"InputAmulet", cid},
             {"ExtTransferInput",
              LfType::record("Splice.AmuletRules:TransferInput.ExtTransferInput",
                             {{"dummyUnitField", LfType::unit()},
                              {"optInputValidatorFaucetCoupon", LfType::optional(cid)}})},
             {"InputValidatorLivenessActivityRecord", cid},
             {"InputUnclaimedActivityRecord", cid},
             {"InputDevelopmentFundCoupon", cid},
             {"InputRewardCouponV2", cid}});
        const LfType* time_lock =
            LfType::record("Splice.Expiry:TimeLock", {{"holders", LfType::list(party)},
                                                      {"expiresAt", time},
                                                      {"optContext", LfType::optional(text)}});
        const LfType* output = LfType::record("Splice.AmuletRules:TransferOutput",
                                              {{"receiver", party},
                                               {"receiverFeeRatio", numeric},
                                               {"amount", numeric},
                                               {"lock", LfType::optional(time_lock)},
                                               {"meta", LfType::optional(out.metadata)}});
        const LfType* beneficiary = LfType::record("Splice.Amulet:AppRewardBeneficiary",
                                                   {{"beneficiary", party}, {"weight", numeric}});
        const LfType* transfer =
            LfType::record("Splice.AmuletRules:Transfer",
                           {{"sender", party},
                            {"provider", party},
                            {"inputs", LfType::list(out.transfer_input)},
                            {"outputs", LfType::list(output)},
                            {"beneficiaries", LfType::optional(LfType::list(beneficiary))}});
        out.amulet_rules_transfer = LfType::record("Splice.AmuletRules:AmuletRules_Transfer",
                                                   {{"transfer", transfer},
                                                    {"context", out.transfer_context},
                                                    {"expectedDso", LfType::optional(party)}});
        out.create_preapproval =
            LfType::record("Splice.AmuletRules:AmuletRules_CreateTransferPreapproval",
                           {{"context", out.payment_context},
                            {"inputs", LfType::list(out.transfer_input)},
                            {"receiver", party},
                            {"provider", party},
                            {"expiresAt", time},
                            {"expectedDso", LfType::optional(party)},
                            {"optCreatedAt", LfType::optional(time)}});
        out.proposal_accept =
            LfType::record("Splice.Wallet.TransferPreapproval:TransferPreapprovalProposal_Accept",
                           {{"context", out.payment_context},
                            {"inputs", LfType::list(out.transfer_input)},
                            {"expiresAt", time}});
        out.preapproval_renew = LfType::record("Splice.AmuletRules:TransferPreapproval_Renew",
                                               {{"context", out.payment_context},
                                                {"inputs", LfType::list(out.transfer_input)},
                                                {"newExpiresAt", time}});
        out.preapproval_cancel =
            LfType::record("Splice.AmuletRules:TransferPreapproval_Cancel", {{"p", party}});
        out.preapproval_send = LfType::record("Splice.AmuletRules:TransferPreapproval_Send",
                                              {{"context", out.payment_context},
                                               {"inputs", LfType::list(out.transfer_input)},
                                               {"amount", numeric},
                                               {"sender", party},
                                               {"description", LfType::optional(text)}});
        out.no_fields = LfType::record("Splice.Wallet.TransferOffer:TransferOffer_Accept", {});
        out.offer_withdraw = LfType::record("Splice.Wallet.TransferOffer:TransferOffer_Withdraw",
                                            {{"reason", text}});
        return out;
    }();
    return t;
}

// ---- reading decoded values ----

const Value& field(const Value& record, std::string_view name) {
    for (std::size_t i = 0; i < record.labels.size(); ++i) {
        if (record.labels[i] == name) return record.items[i];
    }
    throw std::logic_error("no field " + std::string(name));
}

std::vector<std::string> texts(const Value& list) {
    std::vector<std::string> out;
    out.reserve(list.items.size());
    for (const Value& v : list.items) out.push_back(v.text);
    return out;
}

// A value of an ExtraArgs' choice context: nullptr when absent.
const Value* context_value(const Value& extra_args, std::string_view key) {
    const Value& values = field(field(extra_args, "context"), "values");
    for (std::size_t i = 0; i < values.labels.size(); ++i) {
        if (values.labels[i] == key) return &values.items[i];
    }
    return nullptr;
}

// TokenApiUtils.lookupFromContext for a contract id.
std::optional<std::string> context_contract(const Value& extra_args, std::string_view key) {
    const Value* v = context_value(extra_args, key);
    if (v == nullptr) return std::nullopt;
    if (v->text != "AV_ContractId") {
        general_error("Failed to decode context value for '" + std::string(key) +
                      "': expected contract id, got: " + v->text);
    }
    return v->items[0].text;
}

// TokenApiUtils.lookupFromContext for a Bool.
std::optional<bool> context_bool(const Value& extra_args, std::string_view key) {
    const Value* v = context_value(extra_args, key);
    if (v == nullptr) return std::nullopt;
    if (v->text != "AV_Bool") {
        general_error("Failed to decode context value for '" + std::string(key) +
                      "': expected bool, got: " + v->text);
    }
    return v->items[0].number != 0;
}

Value meta_values(std::vector<std::pair<std::string, Value>> values) {
    std::sort(values.begin(), values.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    return splice::payloads::single("values", Value::text_map(std::move(values)));
}

// ---- running one submission ----

struct Target;

// The interpretation of one submission: its draft and what it has consumed so far.
struct Run {
    SeedContext& ctx;
    const model::Network& n;
    store::TransactionDraft& d;
    Timestamp now;
    std::vector<Party> act_as;
    std::vector<Party> readers;  // act_as and read_as
    std::set<std::string> disclosed;
    std::set<std::string> consumed;

    // An active contract of one of `templates`, as a fetch inside a choice reads it.
    std::pair<store::ContractState, Value> fetch(const std::string& cid,
                                                 std::initializer_list<QualifiedRef> templates) {
        const auto state = ctx.store().contract(cid);
        if (!state || state->archived_offset() || consumed.contains(cid)) contract_not_found(cid);
        const model::TemplateId t = state->contract->template_id();
        if (std::none_of(templates.begin(), templates.end(),
                         [&](const QualifiedRef& r) { return tpl::is(t, r); })) {
            const QualifiedRef& expected = *templates.begin();
            throw CommandError("WRONGLY_TYPED_CONTRACT", 9,
                               "Interpretation error: Error: Update failed due to wrongly typed "
                               "contract id " +
                                   cid + " Expected contract of type " +
                                   tpl::id_of(n, expected).to_string() + " but got " +
                                   t.to_string(),
                               {}, {{"CONTRACT_ID", cid}});
        }
        return {*state, model::unpack(state->contract->argument)};
    }

    // The submitters' authority covers `required` (Daml authorization of a root node).
    void authorize(const std::vector<Party>& required, const model::TemplateId& t) const {
        std::vector<Party> missing;
        for (const Party& p : required) {
            if (std::find(act_as.begin(), act_as.end(), p) == act_as.end()) missing.push_back(p);
        }
        if (missing.empty()) return;
        std::set<Party> need(required.begin(), required.end());
        std::set<Party> given(act_as.begin(), act_as.end());
        const auto join = [](const std::set<Party>& s) {
            std::string out;
            for (const Party& p : s) out += (out.empty() ? "" : ",") + p;
            return out;
        };
        throw CommandError("DAML_AUTHORIZATION_ERROR", 8,
                           "Interpretation error: Error: node NodeId(" +
                               std::to_string(d.nodes.size()) + ") (" + t.to_string() +
                               ") requires authorizers " + join(need) + ", but only " +
                               join(given) + " were given");
    }

    void archive(const std::string& cid, const model::TemplateId& t, std::vector<Party> signatories,
                 int parent) {
        if (consumed.contains(cid)) contract_not_found(cid);
        consumed.insert(cid);
        d.add(parent, store::ExerciseDraft{.contract_id = cid,
                                           .template_id = t,
                                           .choice = "Archive",
                                           .argument = splice::payloads::empty_record(),
                                           .consuming = true,
                                           .acting_parties = std::move(signatories),
                                           .result = Value::unit()});
    }
};

// The contract a command exercises a choice on, visible to the submitters or disclosed.
struct Target {
    std::string contract_id;
    store::ContractState state;
    Value argument;
    model::TemplateId template_id;  // the contract's
};

using ChoiceRun = void (*)(Run&, const Target&, ResolvedCommand&, int parent);

// The consuming exercise of `c` on `target` by `controller`, under `parent`: authorized, the
// contract consumed, an interface choice naming its interface. Its node id.
int exercise_consuming(Run& r, const Target& target, const ResolvedCommand& c,
                       const Party& controller, int parent) {
    r.authorize({controller}, target.template_id);
    r.consumed.insert(target.contract_id);
    return r.d.add(parent,
                   store::ExerciseDraft{
                       .contract_id = target.contract_id,
                       .template_id = target.template_id,
                       .interface_id = c.is_interface ? std::optional(c.template_id) : std::nullopt,
                       .choice = c.choice,
                       .argument = c.choice_argument,
                       .consuming = true,
                       .acting_parties = {controller}});
}

struct ModelledChoice {
    QualifiedRef on;  // the template or interface the command names
    std::string_view choice;
    const LfType* (*argument)();
    ChoiceRun run;
};

// ---- AmuletRules_DevNet_Tap (AmuletRules.daml: the faucet, through AmuletRules_Mint) ----

void run_tap(Run& r, const Target& target, ResolvedCommand& c, int parent) {
    namespace p = splice::payloads;
    const Value& arg = c.choice_argument;
    const Party receiver = field(arg, "receiver").text;
    const model::Decimal amount = field(arg, "amount").decimal;
    const std::string round_cid = field(arg, "openRound").text;
    r.authorize({receiver}, target.template_id);
    const int tap = r.d.add(parent, store::ExerciseDraft{.contract_id = target.contract_id,
                                                         .template_id = target.template_id,
                                                         .choice = "AmuletRules_DevNet_Tap",
                                                         .argument = arg,
                                                         .consuming = false,
                                                         .acting_parties = {receiver}});
    // isDevNet holds on every network cantonlite serves (LocalNet's SPLICE_SV_IS_DEVNET).
    require("Tapped amount <= 100,000,000", amount <= *model::Decimal::parse("100000000"));
    const std::string reason = "tapped DevNet faucet";
    const int mint = r.d.add(
        tap, store::ExerciseDraft{
                 .contract_id = target.contract_id,
                 .template_id = target.template_id,
                 .choice = "AmuletRules_Mint",
                 .argument = Value::record({{"receiver", Value::party(receiver)},
                                            {"amount", Value::numeric(amount)},
                                            {"openRound", Value::contract_id(round_cid)},
                                            {"reason", Value::some(Value::text_value(reason))}}),
                 .consuming = false,
                 .acting_parties = {r.n.dso_party, receiver}});
    const auto [round_state, round] = r.fetch(round_cid, {tpl::open_mining_round});
    // The Amulet's ensure (validExpiringAmount): a template precondition.
    if (!(amount > model::Decimal())) {
        throw CommandError("TEMPLATE_PRECONDITION_VIOLATED", 8,
                           "Interpretation error: Error: Update failed due to precondition "
                           "violation when creating " +
                               p::amulet(r.n).to_string());
    }
    const Value& round_number = field(round, "round");
    const int created = r.d.add(
        mint, store::CreateDraft{.template_id = p::amulet(r.n),
                                 .signatories = {r.n.dso_party, receiver},
                                 .packed_argument = p::amulet_packed(
                                     r.n.dso_party, receiver, amount,
                                     field(round_number, "number").number, default_holding_rate)});
    const Value sum = Value::record({{"amulet", Value::contract_id(r.d.contract_id_of(created))},
                                     {"amuletPrice", field(round, "amuletPrice")},
                                     {"round", round_number}});
    r.d.set_result(mint, p::single("amuletSum", sum));
    r.d.set_result(
        tap, Value::record({{"amuletSum", sum},
                            {"meta", Value::some(p::holding_tx_meta(
                                         p::TxKind::mint, reason, std::nullopt, std::nullopt))}}));
}

// ---- TransferFactory_Transfer (ExternalPartyAmuletRules.daml, TwoStepTransfer.daml) ----

// holdingToTransferInputs: each input a holding of `sender`; an expired LockedAmulet is unlocked
// first (LockedAmulet_OwnerExpireLockV2). Returns the amulets, with their total.
std::vector<std::pair<std::string, std::string>> holdings_to_inputs(Run& r, const Value& cids,
                                                                    const Party& sender, int parent,
                                                                    model::Decimal& total) {
    namespace p = splice::payloads;
    std::vector<std::pair<std::string, std::string>> inputs;
    for (const Value& v : cids.items) {
        auto [state, holding] = r.fetch(v.text, {tpl::amulet, tpl::locked_amulet});
        const bool locked = tpl::is(state.contract->template_id(), tpl::locked_amulet);
        const Value& amulet = locked ? field(holding, "amulet") : holding;
        const Party owner = field(amulet, "owner").text;
        if (owner != sender) {
            general_error("Contract group identifier mismatch: expected ForOwner {dso = " +
                          show_party(r.n.dso_party) + ", owner = " + show_party(sender) +
                          "}, got ForOwner {dso = " + show_party(r.n.dso_party) +
                          ", owner = " + show_party(owner) + "} for " + v.text);
        }
        total = total + field(field(amulet, "amount"), "initialAmount").decimal;
        if (!locked) {
            inputs.emplace_back(v.text, "");
            continue;
        }
        const Value& lock = field(holding, "lock");
        if (r.consumed.contains(v.text)) contract_not_found(v.text);
        r.consumed.insert(v.text);
        const int expire =
            r.d.add(parent, store::ExerciseDraft{.contract_id = v.text,
                                                 .template_id = p::locked_amulet(r.n),
                                                 .choice = "LockedAmulet_OwnerExpireLockV2",
                                                 .argument = p::empty_record(),
                                                 .consuming = true,
                                                 .acting_parties = {owner}});
        deadline_exceeded(r.now, "Lock.expiresAt", Timestamp{field(lock, "expiresAt").number});
        const int unlocked =
            r.d.add(expire, store::CreateDraft{.template_id = p::amulet(r.n),
                                               .argument = amulet,
                                               .signatories = {r.n.dso_party, owner}});
        const std::string cid = r.d.contract_id_of(unlocked);
        r.d.set_result(
            expire, Value::record({{"amuletCid", Value::contract_id(cid)},
                                   {"meta", meta_values({{"splice.lfdecentralizedtrust.org/reason",
                                                          Value::text_value("lock expired")},
                                                         {"splice.lfdecentralizedtrust.org/tx-kind",
                                                          Value::text_value("unlock")}})}}));
        inputs.emplace_back(cid, "");
    }
    return inputs;
}

// checkTransferConstraints' insufficient funds (AmuletRules.daml).
void check_funds(model::Decimal in, model::Decimal amount) {
    if (!(in < amount)) return;
    const std::string missing = (amount - in).to_compact_string();
    failure_status("splice.lfdecentralizedtrust.org/insufficient-funds", 9,
                   "Insufficient funds: you are missing " + missing + " to complete this transfer.",
                   {{"requiredAmount", missing}});
}

Value instruction_result(Value output, const std::optional<std::string>& change, Value meta) {
    std::vector<Value> change_cids;
    if (change) change_cids.push_back(Value::contract_id(*change));
    return Value::record({{"output", std::move(output)},
                          {"senderChangeCids", Value::list(std::move(change_cids))},
                          {"meta", std::move(meta)}});
}

Value completed(const std::vector<std::string>& receiver_cids) {
    std::vector<Value> cids;
    for (const std::string& c : receiver_cids) cids.push_back(Value::contract_id(c));
    return Value::variant("TransferInstructionResult_Completed",
                          splice::payloads::single("receiverHoldingCids", Value::list(cids)));
}

// executeExternalPartyTransfer of `inputs` to one output of `amount` for `receiver`, under
// `parent`: the inputs archived, the output, the sender's change. Returns (output, change).
std::pair<std::string, std::optional<std::string>> external_party_transfer(
    Run& r, int parent, const Party& sender, const Party& receiver,
    const std::vector<std::pair<std::string, std::string>>& inputs, model::Decimal in,
    model::Decimal amount) {
    namespace p = splice::payloads;
    for (const auto& [cid, _] : inputs)
        r.archive(cid, p::amulet(r.n), {r.n.dso_party, sender}, parent);
    check_funds(in, amount);
    const std::int64_t round = r.ctx.round_at(r.now);
    const int out = r.d.add(parent, store::CreateDraft{.template_id = p::amulet(r.n),
                                                       .signatories = {r.n.dso_party, receiver},
                                                       .packed_argument = p::amulet_packed(
                                                           r.n.dso_party, receiver, amount, round,
                                                           default_holding_rate)});
    std::optional<std::string> change;
    if (in > amount) {
        const int node = r.d.add(parent, store::CreateDraft{.template_id = p::amulet(r.n),
                                                            .signatories = {r.n.dso_party, sender},
                                                            .packed_argument = p::amulet_packed(
                                                                r.n.dso_party, sender, in - amount,
                                                                round, default_holding_rate)});
        change = r.d.contract_id_of(node);
    }
    return {r.d.contract_id_of(out), change};
}

void run_transfer_factory(Run& r, const Target& target, ResolvedCommand& c, int parent) {
    namespace p = splice::payloads;
    const Value& arg = c.choice_argument;
    const Value& transfer = field(arg, "transfer");
    const Value& extra = field(arg, "extraArgs");
    const Party sender = field(transfer, "sender").text;
    const Party receiver = field(transfer, "receiver").text;
    const model::Decimal amount = field(transfer, "amount").decimal;
    const Timestamp requested_at = Timestamp{field(transfer, "requestedAt").number};
    const Timestamp execute_before = Timestamp{field(transfer, "executeBefore").number};
    r.authorize({sender}, target.template_id);
    // The node's argument is the command's, moved in once nothing reads it any more (a
    // transfer's is the largest value of its transaction).
    const int root = r.d.add(parent, store::ExerciseDraft{.contract_id = target.contract_id,
                                                          .template_id = target.template_id,
                                                          .interface_id = c.template_id,
                                                          .choice = "TransferFactory_Transfer",
                                                          .consuming = false,
                                                          .acting_parties = {sender}});
    const auto move_argument_in = [&] {
        std::get<store::ExerciseDraft>(r.d.nodes[static_cast<std::size_t>(root)].event).argument =
            std::move(c.choice_argument);
    };
    const Party admin = field(arg, "expectedAdmin").text;
    require("Expected admin " + show_party(admin) + " matches actual admin " +
                show_party(r.n.dso_party),
            admin == r.n.dso_party);
    std::optional<Value> preapproval;
    const std::optional<std::string> preapproval_cid =
        context_contract(extra, "transfer-preapproval");
    if (preapproval_cid) {
        auto [state, value] = r.fetch(*preapproval_cid, {tpl::transfer_preapproval});
        const Party owner = field(value, "receiver").text;
        if (owner != receiver) {
            general_error("Contract group identifier mismatch: expected ForOwner {dso = " +
                          show_party(r.n.dso_party) + ", owner = " + show_party(receiver) +
                          "}, got ForOwner {dso = " + show_party(r.n.dso_party) +
                          ", owner = " + show_party(owner) + "} for " + *preapproval_cid);
        }
        preapproval = std::move(value);
    }
    const Value& instrument = field(transfer, "instrumentId");
    const auto show_instrument = [](const std::string& a, const std::string& id) {
        return "InstrumentId {admin = " + show_party(a) + ", id = \"" + id + "\"}";
    };
    require("Expected instrumentId " + show_instrument(r.n.dso_party, "Amulet") +
                " matches actual instrumentId " +
                show_instrument(field(instrument, "admin").text, field(instrument, "id").text),
            field(instrument, "admin").text == r.n.dso_party &&
                field(instrument, "id").text == "Amulet");
    require("Amount must be positive", model::Decimal() < amount);
    deadline_exceeded(r.now, "transfer.requestedAt", requested_at);
    within_deadline(r.now, "transfer.executeBefore", execute_before);
    // tokenStandardMaxTTL: 90 days unless the rules set one.
    constexpr std::int64_t max_ttl = 90LL * 24 * 3600 * 1'000'000;
    if (execute_before.micros - requested_at.micros > max_ttl) {
        general_error(
            "'transferLifetime' is greater than 'tokenStandardMaxTTL'.\ntransferLifetime: " +
            std::to_string(execute_before.micros - requested_at.micros) +
            "us\ntokenStandardMaxTTL: " + std::to_string(max_ttl) + "us\n");
    }
    const Value& input_cids = field(transfer, "inputHoldingCids");
    require("At least one holding must be provided", !input_cids.items.empty());
    model::Decimal in;
    if (receiver == sender) {
        // The self branch: a merge or a split.
        const auto inputs = holdings_to_inputs(r, input_cids, sender, root, in);
        const auto [out, change] =
            external_party_transfer(r, root, sender, sender, inputs, in, amount);
        r.d.set_result(root,
                       instruction_result(completed({out}), change,
                                          p::holding_tx_meta(p::TxKind::merge_split, std::nullopt,
                                                             std::nullopt, std::nullopt)));
        move_argument_in();
        return;
    }
    if (!preapproval) {
        // The offer branch: prepareTwoStepTransfer.
        require("requestedAt < transferBefore", requested_at < execute_before);
        const auto inputs = holdings_to_inputs(r, input_cids, sender, root, in);
        check_funds(in, amount);
        for (const auto& [cid, _] : inputs) r.consumed.insert(cid);
        add_two_step_offer(r.ctx, r.d, root, sender, receiver, amount, inputs, in, requested_at,
                           execute_before);
        move_argument_in();
        return;
    }
    // The direct branch: the receiver's TransferPreapproval sends the amount.
    const auto inputs = holdings_to_inputs(r, input_cids, sender, root, in);
    const Party provider = field(*preapproval, "provider").text;
    std::vector<Value> input_values;
    for (const auto& [cid, _] : inputs)
        input_values.push_back(Value::variant("InputAmulet", Value::contract_id(cid)));
    const Value* reason = nullptr;
    const Value& meta_map = field(field(transfer, "meta"), "values");
    for (std::size_t i = 0; i < meta_map.labels.size(); ++i) {
        if (meta_map.labels[i] == "splice.lfdecentralizedtrust.org/reason")
            reason = &meta_map.items[i];
    }
    const int send = r.d.add(
        root,
        store::ExerciseDraft{
            .contract_id = *preapproval_cid,
            .template_id = p::transfer_preapproval(r.n),
            .choice = "TransferPreapproval_Send",
            .argument = Value::record(
                {{"context",
                  Value::record(
                      {{"amuletRules", Value::contract_id(r.ctx.amulet_rules)},
                       {"context",
                        Value::record({{"openMiningRound",
                                        Value::contract_id(
                                            context_contract(extra, "open-round").value_or(""))},
                                       {"issuingMiningRounds", Value::gen_map({})},
                                       {"validatorRights", Value::gen_map({})},
                                       {"featuredAppRight", Value::none()}})}})},
                 {"inputs", Value::list(std::move(input_values))},
                 {"amount", Value::numeric(amount)},
                 {"sender", Value::party(sender)},
                 {"description", reason ? Value::some(*reason) : Value::none()}}),
            .consuming = false,
            .acting_parties = {sender}});
    within_deadline(r.now, "TransferPreapproval.expiresAt",
                    Timestamp{field(*preapproval, "expiresAt").number});
    for (const auto& [cid, _] : inputs) {
        if (r.consumed.contains(cid)) contract_not_found(cid);
    }
    check_funds(in, amount);
    for (const auto& [cid, _] : inputs) r.consumed.insert(cid);
    const TransferNodes nodes =
        add_transfer(r.ctx, r.d, send, sender, provider, {sender, provider, receiver}, inputs, in,
                     {Output{.receiver = receiver, .amount = amount}});
    std::vector<std::pair<std::string, Value>> meta{
        {"splice.lfdecentralizedtrust.org/sender", Value::text_value(sender)},
        {"splice.lfdecentralizedtrust.org/tx-kind", Value::text_value("transfer")}};
    if (reason != nullptr && !reason->text.empty())
        meta.emplace_back("splice.lfdecentralizedtrust.org/reason", *reason);
    Value result_meta = meta_values(meta);
    const std::string created = field(nodes.result, "createdAmulets").items.at(0).items.at(0).text;
    r.d.set_result(root, instruction_result(completed({created}), nodes.change, result_meta));
    r.d.set_result(send, Value::record({{"result", std::move(nodes.result)},
                                        {"meta", Value::some(std::move(result_meta))}}));
    move_argument_in();
}

// ---- TransferInstruction_Accept / _Reject / _Withdraw (AmuletTransferInstruction.daml) ----

// LockedAmulet_UnlockV2 of the instruction's locked amulet under `parent`: the amulet back to its
// owner. Returns its contract id and its argument.
std::pair<std::string, Value> unlock_v2(Run& r, const std::string& locked_cid, int parent) {
    namespace p = splice::payloads;
    const auto [state, locked] = r.fetch(locked_cid, {tpl::locked_amulet});
    const Value& amulet = field(locked, "amulet");
    const Party owner = field(amulet, "owner").text;
    std::vector<Party> actors{owner};
    for (const std::string& h : texts(field(field(locked, "lock"), "holders"))) actors.push_back(h);
    r.consumed.insert(locked_cid);
    const int unlock = r.d.add(parent, store::ExerciseDraft{.contract_id = locked_cid,
                                                            .template_id = p::locked_amulet(r.n),
                                                            .choice = "LockedAmulet_UnlockV2",
                                                            .argument = p::empty_record(),
                                                            .consuming = true,
                                                            .acting_parties = actors});
    const int created = r.d.add(unlock, store::CreateDraft{.template_id = p::amulet(r.n),
                                                           .argument = amulet,
                                                           .signatories = {r.n.dso_party, owner}});
    const std::string cid = r.d.contract_id_of(created);
    r.d.set_result(
        unlock, Value::record({{"amuletCid", Value::contract_id(cid)},
                               {"meta", meta_values({{"splice.lfdecentralizedtrust.org/reason",
                                                      Value::text_value("holders released lock")},
                                                     {"splice.lfdecentralizedtrust.org/tx-kind",
                                                      Value::text_value("unlock")}})}}));
    return {cid, amulet};
}

void run_instruction_choice(Run& r, const Target& target, ResolvedCommand& c, int parent) {
    namespace p = splice::payloads;
    const Value& transfer = field(target.argument, "transfer");
    const Party sender = field(transfer, "sender").text;
    const Party receiver = field(transfer, "receiver").text;
    const bool withdraw = c.choice == "TransferInstruction_Withdraw";
    const Party controller = withdraw ? sender : receiver;
    const int root = exercise_consuming(r, target, c, controller, parent);
    const std::string locked_cid = field(target.argument, "lockedAmulet").text;
    const Timestamp execute_before = Timestamp{field(transfer, "executeBefore").number};
    const Value& extra = field(c.choice_argument, "extraArgs");
    if (c.choice == "TransferInstruction_Accept") {
        within_deadline(r.now, "Transfer.executeBefore", execute_before);
        // unfeaturedPaymentContextFromChoiceContext reads the ExternalPartyConfigState here;
        // cantonlite's network has none (docs/FIDELITY.md).
        const model::Decimal amount = field(transfer, "amount").decimal;
        const auto [unlocked, amulet] = unlock_v2(r, locked_cid, root);
        const model::Decimal in = field(field(amulet, "amount"), "initialAmount").decimal;
        const auto [out, change] =
            external_party_transfer(r, root, sender, receiver, {{unlocked, ""}}, in, amount);
        r.d.set_result(
            root, instruction_result(
                      completed({out}), change,
                      p::holding_tx_meta(p::TxKind::transfer, std::nullopt, sender, std::nullopt)));
        return;
    }
    // abortTwoStepTransfer: the lock is released unless the context says it has expired.
    if (context_bool(extra, "expire-lock").value_or(true)) {
        const std::string unlocked = unlock_v2(r, locked_cid, root).first;
        r.d.set_result(root, instruction_result(
                                 Value::variant("TransferInstructionResult_Failed", Value::unit()),
                                 unlocked, p::empty_metadata()));
        return;
    }
    deadline_exceeded(r.now, "lockedAmulet.lockExpiresAt", execute_before);
    r.d.set_result(
        root, instruction_result(Value::variant("TransferInstructionResult_Failed", Value::unit()),
                                 std::nullopt, p::empty_metadata()));
}

// ---- AmuletRules_Transfer (AmuletRules.daml l.181-195, executeTransfer l.1120-1209) ----

// checkExpectedDso (l.1755-1761).
void check_expected_dso(const Run& r, const Value& expected) {
    if (expected.items.empty()) {
        general_error(
            "Expected DSO party not set by caller. Please change your code to set it as a "
            "prudent security measure.");
    }
    const std::string& party = expected.items[0].text;
    if (party != r.n.dso_party) {
        general_error("DSO party expected by caller Some " + show_party(party) +
                      " does not match actual DSO party " + show_party(r.n.dso_party));
    }
}

// transferControllers (l.1028-1033): sender, provider, every receiver and lock holder, sorted.
std::vector<Party> transfer_controllers(const Value& transfer) {
    std::set<Party> out{field(transfer, "sender").text, field(transfer, "provider").text};
    for (const Value& o : field(transfer, "outputs").items) {
        out.insert(field(o, "receiver").text);
        const Value& lock = field(o, "lock");
        if (!lock.items.empty()) {
            for (const std::string& h : texts(field(lock.items[0], "holders"))) out.insert(h);
        }
    }
    return {out.begin(), out.end()};
}

// The transfer of `transfer` (a Splice Transfer) under `parent`, as executeTransfer runs it
// after its context: the open round open, the amulet inputs the sender's (consumed), each
// output checked, the funds sufficient. `argument`: the AmuletRules_Transfer node's.
TransferNodes amulet_transfer(Run& r, const Value& transfer, const Value& context,
                              const Value& argument, int parent) {
    const Party sender = field(transfer, "sender").text;
    const Party provider = field(transfer, "provider").text;
    const auto [round_state, round] =
        r.fetch(field(context, "openMiningRound").text, {tpl::open_mining_round});
    deadline_exceeded(r.now, "openRound.opensAt", Timestamp{field(round, "opensAt").number});
    std::vector<std::pair<std::string, std::string>> inputs;
    model::Decimal in;
    for (const Value& input : field(transfer, "inputs").items) {
        if (input.text != "InputAmulet") {
            throw CommandError("COMMAND_PREPROCESSING_FAILED", 8,
                               "cantonlite does not model transfer inputs of kind " + input.text +
                                   " (only InputAmulet)");
        }
        const std::string& cid = input.items[0].text;
        const auto [state, amulet] = r.fetch(cid, {tpl::amulet});
        const Party owner = field(amulet, "owner").text;
        if (owner != sender) {
            general_error("Contract group identifier mismatch: expected ForOwner {dso = " +
                          show_party(r.n.dso_party) + ", owner = " + show_party(sender) +
                          "}, got ForOwner {dso = " + show_party(r.n.dso_party) +
                          ", owner = " + show_party(owner) + "} for " + cid);
        }
        if (r.consumed.contains(cid)) contract_not_found(cid);
        r.consumed.insert(cid);
        in = in + field(field(amulet, "amount"), "initialAmount").decimal;
        inputs.emplace_back(cid, "");
    }
    std::vector<Output> outputs;
    model::Decimal out;
    for (const Value& o : field(transfer, "outputs").items) {
        Output output{.receiver = field(o, "receiver").text, .amount = field(o, "amount").decimal};
        const model::Decimal ratio = field(o, "receiverFeeRatio").decimal;
        if (ratio < model::Decimal() || *model::Decimal::parse("1") < ratio) {
            general_error("Receiver fee ratio " + ratio.to_compact_string() +
                          " is not between 0.0 and 1.0");
        }
        const Value& lock = field(o, "lock");
        if (!lock.items.empty()) {
            const Value& l = lock.items[0];
            // dedupSort (filter (receiver /=) holders)
            std::set<Party> holders;
            for (const std::string& h : texts(field(l, "holders"))) {
                if (h != output.receiver) holders.insert(h);
            }
            const Value& context_text = field(l, "optContext");
            output.lock = Lock{.holders = {holders.begin(), holders.end()},
                               .expires_at = Timestamp{field(l, "expiresAt").number},
                               .context = context_text.items.empty()
                                              ? std::nullopt
                                              : std::optional(context_text.items[0].text)};
            within_deadline(r.now, "lock.expiresAt", output.lock->expires_at);
        }
        require("Amount is positive", model::Decimal() < output.amount);
        out = out + output.amount;
        outputs.push_back(std::move(output));
    }
    check_funds(in, out);
    return add_transfer(r.ctx, r.d, parent, sender, provider, transfer_controllers(transfer),
                        inputs, in, outputs, &argument);
}

void run_amulet_rules_transfer(Run& r, const Target& target, ResolvedCommand& c, int parent) {
    const Value& arg = c.choice_argument;
    const Value& transfer = field(arg, "transfer");
    r.authorize(transfer_controllers(transfer), target.template_id);
    check_expected_dso(r, field(arg, "expectedDso"));
    (void)amulet_transfer(r, transfer, field(arg, "context"), arg, parent);
}

// ---- AmuletRules_CreateTransferPreapproval (l.231-260) ----

// payForTransferPreapproval (l.2270-2306) when nothing is paid (an extension within the base
// duration): the TransferResult of the open round, no amulet moved.
Value free_preapproval_transfer(Run& r, const Value& payment_context) {
    const auto [round_state, round] = r.fetch(
        field(field(payment_context, "context"), "openMiningRound").text, {tpl::open_mining_round});
    const Value summary = Value::record({{"inputAppRewardAmount", Value::numeric({})},
                                         {"inputValidatorRewardAmount", Value::numeric({})},
                                         {"inputSvRewardAmount", Value::numeric({})},
                                         {"inputAmuletAmount", Value::numeric({})},
                                         {"balanceChanges", Value::gen_map({})},
                                         {"holdingFees", Value::numeric({})},
                                         {"outputFees", Value::list({})},
                                         {"senderChangeFee", Value::numeric({})},
                                         {"senderChangeAmount", Value::numeric({})},
                                         {"amuletPrice", field(round, "amuletPrice")},
                                         {"inputValidatorFaucetAmount", Value::none()},
                                         {"inputUnclaimedActivityRecordAmount", Value::none()},
                                         {"inputDevelopmentFundAmount", Value::none()}});
    return Value::record({{"round", field(round, "round")},
                          {"summary", summary},
                          {"createdAmulets", Value::list({})},
                          {"senderChangeAmulet", Value::none()},
                          {"meta", Value::none()}});
}

// A preapproval's paid extension: cantonlite models none (a preapproval of at most 90 days more).
constexpr std::int64_t preapproval_base_duration = 90LL * 24 * 3600 * 1'000'000;
void refuse_paid_extension(Timestamp from, Timestamp to) {
    if (to.micros - from.micros > preapproval_base_duration) {
        throw CommandError("COMMAND_PREPROCESSING_FAILED", 8,
                           "cantonlite does not model the fee of a TransferPreapproval that "
                           "expires more than 90 days after its creation or renewal");
    }
}

void run_create_preapproval(Run& r, const Target& target, ResolvedCommand& c, int parent) {
    namespace p = splice::payloads;
    const Value& arg = c.choice_argument;
    const Party receiver = field(arg, "receiver").text;
    const Party provider = field(arg, "provider").text;
    const Timestamp expires_at{field(arg, "expiresAt").number};
    r.authorize({provider, receiver}, target.template_id);
    const int root = r.d.add(parent, store::ExerciseDraft{.contract_id = target.contract_id,
                                                          .template_id = target.template_id,
                                                          .choice = c.choice,
                                                          .argument = arg,
                                                          .consuming = false,
                                                          .acting_parties = {provider, receiver}});
    check_expected_dso(r, field(arg, "expectedDso"));
    Timestamp created_at = r.now;
    if (const Value& opt = field(arg, "optCreatedAt"); !opt.items.empty()) {
        created_at = Timestamp{opt.items[0].number};
        deadline_exceeded(r.now, "createdAt", created_at);
    }
    within_deadline(r.now, "expiresAt", expires_at);
    // payForTransferPreapproval: nothing to pay within the base duration (90 days).
    refuse_paid_extension(created_at, expires_at);
    const int created = r.d.add(
        root, store::CreateDraft{.template_id = p::transfer_preapproval(r.n),
                                 .argument = p::transfer_preapproval_value(
                                     r.n.dso_party, receiver, provider, created_at, expires_at),
                                 .signatories = {receiver, provider, r.n.dso_party}});
    r.d.set_result(
        root,
        Value::record({{"transferPreapprovalCid", Value::contract_id(r.d.contract_id_of(created))},
                       {"transferResult", free_preapproval_transfer(r, field(arg, "context"))},
                       {"amuletPaid", Value::numeric({})},
                       {"meta", Value::some(p::empty_metadata())}}));
}

// ---- TransferPreapproval_Renew and TransferPreapproval_Cancel (l.2147-2178) ----

void run_preapproval_renew(Run& r, const Target& target, ResolvedCommand& c, int parent) {
    namespace p = splice::payloads;
    const Value& arg = c.choice_argument;
    const Party receiver = field(target.argument, "receiver").text;
    const Party provider = field(target.argument, "provider").text;
    const Timestamp expires_at{field(target.argument, "expiresAt").number};
    const Timestamp new_expires_at{field(arg, "newExpiresAt").number};
    const int root = exercise_consuming(r, target, c, provider, parent);
    within_deadline(r.now, "TransferPreapproval.expiresAt", expires_at);
    require("newExpiresAt is after expiresAt", expires_at < new_expires_at);
    refuse_paid_extension(expires_at, new_expires_at);
    const Value transfer = free_preapproval_transfer(r, field(arg, "context"));
    Value renewed = target.argument;  // this with lastRenewedAt = expiresAt, expiresAt = new
    for (std::size_t i = 0; i < renewed.labels.size(); ++i) {
        if (renewed.labels[i] == "lastRenewedAt") renewed.items[i] = Value::timestamp(expires_at);
        if (renewed.labels[i] == "expiresAt") renewed.items[i] = Value::timestamp(new_expires_at);
    }
    const int created =
        r.d.add(root, store::CreateDraft{.template_id = target.template_id,
                                         .argument = std::move(renewed),
                                         .signatories = {receiver, provider, r.n.dso_party}});
    r.d.set_result(
        root,
        Value::record({{"transferPreapprovalCid", Value::contract_id(r.d.contract_id_of(created))},
                       {"transferResult", transfer},
                       {"receiver", Value::party(receiver)},
                       {"provider", Value::party(provider)},
                       {"amuletPaid", Value::numeric({})},
                       {"meta", Value::some(p::empty_metadata())}}));
}

void run_preapproval_cancel(Run& r, const Target& target, ResolvedCommand& c, int parent) {
    const Party actor = field(c.choice_argument, "p").text;
    const Party receiver = field(target.argument, "receiver").text;
    const Party provider = field(target.argument, "provider").text;
    const int root = exercise_consuming(r, target, c, actor, parent);
    // show of a Party quotes it.
    require("Controller '" + actor + "' is either receiver or provider",
            actor == receiver || actor == provider);
    within_deadline(r.now, "TransferPreapproval.expiresAt",
                    Timestamp{field(target.argument, "expiresAt").number});
    r.d.set_result(root, Value::record(std::vector<std::pair<std::string, Value>>{}));
}

// ---- TransferPreapprovalProposal_Accept (splice-wallet Splice.Wallet.TransferPreapproval) ----

// The provider accepts the receiver's proposal: AmuletRules_CreateTransferPreapproval with the
// proposal's parties, created now, under the authority of both (the proposal's signatory and
// the choice's controller).
void run_proposal_accept(Run& r, const Target& target, ResolvedCommand& c, int parent) {
    const Value& arg = c.choice_argument;
    const Party receiver = field(target.argument, "receiver").text;
    const Party provider = field(target.argument, "provider").text;
    const int root = exercise_consuming(r, target, c, provider, parent);
    const std::string rules = field(field(arg, "context"), "amuletRules").text;
    const auto [rules_state, rules_argument] = r.fetch(rules, {tpl::amulet_rules});
    ResolvedCommand create;
    create.template_id = tpl::id_of(r.n, tpl::amulet_rules);
    create.contract_id = rules;
    create.choice = "AmuletRules_CreateTransferPreapproval";
    create.choice_argument =
        Value::record({{"context", field(arg, "context")},
                       {"inputs", field(arg, "inputs")},
                       {"receiver", Value::party(receiver)},
                       {"provider", Value::party(provider)},
                       {"expiresAt", field(arg, "expiresAt")},
                       {"expectedDso", field(target.argument, "expectedDso")},
                       {"optCreatedAt", Value::some(Value::timestamp(r.now))}});
    const std::vector<Party> outer = r.act_as;
    r.act_as = {receiver, provider};
    const int child = static_cast<int>(r.d.nodes.size());
    run_create_preapproval(r,
                           Target{.contract_id = rules,
                                  .state = rules_state,
                                  .argument = rules_argument,
                                  .template_id = rules_state.contract->template_id()},
                           create, root);
    r.act_as = outer;
    const Value created = std::get<store::ExerciseDraft>(r.d.nodes[child].event).result;
    r.d.set_result(
        root, Value::record({{"transferPreapprovalCid", field(created, "transferPreapprovalCid")},
                             {"transferResult", field(created, "transferResult")},
                             {"amuletPaid", field(created, "amuletPaid")}}));
}

// ---- TransferPreapproval_Send (l.2064-2098) ----

void run_preapproval_send(Run& r, const Target& target, ResolvedCommand& c, int parent) {
    const Value& arg = c.choice_argument;
    const Party sender = field(arg, "sender").text;
    const Party receiver = field(target.argument, "receiver").text;
    const Party provider = field(target.argument, "provider").text;
    r.authorize({sender}, target.template_id);
    const int root = r.d.add(parent, store::ExerciseDraft{.contract_id = target.contract_id,
                                                          .template_id = target.template_id,
                                                          .choice = c.choice,
                                                          .argument = arg,
                                                          .consuming = false,
                                                          .acting_parties = {sender}});
    const Value& description = field(arg, "description");
    std::vector<std::pair<std::string, Value>> reason;
    if (!description.items.empty() && !description.items[0].text.empty())
        reason.emplace_back("splice.lfdecentralizedtrust.org/reason", description.items[0]);
    within_deadline(r.now, "TransferPreapproval.expiresAt",
                    Timestamp{field(target.argument, "expiresAt").number});
    const Value& payment = field(arg, "context");
    const std::string rules_cid = field(payment, "amuletRules").text;
    (void)r.fetch(rules_cid, {tpl::amulet_rules});
    // exercisePaymentTransfer: AmuletRules_Transfer with the preapproval's provider.
    const Value transfer = Value::record(
        {{"sender", Value::party(sender)},
         {"provider", Value::party(provider)},
         {"inputs", field(arg, "inputs")},
         {"outputs", Value::list({Value::record({{"receiver", Value::party(receiver)},
                                                 {"receiverFeeRatio", Value::numeric({})},
                                                 {"amount", field(arg, "amount")},
                                                 {"lock", Value::none()},
                                                 {"meta", Value::some(meta_values(reason))}})})},
         {"beneficiaries", Value::none()}});
    const Value transfer_arg =
        Value::record({{"transfer", transfer},
                       {"context", field(payment, "context")},
                       {"expectedDso", Value::some(Value::party(r.n.dso_party))}});
    TransferNodes nodes =
        amulet_transfer(r, transfer, field(payment, "context"), transfer_arg, root);
    std::vector<std::pair<std::string, Value>> meta{
        {"splice.lfdecentralizedtrust.org/sender", Value::text_value(sender)},
        {"splice.lfdecentralizedtrust.org/tx-kind", Value::text_value("transfer")}};
    meta.insert(meta.end(), reason.begin(), reason.end());
    Value result = nodes.result;
    result.items.back() = Value::none();  // the TransferResult's meta, moved to the V1 history's
    r.d.set_result(root,
                   Value::record({{"result", result}, {"meta", Value::some(meta_values(meta))}}));
}

// ---- the wallet's TransferOffer (Splice.Wallet.TransferOffer: accept, reject, withdraw) ----

void run_transfer_offer_choice(Run& r, const Target& target, ResolvedCommand& c, int parent) {
    namespace p = splice::payloads;
    const Party sender = field(target.argument, "sender").text;
    const Party receiver = field(target.argument, "receiver").text;
    const Party controller = c.choice == "TransferOffer_Withdraw" ? sender : receiver;
    const int root = exercise_consuming(r, target, c, controller, parent);
    if (c.choice == "TransferOffer_Accept") {
        require("Offer has not expired",
                r.now < Timestamp{field(target.argument, "expiresAt").number});
        const int accepted = r.d.add(
            root, store::CreateDraft{.template_id = p::accepted_transfer_offer(r.n),
                                     .argument = p::accepted_transfer_offer_value(target.argument),
                                     .signatories = {sender, receiver}});
        r.d.set_result(root, p::single("acceptedTransferOffer",
                                       Value::contract_id(r.d.contract_id_of(accepted))));
        return;
    }
    r.d.set_result(root,
                   p::single("trackingInfo",
                             Value::record({{"trackingId", field(target.argument, "trackingId")},
                                            {"sender", Value::party(sender)},
                                            {"receiver", Value::party(receiver)}})));
}

// ---- Archive: the choice every template has (controllers: its signatories) ----

void run_archive(Run& r, const Target& target, const ResolvedCommand& /*c*/, int parent) {
    std::vector<Party> signatories;
    for (const auto& s : target.state.contract->signatories) signatories.emplace_back(s.str());
    r.authorize(signatories, target.template_id);
    r.archive(target.contract_id, target.template_id, signatories, parent);
}

const std::vector<ModelledChoice>& modelled() {
    static const std::vector<ModelledChoice> choices{
        {tpl::amulet_rules, "AmuletRules_DevNet_Tap", [] { return types().tap; }, run_tap},
        {tpl::amulet_rules, "AmuletRules_Transfer", [] { return types().amulet_rules_transfer; },
         run_amulet_rules_transfer},
        {tpl::amulet_rules, "AmuletRules_CreateTransferPreapproval",
         [] { return types().create_preapproval; }, run_create_preapproval},
        {tpl::transfer_preapproval, "TransferPreapproval_Send",
         [] { return types().preapproval_send; }, run_preapproval_send},
        {tpl::transfer_preapproval, "TransferPreapproval_Renew",
         [] { return types().preapproval_renew; }, run_preapproval_renew},
        {tpl::transfer_preapproval, "TransferPreapproval_Cancel",
         [] { return types().preapproval_cancel; }, run_preapproval_cancel},
        {tpl::transfer_preapproval_proposal, "TransferPreapprovalProposal_Accept",
         [] { return types().proposal_accept; }, run_proposal_accept},
        {tpl::transfer_offer, "TransferOffer_Accept", [] { return types().no_fields; },
         run_transfer_offer_choice},
        {tpl::transfer_offer, "TransferOffer_Reject", [] { return types().no_fields; },
         run_transfer_offer_choice},
        {tpl::transfer_offer, "TransferOffer_Withdraw", [] { return types().offer_withdraw; },
         run_transfer_offer_choice},
        {tpl::transfer_factory_v1, "TransferFactory_Transfer",
         [] { return types().transfer_factory_transfer; }, run_transfer_factory},
        {tpl::transfer_instruction_v1, "TransferInstruction_Accept",
         [] { return types().transfer_instruction_choice; }, run_instruction_choice},
        {tpl::transfer_instruction_v1, "TransferInstruction_Reject",
         [] { return types().transfer_instruction_choice; }, run_instruction_choice},
        {tpl::transfer_instruction_v1, "TransferInstruction_Withdraw",
         [] { return types().transfer_instruction_choice; }, run_instruction_choice},
    };
    return choices;
}

// The templates and interfaces of the participant's packages that cantonlite knows, and which
// templates implement which interface.
struct Known {
    QualifiedRef ref;
    bool is_interface;
};

const std::vector<Known>& known_templates() {
    static const std::vector<Known> all{
        {tpl::amulet, false},
        {tpl::locked_amulet, false},
        {tpl::amulet_rules, false},
        {tpl::featured_app_right, false},
        {tpl::transfer_preapproval, false},
        {tpl::amulet_transfer_instruction, false},
        {tpl::open_mining_round, false},
        {tpl::external_party_amulet_rules, false},
        {tpl::transfer_command_counter, false},
        {tpl::dso_rules, false},
        {tpl::vote_request, false},
        {tpl::ans_entry, false},
        {tpl::wallet_app_install, false},
        {tpl::transfer_offer, false},
        {tpl::accepted_transfer_offer, false},
        {tpl::transfer_preapproval_proposal, false},
        {tpl::buy_traffic_request, false},
        {tpl::holding_v1, true},
        {tpl::transfer_factory_v1, true},
        {tpl::transfer_instruction_v1, true},
        {tpl::allocation_instruction_v1, true},
        {tpl::allocation_v1, true},
        {tpl::allocation_request_v1, true},
        {tpl::allocation_factory_v1, true},
    };
    return all;
}

bool implements(const model::TemplateId& t, const QualifiedRef& interface) {
    if (tpl::is_same(interface, tpl::holding_v1))
        return tpl::is(t, tpl::amulet) || tpl::is(t, tpl::locked_amulet);
    if (tpl::is_same(interface, tpl::transfer_factory_v1))
        return tpl::is(t, tpl::external_party_amulet_rules);
    if (tpl::is_same(interface, tpl::transfer_instruction_v1))
        return tpl::is(t, tpl::amulet_transfer_instruction);
    return false;
}

std::string text_of(const nlohmann::json& o, std::string_view key) {
    const auto it = o.find(key);
    return it != o.end() && it->is_string() ? it->get<std::string>() : std::string();
}

const nlohmann::json& member_of(const nlohmann::json& o, std::string_view key) {
    static const nlohmann::json null;
    const auto it = o.find(key);
    return it == o.end() ? null : *it;
}

// A package id as Daml-LF takes one: 1 to 64 of [A-Za-z0-9-_ ].
bool lf_package_id(std::string_view s) {
    return !s.empty() && s.size() <= 64 && std::all_of(s.begin(), s.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '-' || c == '_' || c == ' ';
    });
}

// A package name: [A-Za-z0-9] then [A-Za-z0-9._-].
bool lf_package_name(std::string_view s) {
    return !s.empty() && std::isalnum(static_cast<unsigned char>(s.front())) != 0 &&
           std::all_of(s.begin(), s.end(), [](char c) {
               return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '-' || c == '_' ||
                      c == '.';
           });
}

[[noreturn]] void invalid_argument(const std::string& what) {
    throw CommandError("INVALID_ARGUMENT", 8,
                       "The submitted request has invalid arguments: " + what);
}

// The template or interface a templateId names ("#name:M:E" or "<package id>:M:E").
Known resolve_template(const model::Network& n, const std::string& id, const std::string& act_as) {
    const std::size_t a = id.find(':');
    const std::size_t b = id.find(':', a + 1);
    const std::string package = id.substr(0, a);
    const std::string module = id.substr(a + 1, b - a - 1);
    const std::string entity = id.substr(b + 1);
    std::string package_name;
    std::string package_id;
    if (!package.empty() && package.front() == '#') {
        package_name = package.substr(1);
        if (!lf_package_name(package_name)) {
            invalid_argument("Value does not match the package-id or package-name formats: " +
                             package);
        }
        const auto it = n.package_ids.find(package_name);
        if (it == n.package_ids.end()) {
            throw CommandError(
                "JSON_API_PACKAGE_SELECTION_FAILED", 9,
                "No package with package-name '" + package_name +
                    "' is consistently vetted by all hosting participants of party " + act_as +
                    ".");
        }
        package_id = it->second;
    } else {
        if (!lf_package_id(package)) {
            invalid_argument("Value does not match the package-id or package-name formats: " +
                             package);
        }
        package_id = package;
        for (const auto& [name, pid] : n.package_ids) {
            if (pid == package) package_name = name;
        }
    }
    for (const Known& k : known_templates()) {
        if (!package_name.empty() && k.ref.names(package_name, module, entity)) return k;
    }
    const std::string full = package_id + ":" + module + ":" + entity;
    throw CommandError("TEMPLATES_OR_INTERFACES_NOT_FOUND", 11,
                       "Templates do not exist: [" + full + "].", {}, {{"TEMPLATE_ID", full}});
}

model::Value decode_argument(const nlohmann::json& json, const LfType& type) {
    try {
        static const nlohmann::json empty = nlohmann::json::object();
        return model::decode_lf_json(json.is_null() ? empty : json, type);
    } catch (const model::LfDecodeError& e) {
        if (e.kind() == model::LfDecodeError::Kind::missing_fields)
            throw CommandError("COMMAND_PREPROCESSING_FAILED", 8, e.what()).from_json_layer();
        throw CommandError("INVALID_ARGUMENT", 8,
                           std::string("The submitted request has invalid arguments: ") + e.what())
            .from_json_layer();
    }
}

std::string creatable_list();

std::string modelled_list() {
    std::string out;
    for (const std::string& c : modelled_choices()) out += (out.empty() ? "" : ", ") + c;
    return out;
}

// ---- CreateCommand: the templates a command may create, with their signatories, observers and
// `ensure` (Amulet.daml, AmuletRules.daml, ExternalPartyAmuletRules.daml, TransferOffer.daml) ----

struct Creatable {
    QualifiedRef ref;
    const LfType* (*argument)();
    std::vector<Party> (*signatories)(const Value&);
    std::vector<Party> (*observers)(const Value&);
    bool (*ensure)(const Value&);
};

const LfType* payment_amount_type() {
    static const LfType* t =
        LfType::record("Splice.Wallet.Payment:PaymentAmount",
                       {{"amount", LfType::numeric()},
                        {"unit", LfType::enumeration("Splice.Wallet.Payment:Unit",
                                                     {"USDUnit", "AmuletUnit", "ExtUnit"})}});
    return t;
}

std::vector<Party> no_parties(const Value& /*argument*/) {
    return {};
}
std::vector<Party> parties_of(const Value& argument,
                              std::initializer_list<std::string_view> names) {
    std::vector<Party> out;
    for (const std::string_view n : names) out.push_back(field(argument, n).text);
    return out;
}
bool always(const Value& /*argument*/) {
    return true;
}

const std::vector<Creatable>& creatable() {
    static const std::vector<Creatable> all{
        {tpl::amulet,
         [] {
             static const LfType* round =
                 LfType::record("Splice.Types:Round", {{"number", LfType::int64()}});
             static const LfType* t = LfType::record(
                 "Splice.Amulet:Amulet",
                 {{"dso", LfType::party()},
                  {"owner", LfType::party()},
                  {"amount", LfType::record("Splice.Fees:ExpiringAmount",
                                            {{"initialAmount", LfType::numeric()},
                                             {"createdAt", round},
                                             {"ratePerRound",
                                              LfType::record("Splice.Fees:RatePerRound",
                                                             {{"rate", LfType::numeric()}})}})}});
             return t;
         },
         [](const Value& a) {
             return parties_of(a, {"dso", "owner"});
         },
         no_parties,
         [](const Value& a) {
             // validExpiringAmount
             const Value& amount = field(a, "amount");
             return model::Decimal() < field(amount, "initialAmount").decimal &&
                    !(field(field(amount, "ratePerRound"), "rate").decimal < model::Decimal()) &&
                    field(field(amount, "createdAt"), "number").number >= 0;
         }},
        {tpl::transfer_preapproval,
         [] {
             static const LfType* t = LfType::record("Splice.AmuletRules:TransferPreapproval",
                                                     {{"dso", LfType::party()},
                                                      {"receiver", LfType::party()},
                                                      {"provider", LfType::party()},
                                                      {"validFrom", LfType::timestamp()},
                                                      {"lastRenewedAt", LfType::timestamp()},
                                                      {"expiresAt", LfType::timestamp()}});
             return t;
         },
         [](const Value& a) {
             return parties_of(a, {"receiver", "provider", "dso"});
         },
         no_parties,
         [](const Value& a) {
             const std::int64_t from = field(a, "validFrom").number;
             return field(a, "expiresAt").number > from && field(a, "lastRenewedAt").number >= from;
         }},
        {tpl::transfer_preapproval_proposal,
         [] {
             static const LfType* t =
                 LfType::record("Splice.Wallet.TransferPreapproval:TransferPreapprovalProposal",
                                {{"receiver", LfType::party()},
                                 {"provider", LfType::party()},
                                 {"expectedDso", LfType::optional(LfType::party())}});
             return t;
         },
         [](const Value& a) { return parties_of(a, {"receiver"}); },
         [](const Value& a) { return parties_of(a, {"provider"}); }, always},
        {tpl::external_party_amulet_rules,
         [] {
             static const LfType* t =
                 LfType::record("Splice.ExternalPartyAmuletRules:ExternalPartyAmuletRules",
                                {{"dso", LfType::party()}});
             return t;
         },
         [](const Value& a) { return parties_of(a, {"dso"}); }, no_parties, always},
        {tpl::transfer_offer,
         [] {
             static const LfType* t = LfType::record("Splice.Wallet.TransferOffer:TransferOffer",
                                                     {{"sender", LfType::party()},
                                                      {"receiver", LfType::party()},
                                                      {"dso", LfType::party()},
                                                      {"amount", payment_amount_type()},
                                                      {"description", LfType::text()},
                                                      {"expiresAt", LfType::timestamp()},
                                                      {"trackingId", LfType::text()}});
             return t;
         },
         [](const Value& a) { return parties_of(a, {"sender"}); },
         [](const Value& a) { return parties_of(a, {"receiver"}); },
         [](const Value& a) {
             // DA.Text.length counts code points.
             const auto length = [](const std::string& t) {
                 return std::count_if(t.begin(), t.end(), [](char c) {
                     return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
                 });
             };
             return length(field(a, "description").text) < 280 &&
                    length(field(a, "trackingId").text) < 280;
         }},
        {tpl::accepted_transfer_offer,
         [] {
             static const LfType* t =
                 LfType::record("Splice.Wallet.TransferOffer:AcceptedTransferOffer",
                                {{"sender", LfType::party()},
                                 {"receiver", LfType::party()},
                                 {"dso", LfType::party()},
                                 {"amount", payment_amount_type()},
                                 {"expiresAt", LfType::timestamp()},
                                 {"trackingId", LfType::text()}});
             return t;
         },
         [](const Value& a) {
             return parties_of(a, {"sender", "receiver"});
         },
         no_parties, always},
    };
    return all;
}

const Creatable* creatable_of(const QualifiedRef& ref) {
    for (const Creatable& c : creatable()) {
        if (tpl::is_same(c.ref, ref)) return &c;
    }
    return nullptr;
}

// A CreateCommand: the signatories' authority, the template's `ensure`, the contract. Returns
// its node.
int run_create(Run& r, const ResolvedCommand& c, const Creatable& spec) {
    const std::vector<Party> signatories = spec.signatories(c.create_argument);
    r.authorize(signatories, c.template_id);
    if (!spec.ensure(c.create_argument)) {
        throw CommandError("TEMPLATE_PRECONDITION_VIOLATED", 8,
                           "Interpretation error: Error: Update failed due to precondition "
                           "violation when creating " +
                               c.template_id.to_string());
    }
    return r.d.add(-1, store::CreateDraft{.template_id = c.template_id,
                                          .argument = c.create_argument,
                                          .signatories = signatories,
                                          .observers = spec.observers(c.create_argument)});
}

// The choice of an exercise or a create-and-exercise command on its contract, as a new root.
void run_choice(Run& r, const Target& target, ResolvedCommand& c, const QualifiedRef& named) {
    if (c.choice == "Archive" && !c.is_interface) return run_archive(r, target, c, -1);
    for (const ModelledChoice& m : modelled()) {
        if (tpl::is_same(m.on, named) && m.choice == c.choice) m.run(r, target, c, -1);
    }
}

std::string creatable_list() {
    std::string out;
    for (const Creatable& c : creatable()) {
        out += (out.empty() ? "" : ", ") + std::string(c.ref.module_name) + ":" +
               std::string(c.ref.entity_name);
    }
    return out;
}

}  // namespace commands_impl

using namespace commands_impl;

std::vector<std::string> modelled_choices() {
    std::vector<std::string> out;
    for (const ModelledChoice& c : modelled()) {
        out.push_back(std::string(c.on.module_name) + ":" + std::string(c.on.entity_name) + "." +
                      std::string(c.choice));
    }
    out.emplace_back("<any template>.Archive");
    return out;
}

std::vector<ResolvedCommand> resolve_commands(const model::Network& n,
                                              const nlohmann::json& commands,
                                              const std::string& first_act_as) {
    std::vector<ResolvedCommand> out;
    for (const nlohmann::json& wrapper : commands) {
        // (items()'s iterator dereferences to itself: bind nothing to it.)
        const std::string kind = wrapper.begin().key();
        const nlohmann::json& body = wrapper.begin().value();
        ResolvedCommand c;
        c.kind = kind == "CreateCommand"              ? ResolvedCommand::Kind::create
                 : kind == "CreateAndExerciseCommand" ? ResolvedCommand::Kind::create_and_exercise
                                                      : ResolvedCommand::Kind::exercise;
        const Known known = resolve_template(n, text_of(body, "templateId"), first_act_as);
        c.template_id = tpl::id_of(n, known.ref);
        c.is_interface = known.is_interface;
        if (kind == "ExerciseByKeyCommand") {
            // No Splice or token-standard template has a contract key: the engine's preprocessor
            // finds none (daml-lf LookupError.TemplateKey).
            throw CommandError("COMMAND_PREPROCESSING_FAILED", 8,
                               "unknown template key " + c.template_id.to_string());
        }
        if (c.kind != ResolvedCommand::Kind::exercise) {
            const Creatable* spec = known.is_interface ? nullptr : creatable_of(known.ref);
            if (spec == nullptr) {
                // The other templates are the products of the choices it models
                // (docs/commands.md).
                throw CommandError("COMMAND_PREPROCESSING_FAILED", 8,
                                   "cantonlite does not model creating " +
                                       c.template_id.to_string() + " by command; it creates " +
                                       creatable_list() +
                                       ", and runs these choices: " + modelled_list())
                    .from_json_layer();
            }
            c.create_argument =
                decode_argument(member_of(body, "createArguments"), *spec->argument());
            if (c.kind == ResolvedCommand::Kind::create) {
                out.push_back(std::move(c));
                continue;
            }
        } else {
            c.contract_id = text_of(body, "contractId");
        }
        c.choice = text_of(body, "choice");
        const LfType* type = nullptr;
        for (const ModelledChoice& m : modelled()) {
            if (tpl::is_same(m.on, known.ref) && m.choice == c.choice) type = m.argument();
        }
        if (type == nullptr && c.choice == "Archive" && !known.is_interface) type = types().archive;
        if (type == nullptr) {
            invalid_argument(
                "Invalid template:" + c.template_id.to_string() + " or choice:" + c.choice +
                " (cantonlite does not model this choice; it runs " + modelled_list() + ")");
        }
        c.choice_argument = decode_argument(member_of(body, "choiceArgument"), *type);
        out.push_back(std::move(c));
    }
    return out;
}

// The transaction the step's commands make at `now`, not committed.
store::TransactionDraft interpret_submission(SeedContext& ctx, const JsonObject& s,
                                             const std::vector<Party>& act_as,
                                             const std::vector<Party>& read_as, Timestamp now,
                                             const std::string& contract_id_salt) {
    const model::Network& n = ctx.network();
    std::vector<ResolvedCommand> commands = ctx.take_resolved_commands();
    if (commands.empty())
        commands =
            resolve_commands(n, s.value().at("commands"), act_as.empty() ? "" : act_as.front());
    auto d = ctx.draft(s, act_as, now);
    d.contract_id_salt = contract_id_salt;
    Run r{.ctx = ctx, .n = n, .d = d, .now = now, .act_as = act_as, .readers = act_as};
    r.readers.insert(r.readers.end(), read_as.begin(), read_as.end());
    if (s.has("disclosed")) {
        for (const auto& cid : s.value().at("disclosed"))
            r.disclosed.insert(cid.get<std::string>());
    }
    for (ResolvedCommand& c : commands) {
        const QualifiedRef named{c.template_id.package_name.view(),
                                 c.template_id.module_name.view(),
                                 c.template_id.entity_name.view()};
        if (c.kind != ResolvedCommand::Kind::exercise) {
            const Creatable& spec = *creatable_of(named);
            const int node = run_create(r, c, spec);
            if (c.kind == ResolvedCommand::Kind::create) continue;
            // The choice on the contract just created: known to its submitters, of its template.
            const std::string cid = d.contract_id_of(node);
            const auto& created = std::get<store::CreateDraft>(d.nodes[node].event);
            const Target target{
                .contract_id = cid,
                .state = store::ContractState{.contract = model::make_contract(
                                                  cid, c.template_id, c.create_argument,
                                                  created.signatories, created.observers, now)},
                .argument = c.create_argument,
                .template_id = c.template_id};
            run_choice(r, target, c, named);
            continue;
        }
        // The exercised contract: active, and known to the submitters (a stakeholder among them)
        // or disclosed with the command.
        const auto state = ctx.store().contract(c.contract_id);
        if (!state || state->archived_offset() || r.consumed.contains(c.contract_id))
            contract_not_found(c.contract_id);
        const bool visible = r.disclosed.contains(c.contract_id) ||
                             std::any_of(r.readers.begin(), r.readers.end(), [&](const Party& p) {
                                 const auto name = model::Name::find(p);
                                 return name && state->contract->stakeholders.contains(*name);
                             });
        if (!visible) contract_not_found(c.contract_id);
        Target target{.contract_id = c.contract_id,
                      .state = *state,
                      .argument = model::unpack(state->contract->argument),
                      .template_id = state->contract->template_id()};
        if (c.is_interface ? !implements(target.template_id, named)
                           : !tpl::is(target.template_id, named)) {
            throw CommandError(
                c.is_interface ? "CONTRACT_DOES_NOT_IMPLEMENT_INTERFACE" : "WRONGLY_TYPED_CONTRACT",
                c.is_interface ? 8 : 9,
                c.is_interface
                    ? "Interpretation error: Error: Update failed due to contract " +
                          c.contract_id + " (" + target.template_id.to_string() +
                          ") not implementing an interface " + c.template_id.to_string()
                    : "Interpretation error: Error: Update failed due to wrongly typed contract "
                      "id " +
                          c.contract_id + " Expected contract of type " +
                          c.template_id.to_string() + " but got " + target.template_id.to_string(),
                {}, {{"CONTRACT_ID", c.contract_id}});
        }
        run_choice(r, target, c, named);
    }
    return d;
}

CommandDeduplication deduplication_of(const JsonObject& s) {
    CommandDeduplication d;
    if (s.has("deduplication")) {
        const nlohmann::json& p = s.value().at("deduplication");
        d.kind = p.at("kind").get<std::string>();
        d.value = p.at("value").get<std::int64_t>();
        d.nanos = p.value("nanos", 0);
    }
    return d;
}

void refuse_duplicate(const SeedContext& ctx, const std::string& user_id,
                      const std::string& command_id, const std::vector<Party>& act_as,
                      const CommandDeduplication& dedup, Timestamp now) {
    const auto previous = ctx.store().latest_completion(user_id, command_id, act_as);
    if (!previous) return;
    bool duplicate = false;
    if (dedup.kind == "offset") {
        duplicate = previous->offset > dedup.value;
    } else {
        // The period's length in seconds (a duration of any size: no overflow), and whether
        // the earlier command falls within it.
        const std::int64_t seconds =
            dedup.kind == "duration" ? dedup.value : max_deduplication_seconds;
        const std::int64_t nanos = dedup.kind == "duration" ? dedup.nanos : 0;
        const std::int64_t ago = now.micros - previous->record_time.micros;  // >= 0
        duplicate = ago / 1'000'000 < seconds ||
                    (ago / 1'000'000 == seconds && (ago % 1'000'000) * 1000 < nanos);
    }
    if (!duplicate) return;
    std::vector<Party> parties = act_as;
    std::sort(parties.begin(), parties.end());
    std::string set;
    for (const Party& p : parties) set += (set.empty() ? "" : ", ") + p;
    throw CommandError(
        "DUPLICATE_COMMAND", 10, "Command submission already exists.",
        {{"changeId", "ChangeId(" + user_id + "," + command_id + ",Set(" + set + "))"},
         {"completion_offset", std::to_string(previous->offset)},
         {"accepted", "true"},
         {"existingSubmissionId",
          previous->submission_id.empty() ? "None" : "Some(" + previous->submission_id + ")"},
         {"definite_answer", "true"}});
}

void commit_command(SeedContext& ctx, const store::TransactionDraft& d, const std::string& user_id,
                    const std::string& submission_id, const CommandDeduplication& dedup) {
    ctx.commit(d);
    ctx.store().add_completion(store::CommandCompletion{.offset = d.offset,
                                                        .user_id = user_id,
                                                        .command_id = d.command_id,
                                                        .submission_id = submission_id,
                                                        .act_as = d.submitters,
                                                        .record_time = d.record_time,
                                                        .deduplication_kind = dedup.kind,
                                                        .deduplication_value = dedup.value,
                                                        .deduplication_nanos = dedup.nanos});
}

void submit_commands(SeedContext& ctx, const JsonObject& s) {
    allow_keys(s, Commits::transaction,
               {"user_id", "act_as", "read_as", "submission_id", "deduplication", "disclosed",
                "commands"});
    const std::string user_id = s.string("user_id");
    const std::string command_id = s.optional_string("command_id").value_or("");
    const std::vector<Party> act_as = s.value().at("act_as").get<std::vector<Party>>();
    std::vector<Party> read_as;
    if (s.has("read_as")) read_as = s.value().at("read_as").get<std::vector<Party>>();
    const Timestamp now{ctx.store().now().micros + 1};
    // Command deduplication (CommandDeduplicator): an accepted command of the same change id
    // within the period.
    const CommandDeduplication dedup = deduplication_of(s);
    refuse_duplicate(ctx, user_id, command_id, act_as, dedup, now);
    store::TransactionDraft d = interpret_submission(ctx, s, act_as, read_as, now, "");
    commit_command(ctx, d, user_id, s.optional_string("submission_id").value_or(""), dedup);
    ctx.retire(std::move(d));
}

bool automation_accept_transfer_preapproval_proposal(SeedContext& ctx,
                                                     const std::string& proposal) {
    const model::Network& n = ctx.network();
    const auto state = ctx.store().contract(proposal);
    if (!state || state->archived_offset()) return false;
    const Value argument = model::unpack(state->contract->argument);
    const Party receiver = field(argument, "receiver").text;
    if (field(argument, "provider").text != n.validator_party)
        return false;  // not this validator's
    const splice::SpliceViews& views = splice::views(ctx.store());
    if (views.transfer_preapproval_of(receiver)) return false;  // one exists already
    const Timestamp now{ctx.store().now().micros + 1};
    const auto round = views.latest_usable_open_round(now);
    if (!round) return false;
    // The validator's wallet user submits, as its treasury does; its preapprovalLifetime: 90 days.
    std::string user = "validator";
    for (const model::User& u : n.users) {
        if (u.party == n.validator_party) user = u.id;
    }
    constexpr std::int64_t lifetime = 90LL * 24 * 3600 * 1'000'000;
    const std::string rules = ctx.amulet_rules;
    const std::string round_id = round->contract->contract_id.str();
    nlohmann::json step{
        {"step", "submit"},
        {"user_id", user},
        {"command_id",
         "org.lfdecentralizedtrust.splice.validator.acceptTransferPreapprovalProposal_" + receiver},
        {"act_as", nlohmann::json::array({n.validator_party})},
        {"disclosed", nlohmann::json::array({rules, round_id})},
        {"commands",
         nlohmann::json::array(
             {{{"ExerciseCommand",
                {{"templateId", state->contract->template_id().to_string()},
                 {"contractId", proposal},
                 {"choice", "TransferPreapprovalProposal_Accept"},
                 {"choiceArgument",
                  {{"context",
                    {{"amuletRules", rules},
                     {"context",
                      {{"openMiningRound", round_id},
                       {"issuingMiningRounds", nlohmann::json::array()},
                       {"validatorRights", nlohmann::json::array()},
                       {"featuredAppRight", nullptr}}}}},
                   {"inputs", nlohmann::json::array()},
                   {"expiresAt", model::format_instant(Timestamp{now.micros + lifetime})}}}}}}})}};
    try {
        submit_commands(ctx, JsonObject(step, ""));  // commits all or nothing
    } catch (const CommandError&) {
        return false;  // the trigger would log it and try again later
    }
    return true;
}

store::TransactionDraft interpret_commands(SeedContext& ctx, const nlohmann::json& step,
                                           Timestamp now, const std::string& contract_id_salt) {
    const JsonObject s(step, "");
    const std::vector<Party> act_as = s.value().at("act_as").get<std::vector<Party>>();
    std::vector<Party> read_as;
    if (s.has("read_as")) read_as = s.value().at("read_as").get<std::vector<Party>>();
    return interpret_submission(ctx, s, act_as, read_as, now, contract_id_salt);
}

}  // namespace cantonlite::seed
