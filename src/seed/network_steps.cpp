// Steps that grow the network itself: a new party, a new participant user (docs/seed-format.md
// "Parties and users"). A test often wants a fresh party; these give it one at run time.
#include <algorithm>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "cantonlite/interactive/external_party.hpp"
#include "cantonlite/model/ids.hpp"
#include "cantonlite/seed/live_network.hpp"
#include "steps.hpp"

namespace cantonlite::seed {
namespace {

// A party hint as Canton allocates it: letters, digits, '-' and '_'.
bool valid_hint(std::string_view hint) {
    if (hint.empty() || hint.size() > 185) return false;
    for (const char c : hint) {
        const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                        (c >= '0' && c <= '9') || c == '-' || c == '_';
        if (!ok) return false;
    }
    return true;
}

void check_alias_free(SeedContext& ctx, const JsonObject& s, std::string_view key,
                      const std::string& alias) {
    if (ctx.directory().has_alias(alias)) {
        throw model::JsonFieldError(s.pointer_of(key), "'" + alias + "' names a party already");
    }
}

// The "rights" of a user management step: the format of the users' "rights", but each party an id
// as written, not a reference (the Ledger API grants rights for any party id, even one the
// participant does not know). None when absent.
model::LedgerRights rights_as_written(const JsonObject& s) {
    model::LedgerRights out;
    const auto rights = s.optional_object("rights");
    if (!rights) return out;
    rights->reject_unknown_keys(
        {"can_act_as", "can_read_as", "can_read_as_any_party", "participant_admin"});
    const auto ids = [&](std::string_view key) {
        std::vector<std::string> parties;
        if (!rights->has(key)) return parties;
        const nlohmann::json& list = rights->value().at(std::string(key));
        if (!list.is_array()) {
            throw model::JsonFieldError(rights->pointer_of(key), "must be an array of strings");
        }
        for (std::size_t k = 0; k < list.size(); ++k) {
            if (!list[k].is_string() || list[k].get_ref<const std::string&>().empty()) {
                throw model::JsonFieldError(rights->pointer_of(key) + "/" + std::to_string(k),
                                            "must be a non-empty string");
            }
            const std::string& party = list[k].get_ref<const std::string&>();
            if (std::find(parties.begin(), parties.end(), party) == parties.end()) {
                parties.push_back(party);
            }
        }
        return parties;
    };
    out.can_act_as = ids("can_act_as");
    out.can_read_as = ids("can_read_as");
    out.can_read_as_any_party = rights->optional_bool("can_read_as_any_party").value_or(false);
    out.participant_admin = rights->optional_bool("participant_admin").value_or(false);
    return out;
}

// A party-valued key that may be "" (none).
std::string party_or_none(const JsonObject& s, std::string_view key) {
    if (!s.has(key)) return "";
    const nlohmann::json& v = s.value().at(std::string(key));
    if (!v.is_string()) {
        throw model::JsonFieldError(
            s.pointer_of(key), "must be a string (\"\": none), got " + model::describe_json(v));
    }
    return v.get<std::string>();
}

const model::User& existing_user_of(SeedContext& ctx, const JsonObject& s, std::string_view key) {
    const std::string id = s.string(key);
    const model::User* user = ctx.network().find_user(id);
    if (user == nullptr) throw model::JsonFieldError(s.pointer_of(key), "no user '" + id + "'");
    return *user;
}

// Whether the network names `party` otherwise than as the primary party of user `except`.
bool named_besides(const model::Network& n, const std::string& party, const std::string& except) {
    if (party == n.dso_party || party == n.validator_party) return true;
    for (const auto& sv : n.svs) {
        if (sv.party == party) return true;
    }
    for (const auto& [alias, p] : n.parties) {
        if (p == party) return true;
    }
    for (const auto& u : n.users) {
        if (u.id != except && u.party_hosted && u.party == party) return true;
    }
    return false;
}

}  // namespace

std::string allocated_party(const model::Network& n, std::string_view hint) {
    return std::string(hint) + "::1220" + model::sha256_hex(n.id_namespace);
}

// An external party's key (`external_key`: base64 of its Ed25519 key, raw or as its DER
// SubjectPublicKeyInfo), raw; nullopt without one.
std::optional<std::string> external_key_of(const JsonObject& s) {
    if (!s.has("external_key")) return std::nullopt;
    const auto bytes = model::base64_decode(s.string("external_key"));
    std::optional<std::string> raw;
    if (bytes) {
        raw = interactive::ed25519_raw_key(interactive::KeyFormat::raw, *bytes);
        if (!raw) raw = interactive::ed25519_raw_key(interactive::KeyFormat::der_x509_spki, *bytes);
    }
    if (!raw) {
        throw model::JsonFieldError(s.pointer_of("external_key"),
                                    "must be the base64 of an Ed25519 public key (32 bytes, or "
                                    "its 44-byte DER SubjectPublicKeyInfo)");
    }
    return raw;
}

void add_party(SeedContext& ctx, const JsonObject& s) {
    allow_keys(s, Commits::nothing, {"alias", "party", "external_key"});
    const std::optional<std::string> key = external_key_of(s);
    // An external party's namespace is its key's fingerprint.
    const auto check_namespace = [&](const Party& party) {
        if (key && party.substr(party.find("::") + 2) != interactive::key_fingerprint(*key)) {
            throw model::JsonFieldError(s.pointer_of("party"),
                                        "must be <hint>::" + interactive::key_fingerprint(*key) +
                                            ", the external key's fingerprint");
        }
    };
    if (!s.has("alias")) {
        // A party allocated through the Ledger API: known by its id alone.
        if (!s.has("party")) throw model::JsonFieldError(s.pointer_of("alias"), "is required");
        const Party party = party_id(s, "party");
        check_namespace(party);
        if (ctx.directory().has_alias(party) || ctx.network().parties.contains(party)) {
            throw model::JsonFieldError(s.pointer_of("party"), party + " exists");
        }
        ctx.store().add_party(party, party);
        if (key) ctx.store().set_external_key(party, *key);
        ctx.directory().add(party, party, ctx.store().undo());  // a reference by its id
        return;
    }
    const std::string alias = s.string("alias");
    if (!valid_hint(alias)) {
        throw model::JsonFieldError(s.pointer_of("alias"),
                                    "must be letters, digits, '-' or '_' (at most 185)");
    }
    check_alias_free(ctx, s, "alias", alias);
    const Party party = s.has("party") ? party_id(s, "party")
                        : key          ? alias + "::" + interactive::key_fingerprint(*key)
                                       : allocated_party(ctx.network(), alias);
    check_namespace(party);
    ctx.store().add_party(alias, party);
    if (key) ctx.store().set_external_key(party, *key);
    ctx.directory().add(alias, party, ctx.store().undo());
}

void add_user(SeedContext& ctx, const JsonObject& s) {
    allow_keys(s, Commits::transaction, {"id", "party", "wallet", "rights", "validator"});
    const model::Network& n = ctx.network();
    const std::string id = s.string("id");
    if (id.empty()) throw model::JsonFieldError(s.pointer_of("id"), "must not be empty");
    if (n.find_user(id) != nullptr) {
        throw model::JsonFieldError(s.pointer_of("id"), "user '" + id + "' exists");
    }
    check_alias_free(ctx, s, "id", id);
    Party party;
    if (s.has("party")) {
        const nlohmann::json& ref = s.value().at("party");
        const bool known = ref.is_string() && ctx.directory().has_alias(ref.get<std::string>());
        party = known ? ctx.party(s, "party") : party_id(s, "party");
    } else if (valid_hint(id)) {
        party = allocated_party(n, id);
    } else {
        throw model::JsonFieldError(s.pointer_of("id"),
                                    "is no party hint (letters, digits, '-', '_'): give a party");
    }
    const bool wallet = s.has("wallet") && bool_field(s, "wallet");
    if (wallet && ctx.wallet_installs.contains(party)) {
        throw model::JsonFieldError(s.pointer_of("wallet"), party + " has a wallet already");
    }
    model::User user{
        .id = id, .party = party, .wallet = wallet, .validator = wallet_validator(s, wallet)};
    ctx.directory().add(id, party, ctx.store().undo());
    user.rights = parse_rights(s, party, ctx.directory());
    ctx.store().add_user(std::move(user));
    if (!wallet) return;
    // The validator onboards the user: its WalletAppInstall, as the validator app creates it.
    auto d = ctx.draft(s, {n.validator_party}, ctx.step_time(s));
    const int node = d.add(-1, wallet_install(n, id, party));
    ctx.commit(d);
    ctx.store().undo().assign(ctx.wallet_installs, party, d.contract_id_of(node));
}

void grant_rights(SeedContext& ctx, const JsonObject& s) {
    allow_keys(s, Commits::nothing, {"user", "rights"});
    const std::string id = s.string("user");
    const model::User* user = ctx.network().find_user(id);
    if (user == nullptr) throw model::JsonFieldError(s.pointer_of("user"), "no user '" + id + "'");
    if (!s.has("rights")) throw model::JsonFieldError(s.pointer_of("rights"), "is required");
    // The rights named, added to those the user has (GrantUserRights).
    const model::LedgerRights more = parse_rights(s, user->party, ctx.directory());
    model::LedgerRights rights = user->rights;
    const auto add = [](std::vector<std::string>& to, const std::vector<std::string>& from) {
        for (const std::string& p : from) {
            if (std::find(to.begin(), to.end(), p) == to.end()) to.push_back(p);
        }
    };
    add(rights.can_act_as, more.can_act_as);
    add(rights.can_read_as, more.can_read_as);
    rights.can_read_as_any_party = rights.can_read_as_any_party || more.can_read_as_any_party;
    rights.participant_admin = rights.participant_admin || more.participant_admin;
    ctx.store().set_user_rights(id, std::move(rights));
}

// ---- the Ledger API's user management (docs/seed-format.md "Parties and users") ----

void create_user(SeedContext& ctx, const JsonObject& s) {
    allow_keys(s, Commits::nothing, {"id", "primary_party", "deactivated", "rights"});
    const std::string id = s.string("id");
    if (ctx.network().find_user(id) != nullptr) {
        throw model::JsonFieldError(s.pointer_of("id"), "user '" + id + "' exists");
    }
    model::User user{.id = id, .party = party_or_none(s, "primary_party")};
    user.party_hosted = false;  // a name only: creating a user allocates no party
    user.deactivated = s.optional_bool("deactivated").value_or(false);
    user.rights = rights_as_written(s);
    ctx.store().add_user(std::move(user));
}

void delete_user(SeedContext& ctx, const JsonObject& s) {
    allow_keys(s, Commits::nothing, {"id"});
    const model::User& user = existing_user_of(ctx, s, "id");
    const std::string id = user.id;
    const std::string party = user.party;
    // The user's party stays the participant's (and a reference to it keeps resolving).
    if (user.party_hosted && !party.empty() && !named_besides(ctx.network(), party, id) &&
        !ctx.network().parties.contains(party)) {
        ctx.store().add_party(party, party);
    }
    ctx.store().remove_user(id);
}

void grant_user_rights(SeedContext& ctx, const JsonObject& s) {
    allow_keys(s, Commits::nothing, {"user", "rights"});
    const model::User& user = existing_user_of(ctx, s, "user");
    const model::LedgerRights more = rights_as_written(s);
    model::LedgerRights rights = user.rights;
    const auto add = [&](std::vector<std::string>& to, const std::vector<std::string>& from,
                         std::string_view key) {
        for (const std::string& p : from) {
            if (std::find(to.begin(), to.end(), p) != to.end()) {
                throw model::JsonFieldError(s.pointer_of("rights") + "/" + std::string(key),
                                            "user '" + user.id + "' has the right for " + p);
            }
            to.push_back(p);
        }
    };
    const auto set = [&](bool& flag, bool more_flag, std::string_view key) {
        if (!more_flag) return;
        if (flag) {
            throw model::JsonFieldError(s.pointer_of("rights") + "/" + std::string(key),
                                        "user '" + user.id + "' has the right");
        }
        flag = true;
    };
    add(rights.can_act_as, more.can_act_as, "can_act_as");
    add(rights.can_read_as, more.can_read_as, "can_read_as");
    set(rights.can_read_as_any_party, more.can_read_as_any_party, "can_read_as_any_party");
    set(rights.participant_admin, more.participant_admin, "participant_admin");
    ctx.store().set_user_rights(user.id, std::move(rights));
}

void revoke_user_rights(SeedContext& ctx, const JsonObject& s) {
    allow_keys(s, Commits::nothing, {"user", "rights"});
    const model::User& user = existing_user_of(ctx, s, "user");
    const model::LedgerRights less = rights_as_written(s);
    model::LedgerRights rights = user.rights;
    const auto remove = [&](std::vector<std::string>& from, const std::vector<std::string>& gone,
                            std::string_view key) {
        for (const std::string& p : gone) {
            const auto it = std::find(from.begin(), from.end(), p);
            if (it == from.end()) {
                throw model::JsonFieldError(s.pointer_of("rights") + "/" + std::string(key),
                                            "user '" + user.id + "' lacks the right for " + p);
            }
            from.erase(it);
        }
    };
    const auto clear = [&](bool& flag, bool less_flag, std::string_view key) {
        if (!less_flag) return;
        if (!flag) {
            throw model::JsonFieldError(s.pointer_of("rights") + "/" + std::string(key),
                                        "user '" + user.id + "' lacks the right");
        }
        flag = false;
    };
    remove(rights.can_act_as, less.can_act_as, "can_act_as");
    remove(rights.can_read_as, less.can_read_as, "can_read_as");
    clear(rights.can_read_as_any_party, less.can_read_as_any_party, "can_read_as_any_party");
    clear(rights.participant_admin, less.participant_admin, "participant_admin");
    ctx.store().set_user_rights(user.id, std::move(rights));
}

void update_user(SeedContext& ctx, const JsonObject& s) {
    allow_keys(s, Commits::nothing, {"id", "primary_party", "deactivated", "resource_version"});
    model::User user = existing_user_of(ctx, s, "id");
    if (const auto expected =
            s.optional_integer("resource_version", 0, std::numeric_limits<std::int64_t>::max())) {
        if (*expected != user.resource_version) {
            throw model::JsonFieldError(s.pointer_of("resource_version"),
                                        "user '" + user.id + "' is at resource version " +
                                            std::to_string(user.resource_version));
        }
    }
    if (s.value().contains("primary_party")) {
        const std::string party = party_or_none(s, "primary_party");
        if (party != user.party) {
            // A hosted party stays the participant's when the user names another one.
            if (user.party_hosted && !user.party.empty() &&
                !named_besides(ctx.network(), user.party, user.id) &&
                !ctx.network().parties.contains(user.party)) {
                ctx.store().add_party(user.party, user.party);
            }
            user.party = party;
            user.party_hosted = false;
        }
    }
    if (const auto deactivated = s.optional_bool("deactivated")) user.deactivated = *deactivated;
    ++user.resource_version;  // as every update of a user on a participant
    ctx.store().replace_user(std::move(user));
}

}  // namespace cantonlite::seed
