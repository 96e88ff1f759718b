#include "cantonlite/model/packed_value.hpp"

#include "cantonlite/model/packed_reader.hpp"
#include "cantonlite/model/packed_writer.hpp"

namespace cantonlite::model {
namespace {

using Kind = Value::Kind;

Value read(packed::Reader& in) {
    Value v{.kind = in.kind()};
    switch (v.kind) {
        case Kind::unit:
            break;
        case Kind::boolean:
            v.number = in.byte();
            break;
        case Kind::int64:
        case Kind::timestamp:
        case Kind::date:
            v.number = in.integer();
            break;
        case Kind::numeric:
            v.decimal = in.decimal();
            break;
        case Kind::text:
        case Kind::enumeration:
            v.text = in.text();
            break;
        case Kind::party:
        case Kind::contract_id:
            v.text = in.name().view();
            break;
        case Kind::optional:
            if (in.byte() != 0) v.items.push_back(read(in));
            break;
        case Kind::list:
        case Kind::gen_map:
            for (std::size_t n = in.count() * (v.kind == Kind::gen_map ? 2 : 1); n > 0; --n) {
                v.items.push_back(read(in));
            }
            break;
        case Kind::text_map:
        case Kind::record:
            for (std::size_t n = in.count(); n > 0; --n) {
                v.labels.emplace_back(in.name().view());
                v.items.push_back(read(in));
            }
            break;
        case Kind::variant:
            v.text = in.text();
            v.items.push_back(read(in));
            break;
    }
    return v;
}

}  // namespace

void packed::Reader::skip() {
    switch (kind()) {
        case Kind::unit:
            return;
        case Kind::boolean:
            (void)byte();
            return;
        case Kind::int64:
        case Kind::timestamp:
        case Kind::date:
        case Kind::numeric:
        case Kind::party:
        case Kind::contract_id:
            (void)varint();
            return;
        case Kind::text:
        case Kind::enumeration:
            (void)text();
            return;
        case Kind::optional:
            if (byte() != 0) skip();
            return;
        case Kind::list:
            for (std::size_t n = count(); n > 0; --n) skip();
            return;
        case Kind::gen_map:
            for (std::size_t n = count() * 2; n > 0; --n) skip();
            return;
        case Kind::text_map:
        case Kind::record:
            for (std::size_t n = count(); n > 0; --n) {
                (void)varint();
                skip();
            }
            return;
        case Kind::variant:
            (void)text();
            skip();
            return;
    }
}

PackedValue PackedValue::copy_into(std::uint32_t* to) const {
    if (is_inline()) return *this;
    const std::string_view b = bytes();
    to[0] = static_cast<std::uint32_t>(b.size());
    std::memcpy(to + 1, b.data(), b.size());
    PackedValue borrowed;
    const auto word = reinterpret_cast<std::uintptr_t>(to) | borrowed_bit;
    std::memcpy(borrowed.word_.data(), &word, sizeof word);
    return borrowed;
}

void packed::Writer::value(const Value& v) {
    if (v.kind == Kind::text) return text_node(v.text);
    kind(v.kind);
    switch (v.kind) {
        case Kind::unit:
        case Kind::text:
            return;
        case Kind::boolean:
            flag(v.number != 0);
            return;
        case Kind::int64:
        case Kind::timestamp:
        case Kind::date:
            integer(v.number);
            return;
        case Kind::numeric:
            decimal(v.decimal);
            return;
        case Kind::enumeration:
            text(v.text);
            return;
        case Kind::party:
        case Kind::contract_id:
            name(v.text);
            return;
        case Kind::optional:
            flag(!v.items.empty());
            if (!v.items.empty()) value(v.items.front());
            return;
        case Kind::list:
        case Kind::gen_map:
            varint(v.kind == Kind::gen_map ? v.items.size() / 2 : v.items.size());
            for (const Value& item : v.items) value(item);
            return;
        case Kind::text_map:
        case Kind::record:
            varint(v.items.size());
            for (std::size_t i = 0; i < v.items.size(); ++i) {
                name(v.labels[i]);
                value(v.items[i]);
            }
            return;
        case Kind::variant:
            text(v.text);
            value(v.items.front());
            return;
    }
}

PackedValue pack(const Value& v) {
    // The bytes are written to a buffer the thread keeps, then copied once into the value.
    thread_local std::string buffer;
    packed::Writer w(std::move(buffer));
    w.value(v);
    buffer = w.take();
    return PackedValue(std::string_view(buffer));
}

bool PackedValue::operator==(const PackedValue& other) const {
    return bytes() == other.bytes() || unpack(*this) == unpack(other);
}

Value unpack(const PackedValue& packed) {
    packed::Reader in(packed.bytes());
    return read(in);
}

std::optional<Value> field_at(const PackedValue& packed, std::span<const std::string_view> labels) {
    packed::Reader in(packed.bytes());
    for (const std::string_view label : labels) {
        const std::optional<Name> wanted = Name::find(label);
        if (!wanted || in.kind() != Kind::record) return std::nullopt;
        bool found = false;
        for (std::size_t n = in.count(); n > 0 && !found; --n) {
            found = in.name() == *wanted;
            if (!found) in.skip();
        }
        if (!found) return std::nullopt;
    }
    return read(in);
}

}  // namespace cantonlite::model
