#include "cantonlite/interactive/external_signatures.hpp"

#include <algorithm>

#include "cantonlite/interactive/external_party.hpp"
#include "cantonlite/model/ids.hpp"

namespace cantonlite::interactive {

void verify_signatures(const std::vector<std::string>& act_as,
                       const std::vector<PartySignatures>& given, const Hash& hash,
                       const SigningKeyOf& key_of) {
    // InteractiveSubmission.verifySignatures: every actAs party first, then each party's keys.
    std::string missing;
    for (const std::string& party : act_as) {
        const bool signed_ = std::any_of(
            given.begin(), given.end(), [&](const PartySignatures& p) { return p.party == party; });
        if (!signed_) missing += (missing.empty() ? "" : ", ") + party;
    }
    if (!missing.empty()) {
        throw SignatureError("The following actAs parties did not provide an external signature: " +
                             missing);
    }
    const std::string_view message(reinterpret_cast<const char*>(hash.data()), hash.size());
    for (const std::string& party : act_as) {
        const std::optional<std::string> key = key_of(party);
        if (!key) throw SignatureError("Could not find party signing keys for " + party + ".");
        const std::string fingerprint = key_fingerprint(*key);
        // The party's signatures, merged across its entries as a set.
        std::vector<const Signature*> signatures;
        for (const PartySignatures& p : given) {
            if (p.party != party) continue;
            for (const Signature& s : p.signatures) {
                const auto same = [&](const Signature* t) {
                    return t->bytes == s.bytes && t->signed_by == s.signed_by &&
                           t->format == s.format && t->algorithm == s.algorithm;
                };
                if (std::none_of(signatures.begin(), signatures.end(), same))
                    signatures.push_back(&s);
            }
        }
        // Since protocol version 35: no more signatures than the party has keys (one, here).
        constexpr std::size_t registered_keys = 1;
        if (signatures.size() > registered_keys) {
            throw SignatureError(std::to_string(signatures.size()) +
                                 " external signatures were provided, which is more than the "
                                 "number of registered signing keys (" +
                                 std::to_string(registered_keys) + ") with protocol usage for " +
                                 party);
        }
        std::size_t valid = 0;
        std::size_t invalid = 0;
        for (const Signature* s : signatures) {
            // An Ed25519 signature is its 64 bytes, whether given as RAW or CONCAT.
            const bool ok =
                s->signed_by == fingerprint && s->algorithm == "SIGNING_ALGORITHM_SPEC_ED25519" &&
                (s->format == "SIGNATURE_FORMAT_RAW" || s->format == "SIGNATURE_FORMAT_CONCAT") &&
                ed25519_verify(*key, message, s->bytes);
            ++(ok ? valid : invalid);
        }
        constexpr std::size_t threshold = 1;
        if (valid < threshold) {
            throw SignatureError(
                "Received " + std::to_string(valid) + " valid signatures from distinct keys (" +
                std::to_string(invalid) + " invalid), but expected at least " +
                std::to_string(threshold) + " valid for " + party +
                ". Transaction hash to be signed: 1220" + model::hex(message) +
                ". Ensure the correct transaction hash is signed with the correct key(s).");
        }
    }
}

}  // namespace cantonlite::interactive
