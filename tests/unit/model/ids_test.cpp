#include "cantonlite/model/ids.hpp"

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

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

// An update's id is the SHA-256 of "<namespace>/update/<offset>" behind the multihash prefix, for
// a namespace of any length (a long one is hashed from the heap, a short one from the stack).
TEST(UpdateId, IsTheHashOfItsNamespaceAndOffset) {
    const std::string long_namespace(300, 'n');
    for (const std::string& ns : {std::string("generated-1"), long_namespace}) {
        for (const std::int64_t offset :
             {std::int64_t{1}, std::int64_t{110'001}, std::numeric_limits<std::int64_t>::max()}) {
            EXPECT_EQ(make_update_id(ns, offset),
                      "1220" + sha256_hex(ns + "/update/" + std::to_string(offset)))
                << ns.size() << " " << offset;
        }
    }
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

// Every byte at every digit's place: a lowercase hex digit is read as its value, any other byte
// refuses the text.
TEST(UpdateId, ReadsEachDigitOrRefusesAnyOtherByteInItsPlace) {
    const std::string good = make_update_id("salt", 3);
    const std::string_view hex = "0123456789abcdef";
    for (std::size_t place = 4; place < good.size(); ++place) {
        for (int byte = 0; byte < 256; ++byte) {
            std::string text = good;
            text[place] = static_cast<char>(byte);
            const auto id = UpdateId::parse(text);
            const auto digit = hex.find(static_cast<char>(byte));
            ASSERT_EQ(id.has_value(), digit != std::string_view::npos) << place << " " << byte;
            if (id) {
                EXPECT_EQ(id->str(), text);
                const auto b = static_cast<unsigned char>(id->bytes()[(place - 4) / 2]);
                EXPECT_EQ((place % 2 == 0 ? b >> 4 : b & 0x0F), digit) << place << " " << byte;
            }
        }
    }
}

TEST(Sha256Hex, IsTheDigestOfTheBytes) {
    EXPECT_EQ(sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    EXPECT_EQ(sha256_hex("abc"),
              "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

// RFC 4648 §10's vectors, both ways.
TEST(Base64, EncodesAndDecodesTheRfcVectors) {
    const std::pair<std::string, std::string> vectors[] = {{"", ""},
                                                           {"f", "Zg=="},
                                                           {"fo", "Zm8="},
                                                           {"foo", "Zm9v"},
                                                           {"foob", "Zm9vYg=="},
                                                           {"fooba", "Zm9vYmE="},
                                                           {"foobar", "Zm9vYmFy"}};
    for (const auto& [bytes, text] : vectors) {
        EXPECT_EQ(base64_encode(bytes), text);
        EXPECT_EQ(base64_decode(text), bytes) << text;
    }
}

TEST(Base64, KeepsEveryByteValue) {
    std::string bytes;
    for (int i = 0; i < 256; ++i) bytes.push_back(static_cast<char>(255 - i));
    for (std::size_t n = 0; n < 7; ++n) {
        const std::string part = bytes.substr(n);
        EXPECT_EQ(base64_decode(base64_encode(part)), part) << n;
    }
}

// Only the standard alphabet, whole groups of four, and padding at the very end.
TEST(Base64, RefusesWhatIsNotStrictBase64) {
    const std::vector<std::string> refused{
        "Zg=",    "Zm9",      "Zm9vY", "Zm9v Yg==", " Zm9v", "Zm9v\n",   "Zm9-",
        "Zm9_",   "Zg==Zm9v", "Z===",  "====",      "Zm=v",  "Zm9vYg=A", std::string("Zm9\0", 4),
        "Zm9\xc3"};
    for (const std::string& text : refused) {
        EXPECT_EQ(base64_decode(text), std::nullopt) << text;
    }
}

}  // namespace
}  // namespace cantonlite::model::ids_test
