#include "cantonlite/splice/splice_views.hpp"

#include <algorithm>
#include <array>
#include <future>
#include <mutex>
#include <span>
#include <stdexcept>

#include "cantonlite/model/packed_reader.hpp"
#include "cantonlite/splice/payloads.hpp"
#include "cantonlite/splice/templates.hpp"
#include "cantonlite/store/stakeholder_index.hpp"

namespace cantonlite::splice {
namespace {

using model::Value;
using store::AppendError;
using Fact = SpliceViews::Fact;
using OfferFact = SpliceViews::OfferFact;
using CounterFact = SpliceViews::CounterFact;
using PreapprovalFact = SpliceViews::PreapprovalFact;
using AnsFact = SpliceViews::AnsFact;
using HoldingFact = SpliceViews::HoldingFact;
using VoteFact = SpliceViews::VoteFact;
using BuyTrafficFact = SpliceViews::BuyTrafficFact;
using OpenRoundFact = SpliceViews::OpenRoundFact;
using FeaturedFact = SpliceViews::FeaturedFact;
using RulesFact = SpliceViews::RulesFact;

// The field at `path` (record labels) of `v`, of kind `kind`. Throws AppendError naming the path.
const Value& field(const Value& v, std::initializer_list<std::string_view> path, Value::Kind kind,
                   const model::TemplateId& t) {
    // "amount.initialAmount": the path up to and including the `n`th label.
    const auto where = [&](std::size_t n) {
        std::string out;
        for (const std::string_view label : path) {
            if (n-- == 0) break;
            out += out.empty() ? "" : ".";
            out += label;
        }
        return out;
    };
    const Value* cur = &v;
    std::size_t depth = 0;
    for (const std::string_view label : path) {
        ++depth;
        cur = cur->kind == Value::Kind::record ? cur->field(label) : nullptr;
        if (cur == nullptr) {
            throw AppendError(t.qualified_name() + " argument has no field " + where(depth));
        }
    }
    if (cur->kind != kind) {
        throw AppendError(t.qualified_name() + " argument field " + where(depth) +
                          " has the wrong type");
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

// A packed argument (a state file's) whose fields the facts read one by one (model::field_at),
// without unpacking the rest: the same reads as of a Value, but that a field missing or of
// another kind throws Unpack, for the unpacked value to throw what an append throws.
struct PackedFields {
    const model::PackedValue& packed;
};
struct Unpack {};

Value field(const PackedFields& a, std::initializer_list<std::string_view> path, Value::Kind kind,
            const model::TemplateId&) {
    std::optional<Value> v = model::field_at(a.packed, path);
    if (!v || v->kind != kind) throw Unpack{};
    return std::move(*v);
}

std::string party_at(const PackedFields& a, std::initializer_list<std::string_view> path,
                     const model::TemplateId& t) {
    return field(a, path, Value::Kind::party, t).text;
}

std::string text_at(const PackedFields& a, std::initializer_list<std::string_view> path,
                    const model::TemplateId& t) {
    return field(a, path, Value::Kind::text, t).text;
}

std::optional<model::Timestamp> optional_time(const PackedFields& a, std::string_view label) {
    const std::optional<Value> f = model::field_at(a.packed, {label});
    if (!f || f->kind != Value::Kind::timestamp) return std::nullopt;
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

// The facts of a contract of `t` with argument `a` (a Value, or PackedFields); monostate for the
// templates no view reads. Throws AppendError when a Splice template's argument lacks a field the
// views need.
template <class Argument>
Fact extract(const model::TemplateId& t, const Argument& a) {
    using K = Value::Kind;
    if (templates::is(t, templates::amulet)) {
        (void)field(a, {"amount", "initialAmount"}, K::numeric, t);
        (void)field(a, {"amount", "ratePerRound", "rate"}, K::numeric, t);
        (void)field(a, {"amount", "createdAt", "number"}, K::int64, t);
        return HoldingFact{.owner = Name(party_at(a, {"owner"}, t))};
    }
    if (templates::is(t, templates::locked_amulet)) {
        (void)field(a, {"amulet", "amount", "initialAmount"}, K::numeric, t);
        (void)field(a, {"amulet", "amount", "ratePerRound", "rate"}, K::numeric, t);
        (void)field(a, {"amulet", "amount", "createdAt", "number"}, K::int64, t);
        return HoldingFact{.owner = Name(party_at(a, {"amulet", "owner"}, t)), .locked = true};
    }
    if (templates::is(t, templates::transfer_offer)) {
        return OfferFact{.sender = Name(party_at(a, {"sender"}, t)),
                         .receiver = Name(party_at(a, {"receiver"}, t)),
                         .expires_at = optional_time(a, "expiresAt")};
    }
    if (templates::is(t, templates::transfer_command_counter)) {
        return CounterFact{.sender = Name(party_at(a, {"sender"}, t))};
    }
    if (templates::is(t, templates::transfer_preapproval)) {
        return PreapprovalFact{
            .receiver = Name(party_at(a, {"receiver"}, t)),
            .valid_from = model::Timestamp{field(a, {"validFrom"}, K::timestamp, t).number}};
    }
    if (templates::is(t, templates::open_mining_round)) {
        return OpenRoundFact{
            .round = field(a, {"round", "number"}, K::int64, t).number,
            .opens_at = model::Timestamp{field(a, {"opensAt"}, K::timestamp, t).number}};
    }
    if (templates::is(t, templates::featured_app_right))
        return FeaturedFact{.provider = Name(party_at(a, {"provider"}, t))};
    if (templates::is(t, templates::amulet_rules)) return RulesFact{.external = false};
    if (templates::is(t, templates::external_party_amulet_rules))
        return RulesFact{.external = true};
    if (templates::is(t, templates::ans_entry)) {
        return std::make_shared<const AnsFact>(AnsFact{
            .user = party_at(a, {"user"}, t),
            .name = text_at(a, {"name"}, t),
            .url = text_at(a, {"url"}, t),
            .description = text_at(a, {"description"}, t),
            .expires_at = model::Timestamp{field(a, {"expiresAt"}, K::timestamp, t).number}});
    }
    if (templates::is(t, templates::vote_request)) {
        const auto& tracking = field(a, {"trackingCid"}, K::optional, t);
        VoteFact fact;
        if (!tracking.items.empty()) fact.tracking_cid = tracking.items.front().text;
        return fact;
    }
    if (templates::is(t, templates::buy_traffic_request)) {
        return BuyTrafficFact{.end_user = Name(party_at(a, {"endUserParty"}, t)),
                              .tracking_id = text_at(a, {"trackingId"}, t),
                              .expires_at = optional_time(a, "expiresAt")};
    }
    return std::monostate{};
}

// Whether the node `in` stands at is of `kind`; `in` then stands after its tag. Else it stands
// after the node.
bool is_kind(model::packed::Reader& in, Value::Kind kind) {
    const char* at = in.position();
    if (in.kind() == kind) return true;
    in.seek(at);
    in.skip();
    return false;
}

// Moves `in`, at a record, to the value of its field `label`; false (and `in` anywhere) when it
// is no record or has no such field.
bool to_field(model::packed::Reader& in, Name label) {
    if (!is_kind(in, Value::Kind::record)) return false;
    for (std::size_t n = in.count(); n > 0; --n) {
        if (in.name() == label) return true;
        in.skip();
    }
    return false;
}

// Whether the record at `in` has, at `path`, a node of `kind`; `in` does not move.
bool holds_at(const model::packed::Reader& in, std::initializer_list<Name> path, Value::Kind kind) {
    model::packed::Reader look = in;
    for (const Name label : path) {
        if (!to_field(look, label)) return false;
    }
    return look.kind() == kind;
}

// Whether the amount record at `at` has the numbers extract() reads: initialAmount and
// ratePerRound.rate Numerics, createdAt.number an Int64 (each the first field of its label), as
// holds_at() of each would say, in one walk of the record rather than one each (a state file's
// load reads 100 000 amounts); `at` does not move.
bool amount_holds(const model::packed::Reader& at, const payloads::AmuletLabels& l) {
    model::packed::Reader in = at;
    if (!is_kind(in, Value::Kind::record)) return false;
    std::optional<bool> initial;
    std::optional<bool> rate;
    std::optional<bool> created;
    for (std::size_t n = in.count(); n > 0; --n) {
        const Name label = in.name();
        if (label == l.initial_amount && !initial) {
            initial = holds_at(in, {}, Value::Kind::numeric);
        } else if (label == l.rate_per_round && !rate) {
            rate = holds_at(in, {l.rate}, Value::Kind::numeric);
        } else if (label == l.created_at && !created) {
            created = holds_at(in, {l.number}, Value::Kind::int64);
        }
        in.skip();
    }
    return initial.value_or(false) && rate.value_or(false) && created.value_or(false);
}

// The owner of the Amulet record at `in`, once its amount is checked as extract() checks it:
// initialAmount and ratePerRound's rate Numerics, createdAt's number an Int64, the owner a Party.
// One walk of the packed record with its labels compared by Name (a write reads every amulet it
// creates and archives), rather than a walk from the root for each field by their texts.
std::optional<Name> amulet_owner(model::packed::Reader in) {
    const payloads::AmuletLabels& l = payloads::amulet_labels();
    if (!is_kind(in, Value::Kind::record)) return std::nullopt;
    std::optional<Name> owner;
    std::optional<bool> amount;  // checked, and whether it passed
    for (std::size_t n = in.count(); n > 0; --n) {
        const Name label = in.name();
        if (label == l.owner && !owner) {
            if (!is_kind(in, Value::Kind::party)) return std::nullopt;
            owner = in.name();
            continue;
        }
        if (label == l.amount && !amount) amount = amount_holds(in, l);
        in.skip();
    }
    if (!amount || !*amount) return std::nullopt;
    return owner;
}

// The owner of a holding's packed argument (an Amulet's, or a LockedAmulet's "amulet").
std::optional<Name> holding_owner(const model::PackedValue& a, bool locked) {
    model::packed::Reader in(a.bytes());
    if (locked && !to_field(in, payloads::amulet_labels().amulet)) return std::nullopt;
    return amulet_owner(in);
}

// Whether a holding's template is LockedAmulet's (true) or Amulet's (false); nullopt for another.
std::optional<bool> holding_lock(const model::TemplateId& t) {
    if (templates::is(t, templates::locked_amulet)) return true;
    if (templates::is(t, templates::amulet)) return false;
    return std::nullopt;
}

// The same of a contract's template, remembered by its TemplateRef on each thread (a network has
// a handful of templates: comparing their names for each of a snapshot's 100 000 rows took 5% of
// a state file's load).
std::optional<bool> holding_lock(model::TemplateRef t) {
    thread_local std::vector<std::pair<std::uint32_t, std::optional<bool>>> known;
    const std::uint32_t ref = t.id();
    for (const auto& [id, lock] : known) {
        if (id == ref) return lock;
    }
    const std::optional<bool> lock = holding_lock(t.get());
    if (known.size() < 64) known.emplace_back(ref, lock);
    return lock;
}

// The same from a packed argument (a state file's): a holding's facts, and any other's, read
// without unpacking it; the errors from the unpacked value.
Fact extract(const model::TemplateId& t, const model::PackedValue& a) {
    if (const std::optional<bool> locked = holding_lock(t)) {
        if (const auto owner = holding_owner(a, *locked))
            return HoldingFact{.owner = *owner, .locked = *locked};
    }
    try {
        return extract(t, PackedFields{a});
    } catch (const Unpack&) {
        return extract(t, model::unpack(a));
    }
}

// The field at `path` of a holding's Amulet record: the argument of an Amulet, its "amulet" in a
// LockedAmulet's.
std::optional<Value> amulet_field(const model::Contract& c, bool locked,
                                  std::initializer_list<std::string_view> path) {
    std::array<std::string_view, 4> full{};
    std::size_t n = 0;
    if (locked) full[n++] = "amulet";
    for (const std::string_view label : path) full.at(n++) = label;
    return model::field_at(c.argument, std::span<const std::string_view>(full.data(), n));
}

// The owner and lock of an Amulet or LockedAmulet (checked when it was created: extract());
// nullopt for a contract of another template.
std::optional<HoldingFact> holding_of(const model::Contract& c) {
    const std::optional<bool> locked = holding_lock(c.template_ref);
    if (!locked) return std::nullopt;
    const std::optional<Name> owner = holding_owner(c.argument, *locked);
    if (!owner) throw std::logic_error("a holding without an owner");
    return HoldingFact{.owner = *owner, .locked = *locked};
}

Value amount_field(const HoldingRow& row, std::initializer_list<std::string_view> path) {
    std::optional<Value> v = amulet_field(*row.contract, row.locked, path);
    if (!v) throw std::logic_error("a holding without amount." + std::string(*(path.begin() + 1)));
    return std::move(*v);
}

}  // namespace

model::Decimal HoldingRow::amount() const {
    return amount_field(*this, {"amount", "initialAmount"}).decimal;
}
model::Decimal HoldingRow::rate_per_round() const {
    return amount_field(*this, {"amount", "ratePerRound", "rate"}).decimal;
}
std::int64_t HoldingRow::created_round() const {
    return amount_field(*this, {"amount", "createdAt", "number"}).number;
}

HoldingRow HoldingsSnapshot::row(std::size_t i) const {
    const model::ContractPtr& c = data->acs->rows[data->acs_rows[i]];
    const std::optional<HoldingFact> holding = holding_of(*c);
    if (!holding) throw std::logic_error("a holding row of another template");
    return HoldingRow{.contract = c, .owner = holding->owner, .locked = holding->locked};
}

std::optional<std::uint32_t> HoldingsSnapshot::holding_at(std::uint32_t acs_row) const {
    const std::vector<std::uint32_t>& rows = data->acs_rows;
    const auto it = std::lower_bound(rows.begin(), rows.end(), acs_row);
    if (it == rows.end() || *it != acs_row) return std::nullopt;
    return static_cast<std::uint32_t>(it - rows.begin());
}

std::vector<std::uint32_t> HoldingsSnapshot::rows_of(std::string_view party) const {
    std::vector<std::uint32_t> out;
    const auto& index = data->acs->rows_by_stakeholder;
    const auto it = index.find(std::string(party));
    if (it == index.end()) return out;
    for (const std::uint32_t acs_row : it->second) {
        if (const auto i = holding_at(acs_row)) out.push_back(*i);
    }
    return out;
}

const SpliceViews& views(const store::LedgerStore& store) {
    const auto* v = store.extension<SpliceViews>();
    if (v == nullptr) throw std::logic_error("the store has no Splice views");
    return *v;
}

SpliceViews& SpliceViews::attach(store::LedgerStore& store) {
    auto views = std::make_unique<SpliceViews>(store, store.undo());
    SpliceViews& out = *views;
    store.add_extension(std::move(views));
    return out;
}

void SpliceViews::prepare(const store::TransactionDraft& draft) {
    prepared_.clear();
    prepared_.resize(draft.nodes.size());  // monostate each
    for (std::size_t i = 0; i < draft.nodes.size(); ++i) {
        if (const auto* c = std::get_if<store::CreateDraft>(&draft.nodes[i].event)) {
            prepared_[i] = c->packed_argument ? extract(c->template_id, *c->packed_argument)
                                              : extract(c->template_id, c->argument);
        }
    }
}

void SpliceViews::on_created(const store::CreatedEvent& event) {
    const Fact& fact = prepared_.at(event.node);
    if (std::holds_alternative<std::monostate>(fact)) return;
    const model::ContractPtr& c = event.contract;
    index(fact, c, event.sequence);
    if (const auto* k = std::get_if<CounterFact>(&fact)) {
        undo_.assign(counter_by_sender_, k->sender, c);
    } else if (const auto* v = std::get_if<VoteFact>(&fact)) {
        undo_.assign(vote_by_tracking_, v->tracking_cid.value_or(c->contract_id.str()),
                     c->contract_id);
    } else if (const auto* b = std::get_if<BuyTrafficFact>(&fact)) {
        undo_.push_back(buy_traffic_[{b->end_user, b->tracking_id}],
                        BuyTrafficEvent{.status = BuyTrafficStatus::created,
                                        .update_id = event.update_id.str(),
                                        .offset = event.offset});
    }
}

void SpliceViews::index(const Fact& fact, const model::ContractPtr& c, std::uint64_t sequence) {
    if (const auto* h = std::get_if<HoldingFact>(&fact)) {
        if (!h->locked) {
            store::SequenceSet& set = unlocked_by_owner_[h->owner];
            const auto s = static_cast<std::uint32_t>(sequence);
            if (set.insert(s)) undo_.record([&set, s] { set.erase(s); });
        }
        return;
    }
    undo_.assign(facts_, c->contract_id, Indexed{.fact = fact, .sequence = sequence});
    if (const auto expiry = expiry_of(fact)) {
        undo_.assign(expiring_, std::pair{expiry->first, sequence},
                     ExpiringContract{.kind = expiry->second,
                                      .contract_id = c->contract_id,
                                      .expires_at = expiry->first});
    }
    if (const auto* o = std::get_if<OfferFact>(&fact)) {
        undo_.assign(offers_by_party_[o->sender], sequence, c);
        undo_.assign(offers_by_party_[o->receiver], sequence, c);
    } else if (const auto* pre = std::get_if<PreapprovalFact>(&fact)) {
        undo_.assign(preapprovals_by_receiver_[pre->receiver], std::pair{pre->valid_from, sequence},
                     c);
    } else if (const auto* round = std::get_if<OpenRoundFact>(&fact)) {
        undo_.assign(open_rounds_, std::pair{round->round, sequence},
                     std::pair{c, round->opens_at});
    } else if (const auto* rules = std::get_if<RulesFact>(&fact)) {
        undo_.assign(rules->external ? external_rules_ : amulet_rules_, sequence, c);
    } else if (const auto* f = std::get_if<FeaturedFact>(&fact)) {
        undo_.assign(featured_by_provider_[f->provider], sequence, c);
    } else if (const auto* boxed = std::get_if<std::shared_ptr<const AnsFact>>(&fact)) {
        const AnsFact* a = boxed->get();
        undo_.assign(ans_by_name_[a->name], sequence,
                     AnsEntryFact{.contract = c,
                                  .user = a->user,
                                  .name = a->name,
                                  .url = a->url,
                                  .description = a->description,
                                  .expires_at = a->expires_at});
    } else if (std::holds_alternative<VoteFact>(fact)) {
        undo_.assign(vote_requests_, sequence, c);
    } else if (const auto* b = std::get_if<BuyTrafficFact>(&fact)) {
        undo_.assign(buy_traffic_request_, c->contract_id,
                     std::pair<Name, std::string>{b->end_user, b->tracking_id});
    }
}

SpliceViews::Kept SpliceViews::kept() const {
    const auto lock = store_.read_lock();
    Kept out;
    out.buy_traffic.assign(buy_traffic_.begin(), buy_traffic_.end());
    out.counters.reserve(counter_by_sender_.size());
    for (const auto& [sender, counter] : counter_by_sender_)
        out.counters.emplace_back(sender, counter->contract_id);
    std::sort(out.counters.begin(), out.counters.end());
    out.votes.assign(vote_by_tracking_.begin(), vote_by_tracking_.end());
    std::sort(out.votes.begin(), out.votes.end());
    return out;
}

SpliceViews::Holding SpliceViews::HoldingReader::operator()(const model::Contract& c) {
    const std::optional<bool> locked = holding_lock(c.template_ref);
    if (!locked) return {};
    return Holding{.holding = true,
                   .locked = *locked,
                   .owner = holding_owner(c.argument, *locked).value_or(Name())};
}

SpliceViews::Holding SpliceViews::HoldingReader::operator()(const store::ContractState& state) {
    Holding holding = (*this)(*state.contract);
    holding.active = state.archived_at == 0;
    return holding;
}

void SpliceViews::restore(Kept kept, std::span<const Holding> holdings,
                          const std::deque<store::ContractState>& contracts,
                          std::span<const store::SnapshotPtr> snapshots) {
    if (holdings.size() != contracts.size())
        throw std::logic_error("a restore without a holding for each contract");
    // The owners' unlocked amulets on a thread of their own, as index() lists them (nothing is
    // recorded to undo), from what the reader read: nothing else touches unlocked_by_owner_.
    // Should this thread throw, the future's destructor waits for that one.
    auto owners = std::async(std::launch::async, [this, holdings] {
        for (std::size_t sequence = 0; sequence < holdings.size(); ++sequence) {
            const Holding& holding = holdings[sequence];
            if (holding.holding && holding.active && !holding.locked && !holding.owner.empty())
                unlocked_by_owner_[holding.owner].insert(static_cast<std::uint32_t>(sequence));
        }
    });
    // Whether extract() reads a template, learnt from its first active contract: a network has a
    // handful of templates, whose further contracts then skip the comparisons of names.
    std::vector<std::pair<std::uint32_t, bool>> viewed;
    for (std::size_t sequence = 0; sequence < contracts.size(); ++sequence) {
        const Holding& holding = holdings[sequence];
        if (holding.holding) {
            // A snapshot reads an archived holding's owner too: it was checked when it was
            // created.
            if (holding.owner.empty()) {
                const model::Contract& c = *contracts[sequence].contract;
                (void)extract(c.template_id(), c.argument);  // throws what is wrong
                throw AppendError(c.contract_id.str() + " has no owner");
            }
            continue;
        }
        const store::ContractState& state = contracts[sequence];
        if (state.archived_at != 0) continue;
        const model::Contract& c = *state.contract;
        const std::uint32_t ref = c.template_ref.id();
        auto known = std::find_if(viewed.begin(), viewed.end(),
                                  [ref](const auto& t) { return t.first == ref; });
        if (known != viewed.end() && !known->second) continue;
        const Fact fact = extract(c.template_id(), c.argument);
        const bool is_viewed = !std::holds_alternative<std::monostate>(fact);
        if (known == viewed.end()) viewed.emplace_back(ref, is_viewed);
        if (is_viewed) index(fact, state.contract, sequence);
    }
    for (const store::SnapshotPtr& snapshot : snapshots) on_snapshot(*snapshot);
    owners.get();
    for (auto& [key, events] : kept.buy_traffic) buy_traffic_[key] = std::move(events);
    // Each current counter and vote request is an active one, of its sender and of a vote.
    for (const auto& [sender, id] : kept.counters) {
        const auto fact = facts_.find(id);
        const auto* counter =
            fact == facts_.end() ? nullptr : std::get_if<CounterFact>(&fact->second.fact);
        if (counter == nullptr || counter->sender != sender)
            throw AppendError("the counter of " + sender.str() + " is not an active one of theirs");
        counter_by_sender_[sender] = contracts[fact->second.sequence].contract;
    }
    for (auto& [tracking, id] : kept.votes) {
        const auto fact = facts_.find(id);
        if (fact == facts_.end() || !std::holds_alternative<VoteFact>(fact->second.fact))
            throw AppendError("the vote tracked by " + tracking + " is no active vote request");
        vote_by_tracking_[std::move(tracking)] = id;
    }
}

void SpliceViews::on_archived(const model::Contract& c, std::uint64_t sequence) {
    if (const std::optional<HoldingFact> holding = holding_of(c)) {
        if (!holding->locked) {
            store::SequenceSet& set = unlocked_by_owner_[holding->owner];
            const auto s = static_cast<std::uint32_t>(sequence);
            if (set.erase(s)) undo_.record([&set, s] { set.insert(s); });
        }
        return;
    }
    const auto it = facts_.find(c.contract_id);
    if (it == facts_.end()) return;
    const Fact& fact = it->second.fact;
    if (const auto expiry = expiry_of(fact))
        undo_.erase(expiring_, std::pair{expiry->first, sequence});
    if (const auto* o = std::get_if<OfferFact>(&fact)) {
        undo_.erase(offers_by_party_[o->sender], sequence);
        undo_.erase(offers_by_party_[o->receiver], sequence);
    } else if (const auto* k = std::get_if<CounterFact>(&fact)) {
        const auto counter = counter_by_sender_.find(k->sender);
        if (counter != counter_by_sender_.end() && counter->second->contract_id == c.contract_id) {
            undo_.erase(counter_by_sender_, k->sender);
        }
    } else if (const auto* pre = std::get_if<PreapprovalFact>(&fact)) {
        undo_.erase(preapprovals_by_receiver_[pre->receiver], std::pair{pre->valid_from, sequence});
    } else if (const auto* round = std::get_if<OpenRoundFact>(&fact)) {
        undo_.erase(open_rounds_, std::pair{round->round, sequence});
    } else if (const auto* rules = std::get_if<RulesFact>(&fact)) {
        undo_.erase(rules->external ? external_rules_ : amulet_rules_, sequence);
    } else if (const auto* f = std::get_if<FeaturedFact>(&fact)) {
        undo_.erase(featured_by_provider_[f->provider], sequence);
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
        undo_.erase(buy_traffic_request_, c.contract_id);
    }
    undo_.erase(facts_, c.contract_id);
}

void SpliceViews::on_exercised(const store::ExerciseDraft& e, const model::UpdateId& update_id,
                               Offset offset) {
    const auto id = Name::find(e.contract_id);
    const auto request = id ? buy_traffic_request_.find(*id) : buy_traffic_request_.end();
    if (request == buy_traffic_request_.end()) return;
    BuyTrafficEvent event{.update_id = update_id.str(), .offset = offset};
    if (e.choice == "BuyTrafficRequest_Complete") {
        event.status = BuyTrafficStatus::completed;
    } else if (e.choice == "BuyTrafficRequest_Cancel") {
        event.status = BuyTrafficStatus::rejected;
        const Value a = store::value_of(e.packed_argument, e.argument);
        const Value* reason = a.kind == Value::Kind::record ? a.field("reason") : nullptr;
        if (reason != nullptr) event.reason = reason->text;
    } else if (e.choice == "BuyTrafficRequest_Expire") {
        event.status = BuyTrafficStatus::expired;
    } else {
        return;
    }
    undo_.push_back(buy_traffic_[request->second], std::move(event));
}

void SpliceViews::on_snapshot(const store::Snapshot& snapshot) {
    const std::shared_ptr<const store::AcsRows>& acs = snapshot.acs_data();
    if (!last_rows_ || last_rows_->acs != acs) {
        // The rows of the holdings' templates, merged: the rows are not read one by one (a
        // contract each, a cache miss each in a large ACS). Each template's rows share its name,
        // and so whether it is a holding.
        auto data = std::make_shared<HoldingRows>();
        data->acs = acs;
        for (const auto& [name, rows] : acs->rows_by_template) {
            if (rows.empty() || !holding_lock(acs->rows[rows.front()]->template_ref)) continue;
            const auto middle = static_cast<std::ptrdiff_t>(data->acs_rows.size());
            data->acs_rows.insert(data->acs_rows.end(), rows.begin(), rows.end());
            std::inplace_merge(data->acs_rows.begin(), data->acs_rows.begin() + middle,
                               data->acs_rows.end());
        }
        last_rows_ = std::move(data);
    }
    const std::int64_t migration_id = snapshot.migration_id;
    if (!snapshots_.contains(migration_id)) {
        undo_.assign(snapshots_, migration_id, std::map<model::Timestamp, HoldingsSnapshotPtr>{});
    }
    undo_.assign(snapshots_[migration_id], snapshot.record_time,
                 std::make_shared<const HoldingsSnapshot>(
                     HoldingsSnapshot{.migration_id = migration_id,
                                      .record_time = snapshot.record_time,
                                      .first_row = next_row_id_,
                                      .data = last_rows_}));
    undo_.set(next_row_id_, next_row_id_ + static_cast<std::int64_t>(last_rows_->acs_rows.size()));
}

void SpliceViews::on_rollback() {
    last_rows_.reset();  // the ACS may be back to another state in rows of the same address
}

void SpliceViews::on_swap(store::LedgerExtension& other_extension) {
    auto& other = dynamic_cast<SpliceViews&>(other_extension);
    using std::swap;
    swap(prepared_, other.prepared_);
    swap(facts_, other.facts_);
    swap(unlocked_by_owner_, other.unlocked_by_owner_);
    swap(offers_by_party_, other.offers_by_party_);
    swap(counter_by_sender_, other.counter_by_sender_);
    swap(preapprovals_by_receiver_, other.preapprovals_by_receiver_);
    swap(open_rounds_, other.open_rounds_);
    swap(amulet_rules_, other.amulet_rules_);
    swap(featured_by_provider_, other.featured_by_provider_);
    swap(external_rules_, other.external_rules_);
    swap(ans_by_name_, other.ans_by_name_);
    swap(vote_requests_, other.vote_requests_);
    swap(vote_by_tracking_, other.vote_by_tracking_);
    swap(buy_traffic_, other.buy_traffic_);
    swap(buy_traffic_request_, other.buy_traffic_request_);
    swap(expiring_, other.expiring_);
    swap(snapshots_, other.snapshots_);
    swap(next_row_id_, other.next_row_id_);
    swap(last_rows_, other.last_rows_);
}

HoldingsSnapshotPtr SpliceViews::holdings(const store::Snapshot& snapshot) const {
    const auto lock = store_.read_lock();
    const auto m = snapshots_.find(snapshot.migration_id);
    if (m != snapshots_.end()) {
        if (const auto it = m->second.find(snapshot.record_time); it != m->second.end()) {
            return it->second;
        }
    }
    throw std::logic_error("the Splice views missed a snapshot of the store");
}

std::vector<model::ContractPtr> SpliceViews::active_vote_requests() const {
    const auto lock = store_.read_lock();
    std::vector<model::ContractPtr> out;
    for (const auto& [_, c] : vote_requests_) out.push_back(c);
    return out;
}

model::ContractPtr SpliceViews::vote_request_by_tracking_cid(std::string_view cid) const {
    const auto lock = store_.read_lock();
    const auto it = vote_by_tracking_.find(std::string(cid));
    if (it == vote_by_tracking_.end()) return nullptr;
    const auto fact = facts_.find(it->second);
    return fact == facts_.end() ? nullptr : vote_requests_.at(fact->second.sequence);
}

std::vector<model::ContractPtr> SpliceViews::transfer_offers_of(std::string_view party) const {
    const auto lock = store_.read_lock();
    std::vector<model::ContractPtr> out;
    const auto name = Name::find(party);
    const auto it = name ? offers_by_party_.find(*name) : offers_by_party_.end();
    if (it == offers_by_party_.end()) return out;
    for (const auto& [_, c] : it->second) out.push_back(c);
    return out;
}

std::optional<store::ContractState> SpliceViews::transfer_command_counter_of(
    std::string_view sender) const {
    model::ContractPtr counter;
    {
        const auto lock = store_.read_lock();
        const auto name = Name::find(sender);
        const auto it = name ? counter_by_sender_.find(*name) : counter_by_sender_.end();
        if (it == counter_by_sender_.end()) return std::nullopt;
        counter = it->second;
    }
    return store_.contract(counter->contract_id.view());
}

std::optional<store::ContractState> SpliceViews::transfer_preapproval_of(
    std::string_view receiver) const {
    model::ContractPtr preapproval;
    {
        const auto lock = store_.read_lock();
        const auto name = Name::find(receiver);
        const auto it =
            name ? preapprovals_by_receiver_.find(*name) : preapprovals_by_receiver_.end();
        if (it == preapprovals_by_receiver_.end() || it->second.empty()) return std::nullopt;
        preapproval = it->second.rbegin()->second;
    }
    return store_.contract(preapproval->contract_id.view());
}

std::vector<store::ContractState> SpliceViews::open_rounds() const {
    std::vector<model::ContractPtr> rounds;
    {
        const auto lock = store_.read_lock();
        for (const auto& [key, round] : open_rounds_) rounds.push_back(round.first);
    }
    std::vector<store::ContractState> out;
    for (const model::ContractPtr& round : rounds) {
        if (auto state = store_.contract(round->contract_id.view()))
            out.push_back(std::move(*state));
    }
    return out;
}

std::optional<store::ContractState> SpliceViews::latest_usable_open_round(
    model::Timestamp now) const {
    model::ContractPtr round;
    {
        const auto lock = store_.read_lock();
        for (auto it = open_rounds_.rbegin(); it != open_rounds_.rend(); ++it) {
            if (it->second.second < now) {
                round = it->second.first;
                break;
            }
        }
    }
    if (!round) return std::nullopt;
    return store_.contract(round->contract_id.view());
}

namespace {

// The latest of `by_sequence` (read under the store's lock), and where it is.
std::optional<store::ContractState> latest_of(
    const store::LedgerStore& store,
    const std::map<std::uint64_t, model::ContractPtr>& by_sequence) {
    model::ContractPtr latest;
    {
        const auto lock = store.read_lock();
        if (by_sequence.empty()) return std::nullopt;
        latest = by_sequence.rbegin()->second;
    }
    return store.contract(latest->contract_id.view());
}

}  // namespace

std::optional<store::ContractState> SpliceViews::amulet_rules() const {
    return latest_of(store_, amulet_rules_);
}

std::optional<store::ContractState> SpliceViews::external_party_amulet_rules() const {
    return latest_of(store_, external_rules_);
}

std::optional<store::ContractState> SpliceViews::featured_app_right_of(
    std::string_view provider) const {
    model::ContractPtr right;
    {
        const auto lock = store_.read_lock();
        const std::optional<Name> name = Name::find(provider);
        const auto it = name ? featured_by_provider_.find(*name) : featured_by_provider_.end();
        if (it == featured_by_provider_.end() || it->second.empty()) return std::nullopt;
        right = it->second.rbegin()->second;
    }
    return store_.contract(right->contract_id.view());
}

std::optional<AnsEntryFact> SpliceViews::ans_entry(std::string_view name,
                                                   model::Timestamp at) const {
    const auto lock = store_.read_lock();
    const auto it = ans_by_name_.find(std::string(name));
    if (it == ans_by_name_.end()) return std::nullopt;
    for (const auto& [_, entry] : it->second) {
        if (entry.expires_at >= at) return entry;
    }
    return std::nullopt;
}

std::vector<model::ContractPtr> SpliceViews::unlocked_amulets_of(std::string_view owner) const {
    const auto lock = store_.read_lock();
    std::vector<model::ContractPtr> out;
    const std::optional<Name> name = Name::find(owner);
    const auto it = name ? unlocked_by_owner_.find(*name) : unlocked_by_owner_.end();
    if (it == unlocked_by_owner_.end()) return out;
    out.reserve(it->second.size());
    it->second.for_each(
        [&](std::uint32_t sequence) { out.push_back(store_.created_locked(sequence)); });
    return out;
}

std::vector<ExpiringContract> SpliceViews::expiring_until(model::Timestamp t) const {
    const auto lock = store_.read_lock();
    std::vector<ExpiringContract> out;
    for (const auto& [key, contract] : expiring_) {
        if (t < key.first) break;
        out.push_back(contract);
    }
    return out;
}

std::optional<BuyTrafficEvent> SpliceViews::latest_buy_traffic_event(
    std::string_view party, std::string_view tracking_id) const {
    const auto lock = store_.read_lock();
    const auto name = Name::find(party);
    if (!name) return std::nullopt;
    const auto it = buy_traffic_.find(std::pair<Name, std::string>(*name, tracking_id));
    if (it == buy_traffic_.end() || it->second.empty()) return std::nullopt;
    return it->second.back();
}

}  // namespace cantonlite::splice
