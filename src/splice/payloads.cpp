#include "cantonlite/splice/payloads.hpp"

#include "cantonlite/model/name.hpp"
#include "cantonlite/model/packed_reader.hpp"
#include "cantonlite/model/packed_writer.hpp"
#include "cantonlite/splice/templates.hpp"

namespace cantonlite::splice::payloads {
namespace {

using model::Name;

// The labels and words of the values written node by node (metadata, a tap's), each interned
// once.
struct Words {
    Name receiver{"receiver"};
    Name amulet_sum{"amuletSum"};
    Name meta{"meta"};
    Name tapped{"tapped faucet"};
    Name values{"values"};
    Name burned{"splice.lfdecentralizedtrust.org/burned"};
    Name reason{"splice.lfdecentralizedtrust.org/reason"};
    Name sender{"splice.lfdecentralizedtrust.org/sender"};
    Name tx_kind{"splice.lfdecentralizedtrust.org/tx-kind"};
    Name transfer{"transfer"};
    Name merge_split{"merge-split"};
    Name mint{"mint"};
};
const Words& words() {
    static const Words w;
    return w;
}

Value parties_list(const std::vector<Party>& parties) {
    std::vector<Value> out;
    for (const Party& p : parties) out.push_back(Value::party(p));
    return Value::list(std::move(out));
}

Value optional_time(const std::optional<Timestamp>& t) {
    return t ? Value::some(Value::timestamp(*t)) : Value::none();
}

}  // namespace

model::TemplateId amulet(const model::Network& n) {
    return templates::id_of(n, templates::amulet);
}
model::TemplateId locked_amulet(const model::Network& n) {
    return templates::id_of(n, templates::locked_amulet);
}
model::TemplateId amulet_rules(const model::Network& n) {
    return templates::id_of(n, templates::amulet_rules);
}
model::TemplateId external_party_amulet_rules(const model::Network& n) {
    return templates::id_of(n, templates::external_party_amulet_rules);
}
model::TemplateId transfer_command_counter(const model::Network& n) {
    return templates::id_of(n, templates::transfer_command_counter);
}
model::TemplateId transfer_preapproval(const model::Network& n) {
    return templates::id_of(n, templates::transfer_preapproval);
}
model::TemplateId featured_app_right(const model::Network& n) {
    return templates::id_of(n, templates::featured_app_right);
}
model::TemplateId open_mining_round(const model::Network& n) {
    return templates::id_of(n, templates::open_mining_round);
}
model::TemplateId amulet_transfer_instruction(const model::Network& n) {
    return templates::id_of(n, templates::amulet_transfer_instruction);
}
model::TemplateId transfer_factory_interface(const model::Network& n) {
    return templates::id_of(n, templates::transfer_factory_v1);
}
model::TemplateId dso_rules(const model::Network& n) {
    return templates::id_of(n, templates::dso_rules);
}
model::TemplateId vote_request(const model::Network& n) {
    return templates::id_of(n, templates::vote_request);
}
model::TemplateId ans_entry(const model::Network& n) {
    return templates::id_of(n, templates::ans_entry);
}
model::TemplateId wallet_app_install(const model::Network& n) {
    return templates::id_of(n, templates::wallet_app_install);
}
model::TemplateId transfer_offer(const model::Network& n) {
    return templates::id_of(n, templates::transfer_offer);
}
model::TemplateId accepted_transfer_offer(const model::Network& n) {
    return templates::id_of(n, templates::accepted_transfer_offer);
}
model::TemplateId transfer_preapproval_proposal(const model::Network& n) {
    return templates::id_of(n, templates::transfer_preapproval_proposal);
}
model::TemplateId buy_traffic_request(const model::Network& n) {
    return templates::id_of(n, templates::buy_traffic_request);
}

const AmuletLabels& amulet_labels() {
    static const AmuletLabels l;
    return l;
}

model::PackedValue amulet_packed(const Party& dso, const Party& owner, Decimal amount,
                                 std::int64_t round, Decimal rate) {
    const AmuletLabels& l = amulet_labels();
    return model::packed::write([&](model::packed::Writer& w) {
        w.record(3);
        w.name(l.dso);
        w.party(Name(dso));
        w.name(l.owner);
        w.party(Name(owner));
        w.name(l.amount);
        w.record(3);
        w.name(l.initial_amount);
        w.numeric(amount);
        w.name(l.created_at);
        w.record(1);
        w.name(l.number);
        w.int64(round);
        w.name(l.rate_per_round);
        w.record(1);
        w.name(l.rate);
        w.numeric(rate);
    });
}

Value amulet_value(const Party& dso, const Party& owner, Decimal amount, std::int64_t round,
                   Decimal rate) {
    return model::unpack(amulet_packed(dso, owner, amount, round, rate));
}

namespace {

// A tap's result up to its Amulet's id, {amuletSum = {amulet}, read from `in`: the id, then `in`
// stands at the metadata; nullopt for another value. REQUIRES: `in` reads a whole value.
std::optional<Name> tap_result_amulet(model::packed::Reader& in) {
    using Kind = Value::Kind;
    if (in.kind() != Kind::record || in.count() != 2 || in.name() != words().amulet_sum ||
        in.kind() != Kind::record || in.count() != 1 || in.name() != amulet_labels().amulet ||
        in.kind() != Kind::contract_id)
        return std::nullopt;
    return in.name();
}

// The bytes of a tap's result after its Amulet's id, the same in every tap (its metadata): a
// sample's.
std::string_view tap_result_tail() {
    static const std::string tail = [] {
        const model::PackedValue made = TapFacts{.amulet = amulet_labels().amulet}.result();
        model::packed::Reader in(made.bytes());
        (void)tap_result_amulet(in);
        const std::string_view bytes = made.bytes();
        return std::string(bytes.substr(static_cast<std::size_t>(in.position() - bytes.data())));
    }();
    return tail;
}

}  // namespace

model::PackedValue TapFacts::argument() const {
    const Words& l = words();
    return model::packed::write([&](model::packed::Writer& w) {
        w.record(2);
        w.name(l.receiver);
        w.party(receiver);
        w.name(amulet_labels().amount);
        w.numeric(amount);
    });
}

model::PackedValue TapFacts::result() const {
    const Words& l = words();
    return model::packed::write([&](model::packed::Writer& w) {
        w.record(2);
        w.name(l.amulet_sum);
        w.record(1);
        w.name(amulet_labels().amulet);
        w.contract_id(amulet);
        w.name(l.meta);
        w.some();
        write_holding_tx_meta(w, TxKind::mint, l.tapped, std::nullopt, std::nullopt);
    });
}

std::optional<TapFacts> TapFacts::of(const model::PackedValue& argument,
                                     const model::PackedValue& result) {
    using Kind = Value::Kind;
    // The facts where argument() and result() put them, and nothing else: the argument read to
    // its end, the result's bytes after the Amulet's id its metadata's (a save meets every mint's
    // tap: making both values again took 10% of it). The values are the process's own, whole,
    // each number in its shortest form: the reader is not bounded, and what it reads is what
    // argument() and result() write.
    if (argument.size() < 2 || result.size() < 2) return std::nullopt;
    model::packed::Reader a(argument.bytes());
    if (a.kind() != Kind::record || a.count() != 2 || a.name() != words().receiver ||
        a.kind() != Kind::party)
        return std::nullopt;
    TapFacts facts;
    facts.receiver = a.name();
    if (a.name() != amulet_labels().amount || a.kind() != Kind::numeric) return std::nullopt;
    facts.amount = a.decimal();
    if (!a.done()) return std::nullopt;
    model::packed::Reader r(result.bytes());
    const std::optional<Name> amulet = tap_result_amulet(r);
    const std::string_view bytes = result.bytes();
    if (!amulet ||
        bytes.substr(static_cast<std::size_t>(r.position() - bytes.data())) != tap_result_tail())
        return std::nullopt;
    facts.amulet = *amulet;
    return facts;
}

Value time_lock(const std::vector<Party>& holders, Timestamp expires_at,
                const std::optional<std::string>& context) {
    return Value::record(
        {{"holders", parties_list(holders)},
         {"expiresAt", Value::timestamp(expires_at)},
         {"optContext", context ? Value::some(Value::text_value(*context)) : Value::none()}});
}

Value locked_amulet_value(Value amulet, const std::vector<Party>& holders, Timestamp expires_at,
                          const std::optional<std::string>& context) {
    return Value::record(
        {{"amulet", std::move(amulet)}, {"lock", time_lock(holders, expires_at, context)}});
}

Value payment_amount(Decimal amount) {
    return Value::record(
        {{"amount", Value::numeric(amount)}, {"unit", Value::enumeration("AmuletUnit")}});
}

Value transfer_offer_value(const Party& sender, const Party& receiver, const Party& dso,
                           Decimal amount, const std::string& description, Timestamp expires_at,
                           const std::string& tracking_id) {
    return Value::record({{"sender", Value::party(sender)},
                          {"receiver", Value::party(receiver)},
                          {"dso", Value::party(dso)},
                          {"amount", payment_amount(amount)},
                          {"description", Value::text_value(description)},
                          {"expiresAt", Value::timestamp(expires_at)},
                          {"trackingId", Value::text_value(tracking_id)}});
}

Value accepted_transfer_offer_value(const Value& offer) {
    return Value::record({{"sender", *offer.field("sender")},
                          {"receiver", *offer.field("receiver")},
                          {"dso", *offer.field("dso")},
                          {"amount", *offer.field("amount")},
                          {"expiresAt", *offer.field("expiresAt")},
                          {"trackingId", *offer.field("trackingId")}});
}

Value ans_entry_value(const Party& user, const Party& dso, const std::string& name,
                      const std::string& url, const std::string& description,
                      Timestamp expires_at) {
    return Value::record({{"user", Value::party(user)},
                          {"dso", Value::party(dso)},
                          {"name", Value::text_value(name)},
                          {"url", Value::text_value(url)},
                          {"description", Value::text_value(description)},
                          {"expiresAt", Value::timestamp(expires_at)}});
}

Value reason(const std::string& url, const std::string& body) {
    return Value::record({{"url", Value::text_value(url)}, {"body", Value::text_value(body)}});
}

Value vote(const Party& sv, bool accept, Value reason_value, std::optional<Timestamp> cast_at) {
    return Value::record({{"sv", Value::party(sv)},
                          {"accept", Value::boolean(accept)},
                          {"reason", std::move(reason_value)},
                          {"optCastAt", optional_time(cast_at)}});
}

Value vote_request_value(const Party& dso, const std::string& requester, Value action,
                         Value reason_value, Timestamp vote_before,
                         std::vector<std::pair<Value, Value>> votes,
                         std::optional<std::string> tracking_cid,
                         std::optional<Timestamp> target_effective_at) {
    return Value::record(
        {{"dso", Value::party(dso)},
         {"requester", Value::text_value(requester)},
         {"action", std::move(action)},
         {"reason", std::move(reason_value)},
         {"voteBefore", Value::timestamp(vote_before)},
         {"votes", Value::gen_map(std::move(votes))},
         {"trackingCid",
          tracking_cid ? Value::some(Value::contract_id(*tracking_cid)) : Value::none()},
         {"targetEffectiveAt", optional_time(target_effective_at)}});
}

Value offboard_sv_action(const Party& sv) {
    return Value::variant(
        "ARC_DsoRules",
        single("dsoAction", Value::variant("SRARC_OffboardSv", single("sv", Value::party(sv)))));
}

Value buy_traffic_request_value(const Party& dso, const Party& end_user, Timestamp expires_at,
                                const std::string& tracking_id, std::int64_t traffic_amount,
                                const std::string& member_id, const std::string& synchronizer_id,
                                std::int64_t migration_id) {
    return Value::record({{"dso", Value::party(dso)},
                          {"endUserParty", Value::party(end_user)},
                          {"expiresAt", Value::timestamp(expires_at)},
                          {"trackingId", Value::text_value(tracking_id)},
                          {"trafficAmount", Value::int64(traffic_amount)},
                          {"memberId", Value::text_value(member_id)},
                          {"synchronizerId", Value::text_value(synchronizer_id)},
                          {"migrationId", Value::int64(migration_id)}});
}

Value transfer_command_counter_value(const Party& dso, const Party& sender,
                                     std::int64_t next_nonce) {
    return Value::record({{"dso", Value::party(dso)},
                          {"sender", Value::party(sender)},
                          {"nextNonce", Value::int64(next_nonce)}});
}

Value transfer_preapproval_value(const Party& dso, const Party& receiver, const Party& provider,
                                 Timestamp now, Timestamp expires_at) {
    return Value::record({{"dso", Value::party(dso)},
                          {"receiver", Value::party(receiver)},
                          {"provider", Value::party(provider)},
                          {"validFrom", Value::timestamp(now)},
                          {"lastRenewedAt", Value::timestamp(now)},
                          {"expiresAt", Value::timestamp(expires_at)}});
}

Value featured_app_right_value(const Party& dso, const Party& provider) {
    return Value::record({{"dso", Value::party(dso)}, {"provider", Value::party(provider)}});
}

Value rel_time(std::int64_t micros) {
    return single("microseconds", Value::int64(micros));
}

Value open_mining_round_value(const Party& dso, std::int64_t round, Decimal amulet_price,
                              Timestamp opens_at, Timestamp target_closes_at,
                              std::int64_t tick_micros) {
    const auto decimal = [](const char* text) { return Value::numeric(*Decimal::parse(text)); };
    // TransferConfig USD, reduced to the holding fee the mint step charges by default.
    Value transfer_config = single("holdingFee", single("rate", decimal("0.0000190259")));
    // IssuanceConfig: the first step of Splice's default issuance curve.
    Value issuance_config =
        Value::record({{"amuletToIssuePerYear", decimal("40000000000")},
                       {"validatorRewardPercentage", decimal("0.05")},
                       {"appRewardPercentage", decimal("0.15")},
                       {"validatorRewardCap", decimal("0.2")},
                       {"featuredAppRewardCap", decimal("100")},
                       {"unfeaturedAppRewardCap", decimal("0.6")},
                       {"optValidatorFaucetCap", Value::some(decimal("2.85"))}});
    return Value::record({{"dso", Value::party(dso)},
                          {"round", single("number", Value::int64(round))},
                          {"amuletPrice", Value::numeric(amulet_price)},
                          {"opensAt", Value::timestamp(opens_at)},
                          {"targetClosesAt", Value::timestamp(target_closes_at)},
                          {"issuingFor", rel_time(round * tick_micros)},
                          {"transferConfigUsd", std::move(transfer_config)},
                          {"issuanceConfig", std::move(issuance_config)},
                          {"tickDuration", rel_time(tick_micros)}});
}

Value wallet_app_install_value(const Party& dso, const Party& validator,
                               const std::string& user_name, const Party& user_party) {
    return Value::record({{"dsoParty", Value::party(dso)},
                          {"validatorParty", Value::party(validator)},
                          {"endUserName", Value::text_value(user_name)},
                          {"endUserParty", Value::party(user_party)}});
}

Value dso_rules_value(const model::Network& n) {
    std::vector<std::pair<Value, Value>> svs;
    for (const auto& sv : n.svs) {
        svs.emplace_back(Value::party(sv.party), single("name", Value::text_value(sv.name)));
    }
    return Value::record(
        {{"dso", Value::party(n.dso_party)},
         {"epoch", Value::int64(0)},
         {"svs", Value::gen_map(std::move(svs))},
         {"dsoDelegate", Value::party(n.svs.empty() ? n.dso_party : n.svs.front().party)},
         {"isDevNet", Value::boolean(true)}});
}

Value amulet_rules_value(const Party& dso) {
    return Value::record({{"dso", Value::party(dso)}, {"isDevNet", Value::boolean(true)}});
}

Value external_party_amulet_rules_value(const Party& dso) {
    return single("dso", Value::party(dso));
}

void write_holding_tx_meta(model::packed::Writer& w, TxKind kind, std::optional<Name> reason,
                           std::optional<Name> sender, std::optional<Decimal> burned) {
    const Words& l = words();
    // The texts are a small vocabulary here (fixed reasons, no fee burned, parties' ids): as
    // Names, every result refers to one copy (PackedValue keeps a text that is a Name as its id).
    // A TextMap, in key order as Daml keeps it.
    w.record(1);
    w.name(l.values);
    w.text_map(1 + (burned ? 1 : 0) + (reason ? 1 : 0) + (sender ? 1 : 0));
    if (burned) {
        w.name(l.burned);
        w.text_node(Name(burned->to_compact_string()));
    }
    if (reason) {
        w.name(l.reason);
        w.text_node(*reason);
    }
    if (sender) {
        w.name(l.sender);
        w.text_node(*sender);
    }
    w.name(l.tx_kind);
    w.text_node(kind == TxKind::transfer      ? l.transfer
                : kind == TxKind::merge_split ? l.merge_split
                                              : l.mint);
}

Value holding_tx_meta(TxKind kind, const std::optional<std::string>& reason,
                      const std::optional<Party>& sender, std::optional<Decimal> burned) {
    const auto name = [](const std::optional<std::string>& text) {
        return text ? std::optional<Name>(Name(*text)) : std::nullopt;
    };
    return model::unpack(model::packed::write([&](model::packed::Writer& w) {
        write_holding_tx_meta(w, kind, name(reason), name(sender), burned);
    }));
}

Value token_transfer_value(const Party& dso, const Party& sender, const Party& receiver,
                           Decimal amount, Timestamp requested_at, Timestamp execute_before,
                           const std::vector<std::string>& input_holding_cids) {
    std::vector<Value> inputs;
    for (const std::string& cid : input_holding_cids) inputs.push_back(Value::contract_id(cid));
    return Value::record({{"sender", Value::party(sender)},
                          {"receiver", Value::party(receiver)},
                          {"amount", Value::numeric(amount)},
                          {"instrumentId", Value::record({{"admin", Value::party(dso)},
                                                          {"id", Value::text_value("Amulet")}})},
                          {"requestedAt", Value::timestamp(requested_at)},
                          {"executeBefore", Value::timestamp(execute_before)},
                          {"inputHoldingCids", Value::list(std::move(inputs))},
                          {"meta", empty_metadata()}});
}

Value empty_metadata() {
    return single("values", Value::text_map(std::vector<std::pair<std::string, Value>>{}));
}

Value extra_args(std::vector<std::pair<std::string, Value>> context) {
    return Value::record({{"context", single("values", Value::text_map(std::move(context)))},
                          {"meta", empty_metadata()}});
}

Value single(const std::string& label, Value v) {
    return Value::record({{label, std::move(v)}});
}

Value empty_record() {
    return Value::record({});
}

}  // namespace cantonlite::splice::payloads
