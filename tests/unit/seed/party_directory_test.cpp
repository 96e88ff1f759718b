// The parties a seed may name: by alias or by party id, as steps add and re-point aliases and a
// rollback undoes them.
#include "seed/party_directory.hpp"

#include <map>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cantonlite/model/json_fields.hpp"

namespace cantonlite::seed::party_directory_test {
namespace {

using nlohmann::json;

model::Network network() {
    model::Network n;
    n.dso_party = "DSO::1220aa";
    n.validator_party = "validator::1220bb";
    n.users.push_back(model::User{.id = "alice", .party = "alice::1220a1"});
    return n;
}

// The party `ref` resolves to, or "unknown" when the directory refuses it.
std::string resolved(const PartyDirectory& d, const std::string& ref) {
    try {
        return d.resolve(json(ref), "/steps/0/owner");
    } catch (const model::JsonFieldError&) {
        return "unknown";
    }
}

TEST(PartyDirectory, ResolvesAnAliasOrAKnownPartyId) {
    const PartyDirectory d(network());
    EXPECT_EQ(resolved(d, "alice"), "alice::1220a1");
    EXPECT_EQ(resolved(d, "alice::1220a1"), "alice::1220a1");
    EXPECT_EQ(resolved(d, "dso"), "DSO::1220aa");
    EXPECT_EQ(resolved(d, "DSO::1220aa"), "DSO::1220aa");
    EXPECT_EQ(resolved(d, "bob::1220b0"), "unknown");
    EXPECT_EQ(resolved(d, "bob"), "unknown");
}

TEST(PartyDirectory, AddedAndRepointedAliasesAreUndoneByARollback) {
    PartyDirectory d(network());
    store::UndoLog undo;
    undo.set_recording(true);
    const store::UndoLog::Mark mark = undo.mark();
    d.add("bob", "bob::1220b0", undo);
    EXPECT_EQ(resolved(d, "bob::1220b0"), "bob::1220b0");
    // "alice" now names carol's party: alice's party has no alias left.
    d.add("alice", "carol::1220c0", undo);
    EXPECT_EQ(resolved(d, "alice"), "carol::1220c0");
    EXPECT_EQ(resolved(d, "carol::1220c0"), "carol::1220c0");
    EXPECT_EQ(resolved(d, "alice::1220a1"), "unknown");

    undo.rollback(mark);
    EXPECT_EQ(resolved(d, "alice"), "alice::1220a1");
    EXPECT_EQ(resolved(d, "alice::1220a1"), "alice::1220a1");
    EXPECT_EQ(resolved(d, "carol::1220c0"), "unknown");
    EXPECT_EQ(resolved(d, "bob::1220b0"), "unknown");
    EXPECT_EQ(resolved(d, "bob"), "unknown");
}

TEST(PartyDirectory, ReplacedAliasesAreTheKnownParties) {
    PartyDirectory d(network());
    d.replace_aliases({{"eve", "eve::1220e0"}, {"also-eve", "eve::1220e0"}});
    EXPECT_EQ(resolved(d, "eve::1220e0"), "eve::1220e0");
    EXPECT_EQ(resolved(d, "also-eve"), "eve::1220e0");
    EXPECT_EQ(resolved(d, "alice::1220a1"), "unknown");
    EXPECT_EQ(resolved(d, "alice"), "unknown");
}

// A state file lists the aliases in order: so does aliases(), whatever order they came in.
TEST(PartyDirectory, ListsItsAliasesInTheirOrder) {
    PartyDirectory d(network());
    store::UndoLog undo;
    for (const char* alias : {"zed", "bob", "mallory", "carol"})
        d.add(alias, std::string(alias) + "::1220ff", undo);

    const std::map<std::string, std::string> listed = d.aliases();

    std::vector<std::string> order;
    for (const auto& [alias, party] : listed) order.push_back(alias);
    EXPECT_EQ(order, (std::vector<std::string>{"alice", "bob", "carol", "dso", "mallory",
                                               "validator", "zed"}));
    EXPECT_EQ(listed.at("mallory"), "mallory::1220ff");
    ASSERT_NE(d.find("zed"), nullptr);
    EXPECT_EQ(*d.find("zed"), "zed::1220ff");
    EXPECT_EQ(*d.find("zed::1220ff"), "zed::1220ff");
    EXPECT_EQ(d.find("nobody"), nullptr);
}

}  // namespace
}  // namespace cantonlite::seed::party_directory_test
