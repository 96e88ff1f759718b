// The user and party management reads of the JSON Ledger API: a user, its rights, the list of
// users, the participant's parties and its id. Canton release-line-3.5: JsUserManagementService /
// ApiUserManagementService / UserManagementServiceAuthorization, JsPartyManagementService /
// ApiPartyManagementService / PartyManagementServiceAuthorization. Every user here belongs to the
// default identity provider, and every party the network names is hosted by its one participant.
#include <algorithm>
#include <cctype>
#include <cstdint>
#include <exception>
#include <mutex>
#include <optional>
#include <set>
#include <shared_mutex>
#include <string>
#include <vector>

#include <spdlog/spdlog.h>
#include <nlohmann/json.hpp>

#include "cantonlite/areas/ledger/event_filter.hpp"
#include "cantonlite/areas/ledger/js_canton_error.hpp"
#include "cantonlite/areas/ledger/ledger_handlers.hpp"
#include "cantonlite/areas/ledger/read_requests.hpp"
#include "cantonlite/areas/ledger/relaxed_json.hpp"
#include "cantonlite/areas/ledger/user_json.hpp"
#include "cantonlite/http/api_error.hpp"
#include "cantonlite/model/ids.hpp"

namespace cantonlite::areas::ledger {
namespace {

using http::ApiError;
using http::ErrorKind;
using nlohmann::ordered_json;

// UserManagementServiceConfig.maxUsersPageSize, PartyManagementServiceConfig.maxPartiesPageSize.
constexpr std::int32_t max_users_page_size = 1000;
constexpr std::int32_t max_parties_page_size = 10000;

// Another identity provider than the default one: the store's PermissionDenied.
void check_default_identity_provider(const http::Request& request) {
    if (const auto idp = request.query_param("identity-provider-id"); idp && !idp->empty()) {
        throw ApiError(ErrorKind::permission_denied, "PERMISSION_DENIED",
                       "The user belongs to another identity provider");
    }
}

// A page token: base64 (URL alphabet, padded) of the proto {string lower_bound_excl = 1}
// (ListUsersPageTokenPayload, ListPartiesPageTokenPayload).
std::string party_or_user_page_token(const std::string& last) {
    std::string proto = "\x0a";
    std::size_t n = last.size();
    do {  // varint
        auto byte = static_cast<unsigned char>(n & 0x7F);
        n >>= 7;
        if (n != 0) byte |= 0x80;
        proto += static_cast<char>(byte);
    } while (n != 0);
    proto += last;
    std::string text = model::base64_encode(proto);
    std::replace(text.begin(), text.end(), '+', '-');
    std::replace(text.begin(), text.end(), '/', '_');
    return text;
}

// The lower bound a token names; "" for no token. 400 "Invalid page token" for anything else.
std::string page_bound(const std::optional<std::string>& token) {
    if (!token || token->empty()) return "";
    std::string text = *token;
    std::replace(text.begin(), text.end(), '-', '+');
    std::replace(text.begin(), text.end(), '_', '/');
    const std::optional<std::string> proto = model::base64_decode(text);
    if (proto && proto->size() >= 2 && (*proto)[0] == '\x0a') {
        std::size_t length = 0;
        std::size_t i = 1;
        for (int shift = 0; i < proto->size() && shift < 35; shift += 7) {
            const auto byte = static_cast<unsigned char>((*proto)[i++]);
            length |= static_cast<std::size_t>(byte & 0x7F) << shift;
            if ((byte & 0x80) == 0) {
                if (i + length == proto->size()) return proto->substr(i);
                break;
            }
        }
    }
    throw_invalid_argument("Invalid page token");
}

// ApiPartyManagementService.toProtoPartyDetails of a party without a local record.
void append_party_details(ordered_json& list, const std::string& party) {
    list.push_back(
        {{"party", party},
         {"isLocal", true},
         {"localMetadata", {{"resourceVersion", ""}, {"annotations", ordered_json::object()}}},
         {"identityProviderId", ""}});
}

const model::User& existing_user(const store::LedgerStore& store, const std::string& id,
                                 const std::string& operation) {
    const model::User* user = store.network().find_user(id);
    if (user == nullptr) throw_user_not_found(operation, id);
    return *user;
}

// A party hint as Canton's UniqueIdentifier takes one here: letters, digits, '-' and '_'.
bool valid_party_hint(std::string_view hint) {
    if (hint.empty() || hint.size() > 185) return false;
    return std::all_of(hint.begin(), hint.end(), [](unsigned char c) {
        return std::isalnum(c) != 0 || c == '-' || c == '_';
    });
}

// A fresh hint for an allocation without one: "party-" and a random UUID (APMS).
std::string random_party_hint() {
    std::string hex = new_trace_id();  // 32 random hex digits
    return "party-" + hex.substr(0, 8) + "-" + hex.substr(8, 4) + "-4" + hex.substr(13, 3) + "-a" +
           hex.substr(17, 3) + "-" + hex.substr(20, 12);
}

}  // namespace

// AUMS toProtoUser: no annotations are kept here; the resource version counts the user's updates.
ordered_json user_json(const model::User& u) {
    return {{"id", u.id},
            {"primaryParty", u.party},
            {"isDeactivated", u.deactivated},
            {"metadata",
             {{"resourceVersion", std::to_string(u.resource_version)},
              {"annotations", ordered_json::object()}}},
            {"identityProviderId", ""},
            {"primaryPartyAuthentication", false}};
}

ordered_json user_rights_json(const model::LedgerRights& r) {
    ordered_json rights = ordered_json::array();
    const auto add = [&](const char* kind, ordered_json value) {
        rights.push_back({{"kind", {{kind, {{"value", std::move(value)}}}}}});
    };
    for (const std::string& p : r.can_act_as) add("CanActAs", {{"party", p}});
    for (const std::string& p : r.can_read_as) add("CanReadAs", {{"party", p}});
    if (r.can_read_as_any_party) add("CanReadAsAnyParty", ordered_json::object());
    if (r.participant_admin) add("ParticipantAdmin", ordered_json::object());
    return rights;
}

void throw_user_not_found(const std::string& operation, const std::string& id) {
    throw ApiError(ErrorKind::not_found, "USER_NOT_FOUND",
                   operation + " failed for unknown user \"" + id + "\"", {}, {{"USER", id}});
}

std::string participant_uid(const model::Network& n) {
    std::string id = n.participant_id;
    if (id.starts_with("PAR::")) id.erase(0, 5);
    return id;
}

// By id (ORDER BY party): all are its own here.
std::vector<std::string> known_parties(const model::Network& n) {
    std::set<std::string> all{n.dso_party};
    if (!n.validator_party.empty()) all.insert(n.validator_party);
    for (const auto& sv : n.svs) all.insert(sv.party);
    for (const auto& u : n.users) {
        if (u.party_hosted && !u.party.empty()) all.insert(u.party);
    }
    for (const auto& [alias, party] : n.parties) all.insert(party);
    return {all.begin(), all.end()};
}

http::Response post_parties(seed::LiveNetwork& network, const RouteAuth& auth,
                            const http::RequestContext& ctx) {
    // AllocatePartyRequest, relaxed: every field may be left out.
    using relaxed::decode_string;
    using relaxed::member;
    using relaxed::parse_body;
    using relaxed::require_object;
    // The network is read under the readers' lock (the token's user, the parties), which the
    // write below must not hold.
    std::shared_lock lock(network.gate());
    const Caller caller = auth.identify(ctx.request);  // 403 for an unknown user
    const nlohmann::json body = parse_body(ctx.request.body);
    require_object(body, "partyIdHint");
    std::string hint = decode_string(member(body, "partyIdHint"), "partyIdHint");
    const std::string idp = decode_string(member(body, "identityProviderId"), "identityProviderId");
    const std::string synchronizer =
        decode_string(member(body, "synchronizerId"), "synchronizerId");
    const std::string user_id = decode_string(member(body, "userId"), "userId");
    std::string resource_version;
    if (const nlohmann::json* meta = member(body, "localMetadata"); meta && !meta->is_null()) {
        require_object(*meta, "resourceVersion");
        resource_version = decode_string(member(*meta, "resourceVersion"), "resourceVersion");
    }
    // AdminOrIdpAdminOrSelfAdmin(userId): a user may allocate a party for itself.
    auth.authorize_admin_or_self(caller, user_id);
    if (!hint.empty() && !valid_party_hint(hint)) {
        throw_invalid_argument("Invalid party ID: '" + hint +
                               "' is no identifier (letters, digits, '-' and '_')");
    }
    if (!resource_version.empty()) {
        throw_invalid_argument("field local_metadata.resource_version must be not set");
    }
    if (!idp.empty()) {
        throw_invalid_argument("Provided identity_provider_id " + idp + " has not been found.");
    }
    const model::Network& n = network.store().network();
    if (!synchronizer.empty() && synchronizer != n.synchronizer_id &&
        std::find(n.other_synchronizers.begin(), n.other_synchronizers.end(), synchronizer) ==
            n.other_synchronizers.end()) {
        throw_invalid_argument("Unknown synchronizer " + synchronizer);
    }
    if (hint.empty()) hint = random_party_hint();
    const std::string party = seed::allocated_party(n, hint);
    const auto already = [&] {
        // PartyAllocation: the topology's MappingAlreadyExists, remapped to INVALID_ARGUMENT;
        // `show` cuts the fingerprint to 12 characters.
        const std::string fingerprint = party.substr(party.find("::") + 2);
        throw_invalid_argument("Party already exists: party " + hint + "::" +
                               fingerprint.substr(0, 12) + "... is already allocated on this node");
    };
    const std::vector<std::string> parties = known_parties(n);
    if (std::binary_search(parties.begin(), parties.end(), party)) already();
    if (!user_id.empty() && n.find_user(user_id) == nullptr) {
        throw_user_not_found("grant user rights", user_id);
    }
    lock.unlock();
    // Journaled as the steps a seed would say; the user of userId may act as the new party.
    nlohmann::json steps = nlohmann::json::array({{{"step", "add_party"}, {"party", party}}});
    if (!user_id.empty()) {
        steps.push_back({{"step", "grant_rights"},
                         {"user", user_id},
                         {"rights", {{"can_act_as", nlohmann::json::array({party})}}}});
    }
    seed::Written written;
    try {
        written = network.apply_steps(steps);
    } catch (const seed::WriteError& e) {
        {
            const std::shared_lock relock(network.gate());
            const std::vector<std::string> now = known_parties(network.store().network());
            if (std::binary_search(now.begin(), now.end(), party)) already();  // a concurrent one
        }
        spdlog::error("POST /v2/parties: {}", e.what());
        throw write_failed(e);
    }
    ordered_json details = ordered_json::array();
    append_party_details(details, party);
    details[0]["localMetadata"]["resourceVersion"] = "0";  // a party record now exists
    return answer_once_durable(network, std::move(written),
                               ordered_json{{"partyDetails", details[0]}}.dump());
}

http::Response get_authenticated_user(const store::LedgerStore& /*store*/, const RouteAuth& auth,
                                      const http::RequestContext& ctx,
                                      const ApiProfile& /*release*/) {
    // GetUser with an empty user id, filled from the claims
    // (Authorizer.defaultToAuthenticatedUser).
    if (!auth.enabled()) {
        throw ApiError(ErrorKind::invalid_argument, "INVALID_TOKEN",
                       "The submitted request is missing a user-id: requests with an empty user-id "
                       "are only supported if there is an authenticated user");
    }
    const Caller caller = auth.identify(ctx.request);  // 403, 401: checked by the area
    check_default_identity_provider(ctx.request);
    return http::Response::json(200, ordered_json{{"user", user_json(*caller.user)}}.dump());
}

http::Response get_user(const store::LedgerStore& store, const RouteAuth& /*auth*/,
                        const http::RequestContext& ctx, const ApiProfile& /*release*/) {
    const std::string& id = ctx.params.get("user-id");  // checked, and the claims, by the area
    const model::User& user = existing_user(store, id, "getting user");
    check_default_identity_provider(ctx.request);
    return http::Response::json(200, ordered_json{{"user", user_json(user)}}.dump());
}

http::Response get_user_rights(const store::LedgerStore& store, const RouteAuth& /*auth*/,
                               const http::RequestContext& ctx, const ApiProfile& /*release*/) {
    const model::User& user = existing_user(store, ctx.params.get("user-id"), "list user rights");
    return http::Response::json(200,
                                ordered_json{{"rights", user_rights_json(user.rights)}}.dump());
}

http::Response list_users(const store::LedgerStore& store, const RouteAuth& auth,
                          const http::RequestContext& ctx, const ApiProfile& /*release*/) {
    const std::optional<std::int32_t> size = decode_int_query_param(ctx.request, "pageSize");
    const std::optional<std::string> token = ctx.request.query_param("pageToken");
    auth.authorize(ctx.request);  // AdminOrIdpAdmin, once the query is decoded
    if (size && *size < 0) throw_invalid_argument("Max page size must be non-negative");
    // 0 or absent: the maximum; more is clamped to it (AUMS listUsers).
    const std::int32_t page =
        size && *size > 0 ? std::min(*size, max_users_page_size) : max_users_page_size;
    const std::string after = page_bound(token);
    std::vector<const model::User*> users;
    for (const model::User& u : store.network().users) {
        if (u.id > after) users.push_back(&u);
    }
    std::sort(users.begin(), users.end(),
              [](const model::User* a, const model::User* b) { return a->id < b->id; });
    ordered_json list = ordered_json::array();
    for (std::size_t i = 0; i < users.size() && i < static_cast<std::size_t>(page); ++i) {
        list.push_back(user_json(*users[i]));
    }
    const std::string next = static_cast<std::int32_t>(list.size()) == page
                                 ? party_or_user_page_token(list.back()["id"])
                                 : "";
    return http::Response::json(200, ordered_json{{"users", list}, {"nextPageToken", next}}.dump());
}

http::Response list_parties(const store::LedgerStore& store, const RouteAuth& auth,
                            const http::RequestContext& ctx, const ApiProfile& /*release*/) {
    const std::optional<std::int32_t> size = decode_int_query_param(ctx.request, "pageSize");
    const std::optional<std::string> token = ctx.request.query_param("pageToken");
    const std::string filter = ctx.request.query_param("filter-party").value_or("");
    auth.authorize(ctx.request);  // AdminOrIdpAdmin: CanReadAsAnyParty is not enough
    check_default_identity_provider(ctx.request);
    if (size && *size < 0) throw_invalid_argument("Page size must be non-negative");
    if (size && *size > max_parties_page_size) {
        throw_invalid_argument("Page size must not exceed the server's maximum of " +
                               std::to_string(max_parties_page_size));
    }
    const std::int32_t page = size && *size > 0 ? *size : max_parties_page_size;
    const std::string after = page_bound(token);
    ordered_json list = ordered_json::array();
    std::string last;
    for (const std::string& party : known_parties(store.network())) {
        if (party <= after || !party.starts_with(filter)) continue;  // filter-party: a prefix
        if (static_cast<std::int32_t>(list.size()) == page) break;
        append_party_details(list, party);
        last = party;
    }
    const std::string next =
        static_cast<std::int32_t>(list.size()) == page ? party_or_user_page_token(last) : "";
    return http::Response::json(
        200, ordered_json{{"partyDetails", list}, {"nextPageToken", next}}.dump());
}

http::Response get_parties(const store::LedgerStore& store, const RouteAuth& auth,
                           const http::RequestContext& ctx, const ApiProfile& /*release*/) {
    // JsPartyManagementService.getParty: the path's party and those of ?parties=, known ones only.
    std::vector<std::string> asked{ctx.params.get("party")};
    for (std::string& p : ctx.request.query_params("parties")) asked.push_back(std::move(p));
    auth.authorize_operate_as(auth.identify(ctx.request), asked);
    check_default_identity_provider(ctx.request);
    const std::vector<std::string> known = known_parties(store.network());
    ordered_json list = ordered_json::array();
    for (const std::string& party : known) {
        if (std::find(asked.begin(), asked.end(), party) != asked.end()) {
            append_party_details(list, party);
        }
    }
    return http::Response::json(200, ordered_json{{"partyDetails", list}}.dump());
}

http::Response get_participant_id(const store::LedgerStore& store, const RouteAuth& /*auth*/,
                                  const http::RequestContext& /*ctx*/,
                                  const ApiProfile& /*release*/) {
    return http::Response::json(
        200, ordered_json{{"participantId", participant_uid(store.network())}}.dump());
}

}  // namespace cantonlite::areas::ledger
