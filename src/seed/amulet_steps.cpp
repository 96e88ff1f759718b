// Steps on amulets: mint, lock, unlock, transfer (docs/seed-format.md "Amulet").
#include <algorithm>
#include <optional>

#include "cantonlite/splice/payloads.hpp"
#include "cantonlite/splice/splice_views.hpp"
#include "steps.hpp"

namespace cantonlite::seed {

namespace p = splice::payloads;
using model::Name;
using store::CreateDraft;
using store::ExerciseDraft;

const model::Decimal default_holding_rate = *model::Decimal::parse("0.0000190259");

namespace {

Lock read_lock(const SeedContext& ctx, const JsonObject& o) {
    o.reject_unknown_keys({"holders", "expires_at", "context"});
    Lock lock{.holders = ctx.parties(o, "holders"),
              .expires_at = o.timestamp("expires_at"),
              .context = o.optional_string("context")};
    if (lock.holders.empty())
        throw model::JsonFieldError(o.pointer_of("holders"), "needs at least one lock holder");
    return lock;
}

// The sum of `inputs` (active amulets of `sender`). Throws at an input's pointer.
model::Decimal input_total(const SeedContext& ctx, const Party& sender,
                           const std::vector<std::pair<std::string, std::string>>& inputs) {
    model::Decimal in;
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        for (std::size_t k = 0; k < i; ++k) {
            if (inputs[k].first == inputs[i].first)
                throw model::JsonFieldError(inputs[i].second, "appears twice");
        }
    }
    for (const auto& [cid, pointer] : inputs) {
        const Value& amulet = ctx.argument_of(cid, "Amulet", pointer);
        const std::string& owner = field_at(amulet, {"owner"}, pointer).text;
        if (owner != sender) {
            throw model::JsonFieldError(
                pointer, "amulet " + cid + " is owned by " + owner + ", not by " + sender);
        }
        in = in + field_at(amulet, {"amount", "initialAmount"}, pointer).decimal;
    }
    return in;
}

}  // namespace

// Archives `inputs` (amulets of `sender`) under `parent`, as a transfer consumes them.
void add_input_archives(const model::Network& n, store::TransactionDraft& d, int parent,
                        const Party& sender,
                        const std::vector<std::pair<std::string, std::string>>& inputs) {
    for (const auto& [cid, _] : inputs) {
        d.add(parent, ExerciseDraft{.contract_id = cid,
                                    .template_id = p::amulet(n),
                                    .choice = "Archive",
                                    .argument = p::empty_record(),
                                    .consuming = true,
                                    .acting_parties = {n.dso_party, sender},
                                    .result = Value::unit()});
    }
}

