// Scan's ACS reads: /v1/state/acs (Splice 0.6), /v2/holdings/state and /v2/state/acs (Splice 0.9;
// string page tokens)
// and /v0/state/acs/snapshot-timestamp-after (HttpScanHandler getDateOfFirstSnapshotAfter).
#include <algorithm>
#include <limits>
#include <unordered_set>

#include "cantonlite/areas/scan/scan_handlers.hpp"
#include "cantonlite/areas/scan/scan_json.hpp"
#include "cantonlite/areas/splice_request.hpp"
#include "cantonlite/http/json_text.hpp"
#include "cantonlite/model/ids.hpp"
#include "snapshot_support.hpp"

namespace cantonlite::areas::scan {
namespace {

using http::ApiError;
using http::ErrorKind;

constexpr std::size_t max_request_array_items = 1000;  // HttpRequestLimits.MaxRequestArrayItems

// Java's String.split(":"): trailing empty strings dropped.
std::vector<std::string> java_split(const std::string& s) {
    std::vector<std::string> parts;
    std::size_t start = 0;
    for (;;) {
        const std::size_t colon = s.find(':', start);
        parts.push_back(
            s.substr(start, colon == std::string::npos ? std::string::npos : colon - start));
        if (colon == std::string::npos) break;
        start = colon + 1;
    }
    while (!parts.empty() && parts.back().empty()) parts.pop_back();
    return parts;
}

// Merges sorted row-index lists, each index once, from `start`, until `accept`ed `limit` rows.
template <class Accept>
std::vector<std::uint32_t> merge_rows(const std::vector<const std::vector<std::uint32_t>*>& lists,
                                      std::uint32_t start, std::size_t limit, Accept accept) {
    std::vector<std::size_t> at;
    at.reserve(lists.size());
    for (const auto* list : lists) {
        at.push_back(static_cast<std::size_t>(std::lower_bound(list->begin(), list->end(), start) -
                                              list->begin()));
    }
    std::vector<std::uint32_t> out;
    while (out.size() < limit) {
        std::uint32_t next = std::numeric_limits<std::uint32_t>::max();
        for (std::size_t i = 0; i < lists.size(); ++i) {
            if (at[i] < lists[i]->size()) next = std::min(next, (*lists[i])[at[i]]);
        }
        if (next == std::numeric_limits<std::uint32_t>::max()) break;
        for (std::size_t i = 0; i < lists.size(); ++i) {
            if (at[i] < lists[i]->size() && (*lists[i])[at[i]] == next) ++at[i];
        }
        if (accept(next)) out.push_back(next);
    }
    return out;
}

}  // namespace

namespace detail {

void check_max_items(std::size_t size, std::string_view name) {
    if (size > max_request_array_items) {
        throw ApiError(ErrorKind::invalid_argument, "",
                       "Expected '" + std::string(name) + "' to contain at most " +
                           std::to_string(max_request_array_items) + " items, but contained " +
                           std::to_string(size) + ".");
    }
}

std::string encode_page_token(std::int64_t row_id) {
    return model::base64_encode(std::to_string(row_id));
}

std::int64_t decode_page_token(std::string_view token) {
    const std::optional<std::string> text =
        token.empty() ? std::nullopt : model::base64_decode(token);
    const nlohmann::json value =
        text ? nlohmann::json::parse(*text, nullptr, false) : nlohmann::json();
    if (!text || value.is_discarded() || !value.is_number_integer() ||
        (value.is_number_unsigned() &&
         value.get<std::uint64_t>() >
             static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))) {
        throw ApiError(ErrorKind::invalid_argument, "",
                       "Invalid pagination token: " + std::string(token));
    }
    return value.get<std::int64_t>();
}

}  // namespace detail

http::Response post_holdings_state_v2(const Store& store, const Context& ctx) {
    return detail::holdings_state(store, ctx, detail::HoldingsVersion::v2);
}

