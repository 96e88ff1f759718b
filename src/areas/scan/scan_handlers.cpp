#include "cantonlite/areas/scan/scan_handlers.hpp"

#include <nlohmann/json.hpp>

#include "cantonlite/model/network_json.hpp"

namespace cantonlite::areas::scan {

http::Response get_lsu(const store::LedgerStore& store, const http::RequestContext& /*ctx*/) {
    const auto& lsu = store.network().lsu;
    const nlohmann::ordered_json body = {
        {"lsu", lsu ? nlohmann::ordered_json(*lsu) : nlohmann::ordered_json(nullptr)}};
    return http::Response::json(200, body.dump());
}

http::Response get_dso_party_id(const store::LedgerStore& store,
                                const http::RequestContext& /*ctx*/) {
    const nlohmann::json body = {{"dso_party_id", store.network().dso_party}};
    return http::Response::json(200, body.dump());
}

}  // namespace cantonlite::areas::scan
