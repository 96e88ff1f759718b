#include "scan_values.hpp"

#include <algorithm>
#include <charconv>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "cantonlite/model/packed_value.hpp"
#include "cantonlite/model/packed_writer.hpp"
#include "cantonlite/model/timestamp.hpp"
#include "cantonlite/model/value_json.hpp"

namespace cantonlite::seed {
namespace {

using model::Decimal;
using model::Timestamp;
using model::Value;
using model::ValueEncoding;
using simdjson::dom::element;
using simdjson::dom::element_type;

constexpr int max_depth = 200;  // as a state file's values
constexpr std::int64_t micros_per_day = 86'400LL * 1'000'000;

// `s` as a JSON string, as the encodings write it.
std::string quoted(const std::string& s) {
    return nlohmann::json(s).dump();
}

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
            if (model::value_json(model::pack(v), ValueEncoding::codegen) == quoted(s)) return v;
        }
    }
    if (canonical_digits(unsigned_part) && s != "-0") {
        if (const auto n = int64_of(s)) return Value::int64(*n);
    }
    if (s.size() == 10 && s[4] == '-' && s[7] == '-') {
        if (const auto t = model::parse_timestamp(s + "T00:00:00Z"))
            return Value::date(t->micros / micros_per_day);
    }
    if (s.size() >= 20 && s[10] == 'T' && s.back() == 'Z') {
        if (const auto t = model::parse_timestamp(s)) {
            Value v = Value::timestamp(*t);
            if (model::value_json(model::pack(v), ValueEncoding::codegen) == quoted(s)) return v;
        }
    }
    return Value::text_value(s);
}

Value from_compact(element c, int depth) {
    if (depth > max_depth) fail("", "is nested deeper than " + std::to_string(max_depth));
    switch (c.type()) {
        case element_type::NULL_VALUE:
            return Value::none();
        case element_type::BOOL:
            return Value::boolean(c.get_bool().value_unsafe());
        case element_type::INT64:
            return Value::int64(c.get_int64().value_unsafe());
        case element_type::UINT64:
            return Value::text_value(std::to_string(c.get_uint64().value_unsafe()));
        case element_type::STRING:
            return typed_string(std::string(c.get_string().value_unsafe()));
        case element_type::ARRAY: {
            const simdjson::dom::array items = c.get_array().value_unsafe();
            bool pairs = items.size() > 0;
            for (const element e : items) {
                if (e.type() != element_type::ARRAY || e.get_array().value_unsafe().size() != 2) {
                    pairs = false;
                    break;
                }
            }
            if (pairs) {
                std::vector<std::pair<Value, Value>> entries;
                for (const element e : items) {
                    const simdjson::dom::array pair = e.get_array().value_unsafe();
                    auto it = pair.begin();
                    Value key = from_compact(*it, depth + 1);
                    ++it;
                    entries.emplace_back(std::move(key), from_compact(*it, depth + 1));
                }
                return Value::gen_map(std::move(entries));
            }
            std::vector<Value> elements;
            for (const element e : items) elements.push_back(from_compact(e, depth + 1));
            return Value::list(std::move(elements));
        }
        case element_type::OBJECT: {
            const simdjson::dom::object fields = c.get_object().value_unsafe();
            if (fields.size() == 2) {
                element tag, value;
                if (!fields.at_key("tag").get(tag) && tag.is_string() &&
                    !fields.at_key("value").get(value))
                    return Value::variant(std::string(tag.get_string().value_unsafe()),
                                          from_compact(value, depth + 1));
            }
            std::vector<std::pair<std::string, Value>> out;
            for (const simdjson::dom::key_value_pair field : fields)
                out.emplace_back(std::string(field.key), from_compact(field.value, depth + 1));
            return Value::record(std::move(out));
        }
        case element_type::DOUBLE:
            break;
    }
    return Value::text_value(simdjson::to_string(c));  // a floating-point number: no Daml value
}

// ---- protobuf_json, labelled from compact_json ----

// Where a value sits in a protobuf_json document ("/record/fields/2/value/text"): steps on the
// stack, spelt out only when an error names them (building each value's path as a string took a
// fifth of a fork's reading).
struct Place {
    static constexpr std::size_t no_index = static_cast<std::size_t>(-1);
    const Place* up = nullptr;
    std::string_view step;         // "" at the root
    std::size_t index = no_index;  // a number after the step ("/fields/2")

