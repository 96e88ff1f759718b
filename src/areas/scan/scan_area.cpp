#include "cantonlite/areas/scan/scan_area.hpp"

#include "cantonlite/areas/scan/scan_handlers.hpp"

namespace cantonlite::areas::scan {

ScanArea::ScanArea(const store::LedgerStore& store) : SpliceArea("/api/scan/", "/api/scan") {
    const auto with_store = [&store](auto handler) {
        return [&store, handler](const http::RequestContext& ctx) { return handler(store, ctx); };
    };
    add_route("GET", "/livez", is_live);
    add_route("GET", "/v0/dso-party-id", with_store(get_dso_party_id));
    add_route("GET", "/v0/lsu", with_store(get_lsu));
}

}  // namespace cantonlite::areas::scan
