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

#include "cantonlite/util/huge_pages.hpp"

namespace cantonlite::model::detail {

// Sequences live in an arena of large blocks (no allocation per sequence), each after its length
// (a varint, padded to whole items); a number's entry, in fixed segments that never move, points
// at that length, so a reader finds a sequence without a lock in 8 bytes a number. An
// open-addressing table of numbers, hashed by contents, finds a sequence's number: a slot of 4
// bytes holds the number + 1 (0: empty) and, in its top bits, a tag of the hash that spares most
// probes a look at the arena. Each number's hash is kept too (4 bytes), so that a grown table
// places every number again without reading its sequence (a fork's builder spent 5% of its time
// rereading and rehashing texts as the table grew). Looking a sequence up takes no lock either;
// adding one takes the writers' lock. Number 0 is the empty sequence. Never shrinks.
template <typename T>
class Interner {
    static_assert(std::is_trivially_copyable_v<T>, "compared and hashed as bytes");

  public:
    using View = std::span<const T>;

    Interner() { intern_locked({}, hash({})); }

    View get(std::uint32_t id) const {
        const T* const* segment = segments_[id >> segment_bits].load(std::memory_order_acquire);
        return read(segment[id & segment_mask]);
    }

    // Lock-free: a sequence interned concurrently may not be found yet.
    std::optional<std::uint32_t> find(View items) const {
        const std::string_view key = bytes(items);
        return find_hashed(key, hash(key));
    }

    // The sequence's number, hashed once whether it is new or not.
    std::uint32_t intern(View items) {
        const std::string_view key = bytes(items);
        const std::uint32_t h = hash(key);
        if (const auto id = find_hashed(key, h)) return *id;
        const std::lock_guard lock(mutex_);
        return intern_locked(items, h);
    }

    // What the table hashes a sequence by (32 bits).
    static std::uint32_t hash_of(View items) { return hash(bytes(items)); }

    // The numbers of `items`, in order, into `ids`: intern() of each, the table's slots fetched a
    // few sequences ahead and the lock taken once a thousand (a state file interns its whole
    // table of texts at once; each new sequence's probe would otherwise wait on memory). With
    // `hashed`, hash_of() of each item, computed already (on another thread).
    template <class Items>
    void intern_all(const Items& items, std::uint32_t* ids, const std::uint32_t* hashed = nullptr) {
        constexpr std::size_t ahead = 8;
        constexpr std::size_t batch = 1024;
        std::array<std::uint32_t, ahead> hashes{};
        const std::size_t n = std::size(items);
        for (std::size_t start = 0; start < n; start += batch) {
            const std::size_t end = std::min(n, start + batch);
            const std::lock_guard lock(mutex_);
            for (std::size_t i = start; i < end + ahead; ++i) {
                // The sequence `ahead` places back, then the next one's slot fetched (into the
                // place of the hash just used).
                if (i >= start + ahead) {
                    const std::size_t j = i - ahead;
                    ids[j] = intern_locked(View(items[j]), hashes[j % ahead]);
                }
                if (i < end) {
                    const std::uint32_t h =
                        hashed != nullptr ? hashed[i] : hash(bytes(View(items[i])));
                    hashes[i % ahead] = h;
                    const Table& table = *tables_.back();
                    __builtin_prefetch(&table.slots[h & table.mask]);
                }
            }
        }
    }

    // How many sequences are interned: each id is below it.
    [[nodiscard]] std::uint32_t count() {
        const std::lock_guard lock(mutex_);
        return next_id_;
    }

    // Grows the table at once to hold `more` sequences beyond those it has, rather than doubling
    // step by step (each step places every number again and retires a table).
    void reserve(std::size_t more) {
        const std::lock_guard lock(mutex_);
        std::size_t size = tables_.back()->mask + 1;
        const std::size_t wanted = std::size_t{next_id_} + more;
        while (4 * wanted > 3 * size) size *= 2;
        if (size > tables_.back()->mask + 1) grow(size);
    }

    // Room in the arena for `items` more items of sequences, their lengths included, in one
    // block: returned, so that its caller may fault its pages in on another thread while they are
    // filled (a state file interns 15 MiB of texts at once).
    std::span<T> reserve_room(std::size_t items) {
        const std::lock_guard lock(mutex_);
        if (block_free_ < items) {
            block_free_ = std::max(items, block_items);
            block_next_ = new T[block_free_];
        }
        return {block_next_, block_free_};
    }

