#pragma once
// Test helper for the scan operations: a small network, seed steps, the router driven in-process,
// and readers that compute the expected JSON of an answer from what the store holds.

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cantonlite/app/application.hpp"
#include "cantonlite/http/router.hpp"
#include "cantonlite/model/contract.hpp"
#include "cantonlite/model/timestamp.hpp"
#include "cantonlite/model/value_json.hpp"
#include "cantonlite/seed/seed_loader.hpp"
#include "cantonlite/splice/splice_views.hpp"
#include "cantonlite/store/ledger_store.hpp"

namespace cantonlite::areas::scan::scantest {

using http::Header;
using http::Request;
using http::Response;
using nlohmann::json;

// ---- the test network ---------------------------------------------------------------------

// Party ids (valid unique identifiers: `<identifier>::<fingerprint>`).
inline const std::string dso = "DSO::1220aa";
inline const std::string alice = "alice::1220a1";
inline const std::string bob = "bob::1220b0";
inline const std::string carol = "carol::1220c0";
inline const std::string provider = "provider::1220d0";
inline const std::string da2 = "digital-asset-2::1220e1";
inline const std::string sv2 = "sv-2::1220e2";
inline const std::string sv3 = "sv-3::1220e3";
inline const std::string validator = "validator::1220bb";

inline const std::string global_synchronizer = "global-domain::1220f0";
inline const std::string private_synchronizer = "private-synchronizer::1220f1";

inline const std::string scan = "/api/scan";

inline json network_json() {
    return {{"dso_party", dso},
            {"svs",
             {{{"name", "Digital-Asset-2"}, {"party", da2}},
              {{"name", "Sv-2"}, {"party", sv2}},
              {{"name", "Sv-3"}, {"party", sv3}}}},
            {"synchronizer_id", global_synchronizer},
            {"other_synchronizers", {private_synchronizer}},
            {"validator_party", validator},
            {"parties", {{"provider", provider}}},
            {"start_time", "2025-01-01T00:00:00Z"}};
}

inline json users_json() {
    return {{{"id", "alice"}, {"party", alice}, {"wallet", true}},
            {{"id", "bob"}, {"party", bob}, {"wallet", true}},
            {{"id", "carol"}, {"party", carol}}};
}

// A seed of the test network with `steps`.
inline json seed_with(json steps, json network = network_json()) {
    return {{"network", std::move(network)}, {"users", users_json()}, {"steps", std::move(steps)}};
}

// A braced list of steps is an array: as a json, a one-step list would be that step under clang,
// which takes {x} for a copy of x.
inline json seed_with(std::initializer_list<json> steps, json network = network_json()) {
    return seed_with(json(std::vector<json>(steps)), std::move(network));
}

// ---- steps (docs/seed-format.md) ----------------------------------------------------------

// `step` committed at `time`.
inline json at(json step, const std::string& time) {
    step["at"] = time;
    return step;
}

inline json mint(const std::string& owner, const std::string& amount, const std::string& label) {
    return {{"step", "mint"}, {"owner", owner}, {"amount", amount}, {"as", label}};
}

// Locks `amount` of the amulet `amulet` for `provider` until 2030-03-31, context "order 17".
inline json lock(const std::string& amulet, const std::string& amount, const std::string& label,
                 const std::string& change_label) {
    return {{"step", "lock"},
            {"amulet", amulet},
            {"amount", amount},
            {"holders", {"provider"}},
            {"expires_at", "2030-03-31T00:00:00Z"},
            {"context", "order 17"},
            {"as", label},
            {"change_as", change_label}};
}

inline json snapshot_at(const std::string& time) {
    return {{"step", "snapshot"}, {"at", time}};
}

inline json migrate() {
    return {{"step", "migrate"}};
}

inline json advance_time_to(const std::string& time) {
    return {{"step", "advance_time"}, {"to", time}};
}

inline json reassign(const std::string& contract, const std::string& to) {
    return {{"step", "reassign"}, {"contract", contract}, {"to", to}};
}

inline json unassign(const std::string& contract, const std::string& to) {
    return {{"step", "unassign"}, {"contract", contract}, {"to", to}};
}

inline json request_vote(const std::string& requester, const std::string& offboard,
                         const std::string& label) {
    return {{"step", "request_vote"},
            {"requester", requester},
            {"action", {{"offboard_sv", offboard}}},
            {"reason", {{"url", "https://forum.example/" + label}, {"body", "vote " + label}}},
            {"vote_before", "2025-03-01T00:00:00Z"},
            {"as", label}};
}

inline json cast_vote(const std::string& request, const std::string& voter) {
    return {{"step", "cast_vote"},
            {"vote_request", request},
            {"voter", voter},
            {"accept", true},
            {"reason", {{"url", ""}, {"body", "agreed"}}}};
}

inline json close_vote(const std::string& request) {
    return {{"step", "close_vote"}, {"vote_request", request}};
}

inline json register_ans(const std::string& user, const std::string& name,
                         const std::string& expires_at, const std::string& label) {
    return {{"step", "register_ans_entry"},
            {"user", user},
            {"name", name},
            {"url", "https://" + user + ".example"},
            {"description", "entry of " + user},
            {"expires_at", expires_at},
            {"as", label}};
}

inline json renew_ans(const std::string& entry, const std::string& expires_at) {
    return {{"step", "renew_ans_entry"}, {"entry", entry}, {"expires_at", expires_at}};
}

// Labels the counter when `label` is given (a later command moves the label to its new counter).
inline json transfer_command(const std::string& sender, const std::string& label = "") {
    json step = {{"step", "transfer_command"}, {"sender", sender}};
    if (!label.empty()) step["as"] = label;
    return step;
}

// ---- the holdings network -----------------------------------------------------------------

inline const std::string first_snapshot = "2025-01-02T00:00:00Z";
inline const std::string second_snapshot = "2025-01-03T00:00:00Z";
inline const std::string migrated_snapshot = "2025-01-04T00:00:00Z";

// Migration 0: bob's 50 (offset 2); alice's 100 (offset 3) locked 30 for `provider` with 70 change
// (offset 4); snapshot 1; alice's 5 (offset 5); snapshot 2. Then migration 1 and its snapshot 3.
inline json holdings_seed() {
    return seed_with(
        {at(mint("bob", "50", "bob-coin"), "2025-01-01T01:00:00Z"),
         at(mint("alice", "100", "alice-coin"), "2025-01-01T01:10:00Z"),
         at(lock("alice-coin", "30", "alice-locked", "alice-change"), "2025-01-01T02:00:00Z"),
         snapshot_at(first_snapshot),
         at(mint("alice", "5", "alice-coin-2"), "2025-01-02T10:00:00Z"),
         snapshot_at(second_snapshot), at(migrate(), "2025-01-03T12:00:00Z"),
         snapshot_at(migrated_snapshot)});
}

// ---- requests -----------------------------------------------------------------------------

// The real router over a store loaded from an inline seed, driven with plain Requests.
class ScanClient {
  public:
    explicit ScanClient(const json& seed, const areas::ApiProfile& profile = {})
        : ScanClient(seed::load_seed(seed, "test-seed"), profile) {}
    explicit ScanClient(std::unique_ptr<store::LedgerStore> store,
                        const areas::ApiProfile& profile = {})
        : store_(std::move(store)), router_(app::make_router(*store_, profile)) {}

