#include "cantonlite/model/name.hpp"

#include "cantonlite/model/name_set.hpp"
#include "cantonlite/model/template_id.hpp"

#include <algorithm>
#include <atomic>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

namespace cantonlite::model::name_test {
namespace {

TEST(Name, TheSameTextIsTheSameName) {
    const Name a("alice::1220aa");
    const Name b(std::string("alice::") + "1220aa");
    EXPECT_EQ(a, b);
    EXPECT_EQ(a.id(), b.id());
    EXPECT_EQ(a.view(), "alice::1220aa");
    EXPECT_EQ(a, std::string_view("alice::1220aa"));
    EXPECT_NE(a, Name("alice::1220ab"));
}

TEST(Name, TheEmptyTextIsTheDefaultName) {
    EXPECT_EQ(Name(""), Name());
    EXPECT_TRUE(Name().empty());
    EXPECT_EQ(Name().view(), "");
    EXPECT_FALSE(Name("x").empty());
}

TEST(Name, FindDoesNotIntern) {
    const std::string text = "name-test-never-interned-before";
    EXPECT_FALSE(Name::find(text).has_value());
    const Name n(text);
    EXPECT_EQ(Name::find(text), n);
    EXPECT_EQ(Name::find(""), Name());
}

// Texts of one length that share their first and last 8 bytes (a thread's cache of recent Names
// files them in one slot) are still each their own Name, found and interned again as such.
TEST(Name, TextsAlikeAtBothEndsAreEachTheirOwnName) {
    const std::vector<std::string> texts = {"name-tes-1-alike-at-ends", "name-tes-2-alike-at-ends",
                                            "name-tes-3-alike-at-ends"};
    std::vector<Name> names;
    for (const std::string& t : texts) names.emplace_back(t);
    for (int round = 0; round < 2; ++round) {
        for (std::size_t i = 0; i < texts.size(); ++i) {
            EXPECT_EQ(Name(texts[i]), names[i]) << texts[i];
            EXPECT_EQ(Name::find(texts[i]), names[i]) << texts[i];
            EXPECT_EQ(names[i].view(), texts[i]);
        }
    }
    EXPECT_NE(names[0], names[1]);
    EXPECT_NE(names[1], names[2]);
    EXPECT_FALSE(Name::find("name-tes-4-alike-at-ends").has_value());
}

TEST(Name, SortsByText) {
    std::vector<Name> names{Name("zeta::1"), Name("alpha::1"), Name("Mu::1"), Name("alpha::0")};
    std::sort(names.begin(), names.end());
    EXPECT_EQ(texts(names), (std::vector<std::string>{"Mu::1", "alpha::0", "alpha::1", "zeta::1"}));
}

TEST(Name, KeepsLongTextsAndEmbeddedZeros) {
    const std::string long_text(3 << 20, 'q');
    EXPECT_EQ(Name(long_text).view(), long_text);
    const std::string with_zero("a\0b", 3);
    EXPECT_EQ(Name(with_zero).view(), with_zero);
    EXPECT_NE(Name(with_zero), Name("a"));
}

// Each text keeps its exact length, on either side of the sizes where its stored length needs
// another byte, and where it gets an arena block of its own.
TEST(Name, KeepsEveryLengthExactly) {
    for (const std::size_t size : {1, 2, 126, 127, 128, 129, 16383, 16384, 16385, 65535, 65536,
                                   (1 << 18) - 1, 1 << 18, (1 << 18) + 1}) {
        std::string text(size, 'x');
        text.front() = 'L';
        text.back() = static_cast<char>('0' + size % 10);
        const Name name(text);
        ASSERT_EQ(name.view(), text) << size;
        ASSERT_EQ(Name::find(text), name) << size;
        ASSERT_FALSE(Name::find(text.substr(0, size - 1) + "?").has_value()) << size;
    }
}

// The table grows many times over: every text is still found, under the number it first got.
TEST(Name, ManyNamesAreAllFoundAgain) {
    std::vector<Name> names;
    for (int i = 0; i < 50'000; ++i) names.emplace_back("growth-" + std::to_string(i));
    for (int i = 0; i < 50'000; ++i) {
        const std::string text = "growth-" + std::to_string(i);
        ASSERT_EQ(Name::find(text), names[static_cast<std::size_t>(i)]) << text;
        ASSERT_EQ(names[static_cast<std::size_t>(i)].view(), text);
    }
    EXPECT_FALSE(Name::find("growth-50000").has_value());
}

// Once the tables replaced by growth are freed (at start-up, after the seed), every Name and
// NameSet is found as before, and new ones are interned as before.
TEST(Name, InterningManyAtOnceGivesEachTheNameItHasAlone) {
    // Old and new texts, repeats, the empty text, long ones, across many batches of the bulk
    // path (as many as a state file's table of 100 000 amulets).
    std::vector<std::string> owned;
    for (int i = 0; i < 100'000; ++i) owned.push_back("bulk-" + std::to_string(i % 70'000));
    owned.emplace_back(300'000, 'L');  // a block of its own
    owned.emplace_back(300'000, 'L');
    owned.emplace_back();
    owned.emplace_back("already");
    const Name before("already");
    std::vector<std::string_view> texts(owned.begin(), owned.end());
    std::vector<Name> names(texts.size());

    Name::intern_all(texts, names.data());

    for (std::size_t i = 0; i < texts.size(); ++i) {
        ASSERT_EQ(names[i], Name(texts[i])) << i;
        ASSERT_EQ(names[i].view(), texts[i]) << i;
        ASSERT_EQ(Name::find(texts[i]), names[i]) << i;
    }
    EXPECT_EQ(names[5], names[70'005]);
    EXPECT_EQ(names[100'000], names[100'001]);
    EXPECT_TRUE(names[texts.size() - 2].empty());
    EXPECT_EQ(names.back(), before);
}

// Texts hashed ahead (as a state file's are, on another thread) are interned as they would be
// unhashed: old, new, repeated and empty ones; a count of hashes that is not one a text is refused.
TEST(Name, InterningManyHashedAheadGivesEachTheNameItHasAlone) {
    std::vector<std::string> owned;
    for (int i = 0; i < 5'000; ++i) owned.push_back("hashed-" + std::to_string(i % 3'000));
    owned.emplace_back();
    owned.emplace_back("already hashed");
    const Name before("already hashed");
    std::vector<std::string_view> texts(owned.begin(), owned.end());
    std::vector<std::uint32_t> hashes;
    for (const std::string_view text : texts) hashes.push_back(Name::hash_of(text));
    std::vector<Name> names(texts.size());

    Name::intern_all(texts, names.data(), hashes);

    for (std::size_t i = 0; i < texts.size(); ++i) {
        ASSERT_EQ(names[i].view(), texts[i]) << i;
        ASSERT_EQ(Name::find(texts[i]), names[i]) << i;
    }
    EXPECT_EQ(names[7], names[3'007]);
    EXPECT_TRUE(names[texts.size() - 2].empty());
    EXPECT_EQ(names.back(), before);
    hashes.pop_back();
    EXPECT_THROW(Name::intern_all(texts, names.data(), hashes), std::invalid_argument);
}

// One thread interns very many at once while another interns the same texts one by one and a
// third looks them up: all agree on every Name.
TEST(Name, ConcurrentInterningOfVeryManyAtOnceAgrees) {
    constexpr int count = 60'000;
    std::vector<std::string> owned;
    for (int i = 0; i < count; ++i) owned.push_back("together-" + std::to_string(i));
    const std::vector<std::string_view> texts(owned.begin(), owned.end());
    std::vector<Name> at_once(texts.size());
    std::vector<Name> one_by_one(texts.size());
    std::atomic<bool> done{false};
    std::thread bulk([&] { Name::intern_all(texts, at_once.data()); });
    std::thread single([&] {
        for (int i = count - 1; i >= 0; --i) one_by_one[i] = Name(texts[i]);
    });
    std::thread reader([&] {
        while (!done.load()) {
            for (int i = 0; i < count; i += 997) {
                if (const auto found = Name::find(texts[i]); found && found->view() != texts[i])
                    std::abort();
            }
        }
    });
    bulk.join();
    single.join();
    done = true;
    reader.join();
    EXPECT_EQ(at_once, one_by_one);
}

TEST(Name, ReleasingRetiredTablesKeepsEveryName) {
    std::vector<Name> names;
    std::vector<NameSet> sets;
    for (int i = 0; i < 20'000; ++i) {
        names.emplace_back("retired-" + std::to_string(i));
        sets.emplace_back(std::vector<Name>{names.front(), names.back()});
    }
    Name::release_retired_tables();
    for (int i = 0; i < 20'000; ++i) {
        const std::string text = "retired-" + std::to_string(i);
        ASSERT_EQ(Name::find(text), names[static_cast<std::size_t>(i)]) << text;
        ASSERT_EQ(NameSet(std::vector<Name>{names.front(), names[static_cast<std::size_t>(i)]}),
                  sets[static_cast<std::size_t>(i)]);
    }
    for (int i = 0; i < 20'000; ++i) names.emplace_back("after-" + std::to_string(i));
    EXPECT_EQ(Name::find("after-19999"), names.back());
    EXPECT_EQ(names.back().view(), "after-19999");
}

// Threads interning overlapping texts agree on every Name, and reading needs no lock.
TEST(Name, ConcurrentInterningAgrees) {
    constexpr int per_thread = 20000;
    std::vector<std::vector<Name>> seen(4);
    std::vector<std::thread> threads;
    for (std::size_t t = 0; t < seen.size(); ++t) {
        threads.emplace_back([&, t] {
            for (int i = 0; i < per_thread; ++i) {
                const Name n("concurrent-" + std::to_string(i));
                if (n.view() != "concurrent-" + std::to_string(i)) std::abort();
                seen[t].push_back(n);
            }
        });
    }
    for (auto& th : threads) th.join();
    for (std::size_t t = 1; t < seen.size(); ++t) EXPECT_EQ(seen[t], seen[0]);
    EXPECT_EQ(std::set<Name>(seen[0].begin(), seen[0].end()).size(),
              static_cast<std::size_t>(per_thread));
}

std::vector<Name> names_of(std::initializer_list<std::string_view> texts) {
    std::vector<Name> out;
    for (const std::string_view t : texts) out.emplace_back(t);
    return out;
}

TEST(NameSet, TheSameSequenceIsTheSameSet) {
    const NameSet a(names_of({"alice::1220aa", "bob::1220bb"}));
    const NameSet b(names_of({"alice::1220aa", "bob::1220bb"}));
    EXPECT_EQ(a, b);
    EXPECT_EQ(a.id(), b.id());
    EXPECT_EQ(a.to_vector(), names_of({"alice::1220aa", "bob::1220bb"}));
    EXPECT_EQ(a.size(), 2U);
    EXPECT_EQ(a[1], "bob::1220bb");
    EXPECT_EQ(a.front(), "alice::1220aa");
}

// Sets longer than one byte of stored length, and one past an arena block's quarter.
TEST(NameSet, KeepsLargeSetsExactly) {
    for (const std::size_t size : {127, 128, 129, 70000}) {
        std::vector<Name> members;
        for (std::size_t i = 0; i < size; ++i)
            members.emplace_back("large-set-" + std::to_string(size) + "-" + std::to_string(i));
        const NameSet set(members);
        ASSERT_EQ(set.size(), size);
        ASSERT_EQ(set.to_vector(), members);
        ASSERT_EQ(NameSet(members), set);
        members.pop_back();
        ASSERT_FALSE(NameSet(members) == set);
    }
}

TEST(TemplateRef, GivesBackTheTemplateIdItRefersTo) {
    const TemplateId amulet{
        .package_id = Name("3ca1343ab26b453d38c8adb70dca5f1ead8440c42b59b68f070786955cbf9ec1"),
        .module_name = Name("Splice.Amulet"),
        .entity_name = Name("Amulet"),
        .package_name = Name("splice-amulet")};
    TemplateId other = amulet;
    other.entity_name = Name("LockedAmulet");
    static_assert(sizeof(TemplateRef) == 4);
    EXPECT_EQ(TemplateRef(amulet).get(), amulet);
    EXPECT_EQ(TemplateRef(other).get(), other);
    EXPECT_EQ(TemplateRef(amulet), TemplateRef(amulet));
    EXPECT_FALSE(TemplateRef(amulet) == TemplateRef(other));
    EXPECT_EQ(TemplateRef().get(), TemplateId());
    EXPECT_EQ(TemplateRef(TemplateId()).get(), TemplateId());
}

TEST(NameSet, KeepsTheOrderGiven) {
    const NameSet ab(names_of({"a-order", "b-order"}));
    const NameSet ba(names_of({"b-order", "a-order"}));
    EXPECT_FALSE(ab == ba);
    EXPECT_EQ(ba.to_vector(), names_of({"b-order", "a-order"}));
}

TEST(NameSet, SortedSortsByTextAndDropsRepeats) {
    const std::vector<std::string> texts{"zed::1", "amy::2", "zed::1", "max::3"};
    const NameSet s = NameSet::sorted(texts);
    EXPECT_EQ(s.to_vector(), names_of({"amy::2", "max::3", "zed::1"}));
    EXPECT_TRUE(s.contains(Name("max::3")));
    EXPECT_FALSE(s.contains(Name("bob::4")));
    EXPECT_EQ(NameSet::sorted(s), s);
}

TEST(NameSet, TheEmptySequenceIsTheDefaultSet) {
    const NameSet none(std::vector<Name>{});
    EXPECT_EQ(none, NameSet());
    EXPECT_TRUE(none.empty());
    EXPECT_EQ(none.size(), 0U);
    EXPECT_EQ(none.begin(), none.end());
    EXPECT_FALSE(NameSet(names_of({"x-one"})).empty());
}

TEST(NameSet, ConcurrentInterningAgrees) {
    constexpr int per_thread = 5000;
    std::vector<std::vector<NameSet>> seen(4);
    std::vector<std::thread> threads;
    for (std::size_t t = 0; t < seen.size(); ++t) {
        threads.emplace_back([&, t] {
            for (int i = 0; i < per_thread; ++i) {
                const std::vector<Name> names{Name("set-dso"), Name("set-" + std::to_string(i))};
                const NameSet s(names);
                if (s.to_vector() != names) std::abort();
                seen[t].push_back(s);
            }
        });
    }
    for (auto& th : threads) th.join();
    for (std::size_t t = 1; t < seen.size(); ++t) EXPECT_EQ(seen[t], seen[0]);
}

}  // namespace
}  // namespace cantonlite::model::name_test
