#include "cantonlite/util/prefault.hpp"

#include <sys/mman.h>
#include <sys/resource.h>

#include <cstddef>
#include <string>

#include <gtest/gtest.h>

namespace cantonlite::util {
namespace {

long minor_faults() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_minflt;
}

// Faults taken by writing a byte to each page of `memory`.
long faults_writing(char* memory, std::size_t size) {
    const long before = minor_faults();
    for (std::size_t i = 0; i < size; i += 4096) memory[i] = 1;
    return minor_faults() - before;
}

// Prefaulting keeps what memory holds, at any alignment and size, and spares the writes that
// follow it their faults: writing 16 MiB after it takes under half the faults of writing 16 MiB
// of fresh memory (none against 4 096 here; under ASan, each also faults its shadow's 512 pages).
TEST(Prefault, KeepsWhatMemoryHoldsAndSparesTheFaultsOfTheWritesAfterIt) {
    std::string held(10'000, 'x');
    for (std::size_t i = 0; i < held.size(); ++i) held[i] = static_cast<char>('a' + i % 26);
    const std::string before = held;
    prefault({held.data() + 3, held.size() - 7});
    prefault({held.data(), 0});
    EXPECT_EQ(held, before);

    // Fresh pages of their own (not a heap's, which may hold pages touched before).
    constexpr std::size_t size = 16 << 20;
    const auto fresh_pages = [] {
        void* p = ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        return p == MAP_FAILED ? nullptr : static_cast<char*>(p);
    };
    char* const prefaulted = fresh_pages();
    char* const fresh = fresh_pages();
    ASSERT_NE(prefaulted, nullptr);
    ASSERT_NE(fresh, nullptr);
    const bool done = prefault({prefaulted, size});
    const long after_prefault = faults_writing(prefaulted, size);
    const long unprepared = faults_writing(fresh, size);
    ::munmap(prefaulted, size);
    ::munmap(fresh, size);
    if (!done) GTEST_SKIP() << "the kernel has no MADV_POPULATE_WRITE";
    EXPECT_GE(unprepared, 4000);
    EXPECT_LT(2 * after_prefault, unprepared);
}

}  // namespace
}  // namespace cantonlite::util
