#include "cantonlite/model/value.hpp"

#include <cstddef>
#include <string_view>

namespace cantonlite::model {
namespace {

// A text map or record: `entries` split into labels and items, in order.
Value labelled(Value::Kind kind, std::vector<std::pair<std::string, Value>> entries) {
    Value out{.kind = kind};
    out.labels.reserve(entries.size());
    out.items.reserve(entries.size());
    for (auto& [label, value] : entries) {
        out.labels.push_back(std::move(label));
        out.items.push_back(std::move(value));
    }
    return out;
}

Value labelled(Value::Kind kind, std::initializer_list<Value::Field> entries) {
    Value out{.kind = kind};
    out.labels.reserve(entries.size());
    out.items.reserve(entries.size());
    for (const Value::Field& f : entries) {
        out.labels.emplace_back(f.label);
        out.items.push_back(std::move(f.value));
    }
    return out;
}

}  // namespace

Value Value::unit() {
    return Value{};
}

Value Value::boolean(bool b) {
    return Value{.kind = Kind::boolean, .number = b ? 1 : 0};
}

Value Value::int64(std::int64_t n) {
    return Value{.kind = Kind::int64, .number = n};
}

Value Value::numeric(Decimal d) {
    return Value{.kind = Kind::numeric, .decimal = d};
}

Value Value::text_value(std::string s) {
    return Value{.kind = Kind::text, .text = std::move(s)};
}

Value Value::party(std::string p) {
    return Value{.kind = Kind::party, .text = std::move(p)};
}

Value Value::contract_id(std::string cid) {
    return Value{.kind = Kind::contract_id, .text = std::move(cid)};
}

Value Value::timestamp(Timestamp t) {
    return Value{.kind = Kind::timestamp, .number = t.micros};
}

Value Value::date(std::int64_t days_since_epoch) {
    return Value{.kind = Kind::date, .number = days_since_epoch};
}

Value Value::none() {
    return Value{.kind = Kind::optional};
}

Value Value::some(Value v) {
    Value out{.kind = Kind::optional};
    out.items.push_back(std::move(v));
    return out;
}

Value Value::optional(std::optional<Value> v) {
    return v ? some(std::move(*v)) : none();
}

Value Value::list(std::vector<Value> elements) {
    return Value{.kind = Kind::list, .items = std::move(elements)};
}

Value Value::text_map(std::vector<std::pair<std::string, Value>> entries) {
    return labelled(Kind::text_map, std::move(entries));
}

Value Value::text_map(std::initializer_list<Field> entries) {
    return labelled(Kind::text_map, entries);
}

Value Value::gen_map(std::vector<std::pair<Value, Value>> entries) {
    Value out{.kind = Kind::gen_map};
    for (auto& [key, value] : entries) {
        out.items.push_back(std::move(key));
        out.items.push_back(std::move(value));
    }
    return out;
}

Value Value::record(std::vector<std::pair<std::string, Value>> fields) {
    return labelled(Kind::record, std::move(fields));
}

Value Value::record(std::initializer_list<Field> fields) {
    return labelled(Kind::record, fields);
}

Value Value::variant(std::string constructor, Value v) {
    Value out{.kind = Kind::variant, .text = std::move(constructor)};
    out.items.push_back(std::move(v));
    return out;
}

Value Value::enumeration(std::string constructor) {
    return Value{.kind = Kind::enumeration, .text = std::move(constructor)};
}

const Value* Value::field(std::string_view label) const {
    for (std::size_t i = 0; i < labels.size(); ++i) {
        if (labels[i] == label) return &items[i];
    }
    return nullptr;
}

}  // namespace cantonlite::model
