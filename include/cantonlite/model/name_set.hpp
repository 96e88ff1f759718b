#pragma once
// NameSet: an interned, ordered sequence of Names (a contract's signatories, a node's witnesses),
// 4 bytes.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "cantonlite/model/name.hpp"

namespace cantonlite::model {

// A ledger repeats the same few party sets millions of times ({DSO, owner} on every amulet), so
// each distinct sequence is kept once for the whole process, like a Name's text, and a NameSet is
// its 4-byte handle. Reads like a const vector of Names. Never freed. Thread-safe plain value.
class NameSet {
  public:
    constexpr NameSet() = default;  // no names
    // Interns `names` in the order given.
    explicit NameSet(std::span<const Name> names);
    // The set of `parties` (texts or Names): sorted by text, without repeats.
    template <typename Range>
    [[nodiscard]] static NameSet sorted(const Range& parties) {
        std::vector<Name> names;
        names.reserve(std::size(parties));
        for (const auto& p : parties) names.emplace_back(p);
        std::sort(names.begin(), names.end());
        names.erase(std::unique(names.begin(), names.end()), names.end());
        return NameSet(names);
    }

    [[nodiscard]] std::span<const Name> names() const;
    operator std::span<const Name>() const { return names(); }  // NOLINT: reads as its Names
    [[nodiscard]] const Name* begin() const { return names().data(); }
    [[nodiscard]] const Name* end() const {
        const auto n = names();
        return n.data() + n.size();
    }
    [[nodiscard]] std::size_t size() const { return names().size(); }
    [[nodiscard]] bool empty() const { return id_ == 0; }
    [[nodiscard]] Name operator[](std::size_t i) const { return names()[i]; }
    [[nodiscard]] Name front() const { return names().front(); }
    [[nodiscard]] std::vector<Name> to_vector() const { return {begin(), end()}; }
    // True when `name` is one of them. REQUIRES: sorted (as sorted() makes them).
    [[nodiscard]] bool contains(Name name) const {
        return std::binary_search(begin(), end(), name);
    }
    [[nodiscard]] std::uint32_t id() const { return id_; }

    friend bool operator==(NameSet a, NameSet b) { return a.id_ == b.id_; }

  private:
    std::uint32_t id_ = 0;
};

}  // namespace cantonlite::model

template <>
struct std::hash<cantonlite::model::NameSet> {
    std::size_t operator()(cantonlite::model::NameSet s) const noexcept { return s.id(); }
};