    // Frees the tables that grown ones replaced. REQUIRES: no other thread is using the interner
    // (a reader may still probe a replaced table), as at start-up before serving.
    void release_retired() {
        const std::lock_guard lock(mutex_);
        tables_.erase(tables_.begin(), tables_.end() - 1);
    }

  private:
    // A slot: the tag in the top bits, the number + 1 below. Numbers stay below 2^26 (67 million).
    static constexpr unsigned id_bits = 26;
    static constexpr std::uint32_t id_mask = (1U << id_bits) - 1;
    static constexpr unsigned segment_bits = 16;
    static constexpr std::uint32_t segment_mask = (1U << segment_bits) - 1;
    static constexpr std::size_t segment_count = std::size_t{1} << (id_bits - segment_bits);
    static constexpr std::size_t block_items = (std::size_t{1} << 20) / sizeof(T);

    static std::string_view bytes(View items) {
        return {reinterpret_cast<const char*>(items.data()), items.size_bytes()};
    }

    // 32 bits of the hash: the low ones place a slot, the top ones are its tag.
    static std::uint32_t hash(std::string_view key) {
        const std::size_t h = std::hash<std::string_view>{}(key);
        return static_cast<std::uint32_t>(h ^ (h >> 32));
    }
    static std::uint32_t tag(std::uint32_t h) { return h & ~id_mask; }

    // The items a length is written in, and the sequence stored at `at`.
    static std::size_t length_items(std::size_t size) {
        std::size_t length_bytes = 1;
        for (; size >= 0x80; size >>= 7) ++length_bytes;
        return (length_bytes + sizeof(T) - 1) / sizeof(T);
    }
    static View read(const T* at) {
        const auto* length = reinterpret_cast<const unsigned char*>(at);
        std::size_t size = 0;
        std::size_t used = 0;
        for (unsigned shift = 0;; shift += 7) {
            const unsigned char byte = length[used++];
            size |= std::size_t{byte & 0x7FU} << shift;
            if ((byte & 0x80U) == 0) break;
        }
        return {at + (used + sizeof(T) - 1) / sizeof(T), size};
    }

    // An open-addressing table of slots, at most three quarters full. Readers probe the table
    // published last without a lock; a grown table replaces it, and the old ones are kept for
    // readers still probing them (together no larger than the current one).
    struct Table {
        explicit Table(std::size_t size) : mask(size - 1), slots(size) {}
        // Slot i, read and written atomically.
        [[nodiscard]] std::atomic_ref<std::uint32_t> at(std::size_t i) const {
            return std::atomic_ref<std::uint32_t>(slots[i]);
        }
        std::size_t mask;
        util::ZeroedArray<std::uint32_t> slots;
    };

    static std::vector<std::unique_ptr<Table>> make_first_table() {
        std::vector<std::unique_ptr<Table>> tables;
        tables.push_back(std::make_unique<Table>(1024));
        return tables;
    }

    // The slot of `key` (hashed `h`) in `table`: the one holding its number, else the empty one
    // where it goes; and what the probe read there (0 for the empty one). A lock-free reader
    // must go by what it read: a writer may fill the empty slot with another sequence's number
    // meanwhile.
    struct Probed {
        std::size_t at;
        std::uint32_t slot;
    };
    Probed probe(const Table& table, std::string_view key, std::uint32_t h) const {
        const std::uint32_t want = tag(h);
        for (std::size_t i = h & table.mask;; i = (i + 1) & table.mask) {
            const std::uint32_t slot = table.at(i).load(std::memory_order_acquire);
            if (slot == 0) return {i, 0};
            if ((slot & ~id_mask) == want && bytes(get((slot & id_mask) - 1)) == key)
                return {i, slot};
        }
    }

