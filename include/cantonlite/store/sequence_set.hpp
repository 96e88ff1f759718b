#pragma once
// SequenceSet: a set of contracts' creation sequences, in order, in four bytes an entry, whose
// erase does not move the entries after it.

#include <algorithm>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace cantonlite::store {

// A sorted vector whose erased entries are marked rather than removed, and swept out once they are
// half of it. A holder that spends its oldest amulets and receives new ones (an exchange's) thus
// costs a binary search per spend, where a flat set moved every later entry: 68 KB a spend for a
// holder of 17 000 amulets. New sequences are the largest, so an insert is an append, but for an
// undone erase that puts an old one back.
class SequenceSet {
  public:
    // False when `sequence` is in the set already. REQUIRES: sequence < 2^31.
    bool insert(std::uint32_t sequence) {
        assert(sequence < erased_bit);
        const auto it = find(sequence);
        if (it != entries_.end() && key(*it) == sequence) {
            if (!(*it & erased_bit)) return false;
            *it = sequence;
            --erased_;
            return true;
        }
        entries_.insert(it, sequence);
        return true;
    }

    // False when `sequence` is not in the set.
    bool erase(std::uint32_t sequence) {
        const auto it = find(sequence);
        if (it == entries_.end() || *it != sequence) return false;
        *it |= erased_bit;
        if (++erased_ * 2 > entries_.size()) sweep();
        return true;
    }

    // f(sequence) for each, in order.
    template <class F>
    void for_each(F&& f) const {
        for (const std::uint32_t e : entries_) {
            if (!(e & erased_bit)) f(e);
        }
    }

    [[nodiscard]] std::size_t size() const { return entries_.size() - erased_; }
    [[nodiscard]] bool empty() const { return size() == 0; }
    // The entries held, erased ones included (at most twice size(), plus one).
    [[nodiscard]] std::size_t capacity_used() const { return entries_.size(); }

  private:
    static constexpr std::uint32_t erased_bit = std::uint32_t{1} << 31;

    static std::uint32_t key(std::uint32_t entry) { return entry & ~erased_bit; }

    std::vector<std::uint32_t>::iterator find(std::uint32_t sequence) {
        if (entries_.empty() || key(entries_.back()) < sequence) return entries_.end();
        return std::lower_bound(
            entries_.begin(), entries_.end(), sequence,
            [](std::uint32_t entry, std::uint32_t s) { return key(entry) < s; });
    }

    void sweep() {
        std::erase_if(entries_, [](std::uint32_t e) { return (e & erased_bit) != 0; });
        erased_ = 0;
        if (entries_.capacity() > 2 * entries_.size() + 16) entries_.shrink_to_fit();
    }

    std::vector<std::uint32_t> entries_;  // sorted by key; erased ones carry erased_bit
    std::size_t erased_ = 0;
};

}  // namespace cantonlite::store