TransferNodes add_transfer(const SeedContext& ctx, store::TransactionDraft& d, int parent,
                           const Party& sender, const Party& provider, std::vector<Party> actors,
                           const std::vector<std::pair<std::string, std::string>>& inputs,
                           model::Decimal in, const std::vector<Output>& outputs,
                           const Value* argument) {
    const model::Network& n = ctx.network();
    model::Decimal out;
    for (const Output& o : outputs) out = out + o.amount;
    const std::int64_t round = ctx.round_at(d.record_time);
    std::vector<Value> input_values, output_values;
    for (const auto& [cid, _] : inputs)
        input_values.push_back(Value::variant("InputAmulet", Value::contract_id(cid)));
    for (const Output& o : outputs) {
        output_values.push_back(Value::record(
            {{"receiver", Value::party(o.receiver)},
             {"receiverFeeRatio", Value::numeric(model::Decimal())},
             {"amount", Value::numeric(o.amount)},
             {"lock", o.lock ? Value::some(p::time_lock(o.lock->holders, o.lock->expires_at,
                                                        o.lock->context))
                             : Value::none()}}));
    }
    TransferNodes nodes;
    nodes.root = d.add(
        parent,
        ExerciseDraft{
            .contract_id = ctx.amulet_rules,
            .template_id = p::amulet_rules(n),
            .choice = "AmuletRules_Transfer",
            .argument = argument != nullptr
                            ? *argument
                            : p::single("transfer",
                                        Value::record(
                                            {{"sender", Value::party(sender)},
                                             {"provider", Value::party(provider)},
                                             {"inputs", Value::list(std::move(input_values))},
                                             {"outputs", Value::list(std::move(output_values))}})),
            .consuming = false,
            .acting_parties = std::move(actors)});
    add_input_archives(n, d, nodes.root, sender, inputs);
    std::vector<Value> created;
    for (const Output& o : outputs) {
        std::vector<Party> signatories{n.dso_party, o.receiver};
        int node = 0;
        if (o.lock) {
            signatories.insert(signatories.end(), o.lock->holders.begin(), o.lock->holders.end());
            node = d.add(nodes.root,
                         CreateDraft{.template_id = p::locked_amulet(n),
                                     .argument = p::locked_amulet_value(
                                         p::amulet_value(n.dso_party, o.receiver, o.amount, round,
                                                         default_holding_rate),
                                         o.lock->holders, o.lock->expires_at, o.lock->context),
                                     .signatories = signatories});
        } else {
            node = d.add(nodes.root, CreateDraft{.template_id = p::amulet(n),
                                                 .signatories = signatories,
                                                 .packed_argument = p::amulet_packed(
                                                     n.dso_party, o.receiver, o.amount, round,
                                                     default_holding_rate)});
        }
        created.push_back(
            Value::variant(o.lock ? "TransferResultLockedAmulet" : "TransferResultAmulet",
                           Value::contract_id(d.contract_id_of(node))));
        if (o.label) nodes.labels.emplace_back(*o.label, d.contract_id_of(node));
    }
    std::optional<Value> change;
    if (in > out) {
        const int node =
            d.add(nodes.root,
                  CreateDraft{.template_id = p::amulet(n),
                              .signatories = {n.dso_party, sender},
                              .packed_argument = p::amulet_packed(n.dso_party, sender, in - out,
                                                                  round, default_holding_rate)});
        nodes.change = d.contract_id_of(node);
        change = Value::contract_id(*nodes.change);
    }
    // Splice's executeTransfer: a merge-split when every output stays the sender's (unlocked, or
    // locked to the sender alone), else a transfer naming the sender. No fee is charged here, so
    // nothing is burned.
    const bool merge_split = std::ranges::all_of(outputs, [&](const Output& o) {
        return o.receiver == sender &&
               (!o.lock ||
                std::ranges::all_of(o.lock->holders, [&](const Party& h) { return h == sender; }));
    });
    const Value meta = merge_split ? p::holding_tx_meta(p::TxKind::merge_split, std::nullopt,
                                                        std::nullopt, model::Decimal())
                                   : p::holding_tx_meta(p::TxKind::transfer, std::nullopt, sender,
                                                        model::Decimal());
    nodes.result = Value::record({{"round", p::single("number", Value::int64(round))},
                                  {"createdAmulets", Value::list(std::move(created))},
                                  {"senderChangeAmulet", Value::optional(std::move(change))},
                                  {"meta", Value::some(meta)}});
    d.set_result(nodes.root, nodes.result);
    return nodes;
}

namespace {

// Archives `inputs` (amulets of `sender`) and creates `outputs` plus the sender's change, under
// AmuletRules_Transfer, as the real transfer does (without fees).
void commit_transfer(
    SeedContext& ctx, const JsonObject& step, const Party& sender,
    const std::vector<std::pair<std::string, std::string>>& inputs,  // (cid, pointer)
    const std::vector<Output>& outputs, const std::string& outputs_pointer) {
    const model::Decimal in = input_total(ctx, sender, inputs);
    model::Decimal out;
    for (const Output& o : outputs) out = out + o.amount;
    if (out > in) {
        throw model::JsonFieldError(outputs_pointer, "the outputs (" + out.to_compact_string() +
                                                         ") exceed the inputs (" +
                                                         in.to_compact_string() + ")");
    }
    auto d = ctx.draft(step, {sender}, ctx.step_time(step));
    TransferNodes nodes = add_transfer(ctx, d, -1, sender, sender, {sender}, inputs, in, outputs);
    ctx.commit(d);
    for (const auto& [label, cid] : nodes.labels) ctx.set_label(label, cid);
    if (nodes.change) {
        if (const auto l = step.optional_string("change_as")) ctx.set_label(*l, *nodes.change);
    }
}

}  // namespace

