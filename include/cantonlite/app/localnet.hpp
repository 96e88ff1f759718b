#pragma once
// The LocalNet drop-in (`serve --localnet`): the ports Splice LocalNet's clients look at, each
// answered from the one ledger.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "cantonlite/areas/release.hpp"
#include "cantonlite/http/router.hpp"
#include "cantonlite/net/server.hpp"
#include "cantonlite/store/ledger_store.hpp"
#include "cantonlite/util/shared_gate.hpp"

namespace cantonlite::app {

// One LocalNet URL and what answers it here.
struct LocalNetEndpoint {
    std::string url;     // "http://localhost:2975/v2", "http://scan.localhost:4000/api/scan"
    std::string serves;  // "the JSON Ledger API (app-user participant)"
};

// The listeners of LocalNet's three roles (cluster/compose/localnet: 2 app-user, 3 app-provider,
// 4 sv; env/common.env's ports and conf/nginx's host names), and the routers behind them.
struct LocalNet {
    std::vector<std::unique_ptr<http::Router>> routers;  // owned; each listener's and each host's
    std::vector<net::ServerOptions::AlsoListen> listeners;
    std::vector<LocalNetEndpoint> endpoints;
};

// The routers read `store` under `gate` and consult `main`'s faults; their areas are new ones,
// of `profile`'s release. Throws std::invalid_argument for unusable auth keys (as make_router).
[[nodiscard]] LocalNet make_localnet(const store::LedgerStore& store, util::SharedGate& gate,
                                     http::Router& main, const areas::ApiProfile& profile);

}  // namespace cantonlite::app
