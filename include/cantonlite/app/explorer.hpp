#pragma once
// What the network page's explorer opens (GET /_cantonlite/v1/explore/...): an update with its
// event tree, a contract, a party's page, and the search box's answer.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "cantonlite/store/ledger_store.hpp"

namespace cantonlite::app {

// `what` is "update" (key: an offset or an update id), "contract" (a contract id), "party" (a
// party id, a user id or a party alias of the network) or "search" (any of these). Null when
// nothing of that kind has that key; throws std::invalid_argument for an unknown `what`.
//
// - update: {offset, update_id, kind, record_time, ...}; a transaction's "events" are its root
//   nodes, each {node_id, kind: "created" | "exercised", contract_id, template, ...} with an
//   exercise's "children" under it and its "archives" when it is consuming.
// - contract: {contract_id, template, signatories, observers, argument, created: {offset,
//   update_id, at}, archived: null or {offset, update_id}}.
// - party: {party, holdings, locked, transfer_offers, transfer_instructions, ans_entries,
//   other_contracts, updates}: at most `limit` entries per list, each list's "total" beside it;
//   the updates are the latest `limit` the party saw among the latest `scan` updates.
// - search: {kind: "update" | "contract" | "party", id}.
//
// Arguments and results are written as the Splice apps write a payload (api_compressed).
// REQUIRES: the network's readers' gate held (not the store's own lock).
[[nodiscard]] nlohmann::ordered_json explore_json(const store::LedgerStore& store,
                                                  std::string_view what, std::string_view key,
                                                  std::size_t limit = 100,
                                                  std::size_t scan = 20000);

// explore_json as the admin API serves it (AdminOptions::explore): its text, nullopt for null.
[[nodiscard]] std::optional<std::string> explore_text(const store::LedgerStore& store,
                                                      std::string_view what, std::string_view key);

}  // namespace cantonlite::app
