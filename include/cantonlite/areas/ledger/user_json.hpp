#pragma once
// What the user management reads and writes share (src/areas/ledger/user_handlers.cpp): a user
// and its rights as Canton 3.5's ApiUserManagementService writes them, its USER_NOT_FOUND, and the
// parties the participant knows.

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cantonlite/model/network.hpp"

namespace cantonlite::areas::ledger {

// AUMS toProtoUser, fields in the proto's order: the default identity provider, no annotations.
[[nodiscard]] nlohmann::ordered_json user_json(const model::User& user);

// A list of AUMS toProtoRight: acting, then reading rights, then CanReadAsAnyParty and
// ParticipantAdmin (a Scala Set's order on a real node: unspecified).
[[nodiscard]] nlohmann::ordered_json user_rights_json(const model::LedgerRights& rights);

// UserNotFound (Utils.handleResult): 404 USER_NOT_FOUND "<operation> failed for unknown user
// \"<id>\"", resource USER.
[[noreturn]] void throw_user_not_found(const std::string& operation, const std::string& id);

// Every party the participant knows, sorted: the network's parties and the seed's users' (not the
// primary party a Ledger API user names, which is a name only).
[[nodiscard]] std::vector<std::string> known_parties(const model::Network& n);

// ParticipantId.toLf: the participant's unique identifier, without the member prefix "PAR::".
[[nodiscard]] std::string participant_uid(const model::Network& n);

}  // namespace cantonlite::areas::ledger