namespace {

// /v1/state/acs (Splice 0.6; int64 page tokens) and /v2/state/acs (0.9; string ones): the same
// query and rows (HttpScanHandler getAcsSnapshotAtV1, getAcsSnapshotAtV2).
http::Response state_acs(const Store& store, const Context& ctx, bool v2) {
    const nlohmann::json body = json_body(ctx.request);
    detail::SnapshotQuery q = detail::snapshot_query(body);
    std::optional<std::string> after_token;
    std::optional<std::int64_t> after_row;
    if (v2) {
        after_token = optional_string_member(body, "after");
    } else {
        after_row = optional_int64_member(body, "after");
    }
    const std::int32_t page_size = int32_member(body, "page_size");
    const std::vector<std::string> parties = optional_string_array_member(body, "party_ids");
    const std::vector<std::string> templates = optional_string_array_member(body, "templates");
    // The handler checks the arrays' bounds before anything else (once the body decoded).
    detail::check_max_items(parties.size(), "party_ids");
    detail::check_max_items(templates.size(), "templates");
    detail::convert_record_time(q);
    // The real order: at_or_before resolves the snapshot first; then the page size, the parties
    // and the templates are read; then the exact snapshot is looked up and the token checked.
    store::SnapshotPtr snapshot = q.at_or_before ? detail::resolve(store, q) : nullptr;
    const std::size_t limit = page_limit(page_size);
    for (const std::string& p : parties) check_party(p);
    for (const std::string& t : templates) {
        if (java_split(t).size() != 3) {
            throw ApiError(
                ErrorKind::invalid_argument, "",
                "Malformed template_id, expected 'package_name:module_name:entity_name'");
        }
    }
    if (!snapshot) snapshot = detail::resolve(store, q);
    std::optional<std::int64_t> after = after_row;
    if (after_token) after = detail::decode_page_token(*after_token);
    if (after) {
        detail::check_after_in_range(*after, snapshot->first_acs_row_id(),
                                     snapshot->last_acs_row_id());
    }
    const store::AcsRows& acs = snapshot->acs;
    const auto start =
        static_cast<std::uint32_t>(after ? *after - snapshot->first_acs_row_id() + 1 : 0);
    const std::unordered_set<std::string_view> wanted_parties(parties.begin(), parties.end());
    const auto has_party = [&](std::uint32_t row) {
        if (wanted_parties.empty()) return true;
        return std::any_of(acs.rows[row]->stakeholders.begin(), acs.rows[row]->stakeholders.end(),
                           [&](model::Name s) { return wanted_parties.contains(s.view()); });
    };
    std::vector<std::uint32_t> rows;
    if (!templates.empty() || !parties.empty()) {
        // Driven by the template lists when there are templates, else by the parties' lists.
        std::vector<const std::vector<std::uint32_t>*> lists;
        std::unordered_set<std::string_view> seen;
        for (const std::string& key : templates.empty() ? parties : templates) {
            if (!seen.insert(key).second) continue;
            if (templates.empty()) {
                if (auto it = acs.rows_by_stakeholder.find(key);
                    it != acs.rows_by_stakeholder.end())
                    lists.push_back(&it->second);
            } else if (auto it = acs.rows_by_template.find(key); it != acs.rows_by_template.end()) {
                lists.push_back(&it->second);
            }
        }
        rows = merge_rows(lists, start, limit,
                          [&](std::uint32_t row) { return templates.empty() || has_party(row); });
    } else {
        for (std::uint32_t row = start; row < acs.rows.size() && rows.size() < limit; ++row) {
            rows.push_back(row);
        }
    }
    std::string out = "{";
    http::append_string_field(out, "record_time",
                              model::format_offset_date_time(snapshot->record_time), true);
    http::append_int_field(out, "migration_id", q.migration_id);
    http::append_key(out, "created_events");
    out += '[';
    for (std::size_t i = 0; i < rows.size(); ++i) {
        if (i > 0) out += ',';
        const model::Contract& c = *acs.rows[rows[i]];
        append_active_contract(out, c,
                               detail::created_in_update_id(store, c, snapshot->migration_id));
    }
    out += ']';
    if (rows.size() != limit) {
        http::append_null_field(out, "next_page_token");
    } else if (v2) {
        http::append_string_field(out, "next_page_token",
                                  detail::encode_page_token(snapshot->acs_row_id(rows.back())));
    } else {
        http::append_int_field(out, "next_page_token", snapshot->acs_row_id(rows.back()));
    }
    out += '}';
    return http::Response::json(200, std::move(out));
}

}  // namespace

http::Response post_state_acs_v1(const Store& store, const Context& ctx) {
    return state_acs(store, ctx, false);
}

http::Response post_state_acs_v2(const Store& store, const Context& ctx) {
    return state_acs(store, ctx, true);
}

http::Response get_snapshot_timestamp_after(const Store& store, const Context& ctx) {
    const detail::TimestampParams p = detail::timestamp_params(ctx, "after");
    return detail::snapshot_time_answer(
        store.snapshot_after(p.migration_id, detail::ledger_time(p.time)), "after", p.time);
}

}  // namespace cantonlite::areas::scan
