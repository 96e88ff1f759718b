// The StateService of the JSON Ledger API: the ledger end, the HTTP list of active contracts and
// its pages (JsStateService, ApiStateService, IndexServiceImpl.getActiveContracts).
#include <memory>
#include <optional>
#include <utility>

#include "cantonlite/areas/ledger/event_filter.hpp"
#include "cantonlite/areas/ledger/ledger_area.hpp"
#include "cantonlite/areas/ledger/ledger_handlers.hpp"
#include "cantonlite/areas/ledger/list_limit.hpp"
#include "cantonlite/areas/ledger/read_requests.hpp"
#include "cantonlite/areas/ledger/update_json.hpp"
#include "cantonlite/http/api_error.hpp"
#include "cantonlite/http/area.hpp"
#include "cantonlite/model/ids.hpp"

namespace cantonlite::areas::ledger {
namespace {

using http::ApiError;
using http::ErrorKind;

// StateServiceConfig: maxAcsPageSize and defaultAcsPageSize.
constexpr std::int32_t max_acs_page_size = 10000;
constexpr std::int32_t default_acs_page_size = 2000;

// ---- reading the ACS at an offset ----

struct Candidate {
    std::uint64_t sequence = 0;
    store::ContractState state;
    ContractView view;
};

// The contracts active (or in flight) at `at` that `reader` sees, in creation order, from the
// creation sequence `from` on, at most `limit`. Stops at the first contract created after `at`.
std::vector<Candidate> scan_acs(const store::LedgerStore& store, const Reader& reader,
                                std::int64_t at, std::uint64_t from, std::int64_t limit) {
    std::vector<Candidate> found;
    if (limit <= 0) return found;
    store.visit_created(from, [&](std::uint64_t sequence, const store::ContractState& state) {
        if (state.created_offset() > at) return false;
        if (state.archived_offset() && *state.archived_offset() <= at) return true;
        if (auto view = view_contract(reader, *state.contract)) {
            found.push_back({.sequence = sequence, .state = state, .view = std::move(*view)});
        }
        return static_cast<std::int64_t>(found.size()) < limit;
    });
    return found;
}

// Where a candidate is at `at`: its create, then its reassignments up to `at`.
AcsEntry resolve(const store::LedgerStore& store, Candidate&& c, std::int64_t at) {
    AcsEntry entry{.contract = c.state.contract,
                   .view = std::move(c.view),
                   .activated_offset = c.state.created_offset(),
                   .activated_node_id = c.state.contract->created_node_id};
    if (const store::UpdatePtr created = store.update_at(c.state.created_offset())) {
        if (const auto* tx = std::get_if<store::Transaction>(created.get())) {
            entry.workflow_id = tx->workflow_id;
            entry.synchronizer_id = tx->synchronizer_id;
        }
    }
    for (const store::Offset offset :
         store.reassignments_of(c.state.contract->contract_id.view())) {
        if (offset > at) break;
        store::UpdatePtr update = store.update_at(offset);
        const auto* r = update ? std::get_if<store::Reassignment>(update.get()) : nullptr;
        if (r == nullptr) continue;
        entry.reassignment_counter = r->reassignment_counter;
        if (r->kind == store::Reassignment::Kind::unassign) {
            entry.synchronizer_id = r->source_synchronizer;
            entry.unassigned = r;
            entry.keep_alive = std::move(update);
        } else {
            entry.synchronizer_id = r->target_synchronizer;
            entry.activated_offset = r->offset;
            entry.activated_node_id = 0;
            entry.unassigned = nullptr;
            entry.keep_alive.reset();
        }
    }
    return entry;
}

// ---- tokens: base64 of "acs|<active at>|<creation sequence to continue from>", and for pages
// "|<request digest>" after them ----

struct AcsToken {
    std::int64_t at = 0;
    std::uint64_t next = 0;
    std::string digest;  // pages only: of the event format the token was made for
};

std::string acs_token(std::int64_t at, std::uint64_t next, const std::string& digest = "") {
    return model::base64_encode("acs|" + std::to_string(at) + "|" + std::to_string(next) +
                                (digest.empty() ? "" : "|" + digest));
}

std::optional<AcsToken> parse_acs_token(const std::string& text) {
    const std::optional<std::string> raw = model::base64_decode(text);
    if (!raw || !raw->starts_with("acs|")) return std::nullopt;
    const std::size_t bar = raw->find('|', 4);
    if (bar == std::string::npos) return std::nullopt;
    try {
        AcsToken token;
        std::size_t used = 0;
        token.at = std::stoll(raw->substr(4, bar - 4), &used);
        if (used != bar - 4) return std::nullopt;
        std::string rest = raw->substr(bar + 1);
        if (const std::size_t last = rest.find('|'); last != std::string::npos) {
            token.digest = rest.substr(last + 1);
            rest.resize(last);
            if (token.digest.empty()) return std::nullopt;
        }
        token.next = std::stoull(rest, &used);
        if (used != rest.size()) return std::nullopt;
        return token;
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

[[noreturn]] void invalid_page_token(const std::string& message) {
    throw ApiError(ErrorKind::invalid_argument, "INVALID_ACS_PAGE_TOKEN",
                   "The submitted command contains an invalid page token. Tokens used in ACS "
                   "requests must be taken from a valid GetActiveContractsPageResponse and used "
                   "with the same EventFormat settings, with the same Canton participant running "
                   "the same Canton version. " +
                       message);
}

// ---- validation ----

void check_non_negative(std::int64_t offset) {
    if (offset >= 0) return;
    throw ApiError(ErrorKind::invalid_argument, "NEGATIVE_OFFSET",
                   "Offset " + std::to_string(offset) +
                       " in active_at_offset is a negative integer: the offset in "
                       "active_at_offset field has to be a non-negative integer (>=0)")
        .without_definite_answer();
}

void check_before_end(std::int64_t at, std::int64_t end) {
    if (at <= end) return;
    throw ApiError(ErrorKind::out_of_range, "OFFSET_AFTER_LEDGER_END",
                   "active_at_offset offset (" + std::to_string(at) + ") is after ledger end (" +
                       std::to_string(end) + ")");
}

// The JSON layer: eventFormat or the deprecated filter/verbose (toGetActiveContractsRequest).
EventFormat select_event_format(const ActiveContractsRequest& req, const ApiProfile& release) {
    if (!is_enabled(release, Deprecation::parameters_34) && (req.filter || req.verbose))
        throw_deprecated_parameters("/v2/state/active-contracts");
    if (req.event_format && req.filter) {
        throw_invalid_argument(
            "Both event_format and filter are set. Please use either backwards compatible "
            "arguments (filter and verbose) or event_format, but not both.");
    }
    if (req.event_format && req.verbose) {
        throw_invalid_argument(
            "Both event_format and verbose are set. Please use either backwards compatible "
            "arguments (filter and verbose) or event_format, but not both.");
    }
    if (req.event_format) return *req.event_format;
    if (!req.filter) {
        throw_invalid_argument(
            "Either filter/verbose or event_format is required. Please use either backwards "
            "compatible arguments (filter and verbose) or event_format.");
    }
    EventFormat events = *req.filter;
    events.verbose = req.verbose;
    return events;
}

void authorize_events(const RouteAuth& auth, const Caller& caller,
                      const std::optional<EventFormat>& events) {
    auth.authorize(caller, events ? parties_of(*events) : std::vector<std::string>{},
                   events && events->filters_for_any_party.has_value());
}

}  // namespace

http::Response get_state_ledger_end(const store::LedgerStore& store, const RouteAuth& /*auth*/,
                                    const http::RequestContext& /*ctx*/,
                                    const ApiProfile& /*release*/) {
    // Canton 3.6 adds the query parameter synchronizer_id (an array of ids); the answer is the
    // participant's ledger end either way, which is what the one-participant store has.
    return http::Response::json(200, R"({"offset":)" + std::to_string(store.ledger_end()) + "}");
}

namespace {

// A GetActiveContractsRequest, checked: what to read, from where.
struct AcsPlan {
    Reader reader;
    std::int64_t at = 0;     // active_at_offset
    std::uint64_t from = 0;  // the creation sequence to start at (a continuation token's)
    std::string digest;      // of the request's event format, for the tokens
};

// The checks of a GetActiveContractsRequest after the token stage, in Canton's order: decoding
// (400 text), the JSON layer's format (400), authorization (401, 403), validation (400), the
// identifiers (404), the offset against the ledger end.
AcsPlan plan_active_contracts(const store::LedgerStore& store, const RouteAuth& auth,
                              const Caller& caller, std::string_view body,
                              const ApiProfile& release) {
    const ActiveContractsRequest request = decode_active_contracts(body);  // 400 text
    const EventFormat events = select_event_format(request, release);      // 400
    authorize_events(auth, caller, events);                                // 401, 403
    validate_event_format(events);                                         // 400
    const std::string digest = request_member_digest(body, "eventFormat");
    std::uint64_t from = 0;
    if (request.stream_continuation_token) {
        // AcsContinuationToken.decodeAndValidate: undecodable, then not this request's.
        const auto token = parse_acs_token(*request.stream_continuation_token);
        if (!token) {
            throw ApiError(ErrorKind::invalid_argument, "INVALID_FIELD",
                           "The submitted command has a field with invalid value: Invalid field "
                           "stream_continuation_token: Invalid continuation token for "
                           "GetActiveContractsRequest",
                           {{"field_name", "stream_continuation_token"}});
        }
        if (token->at != request.active_at_offset || token->digest != digest) {
            throw ApiError(ErrorKind::invalid_argument, "INVALID_CONTINUATION_TOKEN",
                           "The submitted command contains an invalid continuation token. Tokens "
                           "used in ACS requests must be taken from a valid "
                           "GetActiveContractsResponse and used with the same EventFormat "
                           "settings, with the same Canton participant running the same Canton "
                           "version.");
        }
        from = token->next;
    }
    check_non_negative(request.active_at_offset);
    check_known(store, events);  // 404
    check_before_end(request.active_at_offset, store.ledger_end());
    return AcsPlan{.reader = Reader::make(events, store.network()),
                   .at = request.active_at_offset,
                   .from = from,
                   .digest = digest};
}

// One element of the answer: {"workflowId":…,"contractEntry":…} with its continuation token.
std::string acs_element(const store::LedgerStore& store, Candidate&& found, const AcsPlan& plan) {
    const std::uint64_t next = found.sequence + 1;
    return active_contract_json(resolve(store, std::move(found), plan.at),
                                acs_token(plan.at, next, plan.digest));
}

// Contracts read per poll of the WebSocket: a large ACS goes out in slices.
constexpr std::int64_t contracts_per_poll = 500;

// The WebSocket form (asyncapi.yaml /v2/state/active-contracts): the first message is the
// request; then every element of the snapshot, one message each, and the stream ends (close
// 1000). An error is one JsCantonError message, then the end.
class ActiveContractsStream final : public http::MessageStream {
  public:
    ActiveContractsStream(const store::LedgerStore& store, const RouteAuth& auth, Caller caller,
                          ApiProfile release)
        : store_(store), auth_(auth), caller_(caller), release_(release) {}

    Output on_message(std::string_view text) override {
        if (std::exchange(started_, true)) return {};  // Flow.take(1)
        if (auto refused = stream_request_error(text, [&] {
                plan_ = plan_active_contracts(store_, auth_, caller_, text, release_);
            })) {
            return std::move(*refused);
        }
        return poll();
    }

    Output poll() override {
        Output out;
        if (!plan_) return out;
        std::vector<Candidate> found =
            scan_acs(store_, plan_->reader, plan_->at, plan_->from, contracts_per_poll);
        out.done = static_cast<std::int64_t>(found.size()) < contracts_per_poll;
        for (Candidate& c : found) {
            plan_->from = c.sequence + 1;
            out.messages.push_back(acs_element(store_, std::move(c), *plan_));
        }
        return out;
    }

  private:
    const store::LedgerStore& store_;
    const RouteAuth auth_;  // a copy: the stream outlives the request
    const Caller caller_;
    const ApiProfile release_;
    bool started_ = false;
    std::optional<AcsPlan> plan_;
};

}  // namespace

http::Response post_state_active_contracts(const store::LedgerStore& store, const RouteAuth& auth,
                                           const http::RequestContext& ctx,
                                           const ApiProfile& release) {
    const StreamListParams params = decode_stream_list_params(ctx.request);  // 400 text
    const Caller caller = auth.identify(ctx.request);                        // 403
    const AcsPlan plan = plan_active_contracts(store, auth, caller, ctx.request.body, release);
    std::vector<Candidate> found =
        scan_acs(store, plan.reader, plan.at, plan.from, list_take(params.limit));
    check_list_limit(found.size());  // 413
    std::string out = "[";
    for (std::size_t i = 0; i < found.size(); ++i) {
        if (i > 0) out += ',';
        out += acs_element(store, std::move(found[i]), plan);
    }
    out += ']';
    return http::Response::json(200, out);
}

http::Response active_contracts_websocket(const store::LedgerStore& store, const RouteAuth& auth,
                                          const http::RequestContext& ctx,
                                          const ApiProfile& release) {
    return upgrade_to_stream(auth, ctx, [&](const Caller& caller) {
        return std::make_unique<ActiveContractsStream>(store, auth, caller, release);
    });
}

http::Response post_state_active_contracts_page(const store::LedgerStore& store,
                                                const RouteAuth& auth,
                                                const http::RequestContext& ctx,
                                                const ApiProfile& /*release*/) {
    const Caller caller = auth.identify(ctx.request);
    const ActiveContractsPageRequest request = decode_active_contracts_page(ctx.request.body);
    authorize_events(auth, caller, request.event_format);
    if (!request.event_format) throw_missing_field("event_format");
    validate_event_format(*request.event_format);
    std::int32_t page_size = default_acs_page_size;
    if (const auto size = request.max_page_size) {
        if (*size <= 0) {
            throw_invalid_argument("Requested page size must be positive, but got " +
                                   std::to_string(*size));
        }
        if (*size > max_acs_page_size) {
            throw_invalid_argument("Requested page size must not exceed " +
                                   std::to_string(max_acs_page_size) + ", but got " +
                                   std::to_string(*size));
        }
        page_size = *size;
    }
    std::optional<AcsToken> token;
    const std::string digest = request_member_digest(ctx.request.body, "eventFormat");
    if (request.page_token && !request.page_token->empty()) {
        token = parse_acs_token(*request.page_token);
        if (!token || token->digest.empty()) invalid_page_token("Invalid token format");
        // The spec: a token works with "the same active_at_offset and event_format".
        const bool same_offset = !request.active_at_offset || *request.active_at_offset == 0 ||
                                 *request.active_at_offset == token->at;
        if (token->digest != digest || !same_offset) {
            invalid_page_token("The request does not match the token");
        }
    }
    if (request.active_at_offset) check_non_negative(*request.active_at_offset);
    // An activeAtOffset of 0 is the participant's begin, which the page reads as "none given".
    std::int64_t at = store.ledger_end();
    if (token) {
        at = token->at;
    } else if (request.active_at_offset && *request.active_at_offset > 0) {
        at = *request.active_at_offset;
    }
    check_known(store, *request.event_format);
    check_before_end(at, store.ledger_end());
    const Reader reader = Reader::make(*request.event_format, store.network());
    std::vector<Candidate> found =
        scan_acs(store, reader, at, token ? token->next : 0, page_size + 1LL);
    std::optional<std::string> next;
    if (static_cast<std::int64_t>(found.size()) > page_size) {
        next = acs_token(at, found.back().sequence, digest);
        found.pop_back();
    }
    std::string out = R"({"activeContracts":[)";
    for (std::size_t i = 0; i < found.size(); ++i) {
        if (i > 0) out += ',';
        out += active_contract_json(resolve(store, std::move(found[i]), at), "");
    }
    out += R"(],"activeAtOffset":)" + std::to_string(at) + R"(,"nextPageToken":)";
    out += next ? "\"" + *next + "\"" : std::string("null");
    out += '}';
    return http::Response::json(200, out);
}

}  // namespace cantonlite::areas::ledger