MintFields::MintFields(const JsonObject& step)
    : keys([&] {
          allow_keys(step, Commits::transaction,
                     {"owner", "amount", "round", "rate_per_round", "as"});
          return true;
      }),
      amount([&] { return decimal_field(step, "amount", true); }),
      at([&] { return step.optional_timestamp("at"); }),
      round([&] { return step.optional_integer("round", 0, std::int64_t{1} << 53); }),
      rate([&] { return optional_decimal(step, "rate_per_round", default_holding_rate); }),
      command_id([&] { return step.optional_string("command_id").value_or(""); }),
      workflow_id([&] { return step.optional_string("workflow_id").value_or(""); }),
      as([&] { return step.optional_string("as"); }) {
    const auto it = step.value().find("owner");
    if (it != step.value().end()) owner = &*it;
}

bool is_mint(const nlohmann::json& step) {
    if (!step.is_object()) return false;
    const auto it = step.find("step");
    return it != step.end() && it->is_string() && it->get_ref<const std::string&>() == "mint";
}

void mint(SeedContext& ctx, const JsonObject& s) {
    mint(ctx, s, MintFields(s));
}

void mint(SeedContext& ctx, const JsonObject& s, const MintFields& f) {
    // In the order the fields were read in place, each read's error where it was thrown.
    (void)f.keys.get();
    const model::Network& n = ctx.network();
    const Party owner = ctx.party_at(f.owner, s, "owner");
    const model::Decimal amount = f.amount.get();
    const Timestamp t = ctx.step_time_at(f.at.get(), s);
    const std::int64_t round = f.round.get().value_or(ctx.round_at(t));
    const model::Decimal rate = f.rate.get();
    // A large seed is mostly mints: their values are written packed, with no Value tree.
    p::TapFacts facts{.receiver = Name(owner), .amount = amount};
    std::string command_id = f.command_id.get();
    auto d = ctx.draft(std::move(command_id), f.workflow_id.get(), {owner}, t);
    const int tap = d.add(-1, ExerciseDraft{.contract_id = ctx.amulet_rules,
                                            .template_id = p::amulet_rules(n),
                                            .choice = std::string(p::TapFacts::choice),
                                            .consuming = false,
                                            .acting_parties = {owner},
                                            .packed_argument = facts.argument()});
    const int created = d.add(tap, CreateDraft{.template_id = p::amulet(n),
                                               .signatories = {n.dso_party, owner},
                                               .packed_argument = p::amulet_packed(
                                                   n.dso_party, owner, amount, round, rate)});
    const std::string cid = d.contract_id_of(created);
    facts.amulet = Name(cid);
    d.set_result(tap, facts.result());
    ctx.commit(d);
    if (const std::optional<std::string>& as = f.as.get()) ctx.set_label(Name(*as), facts.amulet);
}

