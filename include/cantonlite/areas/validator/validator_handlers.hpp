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

// The handlers run once the area has checked the route's access (ValidatorArea::route).

// GET /v0/wallet/transfer-offers (listTransferOffers, op 4): the wallet user's incoming and
// outgoing active TransferOffers, expired ones included, in creation order.
[[nodiscard]] http::Response list_transfer_offers(const Store& store, const model::User& user,
                                                  const Context& ctx);

// POST /v0/wallet/buy-traffic-requests/{tracking_id}/status (getBuyTrafficRequestStatus, op 5):
// the latest state of the user's own request.
[[nodiscard]] http::Response get_buy_traffic_request_status(const Store& store,
                                                            const model::User& user,
                                                            const Context& ctx);

// Scan-proxy routes whose 404 text differs from Scan's: the scan area's answers through the same
// code, with the proxy's own texts.
[[nodiscard]] http::Response proxy_holdings_summary_v1(const Store& store, const Context& ctx);
[[nodiscard]] http::Response proxy_ans_entry_by_name(const Store& store, const Context& ctx);

}  // namespace cantonlite::areas::validator