    [[nodiscard]] std::string text() const {
        std::string out = up != nullptr ? up->text() : std::string();
        if (!step.empty()) out.append("/").append(step);
        if (index != no_index) out.append("/").append(std::to_string(index));
        return out;
    }
};

[[noreturn]] void fail(const Place& at, const std::string& why) {
    fail(at.text(), why);
}

std::string_view string_of(element j, const Place& at) {
    std::string_view s;
    if (j.get_string().get(s)) fail(at, "is not a string");
    return s;
}

std::int64_t integer_of(element j, const Place& at) {
    std::int64_t n = 0;
    if (!j.get_int64().get(n)) return n;
    std::string_view s;
    if (!j.get_string().get(s)) {
        if (const auto parsed = int64_of(s)) return *parsed;
    }
    fail(at, "is not a 64-bit integer");
}

element member(element j, const char* key, const Place& at) {
    element out;
    if (!j.is_object() || j.get_object().value_unsafe().at_key(key).get(out))
        fail(at, std::string("has no \"") + key + "\"");
    return out;
}

// A repeated field, which protobuf's JSON omits when it is empty.
std::optional<simdjson::dom::array> repeated(element j, const char* key, const Place& at) {
    if (!j.is_object()) fail(at, "is not an object");
    element field;
    if (j.get_object().value_unsafe().at_key(key).get(field)) return std::nullopt;
    simdjson::dom::array items;
    if (field.get_array().get(items)) fail(Place{.up = &at, .step = key}, "is not an array");
    // simdjson's size() stops counting at 2^24 - 1, and a packed value is written after its count.
    if (items.size() >= 0xFFFFFF) fail(Place{.up = &at, .step = key}, "has too many items");
    return items;
}

// The member `key` of a compact object, or nullptr.
const element* labelled_member(const element* l, std::string_view key, element& holder) {
    if (l == nullptr || !l->is_object()) return nullptr;
    if (l->get_object().value_unsafe().at_key(key).get(holder)) return nullptr;
    return &holder;
}

// A step down from `place`.
std::string below(const std::string& place, std::string_view step) {
    std::string out;
    out.reserve(place.size() + 1 + step.size());
    out += place;
    out += '/';
    out += step;
    return out;
}

// Where read_typed takes a record's labels from: the same value in compact_json, where it has it;
// else, when reading by `learnt` (RecordLabels), those learnt for the record's place (`unknown` is
// set where none are, and the value read on, so that a malformed one is refused as such); else
// its fields' positions ("_1", "_2", ...).
struct LabelSource {
    const std::unordered_map<std::string, std::vector<std::string>>* learnt = nullptr;
    bool unknown = false;

    // The place one step down from `place`; kept only when reading by the places.
    [[nodiscard]] std::string down(const std::string& place, std::string_view step) const {
        return learnt != nullptr ? below(place, step) : std::string();
    }
    // The labels learnt for a record of `fields` fields at `place`; nullptr when none.
    const std::vector<std::string>* at(const std::string& place, std::size_t fields) {
        if (learnt == nullptr) return nullptr;
        const auto it = learnt->find(place);
        if (it == learnt->end() || it->second.size() != fields) {
            unknown = true;
            return nullptr;
        }
        return &it->second;
    }
};