void lock(SeedContext& ctx, const JsonObject& s) {
    allow_keys(s, Commits::transaction,
               {"amulet", "amount", "holders", "expires_at", "context", "change_as", "as"});
    const std::string cid = ctx.contract(s, "amulet");
    const Value& amulet = ctx.argument_of(cid, "Amulet", s.pointer_of("amulet"));
    const Party owner = field_at(amulet, {"owner"}, s.pointer_of("amulet")).text;
    const model::Decimal all =
        field_at(amulet, {"amount", "initialAmount"}, s.pointer_of("amulet")).decimal;
    const model::Decimal amount = optional_decimal(s, "amount", all);
    if (amount > all) {
        throw model::JsonFieldError(s.pointer_of("amount"), "the amount (" +
                                                                amount.to_compact_string() +
                                                                ") exceeds the amulet's amount (" +
                                                                all.to_compact_string() + ")");
    }
    Output out{.receiver = owner,
               .amount = amount,
               .lock = Lock{.holders = ctx.parties(s, "holders"),
                            .expires_at = s.timestamp("expires_at"),
                            .context = s.optional_string("context")},
               .label = s.optional_string("as")};
    if (out.lock->holders.empty())
        throw model::JsonFieldError(s.pointer_of("holders"), "needs at least one lock holder");
    commit_transfer(ctx, s, owner, {{cid, s.pointer_of("amulet")}}, {out}, s.pointer_of("amount"));
}

void unlock(SeedContext& ctx, const JsonObject& s) {
    allow_keys(s, Commits::transaction, {"locked_amulet", "as"});
    const model::Network& n = ctx.network();
    const std::string cid = ctx.contract(s, "locked_amulet");
    const std::string pointer = s.pointer_of("locked_amulet");
    const Value& locked = ctx.argument_of(cid, "LockedAmulet", pointer);
    const Party owner = field_at(locked, {"amulet", "owner"}, pointer).text;
    std::vector<Party> actors{owner};
    for (const Value& h : field_at(locked, {"lock", "holders"}, pointer).items)
        actors.push_back(h.text);
    const Timestamp t = ctx.step_time(s);
    const model::Decimal amount =
        field_at(locked, {"amulet", "amount", "initialAmount"}, pointer).decimal;
    const model::Decimal rate =
        field_at(locked, {"amulet", "amount", "ratePerRound", "rate"}, pointer).decimal;
    auto d = ctx.draft(s, actors, t);
    const int root = d.add(-1, ExerciseDraft{.contract_id = cid,
                                             .template_id = p::locked_amulet(n),
                                             .choice = "LockedAmulet_Unlock",
                                             .argument = p::empty_record(),
                                             .consuming = true,
                                             .acting_parties = actors});
    const int created = d.add(
        root,
        CreateDraft{.template_id = p::amulet(n),
                    .argument = p::amulet_value(n.dso_party, owner, amount, ctx.round_at(t), rate),
                    .signatories = {n.dso_party, owner}});
    d.set_result(
        root,
        p::single("amuletSum", p::single("amulet", Value::contract_id(d.contract_id_of(created)))));
    ctx.commit(d);
    ctx.label(s, "as", d.contract_id_of(created));
}

void transfer(SeedContext& ctx, const JsonObject& s) {
    allow_keys(s, Commits::transaction, {"sender", "inputs", "outputs", "change_as"});
    const Party sender = ctx.party(s, "sender");
    std::vector<std::pair<std::string, std::string>> inputs;
    const nlohmann::json& in = s.value().value("inputs", nlohmann::json());
    if (!in.is_array() || in.empty())
        throw model::JsonFieldError(s.pointer_of("inputs"), "must be a non-empty array of amulets");
    for (std::size_t i = 0; i < in.size(); ++i) {
        const std::string pointer = s.pointer_of("inputs") + "/" + std::to_string(i);
        inputs.emplace_back(ctx.resolve_contract(in[i], pointer), pointer);
    }
    std::vector<Output> outputs;
    const nlohmann::json& out = s.value().value("outputs", nlohmann::json());
    if (!out.is_array() || out.empty())
        throw model::JsonFieldError(s.pointer_of("outputs"),
                                    "must be a non-empty array of outputs");
    for (std::size_t i = 0; i < out.size(); ++i) {
        const JsonObject o(out[i], s.pointer_of("outputs") + "/" + std::to_string(i));
        o.reject_unknown_keys({"receiver", "amount", "lock", "as"});
        Output output{.receiver = ctx.party(o, "receiver"),
                      .amount = decimal_field(o, "amount", true),
                      .label = o.optional_string("as")};
        if (const auto l = o.optional_object("lock")) output.lock = read_lock(ctx, *l);
        outputs.push_back(std::move(output));
    }
    commit_transfer(ctx, s, sender, inputs, outputs, s.pointer_of("outputs"));
}

