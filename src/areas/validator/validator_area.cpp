#include "cantonlite/areas/validator/validator_area.hpp"

#include <utility>

#include <nlohmann/json.hpp>

#include "cantonlite/areas/scan/scan_handlers.hpp"
#include "cantonlite/areas/validator/validator_handlers.hpp"
#include "cantonlite/splice/splice_views.hpp"

namespace cantonlite::areas::validator {

ValidatorArea::ValidatorArea(const store::LedgerStore& store, std::string role)
    : SpliceArea("/api/validator/", "/api/validator"),
      store_(store),
      auth_(store.network(), std::move(role)) {
    const auto with = [this](auto handler) {
        return [this, handler](const http::RequestContext& ctx) {
            return handler(store_, auth_, ctx);
        };
    };
    // validator-internal.yaml $refs common-external.yaml /livez: the admin route of every Splice
    // app.
    add_route("GET", "/livez", is_live);
    // validator-internal.yaml getValidatorUserInfo (validator_public, security: []): the
    // operator's party and ledger API user; featured when it holds a FeaturedAppRight
    // (HttpValidatorPublicHandler: lookupValidatorFeaturedAppRight().isDefined).
    add_route("GET", "/v0/validator-user", [this](const http::RequestContext&) {
        const model::Network& n = store_.network();
        const bool featured =
            splice::views(store_).featured_app_right_of(n.validator_party).has_value();
        return http::Response::json(200, nlohmann::ordered_json{{"party_id", n.validator_party},
                                                                {"user_name", n.validator_user},
                                                                {"featured", featured}}
                                             .dump());
    });
    // wallet-external.yaml
    add_route("GET", "/v0/wallet/transfer-offers", with(list_transfer_offers));
    add_route("POST", "/v0/wallet/buy-traffic-requests/{tracking_id}/status",
              with(get_buy_traffic_request_status));
    // scan-proxy.yaml
    add_route("GET", "/v0/scan-proxy/dso-party-id", with(proxy_dso_party_id));
    add_route("GET", "/v0/scan-proxy/ans-entries/by-name/{name}", with(proxy_ans_entry_by_name));
    add_route("GET", "/v0/scan-proxy/transfer-command-counter/{party}",
              with(proxy_transfer_command_counter));
    add_route("GET", "/v0/scan-proxy/transfer-preapprovals/by-party/{party}",
              with(proxy_transfer_preapproval));
    add_route("POST", "/v1/scan-proxy/holdings/summary", with(proxy_holdings_summary_v1));
    // The token standard's registry, mounted under the scan-proxy (ValidatorApp.scala).
    const auto registry = [this](auto scan_handler) {
        return [this, scan_handler](const http::RequestContext& ctx) {
            return proxy_registry(store_, auth_, ctx, scan_handler);
        };
    };
    add_route("GET", "/v0/scan-proxy/registry/metadata/v1/info", registry(scan::get_registry_info));
    add_route("GET", "/v0/scan-proxy/registry/metadata/v1/instruments",
              registry(scan::list_instruments));
    add_route("GET", "/v0/scan-proxy/registry/metadata/v1/instruments/{instrumentId}",
              registry(scan::get_instrument));
    add_route("POST", "/v0/scan-proxy/registry/transfer-instruction/v1/transfer-factory",
              registry(scan::post_transfer_factory));
}

}  // namespace cantonlite::areas::validator
