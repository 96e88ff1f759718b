// Wallet operations of the validator (splice-behavior.md ops 4 and 5).
#include "cantonlite/areas/scan/scan_json.hpp"
#include "cantonlite/areas/validator/validator_handlers.hpp"
#include "cantonlite/http/api_error.hpp"
#include "cantonlite/http/json_text.hpp"
#include "cantonlite/splice/splice_views.hpp"

namespace cantonlite::areas::validator {

http::Response list_transfer_offers(const Store& store, const model::User& user,
                                    const Context& /*ctx*/) {
    std::string out = R"({"offers":[)";
    bool first = true;
    for (const model::ContractPtr& offer : splice::views(store).transfer_offers_of(user.party)) {
        if (!first) out += ',';
        first = false;
        scan::append_contract(out, *offer);
    }
    out += "]}";
    return http::Response::json(200, std::move(out));
}

http::Response get_buy_traffic_request_status(const Store& store, const model::User& user,
                                              const Context& ctx) {
    const std::string& tracking_id = ctx.params.get("tracking_id");
    const auto event = splice::views(store).latest_buy_traffic_event(user.party, tracking_id);
    if (!event) {
        throw http::ApiError(http::ErrorKind::not_found, "",
                             "Couldn't find buy traffic request with tracking id " + tracking_id)
            .as_returned();
    }
    std::string out = "{";
    switch (event->status) {
        case splice::BuyTrafficStatus::created:
            http::append_string_field(out, "status", "created", true);
            break;
        case splice::BuyTrafficStatus::completed:
            http::append_string_field(out, "status", "completed", true);
            http::append_string_field(out, "transaction_id", event->update_id);
            break;
        case splice::BuyTrafficStatus::rejected:
            http::append_string_field(out, "status", "failed", true);
            http::append_string_field(out, "failure_reason", "rejected");
            http::append_string_field(out, "rejection_reason", event->reason);
            break;
        case splice::BuyTrafficStatus::expired:
            http::append_string_field(out, "status", "failed", true);
            http::append_string_field(out, "failure_reason", "expired");
            http::append_null_field(out, "rejection_reason");
            break;
    }
    out += '}';
    return http::Response::json(200, std::move(out));
}

}  // namespace cantonlite::areas::validator
