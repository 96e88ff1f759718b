#pragma once
// TestServer: the real daemon stack (store, router, Beast server) on a free port, in-process.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cantonlite/http/router.hpp"
#include "cantonlite/net/server.hpp"
#include "cantonlite/store/ledger_store.hpp"

namespace cantonlite::testing {

// The seed of a small network for tests: DSO party and an LSU announcement.
[[nodiscard]] nlohmann::json small_seed();

// Starts on 127.0.0.1:0 with the given options (port and address are forced); stops in the
// destructor. The access log is collected and can be read with access_lines().
class TestServer {
  public:
    explicit TestServer(net::ServerOptions options = {}, const nlohmann::json& seed = small_seed());
    ~TestServer();

    [[nodiscard]] std::uint16_t port() const { return server_->port(); }
    net::Server& server() { return *server_; }
    // The faults the router's areas consult (the admin API's /faults sets them in the daemon).
    http::FaultTable& faults() { return router_->faults(); }

    // Flushed access records, as "METHOD TARGET STATUS BYTES", once there are `count` of them (the
    // log line is written after the response, and flushed after it, so a client can see the answer
    // first); what is there after 5 s.
    [[nodiscard]] std::vector<std::string> access_lines(std::size_t count) const;
    // How many times the server has called access_log_flush.
    [[nodiscard]] std::size_t access_flushes() const;

  private:
    std::unique_ptr<store::LedgerStore> store_;
    std::unique_ptr<http::Router> router_;
    std::unique_ptr<net::Server> server_;
    struct Log;
    std::shared_ptr<Log> log_;
};

}  // namespace cantonlite::testing
