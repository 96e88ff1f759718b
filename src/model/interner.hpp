#pragma once
// Interner<T>: the process-wide table behind Name (T = char) and NameSet (T = Name). Each distinct
// sequence of T is kept once and numbered; reading a sequence by its number takes no lock.

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <span>
#include <stdexcept>
#include <string_view>
#include <type_traits>
#include <vector>

namespace cantonlite::model::detail {

// Sequences live in an arena of large blocks (no allocation per sequence); their views in fixed
// segments that never move, so a reader finds one without a lock; and an open-addressing table of
// numbers, hashed by contents, for interning, under a lock: 4 bytes a slot, where a node-based map
// took about 56 bytes an entry. Number 0 is the empty sequence. Never shrinks.
template <typename T>
class Interner {
    static_assert(std::is_trivially_copyable_v<T>, "compared and hashed as bytes");

  public:
    using View = std::span<const T>;

    Interner() { intern_locked({}); }

    View get(std::uint32_t id) const {
        const View* segment = segments_[id >> segment_bits].load(std::memory_order_acquire);
        return segment[id & segment_mask];
    }

    std::optional<std::uint32_t> find(View items) const {
        const std::shared_lock lock(mutex_);
        const std::string_view key = bytes(items);
        const std::size_t at = probe(key, hash(key));
        if (slots_[at] == 0) return std::nullopt;
        return slots_[at] - 1;
    }

    std::uint32_t intern(View items) {
        if (const auto id = find(items)) return *id;
        const std::unique_lock lock(mutex_);
        return intern_locked(items);
    }

  private:
    static constexpr unsigned segment_bits = 16;
    static constexpr std::uint32_t segment_mask = (1U << segment_bits) - 1;
    static constexpr std::size_t segment_count = std::size_t{1} << (32 - segment_bits);
    static constexpr std::size_t block_items = (std::size_t{1} << 20) / sizeof(T);

    static std::string_view bytes(View items) {
        return {reinterpret_cast<const char*>(items.data()), items.size_bytes()};
    }

    static std::size_t hash(std::string_view key) { return std::hash<std::string_view>{}(key); }

    // The slot of `key` (hashed `h`): the one holding its number, else the empty one where it
    // goes. REQUIRES: mutex_ held; the table is never full.
    std::size_t probe(std::string_view key, std::size_t h) const {
        const std::size_t mask = slots_.size() - 1;
        for (std::size_t i = h & mask;; i = (i + 1) & mask) {
            const std::uint32_t slot = slots_[i];
            if (slot == 0 || bytes(get(slot - 1)) == key) return i;
        }
    }

    // Doubles the table and places every number again. REQUIRES: mutex_ held exclusively.
    void grow() {
        std::vector<std::uint32_t> old(slots_.size() * 2, 0);
        old.swap(slots_);
        for (const std::uint32_t slot : old) {
            if (slot == 0) continue;
            const std::string_view key = bytes(get(slot - 1));
            slots_[probe(key, hash(key))] = slot;
        }
    }

    // REQUIRES: mutex_ held exclusively.
    std::uint32_t intern_locked(View items) {
        const std::string_view key = bytes(items);
        const std::size_t h = hash(key);
        std::size_t at = probe(key, h);
        if (slots_[at] != 0) return slots_[at] - 1;
        const std::uint32_t id = next_id_;
        if (id >> segment_bits >= segment_count) throw std::length_error("too many names");
        const View stored = store(items);
        auto& segment = segments_[id >> segment_bits];
        View* entries = segment.load(std::memory_order_relaxed);
        if (entries == nullptr) {
            entries = new View[std::size_t{1} << segment_bits];
            segment.store(entries, std::memory_order_release);
        }
        entries[id & segment_mask] = stored;
        ++next_id_;
        if (2 * std::size_t{next_id_} > slots_.size()) {  // at most half full
            grow();
            at = probe(key, h);
        }
        slots_[at] = id + 1;
        return id;
    }

    // A copy of `items` in the arena. REQUIRES: mutex_ held exclusively.
    View store(View items) {
        if (items.size() > block_items / 4) {  // a long sequence gets a block of its own
            T* block = new T[items.size()];
            std::copy(items.begin(), items.end(), block);
            return {block, items.size()};
        }
        if (block_free_ < items.size()) {
            block_next_ = new T[block_items];
            block_free_ = block_items;
        }
        T* at = block_next_;
        std::copy(items.begin(), items.end(), at);
        block_next_ += items.size();
        block_free_ -= items.size();
        return {at, items.size()};
    }

    mutable std::shared_mutex mutex_;
    std::vector<std::uint32_t> slots_ = std::vector<std::uint32_t>(1024, 0);  // number + 1; guarded
    std::uint32_t next_id_ = 0;                                               // guarded by mutex_
    T* block_next_ = nullptr;                                                 // guarded by mutex_
    std::size_t block_free_ = 0;                                              // guarded by mutex_
    std::array<std::atomic<View*>, segment_count> segments_{};                // never freed
};

}  // namespace cantonlite::model::detail
