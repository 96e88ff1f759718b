#include "cantonlite/store/ledger_store.hpp"

#include <utility>

namespace cantonlite::store {

LedgerStore::LedgerStore(model::Network network) : network_(std::move(network)) {}

}  // namespace cantonlite::store
