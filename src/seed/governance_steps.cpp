// Name service, governance, transfer-command, transfer-preapproval and mining-round steps
// (docs/seed-format.md).
#include <limits>
#include <string>

#include "cantonlite/splice/payloads.hpp"
#include "cantonlite/splice/splice_views.hpp"
#include "steps.hpp"

namespace cantonlite::seed {
namespace {

namespace p = splice::payloads;
using store::CreateDraft;
using store::ExerciseDraft;

// The SV named by the step's `key`: an SV name or an SV's party.
const model::SuperValidator& sv(const SeedContext& ctx, const JsonObject& s, std::string_view key) {
    const Party party = ctx.party(s, key);
    for (const auto& v : ctx.network().svs) {
        if (v.party == party) return v;
    }
    throw model::JsonFieldError(s.pointer_of(key), party + " is not a super validator");
}

// The field `label` of a record the step is about to re-create. Throws at `pointer`.
Value& member(Value& record, std::string_view label, const std::string& pointer) {
    for (std::size_t i = 0; i < record.labels.size(); ++i) {
        if (record.labels[i] == label) return record.items[i];
    }
    throw model::JsonFieldError(pointer,
                                "the contract's argument has no field " + std::string(label));
}

Value reason_value(const JsonObject& s, const std::string& default_body) {
    const auto r = s.optional_object("reason");
    if (!r) return p::reason("", default_body);
    r->reject_unknown_keys({"url", "body"});
    return p::reason(text_or_empty(*r, "url"),
                     r->has("body") ? text_or_empty(*r, "body") : default_body);
}

Value action_value(const SeedContext& ctx, const JsonObject& s) {
    const JsonObject action = s.object("action");
    if (action.has("offboard_sv")) {
        action.reject_unknown_keys({"offboard_sv"});
        return p::offboard_sv_action(ctx.party(action, "offboard_sv"));
    }
    return typed_value(ctx, action.value(), action.pointer());
}

}  // namespace

void register_ans_entry(SeedContext& ctx, const JsonObject& s) {
    allow_keys(s, Commits::transaction, {"user", "name", "url", "description", "expires_at", "as"});
    const model::Network& n = ctx.network();
    const Party user = ctx.party(s, "user");
    auto d = ctx.draft(s, {n.dso_party}, ctx.step_time(s));
    const int entry =
        d.add(-1, CreateDraft{.template_id = p::ans_entry(n),
                              .argument = p::ans_entry_value(
                                  user, n.dso_party, s.string("name"), text_or_empty(s, "url"),
                                  text_or_empty(s, "description"), s.timestamp("expires_at")),
                              .signatories = {user, n.dso_party}});
    ctx.commit(d);
    ctx.label(s, "as", d.contract_id_of(entry));
}

void renew_ans_entry(SeedContext& ctx, const JsonObject& s) {
    allow_keys(s, Commits::transaction, {"entry", "expires_at", "as"});
    const model::Network& n = ctx.network();
    const std::string cid = ctx.contract(s, "entry");
    const std::string pointer = s.pointer_of("entry");
    const Value old = ctx.argument_of(cid, "AnsEntry", pointer);
    const Timestamp old_expiry{field_at(old, {"expiresAt"}, pointer).number};
    const Timestamp expires_at = s.timestamp("expires_at");
    if (expires_at < old_expiry) {
        throw model::JsonFieldError(s.pointer_of("expires_at"),
                                    "a renewal cannot move the expiry back");
    }
    const Party user = field_at(old, {"user"}, pointer).text;
    auto d = ctx.draft(s, {n.dso_party}, ctx.step_time(s));
    const int root = d.add(
        -1, ExerciseDraft{
                .contract_id = cid,
                .template_id = p::ans_entry(n),
                .choice = "AnsEntry_Renew",
                .argument = p::single(
                    "extension",
                    p::single("microseconds", Value::int64(expires_at.micros - old_expiry.micros))),
                .consuming = true,
                .acting_parties = {n.dso_party}});
    const int entry =
        d.add(root, CreateDraft{.template_id = p::ans_entry(n),
                                .argument = p::ans_entry_value(
                                    user, n.dso_party, field_at(old, {"name"}, pointer).text,
                                    field_at(old, {"url"}, pointer).text,
                                    field_at(old, {"description"}, pointer).text, expires_at),
                                .signatories = {user, n.dso_party}});
    d.set_result(root, p::single("entryCid", Value::contract_id(d.contract_id_of(entry))));
    ctx.relabel(cid, d.contract_id_of(entry));
    ctx.commit(d);
    ctx.label(s, "as", d.contract_id_of(entry));
}

void request_vote(SeedContext& ctx, const JsonObject& s) {
    allow_keys(s, Commits::transaction,
               {"requester", "action", "reason", "vote_before", "target_effective_at", "as"});
    const model::Network& n = ctx.network();
    const model::SuperValidator& requester = sv(ctx, s, "requester");
    const Value action = action_value(ctx, s);
    const Value reason = reason_value(s, "");
    const Timestamp t = ctx.step_time(s);
    std::optional<Timestamp> target;
    if (s.has("target_effective_at")) target = s.timestamp("target_effective_at");
    auto d = ctx.draft(s, {requester.party}, t);
    const int root = d.add(
        -1, ExerciseDraft{.contract_id = ctx.dso_rules,
                          .template_id = p::dso_rules(n),
                          .choice = "DsoRules_RequestVote",
                          .argument = Value::record(
                              {{"requester", Value::party(requester.party)},
                               {"action", action},
                               {"reason", reason},
                               {"voteRequestTimeout", Value::none()},
                               {"targetEffectiveAt",
                                target ? Value::some(Value::timestamp(*target)) : Value::none()}}),
                          .consuming = false,
                          .acting_parties = {requester.party}});
    std::vector<std::pair<Value, Value>> votes;
    votes.emplace_back(
        Value::text_value(requester.name),
        p::vote(requester.party, true, p::reason("", "I accept, as I requested the vote."), t));
    const int request = d.add(
        root, CreateDraft{.template_id = p::vote_request(n),
                          .argument = p::vote_request_value(n.dso_party, requester.name, action,
                                                            reason, s.timestamp("vote_before"),
                                                            std::move(votes), std::nullopt, target),
                          .signatories = {n.dso_party}});
    d.set_result(root, p::single("voteRequest", Value::contract_id(d.contract_id_of(request))));
    ctx.commit(d);
    ctx.label(s, "as", d.contract_id_of(request));
}

void cast_vote(SeedContext& ctx, const JsonObject& s) {
    allow_keys(s, Commits::transaction, {"vote_request", "voter", "accept", "reason", "as"});
    const model::Network& n = ctx.network();
    const std::string cid = ctx.contract(s, "vote_request");
    const std::string pointer = s.pointer_of("vote_request");
    Value request = ctx.argument_of(cid, "VoteRequest", pointer);
    const model::SuperValidator& voter = sv(ctx, s, "voter");
    const Timestamp t = ctx.step_time(s);
    const Value vote = p::vote(voter.party, bool_field(s, "accept"), reason_value(s, ""), t);
    // The new incarnation: the vote added (or replaced), trackingCid pointing at the original.
    Value& votes = member(request, "votes", pointer);
    bool replaced = false;
    for (std::size_t i = 0; i + 1 < votes.items.size(); i += 2) {
        if (votes.items[i].text == voter.name) {
            votes.items[i + 1] = vote;
            replaced = true;
        }
    }
    if (!replaced) {
        votes.items.push_back(Value::text_value(voter.name));
        votes.items.push_back(vote);
    }
    Value& tracking = member(request, "trackingCid", pointer);
    if (tracking.items.empty()) tracking = Value::some(Value::contract_id(cid));
    auto d = ctx.draft(s, {voter.party}, t);
    const int root =
        d.add(-1, ExerciseDraft{.contract_id = ctx.dso_rules,
                                .template_id = p::dso_rules(n),
                                .choice = "DsoRules_CastVote",
                                .argument = Value::record(
                                    {{"requestCid", Value::contract_id(cid)}, {"vote", vote}}),
                                .consuming = false,
                                .acting_parties = {voter.party}});
    const int cast = d.add(root, ExerciseDraft{.contract_id = cid,
                                               .template_id = p::vote_request(n),
                                               .choice = "VoteRequest_CastVote",
                                               .argument = p::single("vote", vote),
                                               .consuming = true,
                                               .acting_parties = {n.dso_party}});
    const int created = d.add(cast, CreateDraft{.template_id = p::vote_request(n),
                                                .argument = std::move(request),
                                                .signatories = {n.dso_party}});
    const Value result = p::single("voteRequest", Value::contract_id(d.contract_id_of(created)));
    d.set_result(cast, result);
    d.set_result(root, result);
    ctx.relabel(cid, d.contract_id_of(created));
    ctx.commit(d);
    ctx.label(s, "as", d.contract_id_of(created));
}

void close_vote(SeedContext& ctx, const JsonObject& s) {
    allow_keys(s, Commits::transaction, {"vote_request"});
    const model::Network& n = ctx.network();
    const std::string cid = ctx.contract(s, "vote_request");
    (void)ctx.argument_of(cid, "VoteRequest", s.pointer_of("vote_request"));
    auto d = ctx.draft(s, {n.dso_party}, ctx.step_time(s));
    const int root =
        d.add(-1, ExerciseDraft{.contract_id = ctx.dso_rules,
                                .template_id = p::dso_rules(n),
                                .choice = "DsoRules_CloseVoteRequest",
                                .argument = p::single("requestCid", Value::contract_id(cid)),
                                .consuming = false,
                                .acting_parties = {n.dso_party},
                                .result = p::empty_record()});
    d.add(root, ExerciseDraft{.contract_id = cid,
                              .template_id = p::vote_request(n),
                              .choice = "Archive",
                              .argument = p::empty_record(),
                              .consuming = true,
                              .acting_parties = {n.dso_party},
                              .result = Value::unit()});
    ctx.commit(d);
}

void transfer_command(SeedContext& ctx, const JsonObject& s) {
    allow_keys(s, Commits::transaction, {"sender", "as"});
    const model::Network& n = ctx.network();
    const Party sender = ctx.party(s, "sender");
    const auto counter = splice::views(ctx.store()).transfer_command_counter_of(sender);
    const std::string counter_id = counter ? counter->contract->contract_id.str() : "";
    std::int64_t next_nonce = 1;
    if (counter) {
        const Value& old =
            ctx.argument_of(counter_id, "TransferCommandCounter", s.pointer_of("sender"));
        next_nonce = field_at(old, {"nextNonce"}, s.pointer_of("sender")).number + 1;
    }
    auto d = ctx.draft(s, {sender}, ctx.step_time(s));
    const int root =
        d.add(-1, ExerciseDraft{.contract_id = ctx.external_party_amulet_rules,
                                .template_id = p::external_party_amulet_rules(n),
                                .choice = "ExternalPartyAmuletRules_CreateTransferCommand",
                                .argument = p::single("sender", Value::party(sender)),
                                .consuming = false,
                                .acting_parties = {sender}});
    if (counter) {
        d.add(root, ExerciseDraft{.contract_id = counter_id,
                                  .template_id = p::transfer_command_counter(n),
                                  .choice = "Archive",
                                  .argument = p::empty_record(),
                                  .consuming = true,
                                  .acting_parties = {n.dso_party},
                                  .result = Value::unit()});
    }
    const int created = d.add(root, CreateDraft{.template_id = p::transfer_command_counter(n),
                                                .argument = p::transfer_command_counter_value(
                                                    n.dso_party, sender, next_nonce),
                                                .signatories = {n.dso_party},
                                                .observers = {sender}});
    d.set_result(
        root, p::single("transferCommandCounter", Value::contract_id(d.contract_id_of(created))));
    if (counter) ctx.relabel(counter_id, d.contract_id_of(created));
    ctx.commit(d);
    ctx.label(s, "as", d.contract_id_of(created));
}

void create_transfer_preapproval(SeedContext& ctx, const JsonObject& s) {
    allow_keys(s, Commits::transaction, {"receiver", "provider", "expires_at", "as"});
    const model::Network& n = ctx.network();
    const Party receiver = ctx.party(s, "receiver");
    const Party provider = s.has("provider") ? ctx.party(s, "provider") : n.validator_party;
    const Timestamp t = ctx.step_time(s);
    const Timestamp expires_at = s.timestamp("expires_at");
    if (!(t < expires_at)) {  // the template's ensure: expiresAt > validFrom
        throw model::JsonFieldError(
            s.pointer_of("expires_at"),
            "must be after the step's ledger time (" + model::format_instant(t) + ")");
    }
    auto d = ctx.draft(s, {receiver, provider}, t);
    const int root =
        d.add(-1, ExerciseDraft{.contract_id = ctx.amulet_rules,
                                .template_id = p::amulet_rules(n),
                                .choice = "AmuletRules_CreateTransferPreapproval",
                                .argument = Value::record(
                                    {{"receiver", Value::party(receiver)},
                                     {"provider", Value::party(provider)},
                                     {"expiresAt", Value::timestamp(expires_at)},
                                     {"expectedDso", Value::some(Value::party(n.dso_party))}}),
                                .consuming = false,
                                .acting_parties = {provider, receiver}});
    const int created = d.add(root, CreateDraft{.template_id = p::transfer_preapproval(n),
                                                .argument = p::transfer_preapproval_value(
                                                    n.dso_party, receiver, provider, t, expires_at),
                                                .signatories = {receiver, provider, n.dso_party}});
    d.set_result(
        root, p::single("transferPreapprovalCid", Value::contract_id(d.contract_id_of(created))));
    ctx.commit(d);
    ctx.label(s, "as", d.contract_id_of(created));
}

void feature_app(SeedContext& ctx, const JsonObject& s) {
    allow_keys(s, Commits::transaction, {"provider", "as"});
    const model::Network& n = ctx.network();
    const Party provider = s.has("provider") ? ctx.party(s, "provider") : n.validator_party;
    auto d = ctx.draft(s, {provider}, ctx.step_time(s));
    // AmuletRules_DevNet_FeatureApp (controller the provider; DevNet only, as LocalNet is).
    const int root =
        d.add(-1, ExerciseDraft{.contract_id = ctx.amulet_rules,
                                .template_id = p::amulet_rules(n),
                                .choice = "AmuletRules_DevNet_FeatureApp",
                                .argument = p::single("provider", Value::party(provider)),
                                .consuming = false,
                                .acting_parties = {provider}});
    const int created =
        d.add(root, CreateDraft{.template_id = p::featured_app_right(n),
                                .argument = p::featured_app_right_value(n.dso_party, provider),
                                .signatories = {n.dso_party},
                                .observers = {provider}});
    d.set_result(root,
                 p::single("featuredAppRightCid", Value::contract_id(d.contract_id_of(created))));
    ctx.commit(d);
    ctx.label(s, "as", d.contract_id_of(created));
}

namespace {

// The tick of the rounds (AmuletConfig.tickDuration): 10 minutes, as on LocalNet and as
// SeedContext::round_at counts rounds. A round is open for two ticks.
constexpr std::int64_t tick_micros = std::int64_t{600} * 1'000'000;

}  // namespace

void open_mining_round(SeedContext& ctx, const JsonObject& s) {
    allow_keys(s, Commits::transaction,
               {"round", "amulet_price", "opens_at", "target_closes_at", "as"});
    const model::Network& n = ctx.network();
    const Timestamp t = ctx.step_time(s);
    // issuingFor, the round's ticks in microseconds, must fit an Int.
    const std::int64_t round =
        s.optional_integer("round", 0, std::numeric_limits<std::int64_t>::max() / tick_micros)
            .value_or(ctx.round_at(t));
    const model::Decimal price =
        optional_decimal(s, "amulet_price", *model::Decimal::parse("0.005"));
    const Timestamp opens_at = s.has("opens_at") ? s.timestamp("opens_at") : t;
    const Timestamp closes_at = s.has("target_closes_at")
                                    ? s.timestamp("target_closes_at")
                                    : Timestamp{opens_at.micros + 2 * tick_micros};
    if (!(opens_at < closes_at)) {
        throw model::JsonFieldError(
            s.has("target_closes_at") ? s.pointer_of("target_closes_at") : s.pointer_of("opens_at"),
            "the round must close after it opens (" + model::format_instant(opens_at) + ")");
    }
    // AmuletRules_AdvanceOpenMiningRounds (controller the DSO), reduced to the round it opens: it
    // archives no round and creates no SummarizingMiningRound (docs/seed-format.md).
    auto d = ctx.draft(s, {n.dso_party}, t);
    const int root =
        d.add(-1, ExerciseDraft{.contract_id = ctx.amulet_rules,
                                .template_id = p::amulet_rules(n),
                                .choice = "AmuletRules_AdvanceOpenMiningRounds",
                                .argument = p::single("amuletPrice", Value::numeric(price)),
                                .consuming = false,
                                .acting_parties = {n.dso_party}});
    const int created =
        d.add(root, CreateDraft{.template_id = p::open_mining_round(n),
                                .argument = p::open_mining_round_value(
                                    n.dso_party, round, price, opens_at, closes_at, tick_micros),
                                .signatories = {n.dso_party}});
    d.set_result(root, p::single("openRoundCid", Value::contract_id(d.contract_id_of(created))));
    ctx.commit(d);
    ctx.label(s, "as", d.contract_id_of(created));
}

}  // namespace cantonlite::seed
