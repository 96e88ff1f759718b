#include "cantonlite/areas/scan/scan_handlers.hpp"

#include <optional>
#include <string>
#include <utility>

#include <nlohmann/json.hpp>

#include "cantonlite/model/network_json.hpp"
#include "cantonlite/util/json_escape.hpp"

namespace cantonlite::areas::scan {

namespace {

// {"lsu": <Lsu>} or {"lsu": null}, serialized.
std::string lsu_body(const std::optional<model::Lsu>& lsu) {
    const std::string value = lsu ? nlohmann::ordered_json(*lsu).dump() : "null";
    return R"({"lsu":)" + value + "}";
}

}  // namespace

http::Response get_lsu(const store::LedgerStore& store, const http::RequestContext& /*ctx*/) {
    // Rendering the announcement (two timestamps, a JSON dump) costs more than the rest of the
    // request, and it never changes while the network runs: each thread keeps the last body it
    // rendered, with the announcement it rendered it from.
    thread_local std::optional<std::optional<model::Lsu>> rendered_from;
    thread_local std::string body;
    const auto& lsu = store.network().lsu;
    if (!rendered_from || *rendered_from != lsu) {
        body = lsu_body(lsu);
        rendered_from = lsu;
    }
    return http::Response::json(200, body);
}

http::Response get_dso_party_id(const store::LedgerStore& store,
                                const http::RequestContext& /*ctx*/) {
    // {"dso_party_id":"…"}, as the one-field object dumps, without building the object.
    std::string body = R"({"dso_party_id":)";
    util::append_json_string(body, store.network().dso_party);
    body += '}';
    return http::Response::json(200, std::move(body));
}

}  // namespace cantonlite::areas::scan
