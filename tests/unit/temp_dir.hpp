#pragma once
// A folder of its own under the temp folder for one test, removed with it.

#include <unistd.h>

#include <filesystem>
#include <string>
#include <system_error>

namespace cantonlite::test_support {

struct TempDir {
    // "cantonlite-NAME-PID": NAME apart from every other test's.
    explicit TempDir(const std::string& name)
        : path(std::filesystem::temp_directory_path() /
               ("cantonlite-" + name + "-" + std::to_string(::getpid()))) {
        std::filesystem::create_directories(path);
    }
    ~TempDir() {
        std::error_code ignored;
        std::filesystem::remove_all(path, ignored);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    std::filesystem::path path;
};

}  // namespace cantonlite::test_support
