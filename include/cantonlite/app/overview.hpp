#pragma once
// The network as the browser page shows it: rights, holdings, the latest updates, open transfer
// offers and vote requests (GET /_cantonlite/v1/overview).

#include <cstddef>
#include <string>

#include <nlohmann/json.hpp>

#include "cantonlite/store/ledger_store.hpp"

namespace cantonlite::app {

// At most `limit` entries per list (updates: the latest). Holdings are those of the users'
// parties, the validator, the SVs and the DSO. "token_command" is `token_command`, the command
// line that prints a token for this network before its --user. REQUIRES: the store's readers'
// lock held.
[[nodiscard]] nlohmann::ordered_json overview_json(
    const store::LedgerStore& store, const std::string& token_command = "cantonlite token",
    std::size_t limit = 50);

// A contract's payload as the Splice apps print it (ops 4 and 10); null when it is no JSON
// document (a text that is not UTF-8).
[[nodiscard]] nlohmann::json payload_json(const model::Contract& c);

// The member of `payload` at the JSON pointer `pointer` ("/amount/amount"), or null.
[[nodiscard]] nlohmann::json payload_field(const nlohmann::json& payload, const char* pointer);

// One TransferOffer as the page lists it: {contract_id, sender, receiver, amount, tracking_id,
// description, expires_at}.
[[nodiscard]] nlohmann::ordered_json offer_row_json(const model::Contract& offer);

// One update as the page lists it: {offset, update_id, record_time, kind}, and a transaction's
// submitters and what its roots did ("Splice.Amulet:Amulet create", "<template> <choice>").
[[nodiscard]] nlohmann::ordered_json update_row_json(const store::Update& update);

}  // namespace cantonlite::app
