#pragma once
// SpliceViews: everything the scan and validator areas and the seed steps read of the Splice
// contracts, built from the store's appends as a LedgerExtension: the holdings and their Scan
// snapshots, transfer offers, transfer command counters, transfer preapprovals, open mining
// rounds, the amulet rules, ANS entries, vote requests, buy-traffic requests and what the
// automation expires. The Splice templates and the payload fields these views read are named here
// and in splice_views.cpp, nowhere in the store.

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <variant>
#include <vector>

#include "cantonlite/model/contract.hpp"
#include "cantonlite/model/decimal.hpp"
#include "cantonlite/model/name.hpp"
#include "cantonlite/model/timestamp.hpp"
#include "cantonlite/store/ledger_extension.hpp"
#include "cantonlite/store/ledger_store.hpp"
#include "cantonlite/store/sequence_set.hpp"

namespace cantonlite::splice {

using model::Name;
using store::Offset;
using Party = std::string;

// One Amulet or LockedAmulet of a holdings snapshot: the contract, its owner and lock, read from
// the contract when the row is read (HoldingsSnapshot::row), as are the amounts (the views checked
// them all when it was created). Nothing keeps rows: a snapshot keeps 4 bytes a holding.
struct HoldingRow {
    model::ContractPtr contract;
    Name owner;  // Amulet.owner, LockedAmulet.amulet.owner
    bool locked = false;

    [[nodiscard]] model::Decimal amount() const;          // amount.initialAmount
    [[nodiscard]] model::Decimal rate_per_round() const;  // amount.ratePerRound.rate
    [[nodiscard]] std::int64_t created_round() const;     // amount.createdAt.number
};

// The holdings of one ACS snapshot: which of its rows are Amulets and LockedAmulets, as indexes
// into them (4 bytes a holding; the snapshot's contracts and stakeholder index are the store's).
// Snapshots of an unchanged ACS share one (a clock moved by a year takes thousands of snapshots of
// the same rows).
struct HoldingRows {
    std::shared_ptr<const store::AcsRows> acs;
    std::vector<std::uint32_t> acs_rows;  // ascending
};

// The holdings of one Scan ACS snapshot, in (created_at, contract_id) order, with consecutive row
// ids: Scan numbers the rows of all snapshots in one sequence. Immutable; shared with readers.
struct HoldingsSnapshot {
    std::int64_t migration_id = 0;
    model::Timestamp record_time;
    std::int64_t first_row = 1;
    std::shared_ptr<const HoldingRows> data;

    [[nodiscard]] std::size_t size() const { return data->acs_rows.size(); }
    [[nodiscard]] bool empty() const { return data->acs_rows.empty(); }
    // Holding i (< size()), its owner and lock read from its contract.
    [[nodiscard]] HoldingRow row(std::size_t i) const;
    // The indexes of the holdings `party` is a stakeholder of, ascending.
    [[nodiscard]] std::vector<std::uint32_t> rows_of(std::string_view party) const;
    // The index of the holding at ACS row `acs_row`; nullopt when that row holds no holding.
    [[nodiscard]] std::optional<std::uint32_t> holding_at(std::uint32_t acs_row) const;
    // The row id of row(i).
    [[nodiscard]] std::int64_t row_id(std::size_t i) const {
        return first_row + static_cast<std::int64_t>(i);
    }
    [[nodiscard]] std::int64_t first_row_id() const { return empty() ? 0 : first_row; }
    [[nodiscard]] std::int64_t last_row_id() const { return empty() ? 0 : row_id(size() - 1); }
};
using HoldingsSnapshotPtr = std::shared_ptr<const HoldingsSnapshot>;

struct AnsEntryFact {
    model::ContractPtr contract;
    Party user;
    std::string name;
    std::string url;
    std::string description;
    model::Timestamp expires_at;
};

enum class BuyTrafficStatus { created, completed, rejected, expired };

// One state change of a buy-traffic request in its end user's history.
struct BuyTrafficEvent {
    BuyTrafficStatus status = BuyTrafficStatus::created;
    std::string update_id;  // of the transaction that caused it
    std::string reason;     // rejected: the cancel reason
    Offset offset = 0;
};

// A contract that the network's automation expires once its time has passed.
struct ExpiringContract {
    enum class Kind { transfer_offer, buy_traffic_request, ans_entry };
    Kind kind = Kind::transfer_offer;
    Name contract_id;
    model::Timestamp expires_at;
};

class SpliceViews;

// The Splice views of `store`. Throws std::logic_error when none were attached.
[[nodiscard]] const SpliceViews& views(const store::LedgerStore& store);

// Every query takes the store's readers' lock; what it returns stays valid after it.
class SpliceViews final : public store::LedgerExtension {
  public:
    // Adds the Splice views to `store` (before its first append) and returns them.
    static SpliceViews& attach(store::LedgerStore& store);

    explicit SpliceViews(const store::LedgerStore& store, store::UndoLog& undo)
        : store_(store), undo_(undo) {}

