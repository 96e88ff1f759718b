#pragma once
// Deterministic identifiers in the shapes Canton uses: the same seed gives the same ids every
// start.

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace cantonlite::model {

// SHA-256 of `data`, and its 64 lower-case hex digits.
[[nodiscard]] std::array<unsigned char, 32> sha256(std::string_view data);
[[nodiscard]] std::string sha256_hex(std::string_view data);
// `bytes` in lower-case hex.
[[nodiscard]] std::string hex(std::string_view bytes);

// An update id as Canton writes it: "1220" + 64 hex (a multihash), derived from `namespace_` (the
// network's salt) and the offset.
[[nodiscard]] std::string make_update_id(std::string_view namespace_, std::int64_t offset);

// An update id of make_update_id's form, kept as the 32 bytes of its hash rather than 68
// characters: the store keeps one per update.
class UpdateId {
  public:
    UpdateId() = default;
    // make_update_id(namespace_, offset), without its text; or the id that `namespace_` keeps,
    // when it is a kept_id_source().
    [[nodiscard]] static UpdateId of(std::string_view namespace_, std::int64_t offset);
    // The id `text` spells; nullopt unless it is "1220" and 64 lower-case hex digits.
    [[nodiscard]] static std::optional<UpdateId> parse(std::string_view text);

    [[nodiscard]] std::string str() const;  // "1220" + 64 hex
    // The hash's bytes: a key for maps, valid as long as this id.
    [[nodiscard]] std::string_view bytes() const {
        return {reinterpret_cast<const char*>(hash_.data()), hash_.size()};
    }
    bool operator==(const UpdateId&) const = default;
    friend bool operator==(const UpdateId& id, std::string_view text) { return id.str() == text; }

  private:
    std::array<unsigned char, 32> hash_{};
};

// An update keeps the id it came with, rather than one derived from its offset, when it was
// forked from another network (cantonlite fork): the namespace it carries then spells the id
// behind this prefix, which no network's id namespace may start with (the seed loader refuses
// one that does).
inline constexpr std::string_view kept_update_id_prefix = "update-id=";
[[nodiscard]] std::string kept_id_source(const UpdateId& id);

// A V1 contract id: "00" + 64 hex discriminator + "ca10" + "1220" + 64 hex suffix, derived from the
// creating update and node.
[[nodiscard]] std::string make_contract_id(std::string_view update_id, int node_id);
[[nodiscard]] std::string make_contract_id(const UpdateId& update_id, int node_id);

// Standard base64 with padding.
[[nodiscard]] std::string base64_encode(std::string_view bytes);
// The bytes of standard padded base64; nullopt when `text` is not that.
[[nodiscard]] std::optional<std::string> base64_decode(std::string_view text);

}  // namespace cantonlite::model
