#include "cantonlite/areas/validator/validator_area.hpp"

#include <stdexcept>
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
    const auto scan = [this](auto scan_handler) {
        return [this, scan_handler](const http::RequestContext& ctx, const model::User*) {
            return scan_handler(store_, ctx);
        };
    };
    const auto wallet = [this](auto handler) {
        return [this, handler](const http::RequestContext& ctx, const model::User* user) {
            return handler(store_, *user, ctx);
        };
    };
    // validator-internal.yaml $refs common-external.yaml /livez: the admin route of every Splice
    // app.
    route("GET", "/livez", "isLive", Access::open,
          [](const http::RequestContext& ctx, const model::User*) { return is_live(ctx); });
    // validator-internal.yaml getValidatorUserInfo (validator_public, security: []): the
    // operator's party and ledger API user; featured when it holds a FeaturedAppRight
    // (HttpValidatorPublicHandler: lookupValidatorFeaturedAppRight().isDefined).
    route("GET", "/v0/validator-user", "getValidatorUserInfo", Access::open,
          [this](const http::RequestContext&, const model::User*) {
              const model::Network& n = store_.network();
              const bool featured =
                  splice::views(store_).featured_app_right_of(n.validator_party).has_value();
              return http::Response::json(200,
                                          nlohmann::ordered_json{{"party_id", n.validator_party},
                                                                 {"user_name", n.validator_user},
                                                                 {"featured", featured}}
                                              .dump());
          });
    // wallet-external.yaml
    route("GET", "/v0/wallet/transfer-offers", "listTransferOffers", Access::wallet,
          wallet(list_transfer_offers));
    route("POST", "/v0/wallet/buy-traffic-requests/{tracking_id}/status",
          "getBuyTrafficRequestStatus", Access::wallet, wallet(get_buy_traffic_request_status));
    // scan-proxy.yaml: the scan area's handlers, with the proxy's own 404 texts.
    route("GET", "/v0/scan-proxy/dso-party-id", "getDsoPartyId", Access::scan_proxy,
          scan(scan::get_dso_party_id));
    route("GET", "/v0/scan-proxy/featured-apps/{provider_party_id}", "lookupFeaturedAppRight",
          Access::scan_proxy, scan(scan::get_featured_app_right));
    route("GET", "/v0/scan-proxy/open-and-issuing-mining-rounds", "getOpenAndIssuingMiningRounds",
          Access::scan_proxy, scan(scan::get_open_and_issuing_mining_rounds_proxy));
    route("GET", "/v0/scan-proxy/amulet-rules", "getAmuletRules", Access::scan_proxy,
          scan(scan::get_amulet_rules_proxy));
    route("GET", "/v0/scan-proxy/ans-entries/by-name/{name}", "lookupAnsEntryByName",
          Access::scan_proxy, scan(proxy_ans_entry_by_name));
    route("GET", "/v0/scan-proxy/transfer-command-counter/{party}",
          "lookupTransferCommandCounterByParty", Access::scan_proxy,
          scan(scan::get_transfer_command_counter));  // same 404 text as scan
    route("GET", "/v0/scan-proxy/transfer-preapprovals/by-party/{party}",
          "lookupTransferPreapprovalByParty", Access::scan_proxy,
          scan(scan::get_transfer_preapproval));  // same 404 text as scan
    route("POST", "/v1/scan-proxy/holdings/summary", "getHoldingsSummaryAtV1", Access::scan_proxy,
          scan(proxy_holdings_summary_v1));
    // The token standard's registry, mounted under the scan-proxy (ValidatorApp.scala);
    // HttpTokenStandardScanProxyHandler answers Scan's answer as is.
    route("GET", "/v0/scan-proxy/registry/metadata/v1/info", "getRegistryInfo", Access::scan_proxy,
          scan(scan::get_registry_info));
    route("GET", "/v0/scan-proxy/registry/metadata/v1/instruments", "listInstruments",
          Access::scan_proxy, scan(scan::list_instruments));
    route("GET", "/v0/scan-proxy/registry/metadata/v1/instruments/{instrumentId}", "getInstrument",
          Access::scan_proxy, scan(scan::get_instrument));
    route("POST", "/v0/scan-proxy/registry/transfer-instruction/v1/transfer-factory",
          "getTransferFactory", Access::scan_proxy, scan(scan::post_transfer_factory));
    const auto context = [this](scan::TransferInstructionChoice choice) {
        return [this, choice](const http::RequestContext& ctx, const model::User*) {
            return scan::post_transfer_instruction_choice_context(store_, ctx, choice);
        };
    };
    route("POST",
          "/v0/scan-proxy/registry/transfer-instruction/v1/{transferInstructionId}/choice-contexts/"
          "accept",
          "getTransferInstructionAcceptContext", Access::scan_proxy,
          context(scan::TransferInstructionChoice::accept));
    route("POST",
          "/v0/scan-proxy/registry/transfer-instruction/v1/{transferInstructionId}/choice-contexts/"
          "reject",
          "getTransferInstructionRejectContext", Access::scan_proxy,
          context(scan::TransferInstructionChoice::reject));
    route("POST",
          "/v0/scan-proxy/registry/transfer-instruction/v1/{transferInstructionId}/choice-contexts/"
          "withdraw",
          "getTransferInstructionWithdrawContext", Access::scan_proxy,
          context(scan::TransferInstructionChoice::withdraw));
}

void ValidatorArea::route(std::string method, std::string_view path, std::string_view operation,
                          Access access, ValidatorHandler handler) {
    add_route(std::move(method), path,
              [this, operation, access,
               handler = std::move(handler)](const http::RequestContext& ctx) -> http::Response {
                  switch (access) {
                      case Access::open:
                          return handler(ctx, nullptr);
                      case Access::scan_proxy:
                          (void)auth_.authenticate(ctx.request, scan_proxy_realm);
                          return handler(ctx, nullptr);
                      case Access::wallet:
                          return handler(ctx, &auth_.wallet_user(ctx.request, operation));
                  }
                  throw std::logic_error("a validator route without a known access");
              });
}

}  // namespace cantonlite::areas::validator
