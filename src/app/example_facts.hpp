#pragma once
// What the example requests of `describe` are derived from, and the helpers the files making
// them share (examples.cpp: ops 1, 2, 3, 6, 8, 10-13; wallet_examples.cpp: ops 4, 5, 7, 9).

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cantonlite/app/examples.hpp"
#include "cantonlite/http/area.hpp"
#include "cantonlite/store/ledger_store.hpp"

namespace cantonlite::app::examples {

using nlohmann::ordered_json;
using store::Party;
using Examples = std::vector<Example>;

// A buy-traffic request made by a user with a wallet.
struct TrafficRequest {
    const model::User* user = nullptr;
    std::string tracking_id;
};

// What the examples are derived from, gathered in one pass over the history. Refers to the
// store, which must outlive it. Not thread-safe; lives for one make_examples().
class Facts {
  public:
    explicit Facts(const store::LedgerStore& store);

    const store::LedgerStore& store() const { return store_; }
    const model::Network& network() const { return store_.network(); }
    // The migrations of the history, in order.
    const std::vector<store::Migration>& migrations() const { return migrations_; }
    // Every BuyTrafficRequest ever created by a wallet user, in creation order.
    const std::vector<TrafficRequest>& traffic_requests() const { return traffic_; }

    // The user for requests that need any valid token: the first one; nullptr when none.
    const model::User* any_user() const;
    // The first user with (or without) a wallet; nullptr when none.
    const model::User* first_user(bool wallet) const;

  private:
    void collect_traffic_requests(const store::Transaction& tx);

    const store::LedgerStore& store_;
    std::vector<store::Migration> migrations_;
    std::vector<TrafficRequest> traffic_;
};

// A field of the contract's Splice payload (compact JSON); null when absent.
[[nodiscard]] ordered_json payload_field(const model::Contract& c, const std::string& key);

// A time as the Splice HTTP layer writes OffsetDateTime fields.
[[nodiscard]] std::string time_text(model::Timestamp t);

// The body of a Splice error response: {"error":"<message>"}, as the areas write it.
using http::error_body;

// The example as `user` sends it; without a user there is no token and the answer is 401.
[[nodiscard]] Example with_token(Example e, const model::User* user);

// Ends the note of a failure that stands in for a missing success example.
inline const std::string no_success = ", so there is no success example";

void op4_transfer_offers(const Facts& f, Examples& out);
void op5_buy_traffic_status(const Facts& f, Examples& out);
void op7_transfer_command_counter(const Facts& f, Examples& out);
void op9_ans_entry(const Facts& f, Examples& out);

}  // namespace cantonlite::app::examples
