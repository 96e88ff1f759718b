#pragma once
// The handlers of the validator area: wallet (wallet-external.yaml) and scan proxy
// (scan-proxy.yaml).

#include "cantonlite/areas/validator/validator_auth.hpp"
#include "cantonlite/http/response.hpp"
#include "cantonlite/http/route_table.hpp"
#include "cantonlite/store/ledger_store.hpp"

namespace cantonlite::areas::validator {

using Store = store::LedgerStore;
using Context = http::RequestContext;

// GET /v0/wallet/transfer-offers (listTransferOffers, op 4): the user's incoming and outgoing
// active TransferOffers, expired ones included, in creation order.
[[nodiscard]] http::Response list_transfer_offers(const Store& store, const ValidatorAuth& auth,
                                                  const Context& ctx);

// POST /v0/wallet/buy-traffic-requests/{tracking_id}/status (getBuyTrafficRequestStatus, op 5):
// the latest state of the user's own request.
[[nodiscard]] http::Response get_buy_traffic_request_status(const Store& store,
                                                            const ValidatorAuth& auth,
                                                            const Context& ctx);

// The scan-proxy routes (any valid token): the scan area's answers through the same code, with
// the proxy's own 404 texts. Ops 6, 7, 9, dso-party-id and the transfer preapprovals.
[[nodiscard]] http::Response proxy_holdings_summary_v1(const Store& store,
                                                       const ValidatorAuth& auth,
                                                       const Context& ctx);
[[nodiscard]] http::Response proxy_transfer_command_counter(const Store& store,
                                                            const ValidatorAuth& auth,
                                                            const Context& ctx);
[[nodiscard]] http::Response proxy_transfer_preapproval(const Store& store,
                                                        const ValidatorAuth& auth,
                                                        const Context& ctx);
// The token-standard registry under the scan-proxy: `scan_handler`'s answer once the token is.
[[nodiscard]] http::Response proxy_registry(const Store& store, const ValidatorAuth& auth,
                                            const Context& ctx,
                                            http::Response (*scan_handler)(const Store&,
                                                                           const Context&));
[[nodiscard]] http::Response proxy_ans_entry_by_name(const Store& store, const ValidatorAuth& auth,
                                                     const Context& ctx);
[[nodiscard]] http::Response proxy_dso_party_id(const Store& store, const ValidatorAuth& auth,
                                                const Context& ctx);

}  // namespace cantonlite::areas::validator
