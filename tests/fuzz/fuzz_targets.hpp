#pragma once
// The fuzz targets (tests/fuzz/fuzz_<name>.cpp) are one executable, cantonlite_fuzz, compiled as
// one translation unit: their headers and the templates they instantiate are compiled once, not
// once a target (docs/build.md). Each target is a link to it, cantonlite_fuzz_<name>, and
// libFuzzer's entry points (fuzz_main.cpp) run the target that argv[0] names.
#include <cstddef>
#include <cstdint>

namespace cantonlite::fuzz {

// The targets, by name. Each target's two entry points live in cantonlite::fuzz::fuzz_<name>:
// `initialize` once, before the first input; `test_one_input` on each input (libFuzzer's
// LLVMFuzzerInitialize and LLVMFuzzerTestOneInput). fuzz_main.cpp's table is made from this list.
#define CANTONLITE_FUZZ_TARGETS(X) X(router) X(parsers) X(jwt) X(seed) X(execute) X(state) X(fork)

#define CANTONLITE_FUZZ_DECLARE(name)                                   \
    namespace fuzz_##name {                                             \
        int initialize();                                               \
        int test_one_input(const std::uint8_t* data, std::size_t size); \
    }
CANTONLITE_FUZZ_TARGETS(CANTONLITE_FUZZ_DECLARE)
#undef CANTONLITE_FUZZ_DECLARE

}  // namespace cantonlite::fuzz