    [[nodiscard]] const store::LedgerStore& store() const { return *store_; }

    [[nodiscard]] Response get(std::string target, std::vector<Header> headers = {}) const {
        return send("GET", std::move(target), "", std::move(headers));
    }

    // POSTs `body` serialised with Content-Type: application/json, as real clients do (the Splice
    // apps refuse any other type). send() sends only the headers it is given.
    [[nodiscard]] Response post(std::string target, const json& body,
                                std::vector<Header> headers = {}) const {
        headers.push_back(Header{"Content-Type", "application/json"});
        return send("POST", std::move(target), body.dump(), std::move(headers));
    }

    [[nodiscard]] Response send(std::string method, std::string target, std::string body,
                                std::vector<Header> headers = {}) const {
        headers.insert(headers.begin(), Header{"Host", "localhost:7575"});
        return router_->handle(Request{.method = std::move(method),
                                       .target = std::move(target),
                                       .headers = std::move(headers),
                                       .body = std::move(body)});
    }

  private:
    std::unique_ptr<store::LedgerStore> store_;
    std::unique_ptr<http::Router> router_;
};

// '::' of a party id percent-encoded, as clients put it in a path.
inline std::string percent_encoded(const std::string& party) {
    std::string out;
    for (const char c : party) {
        if (c == ':') {
            out += "%3A";
        } else {
            out += c;
        }
    }
    return out;
}

// ---- answers ------------------------------------------------------------------------------

// The body as JSON, or a string saying why it is not JSON (so a comparison fails readably).
inline json body_of(const Response& response) {
    try {
        return json::parse(response.body);
    } catch (const json::exception&) {
        return "<not JSON: " + response.body + ">";
    }
}

// Success when the answer is `status` with the scan error body {"error": `text`}.
inline testing::AssertionResult is_error(const Response& response, int status,
                                         const std::string& text) {
    const json expected = {{"error", text}};
    if (response.status == status && response.content_type == "application/json" &&
        body_of(response) == expected) {
        return testing::AssertionSuccess();
    }
    return testing::AssertionFailure()
           << "expected " << status << " application/json " << expected.dump() << ", got "
           << response.status << " '" << response.content_type << "' " << response.body;
}

// Success when the answer is Pekko's plain-text rejection: `status`, text/plain, exactly `text`.
inline testing::AssertionResult is_rejection(const Response& response, int status,
                                             const std::string& text) {
    if (response.status == status && response.content_type == "text/plain; charset=UTF-8" &&
        response.body == text) {
        return testing::AssertionSuccess();
    }
    return testing::AssertionFailure()
           << "expected " << status << " text/plain '" << text << "', got " << response.status
           << " '" << response.content_type << "' '" << response.body << "'";
}

// The text of a body that does not decode: Pekko's MalformedRequestContentRejection around
// circe's DecodingFailure (splice-behavior.md §0.1).
inline std::string malformed(const std::string& detail) {
    return "The request content was malformed:\n" + detail;
}

// A bad request body and the rejection text it gets (sent as application/json).
struct BadBody {
    std::string name;
    std::string body;
    std::string text;
};

inline const Header json_type{"Content-Type", "application/json"};

// Success when the answer is `status` with a scan error body {"error": <any string>}.
inline testing::AssertionResult is_error(const Response& response, int status) {
    const json body = body_of(response);
    if (response.status == status && response.content_type == "application/json" &&
        body.is_object() && body.size() == 1 && body.contains("error") &&
        body.at("error").is_string()) {
        return testing::AssertionSuccess();
    }
    return testing::AssertionFailure()
           << "expected " << status << " application/json {\"error\": <string>}, got "
           << response.status << " '" << response.content_type << "' " << response.body;
}

// ---- what the store holds -----------------------------------------------------------------

inline model::Timestamp time_of(const std::string& text) {
    const auto t = model::parse_timestamp(text);
    if (!t) throw std::runtime_error("not a timestamp: " + text);
    return *t;
}

// The transaction at `offset`. REQUIRES: the update there is a transaction.
inline const store::Transaction& transaction_at(const store::LedgerStore& s, store::Offset offset) {
    return std::get<store::Transaction>(*s.update_at(offset));
}

// The contracts the transaction at `offset` creates, in node order. Empty for other updates.
inline std::vector<model::ContractPtr> created_by(const store::LedgerStore& s,
                                                  store::Offset offset) {
    std::vector<model::ContractPtr> out;
    const store::UpdatePtr update = s.update_at(offset);
    const auto* tx = update ? std::get_if<store::Transaction>(update.get()) : nullptr;
    if (tx == nullptr) return out;
    for (const store::Node& node : tx->nodes) {
        if (const auto* c = std::get_if<store::CreatedNode>(&node.event)) {
            out.push_back(c->contract);
        }
    }
    return out;
}

// The contracts the transaction at `offset` creates from the template `entity`, in node order.
inline std::vector<model::ContractPtr> created_by(const store::LedgerStore& s, store::Offset offset,
                                                  const std::string& entity) {
    std::vector<model::ContractPtr> out;
    for (const model::ContractPtr& c : created_by(s, offset)) {
        if (c->template_id().entity_name == entity) out.push_back(c);
    }
    return out;
}

// The only contract of template `entity` the transaction at `offset` creates.
inline model::ContractPtr only_created_by(const store::LedgerStore& s, store::Offset offset,
                                          const std::string& entity) {
    const std::vector<model::ContractPtr> found = created_by(s, offset, entity);
    if (found.size() != 1) {
        throw std::runtime_error("offset " + std::to_string(offset) + " creates " +
                                 std::to_string(found.size()) + " " + entity);
    }
    return found.front();
}

// Every contract of template `entity` the history created, in creation order.
inline std::vector<model::ContractPtr> all_created(const store::LedgerStore& s,
                                                   const std::string& entity) {
    std::vector<model::ContractPtr> out;
    for (store::Offset o = 1; o <= s.ledger_end(); ++o) {
        for (const model::ContractPtr& c : created_by(s, o, entity)) out.push_back(c);
    }
    return out;
}

// The contract with id `cid`. REQUIRES: it exists.
inline model::ContractPtr contract_with_id(const store::LedgerStore& s, const std::string& cid) {
    const auto state = s.contract(cid);
    if (!state) throw std::runtime_error("no contract " + cid);
    return state->contract;
}

// The offset of the first migration update.
inline store::Offset migration_offset(const store::LedgerStore& s) {
    for (store::Offset o = 1; o <= s.ledger_end(); ++o) {
        if (std::holds_alternative<store::Migration>(*s.update_at(o))) return o;
    }
    throw std::runtime_error("the seed has no migration");
}

// The update id of the transaction that created `cid`.
inline std::string creating_update_id(const store::LedgerStore& s, const std::string& cid) {
    const auto state = s.contract(cid);
    if (!state) throw std::runtime_error("no contract " + cid);
    return transaction_at(s, state->created_offset()).update_id().str();
}

// "#<update id>:<node id>": the participant's id of the event that created `cid`.
inline std::string creating_event_id(const store::LedgerStore& s, const std::string& cid) {
    const auto state = s.contract(cid);
    if (!state) throw std::runtime_error("no contract " + cid);
    const store::Transaction& tx = transaction_at(s, state->created_offset());
    for (const store::Node& node : tx.nodes) {
        const auto* c = std::get_if<store::CreatedNode>(&node.event);
        if (c != nullptr && c->contract->contract_id == cid) {
            return "#" + tx.update_id().str() + ":" + std::to_string(node.node_id);
        }
    }
    throw std::runtime_error("no node creates " + cid);
}

// The snapshot of `migration` at exactly `time`. REQUIRES: it exists.
inline store::SnapshotPtr snapshot_of(const store::LedgerStore& s, std::int64_t migration,
                                      const std::string& time) {
    store::SnapshotPtr snapshot = s.snapshot(migration, time_of(time), false);
    if (!snapshot) throw std::runtime_error("no snapshot at " + time);
    return snapshot;
}

// The holdings of that snapshot. REQUIRES: it exists.
inline splice::HoldingsSnapshotPtr holdings_of(const store::LedgerStore& s, std::int64_t migration,
                                               const std::string& time) {
    return splice::views(s).holdings(*snapshot_of(s, migration, time));
}

// ---- expected JSON ------------------------------------------------------------------------

// Scan CreatedEvent of holdings state v0 (splice-behavior.md op 3): codegen create arguments,
// created_at as OffsetDateTime, the creating event's "#<update id>:<node id>".
inline json holding_event(const store::LedgerStore& s, const model::Contract& c) {
    return {{"event_type", "created_event"},
            {"event_id", creating_event_id(s, c.contract_id.str())},
            {"contract_id", c.contract_id.str()},
            {"template_id", c.template_id().to_string()},
            {"package_name", c.template_id().package_name},
            {"create_arguments",
             json::parse(model::value_json(c.argument, model::ValueEncoding::codegen))},
            {"created_at", model::format_offset_date_time(c.created_at)},
            {"signatories", c.signatories},
            {"observers", model::NameSet(c.observers())}};
}

// Splice `Contract` (common-external.yaml): ApiCodecCompressed payload, created_at as Instant.
inline json contract_json(const model::Contract& c) {
    return {{"template_id", c.template_id().to_string()},
            {"contract_id", c.contract_id},
            {"payload",
             json::parse(model::value_json(c.argument, model::ValueEncoding::api_compressed))},
            {"created_event_blob", model::created_event_blob(c)},
            {"created_at", model::format_instant(c.created_at)}};
}

// `body` with `key` set to `value`.
inline json with(json body, const std::string& key, json value) {
    body[key] = std::move(value);
    return body;
}

// A holdings-state request body (HoldingsStateRequest).
inline json holdings_request(std::int64_t migration, const std::string& record_time,
                             const json& owners, int page_size) {
    return {{"migration_id", migration},
            {"record_time", record_time},
            {"page_size", page_size},
            {"owner_party_ids", owners}};
}

// A holdings-summary request body (HoldingsSummaryRequest(V1)).
inline json summary_request(std::int64_t migration, const std::string& record_time,
                            const json& owners) {
    return {{"migration_id", migration}, {"record_time", record_time}, {"owner_party_ids", owners}};
}

// The summaries of a holdings-summary answer, ordered by party (their order is unspecified).
inline json sorted_summaries(const json& body) {
    std::vector<json> items = body.at("summaries").get<std::vector<json>>();
    std::sort(items.begin(), items.end(), [](const json& a, const json& b) {
        return a.at("party_id").get<std::string>() < b.at("party_id").get<std::string>();
    });
    return items;
}

}  // namespace cantonlite::areas::scan::scantest
