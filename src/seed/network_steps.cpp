// Steps that grow the network itself: a new party, a new participant user (docs/seed-format.md
// "Parties and users"). A test often wants a fresh party; these give it one at run time.
#include <algorithm>

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

}  // namespace

std::string allocated_party(const model::Network& n, std::string_view hint) {
    return std::string(hint) + "::1220" + model::sha256_hex(n.id_namespace);
}

void add_party(SeedContext& ctx, const JsonObject& s) {
    allow_keys(s, Commits::nothing, {"alias", "party"});
    if (!s.has("alias")) {
        // A party allocated through the Ledger API: known by its id alone.
        if (!s.has("party")) throw model::JsonFieldError(s.pointer_of("alias"), "is required");
        const Party party = party_id(s, "party");
        if (ctx.directory().has_alias(party) || ctx.network().parties.contains(party)) {
            throw model::JsonFieldError(s.pointer_of("party"), party + " exists");
        }
        ctx.store().add_party(party, party);
        ctx.directory().add(party, party, ctx.store().undo());  // a reference by its id
        return;
    }
    const std::string alias = s.string("alias");
    if (!valid_hint(alias)) {
        throw model::JsonFieldError(s.pointer_of("alias"),
                                    "must be letters, digits, '-' or '_' (at most 185)");
    }
    check_alias_free(ctx, s, "alias", alias);
    const Party party =
        s.has("party") ? party_id(s, "party") : allocated_party(ctx.network(), alias);
    ctx.store().add_party(alias, party);
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

}  // namespace cantonlite::seed
