#pragma once
// What the HTTP list of updates (POST /v2/updates, /v2/updates/flats) and the WebSocket stream of
// /v2/updates share: a GetUpdatesRequest validated and authorized into a plan, and the reads of
// the visible updates of a range.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cantonlite/areas/ledger/ledger_auth.hpp"
#include "cantonlite/areas/ledger/read_requests.hpp"
#include "cantonlite/areas/ledger/update_json.hpp"
#include "cantonlite/areas/release.hpp"
#include "cantonlite/store/ledger_store.hpp"

namespace cantonlite::areas::ledger {

struct UpdatesPlan {
    UpdateReader reader;
    std::int64_t begin_exclusive = 0;
    std::optional<std::int64_t> end_inclusive;  // as asked: none reads to the end (and tails)
    std::int64_t end = 0;                       // end_inclusive, else the ledger end then
    bool descending = false;
};

// The JSON layer's format selection, then authorization (401, 403), the offsets (400, and 400
// OFFSET_AFTER_LEDGER_END / OFFSET_OUT_OF_RANGE), the format (400) and its identifiers (404), in
// the participant's order. Throws http::ApiError. `for_trees`: /v2/updates/trees
// (toGetUpdatesRequest with forTrees: the legacy filter reads LEDGER_EFFECTS with a wildcard per
// party, and the plan's reader renders transactions as trees).
[[nodiscard]] UpdatesPlan plan_updates(const store::LedgerStore& store, const RouteAuth& auth,
                                       const Caller& caller, const UpdatesRequest& request,
                                       const ApiProfile& release, bool for_trees = false);

// The HTTP list of updates: POST /v2/updates (and /v2/updates/flats), or with `for_trees`
// Canton 3.5's POST /v2/updates/trees (JsGetUpdateTreesResponse elements).
[[nodiscard]] http::Response list_updates(const store::LedgerStore& store, const RouteAuth& auth,
                                          const http::RequestContext& ctx,
                                          const ApiProfile& release, bool for_trees);

// ParticipantOffsetValidator.validatePositive: 400 NON_POSITIVE_OFFSET unless `offset` > 0.
void check_positive(std::int64_t offset, const std::string& field);
// 400 NEGATIVE_OFFSET for an offset below zero in `field`.
void check_non_negative(std::int64_t offset, const std::string& field);
// 400 OFFSET_AFTER_LEDGER_END "<type> offset (<offset>) is after ledger end (<end>)".
void check_before_end(const std::string& type, std::int64_t offset, std::int64_t end);

// The Update objects `reader` sees in (begin, end], ascending or descending, at most `limit`;
// `offsets` gets the offset of each when given.
[[nodiscard]] std::vector<std::string> read_range(const store::LedgerStore& store,
                                                  const UpdateReader& reader, std::int64_t begin,
                                                  std::int64_t end, bool descending,
                                                  std::int64_t limit, const ApiProfile& release,
                                                  std::vector<std::int64_t>* offsets = nullptr);

// One element of the list, one message of the stream: {"update": <Update object>}.
[[nodiscard]] std::string update_message(const std::string& update);

// The OffsetCheckpoint a tailing read (no endInclusive) sends once it has caught up with the
// ledger end `offset` (> 0), as an element of the list or a message of the stream:
// {"update":{"OffsetCheckpoint":{"value":{offset, synchronizerTimes}}}}, each synchronizer that
// has an update at or before `offset` with the record time of its latest, in the network's order
// (Canton's IndexServiceImpl.checkpointFlow, over a checkpoint cache that is always current).
[[nodiscard]] std::string offset_checkpoint_message(const store::LedgerStore& store,
                                                    std::int64_t offset);

}  // namespace cantonlite::areas::ledger
