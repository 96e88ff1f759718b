#include "cantonlite/model/name.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <stdexcept>

#include "interner.hpp"

namespace cantonlite::model {
namespace {

// Never destroyed: a Name may be read by any static's destructor.
detail::Interner<char>& name_table() {
    static auto* const names = new detail::Interner<char>;
    return *names;
}

// The Names this thread met last, each in a slot picked by a cheap hash of its text. Every write
// packs the same few hundred texts again (record labels, parties, templates): a hit here spares
// the table's full hash and its probes into memory. A text's view is the table's own, which never
// moves; a slot two texts share holds the later one.
class Recent {
  public:
    [[nodiscard]] std::optional<std::uint32_t> find(std::string_view text) const {
        const Slot& s = slots_[slot_of(text)];
        if (s.size == text.size() && s.data != nullptr &&
            std::memcmp(s.data, text.data(), s.size) == 0)
            return s.id;
        return std::nullopt;
    }
    void put(std::uint32_t id) {
        const std::string_view text = Name::from_id(id).view();
        slots_[slot_of(text)] = Slot{text.data(), text.size(), id};
    }

  private:
    static constexpr std::size_t slot_bits = 9;
    struct Slot {
        const char* data = nullptr;
        std::size_t size = 0;
        std::uint32_t id = 0;
    };
    // From the length and the first and last 8 bytes (which differ between a seed's parties,
    // labels and contract ids).
    static std::size_t slot_of(std::string_view text) {
        std::uint64_t first = 0;
        std::uint64_t last = 0;
        std::memcpy(&first, text.data(), std::min<std::size_t>(8, text.size()));
        if (text.size() > 8) std::memcpy(&last, text.data() + text.size() - 8, 8);
        const std::uint64_t h =
            (first * 0x9E3779B97F4A7C15ULL) ^ ((last + text.size()) * 0xC2B2AE3D27D4EB4FULL);
        return static_cast<std::size_t>(h >> (64 - slot_bits));
    }
    std::array<Slot, std::size_t{1} << slot_bits> slots_{};
};

thread_local Recent recent;

}  // namespace

Name::Name(std::string_view text) {
    if (text.empty()) return;
    if (const auto id = recent.find(text)) {
        id_ = *id;
        return;
    }
    id_ = name_table().intern(text);
    recent.put(id_);
}

std::optional<Name> Name::find(std::string_view text) {
    if (text.empty()) return Name();
    if (const auto id = recent.find(text)) return from_id(*id);
    const auto id = name_table().find(text);
    if (!id) return std::nullopt;
    recent.put(*id);
    return from_id(*id);
}

std::uint32_t Name::count() {
    return name_table().count();
}

std::uint32_t Name::hash_of(std::string_view text) {
    return detail::Interner<char>::hash_of(text);
}

void Name::intern_all(std::span<const std::string_view> texts, Name* out,
                      std::span<const std::uint32_t> hashes) {
    static_assert(sizeof(Name) == sizeof(std::uint32_t));
    if (!hashes.empty() && hashes.size() != texts.size())
        throw std::invalid_argument("Name::intern_all: not one hash a text");
    std::vector<std::uint32_t> ids(texts.size());
    name_table().intern_all(texts, ids.data(), hashes.empty() ? nullptr : hashes.data());
    for (std::size_t i = 0; i < ids.size(); ++i) out[i] = from_id(ids[i]);
}

void Name::reserve(std::size_t more) {
    name_table().reserve(more);
}

std::span<char> Name::reserve_text_room(std::size_t bytes) {
    return name_table().reserve_room(bytes);
}

void Name::release_retired_tables() {
    name_table().release_retired();
    detail::release_retired_name_set_tables();
}

std::string_view Name::view() const {
    const auto text = name_table().get(id_);
    return {text.data(), text.size()};
}

}  // namespace cantonlite::model
