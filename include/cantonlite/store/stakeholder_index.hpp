#pragma once
// The index of a snapshot's rows by stakeholder, shared by the store's ACS snapshots and the
// views that extensions materialise beside them.

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "cantonlite/model/name.hpp"

namespace cantonlite::store {

// For each party, the indexes of the rows it is a stakeholder of (`stakeholders_of(row)`, a range
// of Names), in row order: grouped by Name, then keyed by the party's text once per party rather
// than once per row.
template <typename Row, typename StakeholdersOf>
std::unordered_map<std::string, std::vector<std::uint32_t>> index_by_stakeholder(
    const std::vector<Row>& rows, StakeholdersOf stakeholders_of) {
    // Counted first, so that each list takes what it holds (the lists live as long as the
    // snapshot; grown by doubling they kept a quarter more on average).
    std::unordered_map<model::Name, std::vector<std::uint32_t>> by_name;
    std::unordered_map<model::Name, std::size_t> counts;
    for (const Row& row : rows) {
        for (const model::Name p : stakeholders_of(row)) ++counts[p];
    }
    for (const auto& [party, count] : counts) by_name[party].reserve(count);
    for (std::size_t i = 0; i < rows.size(); ++i) {
        for (const model::Name p : stakeholders_of(rows[i])) {
            by_name[p].push_back(static_cast<std::uint32_t>(i));
        }
    }
    std::unordered_map<std::string, std::vector<std::uint32_t>> out;
    out.reserve(by_name.size());
    for (auto& [party, indexes] : by_name) out.emplace(party.str(), std::move(indexes));
    return out;
}

}  // namespace cantonlite::store
