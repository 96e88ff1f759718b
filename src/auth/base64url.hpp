#pragma once
// Strict base64url decoding for the parts of a compact JWS (RFC 7515 §2, RFC 4648 §5).

#include <optional>
#include <string>
#include <string_view>

namespace cantonlite::auth {

// The bytes that `text` encodes, or nullopt when it is not canonical unpadded base64url: a
// character outside A-Z a-z 0-9 - _ (padding '=' included), a length of 4n+1, or non-zero
// unused bits in the last character.
[[nodiscard]] std::optional<std::string> base64url_decode(std::string_view text);

}  // namespace cantonlite::auth
