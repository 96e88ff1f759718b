#include "cantonlite/splice/holdings_query.hpp"

#include <algorithm>
#include <limits>
#include <unordered_set>

namespace cantonlite::splice {

HoldingsPage query_holdings(const HoldingsSnapshot& snapshot, const std::vector<Party>& owners,
                            std::optional<std::int64_t> after, std::size_t limit) {
    HoldingsPage page;
    if (snapshot.empty()) return page;
    const std::unordered_set<std::string_view> wanted(owners.begin(), owners.end());
    // First holding to read: the one after `after`; the ACS row it is in.
    const auto start = static_cast<std::size_t>(after ? *after - snapshot.first_row_id() + 1 : 0);
    if (start >= snapshot.size()) return page;
    const std::uint32_t start_acs_row = snapshot.data->acs_rows[start];
    // Each owner's ACS rows (the snapshot's stakeholder index), from the start.
    struct Cursor {
        const std::vector<std::uint32_t>* rows;
        std::size_t at;
    };
    std::vector<Cursor> cursors;
    const auto& index = snapshot.data->acs->rows_by_stakeholder;
    for (const std::string_view owner : wanted) {
        const auto it = index.find(std::string(owner));
        if (it == index.end()) continue;
        const auto& list = it->second;
        cursors.push_back(
            {&list, static_cast<std::size_t>(
                        std::lower_bound(list.begin(), list.end(), start_acs_row) - list.begin())});
    }
    // Merge the stakeholders' row lists in row order, each row once, reading the holdings.
    while (page.rows_read < limit) {
        std::uint32_t next = std::numeric_limits<std::uint32_t>::max();
        for (const Cursor& c : cursors) {
            if (c.at < c.rows->size()) next = std::min(next, (*c.rows)[c.at]);
        }
        if (next == std::numeric_limits<std::uint32_t>::max()) break;
        for (Cursor& c : cursors) {
            if (c.at < c.rows->size() && (*c.rows)[c.at] == next) ++c.at;
        }
        const std::optional<std::uint32_t> i = snapshot.holding_at(next);
        if (!i) continue;  // a contract of another template
        HoldingRow row = snapshot.row(*i);
        ++page.rows_read;
        if (wanted.contains(row.owner.view())) page.rows.push_back(std::move(row));
        if (page.rows_read == limit) page.next_page_token = snapshot.row_id(*i);
    }
    return page;
}

}  // namespace cantonlite::splice
