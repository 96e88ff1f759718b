// POST /v2/updates/transaction-by-offset (canton-ledger-behavior.md §1 for the order of steps) and
// POST /v2/updates/transaction-by-id, its twin by update id.
#include "cantonlite/areas/ledger/event_filter.hpp"
#include "cantonlite/areas/ledger/ledger_handlers.hpp"
#include "cantonlite/areas/ledger/transaction_json.hpp"
#include "cantonlite/areas/ledger/transaction_request.hpp"
#include "cantonlite/http/api_error.hpp"

namespace cantonlite::areas::ledger {
namespace {

using http::ApiError;
using http::ErrorKind;

// requestingParties vs transactionFormat, in the JSON layer (§3.1).
template <typename Request>
TransactionFormat select_format(const Request& req) {
    if (req.transaction_format && !req.requesting_parties.empty()) {
        throw_invalid_argument(
            "Both transaction_format and requesting_parties are set. Please use either backwards "
            "compatible arguments (requesting_parties) or transaction_format but not both.");
    }
    if (req.transaction_format) return *req.transaction_format;
    if (req.requesting_parties.empty()) {
        throw_invalid_argument(
            "Either transaction_format or requesting_parties is required. Please use either "
            "backwards "
            "compatible arguments (requesting_parties) or transaction_format.");
    }
    EventFormat events{.verbose = true};
    for (const std::string& p : req.requesting_parties) events.filters_by_party[p] = Filters{};
    return TransactionFormat{.event_format = std::move(events),
                             .transaction_shape = TransactionShape::acs_delta};
}

// The Ledger API's validation, in its order (§3.2).
const EventFormat& validate(std::int64_t offset, const TransactionFormat& format) {
    if (offset <= 0) {
        // ParticipantOffsetValidator: a ContextualizedDamlError, without a definite answer.
        throw ApiError(ErrorKind::invalid_argument, "NON_POSITIVE_OFFSET",
                       "Offset " + std::to_string(offset) +
                           " in offset is not a positive integer: the offset has to be a positive "
                           "integer (>0)")
            .without_definite_answer();
    }
    return validate_transaction_format(format);
}

// The parties a format reads for, and whether it reads for any party.
void authorize_format(const RouteAuth& auth, const Caller& caller,
                      const TransactionFormat& format) {
    std::vector<std::string> parties;
    bool any_party = false;
    if (format.event_format) {
        for (const auto& [p, _] : format.event_format->filters_by_party) parties.push_back(p);
        any_party = format.event_format->filters_for_any_party.has_value();
    }
    auth.authorize(caller, parties, any_party);  // 401, 403
}

// {"transaction": ...} of `update` as `format` shows it; nullopt when there is nothing to show.
std::optional<std::string> visible_transaction(const store::LedgerStore& store,
                                               const store::UpdatePtr& update,
                                               const TransactionFormat& format,
                                               const EventFormat& events) {
    check_known(store, events);  // 404
    const Reader reader = Reader::make(events, store.network());
    const auto* tx = update ? std::get_if<store::Transaction>(update.get()) : nullptr;
    if (tx == nullptr) return std::nullopt;
    const TransactionView view = project(*tx, reader, format.transaction_shape);
    if (view.events.empty()) return std::nullopt;
    return transaction_response(view);
}

}  // namespace

http::Response post_transaction_by_offset(const store::LedgerStore& store, const RouteAuth& auth,
                                          const http::RequestContext& ctx) {
    const Caller caller = auth.identify(ctx.request);  // 403
    const TransactionByOffsetRequest request =
        decode_transaction_by_offset(ctx.request.body);            // 400 text
    const TransactionFormat format = select_format(request);       // 400
    authorize_format(auth, caller, format);                        // 401, 403
    const EventFormat& events = validate(request.offset, format);  // 400
    auto body = visible_transaction(store, store.update_at(request.offset), format, events);
    if (!body) {
        throw ApiError(ErrorKind::not_found, "UPDATE_NOT_FOUND",
                       "Update not found, or not visible.", {},
                       {{"OFFSET", std::to_string(request.offset)}});
    }
    return http::Response::json(200, std::move(*body));
}

http::Response post_transaction_by_id(const store::LedgerStore& store, const RouteAuth& auth,
                                      const http::RequestContext& ctx) {
    const Caller caller = auth.identify(ctx.request);                                   // 403
    const TransactionByIdRequest request = decode_transaction_by_id(ctx.request.body);  // 400 text
    const TransactionFormat format = select_format(request);                            // 400
    authorize_format(auth, caller, format);                                             // 401, 403
    check_update_id(request.update_id);                                                 // 400
    const EventFormat& events = validate_transaction_format(format);                    // 400
    const std::optional<store::Offset> offset = store.offset_of_update(request.update_id);
    auto body =
        visible_transaction(store, offset ? store.update_at(*offset) : nullptr, format, events);
    if (!body) {
        throw ApiError(ErrorKind::not_found, "UPDATE_NOT_FOUND",
                       "Update not found, or not visible.", {}, {{"UPDATE_ID", request.update_id}});
    }
    return http::Response::json(200, std::move(*body));
}

}  // namespace cantonlite::areas::ledger
