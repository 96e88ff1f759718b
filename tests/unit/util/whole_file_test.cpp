// Files read whole: a large one (a state file) mapped rather than copied.
#include "cantonlite/util/whole_file.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace cantonlite::util::whole_file_test {
namespace {

namespace fs = std::filesystem;

struct Folder {
    fs::path path =
        fs::temp_directory_path() / ("cantonlite-whole-file-" + std::to_string(::getpid()));
    Folder() { fs::create_directories(path); }
    ~Folder() {
        std::error_code ignored;
        fs::remove_all(path, ignored);
    }
};

TEST(MappedFile, MapsTheBytesAReadWouldGive) {
    const Folder folder;
    const fs::path file = folder.path / "state";
    std::string bytes(100'000, '\0');
    for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<char>(i * 7);
    std::ofstream(file, std::ios::binary) << bytes;

    const auto mapped = MappedFile::open(file);
    ASSERT_TRUE(mapped.has_value());
    EXPECT_EQ(mapped->bytes(), bytes);
    EXPECT_EQ(mapped->bytes(), *read_file(file));
}

TEST(MappedFile, AnEmptyFileIsNoBytesAndAMissingFileOrAFolderIsNone) {
    const Folder folder;
    std::ofstream(folder.path / "empty").flush();
    const auto empty = MappedFile::open(folder.path / "empty");
    ASSERT_TRUE(empty.has_value());
    EXPECT_TRUE(empty->bytes().empty());
    EXPECT_FALSE(MappedFile::open(folder.path / "missing").has_value());
    EXPECT_FALSE(MappedFile::open(folder.path).has_value());
}

TEST(MappedFile, AMovedMappingKeepsItsBytes) {
    const Folder folder;
    std::ofstream(folder.path / "f", std::ios::binary) << "abc";
    auto first = MappedFile::open(folder.path / "f");
    ASSERT_TRUE(first.has_value());
    MappedFile second = std::move(*first);
    EXPECT_EQ(second.bytes(), "abc");
    EXPECT_TRUE(first->bytes().empty());  // NOLINT(bugprone-use-after-move): moved from, on purpose
}

}  // namespace
}  // namespace cantonlite::util::whole_file_test
