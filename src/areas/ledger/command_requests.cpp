// The pieces the command service and interactive submission share: JsCommands decoded as the JSON
// layer decodes it, its transcoding and validation, the submit step, the errors of a refused
// command and the transaction a command committed (command_requests.hpp).
#include "cantonlite/areas/ledger/command_requests.hpp"

#include <algorithm>
#include <optional>
#include <shared_mutex>
#include <string>
#include <utility>
#include <vector>

#include <spdlog/spdlog.h>

#include "cantonlite/areas/ledger/event_filter.hpp"
#include "cantonlite/areas/ledger/js_canton_error.hpp"
#include "cantonlite/areas/ledger/ledger_handlers.hpp"
#include "cantonlite/areas/ledger/relaxed_json.hpp"
#include "cantonlite/areas/ledger/update_json.hpp"
#include "cantonlite/areas/ledger/update_reads.hpp"
#include "cantonlite/http/api_error.hpp"
#include "cantonlite/http/json_text.hpp"

namespace cantonlite::areas::ledger {
namespace {

using http::ApiError;
using http::ErrorKind;
using nlohmann::json;

std::string required_string(const json& o, std::string_view key, const std::string& path) {
    const json* v = find_member(o, key);
    if (v == nullptr) relaxed::fail_at("Missing required field", path + std::string(key));
    if (!v->is_string()) relaxed::wrong_type(*v, "string", path + std::string(key));
    return v->get<std::string>();
}

std::string optional_string(const json& o, std::string_view key, const std::string& path) {
    const json* v = find_member(o, key);
    if (v == nullptr || v->is_null()) return "";
    if (!v->is_string()) relaxed::wrong_type(*v, "string", path + std::string(key));
    return v->get<std::string>();
}

std::vector<std::string> string_list(const json* v, const std::string& path) {
    std::vector<std::string> out;
    if (v == nullptr || v->is_null()) return out;
    if (!v->is_array()) relaxed::wrong_type(*v, "array", path);
    for (std::size_t i = 0; i < v->size(); ++i) {
        if (!(*v)[i].is_string())
            relaxed::wrong_type((*v)[i], "string", path + "[" + std::to_string(i) + "]");
        out.push_back((*v)[i].get<std::string>());
    }
    return out;
}

// IdentifierConverter.fromJsonEither: exactly three parts.
void check_identifier(const std::string& id, const std::string& path) {
    if (std::count(id.begin(), id.end(), ':') == 2) return;
    relaxed::fail_at("Invalid identifier format (" + id +
                         ") not matching the expected format "
                         "(<package>:<moduleName>:<entityName>)",
                     path);
}

void check_command(const json& c, const std::string& path) {
    if (!c.is_object() || c.size() != 1) relaxed::fail_at("Missing required field", path);
    const std::string kind = c.begin().key();
    const json& body = c.begin().value();
    const std::string at = path + "." + kind + ".";
    static const std::vector<std::pair<std::string, std::vector<std::string>>> shapes{
        {"CreateCommand", {"templateId", "createArguments"}},
        {"ExerciseCommand", {"templateId", "contractId", "choice", "choiceArgument"}},
        {"CreateAndExerciseCommand", {"templateId", "createArguments", "choice", "choiceArgument"}},
        {"ExerciseByKeyCommand", {"templateId", "contractKey", "choice", "choiceArgument"}},
    };
    const auto shape =
        std::find_if(shapes.begin(), shapes.end(), [&](const auto& s) { return s.first == kind; });
    if (shape == shapes.end()) {
        relaxed::fail_at("type Command has no class/object/case named '" + kind + "'", path);
    }
    if (!body.is_object()) relaxed::wrong_type(body, "object", path + "." + kind);
    for (const std::string& f : shape->second) {
        if (f == "createArguments" || f == "choiceArgument" || f == "contractKey") {
            if (!body.contains(f)) relaxed::fail_at("Missing required field", at + f);
            continue;
        }
        (void)required_string(body, f, at);
    }
    check_identifier(body.at("templateId").get<std::string>(), at + "templateId");
}

}  // namespace

const json* find_member(const json& o, std::string_view key) {
    const auto it = o.find(key);
    return it == o.end() ? nullptr : &*it;
}

Deduplication decode_deduplication(const json* v, const std::string& path) {
    Deduplication d;
    if (v == nullptr || v->is_null()) return d;
    if (!v->is_object() || v->size() != 1) relaxed::wrong_type(*v, "object", path);
    const std::string kind = v->begin().key();
    const json& body = v->begin().value();
    if (kind == "Empty") return d;
    const json* value = body.is_object() ? find_member(body, "value") : nullptr;
    if (value == nullptr) relaxed::fail_at("Missing required field", path + "." + kind + ".value");
    if (kind == "DeduplicationOffset") {
        d.kind = "offset";
        d.value = relaxed::decode_long(*value, path + "." + kind + ".value");
        return d;
    }
    if (kind == "DeduplicationDuration") {
        d.kind = "duration";
        if (!value->is_object())
            relaxed::wrong_type(*value, "object", path + "." + kind + ".value");
        d.value =
            relaxed::decode_optional_long(find_member(*value, "seconds"), "seconds").value_or(0);
        d.nanos = relaxed::decode_optional_int(find_member(*value, "nanos"), "nanos").value_or(0);
        return d;
    }
    relaxed::fail_at("type DeduplicationPeriod has no class/object/case named '" + kind + "'",
                     path);
}

// Takes `commands` out of `body`.
JsCommands decode_js_commands(json& body, const std::string& prefix) {
    if (!body.is_object()) relaxed::fail_at("Missing required field", prefix + "commands");
    JsCommands c;
    const json* commands = find_member(body, "commands");
    if (commands == nullptr) relaxed::fail_at("Missing required field", prefix + "commands");
    if (!commands->is_array()) relaxed::wrong_type(*commands, "array", prefix + "commands");
    for (std::size_t i = 0; i < commands->size(); ++i)
        check_command((*commands)[i], prefix + "commands[" + std::to_string(i) + "]");
    c.commands = std::move(body["commands"]);
    c.command_id = required_string(body, "commandId", prefix);
    const json* act_as = find_member(body, "actAs");
    if (act_as == nullptr) relaxed::fail_at("Missing required field", prefix + "actAs");
    c.act_as = string_list(act_as, prefix + "actAs");
    c.user_id = optional_string(body, "userId", prefix);
    c.read_as = string_list(find_member(body, "readAs"), prefix + "readAs");
    c.workflow_id = optional_string(body, "workflowId", prefix);
    c.submission_id = optional_string(body, "submissionId", prefix);
    c.synchronizer_id = optional_string(body, "synchronizerId", prefix);
    c.deduplication = decode_deduplication(find_member(body, "deduplicationPeriod"),
                                           prefix + "deduplicationPeriod");
    const json* abs = find_member(body, "minLedgerTimeAbs");
    c.min_ledger_time_abs = abs != nullptr && !abs->is_null();
    if (c.min_ledger_time_abs && !abs->is_string())
        relaxed::wrong_type(*abs, "string", prefix + "minLedgerTimeAbs");
    const json* rel = find_member(body, "minLedgerTimeRel");
    c.min_ledger_time_rel = rel != nullptr && !rel->is_null();
    if (const json* disclosed = find_member(body, "disclosedContracts");
        disclosed != nullptr && !disclosed->is_null()) {
        if (!disclosed->is_array())
            relaxed::wrong_type(*disclosed, "array", prefix + "disclosedContracts");
        for (std::size_t i = 0; i < disclosed->size(); ++i) {
            const json& d = (*disclosed)[i];
            const std::string at = prefix + "disclosedContracts[" + std::to_string(i) + "].";
            if (!d.is_object()) relaxed::wrong_type(d, "object", at);
            c.disclosed.push_back(optional_string(d, "contractId", at));
        }
    }
    return c;
}

// The participant's error for a refused command, with its submission id as correlation id.
ApiError api_error_of(const seed::CommandError& e, const std::string& submission_id) {
    ErrorKind kind = ErrorKind::internal;
    switch (e.category()) {
        case 8:
            kind = ErrorKind::invalid_argument;
            break;
        case 9:
            kind = ErrorKind::failed_precondition;
            break;
        case 10:
            kind = ErrorKind::already_exists;
            break;
        case 11:
            kind = ErrorKind::not_found;
            break;
        case 2:
            kind = ErrorKind::too_many_requests;
            break;
        default:
            break;
    }
    ApiError error(kind, e.code(), e.what(), e.context(), e.resources());
    if (e.json_layer()) return std::move(error.built_by_json_layer());
    // A definite answer the error states itself (DUPLICATE_COMMAND: "true").
    const bool states_its_answer =
        std::any_of(e.context().begin(), e.context().end(),
                    [](const auto& kv) { return kv.first == "definite_answer"; });
    if (states_its_answer) error.without_definite_answer();
    if (!submission_id.empty()) error.with_correlation_id(submission_id);
    return error;
}

// A fresh submission id: a random UUID, as ApiCommandService generates one.
std::string new_submission_id() {
    const std::string hex = new_trace_id();
    return hex.substr(0, 8) + "-" + hex.substr(8, 4) + "-4" + hex.substr(13, 3) + "-a" +
           hex.substr(17, 3) + "-" + hex.substr(20, 12);
}

// The JSON layer's transcoding of the commands (TranscodePackageIdResolver, SchemaProcessors),
// before any claim: the first actAs party resolves package names.
std::vector<seed::ResolvedCommand> transcode(const model::Network& n, const JsCommands& c) {
    if (c.act_as.empty()) throw_missing_field("act_as/actAs");
    if (const auto e = lf_party_error(c.act_as.front()))
        throw_invalid_argument("Invalid party in actAs/act_as: " + *e);
    try {
        return seed::resolve_commands(n, c.commands, c.act_as.front());
    } catch (const seed::CommandError& e) {
        throw api_error_of(e, "");
    }
}

// CommandsValidator's parties and synchronizer.
void validate_parties_and_synchronizer(const model::Network& n, const JsCommands& c) {
    for (const auto* list : {&c.act_as, &c.read_as}) {
        for (const std::string& p : *list) {
            if (const auto e = lf_party_error(p)) throw_invalid_argument(*e);
        }
    }
    if (!c.synchronizer_id.empty() && c.synchronizer_id != n.synchronizer_id &&
        std::find(n.other_synchronizers.begin(), n.other_synchronizers.end(), c.synchronizer_id) ==
            n.other_synchronizers.end()) {
        throw_invalid_field("synchronizer_id", "unknown synchronizer " + c.synchronizer_id);
    }
}

void validate_deduplication(const Deduplication& d) {
    if (d.kind == "duration" && (d.value < 0 || (d.value == 0 && d.nanos < 0))) {
        throw_invalid_field("deduplication_period", "Duration must be positive");
    }
    if (d.kind == "offset" && d.value < 0) {
        throw ApiError(ErrorKind::invalid_argument, "NEGATIVE_OFFSET",
                       "Offset " + std::to_string(d.value) +
                           " in deduplication_period is a negative integer: the deduplication "
                           "offset has to be a non-negative integer and not " +
                           std::to_string(d.value))
            .without_definite_answer();
    }
}

void add_deduplication(json& step, const Deduplication& d) {
    if (d.kind.empty()) return;
    step["deduplication"] = {{"kind", d.kind}, {"value", d.value}, {"nanos", d.nanos}};
}

// The "submit" step of a command request (journaled as is; interactive submission interprets
// it): takes the commands out of `c`.
json submit_step(JsCommands& c, const std::string& user_id, const std::string& submission_id) {
    json step = json::object();
    step["step"] = "submit";
    step["user_id"] = user_id;
    step["command_id"] = c.command_id;
    step["submission_id"] = submission_id;
    step["act_as"] = c.act_as;
    step["commands"] = std::move(c.commands);
    if (!c.read_as.empty()) step["read_as"] = c.read_as;
    if (!c.workflow_id.empty()) step["workflow_id"] = c.workflow_id;
    if (!c.disclosed.empty()) step["disclosed"] = c.disclosed;
    return step;
}

namespace {

template <class Write>
seed::Written written_or_error(Write write, const std::string& submission_id,
                               const http::RequestContext& ctx) {
    try {
        return write();
    } catch (const seed::CommandError& e) {
        throw api_error_of(e, submission_id);
    } catch (const seed::WriteError& e) {
        spdlog::error("{} {}: {}", ctx.request.method, ctx.request.target, e.what());
        throw write_failed(e);
    }
}

}  // namespace

seed::Written write_command(seed::LiveNetwork& network, json step, const std::string& submission_id,
                            const http::RequestContext& ctx) {
    return written_or_error([&] { return network.apply_steps(std::move(step)); }, submission_id,
                            ctx);
}

seed::Written write_command(seed::LiveNetwork& network, json step,
                            std::shared_ptr<const seed::CheckedExecution> checked,
                            const std::string& submission_id, const http::RequestContext& ctx) {
    return written_or_error(
        [&] { return network.apply_submission(std::move(step), {}, std::move(checked)); },
        submission_id, ctx);
}

seed::Written write_command(seed::LiveNetwork& network, json step,
                            std::vector<seed::ResolvedCommand> resolved,
                            const std::string& submission_id, const http::RequestContext& ctx) {
    return written_or_error(
        [&] { return network.apply_submission(std::move(step), std::move(resolved)); },
        submission_id, ctx);
}

std::int64_t command_offset(const seed::Written& written) {
    return written.answer.at("results").at(0).at("updates").at(0).at("offset").get<std::int64_t>();
}

namespace {

// {"updateId", "completionOffset"} of the transaction at `offset`.
std::string update_id_answer(const store::LedgerStore& store, std::int64_t offset) {
    std::string out = "{";
    http::append_string_field(out, "updateId", store.id_for(offset).str(), true);
    return out + ",\"completionOffset\":" + std::to_string(offset) + "}";
}

// The JsTransaction (or JsTransactionTree) the command committed at `offset`, as `format` shows
// it; its events empty when the format sees none of them (CommandServiceImpl's fallback).
std::string committed_transaction(const store::LedgerStore& store, std::int64_t offset,
                                  TransactionFormat format, bool tree, const ApiProfile& release) {
    const store::UpdatePtr update = store.update_at(offset);
    if (update == nullptr) throw ApiError(ErrorKind::internal, "", "the transaction is gone");
    UpdateFormat f;
    f.include_transactions = format;
    UpdateReader reader = UpdateReader::make(f, store.network());
    reader.trees = tree;
    std::optional<std::string> text = update_json(*update, reader, release);
    bool cleared = false;
    if (!text) {
        TransactionFormat any;
        any.event_format =
            EventFormat{.filters_for_any_party =
                            Filters{{CumulativeFilter{.kind = CumulativeFilter::Kind::wildcard}}},
                        .verbose = true};
        any.transaction_shape = TransactionShape::ledger_effects;
        f.include_transactions = any;
        reader = UpdateReader::make(f, store.network());
        reader.trees = tree;
        text = update_json(*update, reader, release);
        cleared = true;
    }
    nlohmann::ordered_json parsed = nlohmann::ordered_json::parse(*text);
    nlohmann::ordered_json value = parsed.begin().value()["value"];
    if (cleared) {
        if (tree) {
            value["eventsById"] = nlohmann::ordered_json::object();
        } else {
            value["events"] = nlohmann::ordered_json::array();
        }
    }
    return value.dump();
}

}  // namespace

std::string command_answer(seed::LiveNetwork& network, std::int64_t offset, CommandAnswer answer,
                           const TransactionFormat& format, const ApiProfile& release) {
    switch (answer) {
        case CommandAnswer::none:
            return "{}";
        case CommandAnswer::update_id:
            return update_id_answer(network.store(), offset);
        case CommandAnswer::transaction:
        case CommandAnswer::transaction_tree: {
            const std::shared_lock lock(network.gate());
            const bool tree = answer == CommandAnswer::transaction_tree;
            return std::string(tree ? R"({"transactionTree":)" : R"({"transaction":)") +
                   committed_transaction(network.store(), offset, format, tree, release) + "}";
        }
    }
    return "{}";
}

// The default TransactionFormat of submit-and-wait-for-transaction: every act-as and read-as
// party, a wildcard, verbose, ACS_DELTA (ApiCommandService).
TransactionFormat default_transaction_format(const std::vector<std::string>& act_as,
                                             const std::vector<std::string>& read_as) {
    EventFormat e;
    e.verbose = true;
    for (const auto* list : {&act_as, &read_as}) {
        for (const std::string& p : *list) {
            e.filters_by_party[p] =
                Filters{{CumulativeFilter{.kind = CumulativeFilter::Kind::wildcard}}};
        }
    }
    return TransactionFormat{.event_format = e, .transaction_shape = TransactionShape::acs_delta};
}

}  // namespace cantonlite::areas::ledger
