#pragma once
// LedgerStore: the one in-memory ledger from which every area answers.

#include "cantonlite/model/network.hpp"

namespace cantonlite::store {

// The ledger of one emulated network. Built once from a seed; the network facts never change
// after construction, so reading them needs no lock. Thread-safe for concurrent readers.
class LedgerStore {
  public:
    explicit LedgerStore(model::Network network);
    LedgerStore(const LedgerStore&) = delete;
    LedgerStore& operator=(const LedgerStore&) = delete;

    // The network facts: DSO party, LSU announcement.
    [[nodiscard]] const model::Network& network() const { return network_; }

  private:
    const model::Network network_;
};

}  // namespace cantonlite::store
