// Scan's bulk layout: zstd objects in frames, their digests and keys
// (hyperledger-labs/splice: apps/scan/.../store/bulk, BulkStorageObjectsTest).
#include "cantonlite/seed/scan_bulk.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include <zstd.h>

namespace cantonlite::seed {
namespace {

std::string lines(int n) {
    std::string out;
    for (int i = 0; i < n; ++i) out += R"({"contract_id":"00)" + std::to_string(i) + "\"}\n";
    return out;
}

TEST(ScanBulk, FramesDecompressToTheTextWhateverTheirSize) {
    const std::string text = lines(2000);
    for (const std::size_t frame : {std::size_t{16}, std::size_t{1000}, bulk_frame_size}) {
        const std::string object = zstd_compress_frames(text, frame);
        EXPECT_EQ(zstd_decompress(object, text.size()), text) << frame;
    }
    // Small frames make several frames, cut after lines.
    EXPECT_GT(zstd_compress_frames(text, 1000).size(), zstd_compress_frames(text).size());
    EXPECT_EQ(zstd_decompress(zstd_compress_frames(""), 10).size(), 0U) << "no frame at all";
}

TEST(ScanBulk, FramesThatDoNotSayTheirSizeDecompressAlike) {
    // A streaming writer (zstd-jni's, Scan's) may leave a frame's content size out; the text is
    // then read without knowing its size in advance.
    const std::string text = lines(3000);
    std::unique_ptr<ZSTD_CCtx, decltype(&ZSTD_freeCCtx)> ctx(ZSTD_createCCtx(), &ZSTD_freeCCtx);
    ASSERT_NE(ctx, nullptr);
    ASSERT_EQ(ZSTD_isError(ZSTD_CCtx_setParameter(ctx.get(), ZSTD_c_contentSizeFlag, 0)), 0U);
    std::string object(ZSTD_compressBound(text.size()), '\0');
    ZSTD_outBuffer out{object.data(), object.size(), 0};
    ZSTD_inBuffer in{text.data(), text.size(), 0};
    ASSERT_EQ(ZSTD_compressStream2(ctx.get(), &out, &in, ZSTD_e_end), 0U);
    object.resize(out.pos);
    ASSERT_EQ(ZSTD_getFrameContentSize(object.data(), object.size()), ZSTD_CONTENTSIZE_UNKNOWN);
    EXPECT_EQ(zstd_decompress(object + zstd_compress_frames(text), 2 * text.size()), text + text);
}

TEST(ScanBulk, ConcatenatedObjectsAreOneObject) {
    // A multi-frame object is the concatenation of its frames (S3ZstdObjects' multi-part upload).
    const std::string a = lines(3);
    const std::string b = lines(5);
    EXPECT_EQ(zstd_decompress(zstd_compress_frames(a) + zstd_compress_frames(b), 1 << 20), a + b);
}

TEST(ScanBulk, DamagedTruncatedForeignAndOversizedObjectsAreRefused) {
    const std::string text = lines(500);
    const std::string object = zstd_compress_frames(text, 2000);
    EXPECT_THROW((void)zstd_decompress(object.substr(0, object.size() - 3), 1 << 20), BulkError);
    EXPECT_THROW((void)zstd_decompress("{\"not\":\"zstd\"}\n", 1 << 20), BulkError);
    EXPECT_THROW((void)zstd_decompress("", 1 << 20), BulkError);
    std::string damaged = object;
    damaged[damaged.size() / 2] = static_cast<char>(damaged[damaged.size() / 2] ^ 0x5a);
    try {
        const std::string out = zstd_decompress(damaged, 1 << 20);
        EXPECT_NE(out, text) << "a flipped byte cannot give the text back";
    } catch (const BulkError&) {
        SUCCEED();  // mostly refused outright (zstd's block checks)
    }
    try {
        (void)zstd_decompress(object, text.size() - 1);
        FAIL() << "more text than allowed";
    } catch (const BulkError& e) {
        EXPECT_NE(std::string(e.what()).find("more than"), std::string::npos) << e.what();
    }
}

TEST(ScanBulk, DigestIsBase64OfSha256) {
    // printf 'abc' | sha256sum | xxd -r -p | base64
    EXPECT_EQ(bulk_digest("abc"), "ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0=");
}

TEST(ScanBulk, KeysAreScansAndReadBack) {
    const model::Timestamp t = *model::parse_timestamp("2026-01-03T00:00:00Z");
    const model::Timestamp u = *model::parse_timestamp("2026-01-03T10:28:09.304591Z");
    EXPECT_EQ(bulk_acs_key(t, 0), "2026-01-03T00:00:00Z/ACS_compact_json_0.zstd");
    EXPECT_EQ(bulk_updates_key(t, u, "compact_json", 12),
              "2026-01-03T00:00:00Z~2026-01-03T10:28:09.304591Z/updates_compact_json_12.zstd");

    const auto acs = parse_bulk_key("2026-01-03T00:00:00Z/ACS_compact_json_3.zstd");
    ASSERT_TRUE(acs);
    EXPECT_EQ(acs->kind, BulkKey::Kind::acs);
    EXPECT_EQ(acs->folder, "2026-01-03T00:00:00Z");
    EXPECT_EQ(acs->index, 3U);
    const auto typed = parse_bulk_key("a~b/updates_protobuf_json_7.zstd");
    ASSERT_TRUE(typed);
    EXPECT_EQ(typed->kind, BulkKey::Kind::updates);
    EXPECT_EQ(typed->encoding, "protobuf_json");
    EXPECT_EQ(typed->index, 7U);
    // Scan's earlier names.
    EXPECT_EQ(parse_bulk_key("t/ACS_2.zstd")->index, 2U);
    EXPECT_EQ(parse_bulk_key("t/snapshot_4_last.zstd")->kind, BulkKey::Kind::acs);
    EXPECT_EQ(parse_bulk_key("a~b/updates_1_last.zstd")->encoding, "compact_json");
    for (const char* no : {"ACS_0.zstd", "t/ACS_x.zstd", "t/ACS_1.json", "t/other_1.zstd",
                           "t/ACS_protobuf_json_1.zstd", "/ACS_1.zstd", "t/ACS_.zstd"})
        EXPECT_FALSE(parse_bulk_key(no)) << no;
}

TEST(ScanBulk, LinesSplitOnNewlines) {
    EXPECT_EQ(bulk_lines("a\nb\n").size(), 2U);
    EXPECT_EQ(bulk_lines("a\nb").size(), 2U);
    EXPECT_TRUE(bulk_lines("").empty());
    EXPECT_EQ(bulk_lines("a\n\nb\n")[1], "");
}

TEST(ScanBulk, PageDocumentsBecomeLinesAsServed) {
    // Keys keep their order and numbers their text: a dump keeps what the Scan said.
    const std::string answer =
        R"({"record_time":"t","created_events":[{"z":1.50,"a":{"y":[1,2]}}, {"b":"\n"}],)"
        R"("next_page_token":17})";
    std::string out = "old\n";
    const BulkPage page = append_bulk_lines(answer, "created_events", out);
    EXPECT_EQ(out, "old\n{\"z\":1.50,\"a\":{\"y\":[1,2]}}\n{\"b\":\"\\n\"}\n");
    EXPECT_EQ(page.items, 2U);
    EXPECT_EQ(page.next_page_token, "17");
    EXPECT_EQ(
        append_bulk_lines(R"({"transactions":[],"next_page_token":null})", "transactions", out)
            .next_page_token,
        "");
    EXPECT_EQ(append_bulk_lines(R"({"next_page_token":"x","transactions":[]})", "transactions", out)
                  .next_page_token,
              "\"x\"");
    for (const char* bad : {"[]", "{", R"({"transactions":{}})", R"({"transactions":[1]})", "{}"})
        EXPECT_THROW((void)append_bulk_lines(bad, "transactions", out), BulkError) << bad;

    EXPECT_EQ(bulk_page("created_events", {R"({"a":1})", R"({"b":2})"}),
              R"({"created_events":[{"a":1},{"b":2}]})");
    EXPECT_EQ(bulk_page("transactions", {}), R"({"transactions":[]})");
}

}  // namespace
}  // namespace cantonlite::seed