OfferNodes add_two_step_offer(const SeedContext& ctx, store::TransactionDraft& d, int root,
                              const Party& sender, const Party& receiver, model::Decimal amount,
                              const std::vector<std::pair<std::string, std::string>>& inputs,
                              model::Decimal in, Timestamp requested_at, Timestamp execute_before) {
    const model::Network& n = ctx.network();
    add_input_archives(n, d, root, sender, inputs);
    const std::int64_t round = ctx.round_at(d.record_time);
    // standardTransferToTwoStepTransfer: lockContext "transfer to " <> show receiver (quoted).
    const int locked = d.add(
        root,
        CreateDraft{.template_id = p::locked_amulet(n),
                    .argument = p::locked_amulet_value(
                        p::amulet_value(n.dso_party, sender, amount, round, default_holding_rate),
                        {n.dso_party}, execute_before, "transfer to '" + receiver + "'"),
                    .signatories = {n.dso_party, sender}});
    const std::string locked_cid = d.contract_id_of(locked);
    std::optional<std::string> change;
    if (in > amount) {
        const int node = d.add(
            root, CreateDraft{.template_id = p::amulet(n),
                              .signatories = {n.dso_party, sender},
                              .packed_argument = p::amulet_packed(n.dso_party, sender, in - amount,
                                                                  round, default_holding_rate)});
        change = d.contract_id_of(node);
    }
    const int instruction = d.add(
        root, CreateDraft{.template_id = p::amulet_transfer_instruction(n),
                          .argument = Value::record(
                              {{"lockedAmulet", Value::contract_id(locked_cid)},
                               {"transfer", p::token_transfer_value(
                                                n.dso_party, sender, receiver, amount, requested_at,
                                                execute_before, {locked_cid})}}),
                          .signatories = {n.dso_party, sender},
                          .observers = {receiver}});
    const std::string instruction_cid = d.contract_id_of(instruction);
    std::vector<Value> change_cids;
    if (change) change_cids.push_back(Value::contract_id(*change));
    d.set_result(
        root,
        Value::record({{"output", Value::variant("TransferInstructionResult_Pending",
                                                 p::single("transferInstructionCid",
                                                           Value::contract_id(instruction_cid)))},
                       {"senderChangeCids", Value::list(std::move(change_cids))},
                       {"meta", p::holding_tx_meta(p::TxKind::transfer, std::nullopt, sender,
                                                   model::Decimal())}}));
    return OfferNodes{.instruction = instruction_cid, .locked = locked_cid, .change = change};
}

