#pragma once
// Scan's bulk layout (docs/fork.md "Offline"): what Splice's Scan writes to its bulk storage and
// lists at /v0/history/bulk/*. An object holds JSON documents, one per line, compressed with
// zstd in frames (a multi-frame zstd object is the concatenation of its frames), and is named by
// its key:
//   <snapshot record time>/ACS_compact_json_<n>.zstd        created events of the ACS
//   <from record time>~<to record time>/updates_<encoding>_<n>.zstd   updates, in order
// and checked by its digest: the base64 of the SHA-256 of its bytes. Used by `cantonlite dump`,
// `fork --dump` and cantonlite's own Scan.

#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "cantonlite/model/timestamp.hpp"

namespace cantonlite::seed {

// A bulk object cannot be read: what() says why ("not zstd", "damaged at frame 3").
class BulkError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

// Scan's zstd frames hold about 12 MiB of text each (bulkZstdFrameSize).
inline constexpr std::size_t bulk_frame_size = std::size_t{12} << 20;

// The digest of an object as Scan's listings give it: base64(SHA-256(object)).
[[nodiscard]] std::string bulk_digest(std::string_view object);

// `text` (lines, each ending in '\n') as one zstd object: a frame for each `frame_size` bytes of
// text or so, cut after a line; one empty frame for no text.
[[nodiscard]] std::string zstd_compress_frames(std::string_view text,
                                               std::size_t frame_size = bulk_frame_size);

// The text of every frame of `object`, concatenated. Throws BulkError when `object` is not whole
// zstd frames, or holds more than `max_size` bytes of text.
[[nodiscard]] std::string zstd_decompress(std::string_view object, std::size_t max_size);

// An object's key.
[[nodiscard]] std::string bulk_acs_key(model::Timestamp snapshot, std::size_t n);
[[nodiscard]] std::string bulk_updates_key(model::Timestamp from, model::Timestamp to,
                                           std::string_view encoding, std::size_t n);

// What a key names: the kind of object, its folder and its place among the folder's objects.
// Scan's earlier names are read too ("ACS_<n>.zstd", "snapshot_<n>[_last].zstd",
// "updates_<n>[_last].zstd": compact_json).
struct BulkKey {
    enum class Kind { acs, updates };
    Kind kind = Kind::acs;
    std::string folder;                     // "2026-01-02T00:00:00Z" or "<from>~<to>"
    std::string encoding = "compact_json";  // of the values: compact_json or protobuf_json
    std::size_t index = 0;
};
[[nodiscard]] std::optional<BulkKey> parse_bulk_key(std::string_view key);

// Splits `text` into its lines (without their '\n'); an empty last line is not one.
[[nodiscard]] std::vector<std::string_view> bulk_lines(std::string_view text);

// What append_bulk_lines found in a page.
struct BulkPage {
    std::size_t items = 0;
    std::string next_page_token;  // as JSON; "" when there is none (or it is null)
};

// The documents of the array `member` of a Scan answer (an ACS page's created_events, an update
// page's transactions), each appended to `out` as one line: its JSON text as served, so that its
// keys keep their order (a line break between its tokens becomes a space). Throws BulkError when
// `answer` is not a JSON object holding that array.
BulkPage append_bulk_lines(std::string_view answer, std::string_view member, std::string& out);

// A page of `member` holding `lines`, each a document: {"<member>":[<line>,<line>]}.
[[nodiscard]] std::string bulk_page(std::string_view member,
                                    const std::vector<std::string_view>& lines);

}  // namespace cantonlite::seed
