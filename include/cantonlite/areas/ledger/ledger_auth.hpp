#pragma once
// LedgerAuth: the JSON Ledger API's token handling
// (../shared/docs/reference/canton-ledger-behavior.md §7).

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cantonlite/auth/jwt_verifier.hpp"
#include "cantonlite/http/request.hpp"
#include "cantonlite/model/network.hpp"

namespace cantonlite::areas::ledger {

// Who calls: the user of a valid token, or nobody (no token, or one that does not verify: the
// ledger treats it as absent and fails later, with 401). The user as the token stage found it, a
// copy: a write may remove or move the network's users while a request or a stream holds it.
struct Caller {
    std::shared_ptr<const model::User> user;
};

// Built once from the network; thread-safe.
class LedgerAuth {
  public:
    // Throws std::invalid_argument for unusable keys.
    explicit LedgerAuth(const model::Network& network);

    // The JSON security stage: the token from "Authorization: Bearer" or
    // "Sec-WebSocket-Protocol: jwt.token.<JWT>". A verified token whose user the participant does
    // not know, or has deactivated: 403 (redacted, context ledger_api_error "invalid token").
    [[nodiscard]] Caller identify(const http::Request& request) const;

    // The gRPC layer: 401 (redacted) when auth is on and nobody calls; then 403 (redacted) unless
    // the user may read as every party of `parties` (CanReadAs or CanActAs) and, when
    // `any_party`, as any party (CanReadAsAnyParty). Nothing is checked when auth is off.
    void authorize(const Caller& caller, const std::vector<std::string>& parties,
                   bool any_party) const;

    // ParticipantAdmin (401 first, as authorize): 403 unless the caller has the right, or, with
    // `own_user`, is that user (UserManagementServiceAuthorization: a user reads itself).
    void authorize_admin(const Caller& caller, std::optional<std::string_view> own_user) const;

    // Whether tokens are checked at all.
    [[nodiscard]] bool enabled() const { return network_.auth.ledger_auth; }

  private:
    const model::Network& network_;
    auth::JwtVerifier verifier_;
};

// What a ledger route needs of its caller: the RequiredClaims of the Canton RPC behind it (its
// *ServiceAuthorization class). Each route of LedgerArea's table declares one.
enum class Claims {
    none,                 // no check (VersionService); the token stage still refuses unknown users
    public_,              // any authenticated user (RequiredClaim.Public)
    read_as,              // ReadAs each party the request reads for, known once it is decoded
    own_user_or_admin,    // the path's {user-id} is the caller's own user, or ParticipantAdmin
    admin,                // ParticipantAdmin
    admin_or_operate_as,  // ParticipantAdmin, or the right to act or read as each party named
    admin_or_self,        // ParticipantAdmin, or the request's userId is the caller's own
    user_and_parties,     // the request's userId is the caller's (MatchUserId), and the caller
                          // acts (ActAs) and reads (ReadAs) as the parties the request names
};

// A user id as Canton's UserId.fromString takes it: 1 to 128 of [a-zA-Z0-9@^$.!`-#+'~_|:()].
// Throws http::ApiError INVALID_ARGUMENT "Malformed user-id: …", built by the JSON layer
// (JsUserManagementService.malformedUserId).
void check_user_id(const std::string& id);
// Why `id` is no UserId, in IdString.scala's words ("User ID \"<id>\" does not match regex …"), or
// none.
[[nodiscard]] std::optional<std::string> user_id_error(const std::string& id);

// The auth of one request to a ledger route: LedgerAuth bound to the claims its route declares.
// A GET route's claims are checked by the area before its handler runs (check_before()); a route
// that reads a body checks them where Canton does, at the gRPC stage after decoding, through
// authorize(). The area refuses the answer of a route whose claims were never checked
// (checked()), so that a handler cannot forget them. Copyable: a stream keeps its own.
class RouteAuth {
  public:
    RouteAuth(const LedgerAuth& auth, Claims claims) : auth_(&auth), claims_(claims) {}

    // The JSON security stage (LedgerAuth::identify), once per request.
    [[nodiscard]] Caller identify(const http::Request& request) const;

    // The gRPC stage of a read_as or public_ route: the caller reads for `parties` (and for any
    // party with `any_party`); public_ routes pass none.
    void authorize(const Caller& caller, const std::vector<std::string>& parties,
                   bool any_party) const;

    // The route's claims, when they do not depend on its body: identify, then public_, admin or
    // own_user_or_admin (for `user_id`, the path's {user-id}, checked as a user id first).
    // Nothing for none, read_as and admin_or_operate_as.
    void check_before(const http::Request& request, const std::string* user_id) const;

    // The same check, from a handler that decodes its query first (a bad query parameter is
    // tapir's 400 before the claims are looked at).
    void authorize(const http::Request& request) const { check_before(request, nullptr); }

    // The gRPC stage of an admin_or_self route: `user_id` the request names ("": none, so
    // ParticipantAdmin).
    void authorize_admin_or_self(const Caller& caller, const std::string& user_id) const;

    // The gRPC stage of a user_and_parties route that submits commands
    // (CommandServiceAuthorization): MatchUserId(user_id), then ActAs each of `act_as`, then ReadAs
    // each of `read_as`. Returns the user id the command runs as: `user_id`, or the caller's when
    // it is "". Without auth a request must name its user (400 INVALID_TOKEN).
    [[nodiscard]] std::string authorize_submission(const Caller& caller, const std::string& user_id,
                                                   const std::vector<std::string>& act_as,
                                                   const std::vector<std::string>& read_as) const;
    // The same for interactive submission's execute (InteractiveSubmissionServiceAuthorization):
    // MatchUserId(user_id), then ExecuteAs each of `execute_as` (CanActAs grants it).
    [[nodiscard]] std::string authorize_execution(const Caller& caller, const std::string& user_id,
                                                  const std::vector<std::string>& execute_as) const;
    // The same for a route that reads completions: MatchUserId(user_id), ReadAs each of `parties`
    // (or ReadAsAnyParty with `any_party`).
    [[nodiscard]] std::string authorize_user_reads(const Caller& caller, const std::string& user_id,
                                                   const std::vector<std::string>& parties,
                                                   bool any_party) const;

    // MatchReadAsParties, for a read_as route: the parties the caller reads as (CanActAs or
    // CanReadAs), or none for every party (CanReadAsAnyParty, or auth off); 403 when it reads as
    // no party at all.
    [[nodiscard]] std::optional<std::vector<std::string>> readable_parties(
        const Caller& caller) const;

    // The gRPC stage of an admin_or_operate_as route.
    void authorize_operate_as(const Caller& caller, const std::vector<std::string>& parties) const;

    [[nodiscard]] bool enabled() const { return auth_->enabled(); }
    [[nodiscard]] Claims claims() const { return claims_; }
    // Whether the claims were checked (always, for Claims::none).
    [[nodiscard]] bool checked() const { return checked_ || claims_ == Claims::none; }

  private:
    const LedgerAuth* auth_;
    Claims claims_;
    mutable bool checked_ = false;
    mutable std::optional<Caller> caller_;
};

}  // namespace cantonlite::areas::ledger