    // The holdings of `snapshot`, a snapshot of the store.
    [[nodiscard]] HoldingsSnapshotPtr holdings(const store::Snapshot& snapshot) const;

    // Scan: active VoteRequests in ingestion order; the current one tracked by `tracking_cid`.
    [[nodiscard]] std::vector<model::ContractPtr> active_vote_requests() const;
    [[nodiscard]] model::ContractPtr vote_request_by_tracking_cid(std::string_view cid) const;
    // Validator: active TransferOffers whose sender or receiver is `party`, in creation order.
    [[nodiscard]] std::vector<model::ContractPtr> transfer_offers_of(std::string_view party) const;
    // The active TransferCommandCounter of `sender`, and where it is.
    [[nodiscard]] std::optional<store::ContractState> transfer_command_counter_of(
        std::string_view sender) const;
    // The active TransferPreapproval of `receiver` with the latest validFrom (Scan's lookup, which
    // does not look at the expiry), and where it is.
    [[nodiscard]] std::optional<store::ContractState> transfer_preapproval_of(
        std::string_view receiver) const;
    // Scan's lookupFeaturedAppRight: the active FeaturedAppRight of `provider` (the latest
    // created, should there be more), and where it is.
    [[nodiscard]] std::optional<store::ContractState> featured_app_right_of(
        std::string_view provider) const;
    // Scan's lookupLatestUsableOpenMiningRound: the active OpenMiningRound with the highest round
    // number whose opensAt is before `now` (strictly), and where it is.
    [[nodiscard]] std::optional<store::ContractState> latest_usable_open_round(
        model::Timestamp now) const;
    // Every active OpenMiningRound, by round number (then creation), and where each is.
    [[nodiscard]] std::vector<store::ContractState> open_rounds() const;
    // The active AmuletRules and ExternalPartyAmuletRules (the latest created, should there be
    // more), and where they are.
    [[nodiscard]] std::optional<store::ContractState> amulet_rules() const;
    [[nodiscard]] std::optional<store::ContractState> external_party_amulet_rules() const;
    // The active AnsEntry named `name` that expires at or after `at`.
    [[nodiscard]] std::optional<AnsEntryFact> ans_entry(std::string_view name,
                                                        model::Timestamp at) const;
    // The latest buy-traffic event of `party`'s request `tracking_id`.
    [[nodiscard]] std::optional<BuyTrafficEvent> latest_buy_traffic_event(
        std::string_view party, std::string_view tracking_id) const;
    // The active Amulets (not locked) of `owner`, in creation order.
    [[nodiscard]] std::vector<model::ContractPtr> unlocked_amulets_of(std::string_view owner) const;
    // Active TransferOffers, BuyTrafficRequests and AnsEntries whose expiry is at or before `t`,
    // by expiry then creation order.
    [[nodiscard]] std::vector<ExpiringContract> expiring_until(model::Timestamp t) const;

    // What of the views a state file keeps beyond the active contracts and the snapshots, from
    // which restore() derives the rest: what earlier transactions left.
    struct Kept {
        // Each buy-traffic request's history, by (end user, tracking id).
        std::vector<std::pair<std::pair<Name, std::string>, std::vector<BuyTrafficEvent>>>
            buy_traffic;
        // Each sender's current TransferCommandCounter: an earlier one may be active still.
        std::vector<std::pair<Name, Name>> counters;
        // Each tracking contract id's current VoteRequest.
        std::vector<std::pair<std::string, Name>> votes;
    };
    // In a fixed order (a state file's bytes do not depend on a hash table's).
    [[nodiscard]] Kept kept() const;
    // A contract's holding as restore() reads it: whether it is an Amulet or a LockedAmulet, its
    // owner (empty when its argument lacks what a holding has: restore() then refuses it) and
    // whether it is locked.
    struct Holding {
        bool holding = false;
        bool locked = false;
        bool active = true;  // not archived
        Name owner;
    };
    // Reads contracts' holdings ahead of restore(), on any thread: a state file's decoding
    // threads read each contract's while its argument is in cache, where restore() would read a
    // hundred thousand arguments again, from memory. What each template is, each thread
    // remembers by its TemplateRef.
    class HoldingReader {
      public:
        Holding operator()(const model::Contract& c);
        // The same, active when the contract is not archived.
        Holding operator()(const store::ContractState& state);
    };
    // Builds the views of a store restored at once (LedgerStore::restore) from what it restores,
    // reading nothing else of the store, so that it may run beside the restore (its `alongside`):
    // the active contracts' facts (`contracts`, the store's, in creation order; holdings[s] is a
    // HoldingReader's of contracts[s]), the holdings of `snapshots` (in the order taken), and
    // `kept`. Throws
    // AppendError as an append would for a Splice contract without the fields the views read.
    // REQUIRES: the views are empty.
    void restore(Kept kept, std::span<const Holding> holdings,
                 const std::deque<store::ContractState>& contracts,
                 std::span<const store::SnapshotPtr> snapshots);

