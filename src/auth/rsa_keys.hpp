#pragma once
// RSA public keys for RS256: loaded from SubjectPublicKeyInfo PEM or from a JWKS document.

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <openssl/types.h>

#include "cantonlite/model/network.hpp"

namespace cantonlite::auth {

struct PkeyFree {
    void operator()(EVP_PKEY* key) const;
};
using PkeyPtr = std::unique_ptr<EVP_PKEY, PkeyFree>;

// One verification key. Only read after loading: OpenSSL allows concurrent verifications with it.
struct RsaPublicKey {
    std::string kid;  // "" when the key has none: it is then tried for every token
    PkeyPtr key;      // an RSA (not RSA-PSS) public key
};

// The key of a PEM entry of the settings. Throws std::invalid_argument naming the kid when the
// PEM holds no RSA public key.
[[nodiscard]] RsaPublicKey load_pem_key(const model::RsaKey& entry);

// The RSA signing keys of a JWKS document (RFC 7517): entries with kty "RSA", n and e, skipping
// other key types and keys whose use is not "sig" or whose alg is not "RS256". Throws
// std::invalid_argument (naming the kid of a bad key) when the text is not a JWKS document or an
// RSA key's n or e is not base64url or does not make a valid key.
[[nodiscard]] std::vector<RsaPublicKey> load_jwks(std::string_view jwks_json);

}  // namespace cantonlite::auth
