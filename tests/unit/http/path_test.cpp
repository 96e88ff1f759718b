#include "cantonlite/http/path.hpp"

#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace cantonlite::http {
namespace {

struct DecodeCase {
    std::string text;
    std::string decoded;
};

class PercentDecodes : public testing::TestWithParam<DecodeCase> {};

TEST_P(PercentDecodes, ToTheExpectedText) {
    const DecodeCase& c = GetParam();

    const auto decoded = percent_decode(c.text);

    ASSERT_TRUE(decoded.has_value()) << c.text;
    EXPECT_EQ(*decoded, c.decoded);
}

INSTANTIATE_TEST_SUITE_P(Cases, PercentDecodes,
                         testing::Values(DecodeCase{"", ""}, DecodeCase{"lsu", "lsu"},
                                         DecodeCase{"alice%3A%3A1220", "alice::1220"},
                                         DecodeCase{"alice%3a%3a1220", "alice::1220"},
                                         DecodeCase{"a+b", "a+b"}, DecodeCase{"a%2Bb", "a+b"},
                                         DecodeCase{"a%20b", "a b"}, DecodeCase{"a%2Fb", "a/b"},
                                         DecodeCase{"%25", "%"}, DecodeCase{"%2541", "%41"},
                                         DecodeCase{"%41", "A"}, DecodeCase{"x%41", "xA"},
                                         DecodeCase{"%C3%A9", "\xC3\xA9"}));

class PercentDecodeRejects : public testing::TestWithParam<std::string> {};

TEST_P(PercentDecodeRejects, AMalformedEscape) {
    const std::string& text = GetParam();

    EXPECT_EQ(percent_decode(text), std::nullopt) << text;
}

INSTANTIATE_TEST_SUITE_P(Cases, PercentDecodeRejects,
                         testing::Values("%", "%4", "a%4", "%zz", "%4g", "%g4", "abc%"));

struct SplitCase {
    std::string path;
    std::vector<std::string> segments;
};

class SplitPath : public testing::TestWithParam<SplitCase> {};

TEST_P(SplitPath, IntoDecodedSegments) {
    const SplitCase& c = GetParam();

    const auto segments = split_path(c.path);

    ASSERT_TRUE(segments.has_value()) << c.path;
    EXPECT_EQ(*segments, c.segments);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, SplitPath,
    testing::Values(SplitCase{"/", {}}, SplitCase{"/a", {"a"}}, SplitCase{"/a/", {"a", ""}},
                    SplitCase{"/api/scan/v0/lsu", {"api", "scan", "v0", "lsu"}},
                    SplitCase{"//", {"", ""}}, SplitCase{"/a//b", {"a", "", "b"}},
                    SplitCase{"/v0/scan-proxy/ans-entries/by-name/alice%2Fbob",
                              {"v0", "scan-proxy", "ans-entries", "by-name", "alice/bob"}},
                    SplitCase{"/transfer-command-counter/alice%3A%3A1220ab",
                              {"transfer-command-counter", "alice::1220ab"}}));

class SplitPathRejects : public testing::TestWithParam<std::string> {};

TEST_P(SplitPathRejects, ThePath) {
    const std::string& path = GetParam();

    EXPECT_EQ(split_path(path), std::nullopt) << path;
}

INSTANTIATE_TEST_SUITE_P(Cases, SplitPathRejects,
                         testing::Values("", "api/scan", "*", "/api/%zz/lsu", "/api/scan%"));

}  // namespace
}  // namespace cantonlite::http
