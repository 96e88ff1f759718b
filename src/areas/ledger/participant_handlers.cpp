// What a client asks the participant before reading (the wallet SDK's connect): the version and
// features, the connected synchronizers and the pruning offsets (the caller's user:
// user_handlers.cpp). Canton release-line-3.5: JsVersionService / ApiVersionService,
// JsStateService / ApiStateService / StateServiceAuthorization.
#include <algorithm>
#include <string>

#include <nlohmann/json.hpp>

#include "cantonlite/areas/ledger/event_filter.hpp"
#include "cantonlite/areas/ledger/ledger_handlers.hpp"
#include "cantonlite/http/api_error.hpp"

namespace cantonlite::areas::ledger {
namespace {

using http::ApiError;
using http::ErrorKind;
using nlohmann::ordered_json;

// The features of a participant with the default config, in the JSON API's order
// (LedgerApiServer.getLedgerFeatures: no static time, command inspection on; user management
// 1000 rights and 1000 users a page; 10000 parties a page; checkpoints at most 15 s + 60 s apart;
// 100 vetted packages a page). A protobuf Duration keeps its unknownFields in this JSON.
constexpr std::string_view features_json =
    R"({"experimental":{"staticTime":{"supported":false},"commandInspectionService":)"
    R"({"supported":true}},"userManagement":{"supported":true,"maxRightsPerUser":1000,)"
    R"("maxUsersPageSize":1000},"partyManagement":{"maxPartiesPageSize":10000},)"
    R"("offsetCheckpoint":{"maxOffsetCheckpointEmissionDelay":{"seconds":75,"nanos":0,)"
    R"("unknownFields":{"fields":{}}}},"packageFeature":{"maxVettedPackagesPageSize":100}})";

// Whether the participant hosts `party`: every party the network names is its own.
bool hosted(const model::Network& n, const std::string& party) {
    if (party == n.dso_party || party == n.validator_party) return true;
    const auto is = [&](const auto& p) { return p == party; };
    return std::any_of(n.svs.begin(), n.svs.end(), [&](const auto& sv) { return is(sv.party); }) ||
           std::any_of(n.users.begin(), n.users.end(),
                       [&](const auto& u) { return u.party_hosted && is(u.party); }) ||
           std::any_of(n.parties.begin(), n.parties.end(),
                       [&](const auto& entry) { return is(entry.second); });
}

// The alias a validator gives a synchronizer when it connects: "global" for the global one (the
// Splice apps' domains.global.alias), else the identifier of the synchronizer's id.
std::string alias_of(const model::Network& n, const std::string& synchronizer_id) {
    if (synchronizer_id == n.synchronizer_id) return "global";
    return synchronizer_id.substr(0, synchronizer_id.find("::"));
}

}  // namespace

http::Response get_version(const RouteAuth& auth, const http::RequestContext& ctx,
                           const ApiProfile& release) {
    // No authorization wrapper (GetLedgerApiVersionAuthIT: unauthenticated calls allowed); only
    // the JSON API's own token stage refuses a token of an unknown user.
    (void)auth.identify(ctx.request);
    return http::Response::json(200, R"({"version":")" +
                                         std::string(canton_build_version(release.release)) +
                                         R"(","features":)" + std::string(features_json) + "}");
}

http::Response get_state_connected_synchronizers(const store::LedgerStore& store,
                                                 const RouteAuth& auth,
                                                 const http::RequestContext& ctx,
                                                 const ApiProfile& /*release*/) {
    const std::string party = ctx.request.query_param("party").value_or("");
    const std::string participant = ctx.request.query_param("participantId").value_or("");
    const Caller caller = auth.identify(ctx.request);
    // StateServiceAuthorization: any user without a party; with one, the right to operate as it.
    auth.authorize(caller, party.empty() ? std::vector<std::string>{} : std::vector{party}, false);
    if (!party.empty()) {
        if (const auto problem = lf_party_error(party)) {
            throw ApiError(ErrorKind::invalid_argument, "INVALID_FIELD",
                           "The submitted command has a field with invalid value: Invalid field "
                           "party: " +
                               *problem,
                           {{"field_name", "party"}});
        }
    }
    const model::Network& n = store.network();
    // participantId names the node whose hosting is asked ("PAR::" + the value); this one by
    // default. A party is hosted on every synchronizer its participant is connected to.
    const bool here = participant.empty() || "PAR::" + participant == n.participant_id;
    std::string permission = "PARTICIPANT_PERMISSION_UNSPECIFIED";
    if (!party.empty()) {
        if (!here || !hosted(n, party)) {
            return http::Response::json(200, R"({"connectedSynchronizers":[]})");
        }
        permission = "PARTICIPANT_PERMISSION_SUBMISSION";
    }
    ordered_json list = ordered_json::array();
    const auto add = [&](const std::string& id) {
        list.push_back({{"synchronizerAlias", alias_of(n, id)},
                        {"synchronizerId", id},
                        {"permission", permission}});
    };
    add(n.synchronizer_id);
    for (const std::string& id : n.other_synchronizers) add(id);
    return http::Response::json(200, ordered_json{{"connectedSynchronizers", list}}.dump());
}

http::Response get_state_latest_pruned_offsets(const store::LedgerStore& /*store*/,
                                               const RouteAuth& /*auth*/,
                                               const http::RequestContext& /*ctx*/,
                                               const ApiProfile& /*release*/) {
    return http::Response::json(
        200, R"({"participantPrunedUpToInclusive":0,"allDivulgedContractsPrunedUpToInclusive":0})");
}

}  // namespace cantonlite::areas::ledger
