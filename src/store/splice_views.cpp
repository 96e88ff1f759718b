#include "splice_views.hpp"

#include <algorithm>

namespace cantonlite::store {
namespace {

using model::Value;

bool is(const model::TemplateId& t, std::string_view package, std::string_view module,
        std::string_view entity) {
    return t.package_name == package && t.module_name == module && t.entity_name == entity;
}

// The field at `path` (record labels) of `v`, of kind `kind`. Throws AppendError naming the path.
const Value& field(const Value& v, std::initializer_list<std::string_view> path, Value::Kind kind,
                   const model::TemplateId& t) {
    const Value* cur = &v;
    std::string where;
    for (const std::string_view label : path) {
        where += where.empty() ? "" : ".";
        where += label;
        cur = cur->kind == Value::Kind::record ? cur->field(label) : nullptr;
        if (cur == nullptr) {
            throw AppendError(t.qualified_name() + " argument has no field " + where);
        }
    }
    if (cur->kind != kind) {
        throw AppendError(t.qualified_name() + " argument field " + where + " has the wrong type");
    }
    return *cur;
}

const std::string& party_at(const Value& v, std::initializer_list<std::string_view> path,
                            const model::TemplateId& t) {
    return field(v, path, Value::Kind::party, t).text;
}

const std::string& text_at(const Value& v, std::initializer_list<std::string_view> path,
                           const model::TemplateId& t) {
    return field(v, path, Value::Kind::text, t).text;
}

// The timestamp field `label` of a record, if it has one (a raw transaction may leave it out).
std::optional<model::Timestamp> optional_time(const Value& v, std::string_view label) {
    const Value* f = v.kind == Value::Kind::record ? v.field(label) : nullptr;
    if (f == nullptr || f->kind != Value::Kind::timestamp) return std::nullopt;
    return model::Timestamp{f->number};
}

// The expiry the automation watches, if the fact has one.
std::optional<std::pair<model::Timestamp, ExpiringContract::Kind>> expiry_of(const Fact& fact) {
    using Kind = ExpiringContract::Kind;
    if (const auto* o = std::get_if<OfferFact>(&fact); o != nullptr && o->expires_at) {
        return std::pair{*o->expires_at, Kind::transfer_offer};
    }
    if (const auto* b = std::get_if<BuyTrafficFact>(&fact); b != nullptr && b->expires_at) {
        return std::pair{*b->expires_at, Kind::buy_traffic_request};
    }
    if (const auto* a = std::get_if<std::shared_ptr<const AnsFact>>(&fact))
        return std::pair{(*a)->expires_at, Kind::ans_entry};
    return std::nullopt;
}

}  // namespace

Fact SpliceViews::extract(const model::TemplateId& t, const Value& a) {
    using K = Value::Kind;
    if (is(t, "splice-amulet", "Splice.Amulet", "Amulet")) {
        return HoldingFact{
            .owner = Name(party_at(a, {"owner"}, t)),
            .amount = field(a, {"amount", "initialAmount"}, K::numeric, t).decimal,
            .created_round = field(a, {"amount", "createdAt", "number"}, K::int64, t).number,
            .rate_per_round = field(a, {"amount", "ratePerRound", "rate"}, K::numeric, t).decimal};
    }
    if (is(t, "splice-amulet", "Splice.Amulet", "LockedAmulet")) {
        return HoldingFact{
            .owner = Name(party_at(a, {"amulet", "owner"}, t)),
            .amount = field(a, {"amulet", "amount", "initialAmount"}, K::numeric, t).decimal,
            .locked = true,
            .created_round =
                field(a, {"amulet", "amount", "createdAt", "number"}, K::int64, t).number,
            .rate_per_round =
                field(a, {"amulet", "amount", "ratePerRound", "rate"}, K::numeric, t).decimal};
    }
    if (is(t, "splice-wallet", "Splice.Wallet.TransferOffer", "TransferOffer")) {
        return OfferFact{.sender = party_at(a, {"sender"}, t),
                         .receiver = party_at(a, {"receiver"}, t),
                         .expires_at = optional_time(a, "expiresAt")};
    }
    if (is(t, "splice-amulet", "Splice.ExternalPartyAmuletRules", "TransferCommandCounter")) {
        return CounterFact{.sender = party_at(a, {"sender"}, t)};
    }
    if (is(t, "splice-amulet-name-service", "Splice.Ans", "AnsEntry")) {
        return std::make_shared<const AnsFact>(AnsFact{
            .user = party_at(a, {"user"}, t),
            .name = text_at(a, {"name"}, t),
            .url = text_at(a, {"url"}, t),
            .description = text_at(a, {"description"}, t),
            .expires_at = model::Timestamp{field(a, {"expiresAt"}, K::timestamp, t).number}});
    }
    if (is(t, "splice-dso-governance", "Splice.DsoRules", "VoteRequest")) {
        const Value& tracking = field(a, {"trackingCid"}, K::optional, t);
        VoteFact fact;
        if (!tracking.items.empty()) fact.tracking_cid = tracking.items.front().text;
        return fact;
    }
    if (is(t, "splice-wallet", "Splice.Wallet.BuyTrafficRequest", "BuyTrafficRequest")) {
        return BuyTrafficFact{.end_user = party_at(a, {"endUserParty"}, t),
                              .tracking_id = text_at(a, {"trackingId"}, t),
                              .expires_at = optional_time(a, "expiresAt")};
    }
    return std::monostate{};
}

void SpliceViews::on_created(const model::ContractPtr& c, const Fact& fact, std::uint64_t sequence,
                             const std::string& update_id, Offset offset) {
    if (std::holds_alternative<std::monostate>(fact)) return;
    undo_.assign(facts_, c->contract_id, Indexed{.fact = fact, .sequence = sequence});
    if (const auto expiry = expiry_of(fact)) {
        undo_.assign(expiring_, std::pair{expiry->first, sequence},
                     ExpiringContract{.kind = expiry->second,
                                      .contract_id = c->contract_id,
                                      .expires_at = expiry->first});
    }
    if (const auto* h = std::get_if<HoldingFact>(&fact)) {
        undo_.assign(holdings_, HoldingKey{c->created_at, c->contract_id},
                     HoldingRow{.contract = c,
                                .owner = h->owner,
                                .amount = h->amount,
                                .locked = h->locked,
                                .created_round = h->created_round,
                                .rate_per_round = h->rate_per_round});
        if (!h->locked) undo_.assign(unlocked_by_owner_[h->owner], sequence, c);
        ++holdings_version_;
    } else if (const auto* o = std::get_if<OfferFact>(&fact)) {
        undo_.assign(offers_by_party_[o->sender], sequence, c);
        undo_.assign(offers_by_party_[o->receiver], sequence, c);
    } else if (const auto* k = std::get_if<CounterFact>(&fact)) {
        undo_.assign(counter_by_sender_, k->sender, c->contract_id);
    } else if (const auto* boxed = std::get_if<std::shared_ptr<const AnsFact>>(&fact)) {
        const AnsFact* a = boxed->get();
        undo_.assign(ans_by_name_[a->name], sequence,
                     AnsEntryFact{.contract = c,
                                  .user = a->user,
                                  .name = a->name,
                                  .url = a->url,
                                  .description = a->description,
                                  .expires_at = a->expires_at});
    } else if (const auto* v = std::get_if<VoteFact>(&fact)) {
        undo_.assign(vote_requests_, sequence, c);
        undo_.assign(vote_by_tracking_, v->tracking_cid.value_or(c->contract_id.str()),
                     c->contract_id);
    } else if (const auto* b = std::get_if<BuyTrafficFact>(&fact)) {
        undo_.assign(buy_traffic_request_, c->contract_id.str(),
                     std::pair<Party, std::string>{b->end_user, b->tracking_id});
        undo_.push_back(
            buy_traffic_[{b->end_user, b->tracking_id}],
            BuyTrafficEvent{
                .status = BuyTrafficStatus::created, .update_id = update_id, .offset = offset});
    }
}

void SpliceViews::on_archived(const model::Contract& c) {
    const auto it = facts_.find(c.contract_id);
    if (it == facts_.end()) return;
    const Fact& fact = it->second.fact;
    const std::uint64_t sequence = it->second.sequence;
    if (const auto expiry = expiry_of(fact))
        undo_.erase(expiring_, std::pair{expiry->first, sequence});
    if (const auto* h = std::get_if<HoldingFact>(&fact)) {
        undo_.erase(holdings_, HoldingKey{c.created_at, c.contract_id});
        if (!h->locked) undo_.erase(unlocked_by_owner_[h->owner], sequence);
        ++holdings_version_;
    } else if (const auto* o = std::get_if<OfferFact>(&fact)) {
        undo_.erase(offers_by_party_[o->sender], sequence);
        undo_.erase(offers_by_party_[o->receiver], sequence);
    } else if (const auto* k = std::get_if<CounterFact>(&fact)) {
        const auto counter = counter_by_sender_.find(k->sender);
        if (counter != counter_by_sender_.end() && counter->second == c.contract_id) {
            undo_.erase(counter_by_sender_, k->sender);
        }
    } else if (const auto* a = std::get_if<std::shared_ptr<const AnsFact>>(&fact)) {
        undo_.erase(ans_by_name_[(*a)->name], sequence);
    } else if (std::holds_alternative<VoteFact>(fact)) {
        undo_.erase(vote_requests_, sequence);
        for (const auto& [tracking, current] : vote_by_tracking_) {
            if (current == c.contract_id) {
                undo_.erase(vote_by_tracking_, std::string(tracking));
                break;
            }
        }
    } else if (std::holds_alternative<BuyTrafficFact>(fact)) {
        undo_.erase(buy_traffic_request_, c.contract_id.str());
    }
    undo_.erase(facts_, c.contract_id);
}

void SpliceViews::on_exercised(const ExerciseDraft& e, const std::string& update_id,
                               Offset offset) {
    const auto request = buy_traffic_request_.find(e.contract_id);
    if (request == buy_traffic_request_.end()) return;
    BuyTrafficEvent event{.update_id = update_id, .offset = offset};
    if (e.choice == "BuyTrafficRequest_Complete") {
        event.status = BuyTrafficStatus::completed;
    } else if (e.choice == "BuyTrafficRequest_Cancel") {
        event.status = BuyTrafficStatus::rejected;
        const Value* reason =
            e.argument.kind == Value::Kind::record ? e.argument.field("reason") : nullptr;
        if (reason != nullptr) event.reason = reason->text;
    } else if (e.choice == "BuyTrafficRequest_Expire") {
        event.status = BuyTrafficStatus::expired;
    } else {
        return;
    }
    undo_.push_back(buy_traffic_[request->second], std::move(event));
}

std::vector<HoldingRow> SpliceViews::holdings() const {
    std::vector<HoldingRow> rows;
    rows.reserve(holdings_.size());
    for (const auto& [_, row] : holdings_) rows.push_back(row);
    return rows;
}

std::vector<model::ContractPtr> SpliceViews::active_vote_requests() const {
    std::vector<model::ContractPtr> out;
    for (const auto& [_, c] : vote_requests_) out.push_back(c);
    return out;
}

model::ContractPtr SpliceViews::vote_request_by_tracking_cid(std::string_view cid) const {
    const auto it = vote_by_tracking_.find(std::string(cid));
    if (it == vote_by_tracking_.end()) return nullptr;
    const auto fact = facts_.find(it->second);
    return fact == facts_.end() ? nullptr : vote_requests_.at(fact->second.sequence);
}

std::vector<model::ContractPtr> SpliceViews::transfer_offers_of(std::string_view party) const {
    std::vector<model::ContractPtr> out;
    const auto it = offers_by_party_.find(std::string(party));
    if (it == offers_by_party_.end()) return out;
    for (const auto& [_, c] : it->second) out.push_back(c);
    return out;
}

std::optional<Name> SpliceViews::transfer_command_counter_of(std::string_view sender) const {
    const auto it = counter_by_sender_.find(std::string(sender));
    if (it == counter_by_sender_.end()) return std::nullopt;
    return it->second;
}

std::optional<AnsEntryFact> SpliceViews::ans_entry(std::string_view name,
                                                   model::Timestamp at) const {
    const auto it = ans_by_name_.find(std::string(name));
    if (it == ans_by_name_.end()) return std::nullopt;
    for (const auto& [_, entry] : it->second) {
        if (entry.expires_at >= at) return entry;
    }
    return std::nullopt;
}

std::vector<model::ContractPtr> SpliceViews::unlocked_amulets_of(std::string_view owner) const {
    std::vector<model::ContractPtr> out;
    const std::optional<Name> name = Name::find(owner);
    const auto it = name ? unlocked_by_owner_.find(*name) : unlocked_by_owner_.end();
    if (it == unlocked_by_owner_.end()) return out;
    for (const auto& [_, c] : it->second) out.push_back(c);
    return out;
}

std::vector<ExpiringContract> SpliceViews::expiring_until(model::Timestamp t) const {
    std::vector<ExpiringContract> out;
    for (const auto& [key, contract] : expiring_) {
        if (t < key.first) break;
        out.push_back(contract);
    }
    return out;
}

std::optional<BuyTrafficEvent> SpliceViews::latest_buy_traffic_event(
    std::string_view party, std::string_view tracking_id) const {
    const auto it = buy_traffic_.find(std::pair<Party, std::string>(party, tracking_id));
    if (it == buy_traffic_.end() || it->second.empty()) return std::nullopt;
    return it->second.back();
}

}  // namespace cantonlite::store
