#pragma once
// SpliceViews: the per-template indexes of the Splice contracts that the scan and validator areas
// read (holdings, transfer offers, counters, ANS entries, vote requests, buy-traffic requests).

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <variant>
#include <vector>

#include "cantonlite/model/contract.hpp"
#include "cantonlite/model/decimal.hpp"
#include "cantonlite/model/value.hpp"
#include "cantonlite/store/ledger_store.hpp"

namespace cantonlite::store {

struct HoldingFact {
    Name owner;
    model::Decimal amount;
    bool locked = false;
    std::int64_t created_round = 0;
    model::Decimal rate_per_round;
};
struct OfferFact {
    Party sender;
    Party receiver;
    std::optional<model::Timestamp> expires_at;
};
struct CounterFact {
    Party sender;
};
struct AnsFact {
    Party user;
    std::string name;
    std::string url;
    std::string description;
    model::Timestamp expires_at;
};
struct VoteFact {
    std::optional<std::string> tracking_cid;
};
struct BuyTrafficFact {
    Party end_user;
    std::string tracking_id;
    std::optional<model::Timestamp> expires_at;
};

// What the indexes need of one contract, read from its argument once. Kept per active contract:
// the rare, large AnsFact is boxed so that a holding's fact stays small.
using Fact = std::variant<std::monostate, HoldingFact, OfferFact, CounterFact,
                          std::shared_ptr<const AnsFact>, VoteFact, BuyTrafficFact>;

// The indexes. Not thread-safe: the LedgerStore guards it with its mutex. Every change is recorded
// in the store's undo log.
class SpliceViews {
  public:
    explicit SpliceViews(UndoLog& undo) : undo_(undo) {}

    // The facts of a contract of `template_id` with `argument`; monostate for templates no view
    // indexes. Throws AppendError when a Splice template's argument lacks a field the views need.
    [[nodiscard]] static Fact extract(const model::TemplateId& template_id,
                                      const model::Value& argument);

    void on_created(const model::ContractPtr& contract, const Fact& fact, std::uint64_t sequence,
                    const std::string& update_id, Offset offset);
    void on_archived(const model::Contract& contract);
    // A choice exercised in a committed transaction (buy-traffic request outcomes).
    void on_exercised(const ExerciseDraft& exercise, const std::string& update_id, Offset offset);

    // Active holdings in (created_at, contract id) order.
    [[nodiscard]] std::vector<HoldingRow> holdings() const;
    // Goes up with every change of the holdings (never down, not even on a rollback).
    [[nodiscard]] std::uint64_t holdings_version() const { return holdings_version_; }

    [[nodiscard]] std::vector<model::ContractPtr> active_vote_requests() const;
    [[nodiscard]] model::ContractPtr vote_request_by_tracking_cid(std::string_view cid) const;
    [[nodiscard]] std::vector<model::ContractPtr> transfer_offers_of(std::string_view party) const;
    [[nodiscard]] std::optional<Name> transfer_command_counter_of(std::string_view sender) const;
    [[nodiscard]] std::optional<AnsEntryFact> ans_entry(std::string_view name,
                                                        model::Timestamp at) const;
    [[nodiscard]] std::optional<BuyTrafficEvent> latest_buy_traffic_event(
        std::string_view party, std::string_view tracking_id) const;
    // The active Amulets (not locked) of `owner`, in creation order.
    [[nodiscard]] std::vector<model::ContractPtr> unlocked_amulets_of(std::string_view owner) const;
    // Active contracts that expire at or before `t`, by expiry then creation.
    [[nodiscard]] std::vector<ExpiringContract> expiring_until(model::Timestamp t) const;

  private:
    UndoLog& undo_;
    // (created_at, contract id); Names compare by their texts.
    using HoldingKey = std::pair<model::Timestamp, Name>;
    struct Indexed {
        Fact fact;
        std::uint64_t sequence = 0;
    };

    std::unordered_map<Name, Indexed> facts_;  // by contract id, active only
    std::map<HoldingKey, HoldingRow> holdings_;
    std::uint64_t holdings_version_ = 0;
    std::unordered_map<Name, std::map<std::uint64_t, model::ContractPtr>> unlocked_by_owner_;
    std::unordered_map<Party, std::map<std::uint64_t, model::ContractPtr>> offers_by_party_;
    std::unordered_map<Party, Name> counter_by_sender_;
    std::unordered_map<std::string, std::map<std::uint64_t, AnsEntryFact>> ans_by_name_;
    std::map<std::uint64_t, model::ContractPtr> vote_requests_;
    std::unordered_map<std::string, Name> vote_by_tracking_;  // tracking cid -> current cid
    std::map<std::pair<Party, std::string>, std::vector<BuyTrafficEvent>, std::less<>> buy_traffic_;
    std::unordered_map<std::string, std::pair<Party, std::string>> buy_traffic_request_;  // cid ->
    // Offers, buy-traffic requests and ANS entries by (expiry, creation sequence).
    std::map<std::pair<model::Timestamp, std::uint64_t>, ExpiringContract> expiring_;
};

}  // namespace cantonlite::store
