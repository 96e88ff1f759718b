// libFuzzer target: the fork builder (docs/fork.md) on any answer a Scan might give. The first
// byte picks where the rest goes:
//   0: an ACS page (/v2/state/acs's answer);
//   1: an update page in both encodings (the same bytes twice), after an empty ACS;
//   2: an update page whose two encodings are the rest cut at its first newline;
//   3: an update page in compact_json alone (Scan's bulk objects);
//   4: Scan's bulk layout: the rest as a zstd object, an object key and an answer whose
//      documents become lines (seed/scan_bulk.hpp), each refused with a BulkError or read.
// Either the builder refuses with a ForkError, or its state file loads and saves the same bytes;
// nothing else escapes, nothing crashes.
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <string>
#include <string_view>

#include <spdlog/spdlog.h>

#include "cantonlite/seed/fork.hpp"
#include "cantonlite/seed/live_network.hpp"
#include "cantonlite/seed/scan_bulk.hpp"
#include "cantonlite/seed/seed_loader.hpp"
#include "fuzz_targets.hpp"

namespace cantonlite::fuzz::fuzz_fork {

namespace {

using cantonlite::seed::ForkBuilder;
using cantonlite::seed::ForkError;

[[noreturn]] void fail(const std::string& why) {
    std::cerr << why << "\n";
    std::abort();
}

constexpr std::string_view empty_acs =
    R"({"record_time":"2025-01-01T12:00:00Z","migration_id":0,"created_events":[]})";

}  // namespace

int initialize() {
    spdlog::set_level(spdlog::level::off);
    return 0;
}

int test_one_input(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    const std::string_view rest(reinterpret_cast<const char*>(data) + 1, size - 1);
    ForkBuilder fork(cantonlite::seed::ForkSource{
        .dso_party = "DSO::1220" + std::string(64, 'd'),
        .synchronizer_id = "global-domain::1220" + std::string(64, 'e'),
        .migration_id = 0,
        .snapshot_time = *cantonlite::model::parse_timestamp("2025-01-01T12:00:00Z")});
    if (data[0] % 5 == 4) {
        namespace seed = cantonlite::seed;
        try {
            const std::string text = seed::zstd_decompress(rest, 1 << 20);
            (void)seed::bulk_lines(text);
        } catch (const seed::BulkError&) {
        }
        (void)seed::parse_bulk_key(rest);
        std::string lines;
        try {
            const seed::BulkPage page = seed::append_bulk_lines(rest, "transactions", lines);
            if (seed::bulk_lines(lines).size() != page.items) fail("a document became two lines");
        } catch (const seed::BulkError&) {
        }
        if (seed::zstd_decompress(seed::zstd_compress_frames(rest, 64), rest.size()) != rest)
            fail("zstd frames do not give the text back");
        return 0;
    }
    std::string state;
    try {
        switch (data[0] % 5) {
            case 0:
                (void)fork.add_acs_page(rest);
                break;
            case 1:
                (void)fork.add_acs_page(empty_acs);
                (void)fork.add_updates_page(rest, rest);
                break;
            case 3:
                (void)fork.add_acs_page(empty_acs);
                (void)fork.add_compact_updates_page(rest);
                break;
            default: {
                const std::size_t cut = std::min(rest.find('\n'), rest.size());
                (void)fork.add_acs_page(empty_acs);
                (void)fork.add_updates_page(rest.substr(0, cut),
                                            rest.substr(std::min(cut + 1, rest.size())));
                break;
            }
        }
        state = fork.finish(true);
    } catch (const ForkError&) {
        return 0;
    } catch (const std::exception& e) {
        fail(std::string("escaped the fork builder: ") + e.what());
    }
    try {
        const auto network = cantonlite::seed::LiveNetwork::load_state(state, "fork.state");
        if (network->state() != state) fail("the fork's state file saves other bytes");
    } catch (const std::exception& e) {
        fail(std::string("the fork's state file does not load: ") + e.what());
    }
    return 0;
}

}  // namespace cantonlite::fuzz::fuzz_fork
