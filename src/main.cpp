// The cantonlite executable: see cantonlite::app::run.
#include <string>
#include <vector>

#include <openssl/crypto.h>

#include "cantonlite/app/application.hpp"

int main(int argc, char** argv) {
    // OpenSSL serves SHA-256, HMAC and RSA signatures here, nothing that openssl.cnf or its error
    // texts change: skipping both keeps about 0.6 MB less of libcrypto resident.
    OPENSSL_init_crypto(OPENSSL_INIT_NO_LOAD_CONFIG | OPENSSL_INIT_NO_LOAD_CRYPTO_STRINGS, nullptr);
    return cantonlite::app::run(std::vector<std::string>(argv + 1, argv + argc));
}
