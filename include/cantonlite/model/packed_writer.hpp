#pragma once
// packed::Writer: writes a Daml value in PackedValue's form (packed_reader.hpp spells out the
// layout): a whole Value (pack()), or node by node, for a reader that decodes straight to it (a
// fork's protobuf_json values, seed/scan_values.hpp; the step compilers' values that a large seed
// repeats, with their labels interned once: packed::write).

#include <string>
#include <string_view>
#include <utility>

#include "cantonlite/model/decimal.hpp"
#include "cantonlite/model/name.hpp"
#include "cantonlite/model/packed_reader.hpp"
#include "cantonlite/model/packed_value.hpp"
#include "cantonlite/model/value.hpp"

namespace cantonlite::model::packed {

class Writer {
  public:
    // Writes after clearing `buffer`, whose capacity it reuses.
    explicit Writer(std::string buffer = {}) : out_(std::move(buffer)) { out_.clear(); }

    // A whole value.
    void value(const Value& v);

    // Node by node: a node's kind, then what the layout puts after it.
    void kind(Value::Kind k) { out_ += static_cast<char>(k); }
    // A whole Text node: as its Name's id when the text is a Name already (a party quoted in
    // metadata, a vocabulary the process interned), else its kind and bytes.
    void text_node(std::string_view s) {
        if (const auto name = Name::find(s)) {
            out_ += static_cast<char>(name_text_tag);
            varint(name->id());
            return;
        }
        kind(Value::Kind::text);
        text(s);
    }
    void flag(bool b) { out_ += static_cast<char>(b ? 1 : 0); }
    void varint(UInt128 v) {
        while (v >= 0x80) {
            out_ += static_cast<char>(static_cast<unsigned char>(v) | 0x80);
            v >>= 7;
        }
        out_ += static_cast<char>(v);
    }
    void integer(std::int64_t n) {
        varint((static_cast<std::uint64_t>(n) << 1) ^ static_cast<std::uint64_t>(n >> 63));
    }
    void decimal(Decimal d) {
        const Int128 n = d.units();
        varint((static_cast<UInt128>(n) << 1) ^ static_cast<UInt128>(n >> 127));
    }
    // A text's size and bytes (an enumeration's, a variant's constructor).
    void text(std::string_view s) {
        varint(s.size());
        out_ += s;
    }
    // A party, a contract id, a record label or a text-map key: its Name's id, interned.
    void name(std::string_view s) { varint(Name(s).id()); }
    // The same, of a Name interned already: no text hashed.
    void name(Name n) { varint(n.id()); }

    // Whole nodes of Names interned already. A record or text map of `n` entries is followed by
    // each entry's name() and value.
    void record(std::size_t n) {
        kind(Value::Kind::record);
        varint(n);
    }
    void text_map(std::size_t n) {
        kind(Value::Kind::text_map);
        varint(n);
    }
    void party(Name p) {
        kind(Value::Kind::party);
        name(p);
    }
    void contract_id(Name c) {
        kind(Value::Kind::contract_id);
        name(c);
    }
    void numeric(Decimal d) {
        kind(Value::Kind::numeric);
        decimal(d);
    }
    void int64(std::int64_t n) {
        kind(Value::Kind::int64);
        integer(n);
    }
    // An Optional's Some, followed by its value.
    void some() {
        kind(Value::Kind::optional);
        flag(true);
    }
    // A Text node whose text is `n`'s, kept as the Name (as text_node() keeps a text that is one).
    void text_node(Name n) {
        out_ += static_cast<char>(name_text_tag);
        name(n);
    }

    [[nodiscard]] std::string take() { return std::move(out_); }

  private:
    std::string out_;
};

// The value that `write(writer)` writes node by node, as a PackedValue, in a buffer the thread
// reuses (as pack() does for a Value).
template <class Write>
[[nodiscard]] PackedValue write(Write&& write_nodes) {
    thread_local std::string buffer;
    Writer w(std::move(buffer));
    std::forward<Write>(write_nodes)(w);
    buffer = w.take();
    return PackedValue::adopt(buffer);
}

}  // namespace cantonlite::model::packed
