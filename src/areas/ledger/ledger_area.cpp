#include "cantonlite/areas/ledger/ledger_area.hpp"

#include <array>
#include <stdexcept>
#include <utility>

#include "cantonlite/areas/ledger/js_canton_error.hpp"
#include "cantonlite/areas/ledger/ledger_handlers.hpp"
#include "cantonlite/http/json_text.hpp"

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

LedgerArea::LedgerArea(const store::LedgerStore& store, const ApiProfile& profile,
                       seed::LiveNetwork* network)
    : http::Area("/v2/", ""), store_(store), network_(network), auth_(store.network()) {
    // A disabled endpoint answers before its body is decoded or its token read
    // (JsonV2DeprecatedApiDisabledTests: "rejected before its request body is decoded").
    for (const DeprecatedEndpoint& e : deprecated_endpoints) {
        if (is_enabled(profile, e.deprecation)) continue;
        std::string cause =
            disabled_message(e.deprecation, std::string(e.method) + " " + std::string(e.path));
        route(std::string(e.method), std::string(e.path), Claims::none,
              [cause = std::move(cause)](const RouteAuth&,
                                         const http::RequestContext&) -> http::Response {
                  throw http::ApiError(http::ErrorKind::failed_precondition,
                                       "DEPRECATED_API_DISABLED", cause);
              });
    }
    // openapi.yaml (JSON Ledger API v2). Each route says what its caller needs (Claims): the
    // RequiredClaims of the RPC behind it, from its *ServiceAuthorization class.
    const ApiProfile release = profile;
    const auto with = [this, release](auto handler) {
        return [this, release, handler](const RouteAuth& auth, const http::RequestContext& ctx) {
            return handler(store_, auth, ctx, release);
        };
    };
    if (is_enabled(profile, Deprecation::endpoints_34)) {
        route("POST", "/v2/updates/transaction-by-offset", Claims::read_as,
              [this](const RouteAuth& auth, const http::RequestContext& ctx) {
                  return post_transaction_by_offset(store_, auth, ctx);
              });
        route("POST", "/v2/updates/transaction-by-id", Claims::read_as,
              [this](const RouteAuth& auth, const http::RequestContext& ctx) {
                  return post_transaction_by_id(store_, auth, ctx);
              });
        // Flat transactions: JsUpdateService.getFlats runs /v2/updates' code, over HTTP and as a
        // WebSocket.
        route("POST", "/v2/updates/flats", Claims::read_as, with(post_updates));
        route("GET", "/v2/updates/flats", Claims::read_as, with(updates_websocket));
        // Transaction trees: JsUpdateService.getTrees, getTreeByOffset, getTransactionTreeById
        // convert the LEDGER_EFFECTS answers of getUpdates, getUpdateByOffset, getUpdateById.
        route("POST", "/v2/updates/trees", Claims::read_as, with(post_updates_trees));
        route("GET", "/v2/updates/trees", Claims::read_as, with(update_trees_websocket));
        route("GET", "/v2/updates/transaction-tree-by-offset/{offset}", Claims::read_as,
              with(get_transaction_tree_by_offset));
        route("GET", "/v2/updates/transaction-tree-by-id/{update-id}", Claims::read_as,
              with(get_transaction_tree_by_id));
    }
    if (is_enabled(profile, Deprecation::endpoints_35)) {
        // JsStateService: the deprecated GET reads the POST's body and runs its logic.
        route("GET", "/v2/state/active-contracts-page", Claims::read_as,
              with(post_state_active_contracts_page));
    }
    // What a client asks before reading (the wallet SDK's connect).
    route("GET", "/v2/version", Claims::none,
          [release](const RouteAuth& auth, const http::RequestContext& ctx) {
              return get_version(auth, ctx, release);
          });
    route("GET", "/v2/authenticated-user", Claims::public_, with(get_authenticated_user));
    // User and party management: what a wallet lists before it reads (the SDK's party.list()).
    route("GET", "/v2/users", Claims::admin, with(list_users), Check::by_handler);
    route("GET", "/v2/users/{user-id}", Claims::own_user_or_admin, with(get_user));
    route("GET", "/v2/users/{user-id}/rights", Claims::own_user_or_admin, with(get_user_rights));
    route("GET", "/v2/parties", Claims::admin, with(list_parties), Check::by_handler);
    route("GET", "/v2/parties/participant-id", Claims::public_, with(get_participant_id));
    route("POST", "/v2/parties/external/generate-topology", Claims::public_,
          with(post_generate_external_topology));
    if (network_ != nullptr) {
        // The writes: each applies under the writers' lock and is journaled.
        route(
            "POST", "/v2/parties", Claims::admin_or_self,
            [this](const RouteAuth& auth, const http::RequestContext& ctx) {
                return post_parties(*network_, auth, ctx);
            },
            Check::by_handler, true);
        route(
            "POST", "/v2/parties/external/allocate", Claims::admin_or_self,
            [this](const RouteAuth& auth, const http::RequestContext& ctx) {
                return post_allocate_external_party(*network_, auth, ctx);
            },
            Check::by_handler, true);
        route(
            "POST", "/v2/users", Claims::admin,
            [this, release](const RouteAuth& auth, const http::RequestContext& ctx) {
                return post_users(*network_, auth, ctx, release);
            },
            Check::by_handler, true);
        route(
            "DELETE", "/v2/users/{user-id}", Claims::admin,
            [this](const RouteAuth& auth, const http::RequestContext& ctx) {
                return delete_user(*network_, auth, ctx);
            },
            Check::by_handler, true);
        route(
            "PATCH", "/v2/users/{user-id}", Claims::admin,
            [this, release](const RouteAuth& auth, const http::RequestContext& ctx) {
                return patch_user(*network_, auth, ctx, release);
            },
            Check::by_handler, true);
        route(
            "POST", "/v2/users/{user-id}/rights", Claims::admin,
            [this, release](const RouteAuth& auth, const http::RequestContext& ctx) {
                return post_user_rights(*network_, auth, ctx, release);
            },
            Check::by_handler, true);
        route(
            "PATCH", "/v2/users/{user-id}/rights", Claims::admin,
            [this, release](const RouteAuth& auth, const http::RequestContext& ctx) {
                return patch_user_rights(*network_, auth, ctx, release);
            },
            Check::by_handler, true);
    }
    if (network_ != nullptr) {
        // The command service: each command is a write of the live network.
        const auto submits = [this, release](auto handler) {
            return
                [this, release, handler](const RouteAuth& auth, const http::RequestContext& ctx) {
                    return handler(*network_, auth, ctx, release);
                };
        };
        route("POST", "/v2/commands/submit-and-wait", Claims::user_and_parties,
              submits(post_submit_and_wait), Check::by_handler, true);
        route("POST", "/v2/commands/submit-and-wait-for-transaction", Claims::user_and_parties,
              submits(post_submit_and_wait_for_transaction), Check::by_handler, true);
        if (is_enabled(profile, Deprecation::endpoints_34)) {
            route("POST", "/v2/commands/submit-and-wait-for-transaction-tree",
                  Claims::user_and_parties, submits(post_submit_and_wait_for_transaction_tree),
                  Check::by_handler, true);
        }
        route("POST", "/v2/commands/async/submit", Claims::user_and_parties,
              submits(post_async_submit), Check::by_handler, true);
        // (Prepare commits nothing, but interprets under the writers' lock: not a reader.)
        route("POST", "/v2/interactive-submission/prepare", Claims::user_and_parties,
              submits(post_prepare_submission), Check::by_handler, true);
        route("POST", "/v2/interactive-submission/execute", Claims::user_and_parties,
              submits(post_execute_submission), Check::by_handler, true);
        route("POST", "/v2/interactive-submission/executeAndWait", Claims::user_and_parties,
              submits(post_execute_submission_and_wait), Check::by_handler, true);
        route("POST", "/v2/interactive-submission/executeAndWaitForTransaction",
              Claims::user_and_parties, submits(post_execute_submission_and_wait_for_transaction),
              Check::by_handler, true);
    }
    route("POST", "/v2/commands/completions", Claims::user_and_parties, with(post_completions));
    route("POST", "/v2/commands/command-completions", Claims::read_as,
          with(post_command_completions));
    // asyncapi.yaml: the same over a WebSocket.
    route("GET", "/v2/commands/completions", Claims::user_and_parties, with(completions_websocket));
    route("GET", "/v2/commands/command-completions", Claims::read_as,
          with(command_completions_websocket));
    route("GET", "/v2/parties/{party}", Claims::admin_or_operate_as, with(get_parties));
    route("GET", "/v2/state/connected-synchronizers", Claims::read_as,
          with(get_state_connected_synchronizers));
    route("GET", "/v2/state/latest-pruned-offsets", Claims::public_,
          with(get_state_latest_pruned_offsets));
    route("GET", "/v2/state/ledger-end", Claims::public_, with(get_state_ledger_end));
    route("POST", "/v2/state/active-contracts", Claims::read_as, with(post_state_active_contracts));
    // asyncapi.yaml: the same snapshot over a WebSocket.
    route("GET", "/v2/state/active-contracts", Claims::read_as, with(active_contracts_websocket));
    route("POST", "/v2/state/active-contracts-page", Claims::read_as,
          with(post_state_active_contracts_page));
    route("POST", "/v2/updates", Claims::read_as, with(post_updates));
    // asyncapi.yaml: the same stream over a WebSocket.
    route("GET", "/v2/updates", Claims::read_as, with(updates_websocket));
    route("POST", "/v2/updates/update-by-offset", Claims::read_as,
          with(post_updates_update_by_offset));
    route("POST", "/v2/updates/update-by-id", Claims::read_as, with(post_updates_update_by_id));
    if (release.canton_3_6()) {
        // Canton 3.6: the lookups by the hash an external party signed.
        route("POST", "/v2/updates/update-by-hash", Claims::read_as,
              with(post_updates_update_by_hash));
        route("POST", "/v2/commands/completion-by-hash", Claims::read_as,
              with(post_completion_by_hash));
    }
    route("POST", "/v2/updates/get-updates-page", Claims::read_as,
          with(post_updates_get_updates_page));
    route("POST", "/v2/events/events-by-contract-id", Claims::read_as,
          with(post_events_events_by_contract_id));
}

