#include "cantonlite/model/lf_type.hpp"

#include <cstdio>
#include <string>

#include "cantonlite/model/decimal.hpp"
#include "cantonlite/model/json_fields.hpp"
#include "cantonlite/model/timestamp.hpp"

namespace cantonlite::model {
namespace {

using Kind = Value::Kind;

// Types live for the program: the schemas that name them are built once, at first use.
LfType* make(Kind kind) {
    return new LfType{.kind = kind};  // NOLINT(cppcoreguidelines-owning-memory): never freed
}

const LfType* primitive(Kind kind) {
    static const auto* const types = [] {
        auto* all = new std::vector<const LfType*>();  // NOLINT: never freed
        for (int k = 0; k <= static_cast<int>(Kind::date); ++k)
            all->push_back(make(static_cast<Kind>(k)));
        return all;
    }();
    return (*types)[static_cast<std::size_t>(kind)];
}

[[noreturn]] void invalid(const std::string& what) {
    throw LfDecodeError(LfDecodeError::Kind::invalid, what);
}

// ujson's and the JDK's words for a value of the wrong JSON type (transcode reads it as ujson).
[[noreturn]] void wrong_json(const nlohmann::json& json, std::string_view expected) {
    invalid("expected " + std::string(expected) + ", got " + describe_json(json));
}

const std::string& string_of(const nlohmann::json& json, std::string_view expected) {
    if (!json.is_string()) wrong_json(json, expected);
    return json.get_ref<const std::string&>();
}

// Scala's Set(a, b).toString, in declaration order.
std::string scala_set(const std::vector<std::string>& names) {
    std::string out = "Set(";
    for (std::size_t i = 0; i < names.size(); ++i) out += (i == 0 ? "" : ", ") + names[i];
    return out + ")";
}

Value decode(const nlohmann::json& json, const LfType& type) {
    switch (type.kind) {
        case Kind::unit:
            return Value::unit();
        case Kind::boolean:
            if (!json.is_boolean()) wrong_json(json, "boolean");
            return Value::boolean(json.get<bool>());
        case Kind::int64: {
            // JsonCodec: v.str.toLong; a JSON number is not a string.
            const std::string& s = string_of(json, "string");
            std::size_t used = 0;
            long long n = 0;
            try {
                n = std::stoll(s, &used);
            } catch (const std::exception&) {
                used = 0;
            }
            if (used == 0 || used != s.size() || s.front() == ' ')
                invalid("For input string: \"" + s + "\"");
            return Value::int64(n);
        }
        case Kind::numeric: {
            std::optional<Decimal> d;
            if (json.is_string()) {
                d = Decimal::parse(json.get_ref<const std::string&>());
            } else if (json.is_number()) {
                d = Decimal::parse(json.dump());
            } else {
                invalid(json.dump() + " is not a valid numeric value");
            }
            if (!d) {
                invalid(json.dump() + " is not a valid numeric value");
            }
            return Value::numeric(*d);
        }
        case Kind::text:
            return Value::text_value(string_of(json, "string"));
        case Kind::party: {
            const std::string& p = string_of(json, "string");
            if (const auto e = lf_party_error(p)) invalid(*e);
            return Value::party(p);
        }
        case Kind::contract_id: {
            const std::string& c = string_of(json, "string");
            if (c.empty()) invalid("Daml-LF ContractId is empty");
            return Value::contract_id(c);
        }
        case Kind::timestamp: {
            const std::string& s = string_of(json, "string");
            const auto t = parse_timestamp(s);
            if (!t) invalid("Text '" + s + "' could not be parsed as a timestamp");
            return Value::timestamp(*t);
        }
        case Kind::date: {
            const std::string& s = string_of(json, "string");
            const auto d = parse_date(s);
            if (!d) invalid("Text '" + s + "' could not be parsed as a date");
            return Value::date(*d);
        }
        case Kind::optional: {
            const LfType& of = *type.args[0];
            if (json.is_null()) return Value::none();
            if (of.kind != Kind::optional) return Value::some(decode(json, of));
            // A nested Optional: [] is Some None, [x] is Some x.
            if (!json.is_array() || json.size() > 1) wrong_json(json, "array of at most one");
            if (json.empty()) return Value::some(Value::none());
            return Value::some(decode(json[0], of));
        }
        case Kind::list: {
            if (!json.is_array()) wrong_json(json, "array");
            std::vector<Value> items;
            items.reserve(json.size());
            for (const auto& e : json) items.push_back(decode(e, *type.args[0]));
            return Value::list(std::move(items));
        }
        case Kind::text_map: {
            if (!json.is_object()) wrong_json(json, "object");
            std::vector<std::pair<std::string, Value>> entries;
            for (const auto& [k, v] : json.items())
                entries.emplace_back(k, decode(v, *type.args[0]));
            return Value::text_map(std::move(entries));
        }
        case Kind::gen_map: {
            if (!json.is_array()) wrong_json(json, "array");
            std::vector<std::pair<Value, Value>> entries;
            for (const auto& e : json) {
                if (!e.is_array() || e.size() != 2) wrong_json(e, "[key, value]");
                entries.emplace_back(decode(e[0], *type.args[0]), decode(e[1], *type.args[1]));
            }
            return Value::gen_map(std::move(entries));
        }
        case Kind::record: {
            if (!json.is_object()) wrong_json(json, "object");
            std::vector<std::string> missing;
            for (const auto& [name, t] : type.fields) {
                const auto it = json.find(name);
                if ((it == json.end() || it->is_null()) && t->kind != Kind::optional)
                    missing.push_back(name);
            }
            if (!missing.empty()) {
                throw LfDecodeError(LfDecodeError::Kind::missing_fields,
                                    "Missing non-optional fields: " + scala_set(missing));
            }
            std::vector<std::string> unexpected;
            for (const auto& [k, v] : json.items()) {
                if (v.is_null()) continue;
                bool known = false;
                for (const auto& f : type.fields) known = known || f.first == k;
                if (!known) unexpected.push_back(k);
            }
            if (!unexpected.empty()) invalid("Unexpected fields: " + scala_set(unexpected));
            std::vector<std::pair<std::string, Value>> fields;
            fields.reserve(type.fields.size());
            for (const auto& [name, t] : type.fields) {
                const auto it = json.find(name);
                fields.emplace_back(name, it == json.end() ? Value::none() : decode(*it, *t));
            }
            return Value::record(std::move(fields));
        }
        case Kind::variant: {
            if (!json.is_object() || !json.contains("tag") || !json.contains("value"))
                invalid("Variant type json must have 'tag' and 'value' fields.");
            const nlohmann::json& tag = json["tag"];
            if (!tag.is_string()) wrong_json(tag, "string");
            for (const auto& [ctor, t] : type.fields) {
                if (ctor == tag.get_ref<const std::string&>())
                    return Value::variant(ctor, decode(json["value"], *t));
            }
            invalid("Unexpected variant tag: " + tag.get<std::string>());
        }
        case Kind::enumeration: {
            const std::string& s = string_of(json, "string");
            for (const std::string& c : type.constructors) {
                if (c == s) return Value::enumeration(c);
            }
            invalid("Unexpected enum constructor: " + s);
        }
    }
    invalid("unsupported type");
}

}  // namespace

const LfType* LfType::unit() {
    return primitive(Kind::unit);
}
const LfType* LfType::boolean() {
    return primitive(Kind::boolean);
}
const LfType* LfType::int64() {
    return primitive(Kind::int64);
}
const LfType* LfType::numeric() {
    return primitive(Kind::numeric);
}
const LfType* LfType::text() {
    return primitive(Kind::text);
}
const LfType* LfType::party() {
    return primitive(Kind::party);
}
const LfType* LfType::contract_id() {
    return primitive(Kind::contract_id);
}
const LfType* LfType::timestamp() {
    return primitive(Kind::timestamp);
}
const LfType* LfType::date() {
    return primitive(Kind::date);
}

const LfType* LfType::optional(const LfType* of) {
    LfType* t = make(Kind::optional);
    t->args = {of};
    return t;
}
const LfType* LfType::list(const LfType* of) {
    LfType* t = make(Kind::list);
    t->args = {of};
    return t;
}
const LfType* LfType::text_map(const LfType* of) {
    LfType* t = make(Kind::text_map);
    t->args = {of};
    return t;
}
const LfType* LfType::gen_map(const LfType* key, const LfType* value) {
    LfType* t = make(Kind::gen_map);
    t->args = {key, value};
    return t;
}
const LfType* LfType::record(std::string name,
                             std::initializer_list<std::pair<std::string, const LfType*>> fields) {
    LfType* t = make(Kind::record);
    t->name = std::move(name);
    t->fields = fields;
    return t;
}
const LfType* LfType::variant(std::string name,
                              std::initializer_list<std::pair<std::string, const LfType*>> ctors) {
    LfType* t = declare_variant(std::move(name));
    t->fields = ctors;
    return t;
}
LfType* LfType::declare_variant(std::string name) {
    LfType* t = make(Kind::variant);
    t->name = std::move(name);
    return t;
}
const LfType* LfType::enumeration(std::string name, std::initializer_list<std::string> ctors) {
    LfType* t = make(Kind::enumeration);
    t->name = std::move(name);
    t->constructors = ctors;
    return t;
}

Value decode_lf_json(const nlohmann::json& json, const LfType& type) {
    return decode(json, type);
}

std::optional<std::string> lf_party_error(std::string_view p) {
    if (p.empty()) return "Daml-LF Party is empty";
    if (p.size() > 255) return "Daml-LF Party is too long (max: 255)";
    for (const char c : p) {
        const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                        (c >= '0' && c <= '9') || c == ':' || c == '-' || c == '_' || c == ' ';
        if (!ok) {
            char hex[8];
            std::snprintf(hex, sizeof hex, "0x%02x", static_cast<unsigned char>(c));
            return std::string("non expected character ") + hex + " in Daml-LF Party \"" +
                   std::string(p) + "\"";
        }
    }
    return std::nullopt;
}

}  // namespace cantonlite::model