// Writes the value of `t` (protobuf_json; `l`: the same value in compact_json, or nullptr), at
// `place` for `labels`, to `out` in pack()'s form. Throws ScanValueError naming `at`.
void read_typed(element t, const element* l, LabelSource& labels, const std::string& place,
                const Place& at, int depth, model::packed::Writer& out) {
    using Kind = Value::Kind;
    if (depth > max_depth) fail(at, "is nested deeper than " + std::to_string(max_depth));
    simdjson::dom::object single;
    if (t.get_object().get(single) || single.size() != 1)
        fail(at, "is not a protobuf_json value such as {\"text\": \"x\"}");
    const simdjson::dom::key_value_pair item = *single.begin();
    const std::string_view kind = item.key;
    const element body = item.value;
    const Place here{.up = &at, .step = kind};
    const Place here_value{.up = &here, .step = "value"};
    const auto scalar = [&out](Kind k) -> model::packed::Writer& {
        out.kind(k);
        return out;
    };
    if (kind == "unit") return out.kind(Kind::unit);
    if (kind == "bool") {
        bool b = false;
        if (body.get_bool().get(b)) fail(here, "is not true or false");
        return scalar(Kind::boolean).flag(b);
    }
    if (kind == "text") return out.text_node(string_of(body, here));
    if (kind == "party") return scalar(Kind::party).name(string_of(body, here));
    if (kind == "contractId") return scalar(Kind::contract_id).name(string_of(body, here));
    if (kind == "int64") return scalar(Kind::int64).integer(integer_of(body, here));
    if (kind == "numeric") {
        const auto d = Decimal::parse(std::string(string_of(body, here)));
        if (!d) fail(here, "is not a decimal");
        return scalar(Kind::numeric).decimal(*d);
    }
    if (kind == "timestamp") return scalar(Kind::timestamp).integer(integer_of(body, here));
    if (kind == "date") return scalar(Kind::date).integer(integer_of(body, here));
    if (kind == "enum")
        return scalar(Kind::enumeration).text(string_of(member(body, "constructor", here), here));
    element holder;
    if (kind == "variant") {
        const std::string_view constructor = string_of(member(body, "constructor", here), here);
        scalar(Kind::variant).text(constructor);
        return read_typed(member(body, "value", here), labelled_member(l, "value", holder), labels,
                          labels.down(place, ":" + std::string(constructor)), here_value, depth + 1,
                          out);
    }
    if (kind == "optional") {
        if (!body.is_object()) fail(here, "is not an object");
        element inner;
        if (body.get_object().value_unsafe().at_key("value").get(inner))
            return scalar(Kind::optional).flag(false);
        // Compact writes Some x as x, and a nested Optional's Some as an array of one.
        const element* labelled = l;
        simdjson::dom::object inner_object;
        if (l != nullptr && !inner.get_object().get(inner_object) &&
            !inner_object.at_key("optional").error()) {
            simdjson::dom::array of_one;
            labelled = !l->get_array().get(of_one) && of_one.size() == 1
                           ? (holder = *of_one.begin(), &holder)
                           : nullptr;
        }
        scalar(Kind::optional).flag(true);
        return read_typed(inner, labelled, labels, labels.down(place, "?"), here_value, depth + 1,
                          out);
    }
    if (kind == "list") {
        const auto elements = repeated(body, "elements", here);
        scalar(Kind::list).varint(elements ? elements->size() : 0);
        if (!elements) return;
        simdjson::dom::array labelled;
        const bool aligned =
            l != nullptr && !l->get_array().get(labelled) && labelled.size() == elements->size();
        auto label = aligned ? labelled.begin() : simdjson::dom::array::iterator();
        const std::string each = labels.down(place, "[]");
        std::size_t i = 0;
        for (const element e : *elements) {
            element current;
            if (aligned) current = *label;
            read_typed(e, aligned ? &current : nullptr, labels, each,
                       Place{.up = &here, .step = "elements", .index = i++}, depth + 1, out);
            if (aligned) ++label;
        }
        return;
    }
    if (kind == "textMap" || kind == "genMap") {
        const bool text_keys = kind == "textMap";
        const auto entries = repeated(body, "entries", here);  // omitted when empty
        scalar(text_keys ? Kind::text_map : Kind::gen_map).varint(entries ? entries->size() : 0);
        if (!entries) return;
        simdjson::dom::array pairs_labelled;
        const bool aligned = !text_keys && l != nullptr && !l->get_array().get(pairs_labelled) &&
                             pairs_labelled.size() == entries->size();
        auto label = aligned ? pairs_labelled.begin() : simdjson::dom::array::iterator();
        const std::string values = labels.down(place, text_keys ? "{}" : "v");
        const std::string keys = text_keys ? std::string() : labels.down(place, "k");
        std::size_t i = 0;
        for (const element entry : *entries) {
            const Place at_entry{.up = &here, .step = "entries", .index = i++};
            if (text_keys) {
                const std::string_view key = string_of(member(entry, "key", at_entry), at_entry);
                out.name(key);
                read_typed(member(entry, "value", at_entry), labelled_member(l, key, holder),
                           labels, values, Place{.up = &at_entry, .step = "value"}, depth + 1, out);
                continue;
            }
            element key_label, value_label;
            bool labelled_pair = false;
            if (aligned) {
                simdjson::dom::array pair;
                if (!(*label).get_array().get(pair) && pair.size() == 2) {
                    auto it = pair.begin();
                    key_label = *it;
                    ++it;
                    value_label = *it;
                    labelled_pair = true;
                }
                ++label;
            }
            read_typed(member(entry, "key", at_entry), labelled_pair ? &key_label : nullptr, labels,
                       keys, Place{.up = &at_entry, .step = "key"}, depth + 1, out);
            read_typed(member(entry, "value", at_entry), labelled_pair ? &value_label : nullptr,
                       labels, values, Place{.up = &at_entry, .step = "value"}, depth + 1, out);
        }
        return;
    }
    if (kind == "record") {
        const auto fields = repeated(body, "fields", here);
        const std::size_t n = fields ? fields->size() : 0;
        const std::vector<std::string>* learnt = labels.at(place, n);
        scalar(Kind::record).varint(n);
        if (!fields) return;
        simdjson::dom::object compact;
        const bool aligned =
            l != nullptr && !l->get_object().get(compact) && compact.size() == fields->size();
        auto label = aligned ? compact.begin() : simdjson::dom::object::iterator();
        std::size_t i = 0;
        for (const element field : *fields) {
            const Place at_field{.up = &here, .step = "fields", .index = i};
            const element* labelled = nullptr;
            element named;
            std::string_view given;
            if (learnt != nullptr) {
                out.name((*learnt)[i]);
            } else if (field.is_object() &&
                       !field.get_object().value_unsafe().at_key("label").get_string().get(given)) {
                out.name(given);
                labelled = labelled_member(l, given, named);
            } else if (aligned) {
                out.name(label.key());
                named = label.value();
                labelled = &named;
            } else {
                out.name("_" + std::to_string(i + 1));
            }
            if (aligned) ++label;
            read_typed(member(field, "value", at_field), labelled, labels,
                       labels.down(place, std::to_string(i)),
                       Place{.up = &at_field, .step = "value"}, depth + 1, out);
            ++i;
        }
        return;
    }
    fail(at, "has no known kind \"" + std::string(kind) + "\"");
}

}  // namespace

