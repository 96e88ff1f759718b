#pragma once
// AdminArea: cantonlite's own API under /_cantonlite/v1/, a prefix no real API uses (the
// convention LocalStack follows for its own endpoints). It drives the network at run time: steps,
// the ledger clock, snapshots, reverts and resets, what the network holds now, and the faults
// injected into the other APIs' answers.

#include <filesystem>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "cantonlite/http/area.hpp"
#include "cantonlite/http/faults.hpp"
#include "cantonlite/seed/live_network.hpp"

namespace cantonlite::areas::admin {

struct AdminOptions {
    // Whether requests need no token: true on a loopback listener.
    bool open = true;
    // The bearer secret that opens the API on other listeners; empty: closed there (403).
    std::string token;
    // The text `describe --json` prints for the network as it stands; called under the readers'
    // lock.
    std::function<std::string(const store::LedgerStore&)> describe;
    // The browser page's view of the network as it stands (GET /overview), likewise; empty: 404.
    std::function<std::string(const store::LedgerStore&)> overview;
    // The explorer's views (GET /explore/{what}?id=…, search ?q=…), likewise: the JSON of `what`
    // ("update", "contract", "party", "search") for `key`, nullopt when there is none (404);
    // throws std::invalid_argument for an unknown `what`. Empty: 404.
    std::function<std::optional<std::string>(const store::LedgerStore&, std::string_view what,
                                             std::string_view key)>
        explore;
    // Where snapshots taken with "persist": true are kept, as state files "<name>.state", for
    // this daemon and later ones to revert to by name; empty: none (such a snapshot is a 400).
    std::filesystem::path state_dir;
};

// Whether `name` names a persisted snapshot: a letter, then letters, digits, '.', '-' or '_', at
// most 100 (never a path, never an in-memory snapshot's number).
[[nodiscard]] bool valid_snapshot_name(std::string_view name);

// Errors are {"error": "..."} with 400, 403, 404 or 409 (500 when the journal fails).
class AdminArea : public http::Area {
  public:
    // `faults`: the router's, which /faults sets and a reset clears. Both must outlive the area.
    AdminArea(seed::LiveNetwork& network, http::FaultTable& faults, AdminOptions options);

    // Writes take the network's lock themselves; reads take its readers' side.
    [[nodiscard]] bool reads_ledger() const override { return false; }

  protected:
    [[nodiscard]] http::Response render_error(const http::ApiError& error,
                                              const http::Request& request) const override;
    [[nodiscard]] http::Response render_decode_error(const http::DecodeError& error) const override;

  private:
    seed::LiveNetwork& network_;
    http::FaultTable& faults_;
    AdminOptions options_;

    // Throws 403 unless the request may use the API.
    void authorize(const http::Request& request) const;
    // Adds a route, which authorize() guards; the only way this area adds one.
    void route(std::string method, std::string_view path, http::Handler handler);
    // Runs a write or read of the network, turning its WriteError into the area's errors.
    template <class F>
    http::Response run(F&& operation) const;
    // POST /snapshots: {} takes one in memory; {"name", "persist": true} keeps it in state_dir too.
    seed::Written take_snapshot(const nlohmann::json& body);
    // Reverts to the persisted snapshot `name`: to the in-memory snapshot it is too, when this
    // daemon took it, still has it and its file is still the one written; else loads its state
    // file (load_state_bytes).
    seed::Written revert_to_persisted(const std::string& name);
    // The in-memory snapshot of persisted snapshot `name`, when this daemon took it and its file
    // is still the one written (the revert finds whether a revert or reset has dropped it).
    [[nodiscard]] std::optional<std::string> in_memory_snapshot(const std::string& name) const;
    // GET /snapshots' "persisted": [{"name", "bytes"}], by name.
    [[nodiscard]] nlohmann::json persisted_snapshots() const;
    [[nodiscard]] std::filesystem::path snapshot_file(const std::string& name) const;

    // The snapshots this daemon persisted, by name: the in-memory snapshot's id, and the header
    // (which holds the checksum) and time of the file written for it, which another daemon
    // sharing the state_dir may write over.
    struct Persisted {
        std::string snapshot_id;
        std::string header;
        std::filesystem::file_time_type written;
    };
    mutable std::mutex persisted_mutex_;
    std::map<std::string, Persisted> persisted_;  // guarded by persisted_mutex_
};

// True for an address on the loopback network (127.0.0.0/8, ::1, localhost).
[[nodiscard]] bool is_loopback_address(const std::string& address);

}  // namespace cantonlite::areas::admin
