#include "party_directory.hpp"

#include "cantonlite/model/json_fields.hpp"

namespace cantonlite::seed {

PartyDirectory::PartyDirectory(const model::Network& n) {
    aliases_["dso"] = n.dso_party;
    aliases_["validator"] = n.validator_party;
    for (const auto& sv : n.svs) aliases_[sv.name] = sv.party;
    for (const auto& u : n.users) aliases_[u.id] = u.party;
    for (const auto& [alias, party] : n.parties) aliases_[alias] = party;
    count_aliases();
}

void PartyDirectory::count_aliases() {
    aliases_count_.clear();
    for (const auto& [_, party] : aliases_) ++aliases_count_[party];
}

std::map<std::string, std::string> PartyDirectory::aliases() const {
    return {aliases_.begin(), aliases_.end()};
}

void PartyDirectory::replace_aliases(const std::map<std::string, std::string>& aliases) {
    aliases_ = {aliases.begin(), aliases.end()};
    count_aliases();
}

void PartyDirectory::add(const std::string& alias, const std::string& party, store::UndoLog& undo) {
    const auto named = [&](const std::string& p) {
        const auto it = aliases_count_.find(p);
        return it == aliases_count_.end() ? std::size_t{0} : it->second;
    };
    if (const auto old = aliases_.find(alias); old != aliases_.end()) {
        if (old->second == party) return;
        undo.assign(aliases_count_, old->second, named(old->second) - 1);
    }
    undo.assign(aliases_count_, party, named(party) + 1);
    undo.assign(aliases_, alias, party);
}

std::string PartyDirectory::resolve(const nlohmann::json& ref, const std::string& pointer) const {
    if (!ref.is_string()) {
        throw model::JsonFieldError(pointer,
                                    "must be a party reference, got " + model::describe_json(ref));
    }
    const auto& text = ref.get_ref<const std::string&>();
    if (const std::string* party = find(text)) return *party;
    throw model::JsonFieldError(pointer, "unknown party '" + text + "'");
}

const std::string* PartyDirectory::find(const std::string& ref) const {
    if (const auto alias = aliases_.find(ref); alias != aliases_.end()) return &alias->second;
    if (const auto it = aliases_count_.find(ref); it != aliases_count_.end() && it->second > 0)
        return &it->first;
    return nullptr;
}

}  // namespace cantonlite::seed
