#include "cantonlite/http/path.hpp"

#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace cantonlite::http::path_test {
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
                                         DecodeCase{"%C3%A9", "\xC3\xA9"},
                                         DecodeCase{"%F0%9F%98%80", "\xF0\x9F\x98\x80"}));

// The decoded bytes are read as UTF-8 the way Java builds a String from them: each malformed
// sequence (its maximal valid prefix) becomes U+FFFD, so no invalid text reaches a JSON body.
const std::string fffd = "\xEF\xBF\xBD";
INSTANTIATE_TEST_SUITE_P(
    MalformedUtf8, PercentDecodes,
    testing::Values(DecodeCase{"%ff", fffd}, DecodeCase{"a%ff%feb", "a" + fffd + fffd + "b"},
                    DecodeCase{"%C0%80", fffd + fffd},            // overlong: C0 never valid
                    DecodeCase{"%E2%82", fffd},                   // truncated 3-byte sequence
                    DecodeCase{"%E2%82x", fffd + "x"},            // cut short by an ASCII byte
                    DecodeCase{"%ED%A0%80", fffd + fffd + fffd},  // a UTF-16 surrogate
                    DecodeCase{"%F4%90%80%80", fffd + fffd + fffd + fffd},  // beyond U+10FFFF
                    DecodeCase{"%80", fffd}, DecodeCase{"\xff", fffd}));

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
}  // namespace cantonlite::http::path_test
