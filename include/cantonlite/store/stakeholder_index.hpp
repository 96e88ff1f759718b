#pragma once
// The index of a snapshot's rows by stakeholder, shared by the store's ACS snapshots and the
// views that extensions materialise beside them.

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include <boost/unordered/unordered_flat_map.hpp>

#include "cantonlite/model/name.hpp"
#include "cantonlite/model/name_set.hpp"

namespace cantonlite::store {

// For each party, the indexes of the rows it is a stakeholder of (`stakeholders_of(row)`, a
// NameSet), in row order. Rows share few sets of stakeholders (an owner's holdings: the owner and
// the DSO): each row's set is found by its id, each distinct set's parties are looked up once in
// all, and each party's text is spelt once.
template <typename Row, typename StakeholdersOf>
std::unordered_map<std::string, std::vector<std::uint32_t>> index_by_stakeholder(
    const std::vector<Row>& rows, StakeholdersOf stakeholders_of) {
    boost::unordered_flat_map<std::uint32_t, std::uint32_t> set_at;  // by set id, into `sets`
    std::vector<model::NameSet> sets;
    std::vector<std::size_t> rows_of_set;
    std::vector<std::uint32_t> row_set(rows.size());
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const model::NameSet& set = stakeholders_of(rows[i]);
        const auto [it, added] =
            set_at.try_emplace(set.id(), static_cast<std::uint32_t>(sets.size()));
        if (added) {
            sets.push_back(set);
            rows_of_set.push_back(0);
        }
        row_set[i] = it->second;
        ++rows_of_set[it->second];
    }
    // Counted first, so that each list takes what it holds (the lists live as long as the
    // snapshot; grown by doubling they kept a quarter more on average).
    std::unordered_map<model::Name, std::size_t> counts;
    for (std::size_t k = 0; k < sets.size(); ++k) {
        for (const model::Name p : sets[k]) counts[p] += rows_of_set[k];
    }
    std::unordered_map<model::Name, std::vector<std::uint32_t>> by_name;
    for (const auto& [party, count] : counts) by_name[party].reserve(count);
    std::vector<std::vector<std::vector<std::uint32_t>*>> lists_of_set(sets.size());
    for (std::size_t k = 0; k < sets.size(); ++k) {
        for (const model::Name p : sets[k]) lists_of_set[k].push_back(&by_name[p]);
    }
    for (std::size_t i = 0; i < rows.size(); ++i) {
        for (std::vector<std::uint32_t>* list : lists_of_set[row_set[i]])
            list->push_back(static_cast<std::uint32_t>(i));
    }
    std::unordered_map<std::string, std::vector<std::uint32_t>> out;
    out.reserve(by_name.size());
    for (auto& [party, indexes] : by_name) out.emplace(party.str(), std::move(indexes));
    return out;
}

}  // namespace cantonlite::store
