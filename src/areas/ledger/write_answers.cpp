// How a ledger write is answered: once its journal record is durable.
#include <exception>
#include <string>
#include <utility>

#include <spdlog/spdlog.h>

#include "cantonlite/areas/ledger/js_canton_error.hpp"
#include "cantonlite/areas/ledger/ledger_handlers.hpp"
#include "cantonlite/http/api_error.hpp"

namespace cantonlite::areas::ledger {

http::ApiError write_failed(const seed::WriteError& e) {
    return {e.status() == 503 ? http::ErrorKind::unavailable : http::ErrorKind::internal, "",
            e.what()};
}

http::Response answer_once_durable(seed::LiveNetwork& network, seed::Written written,
                                   std::string body) {
    if (!written.ticket) return http::Response::json(200, std::move(body));
    http::Response pending;
    pending.deferred = [&network, written = std::move(written),
                        body = std::move(body)](http::Response::Completion done) {
        network.when_durable(written, [done = std::move(done), body](std::exception_ptr error) {
            if (!error) return done(http::Response::json(200, body));
            http::ApiError e(http::ErrorKind::internal, "", "the journal failed");
            try {
                std::rethrow_exception(error);
            } catch (const seed::WriteError& failed) {
                e = write_failed(failed);
            } catch (const std::exception& failed) {
                e = http::ApiError(http::ErrorKind::internal, "", failed.what());
            }
            spdlog::error("ledger write: {}", e.what());
            done(
                http::Response::json(http_status_of(e), js_canton_error(e, new_trace_id()).dump()));
        });
    };
    return pending;
}

}  // namespace cantonlite::areas::ledger
