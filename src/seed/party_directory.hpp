#pragma once
// PartyDirectory: the parties a seed may name, and their aliases (user ids, SV names, dso, ...).

#include <cstddef>
#include <map>
#include <string>
#include <unordered_map>

#include <nlohmann/json.hpp>

#include "cantonlite/model/network.hpp"
#include "cantonlite/store/undo_log.hpp"

namespace cantonlite::seed {

// Built from the network facts; grows when a step adds a party or a user.
class PartyDirectory {
  public:
    explicit PartyDirectory(const model::Network& network);

    // Adds (or re-points) `alias`, recording the inverse in `undo`.
    void add(const std::string& alias, const std::string& party, store::UndoLog& undo);
    [[nodiscard]] bool has_alias(const std::string& alias) const {
        return aliases_.contains(alias);
    }
    // Every alias and its party, in the order of the aliases; replace_aliases puts a saved set
    // back (a state file's).
    [[nodiscard]] std::map<std::string, std::string> aliases() const;
    void replace_aliases(const std::map<std::string, std::string>& aliases);

    // A party reference: an alias ("alice", "Digital-Asset-2", "dso", "validator", a
    // network.parties key) or one of the known party ids. Throws model::JsonFieldError at
    // `pointer`.
    [[nodiscard]] std::string resolve(const nlohmann::json& ref, const std::string& pointer) const;
    // The party `ref` names, as resolve() says; nullptr when it names none. Valid until the
    // directory changes.
    [[nodiscard]] const std::string* find(const std::string& ref) const;

  private:
    // aliases_count_ from aliases_.
    void count_aliases();

    // alias -> party id. Hashed: a seed names a party at each step, and a generated network's
    // thousand aliases took ten comparisons of texts a lookup in an ordered map.
    std::unordered_map<std::string, std::string> aliases_;
    // The known party ids: how many aliases name each (0: none any more). Changed through the
    // undo log with aliases_, so that a rollback puts both back.
    std::unordered_map<std::string, std::size_t> aliases_count_;
};

}  // namespace cantonlite::seed
