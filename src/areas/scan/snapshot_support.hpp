#pragma once
// What the scan handlers over ACS snapshots share (holdings_handlers.cpp, acs_handlers.cpp):
// the snapshot a request names with Scan's 404 texts, the request checks in Scan's words, the
// creating transaction of a contract, and the string page tokens of the v2 routes. Internal to
// the scan area.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "cantonlite/areas/java_time.hpp"
#include "cantonlite/areas/scan/scan_handlers.hpp"

namespace cantonlite::areas::scan::detail {

struct SnapshotQuery {
    std::int64_t migration_id = 0;
    JavaDateTime requested;        // record_time as decoded
    model::Timestamp record_time;  // ... as a ledger time, once convert_record_time() ran
    bool at_or_before = false;
};

// migration_id, record_time and record_time_match of a request body.
[[nodiscard]] SnapshotQuery snapshot_query(const nlohmann::json& body);

// Codec.tryDecode(Codec.OffsetDateTime)(recordTime), the first thing the handler does once the
// body decoded: sets q.record_time, or throws 400 "Failed to decode: cannot convert instant …".
void convert_record_time(SnapshotQuery& q);
// The same for a date-time query parameter.
[[nodiscard]] model::Timestamp ledger_time(const JavaDateTime& t);

// The snapshot a query names, or http::ApiError 404 with Scan's texts ("Failed to find ACS
// snapshot for migration id <m> at <t>" / "No snapshots found before <t>").
[[nodiscard]] store::SnapshotPtr resolve(const Store& store, const SnapshotQuery& q);

// nonEmptyOrFail (400 "Expected '<name>' to contain at least one item, but contained none."),
// then each party's id (400, Canton's text).
void check_parties(const std::vector<std::string>& parties, std::string_view name);

// HttpRequestLimits.MaxRequestArrayItems (Splice 0.9): 400 "Expected '<name>' to contain at most
// 1000 items, but contained <n>."
void check_max_items(std::size_t size, std::string_view name);

// The update id of the transaction that created `c`, if it belongs to `migration_id` (else
// nullopt: a contract imported into that migration).
[[nodiscard]] std::optional<std::string> created_in_update_id(const Store& store,
                                                              const model::Contract& c,
                                                              std::int64_t migration_id);

// The string page tokens of /v2/holdings/state and /v2/state/acs: the row id as a JSON number,
// in base64 (QueryAcsSnapshotPaginationToken: "valid base64 of a JSON long").
[[nodiscard]] std::string encode_page_token(std::int64_t row_id);
// The row id of a token; throws http::ApiError 400 when `token` is not one.
[[nodiscard]] std::int64_t decode_page_token(std::string_view token);

// Throws 400 "Invalid after token, outside of snapshot range (<first> to <last>)." unless
// first <= after <= last.
void check_after_in_range(std::int64_t after, std::int64_t first, std::int64_t last);

// The holdings state routes: v0 (CreatedEvent, int token), v1 (ActiveContract, int token), v2
// (ActiveContract, string token, at most 1000 owners).
enum class HoldingsVersion { v0, v1, v2 };
[[nodiscard]] http::Response holdings_state(const Store& store, const Context& ctx,
                                            HoldingsVersion version);

// The required date-time query parameter `name`, with Pekko's and guardrail's rejections (404
// missing, 400 malformed).
[[nodiscard]] JavaDateTime date_time_param(const Context& ctx, std::string_view name);

// The two query parameters of the snapshot-timestamp routes: `time_name` (a date-time) and
// migration_id, with Pekko's rejections (404 missing, 400 malformed).
struct TimestampParams {
    JavaDateTime time;
    std::int64_t migration_id = 0;
};
[[nodiscard]] TimestampParams timestamp_params(const Context& ctx, std::string_view time_name);

// The answer of the snapshot-timestamp lookups: {"record_time": ...} of `snapshot`, or 404 "No
// snapshots found <relation> <time>" when there is none (relation "before" or "after"; the time
// as the request's OffsetDateTime prints).
[[nodiscard]] http::Response snapshot_time_answer(const store::SnapshotPtr& snapshot,
                                                  std::string_view relation,
                                                  const JavaDateTime& time);

}  // namespace cantonlite::areas::scan::detail
