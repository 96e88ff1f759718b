#include "cantonlite/areas/ledger/ledger_auth.hpp"

#include <algorithm>
#include <cctype>
#include <stdexcept>

#include <spdlog/spdlog.h>

#include "cantonlite/http/api_error.hpp"

namespace cantonlite::areas::ledger {
namespace {

// "Authorization: Bearer <t>" wins; else an entry "jwt.token.<t>" of Sec-WebSocket-Protocol.
std::optional<std::string> token_of(const http::Request& request) {
    if (const auto bearer = request.bearer_token()) return std::string(*bearer);
    if (const auto h = request.header("Sec-WebSocket-Protocol")) {
        std::string_view rest = *h;
        while (!rest.empty()) {
            const std::size_t comma = rest.find(',');
            std::string_view entry = rest.substr(0, comma);
            while (!entry.empty() && entry.front() == ' ') entry.remove_prefix(1);
            while (!entry.empty() && entry.back() == ' ') entry.remove_suffix(1);
            if (entry.starts_with("jwt.token.")) return std::string(entry.substr(10));
            rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
        }
    }
    return std::nullopt;
}

bool contains(const std::vector<std::string>& list, std::string_view item) {
    return std::find(list.begin(), list.end(), item) != list.end();
}

[[noreturn]] void denied(const std::string& why) {
    throw http::ApiError(http::ErrorKind::permission_denied, "PERMISSION_DENIED",
                         "The provided authorization token is not sufficient to authorize the "
                         "intended command: " +
                             why);
}

void require_caller(const Caller& caller) {
    if (caller.user == nullptr) {
        throw http::ApiError(http::ErrorKind::unauthenticated, "UNAUTHENTICATED",
                             "The command is missing a (valid) JWT token");
    }
}

}  // namespace

LedgerAuth::LedgerAuth(const model::Network& network)
    : network_(network), verifier_(network.auth) {}

Caller LedgerAuth::identify(const http::Request& request) const {
    if (!network_.auth.ledger_auth) return {};
    const auto token = token_of(request);
    if (!token) return {};
    // A user token: sub is the user; the participant's target audience is the seed's, so aud must
    // contain it (§7.3: the participant audience or daml_ledger_api scope only count without one).
    const auth::Verification v = verifier_.verify(*token, auth::wall_clock_seconds(), true);
    if (!v.claims || v.claims->subject.empty()) {
        spdlog::warn("{} {}: token refused: {}", request.method, request.target,
                     v.claims ? "no sub" : v.reason);
        return {};
    }
    // UserBasedClaimResolver: the user must exist and be active.
    const model::User* user = network_.find_user(v.claims->subject);
    if (user == nullptr || user->deactivated) {
        throw http::ApiError(http::ErrorKind::permission_denied, "PERMISSION_DENIED",
                             "invalid token", {{"ledger_api_error", "invalid token"}});
    }
    return Caller{.user = std::make_shared<const model::User>(*user)};
}

void LedgerAuth::authorize(const Caller& caller, const std::vector<std::string>& parties,
                           bool any_party) const {
    if (!network_.auth.ledger_auth) return;
    require_caller(caller);
    const model::LedgerRights& r = caller.user->rights;
    if (any_party && !r.can_read_as_any_party)
        denied("Claims do not authorize to read data as any party (super-reader wildcard)");
    if (r.can_read_as_any_party) return;
    for (const std::string& p : parties) {
        if (!contains(r.can_act_as, p) && !contains(r.can_read_as, p)) {
            denied("Claims do not authorize to read data for party '" + p + "'");
        }
    }
}

void LedgerAuth::authorize_admin(const Caller& caller,
                                 std::optional<std::string_view> own_user) const {
    if (!network_.auth.ledger_auth) return;
    require_caller(caller);
    if (caller.user->rights.participant_admin) return;
    if (own_user && *own_user == caller.user->id) return;
    // AuthorizationError.MissingAdminClaim
    denied("Claims do not authorize the use of administrative services.");
}

Caller RouteAuth::identify(const http::Request& request) const {
    if (!caller_) caller_ = auth_->identify(request);
    return *caller_;
}

void RouteAuth::authorize(const Caller& caller, const std::vector<std::string>& parties,
                          bool any_party) const {
    if (claims_ != Claims::read_as && claims_ != Claims::user_and_parties &&
        (claims_ != Claims::public_ || !parties.empty() || any_party))
        throw std::logic_error("a route authorized other claims than it declares");
    auth_->authorize(caller, parties, any_party);
    checked_ = true;
}

std::optional<std::vector<std::string>> RouteAuth::readable_parties(const Caller& caller) const {
    if (claims_ != Claims::read_as)
        throw std::logic_error("a route authorized other claims than it declares");
    checked_ = true;
    if (!auth_->enabled()) return std::nullopt;
    require_caller(caller);
    const model::LedgerRights& r = caller.user->rights;
    if (r.can_read_as_any_party) return std::nullopt;
    std::vector<std::string> parties = r.can_act_as;
    parties.insert(parties.end(), r.can_read_as.begin(), r.can_read_as.end());
    if (parties.empty()) {
        denied(
            "Claims do not authorize reading data: neither a read-as-any-party wildcard nor "
            "any party-specific read/act claim is present");
    }
    return parties;
}

std::optional<std::string> user_id_error(const std::string& id) {
    const auto allowed = [](unsigned char c) {
        return std::isalnum(c) != 0 ||
               std::string_view("@^$.!`-#+'~_|:()").find(static_cast<char>(c)) !=
                   std::string_view::npos;
    };
    if (!id.empty() && id.size() <= 128 && std::all_of(id.begin(), id.end(), allowed)) {
        return std::nullopt;
    }
    // IdString.scala: UserId's regex, in the message as written there.
    return "User ID \"" + id +
           "\" does not match regex \"[a-zA-Z0-9@^$.!`\\-#+'~_|:\\(\\)]{1,128}\"";
}

void check_user_id(const std::string& id) {
    const auto error = user_id_error(id);
    if (!error) return;
    throw http::ApiError(
        http::ErrorKind::invalid_argument, "INVALID_ARGUMENT",
        "The submitted request has invalid arguments: Malformed user-id: " + *error)
        .built_by_json_layer();
}

void RouteAuth::authorize_operate_as(const Caller& caller,
                                     const std::vector<std::string>& parties) const {
    if (claims_ != Claims::admin_or_operate_as)
        throw std::logic_error("a route authorized other claims than it declares");
    checked_ = true;
    if (!auth_->enabled()) return;
    require_caller(caller);
    const model::LedgerRights& r = caller.user->rights;
    if (r.participant_admin || r.can_read_as_any_party) return;
    for (const std::string& p : parties) {
        if (!contains(r.can_act_as, p) && !contains(r.can_read_as, p)) {
            denied(
                "Claims do not authorize the use of administrative services nor authorize to "
                "operate for party '" +
                p + "'");
        }
    }
}

void RouteAuth::authorize_admin_or_self(const Caller& caller, const std::string& user_id) const {
    if (claims_ != Claims::admin_or_self)
        throw std::logic_error("a route authorized other claims than it declares");
    auth_->authorize_admin(
        caller, user_id.empty() ? std::nullopt : std::optional<std::string_view>(user_id));
    checked_ = true;
}

namespace {

// Authorizer.defaultToAuthenticatedUser and MatchUserId: the user a request runs as.
std::string match_user_id(bool enabled, const Caller& caller, const std::string& user_id) {
    if (!enabled) {
        if (!user_id.empty()) return user_id;
        throw http::ApiError(http::ErrorKind::invalid_argument, "INVALID_TOKEN",
                             "The submitted request is missing a user-id: Cannot default user_id "
                             "field because claims do not specify an user-id. Is authentication "
                             "turned on?");
    }
    require_caller(caller);
    if (user_id.empty() || user_id == caller.user->id) return caller.user->id;
    denied("Claims are only valid for userId '" + caller.user->id + "', actual userId is '" +
           user_id + "'");
}

}  // namespace

std::string RouteAuth::authorize_submission(const Caller& caller, const std::string& user_id,
                                            const std::vector<std::string>& act_as,
                                            const std::vector<std::string>& read_as) const {
    if (claims_ != Claims::user_and_parties)
        throw std::logic_error("a route authorized other claims than it declares");
    std::string user = match_user_id(auth_->enabled(), caller, user_id);
    checked_ = true;
    if (!auth_->enabled()) return user;
    const model::LedgerRights& r = caller.user->rights;
    for (const std::string& p : act_as) {
        if (!contains(r.can_act_as, p))
            denied("Claims do not authorize to act as party '" + p + "'");
    }
    for (const std::string& p : read_as) {
        if (contains(act_as, p) || r.can_read_as_any_party || contains(r.can_act_as, p) ||
            contains(r.can_read_as, p))
            continue;
        denied("Claims do not authorize to read data for party '" + p + "'");
    }
    return user;
}

std::string RouteAuth::authorize_execution(const Caller& caller, const std::string& user_id,
                                           const std::vector<std::string>& execute_as) const {
    if (claims_ != Claims::user_and_parties)
        throw std::logic_error("a route authorized other claims than it declares");
    std::string user = match_user_id(auth_->enabled(), caller, user_id);
    checked_ = true;
    if (!auth_->enabled()) return user;
    for (const std::string& p : execute_as) {
        if (!contains(caller.user->rights.can_act_as, p))
            denied("Claims do not authorize to execute for party '" + p + "'");
    }
    return user;
}

std::string RouteAuth::authorize_user_reads(const Caller& caller, const std::string& user_id,
                                            const std::vector<std::string>& parties,
                                            bool any_party) const {
    if (claims_ != Claims::user_and_parties)
        throw std::logic_error("a route authorized other claims than it declares");
    // A super-reader may read another user's completions.
    const bool reader =
        auth_->enabled() && caller.user != nullptr && caller.user->rights.can_read_as_any_party;
    std::string user =
        reader && !user_id.empty() ? user_id : match_user_id(auth_->enabled(), caller, user_id);
    auth_->authorize(caller, parties, any_party);
    checked_ = true;
    return user;
}

void RouteAuth::check_before(const http::Request& request, const std::string* user_id) const {
    switch (claims_) {
        case Claims::none:
        case Claims::user_and_parties:
        case Claims::read_as:
        case Claims::admin_or_operate_as:
        case Claims::admin_or_self:
            return;
        case Claims::public_:
            auth_->authorize(identify(request), {}, false);
            break;
        case Claims::admin:
            auth_->authorize_admin(identify(request), std::nullopt);
            break;
        case Claims::own_user_or_admin:
            if (user_id == nullptr) throw std::logic_error("own_user_or_admin without {user-id}");
            {
                const Caller caller = identify(request);  // the JSON security stage
                check_user_id(*user_id);  // the JSON layer's UserId.fromString, then the claims
                auth_->authorize_admin(caller, *user_id);
            }
            break;
    }
    checked_ = true;
}

}  // namespace cantonlite::areas::ledger
