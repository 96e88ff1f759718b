#pragma once
// PackedReader: walks the bytes of a PackedValue (see packed_value.hpp): for the model's own
// readers and for those that copy values without unpacking them (the state file).

#include <cstdint>
#include <string_view>

#include "cantonlite/model/decimal.hpp"
#include "cantonlite/model/name.hpp"
#include "cantonlite/model/value.hpp"

namespace cantonlite::model::packed {

// The layout, per node: one byte, the Value::Kind; then
//   unit: -              boolean: one byte 0/1         int64, timestamp, date: zigzag varint
//   numeric: zigzag varint of the 128-bit units        text, enumeration: varint size, bytes
//   party, contract_id: varint Name id                 optional: one byte 0/1, then the payload
//   list: varint count, items                          gen_map: varint pairs, key, value, ...
//   text_map: varint count, (varint key Name id, value)...
//   record: varint count, (varint label Name id, value)...
//   variant: varint size, constructor bytes, value
// and a text that was a Name when packed: the byte name_text_tag, then the varint Name id (kind()
// reads it as a text; text() gives the Name's text).
inline constexpr unsigned char name_text_tag = 0x40;

class Reader {
  public:
    explicit Reader(std::string_view bytes)
        : at_(bytes.data()), end_(bytes.data() + bytes.size()) {}

    [[nodiscard]] Value::Kind kind() {
        const unsigned char tag = byte();
        name_text_ = tag == name_text_tag;
        return name_text_ ? Value::Kind::text : static_cast<Value::Kind>(tag);
    }
    [[nodiscard]] unsigned char byte() { return static_cast<unsigned char>(*at_++); }
    [[nodiscard]] UInt128 varint() {
        UInt128 v = 0;
        for (unsigned shift = 0;; shift += 7) {
            const unsigned char b = byte();
            v |= static_cast<UInt128>(b & 0x7F) << shift;
            if ((b & 0x80) == 0) return v;
        }
    }
    [[nodiscard]] std::size_t count() { return static_cast<std::size_t>(varint()); }
    [[nodiscard]] std::int64_t integer() {
        const auto u = static_cast<std::uint64_t>(varint());
        return static_cast<std::int64_t>((u >> 1) ^ (~(u & 1) + 1));
    }
    [[nodiscard]] Decimal decimal() {
        const UInt128 u = varint();
        return Decimal::from_units(static_cast<Int128>((u >> 1) ^ (~(u & 1) + 1)));
    }
    // The text of a text node (after kind()), an enumeration or a variant's constructor.
    [[nodiscard]] std::string_view text() {
        if (name_text_) {
            name_text_ = false;
            return name().view();
        }
        const std::size_t size = count();
        const std::string_view out(at_, size);
        at_ += size;
        return out;
    }
    [[nodiscard]] Name name() { return Name::from_id(static_cast<std::uint32_t>(varint())); }

    // Whether the next node is an Optional (without moving).
    [[nodiscard]] bool at_optional() const {
        return static_cast<Value::Kind>(at_[0]) == Value::Kind::optional;
    }
    // Whether the next node is a None (without moving).
    [[nodiscard]] bool at_none() const {
        return static_cast<Value::Kind>(at_[0]) == Value::Kind::optional && at_[1] == 0;
    }
    // Moves past one whole node.
    void skip();

    [[nodiscard]] const char* position() const { return at_; }
    void seek(const char* at) { at_ = at; }
    [[nodiscard]] bool done() const { return at_ >= end_; }

  private:
    const char* at_;
    const char* end_;
    bool name_text_ = false;  // the node kind() read is a text kept as a Name
};

}  // namespace cantonlite::model::packed
