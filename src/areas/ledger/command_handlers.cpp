// The command service of the JSON Ledger API: submit-and-wait (and its forms that answer the
// transaction), async submit, and the completions. Canton release-line-3.5: JsCommandService,
// ApiCommandService, CommandsValidator, CommandServiceAuthorization, JsCommandCompletionService
// (research notes: /work/research-notes/command_service.md; docs/commands.md says what runs).
// A request is decoded and checked as the JSON layer does (body shape, actAs, templates, choices,
// arguments), authorized and validated as the gRPC layer does, then submitted to the live
// network as a "submit" step: run under the writers' lock, journaled, acknowledged once durable.
#include <algorithm>
#include <exception>
#include <memory>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <string>
#include <utility>
#include <vector>

#include <spdlog/spdlog.h>
#include <nlohmann/json.hpp>

#include "cantonlite/areas/ledger/event_filter.hpp"
#include "cantonlite/areas/ledger/js_canton_error.hpp"
#include "cantonlite/areas/ledger/ledger_area.hpp"
#include "cantonlite/areas/ledger/ledger_handlers.hpp"
#include "cantonlite/areas/ledger/list_limit.hpp"
#include "cantonlite/areas/ledger/read_requests.hpp"
#include "cantonlite/areas/ledger/relaxed_json.hpp"
#include "cantonlite/areas/ledger/transaction_json.hpp"
#include "cantonlite/areas/ledger/update_json.hpp"
#include "cantonlite/areas/ledger/update_reads.hpp"
#include "cantonlite/http/api_error.hpp"
#include "cantonlite/http/json_text.hpp"
#include "cantonlite/interactive/prepared_transaction.hpp"
#include "cantonlite/interactive/transaction_hash.hpp"
#include "cantonlite/model/ids.hpp"
#include "cantonlite/seed/commands.hpp"

