#pragma once
// The handlers of the ledger area (openapi.yaml, JSON Ledger API v2).

#include <functional>
#include <memory>
#include <optional>
#include <string_view>

#include "cantonlite/areas/ledger/ledger_auth.hpp"
#include "cantonlite/areas/release.hpp"
#include "cantonlite/http/api_error.hpp"
#include "cantonlite/http/response.hpp"
#include "cantonlite/http/route_table.hpp"
#include "cantonlite/seed/live_network.hpp"
#include "cantonlite/store/ledger_store.hpp"

namespace cantonlite::areas::ledger {

// The release a handler answers as (`release`), where the read side differs. Canton 3.6 refuses
// the deprecated request fields filter/verbose of /v2/updates and /v2/state/active-contracts
// (DEPRECATED_API_DISABLED) unless enable-deprecated-parameters-34 is set, writes
// JsTransaction.transactionHash, and accepts GET /v2/state/ledger-end?synchronizer_id=...

// The JSON API's list limit (websocket-config.http-list-max-elements-limit, default 200).
inline constexpr std::int64_t http_list_max_elements = 200;

// POST /v2/updates/transaction-by-offset (op 1): the transaction at an offset, as the requested
// parties see it, in the steps and order of a Canton 3.5 participant
// (../shared/docs/reference/canton-ledger-behavior.md §1, §3, §5).
[[nodiscard]] http::Response post_transaction_by_offset(const store::LedgerStore& store,
                                                        const RouteAuth& auth,
                                                        const http::RequestContext& ctx);

// POST /v2/updates/transaction-by-id (Canton 3.5, deprecated): the same, by update id, with
// update-by-id's validation and 404.
[[nodiscard]] http::Response post_transaction_by_id(const store::LedgerStore& store,
                                                    const RouteAuth& auth,
                                                    const http::RequestContext& ctx);

// The WebSocket stream of GetUpdatesRequest's answers: one request message, then each visible
// update as a message, tailing the ledger unless endInclusive ends it.
// `trees`: /v2/updates/trees' stream, each transaction a TransactionTree.
[[nodiscard]] std::unique_ptr<http::MessageStream> make_update_stream(
    const store::LedgerStore& store, const RouteAuth& auth, const Caller& caller,
    const ApiProfile& release, bool trees = false);
// Runs `plan` on the first message of a ledger WebSocket: nullopt when it succeeds; else what the
// stream answers, one JsCantonError message and the end (a frame that is no request: Canton's
// internal error "Cannot decode frame: …").
[[nodiscard]] std::optional<http::MessageStream::Output> stream_request_error(
    std::string_view text, const std::function<void()>& plan);
// A ledger WebSocket endpoint's answer (Endpoints.websocket): the caller identified first (403
// before any upgrade), then 101 with the stream `open` makes for them, in the protocol
// "daml.ws.auth" whatever the client offered. tapir's endpoint takes a plain GET too, but Pekko's
// upgrade directive rejects it and the JSON API's fallback route answers an unknown path.
[[nodiscard]] http::Response upgrade_to_stream(
    const RouteAuth& auth, const http::RequestContext& ctx,
    const std::function<std::unique_ptr<http::MessageStream>(const Caller&)>& open);
// GET /v2/updates (and /v2/updates/flats on the 3.5 line) upgraded to a WebSocket, its token from
// "Sec-WebSocket-Protocol: jwt.token.<JWT>" or "Authorization: Bearer"; a GET that does not ask
// to upgrade is an unknown path.
[[nodiscard]] http::Response updates_websocket(const store::LedgerStore& store,
                                               const RouteAuth& auth,
                                               const http::RequestContext& ctx,
                                               const ApiProfile& release);
// GET /v2/updates/trees upgraded (the 3.5 line): the same stream of JsGetUpdateTreesResponse.
[[nodiscard]] http::Response update_trees_websocket(const store::LedgerStore& store,
                                                    const RouteAuth& auth,
                                                    const http::RequestContext& ctx,
                                                    const ApiProfile& release);

// The error of a write the network could not take: unavailable (503) while its journal is away,
// internal (500) otherwise.
[[nodiscard]] http::ApiError write_failed(const seed::WriteError& e);

// A write's answer `body` (200 application/json), sent once the write is durable (at once without
// a journal); a failed sync is write_failed's error.
[[nodiscard]] http::Response answer_once_durable(seed::LiveNetwork& network, seed::Written written,
                                                 std::string body);

// GET /v2/version: the Ledger API version and features (no token needed).
[[nodiscard]] http::Response get_version(const RouteAuth& auth, const http::RequestContext& ctx,
                                         const ApiProfile& release);
// GET /v2/authenticated-user: the token's own user.
[[nodiscard]] http::Response get_authenticated_user(const store::LedgerStore& store,
                                                    const RouteAuth& auth,
                                                    const http::RequestContext& ctx,
                                                    const ApiProfile& release);
// GET /v2/users/{user-id} and /v2/users/{user-id}/rights: a user and its rights (the caller's
// own, or any for a ParticipantAdmin); 404 USER_NOT_FOUND for an unknown one.
[[nodiscard]] http::Response get_user(const store::LedgerStore& store, const RouteAuth& auth,
                                      const http::RequestContext& ctx, const ApiProfile& release);
[[nodiscard]] http::Response get_user_rights(const store::LedgerStore& store, const RouteAuth& auth,
                                             const http::RequestContext& ctx,
                                             const ApiProfile& release);
// GET /v2/users (ParticipantAdmin): the users by id, paged (pageSize, pageToken).
[[nodiscard]] http::Response list_users(const store::LedgerStore& store, const RouteAuth& auth,
                                        const http::RequestContext& ctx, const ApiProfile& release);
// GET /v2/parties (ParticipantAdmin): the parties the participant knows, by id, paged, with the
// prefix filter-party.
[[nodiscard]] http::Response list_parties(const store::LedgerStore& store, const RouteAuth& auth,
                                          const http::RequestContext& ctx,
                                          const ApiProfile& release);
// GET /v2/parties/{party}[?parties=…]: the details of those the participant knows.
[[nodiscard]] http::Response get_parties(const store::LedgerStore& store, const RouteAuth& auth,
                                         const http::RequestContext& ctx,
                                         const ApiProfile& release);
// POST /v2/parties: allocates a party "<hint>::<the participant's namespace>" (ParticipantAdmin, or
// for the caller's own userId, which then may act as it), journaled as add_party and grant_rights
// steps; 400 INVALID_ARGUMENT "Party already exists: …" for one allocated before.
[[nodiscard]] http::Response post_parties(seed::LiveNetwork& network, const RouteAuth& auth,
                                          const http::RequestContext& ctx);
// External parties (external_party_handlers.cpp): POST /v2/parties/external/generate-topology
// answers the onboarding topology of an Ed25519 key (one PartyToParticipant transaction hosted by
// this participant with confirmation) and its multi-hash; POST /v2/parties/external/allocate
// checks the transactions and the party's signatures of them, then adds the party with its key
// (an add_party step), hosted here from then on.
[[nodiscard]] http::Response post_generate_external_topology(const store::LedgerStore& store,
                                                             const RouteAuth& auth,
                                                             const http::RequestContext& ctx,
                                                             const ApiProfile& release);
[[nodiscard]] http::Response post_allocate_external_party(seed::LiveNetwork& network,
                                                          const RouteAuth& auth,
                                                          const http::RequestContext& ctx);
// The command service (command_handlers.cpp): POST /v2/commands/submit-and-wait answers
// {updateId, completionOffset}; …-for-transaction the JsTransaction; …-for-transaction-tree the
// JsTransactionTree (3.5); async/submit {}. Each submits a "submit" step (seed/commands.hpp).
// POST /v2/interactive-submission/prepare: the commands interpreted as a submission would run
// them, nothing committed, answered as Canton's PreparedTransaction (base64) with its hash
// (V2 unless hashingSchemeVersion says V3) for the parties' keys to sign (docs/interactive.md).
[[nodiscard]] http::Response post_prepare_submission(seed::LiveNetwork& network,
                                                     const RouteAuth& auth,
                                                     const http::RequestContext& ctx,
                                                     const ApiProfile& release);
// POST /v2/commands/completion-by-hash (Canton 3.6): the completion of the execution of the
// prepared transaction with this hash, for a caller who reads as one of its actAs parties.
[[nodiscard]] http::Response post_completion_by_hash(const store::LedgerStore& store,
                                                     const RouteAuth& auth,
                                                     const http::RequestContext& ctx,
                                                     const ApiProfile& release);
// POST /v2/interactive-submission/execute ({}), …/executeAndWait ({updateId, completionOffset})
// and …/executeAndWaitForTransaction ({transaction}): the prepared transaction given back, checked
// as the participant checks it, then an "execute" step that verifies the parties' signatures of
// its hash and commits it if its command, run again, makes that very transaction
// (interactive_handlers.cpp, with prepare).
[[nodiscard]] http::Response post_execute_submission(seed::LiveNetwork& network,
                                                     const RouteAuth& auth,
                                                     const http::RequestContext& ctx,
                                                     const ApiProfile& release);
[[nodiscard]] http::Response post_execute_submission_and_wait(seed::LiveNetwork& network,
                                                              const RouteAuth& auth,
                                                              const http::RequestContext& ctx,
                                                              const ApiProfile& release);
[[nodiscard]] http::Response post_execute_submission_and_wait_for_transaction(
    seed::LiveNetwork& network, const RouteAuth& auth, const http::RequestContext& ctx,
    const ApiProfile& release);
[[nodiscard]] http::Response post_submit_and_wait(seed::LiveNetwork& network, const RouteAuth& auth,
                                                  const http::RequestContext& ctx,
                                                  const ApiProfile& release);
[[nodiscard]] http::Response post_submit_and_wait_for_transaction(seed::LiveNetwork& network,
                                                                  const RouteAuth& auth,
                                                                  const http::RequestContext& ctx,
                                                                  const ApiProfile& release);
[[nodiscard]] http::Response post_submit_and_wait_for_transaction_tree(
    seed::LiveNetwork& network, const RouteAuth& auth, const http::RequestContext& ctx,
    const ApiProfile& release);
[[nodiscard]] http::Response post_async_submit(seed::LiveNetwork& network, const RouteAuth& auth,
                                               const http::RequestContext& ctx,
                                               const ApiProfile& release);
// POST /v2/commands/completions (the caller's user, its parties) and command-completions (every
// user's): the completions of accepted commands after beginExclusive, as a list.
[[nodiscard]] http::Response post_completions(const store::LedgerStore& store,
                                              const RouteAuth& auth,
                                              const http::RequestContext& ctx,
                                              const ApiProfile& release);
// GET /v2/commands/completions and command-completions (asyncapi.yaml): the same completions
// over a WebSocket, tailing the ledger.
[[nodiscard]] http::Response completions_websocket(const store::LedgerStore& store,
                                                   const RouteAuth& auth,
                                                   const http::RequestContext& ctx,
                                                   const ApiProfile& release);
[[nodiscard]] http::Response command_completions_websocket(const store::LedgerStore& store,
                                                           const RouteAuth& auth,
                                                           const http::RequestContext& ctx,
                                                           const ApiProfile& release);
[[nodiscard]] http::Response post_command_completions(const store::LedgerStore& store,
                                                      const RouteAuth& auth,
                                                      const http::RequestContext& ctx,
                                                      const ApiProfile& release);
// The user management writes (src/areas/ledger/user_writes.cpp), each ParticipantAdmin's, each
// journaled as the steps that make it (docs/seed-format.md "Parties and users"):
// POST /v2/users: creates a user {"user": User}; 409 USER_ALREADY_EXISTS for a known id.
[[nodiscard]] http::Response post_users(seed::LiveNetwork& network, const RouteAuth& auth,
                                        const http::RequestContext& ctx, const ApiProfile& release);
// DELETE /v2/users/{user-id}: {}; 404 USER_NOT_FOUND; a caller cannot delete itself.
[[nodiscard]] http::Response delete_user(seed::LiveNetwork& network, const RouteAuth& auth,
                                         const http::RequestContext& ctx);
// POST /v2/users/{user-id}/rights: grants {"newlyGrantedRights": the rights not held before}.
[[nodiscard]] http::Response post_user_rights(seed::LiveNetwork& network, const RouteAuth& auth,
                                              const http::RequestContext& ctx,
                                              const ApiProfile& release);
// PATCH /v2/users/{user-id}/rights: revokes {"newlyRevokedRights": the rights held before}.
[[nodiscard]] http::Response patch_user_rights(seed::LiveNetwork& network, const RouteAuth& auth,
                                               const http::RequestContext& ctx,
                                               const ApiProfile& release);
// PATCH /v2/users/{user-id}: updates the fields of the update mask {"user": User}.
[[nodiscard]] http::Response patch_user(seed::LiveNetwork& network, const RouteAuth& auth,
                                        const http::RequestContext& ctx, const ApiProfile& release);
// GET /v2/parties/participant-id: the participant's unique identifier (any user).
[[nodiscard]] http::Response get_participant_id(const store::LedgerStore& store,
                                                const RouteAuth& auth,
                                                const http::RequestContext& ctx,
                                                const ApiProfile& release);
// GET /v2/state/connected-synchronizers (optionally for a party).
[[nodiscard]] http::Response get_state_connected_synchronizers(const store::LedgerStore& store,
                                                               const RouteAuth& auth,
                                                               const http::RequestContext& ctx,
                                                               const ApiProfile& release);
// GET /v2/state/latest-pruned-offsets: nothing is ever pruned here.
[[nodiscard]] http::Response get_state_latest_pruned_offsets(const store::LedgerStore& store,
                                                             const RouteAuth& auth,
                                                             const http::RequestContext& ctx,
                                                             const ApiProfile& release);

// GET /v2/state/ledger-end
[[nodiscard]] http::Response get_state_ledger_end(const store::LedgerStore& store,
                                                  const RouteAuth& auth,
                                                  const http::RequestContext& ctx,
                                                  const ApiProfile& release);
// POST /v2/state/active-contracts (the HTTP list form)
[[nodiscard]] http::Response post_state_active_contracts(const store::LedgerStore& store,
                                                         const RouteAuth& auth,
                                                         const http::RequestContext& ctx,
                                                         const ApiProfile& release);
// GET /v2/state/active-contracts upgraded to a WebSocket (asyncapi.yaml): the same snapshot, one
// message per element, then the end; a GET that does not ask to upgrade is an unknown path.
[[nodiscard]] http::Response active_contracts_websocket(const store::LedgerStore& store,
                                                        const RouteAuth& auth,
                                                        const http::RequestContext& ctx,
                                                        const ApiProfile& release);
// POST /v2/state/active-contracts-page
[[nodiscard]] http::Response post_state_active_contracts_page(const store::LedgerStore& store,
                                                              const RouteAuth& auth,
                                                              const http::RequestContext& ctx,
                                                              const ApiProfile& release);

// POST /v2/updates/update-by-offset
[[nodiscard]] http::Response post_updates_update_by_offset(const store::LedgerStore& store,
                                                           const RouteAuth& auth,
                                                           const http::RequestContext& ctx,
                                                           const ApiProfile& release);
// POST /v2/updates/update-by-id
[[nodiscard]] http::Response post_updates_update_by_id(const store::LedgerStore& store,
                                                       const RouteAuth& auth,
                                                       const http::RequestContext& ctx,
                                                       const ApiProfile& release);
// POST /v2/updates/update-by-hash (Canton 3.6): the transaction an external party signed this
// hash of (interactive submission's execute).
[[nodiscard]] http::Response post_updates_update_by_hash(const store::LedgerStore& store,
                                                         const RouteAuth& auth,
                                                         const http::RequestContext& ctx,
                                                         const ApiProfile& release);
// POST /v2/updates (the HTTP list form)
[[nodiscard]] http::Response post_updates(const store::LedgerStore& store, const RouteAuth& auth,
                                          const http::RequestContext& ctx,
                                          const ApiProfile& release);
// Canton 3.5's deprecated transaction trees (src/areas/ledger/tree_handlers.cpp; disabled in 3.6).
// POST /v2/updates/trees: /v2/updates' list with each transaction a
// {"TransactionTree":{"value":JsTransactionTree}} update (the legacy filter reads
// LEDGER_EFFECTS, a wildcard added to each party's filters).
[[nodiscard]] http::Response post_updates_trees(const store::LedgerStore& store,
                                                const RouteAuth& auth,
                                                const http::RequestContext& ctx,
                                                const ApiProfile& release);
// GET /v2/updates/transaction-tree-by-offset/{offset}?parties=...: {"transaction":
// JsTransactionTree} as the parties see it (LEDGER_EFFECTS, wildcard), else UPDATE_NOT_FOUND.
[[nodiscard]] http::Response get_transaction_tree_by_offset(const store::LedgerStore& store,
                                                            const RouteAuth& auth,
                                                            const http::RequestContext& ctx,
                                                            const ApiProfile& release);
// GET /v2/updates/transaction-tree-by-id/{update-id}?parties=...: the same by update id.
[[nodiscard]] http::Response get_transaction_tree_by_id(const store::LedgerStore& store,
                                                        const RouteAuth& auth,
                                                        const http::RequestContext& ctx,
                                                        const ApiProfile& release);

// POST /v2/updates/get-updates-page
[[nodiscard]] http::Response post_updates_get_updates_page(const store::LedgerStore& store,
                                                           const RouteAuth& auth,
                                                           const http::RequestContext& ctx,
                                                           const ApiProfile& release);

// POST /v2/events/events-by-contract-id
[[nodiscard]] http::Response post_events_events_by_contract_id(const store::LedgerStore& store,
                                                               const RouteAuth& auth,
                                                               const http::RequestContext& ctx,
                                                               const ApiProfile& release);

}  // namespace cantonlite::areas::ledger