void create_transfer_instruction(SeedContext& ctx, const JsonObject& s) {
    allow_keys(s, Commits::transaction,
               {"sender", "receiver", "amount", "inputs", "requested_at", "execute_before",
                "locked_as", "change_as", "as"});
    const model::Network& n = ctx.network();
    const Party sender = ctx.party(s, "sender");
    const Party receiver = ctx.party(s, "receiver");
    const model::Decimal amount = decimal_field(s, "amount", true);  // "Amount must be positive"
    const Timestamp t = ctx.step_time(s);
    const Timestamp execute_before = s.timestamp("execute_before");
    const Timestamp requested_at = s.has("requested_at") ? s.timestamp("requested_at") : t;
    // The factory's deadlines (assertDeadlineExceeded, assertWithinDeadline) and
    // prepareTwoStepTransfer's requestedAt < transferBefore.
    if (!(t < execute_before)) {
        throw model::JsonFieldError(
            s.pointer_of("execute_before"),
            "must be after the step's ledger time (" + model::format_instant(t) + ")");
    }
    if (t < requested_at) {
        throw model::JsonFieldError(
            s.pointer_of("requested_at"),
            "must not be after the step's ledger time (" + model::format_instant(t) + ")");
    }
    if (sender == receiver) {
        throw model::JsonFieldError(s.pointer_of("receiver"),
                                    "is the sender: the factory makes a self-transfer, not an "
                                    "instruction (use a transfer step)");
    }
    if (splice::views(ctx.store()).transfer_preapproval_of(receiver)) {
        throw model::JsonFieldError(s.pointer_of("receiver"),
                                    "has a TransferPreapproval: the factory transfers directly, "
                                    "with no instruction (use a transfer step)");
    }
    std::vector<std::pair<std::string, std::string>> inputs;
    const nlohmann::json& in_json = s.value().value("inputs", nlohmann::json());
    if (!in_json.is_array() || in_json.empty()) {
        throw model::JsonFieldError(s.pointer_of("inputs"),
                                    "must be a non-empty array of amulets (At least one holding "
                                    "must be provided)");
    }
    for (std::size_t i = 0; i < in_json.size(); ++i) {
        const std::string pointer = s.pointer_of("inputs") + "/" + std::to_string(i);
        inputs.emplace_back(ctx.resolve_contract(in_json[i], pointer), pointer);
    }
    const model::Decimal in = input_total(ctx, sender, inputs);
    if (amount > in) {
        throw model::JsonFieldError(s.pointer_of("amount"),
                                    "the amount (" + amount.to_compact_string() +
                                        ") exceeds the inputs (" + in.to_compact_string() + ")");
    }
    std::vector<std::string> input_cids;
    for (const auto& [cid, _] : inputs) input_cids.push_back(cid);
    // The context the registry's transfer factory hands out (the rules and the round; no
    // ExternalPartyConfigState exists here, so the real factory's fetch of it is not made).
    std::vector<std::pair<std::string, Value>> context{
        {"amulet-rules", Value::variant("AV_ContractId", Value::contract_id(ctx.amulet_rules))}};
    if (const auto round = splice::views(ctx.store()).latest_usable_open_round(t)) {
        context.emplace_back(
            "open-round", Value::variant("AV_ContractId",
                                         Value::contract_id(round->contract->contract_id.str())));
    }
    auto d = ctx.draft(s, {sender}, t);
    // ExternalPartyAmuletRules' TransferFactory_Transfer (nonconsuming, controller the sender),
    // its offer branch: prepareTwoStepTransfer locks the amount to the DSO until executeBefore,
    // then an AmuletTransferInstruction tracks the locked amulet.
    const int root = d.add(
        -1,
        ExerciseDraft{
            .contract_id = ctx.external_party_amulet_rules,
            .template_id = p::external_party_amulet_rules(n),
            .interface_id = p::transfer_factory_interface(n),
            .choice = "TransferFactory_Transfer",
            .argument = Value::record(
                {{"expectedAdmin", Value::party(n.dso_party)},
                 {"transfer", p::token_transfer_value(n.dso_party, sender, receiver, amount,
                                                      requested_at, execute_before, input_cids)},
                 {"extraArgs", p::extra_args(std::move(context))}}),
            .consuming = false,
            .acting_parties = {sender}});
    const OfferNodes offer = add_two_step_offer(ctx, d, root, sender, receiver, amount, inputs, in,
                                                requested_at, execute_before);
    ctx.commit(d);
    ctx.label(s, "as", offer.instruction);
    ctx.label(s, "locked_as", offer.locked);
    if (offer.change) ctx.label(s, "change_as", *offer.change);
}

