#include "cantonlite/model/name.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <mutex>
#include <shared_mutex>
#include <stdexcept>
#include <unordered_map>

namespace cantonlite::model {
namespace {

// The process's names: texts in an arena of large blocks (no allocation per name), their views
// in fixed segments that never move, so a reader finds a Name's text without a lock; and a map
// from text to id for interning, under a lock.
class NameTable {
  public:
    NameTable() { intern_locked(""); }

    std::string_view text(std::uint32_t id) const {
        const std::string_view* segment =
            segments_[id >> segment_bits].load(std::memory_order_acquire);
        return segment[id & segment_mask];
    }

    std::optional<std::uint32_t> find(std::string_view text) const {
        const std::shared_lock lock(mutex_);
        const auto it = ids_.find(text);
        if (it == ids_.end()) return std::nullopt;
        return it->second;
    }

    std::uint32_t intern(std::string_view text) {
        if (const auto id = find(text)) return *id;
        const std::unique_lock lock(mutex_);
        return intern_locked(text);
    }

  private:
    static constexpr unsigned segment_bits = 16;
    static constexpr std::uint32_t segment_mask = (1U << segment_bits) - 1;
    static constexpr std::size_t segment_count = std::size_t{1} << (32 - segment_bits);
    static constexpr std::size_t block_size = std::size_t{1} << 20;

    // REQUIRES: mutex_ held exclusively.
    std::uint32_t intern_locked(std::string_view text) {
        if (const auto it = ids_.find(text); it != ids_.end()) return it->second;
        const std::uint32_t id = next_id_;
        if (id >> segment_bits >= segment_count) throw std::length_error("too many names");
        const std::string_view stored = store(text);
        auto& segment = segments_[id >> segment_bits];
        std::string_view* entries = segment.load(std::memory_order_relaxed);
        if (entries == nullptr) {
            entries = new std::string_view[std::size_t{1} << segment_bits];
            segment.store(entries, std::memory_order_release);
        }
        entries[id & segment_mask] = stored;
        ids_.emplace(stored, id);
        ++next_id_;
        return id;
    }

    // A copy of `text` in the arena. REQUIRES: mutex_ held exclusively.
    std::string_view store(std::string_view text) {
        if (text.size() > block_size / 4) {  // a long text gets a block of its own
            char* block = new char[text.size()];
            std::copy(text.begin(), text.end(), block);
            return {block, text.size()};
        }
        if (block_free_ < text.size()) {
            block_next_ = new char[block_size];
            block_free_ = block_size;
        }
        char* at = block_next_;
        std::copy(text.begin(), text.end(), at);
        block_next_ += text.size();
        block_free_ -= text.size();
        return {at, text.size()};
    }

    mutable std::shared_mutex mutex_;
    std::unordered_map<std::string_view, std::uint32_t> ids_;               // guarded by mutex_
    std::uint32_t next_id_ = 0;                                             // guarded by mutex_
    char* block_next_ = nullptr;                                            // guarded by mutex_
    std::size_t block_free_ = 0;                                            // guarded by mutex_
    std::array<std::atomic<std::string_view*>, segment_count> segments_{};  // never freed
};

// Never destroyed: a Name may be read by any static's destructor.
NameTable& table() {
    static NameTable* const names = new NameTable;
    return *names;
}

}  // namespace

Name::Name(std::string_view text) : id_(text.empty() ? 0 : table().intern(text)) {}

std::optional<Name> Name::find(std::string_view text) {
    if (text.empty()) return Name();
    const auto id = table().find(text);
    if (!id) return std::nullopt;
    return from_id(*id);
}

std::string_view Name::view() const {
    return table().text(id_);
}

}  // namespace cantonlite::model
