// The token-standard registry's metadata API (Splice HttpTokenStandardMetadataHandler): the
// registry info and the Amulet instrument, with its supply from the latest ACS snapshot.
#include <string>
#include <string_view>

#include "cantonlite/areas/scan/registry_area.hpp"
#include "cantonlite/areas/scan/scan_handlers.hpp"
#include "cantonlite/http/json_text.hpp"
#include "cantonlite/model/decimal.hpp"
#include "cantonlite/splice/splice_views.hpp"

namespace cantonlite::areas::scan {
namespace {

using http::ApiError;
using http::ErrorKind;

// The instrument of the DSO's token. Its name and symbol are the Splice instance's names
// (spliceInstanceNames: amuletName, amuletNameAcronym), whose defaults LocalNet keeps.
constexpr std::string_view amulet_id = "Amulet";
constexpr std::string_view amulet_name = "Amulet";
constexpr std::string_view amulet_symbol = "AMT";
constexpr int amulet_decimals = 10;

// The v1 APIs of the Amulet instrument, each at version 1, in the order of Scala's immutable
// HashMap of five entries, which Scan's encoder walks.
constexpr std::string_view amulet_apis =
    R"({"splice-api-token-metadata-v1":1,"splice-api-token-allocation-v1":1,)"
    R"("splice-api-token-transfer-instruction-v1":1,"splice-api-token-holding-v1":1,)"
    R"("splice-api-token-allocation-instruction-v1":1})";

// Instrument: the schema's fields in its order; an absent supply is null (guardrail's encoder).
std::string amulet_instrument(const Store& store) {
    std::string out = "{";
    http::append_string_field(out, "id", amulet_id, true);
    http::append_string_field(out, "name", amulet_name);
    http::append_string_field(out, "symbol", amulet_symbol);
    const auto times = store.snapshot_times();
    const store::SnapshotPtr snapshot =
        times.empty() ? nullptr : store.snapshot(times.back().first, times.back().second, false);
    if (snapshot) {
        const splice::HoldingsSnapshotPtr holdings = splice::views(store).holdings(*snapshot);
        model::Decimal supply;
        for (std::size_t i = 0; i < holdings->size(); ++i)
            supply = supply + holdings->row(i).amount();
        http::append_string_field(out, "totalSupply", supply.to_scaled_string());
        http::append_string_field(out, "totalSupplyAsOf",
                                  model::format_offset_date_time(snapshot->record_time));
    } else {
        http::append_null_field(out, "totalSupply");
        http::append_null_field(out, "totalSupplyAsOf");
    }
    http::append_int_field(out, "decimals", amulet_decimals);
    http::append_raw_field(out, "supportedApis", amulet_apis);
    out += '}';
    return out;
}

}  // namespace

http::Response get_registry_info(const Store& store, const Context& /*ctx*/) {
    std::string out = "{";
    http::append_string_field(out, "adminId", store.network().dso_party, true);
    out += R"(,"supportedApis":{"splice-api-token-metadata-v1":1}})";
    return http::Response::json(200, std::move(out));
}

http::Response list_instruments(const Store& store, const Context& /*ctx*/) {
    return http::Response::json(
        200, R"({"instruments":[)" + amulet_instrument(store) + R"(],"nextPageToken":null})");
}

http::Response get_instrument(const Store& store, const Context& ctx) {
    const std::string& id = ctx.params.get("instrumentId");
    if (id != amulet_id) {
        throw ApiError(ErrorKind::not_found, "", "No instrument with id " + id + " found")
            .as_returned();
    }
    return http::Response::json(200, amulet_instrument(store));
}

RegistryArea::RegistryArea(const store::LedgerStore& store)
    : SpliceArea("/registry/", "/registry") {
    const auto with_store = [&store](auto handler) {
        return [&store, handler](const http::RequestContext& ctx) { return handler(store, ctx); };
    };
    // token-metadata-v1.yaml
    add_route("GET", "/metadata/v1/info", with_store(get_registry_info));
    add_route("GET", "/metadata/v1/instruments", with_store(list_instruments));
    add_route("GET", "/metadata/v1/instruments/{instrumentId}", with_store(get_instrument));
}

}  // namespace cantonlite::areas::scan
