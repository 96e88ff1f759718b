// Wallet steps: transfer offers and buy-traffic requests (docs/seed-format.md "Wallet").
#include "cantonlite/splice/payloads.hpp"
#include "steps.hpp"

namespace cantonlite::seed {
namespace {

namespace p = splice::payloads;
using store::CreateDraft;
using store::ExerciseDraft;

// The WalletAppInstall of `party`. Throws at `pointer` when the party has no wallet.
const std::string& wallet_install(const SeedContext& ctx, const Party& party,
                                  const std::string& pointer) {
    const auto it = ctx.wallet_installs.find(party);
    if (it == ctx.wallet_installs.end())
        throw model::JsonFieldError(pointer, party + " has no wallet");
    return it->second;
}

// Exercises `choice` (consuming) on the contract of the step's `key`, acting as the party in the
// contract's `actor_field`.
void exercise_on_request(SeedContext& ctx, const JsonObject& s, std::string_view key,
                         std::string_view entity, const model::TemplateId& template_id,
                         const std::string& choice, std::string_view actor_field, Value argument,
                         Value result) {
    const std::string cid = ctx.contract(s, key);
    const Value& payload = ctx.argument_of(cid, entity, s.pointer_of(key));
    const Party actor = field_at(payload, {actor_field}, s.pointer_of(key)).text;
    auto d = ctx.draft(s, {actor}, ctx.step_time(s));
    d.add(-1, ExerciseDraft{.contract_id = cid,
                            .template_id = template_id,
                            .choice = choice,
                            .argument = std::move(argument),
                            .consuming = true,
                            .acting_parties = {actor},
                            .result = std::move(result)});
    ctx.commit(d);
}

Value tracking_info(const SeedContext& ctx, const JsonObject& s) {
    const std::string cid = ctx.contract(s, "request");
    const Value& request = ctx.argument_of(cid, "BuyTrafficRequest", s.pointer_of("request"));
    return p::single(
        "trackingInfo",
        Value::record(
            {{"trackingId", field_at(request, {"trackingId"}, s.pointer_of("request"))},
             {"endUserParty", field_at(request, {"endUserParty"}, s.pointer_of("request"))}}));
}

}  // namespace

void create_transfer_offer(SeedContext& ctx, const JsonObject& s) {
    allow_keys(s, Commits::transaction,
               {"sender", "receiver", "amount", "description", "expires_at", "tracking_id", "as"});
    const model::Network& n = ctx.network();
    const Party sender = ctx.party(s, "sender");
    const Party receiver = ctx.party(s, "receiver");
    const std::string& install = wallet_install(ctx, sender, s.pointer_of("sender"));
    const model::Decimal amount = decimal_field(s, "amount", true);
    const std::string description = text_or_empty(s, "description");
    const Timestamp expires_at = s.timestamp("expires_at");
    const std::string tracking_id = s.string("tracking_id");
    auto d = ctx.draft(s, {sender}, ctx.step_time(s));
    const int root = d.add(
        -1,
        ExerciseDraft{.contract_id = install,
                      .template_id = p::wallet_app_install(n),
                      .choice = "WalletAppInstall_CreateTransferOffer",
                      .argument = Value::record({{"receiver", Value::party(receiver)},
                                                 {"amount", p::payment_amount(amount)},
                                                 {"description", Value::text_value(description)},
                                                 {"expiresAt", Value::timestamp(expires_at)},
                                                 {"trackingId", Value::text_value(tracking_id)}}),
                      .consuming = false,
                      .acting_parties = {sender}});
    const int offer = d.add(
        root, CreateDraft{.template_id = p::transfer_offer(n),
                          .argument = p::transfer_offer_value(sender, receiver, n.dso_party, amount,
                                                              description, expires_at, tracking_id),
                          .signatories = {sender},
                          .observers = {receiver}});
    d.set_result(root, p::single("transferOffer", Value::contract_id(d.contract_id_of(offer))));
    ctx.commit(d);
    ctx.label(s, "as", d.contract_id_of(offer));
}

void accept_transfer_offer(SeedContext& ctx, const JsonObject& s) {
    allow_keys(s, Commits::transaction, {"offer", "as"});
    const model::Network& n = ctx.network();
    const std::string cid = ctx.contract(s, "offer");
    const Value offer = ctx.argument_of(cid, "TransferOffer", s.pointer_of("offer"));
    const Party sender = field_at(offer, {"sender"}, s.pointer_of("offer")).text;
    const Party receiver = field_at(offer, {"receiver"}, s.pointer_of("offer")).text;
    auto d = ctx.draft(s, {receiver}, ctx.step_time(s));
    const int root = d.add(-1, ExerciseDraft{.contract_id = cid,
                                             .template_id = p::transfer_offer(n),
                                             .choice = "TransferOffer_Accept",
                                             .argument = p::empty_record(),
                                             .consuming = true,
                                             .acting_parties = {receiver}});
    const int accepted =
        d.add(root, CreateDraft{.template_id = p::accepted_transfer_offer(n),
                                .argument = p::accepted_transfer_offer_value(offer),
                                .signatories = {sender, receiver}});
    d.set_result(
        root, p::single("acceptedTransferOffer", Value::contract_id(d.contract_id_of(accepted))));
    ctx.commit(d);
    ctx.label(s, "as", d.contract_id_of(accepted));
}

void withdraw_transfer_offer(SeedContext& ctx, const JsonObject& s) {
    allow_keys(s, Commits::transaction, {"offer", "reason"});
    exercise_on_request(
        ctx, s, "offer", "TransferOffer", splice::payloads::transfer_offer(ctx.network()),
        "TransferOffer_Withdraw", "sender",
        p::single("reason", Value::text_value(text_or_empty(s, "reason"))), p::empty_record());
}

void expire_transfer_offer(SeedContext& ctx, const JsonObject& s) {
    allow_keys(s, Commits::transaction, {"offer"});
    const std::string cid = ctx.contract(s, "offer");
    const Value& offer = ctx.argument_of(cid, "TransferOffer", s.pointer_of("offer"));
    Value actor = field_at(offer, {"sender"}, s.pointer_of("offer"));
    exercise_on_request(ctx, s, "offer", "TransferOffer",
                        splice::payloads::transfer_offer(ctx.network()), "TransferOffer_Expire",
                        "sender", p::single("actor", std::move(actor)), p::empty_record());
}

void create_buy_traffic_request(SeedContext& ctx, const JsonObject& s) {
    allow_keys(s, Commits::transaction,
               {"user", "traffic_amount", "tracking_id", "expires_at", "member_id",
                "synchronizer_id", "as"});
    const model::Network& n = ctx.network();
    const Party user = ctx.party(s, "user");
    const std::string& install = wallet_install(ctx, user, s.pointer_of("user"));
    const std::int64_t amount = s.integer("traffic_amount", 1, std::int64_t{1} << 53);
    const std::string tracking_id = s.string("tracking_id");
    const Timestamp expires_at = s.timestamp("expires_at");
    const std::string member_id = s.optional_string("member_id").value_or(n.participant_id);
    const std::string synchronizer =
        s.optional_string("synchronizer_id").value_or(n.synchronizer_id);
    const std::int64_t migration = ctx.store().migration_id();
    auto d = ctx.draft(s, {user}, ctx.step_time(s));
    const int root = d.add(
        -1, ExerciseDraft{
                .contract_id = install,
                .template_id = p::wallet_app_install(n),
                .choice = "WalletAppInstall_CreateBuyTrafficRequest",
                .argument = Value::record({{"trafficAmount", Value::int64(amount)},
                                           {"memberId", Value::text_value(member_id)},
                                           {"synchronizerId", Value::text_value(synchronizer)},
                                           {"migrationId", Value::int64(migration)},
                                           {"expiresAt", Value::timestamp(expires_at)},
                                           {"trackingId", Value::text_value(tracking_id)}}),
                .consuming = false,
                .acting_parties = {user}});
    const int request = d.add(root, CreateDraft{.template_id = p::buy_traffic_request(n),
                                                .argument = p::buy_traffic_request_value(
                                                    n.dso_party, user, expires_at, tracking_id,
                                                    amount, member_id, synchronizer, migration),
                                                .signatories = {user}});
    d.set_result(root,
                 p::single("buyTrafficRequest", Value::contract_id(d.contract_id_of(request))));
    ctx.commit(d);
    ctx.label(s, "as", d.contract_id_of(request));
}

void complete_buy_traffic_request(SeedContext& ctx, const JsonObject& s) {
    allow_keys(s, Commits::transaction, {"request"});
    Value result = tracking_info(ctx, s);
    exercise_on_request(ctx, s, "request", "BuyTrafficRequest",
                        p::buy_traffic_request(ctx.network()), "BuyTrafficRequest_Complete",
                        "endUserParty", p::empty_record(), std::move(result));
}

void cancel_buy_traffic_request(SeedContext& ctx, const JsonObject& s) {
    allow_keys(s, Commits::transaction, {"request", "reason"});
    Value result = tracking_info(ctx, s);
    exercise_on_request(ctx, s, "request", "BuyTrafficRequest",
                        p::buy_traffic_request(ctx.network()), "BuyTrafficRequest_Cancel",
                        "endUserParty", p::single("reason", Value::text_value(s.string("reason"))),
                        std::move(result));
}

void expire_buy_traffic_request(SeedContext& ctx, const JsonObject& s) {
    allow_keys(s, Commits::transaction, {"request"});
    Value result = tracking_info(ctx, s);
    exercise_on_request(ctx, s, "request", "BuyTrafficRequest",
                        p::buy_traffic_request(ctx.network()), "BuyTrafficRequest_Expire",
                        "endUserParty", p::empty_record(), std::move(result));
}

}  // namespace cantonlite::seed
