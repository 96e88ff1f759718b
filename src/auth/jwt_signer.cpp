#include "cantonlite/auth/jwt_signer.hpp"

#include <cstdint>
#include <stdexcept>

#include <openssl/evp.h>
#include <openssl/hmac.h>

namespace cantonlite::auth {

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

std::string sign_hs256(std::string_view secret, std::string_view header_json,
                       std::string_view claims_json) {
    const std::string input = base64url_encode(header_json) + "." + base64url_encode(claims_json);
    return input + "." + base64url_encode(hmac_sha256(secret, input));
}

}  // namespace cantonlite::auth