void RecordLabels::learn(const Value& v, const std::string& root) {
    switch (v.kind) {
        case Value::Kind::record:
            labels_.try_emplace(root, v.labels);
            for (std::size_t i = 0; i < v.items.size(); ++i)
                learn(v.items[i], below(root, std::to_string(i)));
            return;
        case Value::Kind::variant:
            if (!v.items.empty()) learn(v.items.front(), below(root, ":" + v.text));
            return;
        case Value::Kind::optional:
            if (!v.items.empty()) learn(v.items.front(), below(root, "?"));
            return;
        case Value::Kind::list:
            for (const Value& item : v.items) learn(item, below(root, "[]"));
            return;
        case Value::Kind::text_map:
            for (const Value& item : v.items) learn(item, below(root, "{}"));
            return;
        case Value::Kind::gen_map:
            for (std::size_t i = 0; i < v.items.size(); ++i)
                learn(v.items[i], below(root, i % 2 == 0 ? "k" : "v"));
            return;
        default:
            return;
    }
}

void RecordLabels::reorder(Value& v, const std::string& root) const {
    switch (v.kind) {
        case Value::Kind::record: {
            const auto it = labels_.find(root);
            if (it == labels_.end() || it->second.size() != v.items.size()) return;
            const std::vector<std::string>& order = it->second;
            if (v.labels != order) {
                std::vector<std::size_t> from;
                from.reserve(order.size());
                for (const std::string& label : order) {
                    const auto at = std::find(v.labels.begin(), v.labels.end(), label);
                    if (at == v.labels.end()) return;  // another record: keep its order
                    from.push_back(static_cast<std::size_t>(at - v.labels.begin()));
                }
                std::vector<Value> items;
                items.reserve(from.size());
                for (const std::size_t i : from) items.push_back(std::move(v.items[i]));
                v.items = std::move(items);
                v.labels = order;
            }
            for (std::size_t i = 0; i < v.items.size(); ++i)
                reorder(v.items[i], below(root, std::to_string(i)));
            return;
        }
        case Value::Kind::variant:
            if (!v.items.empty()) reorder(v.items.front(), below(root, ":" + v.text));
            return;
        case Value::Kind::optional:
            if (!v.items.empty()) reorder(v.items.front(), below(root, "?"));
            return;
        case Value::Kind::list:
        case Value::Kind::text_map: {
            const std::string place = below(root, v.kind == Value::Kind::list ? "[]" : "{}");
            for (Value& item : v.items) reorder(item, place);
            return;
        }
        case Value::Kind::gen_map:
            for (std::size_t i = 0; i < v.items.size(); ++i)
                reorder(v.items[i], below(root, i % 2 == 0 ? "k" : "v"));
            return;
        default:
            return;
    }
}

