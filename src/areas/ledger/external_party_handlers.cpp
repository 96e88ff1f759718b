// External party onboarding through the JSON Ledger API: POST /v2/parties/external/
// generate-topology and POST /v2/parties/external/allocate, as Canton release-line-3.5's
// ApiPartyManagementService (generateExternalPartyTopology, allocateExternalParty) and
// ExternalPartyOnboardingDetails answer them for a party hosted by this one participant with
// confirmation, whose Ed25519 key signs its onboarding (docs/interactive.md).
#include <algorithm>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <string>
#include <vector>

#include <spdlog/spdlog.h>
#include <nlohmann/json.hpp>

#include "cantonlite/areas/ledger/event_filter.hpp"
#include "cantonlite/areas/ledger/ledger_handlers.hpp"
#include "cantonlite/areas/ledger/relaxed_json.hpp"
#include "cantonlite/areas/ledger/user_json.hpp"
#include "cantonlite/http/api_error.hpp"
#include "cantonlite/interactive/external_party.hpp"
#include "cantonlite/model/ids.hpp"

namespace cantonlite::areas::ledger {
namespace {

using http::ApiError;
using http::ErrorKind;
using nlohmann::json;
using nlohmann::ordered_json;

// `show` of a party or fingerprint in Canton's messages: the fingerprint cut to 12 characters.
std::string shown_id(const std::string& party) {
    const std::size_t colons = party.find("::");
    if (colons == std::string::npos || party.size() - colons - 2 <= 12) return party;
    return party.substr(0, colons + 2 + 12) + "...";
}

// A request's Ed25519 key (SigningPublicKey {format, keyData, keySpec}), raw.
std::string decode_public_key(const json* key) {
    if (key == nullptr || key->is_null()) throw_invalid_argument("Field `public_key` is not set");
    relaxed::require_object(*key, "format");
    const std::string format = relaxed::decode_string(relaxed::member(*key, "format"), "format");
    const std::string data = relaxed::decode_string(relaxed::member(*key, "keyData"), "keyData");
    const std::string spec = relaxed::decode_string(relaxed::member(*key, "keySpec"), "keySpec");
    if (spec != "SIGNING_KEY_SPEC_EC_CURVE25519") {
        throw_invalid_argument(
            "cantonlite verifies Ed25519 keys (SIGNING_KEY_SPEC_EC_CURVE25519) "
            "only, not " +
            (spec.empty() ? std::string("SIGNING_KEY_SPEC_UNSPECIFIED") : spec));
    }
    std::optional<interactive::KeyFormat> kind;
    if (format == "CRYPTO_KEY_FORMAT_RAW") kind = interactive::KeyFormat::raw;
    if (format == "CRYPTO_KEY_FORMAT_DER_X509_SUBJECT_PUBLIC_KEY_INFO")
        kind = interactive::KeyFormat::der_x509_spki;
    if (!kind) {
        throw_invalid_argument(
            "Unsupported key format " +
            (format.empty() ? std::string("CRYPTO_KEY_FORMAT_UNSPECIFIED") : format) +
            " for an Ed25519 key");
    }
    const auto bytes = model::base64_decode(data);
    const auto raw = bytes ? interactive::ed25519_raw_key(*kind, *bytes) : std::nullopt;
    if (!raw) throw_invalid_argument("Invalid public key: not an Ed25519 key in " + format);
    return *raw;
}

// One Signature {format, signature, signedBy, signingAlgorithmSpec} (CryptoValidator).
struct GivenSignature {
    std::string bytes;
    std::string signed_by;
    std::string format;
};

std::vector<GivenSignature> decode_signatures(const json* list, const std::string& field) {
    std::vector<GivenSignature> out;
    if (list == nullptr || list->is_null()) return out;
    if (!list->is_array()) relaxed::wrong_type(*list, "array", field);
    for (const json& s : *list) {
        relaxed::require_object(s, "format");
        GivenSignature g;
        g.format = relaxed::decode_string(relaxed::member(s, "format"), "format");
        g.signed_by = relaxed::decode_string(relaxed::member(s, "signedBy"), "signedBy");
        const std::string algorithm = relaxed::decode_string(
            relaxed::member(s, "signingAlgorithmSpec"), "signingAlgorithmSpec");
        const auto bytes = model::base64_decode(
            relaxed::decode_string(relaxed::member(s, "signature"), "signature"));
        if (g.format.empty() || g.format == "SIGNATURE_FORMAT_UNSPECIFIED")
            throw_invalid_field(field + ".format", "Signature format must be specified");
        if (algorithm != "SIGNING_ALGORITHM_SPEC_ED25519") {
            throw_invalid_field(
                field + ".signing_algorithm_spec",
                "Signing algorithm spec " + algorithm +
                    " not supported (cantonlite verifies SIGNING_ALGORITHM_SPEC_ED25519)");
        }
        if (!bytes) throw_invalid_field(field + ".signature", "not base64");
        g.bytes = *bytes;
        out.push_back(std::move(g));
    }
    return out;
}

// The topology's authorization failures reach the client as a plain status.
[[noreturn]] void signature_verification_failed() {
    throw ApiError(ErrorKind::invalid_argument, "", "Transaction signature verification failed")
        .as_plain_status();
}

}  // namespace

http::Response post_generate_external_topology(const store::LedgerStore& store,
                                               const RouteAuth& auth,
                                               const http::RequestContext& ctx,
                                               const ApiProfile& /*release*/) {
    auth.authorize(ctx.request);  // RequiredClaim.Public: any authenticated user
    const json body = relaxed::parse_body(ctx.request.body);
    relaxed::require_object(body, "synchronizer");
    const std::string synchronizer =
        relaxed::decode_string(relaxed::member(body, "synchronizer"), "synchronizer");
    const std::string hint =
        relaxed::decode_string(relaxed::member(body, "partyHint"), "partyHint");
    const bool observation_only =
        relaxed::decode_bool(relaxed::member(body, "localParticipantObservationOnly"),
                             "localParticipantObservationOnly");
    const std::vector<std::string> confirming = relaxed::decode_strings(
        relaxed::member(body, "otherConfirmingParticipantUids"), "otherConfirmingParticipantUids");
    const std::vector<std::string> observing = relaxed::decode_strings(
        relaxed::member(body, "observingParticipantUids"), "observingParticipantUids");
    const std::int64_t threshold =
        relaxed::decode_optional_long(relaxed::member(body, "confirmationThreshold"),
                                      "confirmationThreshold")
            .value_or(0);
    const model::Network& n = store.network();
    const std::string uid = participant_uid(n);
    if (synchronizer != n.synchronizer_id)
        throw_invalid_argument("Unknown or not connected synchronizer " + synchronizer);
    if (hint.empty()) throw_invalid_argument("Party hint is empty");
    if (hint.find("::") != std::string::npos)
        throw_invalid_argument("party_hint: String contains reserved delimiter `::`.");
    if (const auto e = lf_party_error(hint)) throw_invalid_argument("party_hint: " + *e);
    const std::string key = decode_public_key(relaxed::member(body, "publicKey"));
    for (const auto& [list, name] : {std::pair{&confirming, "otherConfirmingParticipantUids"},
                                     std::pair{&observing, "observingParticipantUids"}}) {
        if (std::find(list->begin(), list->end(), uid) != list->end()) {
            throw_invalid_argument(
                "This participant node (" + uid + ") is also listed in '" + name +
                "'. By sending the request to this node, it is de facto a hosting node and must "
                "not be listed in '" +
                name + "'.");
        }
    }
    if (!confirming.empty() || !observing.empty() || observation_only) {
        throw_invalid_argument("cantonlite runs one participant (" + uid +
                               "): an external party is hosted by it alone, with confirmation");
    }
    if (threshold < 0 || threshold > 1)
        throw_invalid_argument("Confirmation threshold exceeds number of confirming participants");
    const interactive::OnboardingTopology t = interactive::generate_onboarding(hint, key, uid);
    ordered_json answer;
    answer["partyId"] = t.party_id;
    answer["publicKeyFingerprint"] = t.fingerprint;
    answer["topologyTransactions"] = ordered_json::array();
    for (const std::string& tx : t.transactions)
        answer["topologyTransactions"].push_back(model::base64_encode(tx));
    answer["multiHash"] = model::base64_encode(t.multi_hash);
    return http::Response::json(200, answer.dump());
}

http::Response post_allocate_external_party(seed::LiveNetwork& network, const RouteAuth& auth,
                                            const http::RequestContext& ctx) {
    std::shared_lock lock(network.gate());
    const Caller caller = auth.identify(ctx.request);
    const json body = relaxed::parse_body(ctx.request.body);
    relaxed::require_object(body, "synchronizer");
    const std::string synchronizer =
        relaxed::decode_string(relaxed::member(body, "synchronizer"), "synchronizer");
    const std::string idp =
        relaxed::decode_string(relaxed::member(body, "identityProviderId"), "identityProviderId");
    const std::string user_id = relaxed::decode_string(relaxed::member(body, "userId"), "userId");
    const json* given = relaxed::member(body, "onboardingTransactions");
    if (given != nullptr && !given->is_null() && !given->is_array())
        relaxed::wrong_type(*given, "array", "onboardingTransactions");
    struct Given {
        std::string bytes;
        std::vector<GivenSignature> signatures;
    };
    std::vector<Given> transactions;
    if (given != nullptr && given->is_array()) {
        for (const json& t : *given) {
            relaxed::require_object(t, "transaction");
            const auto bytes = model::base64_decode(
                relaxed::decode_string(relaxed::member(t, "transaction"), "transaction"));
            if (!bytes) relaxed::fail_at("The string is not a valid Base64", "transaction");
            transactions.push_back(
                {*bytes, decode_signatures(relaxed::member(t, "signatures"),
                                           "onboarding_transactions.signatures")});
        }
    }
    const std::vector<GivenSignature> multi =
        decode_signatures(relaxed::member(body, "multiHashSignatures"), "multi_hash_signatures");
    auth.authorize_admin_or_self(caller, user_id);
    const model::Network& n = network.store().network();
    const std::string uid = participant_uid(n);
    if (synchronizer.empty()) throw_missing_field("synchronizer");
    if (synchronizer != n.synchronizer_id && !synchronizer.starts_with(n.synchronizer_id + "::")) {
        throw_invalid_argument("This node is not connected to the requested synchronizer " +
                               synchronizer + ".");
    }
    if (!idp.empty())
        throw_invalid_argument("Provided identity_provider_id " + idp + " has not been found.");
    if (transactions.empty())
        throw_invalid_field("onboarding_transactions.transactions", "Transactions field is empty");
    std::vector<interactive::PartyToParticipantTransaction> read;
    std::vector<std::string> hashes;
    for (const Given& t : transactions) {
        try {
            read.push_back(interactive::read_onboarding(t.bytes));
        } catch (const interactive::TopologyError& e) {
            const std::string what = e.what();
            throw_invalid_field(what.find("serial") != std::string::npos
                                    ? "onboarding_transactions.transaction.serial"
                                    : "onboarding_transactions.transaction",
                                what);
        }
        hashes.push_back(interactive::topology_transaction_hash(t.bytes));
    }
    if (read.size() != 1) {
        throw_invalid_argument(
            "Only one transaction of type PartyToParticipant can be provided, "
            "got " +
            std::to_string(read.size()));
    }
    const interactive::PartyToParticipantTransaction& p2p = read.front();
    for (const auto& h : p2p.hosts) {
        if (h.permission == 1) {
            throw_invalid_argument(
                "The PartyToParticipant transaction must not contain any node with Submission "
                "permission. Nodes with submission permission: " +
                h.participant_uid);
        }
    }
    if (p2p.hosts.size() != 1 || p2p.hosts.front().participant_uid != uid ||
        p2p.hosts.front().permission != 2) {
        const std::string host = p2p.hosts.empty() ? "" : p2p.hosts.front().participant_uid;
        if (p2p.hosts.size() == 1) {
            throw_invalid_argument("The party is to be hosted on a single participant (" +
                                   shown_id(host) + ") that is not this participant (" +
                                   shown_id(uid) + "). Submit the allocation request on " +
                                   shown_id(host) + " instead.");
        }
        throw_invalid_argument("cantonlite runs one participant (" + uid +
                               "): an external party is hosted by it alone, with confirmation");
    }
    const std::size_t colons = p2p.party.find("::");
    const std::string namespace_ = colons == std::string::npos ? "" : p2p.party.substr(colons + 2);
    if (const auto e = lf_party_error(p2p.party); e || colons == std::string::npos)
        throw_invalid_field("onboarding_transactions.transaction", "Invalid transaction: party");
    const auto namespace_key = std::find_if(
        p2p.signing_keys.begin(), p2p.signing_keys.end(),
        [&](const std::string& k) { return interactive::key_fingerprint(k) == namespace_; });
    if (namespace_key == p2p.signing_keys.end())
        throw_invalid_argument("Missing Namespace and Protocol usage on the party namespace key");
    const std::vector<std::string> parties = known_parties(n);
    if (std::binary_search(parties.begin(), parties.end(), p2p.party)) {
        throw_invalid_argument("Party " + shown_id(p2p.party) + " already exists on synchronizer " +
                               shown_id(n.synchronizer_id));
    }
    // The signatures: over the multi-hash of all the transactions, or over the transaction's own
    // hash; each by a key of the party (signedBy its fingerprint), each verified.
    const std::string multi_hash = interactive::multi_transaction_hash(hashes);
    std::vector<std::string> signers;
    const auto verify = [&](const GivenSignature& s, const std::string& hash) {
        const auto key = std::find_if(
            p2p.signing_keys.begin(), p2p.signing_keys.end(),
            [&](const std::string& k) { return interactive::key_fingerprint(k) == s.signed_by; });
        const bool concat = s.format == "SIGNATURE_FORMAT_CONCAT" ||
                            s.format == "SIGNATURE_FORMAT_RAW";  // RAW: Ed25519's legacy name
        if (key == p2p.signing_keys.end() || !concat ||
            !interactive::ed25519_verify(*key, hash, s.bytes))
            signature_verification_failed();
        signers.push_back(s.signed_by);
    };
    for (const GivenSignature& s : multi) verify(s, multi_hash);
    for (std::size_t i = 0; i < transactions.size(); ++i)
        for (const GivenSignature& s : transactions[i].signatures) verify(s, hashes[i]);
    std::sort(signers.begin(), signers.end());
    signers.erase(std::unique(signers.begin(), signers.end()), signers.end());
    if (!std::binary_search(signers.begin(), signers.end(), namespace_) ||
        signers.size() < std::max<std::size_t>(1, p2p.signing_threshold)) {
        // Canton would leave an unauthorized proposal and answer 200; cantonlite says why.
        throw ApiError(ErrorKind::invalid_argument, "",
                       "Topology transaction is not properly authorized by any namespace key")
            .as_plain_status();
    }
    if (!user_id.empty() && n.find_user(user_id) == nullptr)
        throw_user_not_found("grant user rights", user_id);
    lock.unlock();
    json steps = json::array({{{"step", "add_party"},
                               {"party", p2p.party},
                               {"external_key", model::base64_encode(*namespace_key)}}});
    if (!user_id.empty()) {
        steps.push_back({{"step", "grant_rights"},
                         {"user", user_id},
                         {"rights", {{"can_act_as", json::array({p2p.party})}}}});
    }
    seed::Written written;
    try {
        written = network.apply_steps(std::move(steps));
    } catch (const seed::WriteError& e) {
        {
            const std::shared_lock relock(network.gate());
            const std::vector<std::string> now = known_parties(network.store().network());
            if (std::binary_search(now.begin(), now.end(), p2p.party)) {
                throw_invalid_argument("Party " + shown_id(p2p.party) +
                                       " already exists on synchronizer " +
                                       shown_id(network.store().network().synchronizer_id));
            }
        }
        spdlog::error("POST /v2/parties/external/allocate: {}", e.what());
        throw write_failed(e);
    }
    return answer_once_durable(network, std::move(written),
                               ordered_json{{"partyId", p2p.party}}.dump());
}

}  // namespace cantonlite::areas::ledger
