#include "cantonlite/areas/ledger/relaxed_json.hpp"

#include <cstddef>
#include <limits>
#include <string>
#include <utility>
#include <variant>

#include "cantonlite/areas/circe.hpp"
#include "cantonlite/http/api_error.hpp"
#include "cantonlite/http/java_json.hpp"
#include "cantonlite/model/ids.hpp"

namespace cantonlite::areas::ledger::relaxed {
using nlohmann::json;

// Spec: canton-ledger-behavior.md §5.4 (tapir DefaultDecodeFailureHandler over circe 0.14.2).
[[noreturn]] void fail(std::string_view detail) {
    throw http::DecodeError("Invalid value for: body (" + std::string(detail) + ")");
}

[[noreturn]] void fail_at(std::string_view message, std::string_view path) {
    fail(std::string(message) + " at '" + std::string(path) + "'");
}

[[noreturn]] void wrong_type(const json& value, std::string_view expecting, std::string_view path) {
    fail_at("Got value '" + value.dump() + "' with wrong type, expecting " + std::string(expecting),
            path);
}

// A relaxed object that is not a JSON object gets no defaults, so its first field is missing.
void require_object(const json& value, std::string_view first_field) {
    if (!value.is_object()) fail_at("Missing required field", first_field);
}

// The member `key` of a JSON object, or nullptr when absent.
const json* member(const json& object, std::string_view key) {
    const auto it = object.find(key);
    return it == object.end() ? nullptr : &*it;
}

json parse_body(std::string_view body) {
    auto read = http::read_java_json(body, 10);
    if (auto* value = std::get_if<json>(&read)) return std::move(*value);
    // A number beyond a double (1e400): jawn would keep it, and circe reject it wherever a field
    // is read from it; nlohmann cannot hold it at all.
    fail(std::get<http::JsonRefusal>(read).detail);
}

// --- scalars ---

// circe's Decoder[Long]: a whole JSON number, or a string holding one ("5", "5.0").
std::int64_t decode_long(const json& value, std::string_view path) {
    const std::optional<std::int64_t> result = circe_long(value);
    if (!result) fail_at("Long", path);
    return *result;
}

std::optional<std::int64_t> decode_optional_long(const json* value, std::string_view path) {
    if (value == nullptr || value->is_null()) return std::nullopt;
    return decode_long(*value, path);
}

std::optional<std::int32_t> decode_optional_int(const json* value, std::string_view path) {
    if (value == nullptr || value->is_null()) return std::nullopt;
    // circe's Decoder[Int] reads what its Decoder[Long] reads, a string holding a number too.
    const std::optional<std::int64_t> n = circe_long(*value);
    if (!n || *n < std::numeric_limits<std::int32_t>::min() ||
        *n > std::numeric_limits<std::int32_t>::max())
        fail_at("Int", path);
    return static_cast<std::int32_t>(*n);
}

std::string decode_string(const json* value, std::string_view path) {
    if (value == nullptr) return "";
    if (!value->is_string()) wrong_type(*value, "string", path);
    return value->get<std::string>();
}

std::optional<std::string> base64_bytes(std::string text) {
    while (text.size() % 4 != 0) text += '=';
    return model::base64_decode(text);
}

std::string decode_byte_string(const json* value, std::string_view path) {
    const std::string text = decode_string(value, path);
    const auto bytes = base64_bytes(text);
    if (!bytes) fail_at("The string is not a valid Base64: " + text, path);
    return *bytes;
}

std::optional<std::string> decode_optional_string(const json* value, std::string_view path) {
    if (value == nullptr || value->is_null()) return std::nullopt;
    return decode_string(value, path);
}

bool decode_bool(const json* value, std::string_view path) {
    if (value == nullptr) return false;
    if (!value->is_boolean()) wrong_type(*value, "'true' or 'false'", path);
    return value->get<bool>();
}

std::vector<std::string> decode_strings(const json* value, std::string_view path) {
    std::vector<std::string> out;
    if (value == nullptr) return out;
    if (!value->is_array()) wrong_type(*value, "array", path);
    for (std::size_t i = 0; i < value->size(); ++i) {
        const json& item = (*value)[i];
        if (!item.is_string())
            wrong_type(item, "string", std::string(path) + "[" + std::to_string(i) + "]");
        out.push_back(item.get<std::string>());
    }
    return out;
}

// Spec §3.5: split like Java's String.split(":"), which drops trailing empty parts.
std::optional<Identifier> decode_identifier(const json* value, std::string_view path) {
    if (value == nullptr || value->is_null()) return std::nullopt;
    if (!value->is_string()) wrong_type(*value, "string", path);
    const auto& text = value->get_ref<const std::string&>();
    std::vector<std::string> parts;
    std::size_t start = 0;
    for (std::size_t colon; (colon = text.find(':', start)) != std::string::npos; start = colon + 1)
        parts.push_back(text.substr(start, colon - start));
    parts.push_back(text.substr(start));
    while (parts.size() > 1 && parts.back().empty()) parts.pop_back();
    if (parts.size() != 3 || text.empty()) {
        fail_at("Invalid identifier format (" + text +
                    ") not matching the expected format (<package>:<moduleName>:<entityName>)",
                path);
    }
    return Identifier{.package = parts[0], .module_name = parts[1], .entity_name = parts[2]};
}

TransactionShape decode_shape(const json* value) {
    constexpr std::string_view path = "transactionShape";
    // The relaxed codec pre-fills a missing enum with scalapb's Unrecognized(0).
    const json prefilled = {{"Unrecognized", {{"unrecognizedValue", 0}}}};
    const json& v = value == nullptr ? prefilled : *value;
    if (!v.is_string()) wrong_type(v, "string", path);
    const auto& name = v.get_ref<const std::string&>();
    if (name == "TRANSACTION_SHAPE_UNSPECIFIED") return TransactionShape::unspecified;
    if (name == "TRANSACTION_SHAPE_ACS_DELTA") return TransactionShape::acs_delta;
    if (name == "TRANSACTION_SHAPE_LEDGER_EFFECTS") return TransactionShape::ledger_effects;
    fail_at("Unrecognized enum value " + name +
                ". Supported values: [TRANSACTION_SHAPE_UNSPECIFIED, TRANSACTION_SHAPE_ACS_DELTA, "
                "TRANSACTION_SHAPE_LEDGER_EFFECTS]",
            path);
}

// --- relaxed objects; each decodes from a fresh cursor, so paths restart at its fields ---

namespace {

// The `value` of {"<X>Filter": {"value": {...}}} (proto WildcardFilter/TemplateFilter/...).
CumulativeFilter decode_filter_value(CumulativeFilter::Kind kind, const json& value) {
    CumulativeFilter filter{.kind = kind};
    switch (kind) {
        case CumulativeFilter::Kind::template_filter:
            require_object(value, "templateId");
            filter.identifier = decode_identifier(member(value, "templateId"), "templateId");
            break;
        case CumulativeFilter::Kind::interface_filter:
            require_object(value, "interfaceId");
            filter.identifier = decode_identifier(member(value, "interfaceId"), "interfaceId");
            filter.include_interface_view =
                decode_bool(member(value, "includeInterfaceView"), "includeInterfaceView");
            break;
        default:
            require_object(value, "includeCreatedEventBlob");
    }
    filter.include_created_event_blob =
        decode_bool(member(value, "includeCreatedEventBlob"), "includeCreatedEventBlob");
    return filter;
}

// IdentifierFilter: the first alternative key present, in circe's (alphabetical) order.
CumulativeFilter decode_identifier_filter(const json& value) {
    using Kind = CumulativeFilter::Kind;
    static const std::pair<std::string_view, Kind> alternatives[] = {
        {"Empty", Kind::empty},
        {"InterfaceFilter", Kind::interface_filter},
        {"TemplateFilter", Kind::template_filter},
        {"WildcardFilter", Kind::wildcard},
    };
    if (value.is_object()) {
        for (const auto& [key, kind] : alternatives) {
            const json* wrapper = member(value, key);
            if (wrapper == nullptr) continue;
            if (kind == Kind::empty) return CumulativeFilter{};
            require_object(*wrapper, "value");
            const json* inner = member(*wrapper, "value");
            if (inner == nullptr) fail_at("Missing required field", "value");
            return decode_filter_value(kind, *inner);
        }
    }
    fail_at("JSON decoding to CNil should never happen", "identifierFilter");
}

CumulativeFilter decode_cumulative_filter(const json& value) {
    require_object(value, "identifierFilter");
    const json* identifier_filter = member(value, "identifierFilter");
    return identifier_filter == nullptr ? CumulativeFilter{}
                                        : decode_identifier_filter(*identifier_filter);
}

}  // namespace

Filters decode_filters(const json& value) {
    require_object(value, "cumulative");
    Filters filters;
    const json* cumulative = member(value, "cumulative");
    if (cumulative == nullptr) return filters;
    if (!cumulative->is_array()) wrong_type(*cumulative, "array", "cumulative");
    for (const json& item : *cumulative)
        filters.cumulative.push_back(decode_cumulative_filter(item));
    return filters;
}

EventFormat decode_event_format(const json& value) {
    EventFormat format = decode_transaction_filter(value);
    format.verbose = decode_bool(member(value, "verbose"), "verbose");
    return format;
}

TransactionFormat decode_transaction_format(const json& value) {
    require_object(value, "eventFormat");
    TransactionFormat format;
    format.event_format = optional_member(value, "eventFormat", decode_event_format);
    format.transaction_shape = decode_shape(member(value, "transactionShape"));
    return format;
}

EventFormat decode_transaction_filter(const json& value) {
    require_object(value, "filtersByParty");
    EventFormat format;
    if (const json* by_party = member(value, "filtersByParty")) {
        if (!by_party->is_object()) wrong_type(*by_party, "object", "filtersByParty");
        for (const auto& [party, filters] : by_party->items())
            format.filters_by_party.emplace(party, decode_filters(filters));
    }
    format.filters_for_any_party = optional_member(value, "filtersForAnyParty", decode_filters);
    return format;
}

namespace {

TopologyFormat decode_topology_format(const json& value) {
    require_object(value, "includeParticipantAuthorizationEvents");
    TopologyFormat format;
    const json* events = member(value, "includeParticipantAuthorizationEvents");
    if (events != nullptr && !events->is_null()) {
        require_object(*events, "parties");
        format.participant_authorization_parties =
            decode_strings(member(*events, "parties"), "parties");
    }
    return format;
}

}  // namespace

UpdateFormat decode_update_format(const json& value) {
    require_object(value, "includeTransactions");
    UpdateFormat format;
    format.include_transactions =
        optional_member(value, "includeTransactions", decode_transaction_format);
    format.include_reassignments =
        optional_member(value, "includeReassignments", decode_event_format);
    format.include_topology_events =
        optional_member(value, "includeTopologyEvents", decode_topology_format);
    return format;
}

}  // namespace cantonlite::areas::ledger::relaxed
