// The user management writes of the JSON Ledger API: create, update and delete a user, grant and
// revoke its rights. Canton release-line-3.5: JsUserManagementService (the JSON layer: the relaxed
// codecs, the path's user id against the body's), UserManagementServiceAuthorization (each needs
// ParticipantAdmin here, where no identity provider admin exists), ApiUserManagementService (the
// validation, in its order), PersistentUserManagementStore (what a write finds and changes) and
// UserManagementServiceErrors. Every user belongs to the default identity provider. Each write is
// planned under the readers' lock, then journaled as the steps that make it (create_user,
// delete_user, grant_user_rights, revoke_user_rights, update_user: docs/seed-format.md), which
// refuse a plan that a concurrent write made stale: it is planned again.
#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <string>
#include <utility>
#include <vector>

#include <spdlog/spdlog.h>
#include <nlohmann/json.hpp>

#include "cantonlite/areas/ledger/event_filter.hpp"
#include "cantonlite/areas/ledger/ledger_handlers.hpp"
#include "cantonlite/areas/ledger/relaxed_json.hpp"
#include "cantonlite/areas/ledger/user_json.hpp"
#include "cantonlite/http/api_error.hpp"

namespace cantonlite::areas::ledger {
namespace {

using http::ApiError;
using http::ErrorKind;
using nlohmann::json;
using nlohmann::ordered_json;

// UserManagementServiceConfig.maxRightsPerUser (GET /v2/version says so too).
constexpr std::size_t max_rights_per_user = 1000;

// ---- the request bodies, decoded as the relaxed codecs decode them (400 text/plain) ----

// A Right.Kind of the request, as the JSON layer reads it; the ones after `participant_admin` are
// not modelled here.
enum class RightKind {
    can_act_as,
    can_read_as,
    can_read_as_any_party,
    participant_admin,
    can_act_as_any_party,  // Canton 3.6
    can_execute_as,
    can_execute_as_any_party,
    identity_provider_admin,
    empty,
};

struct RequestedRight {
    RightKind kind = RightKind::empty;
    std::string party;  // CanActAs, CanReadAs, CanExecuteAs