    // Places every slot again in a table of `size` slots (a power of two larger than the current
    // one), then publishes it. REQUIRES: mutex_.
    void grow(std::size_t size) {
        const Table& old = *tables_.back();
        auto bigger = std::make_unique<Table>(size);
        for (std::size_t i = 0; i <= old.mask; ++i) {
            const std::uint32_t slot = old.at(i).load(std::memory_order_relaxed);
            if (slot == 0) continue;
            // Every number is distinct: its place is the first empty slot from its hash's.
            const std::uint32_t id = (slot & id_mask) - 1;
            std::size_t at = hashes_[id >> segment_bits][id & segment_mask] & bigger->mask;
            while (bigger->at(at).load(std::memory_order_relaxed) != 0)
                at = (at + 1) & bigger->mask;
            bigger->at(at).store(slot, std::memory_order_relaxed);
        }
        table_.store(bigger.get(), std::memory_order_release);
        tables_.push_back(std::move(bigger));
    }

    std::optional<std::uint32_t> find_hashed(std::string_view key, std::uint32_t h) const {
        const Table& table = *table_.load(std::memory_order_acquire);
        const std::uint32_t slot = probe(table, key, h).slot;
        if (slot == 0) return std::nullopt;
        return (slot & id_mask) - 1;
    }

    // `items`, hashed `h`. REQUIRES: mutex_ held.
    std::uint32_t intern_locked(View items, std::uint32_t h) {
        const std::string_view key = bytes(items);
        const Probed probed = probe(*tables_.back(), key, h);
        if (probed.slot != 0) return (probed.slot & id_mask) - 1;
        std::size_t at = probed.at;
        const std::uint32_t id = next_id_;
        if (id + 1 > id_mask) throw std::length_error("too many names");
        const T* stored = store(items);
        auto& segment = segments_[id >> segment_bits];
        const T** entries = segment.load(std::memory_order_relaxed);
        if (entries == nullptr) {
            entries = new const T*[std::size_t{1} << segment_bits];
            segment.store(entries, std::memory_order_release);
        }
        entries[id & segment_mask] = stored;
        std::unique_ptr<std::uint32_t[]>& hashes = hashes_[id >> segment_bits];
        if (!hashes) hashes = std::make_unique_for_overwrite<std::uint32_t[]>(segment_mask + 1);
        hashes[id & segment_mask] = h;
        ++next_id_;
        if (4 * std::size_t{next_id_} > 3 * (tables_.back()->mask + 1)) {
            grow((tables_.back()->mask + 1) * 2);
            at = probe(*tables_.back(), key, h).at;
        }
        // Published after its entry: a reader that finds the number finds the sequence.
        tables_.back()->at(at).store(tag(h) | (id + 1), std::memory_order_release);
        return id;
    }

    // A copy of `items` after its length, in the arena. REQUIRES: mutex_ held exclusively.
    const T* store(View items) {
        const std::size_t total = length_items(items.size()) + items.size();
        T* at = nullptr;
        if (total > block_items / 4) {  // a long sequence gets a block of its own
            at = new T[total];
        } else {
            if (block_free_ < total) {
                block_next_ = new T[block_items];
                block_free_ = block_items;
            }
            at = block_next_;
            block_next_ += total;
            block_free_ -= total;
        }
        auto* length = reinterpret_cast<unsigned char*>(at);
        std::size_t size = items.size();
        for (; size >= 0x80; size >>= 7) *length++ = static_cast<unsigned char>(size | 0x80U);
        *length = static_cast<unsigned char>(size);
        std::copy(items.begin(), items.end(), at + length_items(items.size()));
        return at;
    }

    std::mutex mutex_;                                                 // the writers'
    std::vector<std::unique_ptr<Table>> tables_ = make_first_table();  // guarded by mutex_
    std::atomic<const Table*> table_{tables_.back().get()};            // the one readers probe
    std::uint32_t next_id_ = 0;                                        // guarded by mutex_
    T* block_next_ = nullptr;                                          // guarded by mutex_
    std::size_t block_free_ = 0;                                       // guarded by mutex_
    std::array<std::atomic<const T**>, segment_count> segments_{};     // never freed
    // Each number's hash, in segments as the entries: read by grow() alone. Guarded by mutex_.
    std::array<std::unique_ptr<std::uint32_t[]>, segment_count> hashes_{};
};

// Interner::release_retired of the NameSets' table (name_set.cpp), for
// Name::release_retired_tables.
void release_retired_name_set_tables();

}  // namespace cantonlite::model::detail
