#pragma once
// The small network the describe and release-example tests share.

#include <nlohmann/json.hpp>

namespace cantonlite::app::testseeds {

// A small network with data for every operation; each step one second after the last, from
// 2025-01-01T00:00:00Z: the snapshot is at 00:00:10, the migration at 00:00:11.
inline nlohmann::json small_seed() {
    return nlohmann::json::parse(R"({
      "network": {"dso_party": "DSO::1220d5",
                  "svs": [{"name": "Sv-1", "party": "sv-1::1220a1"},
                          {"name": "Sv-2", "party": "sv-2::1220a2"}],
                  "start_time": "2025-01-01T00:00:00Z"},
      "users": [{"id": "alice", "party": "alice::1220a1", "wallet": true},
                {"id": "bob", "party": "bob::1220b0", "wallet": true},
                {"id": "carol", "party": "carol::1220c0"}],
      "auth": {"hs256": {"secret": "test"}},
      "steps": [
        {"step": "mint", "owner": "alice", "amount": "100"},
        {"step": "mint", "owner": "bob", "amount": "50"},
        {"step": "create_transfer_offer", "sender": "alice", "receiver": "bob", "amount": "10",
         "description": "lunch", "expires_at": "2025-02-01T00:00:00Z", "tracking_id": "offer-1"},
        {"step": "create_buy_traffic_request", "user": "bob", "traffic_amount": 200000,
         "tracking_id": "traffic-1", "expires_at": "2025-01-02T00:00:00Z", "as": "traffic-1"},
        {"step": "complete_buy_traffic_request", "request": "traffic-1"},
        {"step": "register_ans_entry", "user": "alice", "name": "alice.unverified.ans",
         "url": "https://alice.example", "description": "Alice",
         "expires_at": "2026-01-01T00:00:00Z"},
        {"step": "request_vote", "requester": "Sv-1", "action": {"offboard_sv": "Sv-2"},
         "reason": {"url": "https://forum.example/1", "body": "leaving"},
         "vote_before": "2025-01-10T00:00:00Z", "as": "vote-1"},
        {"step": "cast_vote", "vote_request": "vote-1", "voter": "Sv-2", "accept": true},
        {"step": "transfer_command", "sender": "carol"},
        {"step": "snapshot"},
        {"step": "migrate"},
        {"step": "mint", "owner": "carol", "amount": "5"}
      ]})");
}

}  // namespace cantonlite::app::testseeds
