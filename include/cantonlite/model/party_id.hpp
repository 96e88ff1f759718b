#pragma once
// Validation of party ids as Canton parses them (PartyId.tryFromProtoPrimitive).

#include <optional>
#include <string>
#include <string_view>

namespace cantonlite::model {

// nullopt for a valid party id "<identifier>::<fingerprint>"; otherwise Canton's message, e.g.
// "Invalid unique identifier `foo` with missing namespace."
// (../shared/docs/reference/splice-behavior.md §0.5).
[[nodiscard]] std::optional<std::string> party_id_error(std::string_view party);

}  // namespace cantonlite::model
