#pragma once
// The fuzz targets (tests/fuzz/fuzz_<name>.cpp) are one executable, cantonlite_fuzz, compiled as
// one translation unit: their headers and the templates they instantiate are compiled once, not
// once a target (docs/build.md). Each target is a link to it, cantonlite_fuzz_<name>, and
// libFuzzer's entry points (fuzz_main.cpp) run the target that argv[0] names.
#include <cstddef>
#include <cstdint>

namespace cantonlite::fuzz {

// Each target's two entry points: `initialize` once, before the first input; `test_one_input` on
// each input (libFuzzer's LLVMFuzzerInitialize and LLVMFuzzerTestOneInput).
namespace fuzz_router {
int initialize();
int test_one_input(const std::uint8_t* data, std::size_t size);
}  // namespace fuzz_router
namespace fuzz_parsers {
int initialize();
int test_one_input(const std::uint8_t* data, std::size_t size);
}  // namespace fuzz_parsers
namespace fuzz_jwt {
int initialize();
int test_one_input(const std::uint8_t* data, std::size_t size);
}  // namespace fuzz_jwt
namespace fuzz_seed {
int initialize();
int test_one_input(const std::uint8_t* data, std::size_t size);
}  // namespace fuzz_seed
namespace fuzz_execute {
int initialize();
int test_one_input(const std::uint8_t* data, std::size_t size);
}  // namespace fuzz_execute
namespace fuzz_state {
int initialize();
int test_one_input(const std::uint8_t* data, std::size_t size);
}  // namespace fuzz_state
namespace fuzz_fork {
int initialize();
int test_one_input(const std::uint8_t* data, std::size_t size);
}  // namespace fuzz_fork

}  // namespace cantonlite::fuzz
