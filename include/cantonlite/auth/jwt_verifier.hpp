#pragma once
// JwtVerifier: checks the bearer tokens of the validator and ledger areas (HS256, RS256, JWKS).

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "cantonlite/model/network.hpp"

namespace cantonlite::auth {

// What a verified token says.
struct Claims {
    std::string user_id;                 // "https://canton-network".daml_user if present, else sub
    std::string subject;                 // sub ("" when absent)
    std::vector<std::string> audiences;  // aud, as a list (a string aud is one entry)
    std::vector<std::string> scopes;     // scope (space-separated) or scp
};

// The outcome of a verification: claims, or why the token was refused (for the log only: the
// clients see only "missing" vs "invalid").
struct Verification {
    std::optional<Claims> claims;
    std::string reason;

    // A refusal, and why.
    [[nodiscard]] static Verification refused(std::string why) {
        return Verification{.claims = std::nullopt, .reason = std::move(why)};
    }
};

struct ClaimSet;  // what a verified token's payload says (claim_checks.hpp)

// Verifies compact JWS tokens as the Splice apps do (../shared/docs/reference/splice-behavior.md
// §5.2, canton-ledger-behavior.md §7.2): the header's alg must be one the settings allow (HS256
// with the secret; RS256 with a configured key or a JWKS key chosen by kid), never "none" and
// never HS/RS confusion; the signature must verify (OpenSSL; no hand-written crypto; a token
// verified before is not verified again); exp and nbf,
// when present, hold at `now_seconds` (no leeway); aud (string or array) must contain the
// configured audience unless `check_audience` is false; the user id is the daml_user claim or sub
// and must not be empty. Built once at start-up; thread-safe.
class JwtVerifier {
  public:
    // Throws std::invalid_argument for an unusable key (PEM or JWKS that does not parse).
    explicit JwtVerifier(const model::AuthSettings& settings);
    ~JwtVerifier();
    JwtVerifier(const JwtVerifier&) = delete;
    JwtVerifier& operator=(const JwtVerifier&) = delete;

    [[nodiscard]] Verification verify(std::string_view token, std::int64_t now_seconds,
                                      bool check_audience = true) const;

  private:
    struct Keys;
    std::unique_ptr<Keys> keys_;
    std::string audience_;
    // What the payloads of the tokens whose signature verified say, by token: a client sends one
    // token many times. Forgotten all at once when full.
    static constexpr std::size_t max_verified_tokens = 4096;
    mutable std::mutex verified_mutex_;
    struct TokenHash {
        using is_transparent = void;
        std::size_t operator()(std::string_view s) const {
            return std::hash<std::string_view>{}(s);
        }
    };
    mutable std::unordered_map<std::string, std::shared_ptr<const ClaimSet>, TokenHash,
                               std::equal_to<>>
        verified_;  // guarded by verified_mutex_
};

// Seconds since the epoch, by the wall clock (tokens expire in real time).
[[nodiscard]] std::int64_t wall_clock_seconds();

}  // namespace cantonlite::auth
