// The EventQueryService of the JSON Ledger API: the create and archive of a contract
// (JsEventService, EventQueryServiceRequestValidator, EventsReader.getEventsByContractId).
#include <algorithm>

#include "cantonlite/areas/ledger/event_filter.hpp"
#include "cantonlite/areas/ledger/ledger_handlers.hpp"
#include "cantonlite/areas/ledger/read_requests.hpp"
#include "cantonlite/areas/ledger/update_json.hpp"
#include "cantonlite/http/api_error.hpp"

namespace cantonlite::areas::ledger {
namespace {

using http::ApiError;
using http::ErrorKind;

// Value.ContractId.fromString: lower-case hex bytes of a V1 ("00", a 32-byte discriminator, a
// suffix of at most 94 bytes) or a V2 ("01") contract id.
bool parses_as_contract_id(const std::string& id) {
    const bool hex = id.size() % 2 == 0 && std::all_of(id.begin(), id.end(), [](char c) {
                         return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
                     });
    if (!hex) return false;
    if (id.starts_with("00")) return id.size() >= 66 && id.size() <= 66 + 2 * 94;
    return id.starts_with("01") && id.size() > 2;
}

void check_contract_id(const std::string& id) {
    if (id.empty()) throw_missing_field("contract_id");
    if (parses_as_contract_id(id)) return;
    throw ApiError(ErrorKind::invalid_argument, "INVALID_FIELD",
                   "The submitted command has a field with invalid value: Invalid field "
                   "contract_id: cannot parse ContractId \"" +
                       id + "\"",
                   {{"field_name", "contract_id"}});
}

[[noreturn]] void not_found(const std::string& id) {
    throw ApiError(ErrorKind::not_found, "CONTRACT_EVENTS_NOT_FOUND",
                   "Contract events not found, or not visible.", {}, {{"CONTRACT_ID", id}});
}

const store::Transaction* transaction_at(const store::LedgerStore& store, store::Offset offset,
                                         store::UpdatePtr& keep) {
    keep = store.update_at(offset);
    return keep ? std::get_if<store::Transaction>(keep.get()) : nullptr;
}

// The consuming exercise of `contract_id` in `tx`.
const store::Node* consuming_node(const store::Transaction& tx, const std::string& contract_id) {
    for (const store::Node& n : tx.nodes) {
        const auto* x = store::exercised(n);
        if (x != nullptr && x->consuming && x->contract_id == contract_id) return &n;
    }
    return nullptr;
}

}  // namespace

http::Response post_events_events_by_contract_id(const store::LedgerStore& store,
                                                 const RouteAuth& auth,
                                                 const http::RequestContext& ctx,
                                                 const ApiProfile& /*release*/) {
    const Caller caller = auth.identify(ctx.request);  // 403
    const EventsByContractIdRequest request =
        decode_events_by_contract_id(ctx.request.body);  // 400 text
    const auto& events = request.event_format;
    auth.authorize(caller, events ? parties_of(*events) : std::vector<std::string>{},
                   events && events->filters_for_any_party.has_value());  // 401, 403
    check_contract_id(request.contract_id);                               // 400
    if (!events) throw_missing_field("event_format");
    validate_event_format(*events);
    check_known(store, *events);  // 404
    const Reader reader = Reader::make(*events, store.network());
    const std::optional<store::ContractState> state = store.contract(request.contract_id);
    if (!state || state->created_offset() == 0) not_found(request.contract_id);
    const std::optional<ContractView> view = view_contract(reader, *state->contract);
    store::UpdatePtr created_update;
    const store::Transaction* created_in =
        transaction_at(store, state->created_offset(), created_update);
    const auto node_id = static_cast<std::size_t>(state->contract->created_node_id);
    if (!view || created_in == nullptr || node_id >= created_in->nodes.size())
        not_found(request.contract_id);
    store::UpdatePtr archived_update;
    const store::Transaction* archived_in =
        state->archived_offset() ? transaction_at(store, *state->archived_offset(), archived_update)
                                 : nullptr;
    const store::Node* archive =
        archived_in ? consuming_node(*archived_in, request.contract_id) : nullptr;
    return http::Response::json(
        200, events_by_contract_id_json(*created_in, created_in->nodes[node_id], *view, archived_in,
                                        archive));
}

}  // namespace cantonlite::areas::ledger
