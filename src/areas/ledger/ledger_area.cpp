#include "cantonlite/areas/ledger/ledger_area.hpp"

#include "cantonlite/areas/ledger/js_canton_error.hpp"

namespace cantonlite::areas::ledger {

LedgerArea::LedgerArea(const store::LedgerStore& store) : http::Area("/v2/", ""), store_(store) {}

http::Response LedgerArea::render_error(const http::ApiError& error) const {
    return http::Response::json(http::http_status(error.kind()),
                                js_canton_error(error, new_trace_id()).dump());
}

http::Response LedgerArea::render_decode_error(const http::DecodeError& error) const {
    return http::Response::text(400, error.what());
}

}  // namespace cantonlite::areas::ledger
