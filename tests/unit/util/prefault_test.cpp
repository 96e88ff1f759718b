#include "cantonlite/util/prefault.hpp"

#include <sys/resource.h>

#include <cstddef>
#include <memory>
#include <string>

#include <gtest/gtest.h>

namespace cantonlite::util {
namespace {

long minor_faults() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_minflt;
}

// Prefaulting keeps what memory holds, at any alignment and size, and makes the writes that
// follow it find their pages: writing 16 MiB after it takes far fewer faults than its 4 096 pages.
TEST(Prefault, KeepsWhatMemoryHoldsAndSparesTheFaultsOfTheWritesAfterIt) {
    std::string held(10'000, 'x');
    for (std::size_t i = 0; i < held.size(); ++i) held[i] = static_cast<char>('a' + i % 26);
    const std::string before = held;
    prefault({held.data() + 3, held.size() - 7});
    prefault({held.data(), 0});
    EXPECT_EQ(held, before);

    constexpr std::size_t size = 16 << 20;
    const std::unique_ptr<char[]> fresh(new char[size]);  // not touched: its pages are not there
    if (!prefault({fresh.get(), size})) GTEST_SKIP() << "the kernel has no MADV_POPULATE_WRITE";
    const long faults = minor_faults();
    for (std::size_t i = 0; i < size; i += 4096) fresh[i] = 1;
    EXPECT_LT(minor_faults() - faults, 64);
}

}  // namespace
}  // namespace cantonlite::util
