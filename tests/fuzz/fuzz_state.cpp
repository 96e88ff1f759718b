// libFuzzer target: the state file reader (docs/state-files.md) on any payload. The fuzzer's
// bytes become a payload under a valid header and checksum (damage the checksum would catch is not
// what this looks for), either as they are or as patches to the default network's own payload:
//   byte 0 = 0: the rest is the payload;
//   byte 0 = 1: the rest is (offset: 3 bytes, byte) patches to the default network's payload;
//   byte 0 = 2: the same, on that payload cut at the first patch's offset.
// A payload either loads, and then saves a file that loads again to the same bytes, or is refused
// with a SeedError of one line; nothing else escapes, nothing crashes.
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <string>

#include <spdlog/spdlog.h>

#include "cantonlite/seed/live_network.hpp"
#include "cantonlite/seed/seed_loader.hpp"
#include "cantonlite/seed/state_file.hpp"
#include "fuzz_targets.hpp"

namespace cantonlite::fuzz::fuzz_state {

namespace {

using cantonlite::seed::LiveNetwork;
using cantonlite::seed::SeedError;

std::string& base_payload() {
    static std::string payload;
    return payload;
}

// `payload` under a header that checks out.
std::string file_of(const std::string& payload) {
    std::string file(cantonlite::seed::state_file_header_size, '\0');
    file += payload;
    cantonlite::seed::seal_state_file(file);
    return file;
}

[[noreturn]] void fail(const std::string& why) {
    std::cerr << why << "\n";
    std::abort();
}

}  // namespace

int initialize() {
    spdlog::set_level(spdlog::level::off);
    const auto network =
        LiveNetwork::load_file(CANTONLITE_SOURCE_DIR "/config/default-network.json");
    base_payload() = network->state().substr(cantonlite::seed::state_file_header_size);
    return 0;
}

int test_one_input(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    const std::string_view rest(reinterpret_cast<const char*>(data) + 1, size - 1);
    std::string payload;
    if (data[0] == 0) {
        payload = std::string(rest);
    } else {
        payload = base_payload();
        for (std::size_t i = 0; i + 4 <= rest.size(); i += 4) {
            const auto at =
                (static_cast<std::size_t>(static_cast<unsigned char>(rest[i])) |
                 static_cast<std::size_t>(static_cast<unsigned char>(rest[i + 1])) << 8 |
                 static_cast<std::size_t>(static_cast<unsigned char>(rest[i + 2])) << 16) %
                payload.size();
            if (data[0] == 2 && i == 0) payload.resize(at + 1);
            payload[at % payload.size()] = rest[i + 3];
        }
    }
    std::unique_ptr<LiveNetwork> loaded;
    try {
        loaded = LiveNetwork::load_state(file_of(payload), "fuzz.state");
    } catch (const SeedError& e) {
        if (std::string(e.what()).find('\n') != std::string::npos)
            fail(std::string("a state error of several lines: ") + e.what());
        return 0;
    }
    const std::string saved = loaded->state();
    try {
        if (LiveNetwork::load_state(saved, "saved.state")->state() != saved)
            fail("a loaded network saves a file that loads to other bytes");
    } catch (const SeedError& e) {
        fail(std::string("a loaded network saves a file that does not load: ") + e.what());
    }
    return 0;
}

}  // namespace cantonlite::fuzz::fuzz_state
