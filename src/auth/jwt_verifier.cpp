#include "cantonlite/auth/jwt_verifier.hpp"

#include <chrono>
#include <mutex>
#include <stdexcept>

#include "claim_checks.hpp"
#include "jws.hpp"
#include "rsa_keys.hpp"
#include "signature.hpp"

namespace cantonlite::auth {

// The verification keys. The alg a token may use follows from which of them are configured, never
// from the token alone.
struct JwtVerifier::Keys {
    std::optional<std::string> hs256_secret;
    std::vector<RsaPublicKey> rsa;

    // "" when the signature of `jws` verifies under an allowed alg, else why not.
    [[nodiscard]] std::string signature_problem(const Jws& jws) const {
        if (jws.alg == "none") return "alg none is not accepted";
        if (jws.alg == "HS256") {
            if (!hs256_secret) return "alg HS256 is not accepted (no HS256 secret configured)";
            return hs256_verifies(*hs256_secret, jws.signing_input, jws.signature)
                       ? ""
                       : "bad signature";
        }
        if (jws.alg == "RS256") {
            if (rsa.empty()) return "alg RS256 is not accepted (no RSA key configured)";
            return rs256_problem(jws);
        }
        return "alg " + printable(jws.alg) + " is not accepted";
    }

    // With a kid, tries the keys of that kid and the keys without one; without, tries every key.
    [[nodiscard]] std::string rs256_problem(const Jws& jws) const {
        bool tried = false;
        for (const RsaPublicKey& k : rsa) {
            if (jws.kid && !k.kid.empty() && k.kid != *jws.kid) continue;
            tried = true;
            if (rs256_verifies(k.key.get(), jws.signing_input, jws.signature)) return "";
        }
        return tried ? "bad signature" : "unknown kid '" + printable(*jws.kid) + "'";
    }
};

JwtVerifier::JwtVerifier(const model::AuthSettings& settings)
    : keys_(std::make_unique<Keys>()), audience_(settings.audience) {
    if (settings.hs256_secret && settings.hs256_secret->empty()) {
        throw std::invalid_argument("hs256: the secret is empty, so anyone could sign tokens");
    }
    keys_->hs256_secret = settings.hs256_secret;
    for (const model::RsaKey& entry : settings.rs256_keys) {
        keys_->rsa.push_back(load_pem_key(entry));
    }
    if (!settings.jwks_json.empty()) {
        for (RsaPublicKey& key : load_jwks(settings.jwks_json))
            keys_->rsa.push_back(std::move(key));
    }
}

JwtVerifier::~JwtVerifier() = default;

Verification JwtVerifier::verify(std::string_view token, std::int64_t now_seconds,
                                 bool check_audience) const {
    const std::optional<std::string_view> audience =
        check_audience ? std::optional<std::string_view>(audience_) : std::nullopt;
    // A token whose signature held once holds again (the keys are fixed at start-up): what its
    // payload says is kept, and only the claims that depend on the time and the audience are
    // checked again.
    std::shared_ptr<const ClaimSet> known;
    {
        const std::lock_guard lock(verified_mutex_);
        if (const auto it = verified_.find(token); it != verified_.end()) known = it->second;
    }
    if (known) return check_claims(*known, now_seconds, audience);
    const JwsParse parsed = parse_jws(token);
    if (!parsed.jws) return Verification::refused(parsed.error);
    if (std::string problem = keys_->signature_problem(*parsed.jws); !problem.empty()) {
        return Verification::refused(problem);
    }
    // The payload is parsed only now that its signature holds.
    std::optional<nlohmann::json> payload = decode_json_object(parsed.jws->encoded_payload);
    if (!payload)
        return Verification::refused("malformed token: payload is not a base64url JSON object");
    auto set = std::make_shared<const ClaimSet>(read_claims(*payload));
    {
        const std::lock_guard lock(verified_mutex_);
        if (verified_.size() >= max_verified_tokens) verified_.clear();
        verified_.emplace(std::string(token), set);
    }
    return check_claims(*set, now_seconds, audience);
}

std::int64_t wall_clock_seconds() {
    const auto since_epoch = std::chrono::system_clock::now().time_since_epoch();
    return std::chrono::duration_cast<std::chrono::seconds>(since_epoch).count();
}

}  // namespace cantonlite::auth
