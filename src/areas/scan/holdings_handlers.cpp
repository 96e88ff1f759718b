// Holdings state and summaries over Scan's ACS snapshots (splice-behavior.md op 3, op 6 scan side).
#include <optional>
#include <string_view>
#include <system_error>
#include <unordered_map>

#include "cantonlite/areas/scan/scan_handlers.hpp"
#include "cantonlite/areas/scan/scan_json.hpp"
#include "cantonlite/areas/splice_request.hpp"
#include "cantonlite/http/json_text.hpp"
#include "cantonlite/model/value_json.hpp"
#include "cantonlite/splice/holdings_query.hpp"
#include "cantonlite/util/java_long.hpp"
#include "snapshot_support.hpp"

namespace cantonlite::areas::scan {
namespace {

using http::ApiError;
using http::ErrorKind;

constexpr std::int64_t summary_limit = 1000;  // HardLimit of the summary queries

http::Response holdings_state_impl(const Store& store, const Context& ctx,
                                   detail::HoldingsVersion version) {
    using detail::HoldingsVersion;
    const nlohmann::json body = json_body(ctx.request);
    const bool v2 = version == HoldingsVersion::v2;
    detail::SnapshotQuery q = detail::snapshot_query(body);
    std::optional<std::int64_t> after;
    std::optional<std::string> after_token;
    if (v2) {
        after_token = optional_string_member(body, "after");
    } else {
        after = optional_int64_member(body, "after");
    }
    const std::int32_t page_size = int32_member(body, "page_size");
    const std::vector<std::string> owners = string_array_member(body, "owner_party_ids");
    // The v2 handler checks the array's bound before anything else (once the body decoded).
    if (v2) detail::check_max_items(owners.size(), "owner_party_ids");
    detail::convert_record_time(q);
    // The real order of checks: at_or_before resolves the snapshot first.
    store::SnapshotPtr snapshot = q.at_or_before ? detail::resolve(store, q) : nullptr;
    const std::size_t limit = page_limit(page_size);
    detail::check_parties(owners, "ownerPartyIds");
    if (!snapshot) snapshot = detail::resolve(store, q);
    const splice::HoldingsSnapshotPtr holdings = splice::views(store).holdings(*snapshot);
    if (after_token) after = detail::decode_page_token(*after_token);
    if (after) {
        detail::check_after_in_range(*after, holdings->first_row_id(), holdings->last_row_id());
    }
    const splice::HoldingsPage page = splice::query_holdings(*holdings, owners, after, limit);
    std::string out = "{";
    http::append_string_field(out, "record_time",
                              model::format_offset_date_time(snapshot->record_time), true);
    http::append_int_field(out, "migration_id", q.migration_id);
    http::append_key(out, "created_events");
    out += '[';
    for (std::size_t i = 0; i < page.rows.size(); ++i) {
        if (i > 0) out += ',';
        const model::Contract& c = *page.rows[i].contract;
        const std::optional<std::string> update_id =
            detail::created_in_update_id(store, c, snapshot->migration_id);
        if (version != HoldingsVersion::v0) {
            append_active_contract(out, c, update_id);
        } else {
            // Imported contracts carry the import update's event id (update id = contract id).
            append_created_event(out, c,
                                 update_id
                                     ? "#" + *update_id + ":" + std::to_string(c.created_node_id)
                                     : "#" + c.contract_id + ":0",
                                 model::ValueEncoding::codegen);
        }
    }
    out += ']';
    if (!page.next_page_token) {
        http::append_null_field(out, "next_page_token");
    } else if (v2) {
        http::append_string_field(out, "next_page_token",
                                  detail::encode_page_token(*page.next_page_token));
    } else {
        http::append_int_field(out, "next_page_token", *page.next_page_token);
    }
    out += '}';
    return http::Response::json(200, std::move(out));
}

struct Totals {
    model::Decimal unlocked;
    model::Decimal locked;
    model::Decimal fees_unlocked;
    model::Decimal fees_locked;
};

// The holding fee a row has accrued by `round`: rate × rounds since creation, at most the amount.
model::Decimal holding_fee(const splice::HoldingRow& row, model::Decimal amount,
                           std::int64_t round) {
    const std::int64_t rounds = std::max<std::int64_t>(0, round - row.created_round());
    const auto fee = model::Decimal::from_units(row.rate_per_round().units() * rounds);
    return std::min(fee, amount);
}

http::Response holdings_summary(const Store& store, const Context& ctx, bool v1) {
    const nlohmann::json body = json_body(ctx.request);
    detail::SnapshotQuery q = detail::snapshot_query(body);
    const std::vector<std::string> owners = string_array_member(body, "owner_party_ids");
    detail::convert_record_time(q);
    detail::check_parties(owners, "partyIds");
    const store::SnapshotPtr snapshot = detail::resolve(store, q);
    const splice::HoldingsPage page = splice::query_holdings(
        *splice::views(store).holdings(*snapshot), owners, std::nullopt, summary_limit + 1);
    if (page.rows_read > summary_limit) {
        throw ApiError(ErrorKind::failed_precondition, "",
                       "Size of the result exceeded the limit in queryAcsSnapshot. Result size: " +
                           std::to_string(page.rows_read) +
                           ". Limit: " + std::to_string(summary_limit));
    }
    const std::int64_t round = store.round_at(snapshot->record_time);
    std::vector<std::pair<std::string_view, Totals>> totals;  // first-seen order
    std::unordered_map<std::string_view, std::size_t> index;
    for (const splice::HoldingRow& row : page.rows) {
        const auto [it, inserted] = index.try_emplace(row.owner, totals.size());
        if (inserted) totals.emplace_back(row.owner, Totals{});
        Totals& t = totals[it->second].second;
        const model::Decimal amount = row.amount();
        (row.locked ? t.locked : t.unlocked) = (row.locked ? t.locked : t.unlocked) + amount;
        (row.locked ? t.fees_locked : t.fees_unlocked) =
            (row.locked ? t.fees_locked : t.fees_unlocked) + holding_fee(row, amount, round);
    }
    std::string out = "{";
    http::append_string_field(out, "record_time",
                              model::format_offset_date_time(snapshot->record_time), true);
    http::append_int_field(out, "migration_id", q.migration_id);
    if (!v1) http::append_int_field(out, "computed_as_of_round", round);
    http::append_key(out, "summaries");
    out += '[';
    for (std::size_t i = 0; i < totals.size(); ++i) {
        const auto& [party, t] = totals[i];
        out += i > 0 ? ",{" : "{";
        http::append_string_field(out, "party_id", party, true);
        http::append_string_field(out, "total_unlocked_coin", t.unlocked.to_scaled_string());
        http::append_string_field(out, "total_locked_coin", t.locked.to_scaled_string());
        http::append_string_field(out, "total_coin_holdings",
                                  (t.unlocked + t.locked).to_scaled_string());
        if (!v1) {
            http::append_string_field(out, "accumulated_holding_fees_unlocked",
                                      t.fees_unlocked.to_scaled_string());
            http::append_string_field(out, "accumulated_holding_fees_locked",
                                      t.fees_locked.to_scaled_string());
            http::append_string_field(out, "accumulated_holding_fees_total",
                                      (t.fees_unlocked + t.fees_locked).to_scaled_string());
            http::append_string_field(out, "total_available_coin",
                                      (t.unlocked - t.fees_unlocked).to_scaled_string());
        }
        out += '}';
    }
    out += "]}";
    return http::Response::json(200, std::move(out));
}

}  // namespace

namespace detail {

SnapshotQuery snapshot_query(const nlohmann::json& body) {
    SnapshotQuery q;
    q.migration_id = int64_member(body, "migration_id");
    q.requested = date_time_member(body, "record_time");
    q.at_or_before = at_or_before_member(body);
    return q;
}

model::Timestamp ledger_time(const JavaDateTime& t) {
    auto converted = daml_timestamp(t);
    if (auto* error = std::get_if<std::string>(&converted)) {
        // Codec.failedToDecode: Status.INVALID_ARGUMENT, thrown.
        throw ApiError(ErrorKind::invalid_argument, "", "Failed to decode: " + *error);
    }
    return std::get<model::Timestamp>(converted);
}

void convert_record_time(SnapshotQuery& q) {
    q.record_time = ledger_time(q.requested);
}

store::SnapshotPtr resolve(const Store& store, const SnapshotQuery& q) {
    if (auto s = store.snapshot(q.migration_id, q.record_time, q.at_or_before)) return s;
    if (q.at_or_before) {
        throw ApiError(ErrorKind::not_found, "", "No snapshots found before " + q.requested.text)
            .as_returned();
    }
    throw ApiError(ErrorKind::not_found, "",
                   "Failed to find ACS snapshot for migration id " +
                       std::to_string(q.migration_id) + " at " +
                       model::format_instant(q.record_time));
}

void check_parties(const std::vector<std::string>& parties, std::string_view name) {
    if (parties.empty()) {
        throw ApiError(ErrorKind::invalid_argument, "",
                       "Expected '" + std::string(name) +
                           "' to contain at least one item, but contained none.");
    }
    for (const std::string& p : parties) check_party(p);
}

std::optional<std::string> created_in_update_id(const Store& store, const model::Contract& c,
                                                std::int64_t migration_id) {
    if (c.created_offset == 0) {  // of a fork's base: the source's update, in its migration
        if (migration_id != store.fork_base_migration_id()) return std::nullopt;
        const auto id = store.fork_base_created_in(c.contract_id.view());
        return id ? std::optional(id->str()) : std::nullopt;
    }
    const store::UpdatePtr update = store.update_at(c.created_offset);
    const auto* tx = update ? std::get_if<store::Transaction>(update.get()) : nullptr;
    if (tx == nullptr || tx->migration_id != migration_id) return std::nullopt;
    return tx->update_id().str();
}

void check_after_in_range(std::int64_t after, std::int64_t first, std::int64_t last) {
    if (after < first || after > last) {
        throw ApiError(ErrorKind::invalid_argument, "",
                       "Invalid after token, outside of snapshot range (" + std::to_string(first) +
                           " to " + std::to_string(last) + ").");
    }
}

http::Response holdings_state(const Store& store, const Context& ctx, HoldingsVersion version) {
    return holdings_state_impl(store, ctx, version);
}

}  // namespace detail

http::Response post_holdings_state_v0(const Store& store, const Context& ctx) {
    return detail::holdings_state(store, ctx, detail::HoldingsVersion::v0);
}

http::Response post_holdings_state_v1(const Store& store, const Context& ctx) {
    return detail::holdings_state(store, ctx, detail::HoldingsVersion::v1);
}

http::Response post_holdings_summary_v0(const Store& store, const Context& ctx) {
    return holdings_summary(store, ctx, false);
}

http::Response post_holdings_summary_v1(const Store& store, const Context& ctx) {
    return holdings_summary(store, ctx, true);
}

namespace detail {

http::Response snapshot_time_answer(const store::SnapshotPtr& snapshot, std::string_view relation,
                                    const JavaDateTime& time) {
    if (!snapshot) {
        throw ApiError(ErrorKind::not_found, "",
                       "No snapshots found " + std::string(relation) + " " + time.text)
            .as_returned();
    }
    std::string out = "{";
    http::append_string_field(out, "record_time",
                              model::format_offset_date_time(snapshot->record_time), true);
    out += '}';
    return http::Response::json(200, std::move(out));
}

namespace {
// Pekko's rejection of a query parameter that is missing.
[[noreturn]] void missing_param(std::string_view name) {
    throw http::DecodeError(
        "Request is missing required query parameter '" + std::string(name) + "'", 404);
}
}  // namespace

JavaDateTime date_time_param(const Context& ctx, std::string_view name) {
    const auto text = ctx.request.query_param(name);
    if (!text) missing_param(name);
    // A string parameter: guardrail wraps it as a JSON string and decodes it with circe (an empty
    // path), here its Decoder[OffsetDateTime].
    auto time = parse_guardrail_date_time(*text);
    if (auto* error = std::get_if<std::string>(&time)) {
        throw http::DecodeError("The query parameter '" + std::string(name) +
                                "' was malformed:\nDecodingFailure at : " + *error);
    }
    return std::get<JavaDateTime>(std::move(time));
}

TimestampParams timestamp_params(const Context& ctx, std::string_view time_name) {
    // guardrail's parameter directives, in the yaml's order; Pekko's rejections for each.
    JavaDateTime time = date_time_param(ctx, time_name);
    const auto migration = ctx.request.query_param("migration_id");
    // An empty number is Pekko's NoContentException: missing, as an absent one.
    if (!migration || migration->empty()) missing_param("migration_id");
    const std::string migration_text = *migration;
    const std::optional<std::int64_t> migration_id = util::java_parse_long(migration_text);
    if (!migration_id) {
        throw http::DecodeError("The query parameter 'migration_id' was malformed:\n'" +
                                migration_text + "' is not a valid 64-bit signed integer value");
    }
    return TimestampParams{.time = std::move(time), .migration_id = *migration_id};
}

}  // namespace detail

http::Response get_snapshot_timestamp(const Store& store, const Context& ctx) {
    const detail::TimestampParams p = detail::timestamp_params(ctx, "before");
    return detail::snapshot_time_answer(
        store.snapshot(p.migration_id, detail::ledger_time(p.time), true), "before", p.time);
}

}  // namespace cantonlite::areas::scan
