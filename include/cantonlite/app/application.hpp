#pragma once
// The cantonlite executable: command line in, exit code out; and the wiring of store and areas.

#include <memory>
#include <string>
#include <vector>

#include "cantonlite/http/router.hpp"
#include "cantonlite/store/ledger_store.hpp"

namespace cantonlite::app {

// The router of the daemon: ledger under /v2/, scan under /api/scan/, validator under
// /api/validator/, all reading `store`, which must outlive it.
[[nodiscard]] std::unique_ptr<http::Router> make_router(const store::LedgerStore& store);

// Runs the command line (arguments after the program name). Returns the exit code:
// 0 done, 1 the server could not start, 2 bad command line, config or seed.
[[nodiscard]] int run(const std::vector<std::string>& args);

}  // namespace cantonlite::app