    bool operator==(const RequestedRight&) const = default;
};

// The proto's name of a kind.
std::string_view kind_name(RightKind kind) {
    switch (kind) {
        case RightKind::can_act_as:
            return "CanActAs";
        case RightKind::can_read_as:
            return "CanReadAs";
        case RightKind::can_read_as_any_party:
            return "CanReadAsAnyParty";
        case RightKind::participant_admin:
            return "ParticipantAdmin";
        case RightKind::can_act_as_any_party:
            return "CanActAsAnyParty";
        case RightKind::can_execute_as:
            return "CanExecuteAs";
        case RightKind::can_execute_as_any_party:
            return "CanExecuteAsAnyParty";
        case RightKind::identity_provider_admin:
            return "IdentityProviderAdmin";
        case RightKind::empty:
            break;
    }
    return "Empty";
}

bool names_party(RightKind kind) {
    return kind == RightKind::can_act_as || kind == RightKind::can_read_as ||
           kind == RightKind::can_execute_as;
}

bool modelled_kind(RightKind kind) {
    return kind <= RightKind::participant_admin;
}

// Right.Kind, an ADT (deriveConfiguredCodec): the first alternative present in circe's order (by
// name), its {"value": {...}} a relaxed message; anything else fails as circe's coproduct does.
RequestedRight decode_right_kind(const json& value, const ApiProfile& release) {
    static constexpr std::pair<std::string_view, RightKind> alternatives[] = {
        {"CanActAs", RightKind::can_act_as},
        {"CanActAsAnyParty", RightKind::can_act_as_any_party},
        {"CanExecuteAs", RightKind::can_execute_as},
        {"CanExecuteAsAnyParty", RightKind::can_execute_as_any_party},
        {"CanReadAs", RightKind::can_read_as},
        {"CanReadAsAnyParty", RightKind::can_read_as_any_party},
        {"Empty", RightKind::empty},
        {"IdentityProviderAdmin", RightKind::identity_provider_admin},
        {"ParticipantAdmin", RightKind::participant_admin},
    };
    if (value.is_object()) {
        for (const auto& [key, kind] : alternatives) {
            // CanActAsAnyParty is a kind of Canton 3.6's proto only.
            if (kind == RightKind::can_act_as_any_party && !release.canton_3_6()) continue;
            const json* wrapper = relaxed::member(value, key);
            if (wrapper == nullptr) continue;
            if (kind == RightKind::empty) return {};
            relaxed::require_object(*wrapper, "value");
            const json* inner = relaxed::member(*wrapper, "value");
            if (inner == nullptr) relaxed::fail_at("Missing required field", "value");
            RequestedRight right{.kind = kind};
            if (names_party(kind)) {
                relaxed::require_object(*inner, "party");
                right.party = relaxed::decode_string(relaxed::member(*inner, "party"), "party");
            } else {
                relaxed::require_object(*inner, "unknownFields");
            }
            return right;
        }
    }
    relaxed::fail_at("JSON decoding to CNil should never happen", "kind");
}

// Seq[Right], each a relaxed Right{kind}: a missing kind is the relaxed codec's Empty.
std::vector<RequestedRight> decode_rights(const json* value, const ApiProfile& release) {
    std::vector<RequestedRight> out;
    if (value == nullptr) return out;
    if (!value->is_array()) relaxed::wrong_type(*value, "array", "rights");
    for (const json& item : *value) {
        relaxed::require_object(item, "kind");
        const json* kind = relaxed::member(item, "kind");
        out.push_back(kind == nullptr ? RequestedRight{} : decode_right_kind(*kind, release));
    }
    return out;
}

// The relaxed User (and its ObjectMeta).
struct UserFields {
    std::string id;
    std::string primary_party;
    bool is_deactivated = false;
    std::string resource_version;
    std::map<std::string, std::string> annotations;
    std::string identity_provider_id;
    bool primary_party_authentication = false;
};

UserFields decode_user(const json& value) {
    using relaxed::member;
    relaxed::require_object(value, "id");
    UserFields u;
    u.id = relaxed::decode_string(member(value, "id"), "id");
    u.primary_party = relaxed::decode_string(member(value, "primaryParty"), "primaryParty");
    u.is_deactivated = relaxed::decode_bool(member(value, "isDeactivated"), "isDeactivated");
    if (const json* meta = member(value, "metadata"); meta != nullptr && !meta->is_null()) {
        relaxed::require_object(*meta, "resourceVersion");
        u.resource_version =
            relaxed::decode_string(member(*meta, "resourceVersion"), "resourceVersion");
        if (const json* annotations = member(*meta, "annotations")) {
            if (!annotations->is_object())
                relaxed::wrong_type(*annotations, "object", "annotations");
            for (const auto& [key, v] : annotations->items()) {
                if (!v.is_string()) relaxed::wrong_type(v, "string", "annotations." + key);
                u.annotations.emplace(key, v.get<std::string>());
            }
        }
    }
    u.identity_provider_id =
        relaxed::decode_string(member(value, "identityProviderId"), "identityProviderId");
    u.primary_party_authentication = relaxed::decode_bool(
        member(value, "primaryPartyAuthentication"), "primaryPartyAuthentication");
    return u;
}

// GrantUserRightsRequest and RevokeUserRightsRequest.
struct RightsRequest {
    std::string user_id;
    std::vector<RequestedRight> rights;
    std::string identity_provider_id;
};

RightsRequest decode_rights_request(std::string_view body, const ApiProfile& release) {
    const json value = relaxed::parse_body(body);
    relaxed::require_object(value, "userId");
    RightsRequest r;
    r.user_id = relaxed::decode_string(relaxed::member(value, "userId"), "userId");
    r.rights = decode_rights(relaxed::member(value, "rights"), release);
    r.identity_provider_id =
        relaxed::decode_string(relaxed::member(value, "identityProviderId"), "identityProviderId");
    return r;
}

// ---- the gRPC layer's validation (ApiUserManagementService, FieldValidator) ----

// FieldValidator.requireUserId: MISSING_FIELD when empty, else INVALID_FIELD.
void require_user_id(const std::string& id, const std::string& field) {
    if (id.empty()) throw_missing_field(field);
    if (const auto error = user_id_error(id)) throw_invalid_field(field, *error);
}

// Ref.LedgerString (IdString.scala): 1 to 255 letters, digits and "._:-#/ ".
std::optional<std::string> ledger_string_error(const std::string& s) {
    constexpr std::string_view description = "Daml-LF Ledger String";
    if (s.empty()) return std::string(description) + " is empty";
    if (s.size() > 255) return std::string(description) + " is too long (max: 255)";
    for (const char c : s) {
        const auto u = static_cast<unsigned char>(c);
        if (std::isalnum(u) != 0 && u < 0x80) continue;
        if (std::string_view("._:-#/ ").find(c) != std::string_view::npos) continue;
        char hex[8];
        std::snprintf(hex, sizeof hex, "0x%x", u);
        return std::string("non expected character ") + hex + " in " + std::string(description) +
               " \"" + s + "\"";
    }
    return std::nullopt;
}

// FieldValidator.optionalIdentityProviderId.
void check_identity_provider_id(const std::string& idp) {
    if (idp.empty()) return;
    if (const auto error = ledger_string_error(idp)) {
        throw_invalid_field("identity_provider_id", *error);
    }
}

// identityProviderExistsOrError: no identity provider is configured here but the default one.
void require_known_identity_provider(const std::string& idp) {
    if (!idp.empty()) {
        throw_invalid_argument("Provided identity_provider_id " + idp + " has not been found.");
    }
}

// fromProtoRights: in order, Empty refused, each party a Daml-LF Party (requireParty).
void check_rights(const std::vector<RequestedRight>& rights) {
    for (const RequestedRight& r : rights) {
        if (r.kind == RightKind::empty) {
            throw_invalid_argument(
                "unknown kind of right - check that the Ledger API version of the server is "
                "recent enough");
        }
        if (names_party(r.kind)) {
            if (const auto error = lf_party_error(r.party)) throw_invalid_argument(*error);
        }
    }
}

// The rights as a set (fromProtoRights' toSet), first occurrences in request order.
std::vector<RequestedRight> distinct_rights(const std::vector<RequestedRight>& rights) {
    std::vector<RequestedRight> out;
    for (const RequestedRight& r : rights) {
        if (std::find(out.begin(), out.end(), r) == out.end()) out.push_back(r);
    }
    return out;
}

// What cantonlite cannot do where Canton would: a clear INVALID_ARGUMENT (docs/FIDELITY.md).
[[noreturn]] void not_modelled(const std::string& what) {
    throw_invalid_argument("cantonlite does not model " + what);
}

void refuse_unmodelled(const std::vector<RequestedRight>& rights) {
    for (const RequestedRight& r : rights) {
        if (!modelled_kind(r.kind)) {
            not_modelled("the right " + std::string(kind_name(r.kind)) +
                         ": a user here holds CanActAs, CanReadAs, CanReadAsAnyParty and "
                         "ParticipantAdmin only");
        }
    }
}

bool holds_right(const model::LedgerRights& rights, const RequestedRight& r) {
    const auto in = [&](const std::vector<std::string>& list) {
        return std::find(list.begin(), list.end(), r.party) != list.end();
    };
    switch (r.kind) {
        case RightKind::can_act_as:
            return in(rights.can_act_as);
        case RightKind::can_read_as:
            return in(rights.can_read_as);
        case RightKind::can_read_as_any_party:
            return rights.can_read_as_any_party;
        case RightKind::participant_admin:
            return rights.participant_admin;
        default:
            return false;  // not modelled: never held
    }
}

std::size_t rights_count(const model::LedgerRights& r) {
    return r.can_act_as.size() + r.can_read_as.size() + (r.can_read_as_any_party ? 1 : 0) +
           (r.participant_admin ? 1 : 0);
}

// The modelled rights of a list, as a step's "rights" and as the model's.
model::LedgerRights as_ledger_rights(const std::vector<RequestedRight>& rights) {
    model::LedgerRights out;
    for (const RequestedRight& r : rights) {
        switch (r.kind) {
            case RightKind::can_act_as:
                out.can_act_as.push_back(r.party);
                break;
            case RightKind::can_read_as:
                out.can_read_as.push_back(r.party);
                break;
            case RightKind::can_read_as_any_party:
                out.can_read_as_any_party = true;
                break;
            case RightKind::participant_admin:
                out.participant_admin = true;
                break;
            default:
                break;
        }
    }
    return out;
}

json step_rights(const model::LedgerRights& r) {
    return {{"can_act_as", r.can_act_as},
            {"can_read_as", r.can_read_as},
            {"can_read_as_any_party", r.can_read_as_any_party},
            {"participant_admin", r.participant_admin}};
}

// ApiUserManagementService toProtoRight of each right, in the list's order.
ordered_json requested_rights_json(const std::vector<RequestedRight>& rights) {
    ordered_json out = ordered_json::array();
    for (const RequestedRight& r : rights) {
        const ordered_json value =
            names_party(r.kind) ? ordered_json{{"party", r.party}} : ordered_json::object();
        out.push_back({{"kind", {{std::string(kind_name(r.kind)), {{"value", value}}}}}});
    }
    return out;
}

// JsUserManagementService.unmatchedUserId, built by the JSON layer; `in_body` is the Scala
// Option's text ("Some(bob)", "None").
[[noreturn]] void unmatched_user_id(const std::string& in_path, const std::string& in_body) {
    throw ApiError(ErrorKind::invalid_argument, "INVALID_ARGUMENT",
                   "The submitted request has invalid arguments: " + in_path +
                       " does not match user in body: " + in_body + " ")
        .built_by_json_layer();
}

// The store's withUser: the user of the default identity provider, else USER_NOT_FOUND; another
// identity provider's request is its PermissionDenied (redacted).
const model::User& stored_user(const model::Network& n, const std::string& id,
                               const std::string& idp, const std::string& operation) {
    const model::User* user = n.find_user(id);
    if (user == nullptr) throw_user_not_found(operation, id);
    if (!idp.empty()) {
        throw ApiError(ErrorKind::permission_denied, "PERMISSION_DENIED",
                       "User " + id + " belongs to another Identity Provider");
    }
    return *user;
}

[[noreturn]] void too_many_rights(const std::string& operation, const std::string& id) {
    throw ApiError(ErrorKind::failed_precondition, "TOO_MANY_USER_RIGHTS",
                   operation + " failed, as user \"" + id + "\" would have too many rights.", {},
                   {{"USER", id}});
}

// ---- the write ----

// What a write changes and answers: `steps` (none: nothing changes) and the 200 body.
struct Plan {
    json steps = json::array();
    std::string answer;
};

// Plans under the readers' lock (`lock`, held on entry), writes the plan's steps, and answers once
// they are durable. A concurrent write between the plan and its steps makes them fail (each step
// checks what the plan saw): the request is planned again, and then answers as that write left
// the user.
http::Response plan_and_write(seed::LiveNetwork& network, std::shared_lock<util::SharedGate>& lock,
                              std::string_view route,
                              const std::function<Plan(const model::Network&)>& plan) {
    constexpr int attempts = 3;
    for (int attempt = 1;; ++attempt) {
        if (!lock.owns_lock()) lock.lock();
        Plan p = plan(network.store().network());  // may throw the request's error
        lock.unlock();
        if (p.steps.empty()) return http::Response::json(200, std::move(p.answer));
        try {
            return answer_once_durable(network, network.apply_steps(p.steps), std::move(p.answer));
        } catch (const seed::WriteError& e) {
            if (attempt < attempts) continue;
            spdlog::error("{}: {}", route, e.what());
            throw write_failed(e);
        }
    }
}

// ---- UpdateUser's field mask (UserUpdateMapper, UpdatePathsTrie, UpdatePathError) ----

// The updatable paths of a User (UpdateRequestsPaths.UserPaths), by proto field name.
const std::vector<std::vector<std::string>>& user_update_paths() {
    static const std::vector<std::vector<std::string>> paths = {
        {"id"},
        {"primary_party"},
        {"is_deactivated"},
        {"metadata", "annotations"},
        {"metadata", "resource_version"},
        {"identity_provider_id"},
        {"primary_party_authentication"},
    };
    return paths;
}

// Java's String.split('.'): trailing empty strings dropped ("" stays [""]).
std::vector<std::string> split_update_path(const std::string& raw) {
    std::vector<std::string> parts;
    std::size_t start = 0;
    for (std::size_t dot; (dot = raw.find('.', start)) != std::string::npos; start = dot + 1) {
        parts.push_back(raw.substr(start, dot - start));
    }
    parts.push_back(raw.substr(start));
    if (raw.empty()) return parts;
    while (!parts.empty() && parts.back().empty()) parts.pop_back();
    return parts;
}

std::string joined_path(const std::vector<std::string>& path) {
    std::string out;
    for (const std::string& p : path) out += (out.empty() ? "" : ".") + p;
    return out;
}

// UpdatePathError.shorten.
std::string shortened(const std::string& s) {
    return s.size() > 53 ? s.substr(0, 50) + "..." : s;
}

[[noreturn]] void invalid_user_update(const std::string& id, const std::string& reason) {
    throw ApiError(ErrorKind::invalid_argument, "INVALID_USER_UPDATE_REQUEST",
                   "Update operation for user id '" + id + "' failed due to: " + reason, {},
                   {{"USER", id}})
        .without_definite_answer();  // a ContextualizedDamlError
}

// How a mask matches one updatable field: exactly, through a proper prefix, or not at all
// (UpdatePathsTrie.findMatch).
enum class MaskMatch { none, prefix, exact };

struct UpdateMask {
    std::vector<std::vector<std::string>> paths;

