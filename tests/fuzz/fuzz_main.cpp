// libFuzzer's entry points for cantonlite_fuzz, the one executable of every fuzz target
// (fuzz_targets.hpp): the target is the one its link's name gives, cantonlite_fuzz_<name>.
#include <array>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <string_view>

#include "fuzz_targets.hpp"

namespace cantonlite::fuzz {
namespace {

struct Target {
    std::string_view name;
    int (*initialize)();
    int (*test_one_input)(const std::uint8_t* data, std::size_t size);
};

#define CANTONLITE_FUZZ_ENTRY(name) \
    Target{#name, fuzz_##name::initialize, fuzz_##name::test_one_input},
constexpr std::array targets{CANTONLITE_FUZZ_TARGETS(CANTONLITE_FUZZ_ENTRY)};
#undef CANTONLITE_FUZZ_ENTRY

const Target* chosen = nullptr;

// The target that the executable's name (argv[0]) gives, or the process ends with the names.
const Target& target_named_by(std::string_view self) {
    constexpr std::string_view prefix = "cantonlite_fuzz_";
    const std::string_view file = self.substr(self.find_last_of('/') + 1);
    if (file.starts_with(prefix)) {
        for (const Target& t : targets)
            if (file.substr(prefix.size()) == t.name) return t;
    }
    std::cerr << self << ": run a fuzz target through its link, cantonlite_fuzz_<target>, one of:";
    for (const Target& t : targets) std::cerr << " " << t.name;
    std::cerr << "\n";
    std::exit(2);
}

}  // namespace
}  // namespace cantonlite::fuzz

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) {
    using namespace cantonlite::fuzz;
    chosen = &target_named_by(*argc > 0 ? (*argv)[0] : "");
    return chosen->initialize();
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return cantonlite::fuzz::chosen->test_one_input(data, size);
}
