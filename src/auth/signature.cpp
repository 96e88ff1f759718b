#include "signature.hpp"

#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rsa.h>

#include "cantonlite/auth/jwt_signer.hpp"

namespace cantonlite::auth {
namespace {

const unsigned char* bytes(std::string_view text) {
    return reinterpret_cast<const unsigned char*>(text.data());
}

struct MdCtxFree {
    void operator()(EVP_MD_CTX* ctx) const { EVP_MD_CTX_free(ctx); }
};

// The raw HMAC-SHA256 of `data` under `key`; nullopt (OpenSSL's error queue emptied) if OpenSSL
// fails.
std::optional<std::string> hmac(std::string_view key, std::string_view data) {
    unsigned char mac[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    if (HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()), bytes(data), data.size(), mac,
             &length) == nullptr) {
        ERR_clear_error();
        return std::nullopt;
    }
    return std::string(reinterpret_cast<const char*>(mac), length);
}

}  // namespace

bool hs256_verifies(std::string_view secret, std::string_view signing_input,
                    std::string_view signature) {
    const std::optional<std::string> mac = hmac(secret, signing_input);
    // The length is public (always 32); only the bytes are compared in constant time.
    return mac && signature.size() == mac->size() &&
           CRYPTO_memcmp(mac->data(), signature.data(), mac->size()) == 0;
}

std::string hmac_sha256(std::string_view key, std::string_view data) {
    std::optional<std::string> mac = hmac(key, data);
    if (!mac) throw std::runtime_error("HMAC-SHA256 failed");
    return std::move(*mac);
}

bool rs256_verifies(EVP_PKEY* key, std::string_view signing_input, std::string_view signature) {
    const std::unique_ptr<EVP_MD_CTX, MdCtxFree> ctx(EVP_MD_CTX_new());
    EVP_PKEY_CTX* key_ctx = nullptr;  // owned by ctx
    const bool verified =
        ctx && EVP_DigestVerifyInit(ctx.get(), &key_ctx, EVP_sha256(), nullptr, key) == 1 &&
        EVP_PKEY_CTX_set_rsa_padding(key_ctx, RSA_PKCS1_PADDING) == 1 &&
        EVP_DigestVerify(ctx.get(), bytes(signature), signature.size(), bytes(signing_input),
                         signing_input.size()) == 1;
    ERR_clear_error();  // a refused signature leaves errors that are not ours to report
    return verified;
}

}  // namespace cantonlite::auth
