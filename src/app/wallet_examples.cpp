// Example requests of the validator's wallet and scan-proxy operations 4, 5, 7 and 9.
#include <algorithm>
#include <cctype>

#include "cantonlite/model/ids.hpp"
#include "cantonlite/splice/splice_views.hpp"
#include "example_facts.hpp"

namespace cantonlite::app::examples {
namespace {

using store::LedgerStore;

// Ops 4 and 5 fail for a user without a wallet; when every user has one, for want of a token.
Example no_wallet_example(const Facts& f, Example e, const std::string& operation_id) {
    const model::User* u = f.first_user(false);
    if (u == nullptr) {
        e.expect_status = 401;
        e.note = "no token: 401 (every user has a wallet, so there is no 404 example)";
        return e;
    }
    e.user = u->id;
    e.expect_status = 404;
    e.note =
        u->id + " has no wallet: 404 " +
        error_body("No wallet found for user '" + u->id + "' for operation '" + operation_id + "'");
    return e;
}

Example traffic_request(const std::string& tracking_id) {
    return {.op = 5,
            .method = "POST",
            .path = "/api/validator/v0/wallet/buy-traffic-requests/" +
                    encode_path_segment(tracking_id) + "/status"};
}

Example counter_request(const Facts& f, const Party& party, int status, std::string note) {
    return with_token({.op = 7,
                       .method = "GET",
                       .path = "/api/validator/v0/scan-proxy/transfer-command-counter/" +
                               encode_path_segment(party),
                       .expect_status = status,
                       .note = std::move(note)},
                      f.any_user());
}

Example ans_request(const Facts& f, const std::string& name, int status, std::string note) {
    return with_token(
        {.op = 9,
         .method = "GET",
         .path = "/api/validator/v0/scan-proxy/ans-entries/by-name/" + encode_path_segment(name),
         .expect_status = status,
         .note = std::move(note)},
        f.any_user());
}

std::string traffic_status(const LedgerStore& store, const TrafficRequest& r) {
    const auto event = splice::views(store).latest_buy_traffic_event(r.user->party, r.tracking_id);
    if (!event) return "unknown";
    switch (event->status) {
        case splice::BuyTrafficStatus::created:
            return "created";
        case splice::BuyTrafficStatus::completed:
            return "completed";
        case splice::BuyTrafficStatus::rejected:
            return "failed (rejected)";
        case splice::BuyTrafficStatus::expired:
            return "failed (expired)";
    }
    return "unknown";
}

// Parties that may hold a TransferCommandCounter: users, SVs, validator, DSO, aliases.
std::vector<Party> candidate_parties(const model::Network& n) {
    std::vector<Party> out;
    for (const model::User& u : n.users) out.push_back(u.party);
    for (const model::SuperValidator& sv : n.svs) out.push_back(sv.party);
    out.push_back(n.validator_party);
    out.push_back(n.dso_party);
    for (const auto& [_, p] : n.parties) out.push_back(p);
    return out;
}

// The name of an active AnsEntry that has not expired at the ledger time, if any.
std::optional<std::string> unexpired_ans_name(const LedgerStore& store) {
    for (const model::ContractPtr& c : store.active_contracts()) {
        if (c->template_id().entity_name != "AnsEntry") continue;
        const ordered_json name = payload_field(*c, "name");
        if (name.is_string() &&
            splice::views(store).ans_entry(name.get<std::string>(), store.now())) {
            return name.get<std::string>();
        }
    }
    return std::nullopt;
}

}  // namespace

void op4_transfer_offers(const Facts& f, Examples& out) {
    const Example request{
        .op = 4, .method = "GET", .path = "/api/validator/v0/wallet/transfer-offers"};
    const model::User* chosen = nullptr;
    std::size_t offers = 0;
    for (const model::User& u : f.network().users) {
        if (!u.wallet) continue;
        offers = splice::views(f.store()).transfer_offers_of(u.party).size();
        chosen = &u;
        if (offers > 0) break;
    }
    if (chosen != nullptr) {
        Example e = request;
        e.user = chosen->id;
        e.note = "the transfer offers of " + chosen->id + ": " + std::to_string(offers);
        out.push_back(std::move(e));
    }
    Example e = no_wallet_example(f, request, "listTransferOffers");
    if (chosen == nullptr) e.note += "; no user has a wallet" + no_success;
    out.push_back(std::move(e));
}

void op5_buy_traffic_status(const Facts& f, Examples& out) {
    const auto& requests = f.traffic_requests();
    const model::User* user = requests.empty() ? f.first_user(true) : requests.back().user;
    if (!requests.empty()) {
        const TrafficRequest& r = requests.back();
        Example e = traffic_request(r.tracking_id);
        e.user = r.user->id;
        e.note = "the latest request of " + r.user->id + " (" + r.tracking_id + "), status " +
                 traffic_status(f.store(), r);
        out.push_back(std::move(e));
    }
    std::string unknown = "unknown-tracking-id";
    while (user != nullptr &&
           splice::views(f.store()).latest_buy_traffic_event(user->party, unknown)) {
        unknown += "-x";
    }
    Example e = traffic_request(unknown);
    if (user != nullptr) {
        e.user = user->id;
        e.expect_status = 404;
        e.note = "unknown tracking id: 404 " +
                 error_body("Couldn't find buy traffic request with tracking id " + unknown);
    } else {
        e = no_wallet_example(f, std::move(e), "getBuyTrafficRequestStatus");
    }
    if (requests.empty()) e.note += "; no buy-traffic request exists" + no_success;
    out.push_back(std::move(e));
}

void op7_transfer_command_counter(const Facts& f, Examples& out) {
    std::optional<Party> with, without;
    for (const Party& p : candidate_parties(f.network())) {
        auto& slot = splice::views(f.store()).transfer_command_counter_of(p) ? with : without;
        if (!slot) slot = p;
    }
    // A party of no one, should every party of the network have a counter.
    if (!without) without = "nobody::1220" + model::sha256_hex(f.network().id_namespace);
    if (with) {
        out.push_back(counter_request(f, *with, 200, "the TransferCommandCounter of " + *with));
    }
    std::string note = "no counter for that party: 404 " +
                       error_body("No TransferCommandCounter found for party: " + *without +
                                  ", use 0 for the nonce");
    if (!with) note += "; no party has a counter" + no_success;
    out.push_back(counter_request(f, *without, 404, std::move(note)));
}

void op9_ans_entry(const Facts& f, Examples& out) {
    std::string acronym = f.network().ans_acronym;
    std::transform(acronym.begin(), acronym.end(), acronym.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (const auto name = unexpired_ans_name(f.store())) {
        out.push_back(ans_request(f, *name, 200, "an ANS entry not expired at the ledger time"));
    }
    out.push_back(
        ans_request(f, "dso." + acronym, 200, "the DSO's own name, answered without a contract"));
    std::string unknown = "unknown.unverified." + acronym;
    while (splice::views(f.store()).ans_entry(unknown, model::Timestamp{})) unknown = "x" + unknown;
    out.push_back(ans_request(
        f, unknown, 404,
        "unknown name: 404 " + error_body("Did not find a AnsEntry with name " + unknown)));
}

}  // namespace cantonlite::app::examples
