#include "cantonlite/util/huge_pages.hpp"

#include <cstddef>
#include <cstdint>
#include <utility>

#include <gtest/gtest.h>

namespace cantonlite::util {
namespace {

bool all_zero(const ZeroedArray<std::uint32_t>& a, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) {
        if (a[i] != 0) return false;
    }
    return true;
}

// Small and large arrays start zeroed and hold what is written; a large one starts on a huge
// page's boundary; a moved array keeps its items and the moved-from one holds none.
TEST(ZeroedArray, StartsZeroedHoldsItsItemsAndMoves) {
    constexpr std::size_t small = 1000;
    constexpr std::size_t large = 3 * huge_page_bytes / sizeof(std::uint32_t) + 17;
    ZeroedArray<std::uint32_t> a(small);
    ZeroedArray<std::uint32_t> b(large);
    EXPECT_TRUE(all_zero(a, small));
    EXPECT_TRUE(all_zero(b, large));
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(b.data()) % huge_page_bytes, 0U);

    a[small - 1] = 7;
    b[0] = 1;
    b[large - 1] = 2;
    ZeroedArray<std::uint32_t> c(std::move(b));
    EXPECT_EQ(b.data(), nullptr);  // NOLINT(bugprone-use-after-move): the moved-from state
    EXPECT_EQ(c[0], 1U);
    EXPECT_EQ(c[large - 1], 2U);
    a = std::move(c);
    EXPECT_EQ(a[large - 1], 2U);
    EXPECT_EQ(a[1], 0U);
}

}  // namespace
}  // namespace cantonlite::util
