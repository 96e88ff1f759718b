// The validator's scan proxy (splice-behavior.md ops 6, 7, 9): once the area has authenticated
// the call, the scan area's own handlers, so proxy and scan cannot disagree.
#include "cantonlite/areas/scan/scan_handlers.hpp"
#include "cantonlite/areas/splice_request.hpp"
#include "cantonlite/areas/validator/validator_handlers.hpp"
#include "cantonlite/http/api_error.hpp"

namespace cantonlite::areas::validator {
namespace {

using http::ApiError;
using http::ErrorKind;

// Runs a scan handler; its 404 becomes the proxy's own text.
template <typename Handler>
http::Response proxied(const Store& store, const Context& ctx, Handler handler,
                       const std::string& not_found) {
    try {
        return handler(store, ctx);
    } catch (const ApiError& e) {
        if (e.kind() != ErrorKind::not_found) throw;
        throw ApiError(ErrorKind::not_found, "", not_found).as_returned();
    }
}

}  // namespace

http::Response proxy_holdings_summary_v1(const Store& store, const Context& ctx) {
    return proxied(store, ctx, scan::post_holdings_summary_v1,
                   "Summary not found for given parameters");
}

http::Response proxy_ans_entry_by_name(const Store& store, const Context& ctx) {
    return proxied(store, ctx, scan::get_ans_entry_by_name,
                   "Did not find a AnsEntry with name " + ctx.params.get("name"));
}

}  // namespace cantonlite::areas::validator
