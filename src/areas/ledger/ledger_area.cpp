#include "cantonlite/areas/ledger/ledger_area.hpp"

#include <array>

#include "cantonlite/areas/ledger/js_canton_error.hpp"
#include "cantonlite/areas/ledger/ledger_handlers.hpp"

namespace cantonlite::areas::ledger {
namespace {

struct DeprecatedEndpoint {
    std::string_view method;
    std::string_view path;
    Deprecation deprecation;
};

// The endpoints Canton 3.4 and 3.5 deprecated, which Canton 3.6 disables unless the participant's
// flag re-enables them (openapi.yaml of 3.6: "deprecated: true"; ApiDeprecation.scala).
constexpr std::array<DeprecatedEndpoint, 11> deprecated_endpoints{{
    {"POST", "/v2/commands/submit-and-wait-for-transaction-tree", Deprecation::endpoints_34},
    {"GET", "/v2/package-vetting", Deprecation::endpoints_35},
    {"POST", "/v2/package-vetting", Deprecation::endpoints_35},
    {"GET", "/v2/state/active-contracts-page", Deprecation::endpoints_35},
    {"POST", "/v2/updates/flats", Deprecation::endpoints_34},
    {"POST", "/v2/updates/trees", Deprecation::endpoints_34},
    {"GET", "/v2/updates/transaction-tree-by-offset/{offset}", Deprecation::endpoints_34},
    {"POST", "/v2/updates/transaction-by-offset", Deprecation::endpoints_34},
    {"POST", "/v2/updates/transaction-by-id", Deprecation::endpoints_34},
    {"GET", "/v2/updates/transaction-tree-by-id/{update-id}", Deprecation::endpoints_34},
    {"GET", "/v2/interactive-submission/preferred-package-version", Deprecation::endpoints_34},
}};

}  // namespace

LedgerArea::LedgerArea(const store::LedgerStore& store, const ApiProfile& profile)
    : http::Area("/v2/", ""), store_(store), auth_(store.network()) {
    // A disabled endpoint answers before its body is decoded or its token read
    // (JsonV2DeprecatedApiDisabledTests: "rejected before its request body is decoded").
    for (const DeprecatedEndpoint& e : deprecated_endpoints) {
        if (is_enabled(profile, e.deprecation)) continue;
        std::string cause =
            disabled_message(e.deprecation, std::string(e.method) + " " + std::string(e.path));
        add_route(std::string(e.method), std::string(e.path),
                  [cause = std::move(cause)](const http::RequestContext&) -> http::Response {
                      throw http::ApiError(http::ErrorKind::failed_precondition,
                                           "DEPRECATED_API_DISABLED", cause);
                  });
    }
    // openapi.yaml (JSON Ledger API v2)
    if (is_enabled(profile, Deprecation::endpoints_34)) {
        add_route("POST", "/v2/updates/transaction-by-offset",
                  [this](const http::RequestContext& ctx) {
                      return post_transaction_by_offset(store_, auth_, ctx);
                  });
        add_route("POST", "/v2/updates/transaction-by-id", [this](const http::RequestContext& ctx) {
            return post_transaction_by_id(store_, auth_, ctx);
        });
        // Flat transactions: JsUpdateService.getFlats runs /v2/updates' code, over HTTP and as a
        // WebSocket.
        add_route("POST", "/v2/updates/flats", [this, profile](const http::RequestContext& ctx) {
            return post_updates(store_, auth_, ctx, profile);
        });
        add_route("GET", "/v2/updates/flats", [this, profile](const http::RequestContext& ctx) {
            return updates_websocket(store_, auth_, ctx, profile);
        });
    }
    // The read side, in both lines; `release` says where they differ.
    const ApiProfile release = profile;
    // What a client asks before reading (the wallet SDK's connect).
    add_route("GET", "/v2/version", [this, release](const http::RequestContext& ctx) {
        return get_version(auth_, ctx, release);
    });
    add_route("GET", "/v2/authenticated-user", [this](const http::RequestContext& ctx) {
        return get_authenticated_user(auth_, ctx);
    });
    add_route("GET", "/v2/state/connected-synchronizers", [this](const http::RequestContext& ctx) {
        return get_state_connected_synchronizers(store_, auth_, ctx);
    });
    add_route("GET", "/v2/state/latest-pruned-offsets", [this](const http::RequestContext& ctx) {
        return get_state_latest_pruned_offsets(auth_, ctx);
    });
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
    // asyncapi.yaml: the same stream over a WebSocket.
    add_route("GET", "/v2/updates", [this, release](const http::RequestContext& ctx) {
        return updates_websocket(store_, auth_, ctx, release);
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

http::Response LedgerArea::render_fault(int status, const http::Request& request,
                                        std::uint64_t rule) const {
    const std::string injected = "fault rule " + std::to_string(rule) + " of cantonlite";
    switch (status) {
        case 429: {
            // Canton answers overload with PARTICIPANT_BACKPRESSURE (ContentionOnSharedResources,
            // ABORTED); its JSON API has no 429 of its own, so the body is that error and the
            // status the one the rule asks for.
            http::Response r = render_error(
                http::ApiError(http::ErrorKind::too_many_requests, "PARTICIPANT_BACKPRESSURE",
                               "The participant is overloaded: " + injected,
                               {{"reason", injected}}),
                request);
            r.status = 429;
            return r;
        }
        case 503:
            return render_error(
                http::ApiError(http::ErrorKind::unavailable, "SERVICE_NOT_RUNNING",
                               "Ledger API has been shut down.",
                               {{"service_name", "Ledger API"}, {"cantonlite_fault", injected}}),
                request);
        default:
            return render_error(http::ApiError(http::ErrorKind::internal, "", injected), request);
    }
}

http::Response LedgerArea::render_decode_error(const http::DecodeError& error) const {
    return http::Response::text(400, error.text());
}

}  // namespace cantonlite::areas::ledger
