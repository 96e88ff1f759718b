#pragma once
// The external signatures of an executed transaction, checked as Canton's
// InteractiveSubmission.verifySignatures does: every actAs party signed, each with at least its
// threshold of valid signatures from distinct registered keys, over the hash the participant
// computes from the prepared transaction it was given (never over a hash the client names).

#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "cantonlite/interactive/transaction_hash.hpp"

namespace cantonlite::interactive {

// One Signature of the Ledger API (crypto.proto), as validated by CryptoValidator.
struct Signature {
    std::string format;     // SIGNATURE_FORMAT_RAW, _CONCAT, _DER, _SYMBOLIC
    std::string algorithm;  // SIGNING_ALGORITHM_SPEC_ED25519, _EC_DSA_SHA_256, _EC_DSA_SHA_384
    std::string signed_by;  // the key's fingerprint, "1220" + 64 hex
    std::string bytes;
};

// A party's signatures (SinglePartySignatures; several entries of one party merge).
struct PartySignatures {
    std::string party;
    std::vector<Signature> signatures;
};

// Why the signatures do not authorize the transaction, in Canton's words (without the
// "The participant failed to execute the transaction: " prefix the caller adds).
class SignatureError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

// The party's registered signing key (raw Ed25519), none for a party without keys (a local
// party, or one the participant does not know).
using SigningKeyOf = std::function<std::optional<std::string>(const std::string& party)>;

// Throws SignatureError unless every party of `act_as` has, among `given`, a valid Ed25519
// signature of `hash` by its key. Signatures of other parties are ignored, as Canton does.
void verify_signatures(const std::vector<std::string>& act_as,
                       const std::vector<PartySignatures>& given, const Hash& hash,
                       const SigningKeyOf& key_of);

}  // namespace cantonlite::interactive
