#include "cantonlite/model/ids.hpp"

#include <gtest/gtest.h>

namespace cantonlite::model::ids_test {
namespace {

TEST(UpdateId, KeepsAnIdOfMakeUpdateIdsFormAndSpellsItTheSame) {
    const std::string text = make_update_id("salt", 7);
    const auto id = UpdateId::parse(text);
    ASSERT_TRUE(id.has_value());
    EXPECT_EQ(id->str(), text);
    EXPECT_EQ(id->bytes().size(), 32U);
    EXPECT_TRUE(*id == text);
    EXPECT_EQ(*id, *UpdateId::parse(text));
    EXPECT_FALSE(*id == *UpdateId::parse(make_update_id("salt", 8)));
}

TEST(UpdateId, RefusesEveryOtherText) {
    const std::string good = make_update_id("salt", 1);
    EXPECT_FALSE(UpdateId::parse(""));
    EXPECT_FALSE(UpdateId::parse(good.substr(0, good.size() - 1)));  // one digit short
    EXPECT_FALSE(UpdateId::parse(good + "0"));                       // one too many
    EXPECT_FALSE(UpdateId::parse("1221" + good.substr(4)));          // another multihash
    std::string upper = good;
    upper[10] = 'A';
    EXPECT_FALSE(UpdateId::parse(upper));  // Canton writes lower-case hex
    std::string not_hex = good;
    not_hex[20] = 'g';
    EXPECT_FALSE(UpdateId::parse(not_hex));
}

TEST(Sha256Hex, IsTheDigestOfTheBytes) {
    EXPECT_EQ(sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    EXPECT_EQ(sha256_hex("abc"),
              "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

}  // namespace
}  // namespace cantonlite::model::ids_test
