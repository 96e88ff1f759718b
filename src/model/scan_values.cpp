#include "cantonlite/model/scan_values.hpp"

#include <algorithm>
#include <charconv>
#include <optional>
#include <string_view>

#include "cantonlite/model/packed_value.hpp"
#include "cantonlite/model/timestamp.hpp"
#include "cantonlite/model/value_json.hpp"

namespace cantonlite::model {
namespace {

using json = nlohmann::json;
using ordered_json = nlohmann::ordered_json;

constexpr int max_depth = 200;  // as a state file's values
constexpr std::int64_t micros_per_day = 86'400LL * 1'000'000;

[[noreturn]] void fail(const std::string& at, const std::string& why) {
    throw ScanValueError((at.empty() ? std::string("/") : at) + ": " + why);
}

bool is_hex(std::string_view s) {
    return std::all_of(s.begin(), s.end(),
                       [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

bool all_digits(std::string_view s) {
    return !s.empty() &&
           std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// Digits as Java writes an integer: no sign, no leading zero (but "0").
bool canonical_digits(std::string_view s) {
    return all_digits(s) && (s.size() == 1 || s.front() != '0');
}

std::optional<std::int64_t> int64_of(std::string_view s) {
    std::int64_t n = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), n);
    if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
    return n;
}

// ---- compact_json, typed by shape ----

// "<hint>::1220<64 hex>": a party id (its namespace is a SHA-256 fingerprint).
bool reads_as_party(std::string_view s) {
    const std::size_t sep = s.rfind("::");
    if (sep == std::string_view::npos || sep == 0) return false;
    const std::string_view fingerprint = s.substr(sep + 2);
    return fingerprint.size() == 68 && fingerprint.starts_with("1220") && is_hex(fingerprint);
}

// "00" and hex: a V1 contract id (a discriminator of 32 bytes, then a suffix).
bool reads_as_contract_id(std::string_view s) {
    return s.size() >= 66 && s.starts_with("00") && s.size() % 2 == 0 && is_hex(s);
}

// "1.5E-9" as plain digits ("0.0000000015"); nullopt unless it is <decimal>E<exponent>.
std::optional<std::string> plain_decimal(std::string_view s) {
    const std::size_t e = s.find('E');
    if (e == std::string_view::npos) return std::nullopt;
    const auto exponent = int64_of(s.substr(e + 1 + (s.substr(e + 1).starts_with('+') ? 1 : 0)));
    if (!exponent || *exponent < -40 || *exponent > 40) return std::nullopt;
    std::string_view mantissa = s.substr(0, e);
    const bool negative = mantissa.starts_with('-');
    if (negative) mantissa.remove_prefix(1);
    const std::size_t dot = mantissa.find('.');
    std::string digits(mantissa.substr(0, dot));
    std::string fraction(dot == std::string_view::npos ? "" : mantissa.substr(dot + 1));
    if (!all_digits(digits) || (!fraction.empty() && !all_digits(fraction))) return std::nullopt;
    std::int64_t point = static_cast<std::int64_t>(digits.size()) + *exponent;
    digits += fraction;
    if (point <= 0) {
        digits.insert(0, static_cast<std::size_t>(-point) + 1, '0');
        point = 1;
    }
    if (point >= static_cast<std::int64_t>(digits.size())) {
        digits.append(static_cast<std::size_t>(point) - digits.size(), '0');
        return (negative ? "-" : "") + digits;
    }
    digits.insert(static_cast<std::size_t>(point), 1, '.');
    return (negative ? "-" : "") + digits;
}

Value typed_string(const std::string& s) {
    if (reads_as_party(s)) return Value::party(s);
    if (reads_as_contract_id(s)) return Value::contract_id(s);
    const std::string_view unsigned_part = std::string_view(s).substr(s.starts_with('-') ? 1 : 0);
    // Numeric as codegen writes Splice's Decimal (Numeric 10): every one of its ten decimals.
    if (const std::size_t dot = unsigned_part.find('.');
        dot != std::string_view::npos && canonical_digits(unsigned_part.substr(0, dot)) &&
        unsigned_part.size() - dot - 1 == 10 && all_digits(unsigned_part.substr(dot + 1))) {
        if (const auto d = Decimal::parse(s)) return Value::numeric(*d);
    }
    // Numeric as Java's BigDecimal.toString writes a small one: "1E-10", "0E-10".
    if (const auto plain = plain_decimal(s)) {
        if (const auto d = Decimal::parse(*plain)) {
            Value v = Value::numeric(*d);
            if (value_json(pack(v), ValueEncoding::codegen) == json(s).dump()) return v;
        }
    }
    if (canonical_digits(unsigned_part) && s != "-0") {
        if (const auto n = int64_of(s)) return Value::int64(*n);
    }
    if (s.size() == 10 && s[4] == '-' && s[7] == '-') {
        if (const auto t = parse_timestamp(s + "T00:00:00Z"))
            return Value::date(t->micros / micros_per_day);
    }
    if (s.size() >= 20 && s[10] == 'T' && s.back() == 'Z') {
        if (const auto t = parse_timestamp(s)) {
            Value v = Value::timestamp(*t);
            if (value_json(pack(v), ValueEncoding::codegen) == json(s).dump()) return v;
        }
    }
    return Value::text_value(s);
}

Value from_compact(const ordered_json& c, int depth) {
    if (depth > max_depth) fail("", "is nested deeper than " + std::to_string(max_depth));
    switch (c.type()) {
        case ordered_json::value_t::null:
            return Value::none();
        case ordered_json::value_t::boolean:
            return Value::boolean(c.get<bool>());
        case ordered_json::value_t::number_integer:
        case ordered_json::value_t::number_unsigned:
            if (c.is_number_unsigned() &&
                c.get<std::uint64_t>() > std::uint64_t{std::numeric_limits<std::int64_t>::max()})
                return Value::text_value(c.dump());
            return Value::int64(c.get<std::int64_t>());
        case ordered_json::value_t::string:
            return typed_string(c.get_ref<const std::string&>());
        case ordered_json::value_t::array: {
            const bool pairs = !c.empty() && std::all_of(c.begin(), c.end(), [](const auto& e) {
                return e.is_array() && e.size() == 2;
            });
            if (pairs) {
                std::vector<std::pair<Value, Value>> entries;
                for (const auto& e : c)
                    entries.emplace_back(from_compact(e[0], depth + 1),
                                         from_compact(e[1], depth + 1));
                return Value::gen_map(std::move(entries));
            }
            std::vector<Value> elements;
            elements.reserve(c.size());
            for (const auto& e : c) elements.push_back(from_compact(e, depth + 1));
            return Value::list(std::move(elements));
        }
        case ordered_json::value_t::object: {
            if (c.size() == 2 && c.contains("tag") && c["tag"].is_string() && c.contains("value"))
                return Value::variant(c["tag"].get<std::string>(),
                                      from_compact(c["value"], depth + 1));
            std::vector<std::pair<std::string, Value>> fields;
            fields.reserve(c.size());
            for (const auto& [key, value] : c.items())
                fields.emplace_back(key, from_compact(value, depth + 1));
            return Value::record(std::move(fields));
        }
        default:
            return Value::text_value(c.dump());  // a floating-point number: no Daml value
    }
}

// ---- protobuf_json, labelled from compact_json ----

class TypedReader {
  public:
    Value read(const json& t, const ordered_json* l, const std::string& at, int depth) {
        if (depth > max_depth) fail(at, "is nested deeper than " + std::to_string(max_depth));
        if (!t.is_object() || t.size() != 1)
            fail(at, "is not a protobuf_json value such as {\"text\": \"x\"}");
        const auto item = t.items().begin();
        const std::string& kind = item.key();
        const json& body = item.value();
        const std::string here = at + "/" + kind;
        if (kind == "unit") return Value::unit();
        if (kind == "bool") {
            if (!body.is_boolean()) fail(here, "is not true or false");
            return Value::boolean(body.get<bool>());
        }
        if (kind == "text") return Value::text_value(string(body, here));
        if (kind == "party") return Value::party(string(body, here));
        if (kind == "contractId") return Value::contract_id(string(body, here));
        if (kind == "int64") return Value::int64(integer(body, here));
        if (kind == "numeric") {
            const auto d = Decimal::parse(string(body, here));
            if (!d) fail(here, "is not a decimal");
            return Value::numeric(*d);
        }
        if (kind == "timestamp") return Value::timestamp(Timestamp{integer(body, here)});
        if (kind == "date") return Value::date(integer(body, here));
        if (kind == "enum")
            return Value::enumeration(string(member(body, "constructor", here), here));
        if (kind == "variant") {
            const ordered_json* inner =
                l && l->is_object() && l->contains("value") ? &(*l)["value"] : nullptr;
            return Value::variant(
                string(member(body, "constructor", here), here),
                read(member(body, "value", here), inner, here + "/value", depth + 1));
        }
        if (kind == "optional") {
            if (!body.is_object()) fail(here, "is not an object");
            if (!body.contains("value")) return Value::none();
            const json& inner = body["value"];
            // Compact writes Some x as x, and a nested Optional's Some as an array of one.
            const ordered_json* labelled = l;
            if (l && inner.is_object() && inner.contains("optional"))
                labelled = l->is_array() && l->size() == 1 ? &(*l)[0] : nullptr;
            return Value::some(read(inner, labelled, here + "/value", depth + 1));
        }
        if (kind == "list") {
            const json& elements = repeated(body, "elements", here);
            const bool aligned = l && l->is_array() && l->size() == elements.size();
            std::vector<Value> out;
            out.reserve(elements.size());
            for (std::size_t i = 0; i < elements.size(); ++i)
                out.push_back(read(elements[i], aligned ? &(*l)[i] : nullptr,
                                   here + "/elements/" + std::to_string(i), depth + 1));
            return Value::list(std::move(out));
        }
        if (kind == "textMap" || kind == "genMap") {
            const json& entries = repeated(body, "entries", here);
            const bool aligned = l && l->is_array() && l->size() == entries.size();
            std::vector<std::pair<std::string, Value>> texts;
            std::vector<std::pair<Value, Value>> pairs;
            for (std::size_t i = 0; i < entries.size(); ++i) {
                const std::string at_entry = here + "/entries/" + std::to_string(i);
                const json& entry = entries[i];
                if (kind == "textMap") {
                    const std::string key = string(member(entry, "key", at_entry), at_entry);
                    const ordered_json* labelled =
                        l && l->is_object() && l->contains(key) ? &(*l)[key] : nullptr;
                    texts.emplace_back(key, read(member(entry, "value", at_entry), labelled,
                                                 at_entry + "/value", depth + 1));
                } else {
                    const ordered_json* pair =
                        aligned && (*l)[i].is_array() && (*l)[i].size() == 2 ? &(*l)[i] : nullptr;
                    pairs.emplace_back(
                        read(member(entry, "key", at_entry), pair ? &(*pair)[0] : nullptr,
                             at_entry + "/key", depth + 1),
                        read(member(entry, "value", at_entry), pair ? &(*pair)[1] : nullptr,
                             at_entry + "/value", depth + 1));
                }
            }
            return kind == "textMap" ? Value::text_map(std::move(texts))
                                     : Value::gen_map(std::move(pairs));
        }
        if (kind == "record") {
            const json& fields = repeated(body, "fields", here);
            const bool aligned = l && l->is_object() && l->size() == fields.size();
            auto label = aligned ? l->begin() : ordered_json::const_iterator();
            std::vector<std::pair<std::string, Value>> out;
            out.reserve(fields.size());
            for (std::size_t i = 0; i < fields.size(); ++i) {
                const std::string at_field = here + "/fields/" + std::to_string(i);
                const json& field = fields[i];
                std::string name = "_" + std::to_string(i + 1);
                const ordered_json* labelled = nullptr;
                if (field.is_object() && field.contains("label") && field["label"].is_string()) {
                    name = field["label"].get<std::string>();
                    if (l && l->is_object() && l->contains(name)) labelled = &(*l)[name];
                } else if (aligned) {
                    name = label.key();
                    labelled = &label.value();
                }
                if (aligned) ++label;
                out.emplace_back(std::move(name), read(member(field, "value", at_field), labelled,
                                                       at_field + "/value", depth + 1));
            }
            return Value::record(std::move(out));
        }
        fail(at, "has no known kind \"" + kind + "\"");
    }

  private:
    static const std::string& string(const json& j, const std::string& at) {
        if (!j.is_string()) fail(at, "is not a string");
        return j.get_ref<const std::string&>();
    }
    static std::int64_t integer(const json& j, const std::string& at) {
        if (j.is_number_integer()) return j.get<std::int64_t>();
        if (j.is_string()) {
            if (const auto n = int64_of(j.get_ref<const std::string&>())) return *n;
        }
        fail(at, "is not a 64-bit integer");
    }
    static const json& member(const json& j, const char* key, const std::string& at) {
        if (!j.is_object() || !j.contains(key)) fail(at, std::string("has no \"") + key + "\"");
        return j[key];
    }
    // A repeated field, which protobuf's JSON omits when it is empty.
    static const json& repeated(const json& j, const char* key, const std::string& at) {
        static const json empty = json::array();
        if (!j.is_object()) fail(at, "is not an object");
        if (!j.contains(key)) return empty;
        if (!j[key].is_array()) fail(at + "/" + key, "is not an array");
        return j[key];
    }
};

}  // namespace

Value value_from_protobuf_json(const json& typed, const ordered_json* labelled) {
    return TypedReader().read(typed, labelled, "", 0);
}

Value value_from_compact_json(const ordered_json& compact) {
    return from_compact(compact, 0);
}

}  // namespace cantonlite::model
