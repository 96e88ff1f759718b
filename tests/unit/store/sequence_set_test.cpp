#include "cantonlite/store/sequence_set.hpp"

#include <cstdint>
#include <set>
#include <vector>

#include <gtest/gtest.h>

namespace cantonlite::store {
namespace sequence_set_test {

std::vector<std::uint32_t> items(const SequenceSet& s) {
    std::vector<std::uint32_t> out;
    s.for_each([&](std::uint32_t x) { out.push_back(x); });
    return out;
}

TEST(SequenceSet, KeepsItsSequencesInOrderWithoutTheErasedOnes) {
    SequenceSet s;
    EXPECT_TRUE(s.empty());
    EXPECT_TRUE(s.insert(5));
    EXPECT_TRUE(s.insert(9));
    EXPECT_TRUE(s.insert(2));  // out of order: an undone erase puts an old one back
    EXPECT_FALSE(s.insert(5));
    EXPECT_EQ(items(s), (std::vector<std::uint32_t>{2, 5, 9}));
    EXPECT_TRUE(s.erase(5));
    EXPECT_FALSE(s.erase(5));
    EXPECT_FALSE(s.erase(7));
    EXPECT_EQ(items(s), (std::vector<std::uint32_t>{2, 9}));
    EXPECT_EQ(s.size(), 2U);
    EXPECT_TRUE(s.insert(5));  // back where it was
    EXPECT_EQ(items(s), (std::vector<std::uint32_t>{2, 5, 9}));
    EXPECT_EQ(s.size(), 3U);
}

// A holder that spends its oldest amulet and receives a new one, many times: the set stays what
// a std::set says, and erased entries are swept out rather than kept.
TEST(SequenceSet, SpendingTheOldestAndReceivingNewOnesSweepsTheErased) {
    SequenceSet s;
    std::set<std::uint32_t> model;
    std::uint32_t next = 0;
    for (; next < 1000; ++next) {
        s.insert(next);
        model.insert(next);
    }
    for (int i = 0; i < 2500; ++i) {  // 1 000 + 1 666 received, 2 500 spent
        const std::uint32_t oldest = *model.begin();
        EXPECT_TRUE(s.erase(oldest));
        model.erase(model.begin());
        if (i % 3 != 0) {
            s.insert(next);
            model.insert(next++);
        }
    }
    EXPECT_EQ(items(s), std::vector<std::uint32_t>(model.begin(), model.end()));
    EXPECT_EQ(s.size(), model.size());
    EXPECT_LE(s.capacity_used(), 2 * model.size() + 1);
    while (!model.empty()) {
        EXPECT_TRUE(s.erase(*model.begin()));
        model.erase(model.begin());
    }
    EXPECT_TRUE(s.empty());
    EXPECT_TRUE(items(s).empty());
}

}  // namespace sequence_set_test
}  // namespace cantonlite::store
