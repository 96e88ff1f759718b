#include "example_facts.hpp"

#include <variant>

#include "cantonlite/model/timestamp.hpp"
#include "cantonlite/model/value_json.hpp"

namespace cantonlite::app::examples {

Facts::Facts(const store::LedgerStore& store) : store_(store) {
    for (store::Offset o = 1; o <= store_.ledger_end(); ++o) {
        const store::UpdatePtr update = store_.update_at(o);
        if (const auto* m = std::get_if<store::Migration>(update.get())) {
            migrations_.push_back(*m);
        } else if (const auto* tx = std::get_if<store::Transaction>(update.get())) {
            collect_traffic_requests(*tx);
        }
    }
}

const model::User* Facts::any_user() const {
    return network().users.empty() ? nullptr : &network().users.front();
}

const model::User* Facts::first_user(bool wallet) const {
    for (const model::User& u : network().users) {
        if (u.wallet == wallet) return &u;
    }
    return nullptr;
}

void Facts::collect_traffic_requests(const store::Transaction& tx) {
    for (const store::Node& n : tx.nodes) {
        const auto* c = std::get_if<store::CreatedNode>(&n.event);
        if (c == nullptr || c->contract->template_id().entity_name != "BuyTrafficRequest") continue;
        const ordered_json party = payload_field(*c->contract, "endUserParty");
        const ordered_json tracking = payload_field(*c->contract, "trackingId");
        if (!party.is_string() || !tracking.is_string()) continue;
        for (const model::User& u : network().users) {
            if (u.wallet && u.party == party.get<std::string>()) {
                traffic_.push_back({.user = &u, .tracking_id = tracking.get<std::string>()});
                break;
            }
        }
    }
}

ordered_json payload_field(const model::Contract& c, const std::string& key) {
    const ordered_json payload =
        ordered_json::parse(model::value_json(c.argument, model::ValueEncoding::api_compressed));
    return payload.is_object() && payload.contains(key) ? payload.at(key) : ordered_json();
}

std::string time_text(model::Timestamp t) {
    return model::format_offset_date_time(t);
}

Example with_token(Example e, const model::User* user) {
    if (user != nullptr) {
        e.user = user->id;
    } else {
        e.user.reset();
        e.expect_status = 401;
        e.note += " (the network has no users, so no token: 401)";
    }
    return e;
}

}  // namespace cantonlite::app::examples