bool automation_complete_accepted_transfer_offer(SeedContext& ctx, const std::string& accepted,
                                                 Timestamp t) {
    const model::Network& n = ctx.network();
    const Value offer = ctx.argument_of(accepted, "AcceptedTransferOffer", "");
    const Party sender = field_at(offer, {"sender"}, "").text;
    const Party receiver = field_at(offer, {"receiver"}, "").text;
    const auto install = ctx.wallet_installs.find(sender);
    if (install == ctx.wallet_installs.end()) return false;  // no wallet of this network sends it
    const model::Decimal amount = field_at(offer, {"amount", "amount"}, "").decimal;
    // The treasury takes the sender's amulets, oldest first, until they cover the amount.
    std::vector<std::pair<std::string, std::string>> inputs;
    model::Decimal in;
    for (const model::ContractPtr& amulet :
         splice::views(ctx.store()).unlocked_amulets_of(sender)) {
        if (in >= amount) break;
        inputs.emplace_back(amulet->contract_id.str(), "");
        in = in + field_at(ctx.argument_of(inputs.back().first, "Amulet", ""),
                           {"amount", "initialAmount"}, "")
                      .decimal;
    }
    if (in < amount) return false;  // the real wallet aborts the offer; not emulated
    static const nlohmann::json no_ids = nlohmann::json::object();
    auto d = ctx.draft(JsonObject(no_ids, ""), {n.validator_party}, t);
    std::vector<Value> input_values;
    for (const auto& [cid, _] : inputs)
        input_values.push_back(Value::variant("InputAmulet", Value::contract_id(cid)));
    const Value context =
        Value::record({{"amuletRules", Value::contract_id(ctx.amulet_rules)},
                       {"context", Value::record({{"issuingMiningRounds", Value::gen_map({})},
                                                  {"validatorRights", Value::gen_map({})},
                                                  {"featuredAppRight", Value::none()}})}});
    const int root = d.add(
        -1, ExerciseDraft{
                .contract_id = install->second,
                .template_id = p::wallet_app_install(n),
                .choice = "WalletAppInstall_ExecuteBatch",
                .argument = Value::record(
                    {{"context", context},
                     {"inputs", Value::list(input_values)},
                     {"operations", Value::list({Value::variant("CO_CompleteAcceptedTransfer",
                                                                Value::contract_id(accepted))})}}),
                .consuming = false,
                .acting_parties = {n.validator_party}});
    const int complete = d.add(
        root, ExerciseDraft{
                  .contract_id = accepted,
                  .template_id = p::accepted_transfer_offer(n),
                  .choice = "AcceptedTransferOffer_Complete",
                  .argument = Value::record({{"inputs", Value::list(input_values)},
                                             {"transferContext", context},
                                             {"walletProvider", Value::party(n.validator_party)}}),
                  .consuming = true,
                  .acting_parties = {sender, n.validator_party}});
    const TransferNodes nodes = add_transfer(ctx, d, complete, sender, n.validator_party,
                                             {sender, n.validator_party, receiver}, inputs, in,
                                             {Output{.receiver = receiver, .amount = amount}});
    const Value tracking = Value::record({{"trackingId", field_at(offer, {"trackingId"}, "")},
                                          {"sender", Value::party(sender)},
                                          {"receiver", Value::party(receiver)}});
    const Value change = Value::optional(
        nodes.change ? std::optional<Value>(Value::contract_id(*nodes.change)) : std::nullopt);
    d.set_result(complete, Value::record({{"transferResult", nodes.result},
                                          {"trackingInfo", tracking},
                                          {"senderChangeAmulet", change}}));
    d.set_result(
        root,
        Value::record(
            {{"endUserName", field_at(ctx.argument_of(install->second, "WalletAppInstall", ""),
                                      {"endUserName"}, "")},
             {"outcomes", Value::list({Value::variant(
                              "COO_CompleteAcceptedTransfer",
                              Value::record({{"_1", nodes.result}, {"_2", tracking}}))})},
             {"optEndUserParty", Value::some(Value::party(sender))}}));
    ctx.commit(d);
    return true;
}

}  // namespace cantonlite::seed