void LedgerArea::route(std::string method, std::string_view path, Claims claims,
                       LedgerHandler handler, Check check, bool writes) {
    // A GET has no body to decode first: its claims, when they do not depend on it, are checked
    // here, unless its handler decodes a query first. Other routes check theirs in the handler, at
    // the gRPC stage; a success from a route that did not is a bug, and the client gets the
    // internal error rather than the data. (A WebSocket's stream checks them on the request it
    // reads.)
    const bool check_first = method == "GET" && check == Check::before_handler;
    add_route(
        std::move(method), path,
        [this, claims, check_first,
         handler = std::move(handler)](const http::RequestContext& ctx) -> http::Response {
            const RouteAuth auth(auth_, claims);
            if (check_first) {
                auth.check_before(ctx.request, claims == Claims::own_user_or_admin
                                                   ? &ctx.params.get("user-id")
                                                   : nullptr);
            }
            http::Response response = handler(auth, ctx);
            if (!auth.checked() && response.status < 300 && response.stream == nullptr) {
                throw std::logic_error("the route answered without checking its claims");
            }
            return response;
        },
        writes);
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

http::Response unknown_path_response(const http::Request& request) {
    // pekko's HttpMethod.toString; a HEAD reached the routes as a GET (transparent HEAD).
    std::string text = "HttpMethod(" + request.method + "), uri: " + http::effective_uri(request);
    // EndpointsCompanion prints it with circe (noSpaces); a Host header's bytes that are not
    // UTF-8 were decoded by Java into U+FFFD.
    std::string out = R"({"errors":[)";
    out += http::circe_json_string(text);
    out += R"(],"status":404,"ledgerApiError":null})";
    return http::Response::json(404, std::move(out));
}

http::Response LedgerArea::render_unmatched(const http::Request& request,
                                            const std::vector<std::string>& allowed) const {
    if (allowed.empty()) return unknown_path_response(request);
    // tapir's DefaultRejectHandler: some endpoint of this path failed on its method alone.
    return http::Response::text(405, "Method Not Allowed");
}

http::Response LedgerArea::render_decode_error(const http::DecodeError& error) const {
    return http::Response::text(400, error.text());
}

}  // namespace cantonlite::areas::ledger
