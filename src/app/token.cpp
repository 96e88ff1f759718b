#include "cantonlite/app/token.hpp"

#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <nlohmann/json.hpp>

namespace cantonlite::app {
namespace {

std::string known_users(const model::Network& network) {
    std::string list;
    for (const model::User& u : network.users) list += (list.empty() ? "" : ", ") + u.id;
    return list.empty() ? "none" : list;
}

}  // namespace

std::string base64url_encode(std::string_view bytes) {
    static constexpr std::string_view alphabet =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    std::string out;
    out.reserve((bytes.size() * 4 + 2) / 3);
    std::uint32_t buffer = 0;
    int bits = 0;
    for (const char c : bytes) {
        buffer = (buffer << 8) | static_cast<unsigned char>(c);
        bits += 8;
        while (bits >= 6) {
            bits -= 6;
            out += alphabet[(buffer >> bits) & 0x3F];
        }
    }
    if (bits > 0) out += alphabet[(buffer << (6 - bits)) & 0x3F];
    return out;
}

std::string hmac_sha256(std::string_view key, std::string_view data) {
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    const unsigned char* result =
        HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()),
             reinterpret_cast<const unsigned char*>(data.data()), data.size(), digest, &length);
    if (result == nullptr) throw std::runtime_error("HMAC-SHA256 failed");
    return std::string(reinterpret_cast<const char*>(digest), length);
}

std::string make_token(const model::Network& network, std::string_view user_id,
                       std::int64_t issued_at, std::int64_t expires_in) {
    if (network.find_user(user_id) == nullptr) {
        throw TokenError("--user: unknown user '" + std::string(user_id) +
                         "' (users: " + known_users(network) + ")");
    }
    if (!network.auth.hs256_secret) {
        throw TokenError(
            "auth: the network has no HS256 secret (auth.hs256.secret), so cantonlite cannot sign "
            "tokens; tokens for its RS256 keys come from the holder of the private key");
    }
    const nlohmann::ordered_json header = {{"alg", "HS256"}, {"typ", "JWT"}};
    const nlohmann::ordered_json claims = {{"sub", user_id},
                                           {"aud", network.auth.audience},
                                           {"iat", issued_at},
                                           {"exp", issued_at + expires_in},
                                           {"scope", "daml_ledger_api"}};
    const std::string signing_input =
        base64url_encode(header.dump()) + "." + base64url_encode(claims.dump());
    return signing_input + "." +
           base64url_encode(hmac_sha256(*network.auth.hs256_secret, signing_input));
}

}  // namespace cantonlite::app
