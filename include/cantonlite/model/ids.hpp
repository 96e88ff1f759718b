#pragma once
// Deterministic identifiers in the shapes Canton uses: the same seed gives the same ids every
// start.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace cantonlite::model {

// Lower-case hex SHA-256 of `data` (64 digits).
[[nodiscard]] std::string sha256_hex(std::string_view data);

// An update id as Canton writes it: "1220" + 64 hex (a multihash), derived from `namespace_` (the
// network's salt) and the offset.
[[nodiscard]] std::string make_update_id(std::string_view namespace_, std::int64_t offset);

// A V1 contract id: "00" + 64 hex discriminator + "ca10" + "1220" + 64 hex suffix, derived from the
// creating update and node.
[[nodiscard]] std::string make_contract_id(std::string_view update_id, int node_id);

// Standard base64 with padding.
[[nodiscard]] std::string base64_encode(std::string_view bytes);
// The bytes of standard padded base64; nullopt when `text` is not that.
[[nodiscard]] std::optional<std::string> base64_decode(std::string_view text);

}  // namespace cantonlite::model
