// The WebSocket stream of /v2/updates (asyncapi.yaml channel /v2/updates; Canton 3.5
// JsUpdateService over Endpoints.websocket): the client sends one GetUpdatesRequest; each visible
// update follows as one text message, the same JSON as one element of POST /v2/updates' list.
// Without endInclusive the stream tails the ledger; with it, it ends there and the socket closes
// (1000). An error is one JsCantonError message, then the close.
#include <algorithm>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <utility>

#include "cantonlite/areas/ledger/js_canton_error.hpp"
#include "cantonlite/areas/ledger/ledger_area.hpp"
#include "cantonlite/areas/ledger/ledger_handlers.hpp"
#include "cantonlite/areas/ledger/update_reads.hpp"
#include "cantonlite/http/api_error.hpp"
#include "cantonlite/http/area.hpp"

namespace cantonlite::areas::ledger {
namespace {

using http::ApiError;
using http::ErrorKind;
using Output = http::MessageStream::Output;

// Offsets read per poll: a long backlog goes out in slices, each sent before the next is read.
constexpr std::int64_t offsets_per_poll = 500;

class UpdateStream final : public http::MessageStream {
  public:
    UpdateStream(const store::LedgerStore& store, const RouteAuth& auth, Caller caller,
                 ApiProfile release, bool trees)
        : store_(store), auth_(auth), caller_(caller), release_(release), trees_(trees) {}

    Output on_message(std::string_view text) override {
        // Canton takes the first request (Flow.take(1)) and ignores what follows.
        if (std::exchange(started_, true)) return {};
        if (auto refused = stream_request_error(text, [&] {
                plan_ =
                    plan_updates(store_, auth_, caller_, decode_updates(text), release_, trees_);
            })) {
            return std::move(*refused);
        }
        next_ = plan_->begin_exclusive;
        if (plan_->descending) {  // an end is required then: all of it, latest first, and done
            Output out;
            for (const std::string& u :
                 read_range(store_, plan_->reader, plan_->begin_exclusive, plan_->end, true,
                            std::numeric_limits<std::int64_t>::max(), release_)) {
                out.messages.push_back(update_message(u));
            }
            out.done = true;
            return out;
        }
        return poll();
    }

    Output poll() override {
        Output out;
        if (!plan_ || plan_->descending) return out;
        const std::int64_t to = plan_->end_inclusive.value_or(store_.ledger_end());
        if (to > next_) {
            const std::int64_t upto = std::min(to, next_ + offsets_per_poll);
            for (const std::string& u :
                 read_range(store_, plan_->reader, next_, upto, false,
                            std::numeric_limits<std::int64_t>::max(), release_)) {
                out.messages.push_back(update_message(u));
            }
            next_ = upto;
        }
        // Tailing and caught up with a ledger end not yet checkpointed: its OffsetCheckpoint.
        if (!plan_->end_inclusive && next_ == to && to > checkpointed_) {
            out.messages.push_back(offset_checkpoint_message(store_, to));
            checkpointed_ = to;
        }
        out.done = plan_->end_inclusive && next_ >= *plan_->end_inclusive;
        return out;
    }

  private:
    const store::LedgerStore& store_;
    const RouteAuth auth_;  // a copy: the stream outlives the request
    const Caller caller_;
    const ApiProfile release_;
    const bool trees_;  // /v2/updates/trees: each transaction a TransactionTree
    bool started_ = false;
    std::optional<UpdatesPlan> plan_;
    std::int64_t next_ = 0;          // the last offset read
    std::int64_t checkpointed_ = 0;  // the offset of the last OffsetCheckpoint sent
};

}  // namespace

std::unique_ptr<http::MessageStream> make_update_stream(const store::LedgerStore& store,
                                                        const RouteAuth& auth, const Caller& caller,
                                                        const ApiProfile& release, bool trees) {
    return std::make_unique<UpdateStream>(store, auth, caller, release, trees);
}

std::optional<http::MessageStream::Output> stream_request_error(std::string_view text,
                                                                const std::function<void()>& plan) {
    const auto refuse = [](const ApiError& e) {
        return http::MessageStream::Output{.messages = {js_canton_error(e, new_trace_id()).dump()},
                                           .done = true};
    };
    try {
        plan();
        return std::nullopt;
    } catch (const ApiError& e) {
        return refuse(e);
    } catch (const http::DecodeError& e) {
        // tapir's WebSocketFrameDecodeFailure, which Canton's recover turns into an internal
        // error.
        return refuse(
            ApiError(ErrorKind::internal, "LEDGER_API_INTERNAL_ERROR",
                     "Cannot decode frame: " + std::string(text) + ", due to: " + e.what()));
    }
}

http::Response upgrade_to_stream(
    const RouteAuth& auth, const http::RequestContext& ctx,
    const std::function<std::unique_ptr<http::MessageStream>(const Caller&)>& open) {
    const Caller caller = auth.identify(ctx.request);
    if (!ctx.request.websocket_upgrade) return unknown_path_response(ctx.request);
    http::Response r;
    r.status = 101;
    r.stream = open(caller);
    r.subprotocol = "daml.ws.auth";
    return r;
}

http::Response updates_websocket(const store::LedgerStore& store, const RouteAuth& auth,
                                 const http::RequestContext& ctx, const ApiProfile& release) {
    return upgrade_to_stream(auth, ctx, [&](const Caller& caller) {
        return make_update_stream(store, auth, caller, release, false);
    });
}

http::Response update_trees_websocket(const store::LedgerStore& store, const RouteAuth& auth,
                                      const http::RequestContext& ctx, const ApiProfile& release) {
    return upgrade_to_stream(auth, ctx, [&](const Caller& caller) {
        return make_update_stream(store, auth, caller, release, true);
    });
}

}  // namespace cantonlite::areas::ledger