bool RecordLabels::known(element typed, const std::string& root) const {
    simdjson::dom::object single;
    if (typed.get_object().get(single) || single.size() != 1) return true;  // a reader refuses it
    const simdjson::dom::key_value_pair item = *single.begin();
    const std::string_view kind = item.key;
    const element body = item.value;
    simdjson::dom::array items;
    const auto repeated_of = [&](const char* key) {
        element field;
        return body.is_object() && !body.get_object().value_unsafe().at_key(key).get(field) &&
               !field.get_array().get(items);
    };
    element inner;
    if (kind == "record") {
        const auto it = labels_.find(root);
        const std::size_t fields = repeated_of("fields") ? items.size() : 0;
        if (it == labels_.end() || it->second.size() != fields) return false;
        if (fields == 0) return true;
        std::size_t i = 0;
        for (const element field : items) {
            if (field.is_object() &&
                !field.get_object().value_unsafe().at_key("value").get(inner) &&
                !known(inner, below(root, std::to_string(i))))
                return false;
            ++i;
        }
        return true;
    }
    if (kind == "variant" || kind == "optional") {
        if (!body.is_object() || body.get_object().value_unsafe().at_key("value").get(inner))
            return true;
        std::string_view constructor;
        if (kind == "variant" &&
            body.get_object().value_unsafe().at_key("constructor").get_string().get(constructor))
            return true;
        return known(inner, below(root, kind == "variant" ? ":" + std::string(constructor) : "?"));
    }
    if (kind == "list") {
        if (!repeated_of("elements")) return true;
        const std::string place = below(root, "[]");
        for (const element e : items) {
            if (!known(e, place)) return false;
        }
        return true;
    }
    if (kind == "textMap" || kind == "genMap") {
        if (!repeated_of("entries")) return true;
        for (const element entry : items) {
            if (!entry.is_object()) continue;
            const simdjson::dom::object pair = entry.get_object().value_unsafe();
            if (kind == "genMap" && !pair.at_key("key").get(inner) &&
                !known(inner, below(root, "k")))
                return false;
            if (!pair.at_key("value").get(inner) &&
                !known(inner, below(root, kind == "textMap" ? "{}" : "v")))
                return false;
        }
        return true;
    }
    return true;
}

model::PackedValue packed_from_protobuf_json(element typed, const element* labelled) {
    LabelSource by_position;
    model::packed::Writer out;
    read_typed(typed, labelled, by_position, std::string(), Place{}, 0, out);
    return model::PackedValue::adopt(out.take());
}

Value value_from_protobuf_json(element typed, const element* labelled) {
    return model::unpack(packed_from_protobuf_json(typed, labelled));
}

std::optional<model::PackedValue> RecordLabels::packed(element typed,
                                                       const std::string& root) const {
    // Written to a buffer the thread keeps, then copied once into the value.
    thread_local std::string buffer;
    LabelSource learnt{.learnt = &labels_};
    model::packed::Writer out(std::move(buffer));
    read_typed(typed, nullptr, learnt, root, Place{}, 0, out);
    buffer = out.take();
    if (learnt.unknown) return std::nullopt;
    return model::PackedValue::adopt(buffer);
}

Value value_from_compact_json(element compact) {
    return from_compact(compact, 0);
}

}  // namespace cantonlite::seed
