#pragma once
// Network: the fixed facts of the emulated Canton network and its participant's users.

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cantonlite/model/template_id.hpp"
#include "cantonlite/model/timestamp.hpp"

namespace cantonlite::model {

// A logical synchronizer upgrade that the DSO has announced. Spec: scan.yaml Lsu.
struct Lsu {
    Timestamp topology_freeze_time;  // validFrom of the announcement topology transaction
    Timestamp upgrade_time;
    std::string successor_physical_synchronizer_id;  // "<synchronizer id>::<pv>-<serial>"

    bool operator==(const Lsu&) const = default;
};

struct SuperValidator {
    std::string name;   // "Digital-Asset-2"
    std::string party;  // "digital-asset-2::1220…"
};

// A participant user's ledger rights (Canton user management).
struct LedgerRights {
    std::vector<std::string> can_act_as;
    std::vector<std::string> can_read_as;
    bool can_read_as_any_party = false;
    bool participant_admin = false;  // ParticipantAdmin: user management, every user's rights
};

struct RsaKey {
    std::string kid;
    std::string pem;  // SubjectPublicKeyInfo PEM
};

// How tokens are verified (validator and ledger areas).
struct AuthSettings {
    std::optional<std::string> hs256_secret;
    std::vector<RsaKey> rs256_keys;
    std::string jwks_json;    // the JWKS document, when the seed names a jwks_file
    std::string audience;     // must be among a token's aud
    bool ledger_auth = true;  // false: the ledger API behaves as an unauthenticated participant
};

// The validators of Splice LocalNet's roles, by LocalNet's names (cluster/compose/localnet). Under
// `serve --localnet` each serves its own wallet users.
inline constexpr std::array<std::string_view, 3> localnet_validators{"app-user", "app-provider",
                                                                     "sv"};

struct User {
    std::string id;       // ledger API user id, the token's subject
    std::string party;    // primary party
    bool wallet = false;  // onboarded in the validator's wallet
    LedgerRights rights;
    // The LocalNet validator (one of localnet_validators) whose wallet holds the user's; empty:
    // every validator's.
    std::string validator;
    // Whether the participant hosts `party` for this user's sake: true for the seed's users (and
    // add_user's); false for one the Ledger API created, whose primary party is a name only
    // (empty: none).
    bool party_hosted = true;
    // The user management service's fields: a deactivated user's tokens are refused, and each
    // update of the user (not of its rights) increases its resource version.
    bool deactivated = false;
    std::int64_t resource_version = 0;

    // Whether the validator of LocalNet role `role` serves this user's wallet; "" is the one
    // validator of the main port, which serves every wallet user.
    [[nodiscard]] bool served_by(std::string_view role) const {
        return role.empty() || validator.empty() || validator == role;
    }
};

// What a seed says about the network itself, as opposed to its history.
struct Network {
    std::string dso_party;  // "DSO::1220…"
    std::vector<SuperValidator> svs;
    std::string synchronizer_id;  // the global synchronizer
    std::vector<std::string> other_synchronizers;
    std::string ans_acronym = "ans";
    std::string participant_id;   // "PAR::participant1::1220…"
    std::string validator_party;  // the validator operator, host of the wallets
    // The validator app's own ledger API user (GET /api/validator/v0/validator-user), as Splice
    // LocalNet names it (AUTH_*_VALIDATOR_USER_NAME).
    std::string validator_user = "ledger-api-user";
    std::map<std::string, std::string> parties;  // more parties, by alias
    // External parties' Ed25519 keys (the raw 32 bytes), by party id: what their signatures are
    // checked against. A party not here is the participant's to sign for.
    std::map<std::string, std::string> external_keys;
    std::map<std::string, std::string> package_ids;  // package name -> package id
    std::optional<Lsu> lsu;                          // none: no upgrade announced
    std::vector<User> users;
    AuthSettings auth;
    std::string id_namespace = "cantonlite";  // salt of the deterministic ids

    // The template `module:entity` of package `package_name`, with that package's id.
    // REQUIRES: package_ids has the package.
    [[nodiscard]] TemplateId template_id(std::string_view package_name,
                                         std::string_view module_name,
                                         std::string_view entity_name) const;

    [[nodiscard]] const User* find_user(std::string_view id) const;
};

// Package ids of the Splice packages at the version the reference was written against
// (../shared/docs/reference/splice-behavior.md §4.2), by package name.
[[nodiscard]] std::map<std::string, std::string> default_package_ids();

}  // namespace cantonlite::model
