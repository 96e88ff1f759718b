#include "cantonlite/app/examples.hpp"

#include <algorithm>
#include <variant>

#include "cantonlite/model/ids.hpp"
#include "cantonlite/model/timestamp.hpp"
#include "cantonlite/splice/splice_views.hpp"
#include "example_facts.hpp"

namespace cantonlite::app {
namespace examples {
namespace {

using model::micros_per_second;

template <typename Parties>
bool contains(const Parties& parties, const Party& p) {
    return std::find(parties.begin(), parties.end(), p) != parties.end();
}

// The party the user's token lets the ledger API read, preferring the user's own.
std::optional<Party> readable_party(const model::User& u) {
    const model::LedgerRights& r = u.rights;
    if (r.can_read_as_any_party || contains(r.can_act_as, u.party) ||
        contains(r.can_read_as, u.party)) {
        return u.party;
    }
    if (!r.can_act_as.empty()) return r.can_act_as.front();
    if (!r.can_read_as.empty()) return r.can_read_as.front();
    return std::nullopt;
}

// True when the ACS_DELTA shape of the transaction for `party` has an event: a create or a
// consuming exercise with the party among the contract's stakeholders.
bool visible_to(const store::Transaction& tx, const Party& party) {
    for (const store::Node& n : tx.nodes) {
        if (const auto* c = std::get_if<store::CreatedNode>(&n.event)) {
            if (contains(c->contract->stakeholders, party)) return true;
        } else if (const auto& e = *store::exercised(n);
                   e.consuming && contains(e.stakeholders, party)) {
            return true;
        }
    }
    return false;
}

// ---- the ledger and scan operations (the wallet ones: wallet_examples.cpp) ----

// A transaction and a user whose readable party sees it.
struct VisibleTransaction {
    store::Offset offset = 0;
    const model::User* user = nullptr;
    Party party;
};

// The latest transaction some user can read, with the first such user.
std::optional<VisibleTransaction> latest_visible_transaction(const Facts& f) {
    for (store::Offset o = f.store().ledger_end(); o >= 1; --o) {
        const store::UpdatePtr update = f.store().update_at(o);
        const auto* tx = std::get_if<store::Transaction>(update.get());
        if (tx == nullptr) continue;
        for (const model::User& u : f.network().users) {
            const auto p = readable_party(u);
            if (p && visible_to(*tx, *p)) return VisibleTransaction{o, &u, *p};
        }
    }
    return std::nullopt;
}

// Op 1 reads the transaction at an offset as the party's ACS delta: by transaction-by-offset
// (requestingParties), or under splice-0.9, where Canton 3.6 disables that endpoint, by its
// replacement update-by-offset with the same format spelled out (verbose, the party's wildcard).
Example offset_request(bool replacement, store::Offset offset, const Party& party) {
    if (!replacement) {
        return {.op = 1,
                .method = "POST",
                .path = "/v2/updates/transaction-by-offset",
                .body = ordered_json{{"offset", offset}, {"requestingParties", {party}}}};
    }
    const ordered_json event_format{{"filtersByParty", {{party, ordered_json::object()}}},
                                    {"verbose", true}};
    const ordered_json transactions{{"eventFormat", event_format},
                                    {"transactionShape", "TRANSACTION_SHAPE_ACS_DELTA"}};
    return {.op = 1,
            .method = "POST",
            .path = "/v2/updates/update-by-offset",
            .body = ordered_json{{"offset", offset},
                                 {"updateFormat", {{"includeTransactions", transactions}}}}};
}

const std::string op1_replacement_note =
    "splice-0.9's replacement of POST /v2/updates/transaction-by-offset (disabled since Canton "
    "3.6): ";

void op1_transaction_by_offset(const Facts& f, Examples& out, const areas::ApiProfile& profile) {
    const bool replacement = profile.canton_3_6();
    const auto request = [&](store::Offset offset, const Party& party, const model::User* user,
                             int status, std::string note) {
        Example e = offset_request(replacement, offset, party);
        e.expect_status = status;
        e.note = replacement ? op1_replacement_note + note : std::move(note);
        return f.network().auth.ledger_auth ? with_token(std::move(e), user) : e;
    };
    const auto visible = latest_visible_transaction(f);
    if (visible) {
        out.push_back(request(visible->offset, visible->party, visible->user, 200,
                              "offset " + std::to_string(visible->offset) +
                                  " holds a transaction visible to " + visible->party));
    }
    const model::User* user = visible ? visible->user : f.any_user();
    Party party = user ? readable_party(*user).value_or(user->party) : f.network().dso_party;
    if (visible) party = visible->party;
    std::string note = "an offset beyond the ledger end: 404 UPDATE_NOT_FOUND";
    if (!visible) note += "; no user's party sees a transaction" + no_success;
    out.push_back(request(f.store().ledger_end() + 1, party, user, 404, note));
}

void op2_import_updates(const Facts& f, Examples& out) {
    const auto request = [](std::int64_t migration, int limit) {
        return Example{.op = 2,
                       .method = "POST",
                       .path = "/api/scan/v0/backfilling/import-updates",
                       .body = ordered_json{
                           {"migration_id", migration}, {"after_update_id", ""}, {"limit", limit}}};
    };
    std::optional<std::int64_t> migration;
    for (const store::Migration& m : f.migrations()) {
        if (m.imported_contracts > 0) migration = m.migration_id;
    }
    if (migration) {
        Example e = request(*migration, 10);
        e.note = "the first import updates of migration " + std::to_string(*migration);
        out.push_back(std::move(e));
    }
    Example e = request(migration.value_or(f.store().migration_id()), 1001);
    e.expect_status = 400;
    e.note = "limit above 1000: 400 " + error_body("Exceeded limit maximum (1001 > 1000).");
    if (!migration) e.note += "; no migration has import updates (no migrate step)" + no_success;
    out.push_back(std::move(e));
}

// A snapshot with holdings and an owner of some of them.
struct SnapshotChoice {
    std::int64_t migration_id = 0;
    model::Timestamp record_time;
    Party owner;
};

bool owns_a_row(const splice::HoldingsSnapshot& s, const Party& party) {
    const std::vector<std::uint32_t> rows = s.rows_of(party);
    return std::any_of(rows.begin(), rows.end(),
                       [&](std::uint32_t i) { return s.row(i).owner == party; });
}

// The latest snapshot with holdings, and the first user owning one there (else the first owner).
std::optional<SnapshotChoice> choose_snapshot(const Facts& f) {
    const auto times = f.store().snapshot_times();
    for (auto it = times.rbegin(); it != times.rend(); ++it) {
        const store::SnapshotPtr snapshot = f.store().snapshot(it->first, it->second, false);
        if (!snapshot) continue;
        const splice::HoldingsSnapshotPtr s = splice::views(f.store()).holdings(*snapshot);
        if (s->empty()) continue;
        SnapshotChoice choice{s->migration_id, s->record_time, s->row(0).owner.str()};
        for (const model::User& u : f.network().users) {
            if (owns_a_row(*s, u.party)) {
                choice.owner = u.party;
                break;
            }
        }
        return choice;
    }
    return std::nullopt;
}

// Under splice-0.9, op 3 asks /v2/holdings/state, which replaces the removed v0 and v1 (the same
// body; a string page token).
const std::string op3_replacement_note =
    "splice-0.9's replacement of POST /api/scan/v0/holdings/state (removed with v1 in Splice "
    "0.9): ";

// Ops 3 (scan: no token, paged) and 6 (scan proxy: any token) ask for the same holdings.
Example holdings_request(const Facts& f, int op, const SnapshotChoice& s, int status,
                         std::string note, bool replacement) {
    const bool scan = op == 3;
    replacement = replacement && scan;
    ordered_json body{{"migration_id", s.migration_id},
                      {"record_time", time_text(s.record_time)},
                      {"record_time_match", "exact"}};
    if (scan) body["page_size"] = 10;
    body["owner_party_ids"] = {s.owner};
    Example e{.op = op,
              .method = "POST",
              .path = !scan         ? "/api/validator/v1/scan-proxy/holdings/summary"
                      : replacement ? "/api/scan/v2/holdings/state"
                                    : "/api/scan/v0/holdings/state",
              .body = std::move(body),
              .expect_status = status,
              .note = replacement ? op3_replacement_note + note : std::move(note)};
    return scan ? e : with_token(std::move(e), f.any_user());
}

// The expected 404 of a holdings request at `t`, where no snapshot is.
std::string no_snapshot_error(int op, std::int64_t migration, model::Timestamp t) {
    if (op != 3) return error_body("Summary not found for given parameters");
    return error_body("Failed to find ACS snapshot for migration id " + std::to_string(migration) +
                      " at " + model::format_instant(t));
}

// A snapshot with holdings, and a record time after the ledger clock, where no snapshot can be.
// `replacement`: op 3 as splice-0.9 serves it.
void holdings_examples(const Facts& f, Examples& out, int op, bool replacement) {
    const auto chosen = choose_snapshot(f);
    if (chosen) {
        out.push_back(holdings_request(
            f, op, *chosen, 200,
            "the holdings of " + chosen->owner + " in the snapshot of migration " +
                std::to_string(chosen->migration_id) + " at " + time_text(chosen->record_time),
            replacement));
    }
    const model::User* user = f.any_user();
    const SnapshotChoice missing{
        .migration_id = f.store().migration_id(),
        .record_time = model::Timestamp{f.store().now().micros + micros_per_second},
        .owner = chosen ? chosen->owner
                 : user ? user->party
                        : f.network().dso_party};
    std::string note = "no ACS snapshot at that record time: 404 " +
                       no_snapshot_error(op, missing.migration_id, missing.record_time);
    if (!chosen) note += "; the network has no snapshot with holdings" + no_success;
    out.push_back(holdings_request(f, op, missing, 404, std::move(note), replacement));
}

void op3_holdings_state(const Facts& f, Examples& out, const areas::ApiProfile& profile) {
    holdings_examples(f, out, 3, profile.canton_3_6());
}

void op6_holdings_summary(const Facts& f, Examples& out) {
    holdings_examples(f, out, 6, false);
}

Example vote_request(const std::string& cid, int status, std::string note) {
    return {.op = 8,
            .method = "GET",
            .path = "/api/scan/v0/voterequests/" + encode_path_segment(cid),
            .expect_status = status,
            .note = std::move(note)};
}

void op8_vote_request(const Facts& f, Examples& out) {
    const auto requests = splice::views(f.store()).active_vote_requests();
    // The id the next update's first node would get: no contract has it yet.
    std::string missing =
        model::make_contract_id(f.store().update_id_for(f.store().ledger_end() + 1), 0);
    std::string why = "an unknown contract id";
    if (!requests.empty()) {
        const model::Contract& c = *requests.front();
        const ordered_json tracking = payload_field(c, "trackingCid");
        const std::string tracking_cid =
            tracking.is_string() ? tracking.get<std::string>() : c.contract_id.str();
        out.push_back(
            vote_request(tracking_cid, 200, "the vote request tracked by " + tracking_cid));
        if (tracking_cid != c.contract_id) {
            missing = c.contract_id;
            why = "the re-created request's own contract id (lookups go by the tracking id)";
        }
    }
    std::string note = why + ": 404 " + error_body("No VoteRequest found contract: " + missing);
    if (requests.empty()) note += "; no vote request is active" + no_success;
    out.push_back(vote_request(missing, 404, std::move(note)));
}

Example get(int op, std::string path, std::string note) {
    return {.op = op, .method = "GET", .path = std::move(path), .note = std::move(note)};
}

void ops10_to_13(const Facts& f, Examples& out) {
    const std::size_t votes = splice::views(f.store()).active_vote_requests().size();
    const auto& lsu = f.network().lsu;
    out.push_back(get(10, "/api/scan/v0/admin/sv/voterequests",
                      "the active vote requests: " + std::to_string(votes)));
    out.push_back(get(11, "/api/scan/v0/lsu",
                      lsu ? "an upgrade announced for " + time_text(lsu->upgrade_time)
                          : "no upgrade announced: {\"lsu\":null}"));
    out.push_back(get(12, "/api/scan/v0/dso-party-id", "the DSO party " + f.network().dso_party));
    out.push_back(get(13, "/api/scan/livez", "always 200, empty body"));
}

}  // namespace
}  // namespace examples

std::string encode_path_segment(std::string_view text) {
    static constexpr std::string_view hex = "0123456789ABCDEF";
    std::string out;
    for (const char c : text) {
        const auto u = static_cast<unsigned char>(c);
        const bool alnum =
            (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
        if (alnum || c == '-' || c == '.' || c == '_' || c == '~') {
            out += c;
        } else {
            out += '%';
            out += hex[u >> 4];
            out += hex[u & 0xF];
        }
    }
    return out;
}

std::vector<Example> make_examples(const store::LedgerStore& store,
                                   const areas::ApiProfile& profile) {
    using namespace examples;
    const Facts facts(store);
    Examples out;
    op1_transaction_by_offset(facts, out, profile);
    op2_import_updates(facts, out);
    op3_holdings_state(facts, out, profile);
    op4_transfer_offers(facts, out);
    op5_buy_traffic_status(facts, out);
    op6_holdings_summary(facts, out);
    op7_transfer_command_counter(facts, out);
    op8_vote_request(facts, out);
    op9_ans_entry(facts, out);
    ops10_to_13(facts, out);
    return out;
}

}  // namespace cantonlite::app
