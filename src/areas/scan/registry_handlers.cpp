// The token-standard registry at Scan's root: the metadata API (Splice
// HttpTokenStandardMetadataHandler), the registry info and the Amulet instrument with its supply
// from the latest ACS snapshot; and the transfer-instruction API's transfer factory (Splice
// HttpTokenStandardTransferInstructionHandler.getTransferFactory).
#include <algorithm>
#include <cctype>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

#include "cantonlite/areas/java_time.hpp"
#include "cantonlite/areas/scan/registry_area.hpp"
#include "cantonlite/areas/scan/scan_handlers.hpp"
#include "cantonlite/areas/splice_request.hpp"
#include "cantonlite/http/json_text.hpp"
#include "cantonlite/model/contract.hpp"
#include "cantonlite/model/decimal.hpp"
#include "cantonlite/model/packed_value.hpp"
#include "cantonlite/model/timestamp.hpp"
#include "cantonlite/model/value_json.hpp"
#include "cantonlite/splice/splice_views.hpp"
#include "cantonlite/splice/templates.hpp"
#include "cantonlite/util/java_long.hpp"

namespace cantonlite::areas::scan {
namespace {

using http::ApiError;
using http::ErrorKind;

// The instrument of the DSO's token. Its name and symbol are the Splice instance's names
// (spliceInstanceNames: amuletName, amuletNameAcronym), whose defaults LocalNet keeps.
constexpr std::string_view amulet_id = "Amulet";
constexpr std::string_view amulet_name = "Amulet";
constexpr std::string_view amulet_symbol = "AMT";
constexpr int amulet_decimals = 10;

// The v1 APIs of the Amulet instrument, each at version 1, in the order of Scala's immutable
// HashMap of five entries, which Scan's encoder walks.
constexpr std::string_view amulet_apis =
    R"({"splice-api-token-metadata-v1":1,"splice-api-token-allocation-v1":1,)"
    R"("splice-api-token-transfer-instruction-v1":1,"splice-api-token-holding-v1":1,)"
    R"("splice-api-token-allocation-instruction-v1":1})";

// Instrument: the schema's fields in its order; an absent supply is null (guardrail's encoder).
std::string amulet_instrument(const Store& store) {
    std::string out = "{";
    http::append_string_field(out, "id", amulet_id, true);
    http::append_string_field(out, "name", amulet_name);
    http::append_string_field(out, "symbol", amulet_symbol);
    const auto times = store.snapshot_times();
    const store::SnapshotPtr snapshot =
        times.empty() ? nullptr : store.snapshot(times.back().first, times.back().second, false);
    if (snapshot) {
        const splice::HoldingsSnapshotPtr holdings = splice::views(store).holdings(*snapshot);
        model::Decimal supply;
        for (std::size_t i = 0; i < holdings->size(); ++i)
            supply = supply + holdings->row(i).amount();
        http::append_string_field(out, "totalSupply", supply.to_scaled_string());
        http::append_string_field(out, "totalSupplyAsOf",
                                  model::format_offset_date_time(snapshot->record_time));
    } else {
        http::append_null_field(out, "totalSupply");
        http::append_null_field(out, "totalSupplyAsOf");
    }
    http::append_int_field(out, "decimals", amulet_decimals);
    http::append_raw_field(out, "supportedApis", amulet_apis);
    out += '}';
    return out;
}

// ---- TransferFactory_Transfer in Daml-LF JSON ----------------------------------------------
//
// Scan reads choiceArguments with the Java codegen's TransferFactory_Transfer.fromJson
// (JsonLfDecoders): a record is an object of its fields (or an array of them in order), with no
// unknown field but a null one and none missing (no field here is optional); Text, Party and
// ContractId are strings; Numeric a number or a string; Int a whole number or a string of one; Time
// an ISO instant. The Map fields (Metadata's and ChoiceContext's values, AV_Map) are read as
// objects, as the wallet SDK writes them, or as arrays of [key, value] pairs. Our texts name the
// path.

using Json = nlohmann::json;

struct DamlJsonError {
    std::string detail;
};

[[noreturn]] void fail(const std::string& path, const std::string& problem) {
    throw DamlJsonError{(path.empty() ? std::string("choiceArguments") : path) + ": " + problem};
}

std::string shown(const Json& v) {
    std::string text = v.dump(-1, ' ', false, Json::error_handler_t::replace);
    if (text.size() > 64) text = text.substr(0, 61) + "...";
    return text;
}

std::string member_path(const std::string& path, std::string_view name) {
    return path.empty() ? std::string(name) : path + "." + std::string(name);
}

using Decoder = std::function<void(const Json&, const std::string&)>;

struct Field {
    std::string_view name;
    Decoder decode;
};

void text(const Json& v, const std::string& path) {
    if (!v.is_string()) fail(path, "expected a string, got " + shown(v));
}

// java.math.BigDecimal's syntax, within Numeric 10's range: at most 28 digits before the point
// (more decimals are rounded, not refused).
void numeric(const Json& v, const std::string& path) {
    std::string t;
    if (v.is_number()) {
        t = v.dump();
    } else if (v.is_string()) {
        t = v.get<std::string>();
    } else {
        fail(path, "expected a numeric, got " + shown(v));
    }
    std::size_t i = 0;
    if (i < t.size() && (t[i] == '+' || t[i] == '-')) ++i;
    std::string digits;
    std::int64_t fraction = 0;
    bool point = false;
    for (; i < t.size() && t[i] != 'e' && t[i] != 'E'; ++i) {
        if (t[i] == '.' && !point) {
            point = true;
        } else if (std::isdigit(static_cast<unsigned char>(t[i])) != 0) {
            digits += t[i];
            if (point) ++fraction;
        } else {
            fail(path, "expected a numeric, got " + shown(v));
        }
    }
    std::int64_t exponent = 0;
    if (i < t.size()) {
        const std::string e = t.substr(i + 1);
        std::size_t j = (!e.empty() && (e[0] == '+' || e[0] == '-')) ? 1 : 0;
        if (j == e.size() || e.size() > 10 ||
            !std::all_of(e.begin() + static_cast<std::ptrdiff_t>(j), e.end(),
                         [](unsigned char c) { return std::isdigit(c) != 0; })) {
            fail(path, "expected a numeric, got " + shown(v));
        }
        exponent = std::stoll(e);
    }
    if (digits.empty()) fail(path, "expected a numeric, got " + shown(v));
    const std::size_t first = digits.find_first_not_of('0');
    const std::int64_t precision =
        first == std::string::npos ? 1 : static_cast<std::int64_t>(digits.size() - first);
    if (precision - (fraction - exponent) > 28) {
        fail(path, "expected a numeric in range (-10^28, 10^28), got " + shown(v));
    }
}

// Long.parseLong of a whole JSON number or a string.
void int64(const Json& v, const std::string& path) {
    if (v.is_number_integer()) {
        if (v.is_number_unsigned() &&
            v.get<std::uint64_t>() >
                static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
            fail(path, "expected an int64, got " + shown(v));
        }
        return;
    }
    if (v.is_string() && util::java_parse_long(v.get_ref<const std::string&>())) return;
    fail(path, "expected an int64, got " + shown(v));
}

void boolean(const Json& v, const std::string& path) {
    if (!v.is_boolean()) fail(path, "expected true or false, got " + shown(v));
}

// Instant.parse.
void timestamp(const Json& v, const std::string& path) {
    if (!v.is_string() ||
        std::holds_alternative<std::string>(parse_java_instant(v.get_ref<const std::string&>()))) {
        fail(path, "expected a valid ISO 8601 date and time in UTC, got " + shown(v));
    }
}

// LocalDate.parse: yyyy-MM-dd, a date of the calendar.
void date(const Json& v, const std::string& path) {
    if (!v.is_string() || !model::parse_date(v.get_ref<const std::string&>())) {
        fail(path, "expected a valid ISO 8601 date, got " + shown(v));
    }
}

void record(const Json& v, const std::string& path, std::initializer_list<Field> fields) {
    if (v.is_array()) {
        if (v.size() != fields.size()) {
            fail(path, "expected an array of " + std::to_string(fields.size()) + " fields, got " +
                           std::to_string(v.size()));
        }
        std::size_t k = 0;
        for (const Field& f : fields) f.decode(v[k++], member_path(path, f.name));
        return;
    }
    if (!v.is_object()) fail(path, "expected an object or array, got " + shown(v));
    for (const auto& item : v.items()) {
        const std::string& key = item.key();  // a named variable: clang 14 captures no bindings
        const auto f = std::find_if(fields.begin(), fields.end(),
                                    [&key](const Field& field) { return field.name == key; });
        if (f == fields.end()) {
            // A newer version's trailing optional field left at None (the wallet SDK's
            // `transfer.lock: null`) reads as the record without it (FIDELITY row 82).
            if (item.value().is_null()) continue;
            fail(member_path(path, key), "unknown field");
        }
        f->decode(item.value(), member_path(path, key));
    }
    for (const Field& f : fields) {
        if (!v.contains(std::string(f.name))) fail(member_path(path, f.name), "missing field");
    }
}

Decoder list(Decoder item) {
    return [item = std::move(item)](const Json& v, const std::string& path) {
        if (!v.is_array()) fail(path, "expected an array, got " + shown(v));
        for (std::size_t k = 0; k < v.size(); ++k) item(v[k], path + "[" + std::to_string(k) + "]");
    };
}

// A Map Text value: an object, or an array of [key, value] pairs.
Decoder text_map(Decoder value) {
    return [value = std::move(value)](const Json& v, const std::string& path) {
        if (v.is_object()) {
            for (const auto& [key, item] : v.items()) value(item, path + "[" + key + "]");
            return;
        }
        if (!v.is_array()) fail(path, "expected an object, got " + shown(v));
        for (std::size_t k = 0; k < v.size(); ++k) {
            const std::string at = path + "[" + std::to_string(k) + "]";
            if (!v[k].is_array() || v[k].size() != 2) fail(at, "expected a [key, value] pair");
            text(v[k][0], at + "[0]");
            value(v[k][1], at + "[1]");
        }
    };
}

void rel_time(const Json& v, const std::string& path) {
    record(v, path, {{"microseconds", int64}});
}

// Splice.Api.Token.MetadataV1.AnyValue: {"tag": "AV_…", "value": …}.
void any_value(const Json& v, const std::string& path) {
    if (!v.is_object() || v.size() != 2 || !v.contains("tag") || !v.contains("value")) {
        fail(path, "expected a variant {\"tag\": …, \"value\": …}, got " + shown(v));
    }
    const Json& tag = v.at("tag");
    const std::string tag_text = tag.is_string() ? tag.get<std::string>() : shown(tag);
    const Json& value = v.at("value");
    const std::string at = path + ".value";
    if (tag_text == "AV_Text" || tag_text == "AV_Party" || tag_text == "AV_ContractId") {
        text(value, at);
    } else if (tag_text == "AV_Int") {
        int64(value, at);
    } else if (tag_text == "AV_Decimal") {
        numeric(value, at);
    } else if (tag_text == "AV_Bool") {
        boolean(value, at);
    } else if (tag_text == "AV_Date") {
        date(value, at);
    } else if (tag_text == "AV_Time") {
        timestamp(value, at);
    } else if (tag_text == "AV_RelTime") {
        rel_time(value, at);
    } else if (tag_text == "AV_List") {
        list(any_value)(value, at);
    } else if (tag_text == "AV_Map") {
        text_map(any_value)(value, at);
    } else {
        fail(path + ".tag", "unknown AnyValue constructor " + tag_text);
    }
}

void metadata(const Json& v, const std::string& path) {
    record(v, path, {{"values", text_map(text)}});
}

struct TransferParties {
    std::string sender;
    std::string receiver;
};

// TransferFactory_Transfer {expectedAdmin, transfer, extraArgs}. Throws DamlJsonError.
TransferParties decode_transfer_factory_transfer(const Json& v) {
    TransferParties out;
    const auto party_into = [](std::string& into) {
        return [&into](const Json& p, const std::string& path) {
            text(p, path);
            into = p.get<std::string>();
        };
    };
    const auto transfer = [&](const Json& t, const std::string& path) {
        record(t, path,
               {{"sender", party_into(out.sender)},
                {"receiver", party_into(out.receiver)},
                {"amount", numeric},
                {"instrumentId",
                 [](const Json& i, const std::string& at) {
                     record(i, at, {{"admin", text}, {"id", text}});
                 }},
                {"requestedAt", timestamp},
                {"executeBefore", timestamp},
                {"inputHoldingCids", list(text)},
                {"meta", metadata}});
    };
    const auto extra_args = [](const Json& e, const std::string& path) {
        record(e, path,
               {{"context",
                 [](const Json& c, const std::string& at) {
                     record(c, at, {{"values", text_map(any_value)}});
                 }},
                {"meta", metadata}});
    };
    record(v, "", {{"expectedAdmin", text}, {"transfer", transfer}, {"extraArgs", extra_args}});
    return out;
}

// ---- the choice context ----------------------------------------------------------------------

// DisclosedContract (transfer-instruction-v1.yaml), as the ChoiceContextBuilder writes it: the
// contract as Contract.toHttp has it, on the active synchronizer; the debug fields null when
// excluded.
void append_disclosed(std::string& out, const model::Contract& c, std::string_view synchronizer,
                      bool exclude_debug) {
    const model::TemplateId t = c.template_id();
    out += '{';
    http::append_string_field(out, "templateId", t.to_string(), true);
    http::append_string_field(out, "contractId", c.contract_id);
    http::append_string_field(out, "createdEventBlob", model::created_event_blob(c));
    http::append_string_field(out, "synchronizerId", synchronizer);
    if (exclude_debug) {
        http::append_null_field(out, "debugPackageName");
        http::append_null_field(out, "debugPayload");
        http::append_null_field(out, "debugCreatedAt");
    } else {
        http::append_string_field(out, "debugPackageName", t.package_name);
        http::append_key(out, "debugPayload");
        model::append_value_json(out, c.argument, model::ValueEncoding::api_compressed);
        http::append_string_field(out, "debugCreatedAt",
                                  model::format_offset_date_time(c.created_at));
    }
    out += '}';
}

// {"tag":"AV_ContractId","value":"<cid>"} under `key`.
void append_contract_id_value(std::string& out, std::string_view key, std::string_view cid,
                              bool first) {
    http::append_key(out, key, first);
    out += '{';
    http::append_string_field(out, "tag", "AV_ContractId", true);
    http::append_string_field(out, "value", cid);
    out += '}';
}

}  // namespace

http::Response get_registry_info(const Store& store, const Context& /*ctx*/) {
    std::string out = "{";
    http::append_string_field(out, "adminId", store.network().dso_party, true);
    out += R"(,"supportedApis":{"splice-api-token-metadata-v1":1}})";
    return http::Response::json(200, std::move(out));
}

http::Response list_instruments(const Store& store, const Context& ctx) {
    // guardrail's parameter("pageSize".as[Int].?) with Pekko's Int unmarshaller (an empty value
    // is absent); HttpTokenStandardMetadataHandler then ignores both parameters.
    if (const auto size = ctx.request.query_param("pageSize"); size && !size->empty()) {
        const auto n = util::java_parse_long(*size);
        if (!n || *n < std::numeric_limits<std::int32_t>::min() ||
            *n > std::numeric_limits<std::int32_t>::max()) {
            throw http::DecodeError("The query parameter 'pageSize' was malformed:\n'" + *size +
                                    "' is not a valid 32-bit signed integer value");
        }
    }
    return http::Response::json(
        200, R"({"instruments":[)" + amulet_instrument(store) + R"(],"nextPageToken":null})");
}

http::Response get_instrument(const Store& store, const Context& ctx) {
    const std::string& id = ctx.params.get("instrumentId");
    if (id != amulet_id) {
        throw ApiError(ErrorKind::not_found, "", "No instrument with id " + id + " found")
            .as_returned();
    }
    return http::Response::json(200, amulet_instrument(store));
}

http::Response post_transfer_factory(const Store& store, const Context& ctx) {
    // GetFactoryRequest, as guardrail decodes it: choiceArguments (any JSON), excludeDebugFields.
    const Json body = json_body(ctx.request);
    if (!body.is_object() || !body.contains("choiceArguments")) fail_missing("choiceArguments");
    const bool exclude_debug = optional_bool_member(body, "excludeDebugFields").value_or(false);
    TransferParties parties;
    try {
        parties = decode_transfer_factory_transfer(body.at("choiceArguments"));
    } catch (const DamlJsonError& e) {
        throw ApiError(
            ErrorKind::invalid_argument, "",
            "Field `choiceArguments` does not contain a valid `TransferFactory_Transfer`: " +
                e.detail);
    }
    const splice::SpliceViews& views = splice::views(store);
    const auto amulet_rules = views.amulet_rules();
    if (!amulet_rules) throw ApiError(ErrorKind::not_found, "", "No active AmuletRules contract");
    const auto round = views.latest_usable_open_round(store.now());
    if (!round) throw ApiError(ErrorKind::not_found, "", "No open usable OpenMiningRound found.");
    const auto factory = views.external_party_amulet_rules();
    if (!factory) {
        throw ApiError(ErrorKind::not_found, "", "No active ExternalPartyAmuletRules contract");
    }
    check_party(parties.receiver);  // PartyId.tryFromProtoPrimitive; the sender is not parsed
    const bool self = parties.sender == parties.receiver;
    const std::optional<store::ContractState> preapproval =
        self ? std::nullopt : views.transfer_preapproval_of(parties.receiver);
    const std::string_view kind = self ? "self" : preapproval ? "direct" : "offer";
    // The preapproval's provider's FeaturedAppRight, when there is a preapproval.
    const std::optional<store::ContractState> featured =
        preapproval ? views.featured_app_right_of(
                          model::field_at(preapproval->contract->argument, {"provider"})->text)
                    : std::nullopt;

    const std::string& synchronizer = store.network().synchronizer_id;
    std::string out = "{";
    http::append_string_field(out, "factoryId", factory->contract->contract_id, true);
    http::append_string_field(out, "transferKind", kind);
    out += R"(,"choiceContext":{"choiceContextData":{"values":{)";
    // The keys in the order of Scala's mutable HashMap that the builder fills (seen on LocalNet).
    bool first = true;
    if (preapproval) {
        append_contract_id_value(out, "transfer-preapproval", preapproval->contract->contract_id,
                                 first);
        first = false;
    }
    append_contract_id_value(out, "open-round", round->contract->contract_id, first);
    append_contract_id_value(out, "amulet-rules", amulet_rules->contract->contract_id, false);
    if (featured) {
        append_contract_id_value(out, "featured-app-right", featured->contract->contract_id, false);
    }
    out += R"(}},"disclosedContracts":[)";
    // In the order the builder adds them: the rules and the round, the optional featured app
    // right and preapproval, then the factory.
    append_disclosed(out, *amulet_rules->contract, synchronizer, exclude_debug);
    out += ',';
    append_disclosed(out, *round->contract, synchronizer, exclude_debug);
    if (featured) {
        out += ',';
        append_disclosed(out, *featured->contract, synchronizer, exclude_debug);
    }
    if (preapproval) {
        out += ',';
        append_disclosed(out, *preapproval->contract, synchronizer, exclude_debug);
    }
    out += ',';
    append_disclosed(out, *factory->contract, synchronizer, exclude_debug);
    out += "]}}";
    return http::Response::json(200, std::move(out));
}

namespace {

// The active contract `cid` of template `ref`, as Scan's store finds it (its ACS, by template).
std::optional<store::ContractState> active_of(const Store& store, const std::string& cid,
                                              const model::QualifiedRef& ref) {
    auto state = store.contract(cid);
    if (!state || state->archived_offset() ||
        !splice::templates::is(state->contract->template_id(), ref))
        return std::nullopt;
    return state;
}

// {"tag":"AV_Bool","value":<b>} under `key`.
void append_bool_value(std::string& out, std::string_view key, bool b, bool first) {
    http::append_key(out, key, first);
    out += R"({"tag":"AV_Bool","value":)";
    out += b ? "true}" : "false}";
}

}  // namespace

http::Response post_transfer_instruction_choice_context(const Store& store, const Context& ctx,
                                                        TransferInstructionChoice choice) {
    // GetChoiceContextRequest {meta, excludeDebugFields}; meta is not read.
    const Json body = json_body(ctx.request);
    const bool exclude_debug = optional_bool_member(body, "excludeDebugFields").value_or(false);
    const std::string& id = ctx.params.get("transferInstructionId");
    const auto instruction = active_of(store, id, splice::templates::amulet_transfer_instruction);
    if (!instruction) {
        throw ApiError(ErrorKind::not_found, "",
                       "AmuletTransferInstruction '" + id + "' not found.");
    }
    // ChoiceContextBuilder.getTwoStepTransferContext: the locked amulet, then the rules and the
    // latest usable round (404 without one, whatever the choice), then the context.
    const model::Contract& c = *instruction->contract;
    const auto locked_field = model::field_at(c.argument, {"lockedAmulet"});
    const std::string locked_cid = locked_field ? locked_field->text : "";
    const auto locked = active_of(store, locked_cid, splice::templates::locked_amulet);
    const splice::SpliceViews& views = splice::views(store);
    const auto amulet_rules = views.amulet_rules();
    if (!amulet_rules) throw ApiError(ErrorKind::internal, "", "An unexpected error occurred.");
    const auto round = views.latest_usable_open_round(store.now());
    if (!round) throw ApiError(ErrorKind::not_found, "", "No open usable OpenMiningRound found.");
    std::string out;
    if (!locked) {
        // The lock expired and the amulet was unlocked: accept cannot proceed; reject and
        // withdraw only learn that there is nothing to unlock.
        if (choice == TransferInstructionChoice::accept) {
            const auto before = model::field_at(c.argument, {"transfer", "executeBefore"});
            throw ApiError(
                ErrorKind::not_found, "",
                "LockedAmulet 'Some(ContractId(" + locked_cid +
                    "))' not found for AmuletTransferInstruction '" + id +
                    "', which expires on Some(" +
                    (before ? model::format_instant(model::Timestamp{before->number}) : "") + ")");
        }
        out = R"({"choiceContextData":{"values":{)";
        append_bool_value(out, "expire-lock", false, true);
        out += R"(}},"disclosedContracts":[]})";
        return http::Response::json(200, std::move(out));
    }
    // The keys in the order of the builder's mutable HashMap (by String.hashCode's bucket in 16):
    // expire-lock, open-round, amulet-rules.
    const std::string& synchronizer = store.network().synchronizer_id;
    out = R"({"choiceContextData":{"values":{)";
    append_bool_value(out, "expire-lock", true, true);
    append_contract_id_value(out, "open-round", round->contract->contract_id, false);
    append_contract_id_value(out, "amulet-rules", amulet_rules->contract->contract_id, false);
    out += R"(}},"disclosedContracts":[)";
    append_disclosed(out, *amulet_rules->contract, synchronizer, exclude_debug);
    out += ',';
    append_disclosed(out, *round->contract, synchronizer, exclude_debug);
    out += ',';
    append_disclosed(out, *locked->contract, synchronizer, exclude_debug);
    out += "]}";
    return http::Response::json(200, std::move(out));
}

RegistryArea::RegistryArea(const store::LedgerStore& store)
    : SpliceArea("/registry/", "/registry") {
    const auto with_store = [&store](auto handler) {
        return [&store, handler](const http::RequestContext& ctx) { return handler(store, ctx); };
    };
    // token-metadata-v1.yaml
    add_route("GET", "/metadata/v1/info", with_store(get_registry_info));
    add_route("GET", "/metadata/v1/instruments", with_store(list_instruments));
    add_route("GET", "/metadata/v1/instruments/{instrumentId}", with_store(get_instrument));
    // transfer-instruction-v1.yaml
    add_route("POST", "/transfer-instruction/v1/transfer-factory",
              with_store(post_transfer_factory));
    const auto context = [&store](TransferInstructionChoice choice) {
        return [&store, choice](const http::RequestContext& ctx) {
            return post_transfer_instruction_choice_context(store, ctx, choice);
        };
    };
    add_route("POST", "/transfer-instruction/v1/{transferInstructionId}/choice-contexts/accept",
              context(TransferInstructionChoice::accept));
    add_route("POST", "/transfer-instruction/v1/{transferInstructionId}/choice-contexts/reject",
              context(TransferInstructionChoice::reject));
    add_route("POST", "/transfer-instruction/v1/{transferInstructionId}/choice-contexts/withdraw",
              context(TransferInstructionChoice::withdraw));
}

}  // namespace cantonlite::areas::scan
