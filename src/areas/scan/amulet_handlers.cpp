// The amulet's rules, its mining rounds and featured apps, as Scan and the validator's scan proxy
// serve them to wallets (the tap and the amulet service of the wallet SDK). Splice 0.6
// HttpScanHandler.getAmuletRules, getOpenAndIssuingMiningRounds, lookupFeaturedAppRight;
// HttpScanProxyHandler's three, which answer what its scan connection reads from Scan.
#include <algorithm>
#include <limits>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <spdlog/spdlog.h>

#include "cantonlite/areas/scan/scan_handlers.hpp"
#include "cantonlite/areas/scan/scan_json.hpp"
#include "cantonlite/areas/splice_request.hpp"
#include "cantonlite/http/api_error.hpp"
#include "cantonlite/http/json_text.hpp"
#include "cantonlite/model/packed_value.hpp"
#include "cantonlite/splice/splice_views.hpp"

namespace cantonlite::areas::scan {
namespace {

using http::ApiError;
using http::ErrorKind;

// What an exception that no error mapping knows becomes (a NoSuchElementException, Scala's
// `min` of nothing): HttpErrorHandler's catch-all.
[[noreturn]] void unexpected(const std::string& why) {
    spdlog::error("{}", why);
    throw ApiError(ErrorKind::internal, "", "An unexpected error occurred.");
}

store::ContractState current_amulet_rules(const Store& store) {
    auto rules = splice::views(store).amulet_rules();
    if (!rules) unexpected("found no amuletrules instance");  // Scan's NoSuchElementException
    return std::move(*rules);
}

// tryComputeTimeToLive: the smallest tick of the rounds not closed yet (here the open ones; no
// IssuingMiningRound or SummarizingMiningRound is ever created).
std::int64_t time_to_live_micros(const std::vector<store::ContractState>& open) {
    if (open.empty()) unexpected("no open mining round: the TTL is the min of nothing");
    std::int64_t ttl = std::numeric_limits<std::int64_t>::max();
    for (const store::ContractState& round : open) {
        const auto tick =
            model::field_at(round.contract->argument, {"tickDuration", "microseconds"});
        if (tick) ttl = std::min(ttl, tick->number);
    }
    return ttl;
}

}  // namespace

http::Response post_amulet_rules(const Store& store, const Context& ctx) {
    // GetAmuletRulesRequest: two optional strings; the cached domain id is not looked at.
    const nlohmann::json body = json_body(ctx.request);
    const std::optional<std::string> cached =
        optional_string_member(body, "cached_amulet_rules_contract_id");
    (void)optional_string_member(body, "cached_amulet_rules_domain_id");
    const store::ContractState rules = current_amulet_rules(store);
    std::string out = R"({"amulet_rules_update":)";
    append_contract_with_state(out, rules, cached && *cached == rules.contract->contract_id.view());
    out += '}';
    return http::Response::json(200, std::move(out));
}

http::Response post_open_and_issuing_mining_rounds(const Store& store, const Context& ctx) {
    const nlohmann::json body = json_body(ctx.request);
    const std::vector<std::string> cached_open =
        string_array_member(body, "cached_open_mining_round_contract_ids");
    (void)string_array_member(body, "cached_issuing_round_contract_ids");
    const std::set<std::string, std::less<>> cached(cached_open.begin(), cached_open.end());
    const std::vector<store::ContractState> open = splice::views(store).open_rounds();
    const std::int64_t ttl = time_to_live_micros(open);
    // selectRoundsToRespondWith: every active round, keyed by its contract id; one the client has
    // cached without its contract. (A Scala Map of up to four entries keeps their order.)
    std::string out =
        R"({"time_to_live_in_microseconds":)" + std::to_string(ttl) + R"(,"open_mining_rounds":{)";
    for (std::size_t i = 0; i < open.size(); ++i) {
        const std::string_view cid = open[i].contract->contract_id.view();
        if (i > 0) out += ',';
        http::append_json_string(out, cid);
        out += ':';
        append_contract_with_state(out, open[i], cached.contains(cid));
    }
    out += R"(},"issuing_mining_rounds":{}})";
    return http::Response::json(200, std::move(out));
}

http::Response get_featured_app_right(const Store& store, const Context& ctx) {
    const std::string& provider = ctx.params.get("provider_party_id");
    check_party(provider);  // PartyId.tryFromProtoPrimitive: 400
    const auto right = splice::views(store).featured_app_right_of(provider);
    std::string out = R"({"featured_app_right":)";
    if (right) {
        append_contract(out, *right->contract);
    } else {
        out += "null";
    }
    out += '}';
    return http::Response::json(200, std::move(out));
}

http::Response get_amulet_rules_proxy(const Store& store, const Context& /*ctx*/) {
    std::string out = R"({"amulet_rules":)";
    append_contract_with_state(out, current_amulet_rules(store));
    out += '}';
    return http::Response::json(200, std::move(out));
}

http::Response get_open_and_issuing_mining_rounds_proxy(const Store& store,
                                                        const Context& /*ctx*/) {
    // The scan connection's cache of Scan's answer, as lists: the open rounds by round number.
    std::string out = R"({"open_mining_rounds":[)";
    const std::vector<store::ContractState> open = splice::views(store).open_rounds();
    for (std::size_t i = 0; i < open.size(); ++i) {
        if (i > 0) out += ',';
        append_contract_with_state(out, open[i]);
    }
    out += R"(],"issuing_mining_rounds":[]})";
    return http::Response::json(200, std::move(out));
}

}  // namespace cantonlite::areas::scan
