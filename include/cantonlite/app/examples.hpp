#pragma once
// Example requests per operation, derived from what a loaded network holds (`describe`).

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "cantonlite/areas/release.hpp"
#include "cantonlite/store/ledger_store.hpp"

namespace cantonlite::app {

// One request against the daemon, derived from the store, and the status it is expected to get.
struct Example {
    int op = 0;                                  // the operation, 1-13
    std::string method;                          // "GET" or "POST"
    std::string path;                            // full path on the server, parameters encoded
    std::optional<nlohmann::ordered_json> body;  // none: no body
    std::optional<std::string> user;             // the user whose token it needs; none: no token
    int expect_status = 200;
    std::string note;  // what it shows; for a failure, the expected error and missing data
};

// Per operation 1-13, in that order: a request that succeeds when the network has the data for
// it, and, where the operation has one, a request that fails (its note says when a success
// example is missing and why). Reads the whole history; the same store gives the same examples.
// The requests are those `profile`'s release serves: under splice-0.9 op 1 asks update-by-offset
// (transaction-by-offset is disabled) and op 3 Scan's /v2/holdings/state (v0 and v1 are removed).
[[nodiscard]] std::vector<Example> make_examples(const store::LedgerStore& store,
                                                 const areas::ApiProfile& profile = {});

// RFC 3986 percent-encoding of one path segment: everything but unreserved characters
// ("alice::1220ab" -> "alice%3A%3A1220ab").
[[nodiscard]] std::string encode_path_segment(std::string_view text);

}  // namespace cantonlite::app
