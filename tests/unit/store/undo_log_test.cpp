#include "cantonlite/store/undo_log.hpp"

#include <map>
#include <memory>
#include <string>

#include <gtest/gtest.h>
#include <boost/unordered/unordered_flat_map.hpp>

namespace cantonlite::store {
namespace {

// assign() sets a new key and an existing one (its new value taken whole, moved in or not); a
// rollback erases the new key and gives the existing one its old value back.
template <class Map>
void assigns_and_rolls_back() {
    Map map;
    map.emplace("kept", std::make_unique<int>(1));
    UndoLog undo;
    undo.set_recording(true);
    const UndoLog::Mark mark = undo.mark();

    undo.assign(map, std::string("new"), std::make_unique<int>(2));
    undo.assign(map, std::string("kept"), std::make_unique<int>(3));
    ASSERT_EQ(map.size(), 2U);
    ASSERT_NE(map.find("kept")->second, nullptr);
    EXPECT_EQ(*map.find("kept")->second, 3);
    EXPECT_EQ(*map.find("new")->second, 2);

    undo.rollback(mark);
    EXPECT_EQ(map.size(), 1U);
    EXPECT_EQ(map.count("new"), 0U);
    EXPECT_EQ(*map.find("kept")->second, 1);
}

TEST(UndoLog, AssignSetsNewAndExistingKeysAndARollbackUndoesBoth) {
    assigns_and_rolls_back<std::map<std::string, std::unique_ptr<int>>>();
    assigns_and_rolls_back<boost::unordered_flat_map<std::string, std::unique_ptr<int>>>();
}

// Not recording (a seed's load), assign changes the map alike and keeps nothing to undo.
TEST(UndoLog, AssignWithoutRecordingChangesTheMapAlike) {
    std::map<std::string, int> map{{"kept", 1}};
    UndoLog undo;
    undo.assign(map, std::string("kept"), 3);
    undo.assign(map, std::string("new"), 2);
    EXPECT_EQ(map, (std::map<std::string, int>{{"kept", 3}, {"new", 2}}));
    EXPECT_EQ(undo.mark(), 0U);
}

}  // namespace
}  // namespace cantonlite::store