namespace cantonlite::areas::ledger {
namespace {

using http::ApiError;
using http::ErrorKind;
using nlohmann::json;

// ---- JsCommands, decoded as deriveConfiguredCodec decodes it (commands, commandId and actAs
// required; every other field defaulted; unknown keys ignored) ----

struct Deduplication {
    std::string kind;  // "", "duration", "offset"
    std::int64_t value = 0;
    std::int32_t nanos = 0;
};

struct JsCommands {
    json commands;  // the array, each command checked for its shape
    std::string command_id;
    std::vector<std::string> act_as;
    std::string user_id;
    std::vector<std::string> read_as;
    std::string workflow_id;
    std::string submission_id;
    Deduplication deduplication;
    bool min_ledger_time_abs = false;
    bool min_ledger_time_rel = false;
    std::vector<std::string> disclosed;  // contract ids
    std::string synchronizer_id;
};

const json* find_member(const json& o, std::string_view key) {
    const auto it = o.find(key);
    return it == o.end() ? nullptr : &*it;
}

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
void transcode(const model::Network& n, const JsCommands& c) {
    if (c.act_as.empty()) throw_missing_field("act_as/actAs");
    if (const auto e = lf_party_error(c.act_as.front()))
        throw_invalid_argument("Invalid party in actAs/act_as: " + *e);
    try {
        (void)seed::resolve_commands(n, c.commands, c.act_as.front());
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

enum class Answer { update_id, transaction, transaction_tree, none };

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

// The default TransactionFormat of submit-and-wait-for-transaction: every act-as and read-as
// party, a wildcard, verbose, ACS_DELTA (ApiCommandService).
TransactionFormat default_transaction_format(const JsCommands& c) {
    EventFormat e;
    e.verbose = true;
    for (const auto* list : {&c.act_as, &c.read_as}) {
        for (const std::string& p : *list) {
            e.filters_by_party[p] =
                Filters{{CumulativeFilter{.kind = CumulativeFilter::Kind::wildcard}}};
        }
    }
    return TransactionFormat{.event_format = e, .transaction_shape = TransactionShape::acs_delta};
}

http::Response submit(seed::LiveNetwork& network, const RouteAuth& auth,
                      const http::RequestContext& ctx, const ApiProfile& release, Answer answer) {
    // The body and the JSON layer read nothing the writes change (the packages are the seed's), so
    // they run outside the readers' lock; their errors come after the token's user is looked up,
    // as the JSON security stage runs first.
    const model::Network& n = network.store().network();
    const bool wrapped = answer == Answer::transaction;
    std::optional<TransactionFormat> format;
    JsCommands c;
    std::exception_ptr json_error;
    try {
        json body = relaxed::parse_body(ctx.request.body);
        if (wrapped) {
            // JsSubmitAndWaitForTransactionRequest {commands, transactionFormat}.
            if (!body.is_object() || !body.contains("commands"))
                relaxed::fail_at("Missing required field", "commands");
            c = decode_js_commands(body["commands"], "commands.");
            if (const json* f = find_member(body, "transactionFormat");
                f != nullptr && !f->is_null())
                format = relaxed::decode_transaction_format(*f);
        } else {
            c = decode_js_commands(body, "");
        }
        // The JSON layer (TranscodePackageIdResolver, SchemaProcessors): before any claim.
        transcode(n, c);
    } catch (...) {
        json_error = std::current_exception();
    }
    std::shared_lock lock(network.gate());
    const Caller caller = auth.identify(ctx.request);  // 403 for an unknown user
    if (json_error) std::rethrow_exception(json_error);
    // The gRPC layer: the claims, then CommandsValidator.
    const std::string user_id = auth.authorize_submission(caller, c.user_id, c.act_as, c.read_as);
    if (format) {
        if (format->event_format) {
            validate_update_format(UpdateFormat{.include_transactions = format});
            auth.authorize(caller, parties_of(UpdateFormat{.include_transactions = format}),
                           reads_any_party(UpdateFormat{.include_transactions = format}));
        }
    }
    if (c.command_id.empty()) throw_missing_field("command_id");
    validate_parties_and_synchronizer(n, c);
    if (c.commands.empty()) throw_missing_field("commands");
    if (c.min_ledger_time_abs && c.min_ledger_time_rel) {
        throw_invalid_argument(
            "min_ledger_time_abs cannot be specified at the same time as min_ledger_time_rel");
    }
    if (c.deduplication.kind == "duration" &&
        (c.deduplication.value < 0 || (c.deduplication.value == 0 && c.deduplication.nanos < 0))) {
        throw_invalid_field("deduplication_period", "Duration must be positive");
    }
    if (c.deduplication.kind == "offset" && c.deduplication.value < 0) {
        throw ApiError(ErrorKind::invalid_argument, "NEGATIVE_OFFSET",
                       "Offset " + std::to_string(c.deduplication.value) +
                           " in deduplication_period is a negative integer: the deduplication "
                           "offset has to be a non-negative integer and not " +
                           std::to_string(c.deduplication.value))
            .without_definite_answer();
    }
    // Routing (AdmissibleSynchronizersComputation): every submitter hosted here with submission
    // permission. An external party is hosted with confirmation only: its transactions go through
    // interactive submission, signed by its own key.
    if (std::any_of(c.act_as.begin(), c.act_as.end(),
                    [&](const std::string& p) { return n.external_keys.contains(p); })) {
        throw ApiError(ErrorKind::not_found, "NO_SYNCHRONIZER_ON_WHICH_ALL_SUBMITTERS_CAN_SUBMIT",
                       c.act_as.size() == 1
                           ? "This participant cannot submit as the given submitter on any "
                             "connected synchronizer"
                           : "Not connected to a synchronizer on which this participant can "
                             "submit for all submitters")
            .without_definite_answer();
    }
    lock.unlock();
    const std::string submission_id =
        c.submission_id.empty() ? new_submission_id() : c.submission_id;
    json step = submit_step(c, user_id, submission_id);
    if (!c.deduplication.kind.empty()) {
        step["deduplication"] = {{"kind", c.deduplication.kind},
                                 {"value", c.deduplication.value},
                                 {"nanos", c.deduplication.nanos}};
    }
    seed::Written written;
    try {
        written = network.apply_steps(std::move(step));
    } catch (const seed::CommandError& e) {
        throw api_error_of(e, submission_id);
    } catch (const seed::WriteError& e) {
        spdlog::error("{} {}: {}", ctx.request.method, ctx.request.target, e.what());
        throw ApiError(ErrorKind::internal, "", e.what());
    }
    // The command's transaction (automation it set off may follow it: an accepted offer's payment).
    const std::int64_t offset =
        written.answer.at("results").at(0).at("updates").at(0).at("offset").get<std::int64_t>();
    std::string out;
    switch (answer) {
        case Answer::none:
            out = "{}";
            break;
        case Answer::update_id:
            out = "{";
            http::append_string_field(out, "updateId", network.store().id_for(offset).str(), true);
            out += ",\"completionOffset\":" + std::to_string(offset) + "}";
            break;
        case Answer::transaction:
        case Answer::transaction_tree: {
            const std::shared_lock relock(network.gate());
            const bool tree = answer == Answer::transaction_tree;
            TransactionFormat f = format.value_or(default_transaction_format(c));
            if (tree) {
                // JsCommandService builds it: actAs only, cumulative wildcards, LEDGER_EFFECTS.
                EventFormat e;
                e.verbose = true;
                for (const std::string& p : c.act_as)
                    e.filters_by_party[p] =
                        Filters{{CumulativeFilter{.kind = CumulativeFilter::Kind::wildcard}}};
                f = TransactionFormat{.event_format = e,
                                      .transaction_shape = TransactionShape::ledger_effects};
            }
            out = std::string(tree ? R"({"transactionTree":)" : R"({"transaction":)") +
                  committed_transaction(network.store(), offset, f, tree, release) + "}";
            break;
        }
    }
    return answer_once_durable(network, std::move(written), std::move(out));
}

// ---- completions ----

std::string completion_json(const store::CommandCompletion& c,
                            const std::vector<std::string>& act_as, const std::string& update_id,
                            const model::Network& n) {
    nlohmann::ordered_json dedup;
    if (c.deduplication_kind == "offset") {
        dedup["DeduplicationOffset"] = {{"value", c.deduplication_value}};
    } else {
        const std::int64_t seconds = c.deduplication_kind == "duration"
                                         ? c.deduplication_value
                                         : seed::max_deduplication_seconds;
        dedup["DeduplicationDuration"] = {
            {"value",
             {{"seconds", seconds},
              {"nanos", c.deduplication_kind == "duration" ? c.deduplication_nanos : 0},
              {"unknownFields", {{"fields", nlohmann::ordered_json::object()}}}}}};
    }
    nlohmann::ordered_json value{
        {"commandId", c.command_id},
        {"status", {{"code", 0}, {"message", ""}, {"details", nlohmann::ordered_json::array()}}},
        {"updateId", update_id},
        {"userId", c.user_id},
        {"actAs", act_as},
        {"submissionId", c.submission_id},
        {"deduplicationPeriod", dedup},
        {"traceContext", {{"traceparent", traceparent_of(update_id)}, {"tracestate", nullptr}}},
        {"offset", c.offset},
        {"synchronizerTime",
         {{"synchronizerId", n.synchronizer_id},
          {"recordTime", model::format_instant(c.record_time)}}},
        {"paidTrafficCost", 0}};
    return nlohmann::ordered_json{{"completionResponse", {{"Completion", {{"value", value}}}}}}
        .dump();
}

// The user's completions (all users' when `user` is null) whose act-as parties meet `parties`
// (any, when empty), after `begin`, at most `limit`, as CompletionStreamResponse messages; `last`
// (if given) gets the offset of the last one.
std::vector<std::string> completion_messages(const store::LedgerStore& store,
                                             const std::string* user,
                                             const std::vector<std::string>& parties,
                                             std::int64_t begin, std::size_t limit,
                                             std::int64_t* last) {
    const auto visible = [&](const std::string& p) {
        return parties.empty() || std::find(parties.begin(), parties.end(), p) != parties.end();
    };
    const std::vector<store::CommandCompletion> found =
        store.completions_after(begin, limit, [&](const store::CommandCompletion& c) {
            return (user == nullptr || c.user_id == *user) &&
                   std::any_of(c.act_as.begin(), c.act_as.end(), visible);
        });
    std::vector<std::string> out;
    for (const store::CommandCompletion& c : found) {
        std::vector<std::string> act_as;
        for (const std::string& p : c.act_as) {
            if (visible(p)) act_as.push_back(p);
        }
        out.push_back(completion_json(c, act_as, store.id_for(c.offset).str(), store.network()));
        if (last != nullptr) *last = c.offset;
    }
    return out;
}

// The same as a JSON list (413 beyond the node limit).
http::Response completions_list(const store::LedgerStore& store, const std::string* user,
                                const std::vector<std::string>& parties, std::int64_t begin,
                                const StreamListParams& params) {
    const std::vector<std::string> found = completion_messages(
        store, user, parties, begin, static_cast<std::size_t>(list_take(params.limit)), nullptr);
    check_list_limit(found.size());  // 413
    std::string out = "[";
    for (const std::string& c : found) {
        if (out.size() > 1) out += ',';
        out += c;
    }
    return http::Response::json(200, out + "]");
}

}  // namespace

http::Response post_prepare_submission(seed::LiveNetwork& network, const RouteAuth& auth,
                                       const http::RequestContext& ctx, const ApiProfile& release) {
    // JsPrepareSubmissionRequest: JsCommands' fields, synchronizerId and
    // packageIdSelectionPreference required by the codec (no defaults), and prepare's own.
    const model::Network& n = network.store().network();
    JsCommands c;
    bool verbose = false;
    std::optional<model::Timestamp> max_record_time;
    std::string scheme_name = "HASHING_SCHEME_VERSION_V2";
    std::exception_ptr json_error;
    try {
        json body = relaxed::parse_body(ctx.request.body);
        c = decode_js_commands(body, "");
        for (const char* field : {"synchronizerId", "packageIdSelectionPreference"}) {
            if (find_member(body, field) == nullptr)
                relaxed::fail_at("Missing required field", field);
        }
        verbose = relaxed::decode_bool(find_member(body, "verboseHashing"), "verboseHashing");
        if (const auto t = relaxed::decode_optional_string(find_member(body, "maxRecordTime"),
                                                           "maxRecordTime")) {
            max_record_time = model::parse_timestamp(*t);
            if (!max_record_time) relaxed::fail_at("Invalid value", "maxRecordTime");
        }
        if (const json* v = find_member(body, "hashingSchemeVersion"); v && !v->is_null()) {
            static const std::vector<std::string> names{
                "HASHING_SCHEME_VERSION_UNSPECIFIED", "HASHING_SCHEME_VERSION_V2",
                "HASHING_SCHEME_VERSION_V3", "HASHING_SCHEME_VERSION_V4"};
            if (!v->is_string() ||
                std::find(names.begin(), names.end(), v->get<std::string>()) == names.end() ||
                (!release.canton_3_6() && v->get<std::string>() == names[3]))
                relaxed::fail_at("Invalid value", "hashingSchemeVersion");
            scheme_name = v->get<std::string>();
        }
        // The JSON layer's transcoding, before any claim (as the command service's).
        transcode(n, c);
    } catch (...) {
        json_error = std::current_exception();
    }
    std::shared_lock lock(network.gate());
    const Caller caller = auth.identify(ctx.request);
    if (json_error) std::rethrow_exception(json_error);
    // InteractiveSubmissionServiceAuthorization: MatchUserId, and ReadAs each of actAs and
    // readAs: preparing reads, it does not act.
    std::vector<std::string> readers = c.act_as;
    readers.insert(readers.end(), c.read_as.begin(), c.read_as.end());
    const std::string user_id = auth.authorize_user_reads(caller, c.user_id, readers, false);
    // SubmitRequestValidator.validatePrepare.
    if (c.command_id.empty()) throw_missing_field("command_id");
    validate_parties_and_synchronizer(n, c);
    if (c.commands.empty()) throw_missing_field("commands");
    if (scheme_name == "HASHING_SCHEME_VERSION_UNSPECIFIED")
        throw_invalid_field("hashing_scheme_version", "Unspecified version");
    if (scheme_name == "HASHING_SCHEME_VERSION_V4") {
        throw_invalid_field("hashing_scheme_version",
                            "V4 needs protocol version 36 (dev); cantonlite hashes V2 and V3");
    }
    if (c.commands.size() > 1) {
        throw ApiError(ErrorKind::invalid_argument, "FAILED_TO_PREPARE_TRANSACTION",
                       "The participant failed to prepare the transaction: Preparing multiple "
                       "commands is currently not supported");
    }
    const std::string synchronizer =
        c.synchronizer_id.empty() ? n.synchronizer_id : c.synchronizer_id;
    const std::vector<std::string> act_as = c.act_as;
    const std::string command_id = c.command_id;
    lock.unlock();
    // The commands interpreted as the submission would run them, nothing committed; the contract
    // ids derive from the transaction's uuid.
    const std::string uuid = new_submission_id();
    const json step = submit_step(c, user_id, uuid);
    store::TransactionDraft draft;
    try {
        draft = network.interpret(step, "prepared/" + uuid);
    } catch (const seed::CommandError& e) {
        throw api_error_of(e, "");
    }
    lock.lock();
    const store::LedgerStore& store = network.store();
    const interactive::PrepareInputs inputs{
        .act_as = act_as,
        .command_id = command_id,
        .synchronizer_id = synchronizer,
        .transaction_uuid = uuid,
        .preparation_time = draft.effective_at,
        .max_record_time = max_record_time,
        .contract = [&](const std::string& cid) -> model::ContractPtr {
            const auto state = store.contract(cid);
            return state ? state->contract : nullptr;
        }};
    const wire::PreparedTransaction prepared = interactive::encode_prepared(draft, inputs);
    lock.unlock();
    const interactive::Hash hash = interactive::prepared_transaction_hash(
        prepared, scheme_name == "HASHING_SCHEME_VERSION_V3" ? interactive::HashingScheme::v3
                                                             : interactive::HashingScheme::v2);
    std::string out = "{";
    http::append_string_field(out, "preparedTransaction",
                              model::base64_encode(prepared.SerializeAsString()), true);
    out += ',';
    http::append_string_field(out, "preparedTransactionHash",
                              model::base64_encode(std::string_view(
                                  reinterpret_cast<const char*>(hash.data()), hash.size())),
                              true);
    out += ',';
    http::append_string_field(out, "hashingSchemeVersion", scheme_name, true);
    if (verbose) {
        // InteractiveSubmissionServiceConfig.enableVerboseHashing is off by default.
        out += ',';
        http::append_string_field(out, "hashingDetails",
                                  "Verbose hashing is disabled on this participant. Contact the "
                                  "node administrator for more details.",
                                  true);
    }
    out += '}';
    return http::Response::json(200, std::move(out));
}

http::Response post_submit_and_wait(seed::LiveNetwork& network, const RouteAuth& auth,
                                    const http::RequestContext& ctx, const ApiProfile& release) {
    return submit(network, auth, ctx, release, Answer::update_id);
}

http::Response post_submit_and_wait_for_transaction(seed::LiveNetwork& network,
                                                    const RouteAuth& auth,
                                                    const http::RequestContext& ctx,
                                                    const ApiProfile& release) {
    return submit(network, auth, ctx, release, Answer::transaction);
}

http::Response post_submit_and_wait_for_transaction_tree(seed::LiveNetwork& network,
                                                         const RouteAuth& auth,
                                                         const http::RequestContext& ctx,
                                                         const ApiProfile& release) {
    return submit(network, auth, ctx, release, Answer::transaction_tree);
}

http::Response post_async_submit(seed::LiveNetwork& network, const RouteAuth& auth,
                                 const http::RequestContext& ctx, const ApiProfile& release) {
    return submit(network, auth, ctx, release, Answer::none);
}

namespace {

// A completions request, read and checked: CompletionStreamRequest {userId, parties,
// beginExclusive} or, for every user's, GetCompletionsRequest {parties, beginExclusive}, relaxed;
// the claims (MatchUserId and ReadAs; ReadAs, or ReadAsAnyParty for no party), then
// CompletionServiceRequestValidator.
struct CompletionsRequest {
    std::optional<std::string> user;  // none: every user's
    std::vector<std::string> parties;
    std::int64_t begin = 0;
};

CompletionsRequest read_completions_request(const store::LedgerStore& store, const RouteAuth& auth,
                                            const Caller& caller, std::string_view text,
                                            bool all_users) {
    const json body = relaxed::parse_body(text);
    relaxed::require_object(body, all_users ? "parties" : "userId");
    CompletionsRequest r;
    const std::string user_id =
        all_users ? "" : relaxed::decode_string(relaxed::member(body, "userId"), "userId");
    r.parties = relaxed::decode_strings(relaxed::member(body, "parties"), "parties");
    r.begin =
        relaxed::decode_optional_long(relaxed::member(body, "beginExclusive"), "beginExclusive")
            .value_or(0);
    if (all_users) {
        auth.authorize(caller, r.parties, r.parties.empty());
    } else {
        r.user = auth.authorize_user_reads(caller, user_id, r.parties, false);
    }
    for (const std::string& p : r.parties) {
        if (const auto e = lf_party_error(p)) throw_invalid_argument(*e);
    }
    ledger::check_non_negative(r.begin, "begin_exclusive");  // (the state reads have their own)
    ledger::check_before_end("Begin", r.begin, store.ledger_end());
    if (!all_users && r.parties.empty()) throw_missing_field("parties");
    return r;
}

// asyncapi.yaml /v2/commands/completions and /v2/commands/command-completions: the client sends
// one request; each completion after it follows as one message, tailing the ledger.
class CompletionStream final : public http::MessageStream {
  public:
    CompletionStream(const store::LedgerStore& store, const RouteAuth& auth, Caller caller,
                     bool all_users)
        : store_(store), auth_(auth), caller_(std::move(caller)), all_users_(all_users) {}

    Output on_message(std::string_view text) override {
        if (std::exchange(started_, true)) return {};  // the first request only (Flow.take(1))
        if (auto refused = stream_request_error(text, [&] {
                request_ = read_completions_request(store_, auth_, caller_, text, all_users_);
            })) {
            return std::move(*refused);
        }
        next_ = request_->begin;
        return poll();
    }

    Output poll() override {
        Output out;
        if (!request_) return out;
        out.messages = completion_messages(store_, request_->user ? &*request_->user : nullptr,
                                           request_->parties, next_, completions_per_poll, &next_);
        return out;
    }

  private:
    static constexpr std::size_t completions_per_poll = 500;
    const store::LedgerStore& store_;
    const RouteAuth auth_;  // a copy: the stream outlives the request
    const Caller caller_;
    const bool all_users_;
    bool started_ = false;
    std::optional<CompletionsRequest> request_;
    std::int64_t next_ = 0;  // the offset of the last completion sent
};

http::Response upgrade_to_completions(const store::LedgerStore& store, const RouteAuth& auth,
                                      const http::RequestContext& ctx, bool all_users) {
    return upgrade_to_stream(auth, ctx, [&](const Caller& caller) {
        return std::make_unique<CompletionStream>(store, auth, caller, all_users);
    });
}

}  // namespace

http::Response post_completions(const store::LedgerStore& store, const RouteAuth& auth,
                                const http::RequestContext& ctx, const ApiProfile& /*release*/) {
    const StreamListParams params = decode_stream_list_params(ctx.request);  // 400 text
    const Caller caller = auth.identify(ctx.request);
    const CompletionsRequest r =
        read_completions_request(store, auth, caller, ctx.request.body, false);
    return completions_list(store, &*r.user, r.parties, r.begin, params);
}

http::Response post_command_completions(const store::LedgerStore& store, const RouteAuth& auth,
                                        const http::RequestContext& ctx,
                                        const ApiProfile& /*release*/) {
    const StreamListParams params = decode_stream_list_params(ctx.request);
    const Caller caller = auth.identify(ctx.request);
    const CompletionsRequest r =
        read_completions_request(store, auth, caller, ctx.request.body, true);
    return completions_list(store, nullptr, r.parties, r.begin, params);
}

http::Response completions_websocket(const store::LedgerStore& store, const RouteAuth& auth,
                                     const http::RequestContext& ctx,
                                     const ApiProfile& /*release*/) {
    return upgrade_to_completions(store, auth, ctx, false);
}

http::Response command_completions_websocket(const store::LedgerStore& store, const RouteAuth& auth,
                                             const http::RequestContext& ctx,
                                             const ApiProfile& /*release*/) {
    return upgrade_to_completions(store, auth, ctx, true);
}

}  // namespace cantonlite::areas::ledger