    // ---- LedgerExtension ----
    void prepare(const store::TransactionDraft& draft) override;
    void on_created(const store::CreatedEvent& event) override;
    void on_exercised(const store::ExerciseDraft& exercise, const model::UpdateId& update_id,
                      Offset offset) override;
    void on_archived(const model::Contract& contract, std::uint64_t sequence) override;
    void on_snapshot(const store::Snapshot& snapshot) override;
    void on_rollback() override;
    void on_swap(store::LedgerExtension& other) override;

    // An Amulet's owner, or a LockedAmulet's (locked).
    struct HoldingFact {
        Name owner;
        bool locked = false;
    };
    struct OfferFact {
        Name sender;
        Name receiver;
        std::optional<model::Timestamp> expires_at;
    };
    struct CounterFact {
        Name sender;
    };
    struct PreapprovalFact {
        Name receiver;
        model::Timestamp valid_from;
    };
    struct FeaturedFact {
        Name provider;
    };
    struct OpenRoundFact {
        std::int64_t round = 0;
        model::Timestamp opens_at;
    };
    // An AmuletRules or an ExternalPartyAmuletRules.
    struct RulesFact {
        bool external = false;
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
        Name end_user;
        std::string tracking_id;
        std::optional<model::Timestamp> expires_at;
    };
    // What the views read of one contract's argument, once: a holding's owner, or the facts of
    // another Splice contract (the rare, large AnsFact boxed).
    using Fact = std::variant<std::monostate, HoldingFact, OfferFact, CounterFact, PreapprovalFact,
                              std::shared_ptr<const AnsFact>, VoteFact, BuyTrafficFact,
                              OpenRoundFact, RulesFact, FeaturedFact>;

  private:
    const store::LedgerStore& store_;
    store::UndoLog& undo_;

    struct Indexed {
        Fact fact;
        std::uint64_t sequence = 0;
    };
    // Adds active contract `c` of creation sequence `sequence`, of facts `fact`, to the views that
    // derive from the active contracts alone.
    void index(const Fact& fact, const model::ContractPtr& c, std::uint64_t sequence);

    // The facts of the draft being appended, by node (prepare to on_created).
    std::vector<Fact> prepared_;
    // The facts of the Splice contracts other than holdings, by contract id (a holding's are
    // read from its contract: holding_of).
    std::unordered_map<Name, Indexed> facts_;
    // By owner, their creation sequences (the store has the contracts): a sorted vector each (new
    // ones go last; an owner has thousands at most), 4 bytes an amulet.
    std::unordered_map<Name, store::SequenceSet> unlocked_by_owner_;
    std::unordered_map<Name, std::map<std::uint64_t, model::ContractPtr>> offers_by_party_;
    std::unordered_map<Name, model::ContractPtr> counter_by_sender_;
    // By receiver, by (validFrom, creation sequence).
    std::unordered_map<Name,
                       std::map<std::pair<model::Timestamp, std::uint64_t>, model::ContractPtr>>
        preapprovals_by_receiver_;
    // Active OpenMiningRounds by (round number, creation sequence), with their opensAt.
    std::map<std::pair<std::int64_t, std::uint64_t>,
             std::pair<model::ContractPtr, model::Timestamp>>
        open_rounds_;
    // Active AmuletRules and ExternalPartyAmuletRules by creation sequence.
    std::map<std::uint64_t, model::ContractPtr> amulet_rules_;
    // Active FeaturedAppRights by provider, by creation sequence.
    std::unordered_map<Name, std::map<std::uint64_t, model::ContractPtr>> featured_by_provider_;
    std::map<std::uint64_t, model::ContractPtr> external_rules_;
    std::unordered_map<std::string, std::map<std::uint64_t, AnsEntryFact>> ans_by_name_;
    std::map<std::uint64_t, model::ContractPtr> vote_requests_;
    std::unordered_map<std::string, Name> vote_by_tracking_;  // tracking cid -> current cid
    std::map<std::pair<Name, std::string>, std::vector<BuyTrafficEvent>> buy_traffic_;
    std::unordered_map<Name, std::pair<Name, std::string>> buy_traffic_request_;  // cid ->
    // Offers, buy-traffic requests and ANS entries by (expiry, creation sequence).
    std::map<std::pair<model::Timestamp, std::uint64_t>, ExpiringContract> expiring_;
    // The holdings of each snapshot, by migration and record time, and the next row id.
    std::map<std::int64_t, std::map<model::Timestamp, HoldingsSnapshotPtr>> snapshots_;
    std::int64_t next_row_id_ = 1;
    // The holdings of the latest snapshot taken: a snapshot of the same ACS rows (the store shares
    // them while the ACS is unchanged) shares them. Not undone; a rollback drops it.
    std::shared_ptr<const HoldingRows> last_rows_;
};

}  // namespace cantonlite::splice
