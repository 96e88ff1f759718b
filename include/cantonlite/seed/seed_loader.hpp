#pragma once
// Loading a seed file (the network and its history, docs/seed-format.md) into a LedgerStore.

#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

#include "cantonlite/store/ledger_store.hpp"

namespace cantonlite::seed {

// The seed cannot be loaded. what() is one line: "<file>: <JSON pointer>: <problem>".
class SeedError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

// Builds the store described by a parsed seed document. `source` names the document in errors.
// Throws SeedError; no store exists when it throws.
[[nodiscard]] std::unique_ptr<store::LedgerStore> load_seed(const nlohmann::json& document,
                                                            const std::string& source);

// Reads, parses and loads the seed file at `path`. Throws SeedError.
[[nodiscard]] std::unique_ptr<store::LedgerStore> load_seed_file(const std::filesystem::path& path);

}  // namespace cantonlite::seed
