// Canton 3.5's deprecated transaction-tree reads (JsUpdateService, release-line-3.5): the list
// POST /v2/updates/trees and the lookups GET /v2/updates/transaction-tree-by-offset/{offset} and
// GET /v2/updates/transaction-tree-by-id/{update-id}. Each runs the UpdateService RPC of its
// modern twin (getUpdates, getUpdateByOffset, getUpdateById) and converts the transactions it
// answers to LegacyDTOs.TransactionTree (toTransactionTree).
#include <optional>
#include <string>
#include <vector>

#include "cantonlite/areas/ledger/event_filter.hpp"
#include "cantonlite/areas/ledger/ledger_handlers.hpp"
#include "cantonlite/areas/ledger/transaction_json.hpp"
#include "cantonlite/areas/ledger/update_json.hpp"
#include "cantonlite/areas/ledger/update_reads.hpp"
#include "cantonlite/http/api_error.hpp"
#include "cantonlite/util/java_long.hpp"

namespace cantonlite::areas::ledger {
namespace {

using http::ApiError;
using http::ErrorKind;

// getUpdateFormatForPointwiseQueries(parties, TRANSACTION_SHAPE_LEDGER_EFFECTS): each party with a
// wildcard, verbose, transactions only. No party: an empty filtersByParty, which FormatValidator
// refuses.
UpdateFormat pointwise_tree_format(const std::vector<std::string>& parties) {
    EventFormat events{.verbose = true};
    for (const std::string& p : parties) {
        events.filters_by_party[p] =
            Filters{.cumulative = {CumulativeFilter{.kind = CumulativeFilter::Kind::wildcard}}};
    }
    return UpdateFormat{.include_transactions = TransactionFormat{
                            .event_format = std::move(events),
                            .transaction_shape = TransactionShape::ledger_effects}};
}

// The gRPC stage of a pointwise tree read: ReadAs each party (401, 403), then `validate_key`
// (the offset or the update id, 400), then the format (400) and its identifiers (404).
UpdateReader authorize_tree_read(const store::LedgerStore& store, const RouteAuth& auth,
                                 const Caller& caller, const UpdateFormat& format,
                                 const auto& validate_key) {
    auth.authorize(caller, parties_of(format), reads_any_party(format));
    validate_key();
    validate_update_format(format);
    check_known_update_format(store, format);
    return UpdateReader::make(format, store.network());
}

// JsGetTransactionTreeResponse of `update`; nullopt when the parties see nothing of it (the RPC's
// UPDATE_NOT_FOUND).
std::optional<std::string> tree_of(const store::UpdatePtr& update, const UpdateReader& reader) {
    const auto* tx = update ? std::get_if<store::Transaction>(update.get()) : nullptr;
    if (tx == nullptr || !reader.transactions) return std::nullopt;
    const TransactionView view = project(*tx, *reader.transactions, reader.shape);
    if (view.events.empty()) return std::nullopt;
    return transaction_tree_response(view);
}

[[noreturn]] void tree_not_found(const std::string& resource, const std::string& key) {
    throw ApiError(ErrorKind::not_found, "UPDATE_NOT_FOUND", "Update not found, or not visible.",
                   {}, {{resource, key}});
}

}  // namespace

http::Response post_updates_trees(const store::LedgerStore& store, const RouteAuth& auth,
                                  const http::RequestContext& ctx, const ApiProfile& release) {
    return list_updates(store, auth, ctx, release, true);
}

http::Response get_transaction_tree_by_offset(const store::LedgerStore& store,
                                              const RouteAuth& auth,
                                              const http::RequestContext& ctx,
                                              const ApiProfile& /*release*/) {
    // path[Long]("offset"): tapir's DefaultDecodeFailureHandler answers a PathCapture's decode
    // error with 400 and its failure message.
    const std::optional<std::int64_t> offset = util::java_parse_long(ctx.params.get("offset"));
    if (!offset) throw http::DecodeError("Invalid value for: path parameter offset");
    const std::vector<std::string> parties = ctx.request.query_params("parties");
    const Caller caller = auth.identify(ctx.request);  // 403
    const UpdateFormat format = pointwise_tree_format(parties);
    const UpdateReader reader = authorize_tree_read(store, auth, caller, format, [&] {
        check_positive(*offset, "offset");  // 400 NON_POSITIVE_OFFSET
    });
    auto body = tree_of(store.update_at(*offset), reader);
    if (!body) tree_not_found("OFFSET", std::to_string(*offset));
    return http::Response::json(200, std::move(*body));
}

http::Response get_transaction_tree_by_id(const store::LedgerStore& store, const RouteAuth& auth,
                                          const http::RequestContext& ctx,
                                          const ApiProfile& /*release*/) {
    const std::string& update_id = ctx.params.get("update-id");
    const std::vector<std::string> parties = ctx.request.query_params("parties");
    const Caller caller = auth.identify(ctx.request);  // 403
    const UpdateFormat format = pointwise_tree_format(parties);
    const UpdateReader reader =
        authorize_tree_read(store, auth, caller, format, [&] { check_update_id(update_id); });
    const std::optional<store::Offset> offset = store.offset_of_update(update_id);
    auto body = tree_of(offset ? store.update_at(*offset) : nullptr, reader);
    if (!body) tree_not_found("UPDATE_ID", update_id);
    return http::Response::json(200, std::move(*body));
}

}  // namespace cantonlite::areas::ledger
