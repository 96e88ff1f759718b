// libFuzzer target: interactive submission's executeAndWait with arbitrary prepared transactions
// and signatures, against the live default network with one external party. The party's key
// signs one hash only: the one prepare answered for a tap. Whatever the fuzzer sends, no answer
// is a 5xx, and nothing commits but that transaction: a commit whose externalTransactionHash is
// not the signed hash aborts.
//
// The input's first byte picks how the request is made from the rest:
//   0  the rest is the prepared transaction, sent with the party's signature of the signed hash;
//   1  the rest patches the prepared bytes (pairs of position and byte), same signature;
//   2  the same patches, signed by another key over the patched transaction's own hash;
//   3  the rest is the whole JSON body.
// Bit 2 of the first byte executes with V3 instead of V2 (the signature is over V2's hash).
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <string>
#include <variant>

#include <spdlog/spdlog.h>
#include <nlohmann/json.hpp>

#include "cantonlite/app/application.hpp"
#include "cantonlite/app/token.hpp"
#include "cantonlite/interactive/external_party.hpp"
#include "cantonlite/interactive/prepared_transaction.hpp"
#include "cantonlite/interactive/transaction_hash.hpp"
#include "cantonlite/model/ids.hpp"
#include "cantonlite/seed/live_network.hpp"
#include "cantonlite/splice/splice_views.hpp"
#include "cantonlite/store/update.hpp"
#include "fuzz_input.hpp"
#include "fuzz_targets.hpp"

namespace cantonlite::fuzz::fuzz_execute {

namespace {

using namespace cantonlite;
using nlohmann::json;

const std::string party_key(32, '\x51');
const std::string other_key(32, '\x52');
const std::string participant =
    "participant1::122056e00d8eef432e448963fb33d31cbc989835384ec290868e0a0f7573b254b1af";

struct Daemon {
    Daemon()
        : network(
              seed::LiveNetwork::load_file(CANTONLITE_SOURCE_DIR "/config/default-network.json")),
          router(app::make_router(*network, areas::admin::AdminOptions{.open = true})) {
        const std::string key = interactive::ed25519_public_key(party_key);
        party = interactive::generate_onboarding("exchange", key, participant).party_id;
        network->apply_steps(json::array(
            {{{"step", "add_party"}, {"party", party}, {"external_key", model::base64_encode(key)}},
             {{"step", "grant_rights"},
              {"user", "alice"},
              {"rights", {{"can_act_as", json::array({party})}}}}}));
        const auto now = std::chrono::duration_cast<std::chrono::seconds>(
                             std::chrono::system_clock::now().time_since_epoch())
                             .count();
        bearer = "Bearer " + app::make_token(network->store().network(), "alice", now, 24 * 3600);
        // The one transaction the party signs: a tap to itself.
        const splice::SpliceViews& views = splice::views(network->store());
        const std::string rules = views.amulet_rules()->contract->contract_id.str();
        const json prepare{
            {"commands",
             json::array({{{"ExerciseCommand",
                            {{"templateId", "#splice-amulet:Splice.AmuletRules:AmuletRules"},
                             {"contractId", rules},
                             {"choice", "AmuletRules_DevNet_Tap"},
                             {"choiceArgument",
                              {{"receiver", party},
                               {"amount", "10"},
                               {"openRound", views.latest_usable_open_round(network->store().now())
                                                 ->contract->contract_id.str()}}}}}}})},
            {"commandId", "fuzz"},
            {"actAs", {party}},
            {"disclosedContracts",
             json::array({{{"contractId", rules}, {"createdEventBlob", ""}}})},
            {"synchronizerId", network->store().network().synchronizer_id},
            {"packageIdSelectionPreference", json::array()}};
        const http::Response r = post("/v2/interactive-submission/prepare", prepare.dump());
        const json answer = json::parse(r.body);
        prepared =
            model::base64_decode(answer.at("preparedTransaction").get<std::string>()).value();
        const std::string hash =
            model::base64_decode(answer.at("preparedTransactionHash").get<std::string>()).value();
        signed_hash = model::hex(hash);
        signature = model::base64_encode(interactive::ed25519_sign(party_key, hash));
    }

