#pragma once
// PartyDirectory: the parties a seed may name, and their aliases (user ids, SV names, dso, ...).

#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "cantonlite/model/network.hpp"

namespace cantonlite::seed {

// Built from the network facts; read-only after that.
class PartyDirectory {
  public:
    explicit PartyDirectory(const model::Network& network);

    // A party reference: an alias ("alice", "Digital-Asset-2", "dso", "validator", a
    // network.parties key) or one of the known party ids. Throws model::JsonFieldError at
    // `pointer`.
    [[nodiscard]] std::string resolve(const nlohmann::json& ref, const std::string& pointer) const;

  private:
    std::map<std::string, std::string> aliases_;  // alias -> party id
};

}  // namespace cantonlite::seed
