// libFuzzer target: the seed loader and step compiler on any document. A seed either loads or is
// refused with a SeedError (one line naming where); nothing else escapes, nothing crashes.
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <string>

#include <spdlog/spdlog.h>
#include <nlohmann/json.hpp>

#include "cantonlite/seed/seed_loader.hpp"
#include "fuzz_targets.hpp"

namespace cantonlite::fuzz::fuzz_seed {

int initialize() {
    spdlog::set_level(spdlog::level::off);
    return 0;
}

int test_one_input(const std::uint8_t* data, std::size_t size) {
    const nlohmann::json document = nlohmann::json::parse(
        std::string_view(reinterpret_cast<const char*>(data), size), nullptr, false);
    if (document.is_discarded()) return 0;
    try {
        (void)cantonlite::seed::load_seed(document, "fuzz-seed");
    } catch (const cantonlite::seed::SeedError& e) {
        if (std::string(e.what()).find('\n') != std::string::npos) {
            std::cerr << "a seed error of several lines: " << e.what() << "\n";
            std::abort();
        }
    }
    return 0;
}

}  // namespace cantonlite::fuzz::fuzz_seed
