#pragma once
// LedgerExtension: a view of the ledger that a higher layer builds from the store's appends (the
// Splice layer's holdings, offers, counters and votes). The store knows no template; it tells its
// extensions what each append creates, exercises and archives, under its writers' lock.

#include <cstddef>
#include <cstdint>
#include <string>

#include "cantonlite/model/contract.hpp"
#include "cantonlite/model/timestamp.hpp"
#include "cantonlite/model/value.hpp"
#include "cantonlite/store/transaction_draft.hpp"
#include "cantonlite/store/update.hpp"

namespace cantonlite::store {

struct Snapshot;

// One contract a committed transaction created.
struct CreatedEvent {
    const model::ContractPtr& contract;
    std::uint64_t sequence;  // its creation sequence in the store
    std::size_t node;        // its node in the draft
    const model::UpdateId& update_id;
    Offset offset;
};

// Called by the LedgerStore under its writers' lock; every change an extension makes is recorded in
// the store's undo log (LedgerStore::undo()), so that a rollback undoes it with the store's own.
// Its queries take the store's readers' lock (LedgerStore::read_lock()).
class LedgerExtension {
  public:
    virtual ~LedgerExtension() = default;

    // Phase one of an append, after the store checked the draft and before anything changed:
    // throws AppendError to refuse the transaction. May keep what it read for on_created.
    virtual void prepare(const TransactionDraft& draft) = 0;
    // Phase two, node by node in order (a contract created and consumed in one transaction is
    // created, exercised, then archived).
    virtual void on_created(const CreatedEvent& event) = 0;
    virtual void on_exercised(const ExerciseDraft& exercise, const model::UpdateId& update_id,
                              Offset offset) = 0;
    virtual void on_archived(const model::Contract& contract, std::uint64_t sequence) = 0;
    // An ACS snapshot was taken (held by the store, which keeps it as long as its history).
    virtual void on_snapshot(const Snapshot& snapshot) = 0;
    // The store rolled back: whatever was derived from its state and not undone is stale.
    virtual void on_rollback() = 0;
    // The store exchanged its contents with `other`'s store (LedgerStore::swap_contents), whose
    // extension at the same place is `other`: exchange what is derived from them too.
    virtual void on_swap(LedgerExtension& other) = 0;
};

}  // namespace cantonlite::store
