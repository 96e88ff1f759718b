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
}

http::Response LedgerArea::render_error(const http::ApiError& error,
                                        const http::Request& request) const {
    // The status follows the category's gRPC code, as the JSON API maps it; not the Splice table.
    // The trace id is the request's W3C trace context when it sends one (§7.1).
    const auto traceparent = request.header("traceparent");
    std::optional<std::string> tid;
    if (traceparent) tid = trace_id_of_traceparent(*traceparent);
    if (!tid) tid = new_trace_id();
    return http::Response::json(http_status_of(error),
                                js_canton_error(error, *tid).dump());
}

http::Response LedgerArea::render_decode_error(const http::DecodeError& error) const {
    return http::Response::text(400, error.what());
}

}  // namespace cantonlite::areas::ledger
