#pragma once
// LedgerArea: the Canton JSON Ledger API v2 under /v2/.

#include <functional>
#include <string>
#include <string_view>

#include "cantonlite/areas/ledger/ledger_auth.hpp"
#include "cantonlite/areas/release.hpp"
#include "cantonlite/http/area.hpp"
#include "cantonlite/seed/live_network.hpp"
#include "cantonlite/store/ledger_store.hpp"

namespace cantonlite::areas::ledger {

// 404 application/json {"errors":["HttpMethod(GET), uri: <effective uri>"],"status":404,
// "ledgerApiError":null}: Canton's EndpointsCompanion.notFound, the route HttpService concatenates
// after the JSON API's, which answers what tapir rejects (an unknown path, and a plain GET on a
// WebSocket endpoint, whose upgrade directive rejects it).
[[nodiscard]] http::Response unknown_path_response(const http::Request& request);

// The ledger area. Its errors are Canton's: a decode failure is 400 text/plain, every other error
// a JsCantonError with the status of its category (docs/reference/canton-ledger-behavior.md §5).
// Owns the token handling built from the network's auth settings.
class LedgerArea : public http::Area {
  public:
    // The routes of `profile`'s Canton release. Throws std::invalid_argument for unusable keys in
    // the auth settings.
    // With `network`, the routes that write the ledger too (they write to it; otherwise they
    // are not served).
    explicit LedgerArea(const store::LedgerStore& store, const ApiProfile& profile = {},
                        seed::LiveNetwork* network = nullptr);

    // tapir skips empty path segments: the wallet SDK's "//v2/updates" is "/v2/updates".
    [[nodiscard]] bool skips_empty_segments() const override { return true; }

  protected:
    [[nodiscard]] http::Response render_error(const http::ApiError& error,
                                              const http::Request& request) const override;
    [[nodiscard]] http::Response render_decode_error(const http::DecodeError& error) const override;
    // The JSON API's own answers: its Pekko fallback route's 404 for an unknown path
    // (unknown_path_response), and tapir's 405 "Method Not Allowed" (no Allow header).
    [[nodiscard]] http::Response render_unmatched(
        const http::Request& request, const std::vector<std::string>& allowed) const override;
    // Canton's own errors: 429 PARTICIPANT_BACKPRESSURE, 503 SERVICE_NOT_RUNNING, 500 redacted.
    [[nodiscard]] http::Response render_fault(int status, const http::Request& request,
                                              std::uint64_t rule) const override;

  private:
    using LedgerHandler =
        std::function<http::Response(const RouteAuth& auth, const http::RequestContext& ctx)>;
    // Where a GET's claims are checked: by the area before the handler, or by a handler that
    // decodes its query parameters first.
    enum class Check { before_handler, by_handler };
    // Adds a route with the claims its caller needs; the only way this area adds one.
    void route(std::string method, std::string_view path, Claims claims, LedgerHandler handler,
               Check check = Check::before_handler, bool writes = false);

    const store::LedgerStore& store_;
    seed::LiveNetwork* network_;  // null: the write routes are not served
    LedgerAuth auth_;
};

}  // namespace cantonlite::areas::ledger
