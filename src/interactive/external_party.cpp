#include "cantonlite/interactive/external_party.hpp"

#include <algorithm>
#include <memory>

#include <openssl/evp.h>

#include "cantonlite/model/ids.hpp"
#include "topology.pb.h"

namespace cantonlite::interactive {
namespace {

// HashPurpose ids (Canton's crypto/HashPurpose.scala).
constexpr int topology_transaction_signature = 11;
constexpr int public_key_fingerprint = 12;
constexpr int multi_topology_transaction = 55;

// The DER SubjectPublicKeyInfo of an Ed25519 key, before its 32 raw bytes (RFC 8410).
constexpr std::string_view ed25519_spki_prefix{"\x30\x2a\x30\x05\x06\x03\x2b\x65\x70\x03\x21\x00",
                                               12};
constexpr std::size_t ed25519_key_bytes = 32;

// Canton's v30 enums, inside topology transactions.
constexpr int der_x509_spki_format = 4;
constexpr int usage_namespace = 1;
constexpr int usage_protocol = 4;
constexpr int usage_proof_of_ownership = 5;
constexpr int curve25519_spec = 1;
constexpr int confirmation = 2;
constexpr int add_replace = 1;
constexpr int topology_proto_version = 30;

std::string big_endian32(std::uint32_t v) {
    return {static_cast<char>(v >> 24), static_cast<char>(v >> 16), static_cast<char>(v >> 8),
            static_cast<char>(v)};
}

struct KeyFree {
    void operator()(EVP_PKEY* k) const { EVP_PKEY_free(k); }
};
struct ContextFree {
    void operator()(EVP_MD_CTX* c) const { EVP_MD_CTX_free(c); }
};
using Key = std::unique_ptr<EVP_PKEY, KeyFree>;
using Context = std::unique_ptr<EVP_MD_CTX, ContextFree>;

const unsigned char* bytes_of(std::string_view s) {
    return reinterpret_cast<const unsigned char*>(s.data());
}

Key private_key_of(std::string_view private_key) {
    if (private_key.size() != ed25519_key_bytes)
        throw std::invalid_argument("an Ed25519 private key is 32 bytes");
    Key key(EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, nullptr, bytes_of(private_key),
                                         private_key.size()));
    if (!key) throw std::runtime_error("OpenSSL refused an Ed25519 private key");
    return key;
}

}  // namespace

std::optional<std::string> ed25519_raw_key(KeyFormat format, std::string_view key) {
    if (format == KeyFormat::raw) {
        if (key.size() != ed25519_key_bytes) return std::nullopt;
        return std::string(key);
    }
    if (key.size() != ed25519_spki_prefix.size() + ed25519_key_bytes ||
        key.substr(0, ed25519_spki_prefix.size()) != ed25519_spki_prefix)
        return std::nullopt;
    return std::string(key.substr(ed25519_spki_prefix.size()));
}

std::string purpose_hash(int purpose, std::string_view bytes) {
    std::string input = big_endian32(static_cast<std::uint32_t>(purpose));
    input.append(bytes);
    const auto digest = model::sha256(input);
    std::string out = "\x12\x20";
    out.append(reinterpret_cast<const char*>(digest.data()), digest.size());
    return out;
}

std::string key_fingerprint(std::string_view raw_key) {
    return model::hex(purpose_hash(public_key_fingerprint, raw_key));
}

std::string topology_transaction_hash(std::string_view transaction) {
    return purpose_hash(topology_transaction_signature, transaction);
}

std::string multi_transaction_hash(std::vector<std::string> transaction_hashes) {
    // Canton compares hashes by their hex, which orders as the bytes do.
    std::sort(transaction_hashes.begin(), transaction_hashes.end());
    transaction_hashes.erase(std::unique(transaction_hashes.begin(), transaction_hashes.end()),
                             transaction_hashes.end());
    std::string input = big_endian32(static_cast<std::uint32_t>(transaction_hashes.size()));
    for (const std::string& h : transaction_hashes) {
        input += big_endian32(static_cast<std::uint32_t>(h.size()));
        input += h;
    }
    return purpose_hash(multi_topology_transaction, input);
}

bool ed25519_verify(std::string_view raw_key, std::string_view message,
                    std::string_view signature) {
    if (raw_key.size() != ed25519_key_bytes || signature.size() != 64) return false;
    const Key key(
        EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, nullptr, bytes_of(raw_key), raw_key.size()));
    if (!key) return false;  // not a point of the curve
    const Context ctx(EVP_MD_CTX_new());
    if (!ctx || EVP_DigestVerifyInit(ctx.get(), nullptr, nullptr, nullptr, key.get()) != 1)
        return false;
    return EVP_DigestVerify(ctx.get(), bytes_of(signature), signature.size(), bytes_of(message),
                            message.size()) == 1;
}

