#include "cantonlite/util/crc32.hpp"

#include <cstddef>
#include <cstdint>
#include <random>
#include <string>
#include <string_view>

#include <gtest/gtest.h>
#include <zlib.h>

namespace cantonlite::util::crc32_test {
namespace {

std::uint32_t zlib_crc(std::string_view bytes) {
    return static_cast<std::uint32_t>(
        crc32_z(0, reinterpret_cast<const Bytef*>(bytes.data()), bytes.size()));
}

// The CRC-32 of zip, gzip and PNG: its catalogued check value, and nothing for nothing.
TEST(Crc32, IsTheCrcOfZipAndGzip) {
    EXPECT_EQ(crc32("123456789"), 0xCBF43926U);
    EXPECT_EQ(crc32(""), 0U);
    EXPECT_EQ(crc32("", 0x1234U), 0x1234U);
}

// State files written before it (by zlib) still check: every size around the vector widths, from
// every alignment.
TEST(Crc32, EqualsZlibsAtEverySizeAndAlignment) {
    std::mt19937 random(7);
    std::string bytes(5000, '\0');
    for (char& c : bytes) c = static_cast<char>(random());
    for (std::size_t offset = 0; offset < 16; ++offset) {
        for (std::size_t size : {0, 1, 3, 15, 16, 17, 63, 64, 65, 255, 256, 257, 1024, 4096}) {
            const std::string_view part = std::string_view(bytes).substr(offset, size);
            EXPECT_EQ(crc32(part), zlib_crc(part)) << "offset " << offset << ", size " << size;
        }
    }
}

// A CRC carried from one part to the next equals the whole's, as a file written in parts needs.
TEST(Crc32, CarriesFromOnePartToTheNext) {
    const std::string whole = "a state file written a MiB at a time";
    for (std::size_t cut = 0; cut <= whole.size(); ++cut) {
        const std::string_view first = std::string_view(whole).substr(0, cut);
        const std::string_view rest = std::string_view(whole).substr(cut);
        EXPECT_EQ(crc32(rest, crc32(first)), crc32(whole)) << cut;
    }
}

}  // namespace
}  // namespace cantonlite::util::crc32_test