    http::Response post(const std::string& target, const std::string& body) const {
        return fuzz::answered(
            router->handle(http::Request{.method = "POST",
                                         .target = target,
                                         .headers = {{"Host", "localhost:7575"},
                                                     {"Content-Type", "application/json"},
                                                     {"Authorization", bearer}},
                                         .body = body}));
    }

    std::unique_ptr<seed::LiveNetwork> network;
    std::unique_ptr<http::Router> router;
    std::string party;
    std::string bearer;
    std::string prepared;     // the prepared transaction's bytes
    std::string signed_hash;  // hex, as a committed transaction keeps it: the only hash signed
    std::string signature;
};

[[noreturn]] void fail(const std::string& body, const http::Response& a, const std::string& why) {
    std::cerr << why << ": " << body.substr(0, 2000) << "\n -> " << a.status << " "
              << a.body.substr(0, 2000) << "\n";
    std::abort();
}

}  // namespace

int initialize() {
    spdlog::set_level(spdlog::level::off);
    interactive::silence_protobuf_logs();
    return 0;
}

int test_one_input(const std::uint8_t* data, std::size_t size) {
    static std::unique_ptr<Daemon> daemon = std::make_unique<Daemon>();
    if (size == 0) return 0;
    const int mode = data[0] & 3;
    const bool v3 = (data[0] & 4) != 0;
    const std::string rest(reinterpret_cast<const char*>(data) + 1, size - 1);
    std::string prepared = mode == 0 ? rest : daemon->prepared;
    if (mode == 1 || mode == 2) {
        for (std::size_t i = 0; i + 1 < rest.size(); i += 2) {
            if (prepared.empty()) break;
            prepared[static_cast<unsigned char>(rest[i]) * 7 % prepared.size()] = rest[i + 1];
        }
    }
    std::string signature = daemon->signature;
    if (mode == 2) {
        wire::PreparedTransaction p;
        std::string hash = "any";
        if (p.ParseFromString(prepared)) {
            try {
                const interactive::Hash h =
                    interactive::prepared_transaction_hash(p, interactive::HashingScheme::v2);
                hash.assign(reinterpret_cast<const char*>(h.data()), h.size());
            } catch (const interactive::HashError&) {
            }
        }
        signature = model::base64_encode(interactive::ed25519_sign(other_key, hash));
    }
    const std::string fingerprint = daemon->party.substr(daemon->party.find("::") + 2);
    const std::string body =
        mode == 3
            ? rest
            : json{{"userId", "alice"},
                   {"preparedTransaction", model::base64_encode(prepared)},
                   {"hashingSchemeVersion",
                    v3 ? "HASHING_SCHEME_VERSION_V3" : "HASHING_SCHEME_VERSION_V2"},
                   {"submissionId", ""},
                   {"deduplicationPeriod", {{"Empty", json::object()}}},
                   {"partySignatures",
                    {{"signatures",
                      json::array({{{"party", daemon->party},
                                    {"signatures",
                                     json::array({{{"signature", signature},
                                                   {"signedBy", fingerprint},
                                                   {"format", "SIGNATURE_FORMAT_CONCAT"},
                                                   {"signingAlgorithmSpec",
                                                    "SIGNING_ALGORITHM_SPEC_ED25519"}}})}}})}}}}
                  .dump();
    const std::int64_t before = daemon->network->store().ledger_end();
    const http::Response r = daemon->post("/v2/interactive-submission/executeAndWait", body);
    if (r.status >= 500) fail(body, r, "a 5xx for an execute");
    const std::int64_t after = daemon->network->store().ledger_end();
    if (after == before) return 0;
    // Something committed: it must be the transaction the party signed, and nothing else.
    for (std::int64_t offset = before + 1; offset <= after; ++offset) {
        const store::UpdatePtr u = daemon->network->store().update_at(offset);
        const auto* tx = u ? std::get_if<store::Transaction>(&*u) : nullptr;
        if (tx == nullptr || tx->external_transaction_hash.view() != daemon->signed_hash)
            fail(body, r, "a commit the party did not sign");
    }
    // It ran: start again, so that it may run again.
    daemon = std::make_unique<Daemon>();
    return 0;
}

}  // namespace cantonlite::fuzz::fuzz_execute
