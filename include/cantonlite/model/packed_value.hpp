#pragma once
// PackedValue: a Daml value as the store keeps it, in one compact byte form from which every JSON
// encoding is written (value_json.hpp).

#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>

#include "cantonlite/model/value.hpp"

namespace cantonlite::model {

// The bytes of one Value: a kind tag per node; integers as zigzag varints; parties, contract ids
// and record labels as Names (value of Name::id()); texts, map keys and constructors inline.
// A typical Amulet argument takes ~40 bytes against ~280 for one of its JSON encodings.
// Immutable plain value of 8 bytes: up to 7 bytes of value inline, longer ones on the heap.
class PackedValue {
  public:
    PackedValue() noexcept { set_inline(std::string_view("\0", 1)); }  // Unit
    PackedValue(const PackedValue& other) { assign(other.bytes()); }
    PackedValue(PackedValue&& other) noexcept : word_(other.word_) { other.set_inline({"\0", 1}); }
    PackedValue& operator=(const PackedValue& other) {
        if (this != &other) {
            PackedValue copy(other);
            std::swap(word_, copy.word_);
        }
        return *this;
    }
    PackedValue& operator=(PackedValue&& other) noexcept {
        std::swap(word_, other.word_);
        return *this;
    }
    ~PackedValue() {
        if (owns_heap()) delete[] heap();
    }

    // The storage copy_into writes: none for a value kept inline, else its size and bytes in
    // whole words.
    [[nodiscard]] std::size_t external_size() const {
        return is_inline() ? 0 : 4 * (1 + (size() + 3) / 4);
    }
    // A copy that reads its bytes from `to` (external_size() bytes, 4-aligned), where they are
    // written now; `to` must outlive it. Its own copies own their bytes.
    [[nodiscard]] PackedValue copy_into(std::uint32_t* to) const;

    [[nodiscard]] std::string_view bytes() const {
        if (is_inline()) return {reinterpret_cast<const char*>(word_.data()) + 1, inline_size()};
        const std::uint32_t* block = heap();
        return {reinterpret_cast<const char*>(block + 1), block[0]};
    }
    [[nodiscard]] std::size_t size() const { return bytes().size(); }
    // The same value: the same bytes, or (a text packed before it became a Name, and after) the
    // same value unpacked.
    bool operator==(const PackedValue& other) const;

    friend PackedValue pack(const Value& v);
    // The value of `bytes`, which a checked transcoder wrote in pack()'s form with this process's
    // Name ids (the state file's reader, packed::write). REQUIRES: they are such bytes.
    [[nodiscard]] static PackedValue adopt(std::string_view bytes) { return PackedValue(bytes); }

  private:
    static_assert(std::endian::native == std::endian::little && sizeof(void*) == 8,
                  "the inline form's tag is the pointer's lowest byte");
    static constexpr std::size_t inline_capacity = 7;

    explicit PackedValue(std::string_view bytes) { assign(bytes); }

    // Inline: word_[0] is (size << 1) | 1 and the bytes follow. Elsewhere: word_ holds a pointer
    // (4-aligned, so its two lowest bits are 0) to the size as a uint32_t, then the bytes; with
    // the second lowest bit set when the block is borrowed (copy_into), not owned.
    static constexpr std::uintptr_t borrowed_bit = 2;
    [[nodiscard]] bool is_inline() const { return (word_[0] & 1U) != 0; }
    [[nodiscard]] bool owns_heap() const { return (word_[0] & 3U) == 0; }
    [[nodiscard]] std::size_t inline_size() const { return word_[0] >> 1U; }
    [[nodiscard]] std::uint32_t* heap() const {
        std::uintptr_t word = 0;
        std::memcpy(&word, word_.data(), sizeof word);
        return reinterpret_cast<std::uint32_t*>(word & ~borrowed_bit);
    }
    void set_inline(std::string_view bytes) noexcept {
        word_.fill(0);
        word_[0] = static_cast<unsigned char>(bytes.size() << 1U | 1U);
        std::memcpy(word_.data() + 1, bytes.data(), bytes.size());
    }
    void assign(std::string_view bytes) {
        if (bytes.size() <= inline_capacity) {
            set_inline(bytes);
            return;
        }
        auto* block = new std::uint32_t[1 + (bytes.size() + 3) / 4];
        block[0] = static_cast<std::uint32_t>(bytes.size());
        std::memcpy(block + 1, bytes.data(), bytes.size());
        std::memcpy(word_.data(), &block, sizeof block);
    }

    std::array<unsigned char, 8> word_{};
};

[[nodiscard]] PackedValue pack(const Value& v);
// The Value that was packed (unpack(pack(v)) == v).
[[nodiscard]] Value unpack(const PackedValue& packed);
// The field at `labels`, a path of record fields from the root, read without unpacking the rest;
// nullopt when the path leaves the records or a field is missing.
[[nodiscard]] std::optional<Value> field_at(const PackedValue& packed,
                                            std::span<const std::string_view> labels);
[[nodiscard]] inline std::optional<Value> field_at(const PackedValue& packed,
                                                   std::initializer_list<std::string_view> labels) {
    return field_at(packed, std::span<const std::string_view>(labels.begin(), labels.size()));
}

}  // namespace cantonlite::model
