#include "cantonlite/model/value_json.hpp"

#include <cstddef>
#include <string>
#include <utility>

namespace cantonlite::model {
namespace {

using Kind = Value::Kind;

// How a compact encoding writes an Optional whose payload is itself an Optional. A Value carries
// no type, so a None is always taken to be of type `Optional a` with `a` not an Optional: it is
// written null even where the type says `Optional (Optional a)`.
enum class NestedOptionals {
    // The Daml-LF JSON spec (Java codegen JsonLfEncoders.optionalNested, ApiCodecCompressed):
    // Some None -> [], Some (Some x) -> [x], Some (Some None) -> [[]].
    lf_spec,
    // Canton's transcode JsonCodec: every nested level is an array:
    // Some None -> [[]], Some (Some x) -> [[x]], Some (Some None) -> [[[]]].
    every_level,
};

// What tells the three compact encodings apart; everything else they write alike.
struct CompactStyle {
    std::string (*numeric)(Decimal);
    std::string (*timestamp)(Timestamp);
    NestedOptionals nested_optionals = NestedOptionals::lf_spec;
    bool drop_trailing_nones = false;  // record fields at the end whose value is None
};

// Java's BigDecimal.toString of a Numeric 10, which keeps its scale of 10: plain notation unless
// the adjusted exponent is below -6, i.e. magnitudes under 10^-6, zero included:
// "100.0000000000", "0.0000190259", "0E-10", "1E-10", "-1.5E-9".
std::string java_big_decimal_string(Decimal d) {
    const Int128 units = d.units();
    const Int128 magnitude = units < 0 ? -units : units;
    if (magnitude >= 10'000) return d.to_scaled_string();
    const std::string coefficient = std::to_string(static_cast<int>(magnitude));
    const auto adjusted = static_cast<int>(coefficient.size()) - 11;
    std::string out = units < 0 ? "-" : "";
    out += coefficient.front();
    if (coefficient.size() > 1) out += "." + coefficient.substr(1);
    return out + "E" + std::to_string(adjusted);
}

std::string scaled_numeric(Decimal d) {
    return d.to_scaled_string();
}

std::string compact_numeric(Decimal d) {
    return d.to_compact_string();
}

constexpr CompactStyle codegen_style{.numeric = java_big_decimal_string,
                                     .timestamp = format_instant};
constexpr CompactStyle api_compressed_style{.numeric = compact_numeric,
                                            .timestamp = format_instant};
constexpr CompactStyle ledger_style{.numeric = scaled_numeric,
                                    .timestamp = format_offset_date_time,
                                    .nested_optionals = NestedOptionals::every_level,
                                    .drop_trailing_nones = true};

bool is_none(const Value& v) {
    return v.kind == Kind::optional && v.items.empty();
}

// [element]
OrderedJson wrap(OrderedJson element) {
    OrderedJson out = OrderedJson::array();
    out.push_back(std::move(element));
    return out;
}

// {"key": value}
OrderedJson tagged(const char* key, OrderedJson value) {
    OrderedJson out = OrderedJson::object();
    out[key] = std::move(value);
    return out;
}

OrderedJson compact(const Value& v, const CompactStyle& style);

// One level of a nested Optional in the every_level form: None [], Some x [x'], where x' is the
// same form of x when x is an Optional too.
OrderedJson every_level(const Value& v, const CompactStyle& style) {
    if (v.items.empty()) return OrderedJson::array();
    const Value& payload = v.items.front();
    return wrap(payload.kind == Kind::optional ? every_level(payload, style)
                                               : compact(payload, style));
}

// None is null and Some x is x, unless x is an Optional itself (see NestedOptionals).
OrderedJson compact_optional(const Value& v, const CompactStyle& style) {
    if (v.items.empty()) return nullptr;
    const Value& payload = v.items.front();
    if (payload.kind != Kind::optional) return compact(payload, style);
    if (style.nested_optionals == NestedOptionals::every_level) {
        return wrap(every_level(payload, style));
    }
    return is_none(payload) ? OrderedJson::array() : wrap(compact(payload, style));
}

OrderedJson compact_list(const Value& v, const CompactStyle& style) {
    OrderedJson out = OrderedJson::array();
    for (const Value& element : v.items) out.push_back(compact(element, style));
    return out;
}

// Text maps and records: an object in label order.
OrderedJson compact_object(const Value& v, std::size_t size, const CompactStyle& style) {
    OrderedJson out = OrderedJson::object();
    for (std::size_t i = 0; i < size; ++i) out[v.labels[i]] = compact(v.items[i], style);
    return out;
}

OrderedJson compact_record(const Value& v, const CompactStyle& style) {
    std::size_t size = v.items.size();
    while (style.drop_trailing_nones && size > 0 && is_none(v.items[size - 1])) --size;
    return compact_object(v, size, style);
}

// [[k, v], ...]
OrderedJson compact_gen_map(const Value& v, const CompactStyle& style) {
    OrderedJson out = OrderedJson::array();
    for (std::size_t i = 0; i + 1 < v.items.size(); i += 2) {
        out.push_back(
            OrderedJson::array({compact(v.items[i], style), compact(v.items[i + 1], style)}));
    }
    return out;
}

OrderedJson compact_variant(const Value& v, const CompactStyle& style) {
    OrderedJson out = OrderedJson::object();
    out["tag"] = v.text;
    out["value"] = compact(v.items.front(), style);
    return out;
}

OrderedJson compact(const Value& v, const CompactStyle& style) {
    switch (v.kind) {
        case Kind::unit:
            return OrderedJson::object();
        case Kind::boolean:
            return v.number != 0;
        case Kind::int64:
            return std::to_string(v.number);
        case Kind::numeric:
            return style.numeric(v.decimal);
        case Kind::text:
        case Kind::party:
        case Kind::contract_id:
        case Kind::enumeration:
            return v.text;
        case Kind::timestamp:
            return style.timestamp(Timestamp{v.number});
        case Kind::date:
            return format_date(v.number);
        case Kind::optional:
            return compact_optional(v, style);
        case Kind::list:
            return compact_list(v, style);
        case Kind::text_map:
            return compact_object(v, v.items.size(), style);
        case Kind::gen_map:
            return compact_gen_map(v, style);
        case Kind::record:
            return compact_record(v, style);
        case Kind::variant:
            return compact_variant(v, style);
    }
    return nullptr;  // not reached: the switch names every Kind
}

// proto3 JSON leaves a repeated field out when it is empty: {"list":{}}.
OrderedJson repeated(const char* key, OrderedJson elements) {
    OrderedJson out = OrderedJson::object();
    if (!elements.empty()) out[key] = std::move(elements);
    return out;
}

// {"key": K, "value": V}; proto3 JSON leaves out a string key that is "".
OrderedJson map_entry(OrderedJson key, OrderedJson value) {
    OrderedJson out = OrderedJson::object();
    if (key != "") out["key"] = std::move(key);
    out["value"] = std::move(value);
    return out;
}

OrderedJson protobuf_record(const Value& v) {
    OrderedJson fields = OrderedJson::array();
    for (const Value& field : v.items) fields.push_back(tagged("value", to_protobuf_json(field)));
    return tagged("record", repeated("fields", std::move(fields)));
}

OrderedJson protobuf_list(const Value& v) {
    OrderedJson elements = OrderedJson::array();
    for (const Value& element : v.items) elements.push_back(to_protobuf_json(element));
    return tagged("list", repeated("elements", std::move(elements)));
}

OrderedJson protobuf_text_map(const Value& v) {
    OrderedJson entries = OrderedJson::array();
    for (std::size_t i = 0; i < v.items.size(); ++i) {
        entries.push_back(map_entry(v.labels[i], to_protobuf_json(v.items[i])));
    }
    return tagged("textMap", repeated("entries", std::move(entries)));
}

OrderedJson protobuf_gen_map(const Value& v) {
    OrderedJson entries = OrderedJson::array();
    for (std::size_t i = 0; i + 1 < v.items.size(); i += 2) {
        entries.push_back(
            map_entry(to_protobuf_json(v.items[i]), to_protobuf_json(v.items[i + 1])));
    }
    return tagged("genMap", repeated("entries", std::move(entries)));
}

OrderedJson protobuf_optional(const Value& v) {
    OrderedJson out = OrderedJson::object();
    if (!v.items.empty()) out["value"] = to_protobuf_json(v.items.front());
    return tagged("optional", std::move(out));
}

OrderedJson protobuf_variant(const Value& v) {
    OrderedJson out = OrderedJson::object();
    out["constructor"] = v.text;
    out["value"] = to_protobuf_json(v.items.front());
    return tagged("variant", std::move(out));
}

}  // namespace

OrderedJson to_codegen_json(const Value& v) {
    return compact(v, codegen_style);
}

OrderedJson to_api_compressed_json(const Value& v) {
    return compact(v, api_compressed_style);
}

OrderedJson to_ledger_json(const Value& v) {
    return compact(v, ledger_style);
}

OrderedJson to_protobuf_json(const Value& v) {
    switch (v.kind) {
        case Kind::unit:
            return tagged("unit", OrderedJson::object());
        case Kind::boolean:
            return tagged("bool", v.number != 0);
        case Kind::int64:
            return tagged("int64", std::to_string(v.number));
        case Kind::numeric:
            return tagged("numeric", v.decimal.to_scaled_string());
        case Kind::text:
            return tagged("text", v.text);
        case Kind::party:
            return tagged("party", v.text);
        case Kind::contract_id:
            return tagged("contractId", v.text);
        case Kind::timestamp:
            return tagged("timestamp", std::to_string(v.number));
        case Kind::date:
            return tagged("date", v.number);
        case Kind::optional:
            return protobuf_optional(v);
        case Kind::list:
            return protobuf_list(v);
        case Kind::text_map:
            return protobuf_text_map(v);
        case Kind::gen_map:
            return protobuf_gen_map(v);
        case Kind::record:
            return protobuf_record(v);
        case Kind::variant:
            return protobuf_variant(v);
        case Kind::enumeration:
            return tagged("enum", tagged("constructor", v.text));
    }
    return nullptr;  // not reached: the switch names every Kind
}

}  // namespace cantonlite::model
