#include "cantonlite/auth/jwt_signer.hpp"

#include <algorithm>

#include "cantonlite/model/ids.hpp"

namespace cantonlite::auth {

std::string base64url_encode(std::string_view bytes) {
    std::string out = model::base64_encode(bytes);
    out.erase(out.find_last_not_of('=') + 1);
    std::replace(out.begin(), out.end(), '+', '-');
    std::replace(out.begin(), out.end(), '/', '_');
    return out;
}

// hmac_sha256 is in signature.cpp, beside the HS256 check that uses the same HMAC.

std::string sign_hs256(std::string_view secret, std::string_view header_json,
                       std::string_view claims_json) {
    const std::string input = base64url_encode(header_json) + "." + base64url_encode(claims_json);
    return input + "." + base64url_encode(hmac_sha256(secret, input));
}

}  // namespace cantonlite::auth