std::string ed25519_public_key(std::string_view private_key) {
    const Key key = private_key_of(private_key);
    std::string out(ed25519_key_bytes, '\0');
    std::size_t length = out.size();
    if (EVP_PKEY_get_raw_public_key(key.get(), reinterpret_cast<unsigned char*>(out.data()),
                                    &length) != 1)
        throw std::runtime_error("OpenSSL gave no Ed25519 public key");
    return out;
}

std::string ed25519_sign(std::string_view private_key, std::string_view message) {
    const Key key = private_key_of(private_key);
    const Context ctx(EVP_MD_CTX_new());
    std::string signature(64, '\0');
    std::size_t length = signature.size();
    if (!ctx || EVP_DigestSignInit(ctx.get(), nullptr, nullptr, nullptr, key.get()) != 1 ||
        EVP_DigestSign(ctx.get(), reinterpret_cast<unsigned char*>(signature.data()), &length,
                       bytes_of(message), message.size()) != 1)
        throw std::runtime_error("OpenSSL could not sign with Ed25519");
    return signature;
}

OnboardingTopology generate_onboarding(std::string_view party_hint, std::string_view raw_key,
                                       std::string_view participant_uid) {
    OnboardingTopology out;
    out.fingerprint = key_fingerprint(raw_key);
    out.party_id = std::string(party_hint) + "::" + out.fingerprint;

    wire::TopologyTransaction transaction;
    transaction.set_operation(add_replace);
    transaction.set_serial(1);
    auto* p2p = transaction.mutable_mapping()->mutable_party_to_participant();
    p2p->set_party(out.party_id);
    p2p->set_threshold(1);
    auto* host = p2p->add_participants();
    host->set_participant_uid(std::string(participant_uid));
    host->set_permission(confirmation);
    auto* keys = p2p->mutable_party_signing_keys();
    auto* key = keys->add_keys();
    key->set_format(der_x509_spki_format);  // a raw key is kept as its SubjectPublicKeyInfo
    key->set_public_key(std::string(ed25519_spki_prefix) + std::string(raw_key));
    for (const int usage : {usage_namespace, usage_proof_of_ownership, usage_protocol})
        key->add_usage(usage);
    key->set_key_spec(curve25519_spec);
    keys->set_threshold(1);

    wire::UntypedVersionedMessage versioned;
    versioned.set_data(transaction.SerializeAsString());
    versioned.set_version(topology_proto_version);
    out.transactions.push_back(versioned.SerializeAsString());
    out.multi_hash = multi_transaction_hash({topology_transaction_hash(out.transactions.front())});
    return out;
}

PartyToParticipantTransaction read_onboarding(std::string_view bytes) {
    wire::UntypedVersionedMessage versioned;
    wire::TopologyTransaction transaction;
    if (!versioned.ParseFromArray(bytes.data(), static_cast<int>(bytes.size())) ||
        !versioned.has_data() || versioned.version() != topology_proto_version ||
        !transaction.ParseFromString(versioned.data())) {
        throw TopologyError("Invalid transaction: not a topology transaction of version " +
                            std::to_string(topology_proto_version));
    }
    if (transaction.operation() != add_replace)
        throw TopologyError("Onboarding topology transactions must be Replace operations");
    if (transaction.serial() != 1) throw TopologyError("Onboarding transaction serial must be 1");
    if (!transaction.mapping().has_party_to_participant()) {
        throw TopologyError(
            "cantonlite reads the onboarding of Canton 3.4 and later: one PartyToParticipant "
            "transaction carrying the party's signing keys");
    }
    const wire::PartyToParticipant& p2p = transaction.mapping().party_to_participant();
    PartyToParticipantTransaction out{.party = p2p.party(), .threshold = p2p.threshold()};
    for (const auto& h : p2p.participants())
        out.hosts.push_back({.participant_uid = h.participant_uid(), .permission = h.permission()});
    out.signing_threshold = p2p.party_signing_keys().threshold();
    for (const auto& k : p2p.party_signing_keys().keys()) {
        const auto raw =
            k.key_spec() == curve25519_spec
                ? ed25519_raw_key(k.format() == der_x509_spki_format ? KeyFormat::der_x509_spki
                                                                     : KeyFormat::raw,
                                  k.public_key())
                : std::nullopt;
        if (!raw) throw TopologyError("cantonlite verifies Ed25519 party keys only");
        out.signing_keys.push_back(*raw);
    }
    return out;
}

}  // namespace cantonlite::interactive
