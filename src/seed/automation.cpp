// The network's automation: the transactions that the real wallet and SV apps submit when a
// contract expires (Splice's ExpireTransferOfferTrigger, ExpireBuyTrafficRequestsTrigger and
// ExpiredAnsEntryTrigger), with the trees of their Daml choices.
#include "cantonlite/splice/payloads.hpp"
#include "steps.hpp"

namespace cantonlite::seed {
namespace {

namespace p = splice::payloads;
using store::ExerciseDraft;

const nlohmann::json& no_ids() {
    static const nlohmann::json empty = nlohmann::json::object();
    return empty;
}

// The WalletAppInstall of `party`, or nullptr when the party has no wallet.
const std::string* install_of(const SeedContext& ctx, const Party& party) {
    const auto it = ctx.wallet_installs.find(party);
    return it == ctx.wallet_installs.end() ? nullptr : &it->second;
}

}  // namespace

void automation_expire_transfer_offer(SeedContext& ctx, const std::string& offer, Timestamp t) {
    const model::Network& n = ctx.network();
    const Value argument = ctx.argument_of(offer, "TransferOffer", "");
    const Party sender = field_at(argument, {"sender"}, "").text;
    const Party receiver = field_at(argument, {"receiver"}, "").text;
    // Both end users' wallets run the trigger; the sender's is taken as the one that wins.
    const Party& end_user = install_of(ctx, sender) != nullptr ? sender : receiver;
    const std::string* install = install_of(ctx, end_user);
    if (install == nullptr) return;  // no wallet of this network follows the offer
    const Value tracking = Value::record({{"trackingId", field_at(argument, {"trackingId"}, "")},
                                          {"sender", Value::party(sender)},
                                          {"receiver", Value::party(receiver)}});
    auto d = ctx.draft(JsonObject(no_ids(), ""), {n.validator_party}, t);
    const int root =
        d.add(-1, ExerciseDraft{.contract_id = *install,
                                .template_id = p::wallet_app_install(n),
                                .choice = "WalletAppInstall_TransferOffer_Expire",
                                .argument = p::single("cid", Value::contract_id(offer)),
                                .consuming = false,
                                .acting_parties = {n.validator_party}});
    d.add(root, ExerciseDraft{.contract_id = offer,
                              .template_id = p::transfer_offer(n),
                              .choice = "TransferOffer_Expire",
                              .argument = p::single("actor", Value::party(end_user)),
                              .consuming = true,
                              .acting_parties = {end_user},
                              .result = p::single("trackingInfo", tracking)});
    d.set_result(root, p::single("trackingInfo", tracking));
    ctx.commit(d);
}

void automation_expire_buy_traffic_request(SeedContext& ctx, const std::string& request,
                                           Timestamp t) {
    const model::Network& n = ctx.network();
    const Value argument = ctx.argument_of(request, "BuyTrafficRequest", "");
    const Party end_user = field_at(argument, {"endUserParty"}, "").text;
    const std::string* install = install_of(ctx, end_user);
    if (install == nullptr) return;
    const Value tracking = Value::record({{"trackingId", field_at(argument, {"trackingId"}, "")},
                                          {"endUserParty", Value::party(end_user)}});
    auto d = ctx.draft(JsonObject(no_ids(), ""), {n.validator_party}, t);
    const int root =
        d.add(-1, ExerciseDraft{.contract_id = *install,
                                .template_id = p::wallet_app_install(n),
                                .choice = "WalletAppInstall_BuyTrafficRequest_Expire",
                                .argument = p::single("requestCid", Value::contract_id(request)),
                                .consuming = false,
                                .acting_parties = {n.validator_party}});
    d.add(root, ExerciseDraft{.contract_id = request,
                              .template_id = p::buy_traffic_request(n),
                              .choice = "BuyTrafficRequest_Expire",
                              .argument = p::empty_record(),
                              .consuming = true,
                              .acting_parties = {end_user},
                              .result = p::single("trackingInfo", tracking)});
    d.set_result(root, p::single("trackingInfo", tracking));
    ctx.commit(d);
}

void automation_expire_ans_entry(SeedContext& ctx, const std::string& entry, Timestamp t) {
    const model::Network& n = ctx.network();
    (void)ctx.argument_of(entry, "AnsEntry", "");  // throws unless an active AnsEntry
    const Party sv = n.svs.empty() ? n.dso_party : n.svs.front().party;
    const Value expire = p::single("actor", Value::party(n.dso_party));
    auto d = ctx.draft(JsonObject(no_ids(), ""), {sv}, t);
    const int root = d.add(
        -1, ExerciseDraft{.contract_id = ctx.dso_rules,
                          .template_id = p::dso_rules(n),
                          .choice = "DsoRules_ExpireAnsEntry",
                          .argument = Value::record({{"ansEntryCid", Value::contract_id(entry)},
                                                     {"choiceArg", expire},
                                                     {"sv", Value::some(Value::party(sv))}}),
                          .consuming = false,
                          .acting_parties = {sv},
                          .result = p::empty_record()});
    d.add(root, ExerciseDraft{.contract_id = entry,
                              .template_id = p::ans_entry(n),
                              .choice = "AnsEntry_Expire",
                              .argument = expire,
                              .consuming = true,
                              .acting_parties = {n.dso_party},
                              .result = p::empty_record()});
    ctx.commit(d);
}

}  // namespace cantonlite::seed
