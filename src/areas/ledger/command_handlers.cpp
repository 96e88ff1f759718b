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

#include "cantonlite/areas/ledger/command_requests.hpp"
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
#include "cantonlite/model/ids.hpp"
#include "cantonlite/seed/commands.hpp"

namespace cantonlite::areas::ledger {
namespace {

using http::ApiError;
using http::ErrorKind;
using nlohmann::json;

http::Response submit(seed::LiveNetwork& network, const RouteAuth& auth,
                      const http::RequestContext& ctx, const ApiProfile& release,
                      CommandAnswer answer) {
    // The body and the JSON layer read nothing the writes change (the packages are the seed's), so
    // they run outside the readers' lock; their errors come after the token's user is looked up,
    // as the JSON security stage runs first.
    const model::Network& n = network.store().network();
    const bool wrapped = answer == CommandAnswer::transaction;
    std::optional<TransactionFormat> format;
    JsCommands c;
    std::vector<seed::ResolvedCommand> resolved;  // the step uses them rather than resolve again
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
        resolved = transcode(n, c);
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
    validate_deduplication(c.deduplication);
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
    add_deduplication(step, c.deduplication);
    seed::Written written =
        write_command(network, std::move(step), std::move(resolved), submission_id, ctx);
    // The transaction's format: asked for, else every act-as and read-as party; a tree's as
    // JsCommandService builds it: act-as only, cumulative wildcards, LEDGER_EFFECTS.
    TransactionFormat f;
    if (answer == CommandAnswer::transaction)
        f = format.value_or(default_transaction_format(c.act_as, c.read_as));
    if (answer == CommandAnswer::transaction_tree) {
        EventFormat e;
        e.verbose = true;
        for (const std::string& p : c.act_as)
            e.filters_by_party[p] =
                Filters{{CumulativeFilter{.kind = CumulativeFilter::Kind::wildcard}}};
        f = TransactionFormat{.event_format = e,
                              .transaction_shape = TransactionShape::ledger_effects};
    }
    std::string out = command_answer(network, command_offset(written), answer, f, release);
    return answer_once_durable(network, std::move(written), std::move(out));
}

// ---- completions ----

// The Completion message (its value) of `c`, showing `act_as`.
nlohmann::ordered_json completion_value(const store::CommandCompletion& c,
                                        const std::vector<std::string>& act_as,
                                        const std::string& update_id, const model::Network& n) {
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
    return value;
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
        out.push_back(nlohmann::ordered_json{
            {"completionResponse",
             {{"Completion",
               {{"value",
                 completion_value(c, act_as, store.id_for(c.offset).str(), store.network())}}}}}}
                          .dump());
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

http::Response post_submit_and_wait(seed::LiveNetwork& network, const RouteAuth& auth,
                                    const http::RequestContext& ctx, const ApiProfile& release) {
    return submit(network, auth, ctx, release, CommandAnswer::update_id);
}

http::Response post_submit_and_wait_for_transaction(seed::LiveNetwork& network,
                                                    const RouteAuth& auth,
                                                    const http::RequestContext& ctx,
                                                    const ApiProfile& release) {
    return submit(network, auth, ctx, release, CommandAnswer::transaction);
}

http::Response post_submit_and_wait_for_transaction_tree(seed::LiveNetwork& network,
                                                         const RouteAuth& auth,
                                                         const http::RequestContext& ctx,
                                                         const ApiProfile& release) {
    return submit(network, auth, ctx, release, CommandAnswer::transaction_tree);
}

http::Response post_async_submit(seed::LiveNetwork& network, const RouteAuth& auth,
                                 const http::RequestContext& ctx, const ApiProfile& release) {
    return submit(network, auth, ctx, release, CommandAnswer::none);
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

http::Response post_completion_by_hash(const store::LedgerStore& store, const RouteAuth& auth,
                                       const http::RequestContext& ctx,
                                       const ApiProfile& /*release*/) {
    // GetCompletionByHashRequest {transactionHash: bytes, base64}, relaxed; the claims
    // (MatchReadAsParties: the parties the caller reads as), then
    // CompletionServiceRequestValidator.validateCompletionByHash.
    const Caller caller = auth.identify(ctx.request);
    const json body = relaxed::parse_body(ctx.request.body);
    relaxed::require_object(body, "transactionHash");
    const std::string hash =
        relaxed::decode_byte_string(relaxed::member(body, "transactionHash"), "transactionHash");
    const std::optional<std::vector<std::string>> readable = auth.readable_parties(caller);
    if (hash.empty()) throw_invalid_argument("Missing field: transaction_hash");
    // Every completion of this participant's own executions (cantonlite keeps no rejected ones).
    const std::string hex = model::hex(hash);
    const auto offset = store.offset_of_external_hash(hex);
    const auto completion = offset ? store.completion_at(*offset) : std::nullopt;
    std::vector<std::string> act_as;
    if (completion) {
        for (const std::string& p : completion->act_as) {
            if (!readable || std::find(readable->begin(), readable->end(), p) != readable->end())
                act_as.push_back(p);
        }
    }
    if (act_as.empty()) {
        throw ApiError(ErrorKind::not_found, "COMPLETION_NOT_FOUND",
                       "Completion not found, or not visible.", {}, {{"TRANSACTION_HASH", hex}});
    }
    const nlohmann::ordered_json answer{
        {"acceptedCompletion",
         completion_value(*completion, act_as, store.id_for(completion->offset).str(),
                          store.network())},
        {"lastRejectedCompletions", nlohmann::ordered_json::array()}};
    return http::Response::json(200, answer.dump());
}

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
