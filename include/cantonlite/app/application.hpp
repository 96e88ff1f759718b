#pragma once
// The cantonlite executable: command line in, exit code out; and the wiring of store and areas.

#include <memory>
#include <string>
#include <vector>

#include "cantonlite/areas/admin/admin_area.hpp"
#include "cantonlite/areas/release.hpp"
#include "cantonlite/http/router.hpp"
#include "cantonlite/seed/live_network.hpp"
#include "cantonlite/store/ledger_store.hpp"

namespace cantonlite::app {

// The router of the daemon: ledger under /v2/, scan under /api/scan/, validator under
// /api/validator/, all reading `store`, which must outlive it; with the routes of `profile`'s
// release. With `writer` (the live network of `store`), the ledger's writes too.
[[nodiscard]] std::unique_ptr<http::Router> make_router(const store::LedgerStore& store,
                                                        const areas::ApiProfile& profile = {},
                                                        seed::LiveNetwork* writer = nullptr);

// The daemon's router over a live network: the three API areas, which read under the network's
// readers' lock, and the admin API under /_cantonlite/v1/, which writes to it.
[[nodiscard]] std::unique_ptr<http::Router> make_router(seed::LiveNetwork& network,
                                                        areas::admin::AdminOptions admin,
                                                        const areas::ApiProfile& profile = {});

// Runs the command line (arguments after the program name). Returns the exit code:
// 0 done, 1 the server could not start, 2 bad command line, config or seed.
[[nodiscard]] int run(const std::vector<std::string>& args);

}  // namespace cantonlite::app
