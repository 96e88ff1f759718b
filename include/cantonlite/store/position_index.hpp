#pragma once
// PositionIndex: finds an element of an indexed sequence by a key the element carries, keeping
// only the element's position (and, for a key costly to derive, 32 bits of its hash).

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <type_traits>
#include <utility>

#include <boost/unordered/unordered_flat_set.hpp>

namespace cantonlite::store {

// An open-addressing set of positions, hashed and compared by the key each position's element
// holds: `KeyOf{}(context, position)` reads it. A map from the key took its size plus the
// position's in every slot (40 bytes for an update id). With `keep_hashes`, a slot takes 8: the
// position and 32 bits of its key's hash, so that a rehash reads no key again and two keys are
// compared only when their hashes agree, for keys that are costly to derive (an update id is the
// SHA-256 of its update, or its kept text parsed: with the position alone, a fork's store spent a
// sixth of its time deriving ids again as its index grew). Without, a slot takes 4, the position
// alone, for keys that are cheap to read again (a Name, which hashes as its number). The element
// must be in the sequence while its position is inserted, erased or found: insert after appending
// it, erase before removing it (the undo log does both in that order).
//
//   struct IdOf { std::string_view operator()(const Rows* rows, std::uint32_t i) const; };
//   PositionIndex<std::string_view, IdOf, Rows, std::hash<std::string_view>> index(&rows);
template <typename Key, typename KeyOf, typename Context, typename Hash, bool keep_hashes = true>
class PositionIndex {
    // A slot: with keep_hashes, the hash's 32 bits high and the position low; else the position.
    using Slot = std::conditional_t<keep_hashes, std::uint64_t, std::uint32_t>;
    static std::uint32_t short_hash(const Key& key) {
        const std::size_t h = Hash{}(key);
        return static_cast<std::uint32_t>(h ^ (h >> 32));
    }
    static std::uint32_t position_of(Slot s) { return static_cast<std::uint32_t>(s); }

    // The hasher and the predicate reach the container through a cell the index owns, which
    // swap() points at the container again (the set's own copies of them cannot be changed).
    struct Hasher {
        using is_transparent = void;
        const Context* const* cell;
        std::size_t operator()(Slot s) const {
            if constexpr (keep_hashes) {
                return static_cast<std::uint32_t>(s >> 32);
            } else {
                return Hash{}(KeyOf{}(*cell, s));
            }
        }
        std::size_t operator()(const Key& key) const {
            if constexpr (keep_hashes) {
                return short_hash(key);
            } else {
                return Hash{}(key);
            }
        }
    };
    struct Equal {
        using is_transparent = void;
        const Context* const* cell;
        bool operator()(Slot a, Slot b) const {
            if (a == b) return true;
            if constexpr (keep_hashes) {
                if ((a >> 32) != (b >> 32)) return false;
            }
            return KeyOf{}(*cell, position_of(a)) == KeyOf{}(*cell, position_of(b));
        }
        bool operator()(const Key& key, Slot s) const {
            return key == KeyOf{}(*cell, position_of(s));
        }
        bool operator()(Slot s, const Key& key) const {
            return key == KeyOf{}(*cell, position_of(s));
        }
    };
    using Set = boost::unordered_flat_set<Slot, Hasher, Equal>;

    // The slot of the element at `position`.
    Slot slot_of(std::uint32_t position) const {
        if constexpr (keep_hashes) {
            return Slot{short_hash(KeyOf{}(*cell_, position))} << 32 | position;
        } else {
            return position;
        }
    }

  public:
    explicit PositionIndex(const Context* context)
        : cell_(std::make_unique<const Context*>(context)),
          set_(0, Hasher{cell_.get()}, Equal{cell_.get()}) {}
    PositionIndex(const PositionIndex&) = delete;
    PositionIndex& operator=(const PositionIndex&) = delete;

    [[nodiscard]] std::optional<std::uint32_t> find(const Key& key) const {
        const auto it = set_.find(key);
        if (it == set_.end()) return std::nullopt;
        return position_of(*it);
    }
    // False when an element with the same key is indexed already (it stays).
    bool insert(std::uint32_t position) { return set_.insert(slot_of(position)).second; }
    // The same with its key's hash_of() computed by the caller, from what it has at hand, so that
    // no key is read unless two hashes agree. REQUIRES: `hash` is hash_of(the element's key), else
    // the element is not found by its key.
    bool insert(std::uint32_t position, std::uint32_t hash) requires keep_hashes {
        return set_.insert(Slot{hash} << 32 | position).second;
    }
    // The 32 bits of a key's hash that a slot keeps.
    [[nodiscard]] static std::uint32_t hash_of(const Key& key) requires keep_hashes {
        return short_hash(key);
    }
    void erase(std::uint32_t position) { set_.erase(slot_of(position)); }
    // Room for `n` positions without a rehash.
    void reserve(std::size_t n) { set_.reserve(n); }
    void clear() { set_.clear(); }
    // Exchanges the positions with `other`'s, whose container exchanged its elements with this
    // one's container: each index keeps its container.
    void swap(PositionIndex& other) noexcept {
        set_.swap(other.set_);  // and the functors, which now reach the other's cell
        cell_.swap(other.cell_);
        std::swap(*cell_, *other.cell_);
    }
    [[nodiscard]] std::size_t size() const { return set_.size(); }

  private:
    std::unique_ptr<const Context*> cell_;  // the container; before set_, which points at it
    Set set_;
};

}  // namespace cantonlite::store
