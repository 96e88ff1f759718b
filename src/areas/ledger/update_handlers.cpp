// The UpdateService of the JSON Ledger API: update-by-offset, update-by-id, the HTTP list of
// updates and its pages (JsUpdateService, ApiUpdateService, UpdateServiceRequestValidator).
#include <algorithm>
#include <cctype>
#include <functional>
#include <optional>
#include <utility>
#include <variant>

#include "cantonlite/areas/ledger/ledger_handlers.hpp"
#include "cantonlite/areas/ledger/list_limit.hpp"
#include "cantonlite/areas/ledger/read_requests.hpp"
#include "cantonlite/areas/ledger/update_json.hpp"
#include "cantonlite/areas/ledger/update_reads.hpp"
#include "cantonlite/http/api_error.hpp"
#include "cantonlite/http/json_text.hpp"
#include "cantonlite/model/ids.hpp"
#include "cantonlite/model/timestamp.hpp"

namespace cantonlite::areas::ledger {
namespace {

using http::ApiError;
using http::ErrorKind;

// UpdateServiceConfig: maxUpdatesPageSize and defaultUpdatesPageSize.
constexpr std::int32_t max_updates_page_size = 2000;
constexpr std::int32_t default_updates_page_size = 100;

// The checks and lookups every read of updates shares, after decoding: authorization (401, 403),
// then the format (400), then its identifiers (404).
UpdateReader authorize_and_resolve(const store::LedgerStore& store, const RouteAuth& auth,
                                   const Caller& caller, const std::optional<UpdateFormat>& format,
                                   const std::function<void()>& validate_first) {
    auth.authorize(caller, format ? parties_of(*format) : std::vector<std::string>{},
                   format && reads_any_party(*format));
    validate_first();
    if (!format) throw_missing_field("update_format");
    validate_update_format(*format);
    check_known_update_format(store, *format);
    return UpdateReader::make(*format, store.network());
}

std::string update_response(const std::string& update) {
    return R"({"update":)" + update + "}";
}

// UPDATE_NOT_FOUND with the lookup key as its resource.
[[noreturn]] void update_not_found(const std::string& resource, const std::string& key) {
    throw ApiError(ErrorKind::not_found, "UPDATE_NOT_FOUND", "Update not found, or not visible.",
                   {}, {{resource, key}});
}

// JsUpdateServiceConverters.toUpdateFormat's addWildcardCond for trees: a party's filters (and
// the any-party ones) read every template, a wildcard added unless one is there.
void add_tree_wildcard(Filters& filters) {
    for (const CumulativeFilter& f : filters.cumulative) {
        if (f.kind == CumulativeFilter::Kind::wildcard) return;
    }
    filters.cumulative.push_back(CumulativeFilter{.kind = CumulativeFilter::Kind::wildcard});
}

// The JSON layer: updateFormat or the deprecated filter/verbose (toGetUpdatesRequest; forTrees for
// /v2/updates/trees: LEDGER_EFFECTS and the wildcards).
UpdateFormat select_update_format(const UpdatesRequest& req, const ApiProfile& release,
                                  bool for_trees) {
    if (!is_enabled(release, Deprecation::parameters_34) && (req.filter || req.verbose))
        throw_deprecated_parameters(for_trees ? "/v2/updates/trees" : "/v2/updates");
    if (req.update_format && req.filter) {
        throw_invalid_argument(
            "Both update_format and filter are set. Please use either backwards compatible "
            "arguments (filter and verbose) or update_format, but not both.");
    }
    if (req.update_format && req.verbose) {
        throw_invalid_argument(
            "Both update_format and verbose are set. Please use either backwards compatible "
            "arguments (filter and verbose) or update_format, but not both.");
    }
    if (req.update_format) return *req.update_format;
    if (!req.filter) {
        throw_invalid_argument(
            "Either filter/verbose or update_format is required. Please use either backwards "
            "compatible arguments (filter and verbose) or update_format.");
    }
    EventFormat events = *req.filter;
    events.verbose = req.verbose;
    if (for_trees) {
        for (auto& [_, filters] : events.filters_by_party) add_tree_wildcard(filters);
        if (events.filters_for_any_party) add_tree_wildcard(*events.filters_for_any_party);
    }
    return UpdateFormat{
        .include_transactions =
            TransactionFormat{.event_format = events,
                              .transaction_shape = for_trees ? TransactionShape::ledger_effects
                                                             : TransactionShape::acs_delta},
        .include_reassignments = events};
}

[[noreturn]] void non_positive(std::int64_t offset, const std::string& field,
                               const std::string& message) {
    throw ApiError(ErrorKind::invalid_argument, "NON_POSITIVE_OFFSET",
                   "Offset " + std::to_string(offset) + " in " + field +
                       " is not a positive integer: " + message)
        .without_definite_answer();
}

// ---- page tokens: base64 of "updates|<asc|desc>|<lowest>|<highest>|<request digest>" ----

struct PageToken {
    bool descending = false;
    std::int64_t lowest = 0;   // descending: the next page's highest offset (inclusive)
    std::int64_t highest = 0;  // ascending: the last offset served
    std::string digest;
};

// Binds a token to the request's begin, end and updateFormat.
std::string request_digest(const UpdatesPageRequest& r, std::string_view body) {
    return model::sha256_hex(std::to_string(r.begin_offset_exclusive.value_or(-1)) + "/" +
                             std::to_string(r.end_offset_inclusive.value_or(-1)) + "/" +
                             request_member_digest(body, "updateFormat"))
        .substr(0, 16);
}

std::string encode_token(const PageToken& t) {
    return model::base64_encode("updates|" + std::string(t.descending ? "desc" : "asc") + "|" +
                                std::to_string(t.lowest) + "|" + std::to_string(t.highest) + "|" +
                                t.digest);
}

[[noreturn]] void invalid_token(const std::string& message) {
    throw ApiError(ErrorKind::invalid_argument, "INVALID_UPDATES_PAGE_TOKEN",
                   "The submitted command contains an invalid page token. Tokens used in "
                   "GetUpdatesPage requests must be taken from a valid GetUpdatesPageResponse and "
                   "used with the same EventFormat settings, the same begin and end with the same "
                   "Canton participant running the same Canton version. " +
                       message);
}

PageToken decode_token(const std::string& text, const UpdatesPageRequest& r,
                       std::string_view body) {
    const std::optional<std::string> raw = model::base64_decode(text);
    std::vector<std::string> parts;
    if (raw) {
        std::size_t start = 0;
        for (std::size_t bar; (bar = raw->find('|', start)) != std::string::npos; start = bar + 1)
            parts.push_back(raw->substr(start, bar - start));
        parts.push_back(raw->substr(start));
    }
    if (parts.size() != 5 || parts[0] != "updates") invalid_token("Invalid token format");
    PageToken t{.descending = parts[1] == "desc", .digest = parts[4]};
    try {
        t.lowest = std::stoll(parts[2]);
        t.highest = std::stoll(parts[3]);
    } catch (const std::exception&) {
        invalid_token("Invalid token format");
    }
    if (t.digest != request_digest(r, body)) invalid_token("The request does not match the token");
    if (t.descending != r.descending_order) {
        invalid_token(r.descending_order ? "Page token not from descendingOrder=true request"
                                         : "Page token not from descendingOrder=false request");
    }
    return t;
}

std::string page_json(const std::vector<std::string>& updates, std::int64_t lowest,
                      std::int64_t highest, const std::optional<std::string>& token) {
    std::string out = R"({"updates":[)";
    for (std::size_t i = 0; i < updates.size(); ++i) {
        if (i > 0) out += ',';
        out += update_response(updates[i]);
    }
    out += R"(],"lowestPageOffsetExclusive":)" + std::to_string(lowest) +
           R"(,"highestPageOffsetInclusive":)" + std::to_string(highest) + R"(,"nextPageToken":)";
    out += token ? "\"" + *token + "\"" : std::string("null");
    out += '}';
    return out;
}

}  // namespace

namespace {

bool is_hex(std::string_view s) {
    return std::all_of(s.begin(), s.end(),
                       [](char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; });
}

}  // namespace

void check_positive(std::int64_t offset, const std::string& field) {
    if (offset <= 0) non_positive(offset, field, "the offset has to be a positive integer (>0)");
}

// The update id's validation (requireNonEmptyString, requireLedgerString, UpdateId).
void check_update_id(const std::string& id) {
    if (id.empty()) throw_missing_field("update_id");
    if (id.size() % 2 != 0 || !is_hex(id))
        throw_invalid_argument("Failed to parse hex string: " + id);
}

http::Response post_updates_update_by_offset(const store::LedgerStore& store, const RouteAuth& auth,
                                             const http::RequestContext& ctx,
                                             const ApiProfile& release) {
    const Caller caller = auth.identify(ctx.request);                                 // 403
    const UpdateByOffsetRequest request = decode_update_by_offset(ctx.request.body);  // 400 text
    const UpdateReader reader =
        authorize_and_resolve(store, auth, caller, request.update_format,
                              [&] { check_positive(request.offset, "offset"); });
    const store::UpdatePtr update = store.update_at(request.offset);
    std::optional<std::string> json;
    if (update) json = update_json(*update, reader, release);
    if (!json) update_not_found("OFFSET", std::to_string(request.offset));
    return http::Response::json(200, update_response(*json));
}

http::Response post_updates_update_by_id(const store::LedgerStore& store, const RouteAuth& auth,
                                         const http::RequestContext& ctx,
                                         const ApiProfile& release) {
    const Caller caller = auth.identify(ctx.request);
    const UpdateByIdRequest request = decode_update_by_id(ctx.request.body);
    const UpdateReader reader = authorize_and_resolve(store, auth, caller, request.update_format,
                                                      [&] { check_update_id(request.update_id); });
    const std::optional<store::Offset> offset = store.offset_of_update(request.update_id);
    const store::UpdatePtr update = offset ? store.update_at(*offset) : nullptr;
    std::optional<std::string> json;
    if (update) json = update_json(*update, reader, release);
    if (!json) update_not_found("UPDATE_ID", request.update_id);
    return http::Response::json(200, update_response(*json));
}

http::Response post_updates_update_by_hash(const store::LedgerStore& store, const RouteAuth& auth,
                                           const http::RequestContext& ctx,
                                           const ApiProfile& release) {
    // GetUpdateByHashRequest {transactionHash: bytes (base64), updateFormat}, relaxed; then
    // UpdateServiceRequestValidator.validateUpdateByHash.
    const Caller caller = auth.identify(ctx.request);
    const UpdateByHashRequest request = decode_update_by_hash(ctx.request.body);
    const UpdateReader reader =
        authorize_and_resolve(store, auth, caller, request.update_format, [&] {
            if (request.transaction_hash.empty()) throw_missing_field("transaction_hash");
        });
    const std::string hex = model::hex(request.transaction_hash);
    const std::optional<store::Offset> offset = store.offset_of_external_hash(hex);
    const store::UpdatePtr update = offset ? store.update_at(*offset) : nullptr;
    std::optional<std::string> text;
    if (update) text = update_json(*update, reader, release);
    if (!text) update_not_found("TRANSACTION_HASH", hex);
    return http::Response::json(200, update_response(*text));
}

std::vector<std::string> read_range(const store::LedgerStore& store, const UpdateReader& reader,
                                    std::int64_t begin, std::int64_t end, bool descending,
                                    std::int64_t limit, const ApiProfile& release,
                                    std::vector<std::int64_t>* offsets) {
    std::vector<std::string> out;
    for (std::int64_t i = 0; i < end - begin && static_cast<std::int64_t>(out.size()) < limit;
         ++i) {
        const std::int64_t offset = descending ? end - i : begin + 1 + i;
        const store::UpdatePtr update = store.update_at(offset);
        if (!update) continue;
        if (auto json = update_json(*update, reader, release)) {
            out.push_back(std::move(*json));
            if (offsets != nullptr) offsets->push_back(offset);
        }
    }
    return out;
}

UpdatesPlan plan_updates(const store::LedgerStore& store, const RouteAuth& auth,
                         const Caller& caller, const UpdatesRequest& request,
                         const ApiProfile& release, bool for_trees) {
    const UpdateFormat format = select_update_format(request, release, for_trees);  // 400
    const std::int64_t end_of_ledger = store.ledger_end();
    UpdateReader reader = authorize_and_resolve(store, auth, caller, format, [&] {
        check_non_negative(request.begin_exclusive, "begin_exclusive");
        if (request.descending_order && !request.end_inclusive) {
            throw ApiError(ErrorKind::invalid_argument, "DESCENDING_ORDER_MISSING_END",
                           "end_inclusive is not provided when descending_order is true")
                .without_definite_answer();
        }
        if (request.end_inclusive && *request.end_inclusive <= 0) {
            non_positive(*request.end_inclusive, "end_inclusive",
                         request.descending_order
                             ? "the offset has to be a positive integer (>0)"
                             : "the offset has to be either a positive integer (>0) or not "
                               "defined at all");
        }
        check_before_end("Begin", request.begin_exclusive, end_of_ledger);
        if (request.end_inclusive) check_before_end("End", *request.end_inclusive, end_of_ledger);
    });
    const std::int64_t end = request.end_inclusive.value_or(end_of_ledger);
    if (end < request.begin_exclusive) {
        throw ApiError(ErrorKind::failed_precondition, "OFFSET_OUT_OF_RANGE",
                       "End offset " + std::to_string(end) + " is before begin offset " +
                           std::to_string(request.begin_exclusive) + ".");
    }
    reader.trees = for_trees;
    return UpdatesPlan{.reader = std::move(reader),
                       .begin_exclusive = request.begin_exclusive,
                       .end_inclusive = request.end_inclusive,
                       .end = end,
                       .descending = request.descending_order};
}

std::string update_message(const std::string& update) {
    return update_response(update);
}

std::string offset_checkpoint_message(const store::LedgerStore& store, std::int64_t offset) {
    const model::Network& network = store.network();
    std::vector<std::string> synchronizers{network.synchronizer_id};
    synchronizers.insert(synchronizers.end(), network.other_synchronizers.begin(),
                         network.other_synchronizers.end());
    // The latest record time of each, read backwards from `offset` until all are found.
    std::vector<std::optional<model::Timestamp>> times(synchronizers.size());
    std::size_t missing = synchronizers.size();
    const auto saw = [&](std::string_view synchronizer, model::Timestamp t) {
        for (std::size_t i = 0; i < synchronizers.size(); ++i) {
            if (synchronizers[i] == synchronizer && !times[i]) {
                times[i] = t;
                --missing;
            }
        }
    };
    for (std::int64_t o = offset; o > 0 && missing > 0; --o) {
        const store::UpdatePtr update = store.update_at(o);
        if (!update) continue;
        if (const auto* tx = std::get_if<store::Transaction>(update.get())) {
            saw(tx->synchronizer_id.view(), tx->record_time);
        } else if (const auto* r = std::get_if<store::Reassignment>(update.get())) {
            saw(synchronizer_of(*r).view(), r->record_time);
        }
    }
    std::string out = R"({"update":{"OffsetCheckpoint":{"value":{"offset":)" +
                      std::to_string(offset) + R"(,"synchronizerTimes":[)";
    bool first = true;
    for (std::size_t i = 0; i < synchronizers.size(); ++i) {
        if (!times[i]) continue;
        if (!std::exchange(first, false)) out += ',';
        out += '{';
        http::append_string_field(out, "synchronizerId", synchronizers[i], true);
        http::append_string_field(out, "recordTime", model::format_instant(*times[i]));
        out += '}';
    }
    return out + "]}}}}";
}

http::Response post_updates(const store::LedgerStore& store, const RouteAuth& auth,
                            const http::RequestContext& ctx, const ApiProfile& release) {
    return list_updates(store, auth, ctx, release, false);
}

http::Response list_updates(const store::LedgerStore& store, const RouteAuth& auth,
                            const http::RequestContext& ctx, const ApiProfile& release,
                            bool for_trees) {
    const StreamListParams params = decode_stream_list_params(ctx.request);  // 400 text
    const Caller caller = auth.identify(ctx.request);                        // 403
    const UpdatesRequest request = decode_updates(ctx.request.body);         // 400 text
    const UpdatesPlan plan =
        plan_updates(store, auth, caller, request, release, for_trees);  // 400-404
    const std::int64_t take = list_take(params.limit);
    const std::vector<std::string> updates = read_range(store, plan.reader, plan.begin_exclusive,
                                                        plan.end, plan.descending, take, release);
    // A tailing read has caught up with the ledger end: its checkpoint is the stream's next
    // element, taken when the limit leaves room.
    const bool checkpoint =
        !plan.end_inclusive && plan.end > 0 && static_cast<std::int64_t>(updates.size()) < take;
    check_list_limit(updates.size() + (checkpoint ? 1 : 0));  // 413
    std::string out = "[";
    for (std::size_t i = 0; i < updates.size(); ++i) {
        if (i > 0) out += ',';
        out += update_response(updates[i]);
    }
    if (checkpoint) {
        if (!updates.empty()) out += ',';
        out += offset_checkpoint_message(store, plan.end);
    }
    out += ']';
    return http::Response::json(200, out);
}

http::Response post_updates_get_updates_page(const store::LedgerStore& store, const RouteAuth& auth,
                                             const http::RequestContext& ctx,
                                             const ApiProfile& release) {
    const Caller caller = auth.identify(ctx.request);
    const UpdatesPageRequest request = decode_updates_page(ctx.request.body);
    const std::int64_t end_of_ledger = store.ledger_end();
    std::optional<PageToken> token;
    std::int32_t page_size = default_updates_page_size;
    const UpdateReader reader =
        authorize_and_resolve(store, auth, caller, request.update_format, [&] {
            if (request.page_token)
                token = decode_token(*request.page_token, request, ctx.request.body);
            if (request.end_offset_inclusive) {
                check_positive(*request.end_offset_inclusive, "endOffsetInclusive");
            }
            if (request.begin_offset_exclusive) {
                check_non_negative(*request.begin_offset_exclusive, "beginOffsetExclusive");
            }
            if (const auto size = request.max_page_size) {
                if (*size <= 0) {
                    throw_invalid_argument("Requested page size must be positive, but got " +
                                           std::to_string(*size));
                }
                if (*size > max_updates_page_size) {
                    throw_invalid_argument("Requested page size must not exceed " +
                                           std::to_string(max_updates_page_size) + ", but got " +
                                           std::to_string(*size));
                }
                page_size = *size;
            }
            if (request.end_offset_inclusive) {
                check_before_end("endOffsetInclusive", *request.end_offset_inclusive,
                                 end_of_ledger);
            }
            if (request.begin_offset_exclusive && request.end_offset_inclusive &&
                *request.begin_offset_exclusive > *request.end_offset_inclusive) {
                throw_invalid_argument("beginOffsetExclusive is after endOffsetInclusive");
            }
        });
    const std::int64_t begin = request.begin_offset_exclusive.value_or(0);
    const std::int64_t end = request.end_offset_inclusive.value_or(end_of_ledger);
    std::vector<std::int64_t> offsets;
    if (!request.descending_order) {
        // IndexServiceImpl.buildAscendingPage: a full page ends just before the first update of
        // the next; the last page ends at the end, and without a requested end its token tails.
        const std::int64_t from = token ? token->highest : begin;
        std::vector<std::string> updates =
            read_range(store, reader, from, end, false, page_size + 1LL, release, &offsets);
        std::int64_t highest = end;
        const bool full = static_cast<std::int64_t>(updates.size()) > page_size;
        if (full) {
            updates.pop_back();
            highest = offsets.back() - 1;
        }
        std::optional<std::string> next;
        if (full || !request.end_offset_inclusive) {
            next = encode_token({.descending = false,
                                 .highest = highest,
                                 .digest = request_digest(request, ctx.request.body)});
        }
        return http::Response::json(200, page_json(updates, from, highest, next));
    }
    const std::int64_t to = token ? token->lowest : end;
    std::vector<std::string> updates =
        read_range(store, reader, begin, to, true, page_size + 1LL, release, &offsets);
    std::optional<std::string> next;
    std::int64_t lowest = begin;
    if (static_cast<std::int64_t>(updates.size()) > page_size) {
        updates.pop_back();
        lowest = offsets.back();
        next = encode_token({.descending = true,
                             .lowest = lowest,
                             .highest = to,
                             .digest = request_digest(request, ctx.request.body)});
    }
    return http::Response::json(200, page_json(updates, lowest, to, next));
}

void check_non_negative(std::int64_t offset, const std::string& field) {
    if (offset >= 0) return;
    throw ApiError(ErrorKind::invalid_argument, "NEGATIVE_OFFSET",
                   "Offset " + std::to_string(offset) + " in " + field +
                       " is a negative integer: the offset in " + field +
                       " field has to be a non-negative integer (>=0)")
        .without_definite_answer();
}

void check_before_end(const std::string& type, std::int64_t offset, std::int64_t end) {
    if (offset <= end) return;
    throw ApiError(ErrorKind::out_of_range, "OFFSET_AFTER_LEDGER_END",
                   type + " offset (" + std::to_string(offset) + ") is after ledger end (" +
                       std::to_string(end) + ")");
}

}  // namespace cantonlite::areas::ledger
