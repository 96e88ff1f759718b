#include "signature.hpp"

#include <memory>

#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rsa.h>

namespace cantonlite::auth {
namespace {

const unsigned char* bytes(std::string_view text) {
    return reinterpret_cast<const unsigned char*>(text.data());
}

struct MdCtxFree {
    void operator()(EVP_MD_CTX* ctx) const { EVP_MD_CTX_free(ctx); }
};

}  // namespace

bool hs256_verifies(std::string_view secret, std::string_view signing_input,
                    std::string_view signature) {
    unsigned char mac[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    if (HMAC(EVP_sha256(), secret.data(), static_cast<int>(secret.size()), bytes(signing_input),
             signing_input.size(), mac, &length) == nullptr) {
        ERR_clear_error();
        return false;
    }
    // The length is public (always 32); only the bytes are compared in constant time.
    return signature.size() == length && CRYPTO_memcmp(mac, signature.data(), length) == 0;
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
