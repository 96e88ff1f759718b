#pragma once
// PositionIndex: finds an element of an indexed sequence by a key the element carries, keeping
// only the element's 4-byte position.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <utility>

#include <boost/unordered/unordered_flat_set.hpp>

namespace cantonlite::store {

// An open-addressing set of positions, hashed and compared by the key each position's element
// holds: `KeyOf{}(context, position)` reads it. A map from the key took its size plus the
// position's in every slot (40 bytes for an update id); this takes 4. The element must be in the
// sequence while its position is inserted, erased or rehashed: insert after appending it, erase
// before removing it (the undo log does both in that order).
//
//   struct IdOf { std::string_view operator()(const Rows* rows, std::uint32_t i) const; };
//   PositionIndex<std::string_view, IdOf, Rows, std::hash<std::string_view>> index(&rows);
template <typename Key, typename KeyOf, typename Context, typename Hash>
class PositionIndex {
    // The hasher and the predicate reach the container through a cell the index owns, which
    // swap() points at the container again (the set's own copies of them cannot be changed).
    struct Hasher {
        using is_transparent = void;
        const Context* const* cell;
        std::size_t operator()(std::uint32_t position) const {
            return Hash{}(KeyOf{}(*cell, position));
        }
        std::size_t operator()(const Key& key) const { return Hash{}(key); }
    };
    struct Equal {
        using is_transparent = void;
        const Context* const* cell;
        bool operator()(std::uint32_t a, std::uint32_t b) const {
            return a == b || KeyOf{}(*cell, a) == KeyOf{}(*cell, b);
        }
        bool operator()(const Key& key, std::uint32_t position) const {
            return key == KeyOf{}(*cell, position);
        }
        bool operator()(std::uint32_t position, const Key& key) const {
            return key == KeyOf{}(*cell, position);
        }
    };
    using Set = boost::unordered_flat_set<std::uint32_t, Hasher, Equal>;

  public:
    explicit PositionIndex(const Context* context)
        : cell_(std::make_unique<const Context*>(context)),
          set_(0, Hasher{cell_.get()}, Equal{cell_.get()}) {}
    PositionIndex(const PositionIndex&) = delete;
    PositionIndex& operator=(const PositionIndex&) = delete;

    [[nodiscard]] std::optional<std::uint32_t> find(const Key& key) const {
        const auto it = set_.find(key);
        if (it == set_.end()) return std::nullopt;
        return *it;
    }
    // False when an element with the same key is indexed already (it stays).
    bool insert(std::uint32_t position) { return set_.insert(position).second; }
    void erase(std::uint32_t position) { set_.erase(position); }
    // Room for `n` positions without a rehash.
    void reserve(std::size_t n) { set_.reserve(n); }
    void clear() { set_.clear(); }
    // Exchanges the positions with `other`'s, whose container exchanged its elements with this
    // one's container: each index keeps its container.
    void swap(PositionIndex& other) noexcept {
        set_.swap(other.set_);  // and the hashers, which now reach the other's cell
        cell_.swap(other.cell_);
        std::swap(*cell_, *other.cell_);
    }
    [[nodiscard]] std::size_t size() const { return set_.size(); }

  private:
    std::unique_ptr<const Context*> cell_;  // the container; before set_, which points at it
    Set set_;
};

}  // namespace cantonlite::store
