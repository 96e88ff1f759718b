#pragma once
// cantonlite fork and dump (docs/fork.md): a state file of the network a Scan serves, from its ACS
// at a snapshot and the updates after it, for `serve --load-state` to serve; or the same, written
// to a folder in Scan's bulk layout to fork from later, offline.

#include <atomic>
#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>

namespace cantonlite::app {

struct ForkSpec {
    std::string scan_url;                 // --scan URL: http[s]://HOST[:PORT][/PATH] of a Scan
    std::string dump_dir;                 // fork --dump DIR (read), dump DIR (written)
    std::string out;                      // --out FILE
    std::optional<std::string> at;        // --at TIME: the latest snapshot at or before it
    std::optional<std::int64_t> updates;  // --updates N: at most N updates after the snapshot
    std::string ca_file;                  // --ca-file FILE: more trust anchors for https
    bool progress = false;                // --progress: a progress line even off a terminal
    bool bulk = true;  // dump: the ACS as Scan's bulk objects where it lists them (not --no-bulk)
    bool how_to_serve = true;  // end with the serve command that serves the file
};

// Runs `cantonlite fork`: fetches from the Scan at spec.scan_url (paged, each request retried on a
// transient failure), or reads the dump in spec.dump_dir (each object's digest checked), and
// writes the state file at spec.out whole, or nothing. `stop` (Ctrl-C)
// ends it early, writing nothing. Reports on `err`: the progress line, retries, the summary, or
// the one request that failed and why. Returns the exit code: 0 written, 1 not.
// `release` (unless null) is set to the release line the source serves ("splice-0.9").
[[nodiscard]] int run_fork(const ForkSpec& spec, std::ostream& err, const std::atomic<bool>& stop,
                           std::string* release = nullptr);

// Runs `cantonlite dump`: fetches as `fork --scan` does, taking the ACS as Scan's bulk objects
// where it serves them, and writes the folder spec.dump_dir (app/scan_dump.hpp) whole, or nothing.
// Returns the exit code: 0 written, 1 not.
[[nodiscard]] int run_dump(const ForkSpec& spec, std::ostream& err, const std::atomic<bool>& stop);

}  // namespace cantonlite::app
