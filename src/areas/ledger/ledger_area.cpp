#include "cantonlite/areas/ledger/ledger_area.hpp"

#include "cantonlite/areas/ledger/js_canton_error.hpp"
#include "cantonlite/areas/ledger/ledger_handlers.hpp"

namespace cantonlite::areas::ledger {

LedgerArea::LedgerArea(const store::LedgerStore& store)
    : http::Area("/v2/", ""), store_(store), auth_(store.network()) {
    // openapi.yaml (JSON Ledger API v2)
    add_route("POST", "/v2/updates/transaction-by-offset", [this](const http::RequestContext& ctx) {
        return post_transaction_by_offset(store_, auth_, ctx);
    });
    // The read side answers as Canton 3.5 until the release switch chooses (CantonRelease).
    const CantonRelease release = CantonRelease::canton_3_5;
    add_route("GET", "/v2/state/ledger-end", [this, release](const http::RequestContext& ctx) {
        return get_state_ledger_end(store_, auth_, ctx, release);
    });
    add_route("POST", "/v2/state/active-contracts",
              [this, release](const http::RequestContext& ctx) {
                  return post_state_active_contracts(store_, auth_, ctx, release);
              });
    add_route("POST", "/v2/state/active-contracts-page",
              [this, release](const http::RequestContext& ctx) {
                  return post_state_active_contracts_page(store_, auth_, ctx, release);
              });
    add_route("POST", "/v2/updates", [this, release](const http::RequestContext& ctx) {
        return post_updates(store_, auth_, ctx, release);
    });
    add_route("POST", "/v2/updates/update-by-offset",
              [this, release](const http::RequestContext& ctx) {
                  return post_updates_update_by_offset(store_, auth_, ctx, release);
              });
    add_route("POST", "/v2/updates/update-by-id", [this, release](const http::RequestContext& ctx) {
        return post_updates_update_by_id(store_, auth_, ctx, release);
    });
    add_route("POST", "/v2/updates/get-updates-page",
              [this, release](const http::RequestContext& ctx) {
                  return post_updates_get_updates_page(store_, auth_, ctx, release);
              });
    add_route("POST", "/v2/events/events-by-contract-id",
              [this, release](const http::RequestContext& ctx) {
                  return post_events_events_by_contract_id(store_, auth_, ctx, release);
              });
}

http::Response LedgerArea::render_error(const http::ApiError& error,
                                        const http::Request& request) const {
    // The status follows the category's gRPC code, as the JSON API maps it; not the Splice table.
    // The trace id is the request's W3C trace context when it sends one (§7.1).
    const auto traceparent = request.header("traceparent");
    std::optional<std::string> tid;
    if (traceparent) tid = trace_id_of_traceparent(*traceparent);
    if (!tid) tid = new_trace_id();
    return http::Response::json(http_status_of(error), js_canton_error(error, *tid).dump());
}

http::Response LedgerArea::render_decode_error(const http::DecodeError& error) const {
    return http::Response::text(400, error.what());
}

}  // namespace cantonlite::areas::ledger
