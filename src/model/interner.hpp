#pragma once
// Interner<T>: the process-wide table behind Name (T = char) and NameSet (T = Name). Each distinct
// sequence of T is kept once and numbered; reading a sequence by its number takes no lock.

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <stdexcept>
#include <string_view>
#include <type_traits>
#include <vector>

namespace cantonlite::model::detail {

// Sequences live in an arena of large blocks (no allocation per sequence); their views in fixed
// segments that never move, so a reader finds one without a lock; and an open-addressing table of
// numbers, hashed by contents: 4 bytes a slot, where a node-based map took about 56 bytes an
// entry. Looking a sequence up takes no lock either; adding one takes the writers' lock. Number 0
// is the empty sequence. Never shrinks.
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

    // Lock-free: a sequence interned concurrently may not be found yet.
    std::optional<std::uint32_t> find(View items) const {
        const std::string_view key = bytes(items);
        const Table& table = *table_.load(std::memory_order_acquire);
        const std::uint32_t slot =
            table.slots[probe(table, key, hash(key))].load(std::memory_order_acquire);
        if (slot == 0) return std::nullopt;
        return slot - 1;
    }

    std::uint32_t intern(View items) {
        if (const auto id = find(items)) return *id;
        const std::lock_guard lock(mutex_);
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

    // An open-addressing table of numbers + 1 (0: empty), at most half full. Readers probe the
    // table published last without a lock; a grown table replaces it, and the old ones are kept
    // for readers still probing them (together no larger than the current one).
    struct Table {
        explicit Table(std::size_t size)
            : mask(size - 1), slots(new std::atomic<std::uint32_t>[size]) {
            for (std::size_t i = 0; i < size; ++i) slots[i].store(0, std::memory_order_relaxed);
        }
        std::size_t mask;
        std::unique_ptr<std::atomic<std::uint32_t>[]> slots;
    };

    static std::vector<std::unique_ptr<Table>> make_first_table() {
        std::vector<std::unique_ptr<Table>> tables;
        tables.push_back(std::make_unique<Table>(1024));
        return tables;
    }

    // The slot of `key` (hashed `h`) in `table`: the one holding its number, else the empty one
    // where it goes.
    std::size_t probe(const Table& table, std::string_view key, std::size_t h) const {
        for (std::size_t i = h & table.mask;; i = (i + 1) & table.mask) {
            const std::uint32_t slot = table.slots[i].load(std::memory_order_acquire);
            if (slot == 0 || bytes(get(slot - 1)) == key) return i;
        }
    }

    // Places every number again in a table twice the size, then publishes it. REQUIRES: mutex_.
    void grow() {
        const Table& old = *tables_.back();
        auto bigger = std::make_unique<Table>((old.mask + 1) * 2);
        for (std::size_t i = 0; i <= old.mask; ++i) {
            const std::uint32_t slot = old.slots[i].load(std::memory_order_relaxed);
            if (slot == 0) continue;
            const std::string_view key = bytes(get(slot - 1));
            bigger->slots[probe(*bigger, key, hash(key))].store(slot, std::memory_order_relaxed);
        }
        table_.store(bigger.get(), std::memory_order_release);
        tables_.push_back(std::move(bigger));
    }

    // REQUIRES: mutex_ held.
    std::uint32_t intern_locked(View items) {
        const std::string_view key = bytes(items);
        const std::size_t h = hash(key);
        std::size_t at = probe(*tables_.back(), key, h);
        if (const std::uint32_t slot = tables_.back()->slots[at].load(std::memory_order_relaxed))
            return slot - 1;
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
        if (2 * std::size_t{next_id_} > tables_.back()->mask + 1) {  // at most half full
            grow();
            at = probe(*tables_.back(), key, h);
        }
        // Published after its entry: a reader that finds the number finds the sequence.
        tables_.back()->slots[at].store(id + 1, std::memory_order_release);
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

    std::mutex mutex_;                                                 // the writers'
    std::vector<std::unique_ptr<Table>> tables_ = make_first_table();  // guarded by mutex_
    std::atomic<const Table*> table_{tables_.back().get()};            // the one readers probe
    std::uint32_t next_id_ = 0;                                        // guarded by mutex_
    T* block_next_ = nullptr;                                          // guarded by mutex_
    std::size_t block_free_ = 0;                                       // guarded by mutex_
    std::array<std::atomic<View*>, segment_count> segments_{};         // never freed
};

}  // namespace cantonlite::model::detail
