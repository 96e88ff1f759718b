// PositionIndex: positions of a sequence found by the key their element holds, as the store finds
// an update by its id and a contract by its id; with the rehashes of a growing index, erasures in
// undo order and a key absent from the sequence.
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include "cantonlite/store/position_index.hpp"

namespace cantonlite::store::position_index_test {
namespace {

using Rows = std::vector<std::string>;

struct IdOf {
    std::string_view operator()(const Rows* rows, std::uint32_t i) const { return (*rows)[i]; }
};
using Index = PositionIndex<std::string_view, IdOf, Rows, std::hash<std::string_view>>;

std::string id(int i) {
    return "update-" + std::to_string(i * 7919);
}

TEST(PositionIndex, FindsEachElementByItsKeyThroughRehashes) {
    Rows rows;
    Index index(&rows);
    for (int i = 0; i < 10000; ++i) {
        rows.push_back(id(i));
        EXPECT_TRUE(index.insert(static_cast<std::uint32_t>(i)));
    }
    EXPECT_EQ(index.size(), 10000U);
    for (int i = 0; i < 10000; ++i) EXPECT_EQ(index.find(id(i)), std::optional<std::uint32_t>(i));
    EXPECT_EQ(index.find("update-1"), std::nullopt);
    EXPECT_EQ(index.find(""), std::nullopt);
}

// Two sequences exchange their elements, and their indexes their positions: each index then
// finds its own sequence's new elements, and goes on growing over it.
TEST(PositionIndex, SwappedWithItsSequenceFindsTheOtherSequencesElements) {
    Rows a{"a0", "a1", "a2"};
    Rows b{"b0", "b1"};
    Index ia(&a);
    Index ib(&b);
    for (std::uint32_t i = 0; i < a.size(); ++i) ia.insert(i);
    for (std::uint32_t i = 0; i < b.size(); ++i) ib.insert(i);

    a.swap(b);
    ia.swap(ib);

    EXPECT_EQ(ia.find("b1"), std::optional<std::uint32_t>(1));
    EXPECT_EQ(ia.find("a1"), std::nullopt);
    EXPECT_EQ(ib.find("a2"), std::optional<std::uint32_t>(2));
    for (int i = 0; i < 1000; ++i) {  // rehashes read the rows through the swapped index
        a.push_back(id(i));
        EXPECT_TRUE(ia.insert(static_cast<std::uint32_t>(a.size() - 1)));
    }
    EXPECT_EQ(ia.find("b0"), std::optional<std::uint32_t>(0));
    EXPECT_EQ(ia.find(id(999)), std::optional<std::uint32_t>(1001));
    EXPECT_EQ(ib.find("a0"), std::optional<std::uint32_t>(0));
    EXPECT_EQ(ib.size(), 3U);
}

TEST(PositionIndex, RefusesASecondElementWithTheSameKey) {
    Rows rows{"a", "b", "a"};
    Index index(&rows);
    EXPECT_TRUE(index.insert(0));
    EXPECT_TRUE(index.insert(1));
    EXPECT_FALSE(index.insert(2));
    EXPECT_EQ(index.find("a"), std::optional<std::uint32_t>(0));
    EXPECT_EQ(index.size(), 2U);
}

TEST(PositionIndex, ErasingTheNewestElementsBeforeRemovingThemUndoesTheirInsertion) {
    Rows rows;
    Index index(&rows);
    for (int i = 0; i < 100; ++i) {
        rows.push_back(id(i));
        index.insert(static_cast<std::uint32_t>(i));
    }
    for (int i = 99; i >= 60; --i) {  // as the undo log rolls back: index first, then the row
        index.erase(static_cast<std::uint32_t>(i));
        rows.pop_back();
    }
    EXPECT_EQ(index.size(), 60U);
    EXPECT_EQ(index.find(id(59)), std::optional<std::uint32_t>(59));
    EXPECT_EQ(index.find(id(60)), std::nullopt);
    rows.push_back("again");  // a new element at a freed position
    EXPECT_TRUE(index.insert(60));
    EXPECT_EQ(index.find("again"), std::optional<std::uint32_t>(60));
    EXPECT_EQ(index.find(id(60)), std::nullopt);
}

// Without kept hashes (a key cheap to read again), each slot is the position alone: found through
// rehashes, swapped, and erased in undo order all the same.
TEST(PositionIndex, WithoutKeptHashesFindsSwapsAndErasesAlike) {
    using Bare = PositionIndex<std::string_view, IdOf, Rows, std::hash<std::string_view>, false>;
    Rows rows;
    Rows other{"o0"};
    Bare index(&rows);
    Bare other_index(&other);
    EXPECT_TRUE(other_index.insert(0));
    for (int i = 0; i < 5000; ++i) {
        rows.push_back(id(i));
        EXPECT_TRUE(index.insert(static_cast<std::uint32_t>(i)));
    }
    rows.push_back(id(7));
    EXPECT_FALSE(index.insert(5000)) << "the same key twice";
    rows.pop_back();
    for (int i = 0; i < 5000; i += 37)
        EXPECT_EQ(index.find(id(i)), std::optional<std::uint32_t>(i));
    for (int i = 4999; i >= 4000; --i) {
        index.erase(static_cast<std::uint32_t>(i));
        rows.pop_back();
    }
    EXPECT_EQ(index.find(id(4000)), std::nullopt);
    EXPECT_EQ(index.find(id(3999)), std::optional<std::uint32_t>(3999));
    rows.swap(other);
    index.swap(other_index);
    EXPECT_EQ(index.find("o0"), std::optional<std::uint32_t>(0));
    EXPECT_EQ(other_index.find(id(12)), std::optional<std::uint32_t>(12));
    EXPECT_EQ(other_index.size(), 4000U);
}

// Deriving a key can be costly (an update id is a SHA-256 of its update, or its kept text parsed):
// the index reads each element's key once as it is inserted, not again at each rehash, and reads
// another's key only to tell two of one hash apart.
long key_reads = 0;
struct CountedIdOf {
    std::string_view operator()(const Rows* rows, std::uint32_t i) const {
        ++key_reads;
        return (*rows)[i];
    }
};

TEST(PositionIndex, ReadsEachKeyOnceThroughItsRehashes) {
    using Counted = CountedIdOf;
    key_reads = 0;
    Rows rows;
    PositionIndex<std::string_view, Counted, Rows, std::hash<std::string_view>> index(&rows);
    constexpr int n = 100000;  // about 17 rehashes
    for (int i = 0; i < n; ++i) {
        rows.push_back(id(i));
        ASSERT_TRUE(index.insert(static_cast<std::uint32_t>(i)));
    }
    EXPECT_LT(key_reads, n + n / 20) << "keys read again at the rehashes";
    for (int i = 0; i < n; i += 997) EXPECT_EQ(index.find(id(i)), std::optional<std::uint32_t>(i));
    EXPECT_EQ(index.find("update-1"), std::nullopt);
}

// Hashes the caller computed from what it had at hand (the store, each update's id from its
// namespace and offset): inserted with them, the index reads no key unless two hashes agree, and
// finds and refuses as before.
TEST(PositionIndex, InsertedWithHashesGivenReadsNoKey) {
    using Counted = PositionIndex<std::string_view, CountedIdOf, Rows, std::hash<std::string_view>>;
    Rows rows;
    std::vector<std::uint32_t> hashes;
    constexpr int n = 20000;
    for (int i = 0; i < n; ++i) {
        rows.push_back(id(i));
        hashes.push_back(Counted::hash_of(rows.back()));
    }
    rows.push_back(id(5));  // a key there twice
    hashes.push_back(Counted::hash_of(rows.back()));
    Counted index(&rows);
    index.reserve(rows.size());
    key_reads = 0;
    for (int i = 0; i < n; ++i) ASSERT_TRUE(index.insert(static_cast<std::uint32_t>(i), hashes[i]));
    EXPECT_LT(key_reads, 10);  // keys compared only where two 32-bit hashes agree
    EXPECT_FALSE(index.insert(n, hashes[n]));
    for (int i = 0; i < n; i += 97) EXPECT_EQ(index.find(id(i)), std::optional<std::uint32_t>(i));
    EXPECT_EQ(index.find("update-1"), std::nullopt);
}

}  // namespace
}  // namespace cantonlite::store::position_index_test
