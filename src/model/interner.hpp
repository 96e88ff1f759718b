#pragma once
// Interner<T>: the process-wide table behind Name (T = char) and NameSet (T = Name). Each distinct
// sequence of T is kept once and numbered; reading a sequence by its number takes no lock.

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <span>
#include <stdexcept>
#include <string_view>
#include <type_traits>
#include <unordered_map>

namespace cantonlite::model::detail {

// Sequences live in an arena of large blocks (no allocation per sequence); their views in fixed
// segments that never move, so a reader finds one without a lock; and a map from contents to
// number for interning, under a lock. Number 0 is the empty sequence. Never shrinks.
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
        const auto it = ids_.find(bytes(items));
        if (it == ids_.end()) return std::nullopt;
        return it->second;
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

    // REQUIRES: mutex_ held exclusively.
    std::uint32_t intern_locked(View items) {
        if (const auto it = ids_.find(bytes(items)); it != ids_.end()) return it->second;
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
        ids_.emplace(bytes(stored), id);
        ++next_id_;
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
    std::unordered_map<std::string_view, std::uint32_t> ids_;   // guarded by mutex_
    std::uint32_t next_id_ = 0;                                 // guarded by mutex_
    T* block_next_ = nullptr;                                   // guarded by mutex_
    std::size_t block_free_ = 0;                                // guarded by mutex_
    std::array<std::atomic<View*>, segment_count> segments_{};  // never freed
};

}  // namespace cantonlite::model::detail
