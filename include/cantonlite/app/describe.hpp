#pragma once
// `cantonlite describe`: what a loaded network holds, and requests per operation that show it.

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "cantonlite/app/examples.hpp"
#include "cantonlite/areas/release.hpp"
#include "cantonlite/store/ledger_store.hpp"

namespace cantonlite::app {

// The --json form. Fixed keys first, in this order: "dso_party", "ledger_end", "users": [{"id",
// "party", "wallet"}], "examples": [{"op", "method", "path", "body" (object or null), "user"
// (string or null), "expect_status", "note"}]; then "ledger_time", "migration_id", "svs",
// "migrations": [{"migration_id", "offset", "record_time", "imported_contracts"}], "snapshots":
// [{"migration_id", "record_time", "holdings"}], "counts": {template: active contracts},
// "release": {"name", "canton", "splice", "deprecated_apis_enabled"} (the release `profile`
// serves). The same store gives the same document.
[[nodiscard]] nlohmann::ordered_json describe_json(const store::LedgerStore& store,
                                                   const areas::ApiProfile& profile = {});

// How the text form reaches the daemon and makes tokens.
struct TextOptions {
    std::uint16_t port = 7575;  // of the config: curl lines go to http://127.0.0.1:<port>
    // Shell words after `cantonlite token --user <u>` that load the same network
    // ("--seed 'my seed.json'"), already quoted; empty when the defaults do.
    std::string token_flags;
    areas::ApiProfile profile;  // the release served
    // Where the network came from: "built-in default network", a seed's or a state file's path
    // ("" for none said).
    std::string source;
};

// The text form: a summary for humans, then per example a comment and a ready-to-run curl line.
[[nodiscard]] std::string describe_text(const store::LedgerStore& store,
                                        const TextOptions& options);

// `text` quoted for a POSIX shell when it needs it ('it'\''s'); unchanged when it does not.
[[nodiscard]] std::string shell_quote(const std::string& text);

}  // namespace cantonlite::app
