#pragma once
// Loading a seed (the network and its history, docs/seed-format.md) into a LedgerStore.

#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

#include "cantonlite/model/json_fields.hpp"
#include "cantonlite/store/ledger_store.hpp"

namespace cantonlite::seed {

// The seed cannot be loaded. what() is one line: "<file>: <JSON pointer>: <problem>", with
// "step <n> (<kind>)" before the pointer when a step is at fault.
// One line, whatever the seed's keys and values hold: control characters are escaped.
class SeedError : public std::runtime_error {
  public:
    explicit SeedError(const std::string& message)
        : std::runtime_error(model::escape_control_characters(message)) {}
};

// Builds the store described by a parsed seed document: the network, users and auth settings,
// the bootstrap transaction, then every step in order. `source` names the document in errors;
// files the seed names (jwks_file) are read relative to `base_dir`. Throws SeedError; no store
// exists when it throws.
[[nodiscard]] std::unique_ptr<store::LedgerStore> load_seed(
    const nlohmann::json& document, const std::string& source,
    const std::filesystem::path& base_dir = {});

// Reads, parses and loads the seed file at `path`. Throws SeedError.
[[nodiscard]] std::unique_ptr<store::LedgerStore> load_seed_file(const std::filesystem::path& path);

}  // namespace cantonlite::seed
