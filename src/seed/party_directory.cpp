#include "party_directory.hpp"

#include "cantonlite/model/json_fields.hpp"

namespace cantonlite::seed {

PartyDirectory::PartyDirectory(const model::Network& n) {
    aliases_["dso"] = n.dso_party;
    aliases_["validator"] = n.validator_party;
    for (const auto& sv : n.svs) aliases_[sv.name] = sv.party;
    for (const auto& u : n.users) aliases_[u.id] = u.party;
    for (const auto& [alias, party] : n.parties) aliases_[alias] = party;
}

void PartyDirectory::add(const std::string& alias, const std::string& party, store::UndoLog& undo) {
    undo.assign(aliases_, alias, party);
}

std::string PartyDirectory::resolve(const nlohmann::json& ref, const std::string& pointer) const {
    if (!ref.is_string()) {
        throw model::JsonFieldError(pointer,
                                    "must be a party reference, got " + model::describe_json(ref));
    }
    const auto& text = ref.get_ref<const std::string&>();
    if (const auto alias = aliases_.find(text); alias != aliases_.end()) return alias->second;
    for (const auto& [_, party] : aliases_) {
        if (party == text) return party;
    }
    throw model::JsonFieldError(pointer, "unknown party '" + text + "'");
}

}  // namespace cantonlite::seed
