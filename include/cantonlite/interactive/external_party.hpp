#pragma once
// External parties: their keys, fingerprints and onboarding topology, and the signatures they
// give, as Canton 3.5 makes and checks them (docs/interactive.md, "External parties").
//
// A party's key is Ed25519 (the wallet SDK's); its fingerprint names the party's namespace
// ("hint::1220…"). Onboarding is one PartyToParticipant topology transaction (serial 1, the key
// with usages namespace, proof of ownership and protocol, hosted by this participant with
// confirmation), whose multi-hash the party signs.

#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace cantonlite::interactive {

// Ledger API key and signature enums, by name: what a request may give.
enum class KeyFormat { raw, der_x509_spki };

// The raw 32 bytes of an Ed25519 public key given as raw bytes or as its DER SubjectPublicKeyInfo;
// nullopt when the bytes are neither.
[[nodiscard]] std::optional<std::string> ed25519_raw_key(KeyFormat format, std::string_view key);

// Canton's fingerprint of an Ed25519 key: hex of 12 20 ‖ SHA-256(BE32(12) ‖ raw key).
[[nodiscard]] std::string key_fingerprint(std::string_view raw_key);

// Canton's multi-hash (the 34 bytes 12 20 ‖ SHA-256(BE32(purpose) ‖ bytes)).
[[nodiscard]] std::string purpose_hash(int purpose, std::string_view bytes);

// A topology transaction's hash (purpose 11) over the bytes as given, never re-serialized.
[[nodiscard]] std::string topology_transaction_hash(std::string_view transaction);

// The hash a party signs for several topology transactions at once (purpose 55): the count of
// distinct hashes, then each, sorted, length-prefixed.
[[nodiscard]] std::string multi_transaction_hash(std::vector<std::string> transaction_hashes);

// Ed25519 over `message`: whether `signature` (64 bytes) is `raw_key`'s.
[[nodiscard]] bool ed25519_verify(std::string_view raw_key, std::string_view message,
                                  std::string_view signature);

// For tests, benchmarks and fixtures that play the party's signer: the public key of an Ed25519
// private key (32 bytes), and its signature of `message`.
[[nodiscard]] std::string ed25519_public_key(std::string_view private_key);
[[nodiscard]] std::string ed25519_sign(std::string_view private_key, std::string_view message);

// What generate-topology answers.
struct OnboardingTopology {
    std::string party_id;                   // hint::fingerprint
    std::string fingerprint;                // the key's
    std::vector<std::string> transactions;  // serialized UntypedVersionedMessage bytes
    std::string multi_hash;                 // 34 bytes
};

// The one PartyToParticipant transaction Canton 3.5 generates for an Ed25519 key: the party
// hosted by `participant_uid` with confirmation, the key's threshold 1.
[[nodiscard]] OnboardingTopology generate_onboarding(std::string_view party_hint,
                                                     std::string_view raw_key,
                                                     std::string_view participant_uid);

class TopologyError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

// A PartyToParticipant onboarding transaction, read back for allocate.
struct PartyToParticipantTransaction {
    std::string party;
    unsigned threshold = 0;
    struct Host {
        std::string participant_uid;
        int permission = 0;  // 1 submission, 2 confirmation, 3 observation
    };
    std::vector<Host> hosts;
    std::vector<std::string> signing_keys;  // raw Ed25519 keys
    unsigned signing_threshold = 0;
};

// Reads `transaction` (UntypedVersionedMessage bytes). Throws TopologyError with Canton's text:
// bytes that are no topology transaction, an operation other than replace, a serial other than
// 1, a mapping other than PartyToParticipant.
[[nodiscard]] PartyToParticipantTransaction read_onboarding(std::string_view transaction);

}  // namespace cantonlite::interactive
