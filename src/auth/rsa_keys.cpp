#include "rsa_keys.hpp"

#include <stdexcept>

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>
#include <openssl/pem.h>
#include <nlohmann/json.hpp>

#include "base64url.hpp"

namespace cantonlite::auth {
namespace {

using nlohmann::json;

struct BioFree {
    void operator()(BIO* bio) const { BIO_free(bio); }
};
struct BnFree {
    void operator()(BIGNUM* bn) const { BN_free(bn); }
};
struct ParamBldFree {
    void operator()(OSSL_PARAM_BLD* bld) const { OSSL_PARAM_BLD_free(bld); }
};
struct ParamFree {
    void operator()(OSSL_PARAM* params) const { OSSL_PARAM_free(params); }
};
struct PkeyCtxFree {
    void operator()(EVP_PKEY_CTX* ctx) const { EVP_PKEY_CTX_free(ctx); }
};
using BnPtr = std::unique_ptr<BIGNUM, BnFree>;

[[noreturn]] void bad_key(std::string_view source, std::string_view kid, std::string_view why) {
    ERR_clear_error();
    throw std::invalid_argument(std::string(source) + " key '" + std::string(kid) +
                                "': " + std::string(why));
}

// True when `key` is a usable RSA public key (OpenSSL's public-key checks: odd modulus, ...).
bool is_valid_rsa(EVP_PKEY* key) {
    if (EVP_PKEY_is_a(key, "RSA") != 1) return false;
    const std::unique_ptr<EVP_PKEY_CTX, PkeyCtxFree> ctx(EVP_PKEY_CTX_new(key, nullptr));
    return ctx && EVP_PKEY_public_check(ctx.get()) == 1;
}

// The big-endian unsigned integer a JWK member encodes, or null.
BnPtr jwk_integer(const json& jwk, const char* name) {
    const auto member = jwk.find(name);
    if (member == jwk.end() || !member->is_string()) return nullptr;
    const std::optional<std::string> bytes = base64url_decode(member->get<std::string>());
    if (!bytes || bytes->empty()) return nullptr;
    return BnPtr(BN_bin2bn(reinterpret_cast<const unsigned char*>(bytes->data()),
                           static_cast<int>(bytes->size()), nullptr));
}

// The RSA public key with modulus n and exponent e, or null.
PkeyPtr rsa_from_numbers(const BIGNUM& n, const BIGNUM& e) {
    const std::unique_ptr<OSSL_PARAM_BLD, ParamBldFree> bld(OSSL_PARAM_BLD_new());
    if (!bld || OSSL_PARAM_BLD_push_BN(bld.get(), OSSL_PKEY_PARAM_RSA_N, &n) != 1 ||
        OSSL_PARAM_BLD_push_BN(bld.get(), OSSL_PKEY_PARAM_RSA_E, &e) != 1) {
        return nullptr;
    }
    const std::unique_ptr<OSSL_PARAM, ParamFree> params(OSSL_PARAM_BLD_to_param(bld.get()));
    const std::unique_ptr<EVP_PKEY_CTX, PkeyCtxFree> ctx(
        EVP_PKEY_CTX_new_from_name(nullptr, "RSA", nullptr));
    EVP_PKEY* key = nullptr;
    if (!params || !ctx || EVP_PKEY_fromdata_init(ctx.get()) != 1 ||
        EVP_PKEY_fromdata(ctx.get(), &key, EVP_PKEY_PUBLIC_KEY, params.get()) != 1) {
        return nullptr;
    }
    return PkeyPtr(key);
}

std::string string_member(const json& object, const char* name) {
    const auto member = object.find(name);
    return member != object.end() && member->is_string() ? member->get<std::string>() : "";
}

// True for a JWK this verifier may use for RS256 (RFC 7517 §4.2-4.4; absent use/alg allow it).
bool is_rs256_signing_key(const json& jwk) {
    if (string_member(jwk, "kty") != "RSA") return false;
    if (jwk.contains("use") && string_member(jwk, "use") != "sig") return false;
    return !jwk.contains("alg") || string_member(jwk, "alg") == "RS256";
}

RsaPublicKey load_jwk(const json& jwk) {
    const std::string kid = string_member(jwk, "kid");
    const BnPtr n = jwk_integer(jwk, "n");
    const BnPtr e = jwk_integer(jwk, "e");
    if (!n || !e) bad_key("jwks", kid, "n and e must be non-empty base64url strings");
    PkeyPtr key = rsa_from_numbers(*n, *e);
    if (!key || !is_valid_rsa(key.get())) bad_key("jwks", kid, "n and e are not an RSA public key");
    return RsaPublicKey{.kid = kid, .key = std::move(key)};
}

}  // namespace

void PkeyFree::operator()(EVP_PKEY* key) const {
    EVP_PKEY_free(key);
}

RsaPublicKey load_pem_key(const model::RsaKey& entry) {
    const std::unique_ptr<BIO, BioFree> bio(
        BIO_new_mem_buf(entry.pem.data(), static_cast<int>(entry.pem.size())));
    if (!bio) bad_key("rs256", entry.kid, "cannot read the PEM");
    PkeyPtr key(PEM_read_bio_PUBKEY(bio.get(), nullptr, nullptr, nullptr));
    if (!key) bad_key("rs256", entry.kid, "PEM is not a SubjectPublicKeyInfo public key");
    if (!is_valid_rsa(key.get())) bad_key("rs256", entry.kid, "PEM is not an RSA public key");
    return RsaPublicKey{.kid = entry.kid, .key = std::move(key)};
}

std::vector<RsaPublicKey> load_jwks(std::string_view jwks_json) {
    const json doc = json::parse(jwks_json, nullptr, /*allow_exceptions=*/false);
    if (doc.is_discarded() || !doc.is_object() || !doc.contains("keys") ||
        !doc.at("keys").is_array()) {
        throw std::invalid_argument("jwks: not a JWKS document (an object with a \"keys\" array)");
    }
    std::vector<RsaPublicKey> keys;
    for (const json& jwk : doc.at("keys")) {
        if (!jwk.is_object()) throw std::invalid_argument("jwks: a key is not a JSON object");
        if (is_rs256_signing_key(jwk)) keys.push_back(load_jwk(jwk));
    }
    return keys;
}

}  // namespace cantonlite::auth
