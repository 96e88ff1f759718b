#pragma once
// The CRC-32 of zip and gzip (zlib's crc32), which state files, journals and gzip answers carry,
// computed by Intel's ISA-L: carry-less multiplication, about 5 times zlib's speed here (a state
// file of 100k amulets, 37 MB: 3 ms, against 14). docs/dependencies.md says why.

#include <cstdint>
#include <string_view>

#include <isa-l/crc.h>

namespace cantonlite::util {

// The CRC of `bytes`, carried on from `crc`, the CRC of the bytes before them (0 for none).
[[nodiscard]] inline std::uint32_t crc32(std::string_view bytes, std::uint32_t crc = 0) {
    return crc32_gzip_refl(crc, reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size());
}

}  // namespace cantonlite::util