    [[nodiscard]] MaskMatch match(const std::vector<std::string>& field) const {
        MaskMatch best = MaskMatch::none;
        for (const auto& p : paths) {
            if (p == field) return MaskMatch::exact;
            if (p.size() < field.size() && std::equal(p.begin(), p.end(), field.begin())) {
                best = MaskMatch::prefix;
            }
        }
        return best;
    }
};

// UpdateMapperBase.makeUpdateTrie: not empty, every path a prefix of an updatable one, none twice.
UpdateMask parse_update_mask(const std::string& user_id, const std::vector<std::string>& raw) {
    if (raw.empty()) invalid_user_update(user_id, "The update mask contains no entries");
    UpdateMask mask;
    for (const std::string& r : raw) mask.paths.push_back(split_update_path(r));
    for (const auto& p : mask.paths) {
        const bool known = std::any_of(user_update_paths().begin(), user_update_paths().end(),
                                       [&](const std::vector<std::string>& field) {
                                           return p.size() <= field.size() &&
                                                  std::equal(p.begin(), p.end(), field.begin());
                                       });
        if (!known) {
            invalid_user_update(user_id, "The update path: '" + shortened(joined_path(p)) +
                                             "' points to an unknown field.");
        }
    }
    for (std::size_t i = 0; i < mask.paths.size(); ++i) {
        for (std::size_t j = 0; j < i; ++j) {
            if (mask.paths[i] == mask.paths[j]) {
                invalid_user_update(user_id, "The update path: '" +
                                                 shortened(joined_path(mask.paths[i])) +
                                                 "' is duplicated.");
            }
        }
    }
    return mask;
}

// makePrimitiveFieldUpdate: an exact match sets the value; a prefix match only a non-default one.
template <class T>
std::optional<T> field_update(const UpdateMask& mask, const std::vector<std::string>& field,
                              const T& value, const T& default_value) {
    switch (mask.match(field)) {
        case MaskMatch::exact:
            return value;
        case MaskMatch::prefix:
            if (value != default_value) return value;
            return std::nullopt;
        case MaskMatch::none:
            break;
    }
    return std::nullopt;
}

}  // namespace

http::Response post_users(seed::LiveNetwork& network, const RouteAuth& auth,
                          const http::RequestContext& ctx, const ApiProfile& release) {
    std::shared_lock lock(network.gate());
    const Caller caller = auth.identify(ctx.request);  // 403 for an unknown user
    // CreateUserRequest (relaxed): user is an Option, rights a Seq.
    const json body = relaxed::parse_body(ctx.request.body);
    relaxed::require_object(body, "user");
    const std::optional<UserFields> user = relaxed::optional_member(body, "user", decode_user);
    const std::vector<RequestedRight> rights =
        decode_rights(relaxed::member(body, "rights"), release);
    auth.authorize(ctx.request);  // ParticipantAdmin (no identity provider admins here)
    // ApiUserManagementService createUser L77-138, in order.
    if (!user) throw_missing_field("user");
    require_user_id(user->id, "id");
    if (!user->resource_version.empty()) {
        throw_invalid_argument("field user.metadata.resource_version must be not set");
    }
    if (!user->primary_party.empty()) {
        if (const auto error = lf_party_error(user->primary_party)) throw_invalid_argument(*error);
    }
    check_rights(rights);
    check_identity_provider_id(user->identity_provider_id);
    require_known_identity_provider(user->identity_provider_id);
    const std::vector<RequestedRight> wanted = distinct_rights(rights);
    return plan_and_write(network, lock, "POST /v2/users", [&](const model::Network& n) {
        // PersistentUserManagementStore.createUser: withoutUser, then the rights' count.
        if (n.find_user(user->id) != nullptr) {
            throw ApiError(ErrorKind::already_exists, "USER_ALREADY_EXISTS",
                           "creating user failed, as user \"" + user->id + "\" already exists", {},
                           {{"USER", user->id}});
        }
        if (wanted.size() > max_rights_per_user) too_many_rights("creating user", user->id);
        refuse_unmodelled(wanted);
        if (!user->annotations.empty()) {
            not_modelled("user annotations: create the user without metadata.annotations");
        }
        if (user->primary_party_authentication) {
            not_modelled("primary party authentication (party-signed tokens)");
        }
        model::User created{.id = user->id, .party = user->primary_party};
        created.party_hosted = false;
        created.deactivated = user->is_deactivated;
        created.rights = as_ledger_rights(wanted);
        json step = {{"step", "create_user"},
                     {"id", created.id},
                     {"primary_party", created.party},
                     {"deactivated", created.deactivated},
                     {"rights", step_rights(created.rights)}};
        return Plan{.steps = json::array({std::move(step)}),
                    .answer = ordered_json{{"user", user_json(created)}}.dump()};
    });
}

http::Response delete_user(seed::LiveNetwork& network, const RouteAuth& auth,
                           const http::RequestContext& ctx) {
    std::shared_lock lock(network.gate());
    const Caller caller = auth.identify(ctx.request);
    const std::string& id = ctx.params.get("user-id");
    check_user_id(id);  // the JSON layer's UserId.fromString, before the claims
    auth.authorize(ctx.request);
    // ApiUserManagementService deleteUser L238-272.
    if (caller.user != nullptr && caller.user->id == id) {
        throw_invalid_argument("Requesting user cannot delete itself");
    }
    return plan_and_write(network, lock, "DELETE /v2/users", [&](const model::Network& n) {
        if (n.find_user(id) == nullptr) throw_user_not_found("deleting user", id);
        return Plan{.steps = json::array({{{"step", "delete_user"}, {"id", id}}}), .answer = "{}"};
    });
}

namespace {

// The start grant and revoke share: the body, its userId against the path's (the JSON layer),
// the claims, then the request's validation.
RightsRequest read_rights_request(const RouteAuth& auth, const http::RequestContext& ctx,
                                  const ApiProfile& release) {
    RightsRequest request = decode_rights_request(ctx.request.body, release);
    const std::string& path_id = ctx.params.get("user-id");
    if (request.user_id != path_id) unmatched_user_id(path_id, "Some(" + request.user_id + ")");
    auth.authorize(ctx.request);
    require_user_id(request.user_id, "user_id");
    check_rights(request.rights);
    check_identity_provider_id(request.identity_provider_id);
    return request;
}

}  // namespace

http::Response post_user_rights(seed::LiveNetwork& network, const RouteAuth& auth,
                                const http::RequestContext& ctx, const ApiProfile& release) {
    std::shared_lock lock(network.gate());
    const Caller caller = auth.identify(ctx.request);
    // ApiUserManagementService grantUserRights L312-347.
    const RightsRequest request = read_rights_request(auth, ctx, release);
    const std::vector<RequestedRight> wanted = distinct_rights(request.rights);
    return plan_and_write(
        network, lock, "POST /v2/users/{user-id}/rights", [&](const model::Network& n) {
            const model::User& user =
                stored_user(n, request.user_id, request.identity_provider_id, "grant user rights");
            std::vector<RequestedRight> added;
            for (const RequestedRight& r : wanted) {
                if (!holds_right(user.rights, r)) added.push_back(r);
            }
            if (rights_count(user.rights) + added.size() > max_rights_per_user) {
                too_many_rights("grant user rights", user.id);
            }
            refuse_unmodelled(added);
            Plan p{.answer =
                       ordered_json{{"newlyGrantedRights", requested_rights_json(added)}}.dump()};
            if (!added.empty()) {
                p.steps.push_back({{"step", "grant_user_rights"},
                                   {"user", user.id},
                                   {"rights", step_rights(as_ledger_rights(added))}});
            }
            return p;
        });
}

http::Response patch_user_rights(seed::LiveNetwork& network, const RouteAuth& auth,
                                 const http::RequestContext& ctx, const ApiProfile& release) {
    std::shared_lock lock(network.gate());
    const Caller caller = auth.identify(ctx.request);
    // ApiUserManagementService revokeUserRights L349-388.
    const RightsRequest request = read_rights_request(auth, ctx, release);
    // verifyNotRemovingOwnAdminRights: whether or not the caller holds it.
    if (caller.user != nullptr && caller.user->id == request.user_id &&
        std::any_of(request.rights.begin(), request.rights.end(), [](const RequestedRight& r) {
            return r.kind == RightKind::participant_admin;
        })) {
        throw_invalid_argument("Requesting user cannot remove own admin rights");
    }
    const std::vector<RequestedRight> unwanted = distinct_rights(request.rights);
    return plan_and_write(
        network, lock, "PATCH /v2/users/{user-id}/rights", [&](const model::Network& n) {
            const model::User& user =
                stored_user(n, request.user_id, request.identity_provider_id, "revoke user rights");
            // Rights cantonlite does not model are never held.
            std::vector<RequestedRight> removed;
            for (const RequestedRight& r : unwanted) {
                if (holds_right(user.rights, r)) removed.push_back(r);
            }
            Plan p{.answer =
                       ordered_json{{"newlyRevokedRights", requested_rights_json(removed)}}.dump()};
            if (!removed.empty()) {
                p.steps.push_back({{"step", "revoke_user_rights"},
                                   {"user", user.id},
                                   {"rights", step_rights(as_ledger_rights(removed))}});
            }
            return p;
        });
}

http::Response patch_user(seed::LiveNetwork& network, const RouteAuth& auth,
                          const http::RequestContext& ctx, const ApiProfile& /*release*/) {
    std::shared_lock lock(network.gate());
    const Caller caller = auth.identify(ctx.request);
    // UpdateUserRequest (relaxed): user and updateMask are Options; FieldMask is not relaxed (its
    // paths default to none), so its errors carry the whole path.
    const json body = relaxed::parse_body(ctx.request.body);
    relaxed::require_object(body, "user");
    const std::optional<UserFields> user = relaxed::optional_member(body, "user", decode_user);
    const std::optional<std::vector<std::string>> mask_paths =
        relaxed::optional_member(body, "updateMask", [](const json& mask) {
            if (!mask.is_object()) relaxed::wrong_type(mask, "object", "updateMask");
            return relaxed::decode_strings(relaxed::member(mask, "paths"), "updateMask.paths");
        });
    const std::string& path_id = ctx.params.get("user-id");
    if (!user || user->id != path_id) {
        unmatched_user_id(path_id, user ? "Some(" + user->id + ")" : "None");
    }
    auth.authorize(ctx.request);
    // ApiUserManagementService updateUser L140-216, in order.
    require_user_id(user->id, "user.id");
    if (!mask_paths) throw_missing_field("update_mask");
    if (!user->primary_party.empty()) {
        if (const auto error = lf_party_error(user->primary_party)) throw_invalid_argument(*error);
    }
    check_identity_provider_id(user->identity_provider_id);
    std::optional<std::int64_t> expected_version;
    if (!user->resource_version.empty()) {
        const std::string& v = user->resource_version;
        std::size_t used = 0;
        try {
            expected_version = std::stoll(v, &used);
        } catch (const std::exception&) {
            used = 0;
        }
        const bool digits = v.find_first_not_of("+-0123456789") == std::string::npos;
        if (used != v.size() || !digits) {
            throw_invalid_field("user.metadata.resource_version",
                                "Invalid resource version number");
        }
    }
    const UpdateMask mask = parse_update_mask(user->id, *mask_paths);
    require_known_identity_provider(user->identity_provider_id);
    const std::optional<std::string> party_update =
        field_update<std::string>(mask, {"primary_party"}, user->primary_party, "");
    const std::optional<bool> deactivated_update =
        field_update<bool>(mask, {"is_deactivated"}, user->is_deactivated, false);
    const std::optional<bool> authentication_update = field_update<bool>(
        mask, {"primary_party_authentication"}, user->primary_party_authentication, false);
    const bool annotations_update = mask.match({"metadata", "annotations"}) == MaskMatch::exact ||
                                    (mask.match({"metadata", "annotations"}) == MaskMatch::prefix &&
                                     !user->annotations.empty());
    if (caller.user != nullptr && caller.user->id == user->id && deactivated_update == true) {
        throw_invalid_argument("Requesting user cannot self-deactivate");
    }
    return plan_and_write(network, lock, "PATCH /v2/users/{user-id}", [&](const model::Network& n) {
        const model::User* stored = n.find_user(user->id);
        if (stored == nullptr) throw_user_not_found("updating user", user->id);
        if (expected_version && *expected_version != stored->resource_version) {
            throw ApiError(ErrorKind::too_many_requests, "CONCURRENT_USER_UPDATE_DETECTED",
                           "Update operation for user '" + user->id +
                               "' failed due to a concurrent update to the same user",
                           {}, {{"USER", user->id}})
                .without_definite_answer();  // ContentionOnSharedResources: 409
        }
        // LocalAnnotationsUtils: an empty value removes a key, and none is kept here.
        if (annotations_update && std::any_of(user->annotations.begin(), user->annotations.end(),
                                              [](const auto& a) { return !a.second.empty(); })) {
            not_modelled("user annotations: leave metadata.annotations out of the update");
        }
        if (authentication_update == true) {
            not_modelled("primary party authentication (party-signed tokens)");
        }
        model::User updated = *stored;
        json step = {{"step", "update_user"},
                     {"id", updated.id},
                     {"resource_version", updated.resource_version}};
        if (party_update) {
            step["primary_party"] = *party_update;
            if (*party_update != updated.party) updated.party_hosted = false;
            updated.party = *party_update;
        }
        if (deactivated_update) {
            step["deactivated"] = *deactivated_update;
            updated.deactivated = *deactivated_update;
        }
        ++updated.resource_version;  // every update, even one that changes nothing
        return Plan{.steps = json::array({std::move(step)}),
                    .answer = ordered_json{{"user", user_json(updated)}}.dump()};
    });
}

}  // namespace cantonlite::areas::ledger
