#include "cantonlite/seed/scan_bulk.hpp"

#include <simdjson.h>
#include <zstd.h>

#include <algorithm>
#include <charconv>
#include <memory>

#include "cantonlite/model/ids.hpp"

namespace cantonlite::seed {
namespace {

constexpr int compression_level = 3;  // zstd's default

struct FreeDctx {
    void operator()(ZSTD_DCtx* c) const { ZSTD_freeDCtx(c); }
};

std::optional<std::size_t> number_at(std::string_view text) {
    std::size_t n = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
    if (ec != std::errc() || end != text.data() + text.size() || text.empty()) return std::nullopt;
    return n;
}

}  // namespace

std::string bulk_digest(std::string_view object) {
    const auto digest = model::sha256(object);
    return model::base64_encode(
        std::string_view(reinterpret_cast<const char*>(digest.data()), digest.size()));
}

std::string zstd_compress_frames(std::string_view text, std::size_t frame_size) {
    std::string out;
    do {  // no text: one empty frame
        frame_size = std::max<std::size_t>(frame_size, 1);
        std::size_t take = std::min(text.size(), frame_size);
        if (take < text.size()) {  // cut after a line
            const std::size_t nl = text.find('\n', take - 1);
            take = nl == std::string_view::npos ? text.size() : nl + 1;
        }
        const std::size_t at = out.size();
        out.resize(at + ZSTD_compressBound(take));
        const std::size_t n =
            ZSTD_compress(out.data() + at, out.size() - at, text.data(), take, compression_level);
        if (ZSTD_isError(n) != 0U)
            throw BulkError(std::string("zstd cannot compress: ") + ZSTD_getErrorName(n));
        out.resize(at + n);
        text.remove_prefix(take);
    } while (!text.empty());
    return out;
}

namespace {

// The size of the text of `object`'s frames, each as its header gives it; four times the object's
// when one does not say or the frames do not read (the decompression then says why).
std::size_t text_size_hint(std::string_view object) {
    std::size_t total = 0;
    for (std::string_view rest = object; !rest.empty();) {
        const unsigned long long size = ZSTD_getFrameContentSize(rest.data(), rest.size());
        const std::size_t frame = ZSTD_findFrameCompressedSize(rest.data(), rest.size());
        if (size == ZSTD_CONTENTSIZE_ERROR || size == ZSTD_CONTENTSIZE_UNKNOWN ||
            ZSTD_isError(frame) != 0U || frame > rest.size())
            return 4 * object.size();
        total += static_cast<std::size_t>(std::min<unsigned long long>(size, SIZE_MAX - total));
        rest.remove_prefix(frame);
    }
    return total;
}

}  // namespace

std::string zstd_decompress(std::string_view object, std::size_t max_size) {
    if (object.empty()) throw BulkError("empty, not zstd");
    const std::unique_ptr<ZSTD_DCtx, FreeDctx> ctx(ZSTD_createDCtx());
    if (!ctx) throw BulkError("zstd: out of memory");
    // Room for the text at once when the frames say how large it is (ours do), else for four
    // times the object: growing a string of 100 MB from nothing copied it over and over.
    std::string out;
    out.reserve(std::min<std::size_t>(max_size, text_size_hint(object)));
    std::string chunk(ZSTD_DStreamOutSize(), '\0');
    ZSTD_inBuffer in{object.data(), object.size(), 0};
    std::size_t pending = 0;  // 0 once a frame is whole and flushed
    // Until the input is read, then until the last frame's output is flushed.
    for (bool full = false; in.pos < in.size || (pending != 0 && full);) {
        ZSTD_outBuffer o{chunk.data(), chunk.size(), 0};
        pending = ZSTD_decompressStream(ctx.get(), &o, &in);
        if (ZSTD_isError(pending) != 0U) {
            throw BulkError(std::string("not zstd, or damaged near byte ") +
                            std::to_string(in.pos) + ": " + ZSTD_getErrorName(pending));
        }
        if (out.size() + o.pos > max_size)
            throw BulkError("holds more than " + std::to_string(max_size) + " bytes of text");
        out.append(chunk.data(), o.pos);
        full = o.pos == o.size;
    }
    if (pending != 0) throw BulkError("truncated: its last zstd frame is not whole");
    return out;
}

std::string bulk_acs_key(model::Timestamp snapshot, std::size_t n) {
    return model::format_instant(snapshot) + "/ACS_compact_json_" + std::to_string(n) + ".zstd";
}

std::string bulk_updates_key(model::Timestamp from, model::Timestamp to, std::string_view encoding,
                             std::size_t n) {
    return model::format_instant(from) + "~" + model::format_instant(to) + "/updates_" +
           std::string(encoding) + "_" + std::to_string(n) + ".zstd";
}

std::optional<BulkKey> parse_bulk_key(std::string_view key) {
    const std::size_t slash = key.rfind('/');
    if (slash == std::string_view::npos || slash == 0) return std::nullopt;
    BulkKey out;
    out.folder = std::string(key.substr(0, slash));
    std::string_view name = key.substr(slash + 1);
    if (!name.ends_with(".zstd")) return std::nullopt;
    name.remove_suffix(5);
    if (name.ends_with("_last")) name.remove_suffix(5);
    const std::size_t last = name.rfind('_');
    if (last == std::string_view::npos) return std::nullopt;
    const auto index = number_at(name.substr(last + 1));
    if (!index) return std::nullopt;
    out.index = *index;
    std::string_view stem = name.substr(0, last);  // "ACS_compact_json", "updates", ...
    for (const std::string_view encoding : {"compact_json", "protobuf_json"}) {
        if (stem.ends_with(std::string("_") + std::string(encoding))) {
            out.encoding = std::string(encoding);
            stem.remove_suffix(encoding.size() + 1);
            break;
        }
    }
    if (stem == "ACS" || stem == "snapshot") {
        out.kind = BulkKey::Kind::acs;
        if (out.encoding != "compact_json") return std::nullopt;
    } else if (stem == "updates") {
        out.kind = BulkKey::Kind::updates;
    } else {
        return std::nullopt;
    }
    return out;
}

std::vector<std::string_view> bulk_lines(std::string_view text) {
    std::vector<std::string_view> out;
    while (!text.empty()) {
        const std::size_t nl = text.find('\n');
        if (nl == std::string_view::npos) {
            out.push_back(text);
            break;
        }
        out.push_back(text.substr(0, nl));
        text.remove_prefix(nl + 1);
    }
    return out;
}

BulkPage append_bulk_lines(std::string_view answer, std::string_view member, std::string& out) {
    namespace od = simdjson::ondemand;
    const simdjson::padded_string padded(answer);
    od::parser parser;
    od::document doc;
    od::object root;
    if (parser.iterate(padded).get(doc) != 0U || doc.get_object().get(root) != 0U)
        throw BulkError("the answer is not a JSON object");
    BulkPage page;
    bool found = false;
    const auto bad = [&](const std::string& what) {
        return BulkError("the answer's " + std::string(member) + ": " + what);
    };
    for (auto field : root) {
        std::string_view key;
        od::value value;
        if (field.unescaped_key().get(key) != 0U || field.value().get(value) != 0U)
            throw BulkError("the answer is not JSON");
        if (key == member) {
            od::array items;
            if (value.get_array().get(items) != 0U) throw bad("not an array");
            for (auto item : items) {
                od::object document;
                std::string_view text;
                if (item.get_object().get(document) != 0U || document.raw_json().get(text) != 0U)
                    throw bad("an item is not a JSON object");
                while (!text.empty() && (text.back() == ' ' || text.back() == '\n' ||
                                         text.back() == '\r' || text.back() == '\t'))
                    text.remove_suffix(1);
                // One line: a line break can only be whitespace between tokens (a JSON string
                // holds none raw).
                const std::size_t at = out.size();
                out.append(text);
                std::replace_if(
                    out.begin() + static_cast<std::ptrdiff_t>(at), out.end(),
                    [](char c) { return c == '\n' || c == '\r'; }, ' ');
                out += '\n';
                ++page.items;
            }
            found = true;
        } else if (key == "next_page_token") {
            bool null = false;
            if (value.is_null().get(null) != 0U) throw BulkError("the answer is not JSON");
            if (!null) {
                std::string_view token = value.raw_json_token();
                while (!token.empty() && (token.back() == ' ' || token.back() == '\n'))
                    token.remove_suffix(1);
                page.next_page_token = std::string(token);
            }
        }
    }
    if (!found) throw bad("missing");
    return page;
}

std::string bulk_page(std::string_view member, const std::vector<std::string_view>& lines) {
    std::size_t size = member.size() + 8;
    for (const std::string_view l : lines) size += l.size() + 1;
    std::string out;
    out.reserve(size);
    out += "{\"";
    out += member;
    out += "\":[";
    for (std::size_t i = 0; i < lines.size(); ++i) {
        if (i > 0) out += ',';
        out += lines[i];
    }
    out += "]}";
    return out;
}

}  // namespace cantonlite::seed
