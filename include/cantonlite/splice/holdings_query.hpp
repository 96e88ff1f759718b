#pragma once
// Scan's holdings query over one ACS snapshot (../shared/docs/reference/splice-behavior.md op 3).

#include <cstdint>
#include <optional>
#include <vector>

#include "cantonlite/splice/splice_views.hpp"

namespace cantonlite::splice {

struct HoldingsPage {
    std::vector<HoldingRow> rows;                 // owned by one of the owners, in row order
    std::size_t rows_read = 0;                    // rows of the page before the owner filter
    std::optional<std::int64_t> next_page_token;  // the last row read, when `limit` were read
};

// Reads, after row id `after` (none: from the first row), at most `limit` rows whose
// stakeholders include one of `owners`, as Scan's SQL does, then keeps the rows owned by one of
// `owners` (a lock holder that is no owner sees nothing). The page may therefore be shorter than
// `limit` and still carry a token. O(owners × log rows + limit). Snapshots are immutable: no
// lock needed. REQUIRES: `after`, if given, within [first_row_id, last_row_id].
[[nodiscard]] HoldingsPage query_holdings(const HoldingsSnapshot& snapshot,
                                          const std::vector<Party>& owners,
                                          std::optional<std::int64_t> after, std::size_t limit);

}  // namespace cantonlite::splice
