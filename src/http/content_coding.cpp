#include "cantonlite/http/content_coding.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <optional>
#include <stdexcept>

#include <zlib.h>

#include "cantonlite/util/crc32.hpp"

namespace cantonlite::http {
namespace {

struct Range {
    std::string coding;  // lower case; "*" for any
    float q = 1.0F;
};

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
    return s;
}

// CommonRules.qvalue: "0", "0.ddd", "1", "1.000" (up to 3 decimals).
std::optional<float> qvalue(std::string_view v) {
    if (v.empty() || (v[0] != '0' && v[0] != '1')) return std::nullopt;
    if (v.size() == 1) return static_cast<float>(v[0] - '0');
    if (v[1] != '.' || v.size() > 5) return std::nullopt;
    float q = static_cast<float>(v[0] - '0');
    float scale = 0.1F;
    for (std::size_t i = 2; i < v.size(); ++i, scale /= 10) {
        if (std::isdigit(static_cast<unsigned char>(v[i])) == 0) return std::nullopt;
        if (v[0] == '1' && v[i] != '0') return std::nullopt;
        q += scale * static_cast<float>(v[i] - '0');
    }
    return q;
}

bool is_token(std::string_view t) {
    return !t.empty() && std::all_of(t.begin(), t.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) != 0 ||
               std::string_view("!#$%&'*+-.^_`|~").find(c) != std::string_view::npos;
    });
}

// One Accept-Encoding header's ranges; nullopt when Pekko cannot parse it (it keeps it raw, and
// the negotiator ignores it).
std::optional<std::vector<Range>> parse_ranges(std::string_view value) {
    std::vector<Range> out;
    std::size_t start = 0;
    while (start <= value.size()) {
        std::size_t end = value.find(',', start);
        if (end == std::string_view::npos) end = value.size();
        const std::string_view item = trim(value.substr(start, end - start));
        start = end + 1;
        if (item.empty()) continue;
        Range r;
        const std::size_t semi = item.find(';');
        const std::string_view name = trim(item.substr(0, semi));
        if (!is_token(name)) return std::nullopt;
        r.coding.assign(name);
        std::transform(r.coding.begin(), r.coding.end(), r.coding.begin(),
                       [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
        if (semi != std::string_view::npos) {
            const std::string_view param = trim(item.substr(semi + 1));
            if (param.size() < 2 || (param[0] != 'q' && param[0] != 'Q') || param[1] != '=')
                return std::nullopt;
            const auto q = qvalue(trim(param.substr(2)));
            if (!q) return std::nullopt;
            r.q = *q;
        }
        out.push_back(std::move(r));
    }
    return out;
}

}  // namespace

ContentCoding negotiate_coding(const std::vector<Header>& headers) {
    std::vector<Range> ranges;
    for (const Header& h : headers) {
        if (!iequals(h.name, "Accept-Encoding")) continue;
        if (auto parsed = parse_ranges(h.value)) {
            ranges.insert(ranges.end(), parsed->begin(), parsed->end());
        }
    }
    // No Accept-Encoding (or none that parses): every coding has q 1, and identity comes first.
    if (ranges.empty()) return ContentCoding::identity;
    // EncodingNegotiator: ranges by descending q, stably, "*" last.
    std::stable_sort(ranges.begin(), ranges.end(), [](const Range& a, const Range& b) {
        const float ka = a.coding == "*" ? 1.0F : -a.q;
        const float kb = b.coding == "*" ? 1.0F : -b.q;
        return ka < kb;
    });
    const auto q_for = [&](std::string_view coding) {
        for (const Range& r : ranges) {
            if (r.coding == "*" || r.coding == coding) return r.q;
        }
        return 0.0F;
    };
    struct Choice {
        ContentCoding coding;
        float q;
    };
    std::array<Choice, 3> choices{Choice{ContentCoding::identity, q_for("identity")},
                                  Choice{ContentCoding::gzip, q_for("gzip")},
                                  Choice{ContentCoding::deflate, q_for("deflate")}};
    std::stable_sort(choices.begin(), choices.end(),
                     [](const Choice& a, const Choice& b) { return a.q > b.q; });
    if (choices.front().q > 0) return choices.front().coding;
    const bool identity_named = std::any_of(ranges.begin(), ranges.end(), [](const Range& r) {
        return r.coding == "*" || r.coding == "identity";
    });
    return identity_named ? ContentCoding::unacceptable : ContentCoding::identity;
}

std::string unacceptable_coding_text() {
    return "Resource representation is only available with these Content-Encodings:\n"
           "identity\ngzip\ndeflate";
}

std::string_view coding_name(ContentCoding coding) {
    return coding == ContentCoding::deflate ? "deflate" : "gzip";
}

namespace {

// A compressor per thread and format, reset for each body: deflateInit2 allocates some 260 KiB of
// state, which would cost more than compressing a small answer.
class Compressor {
  public:
    explicit Compressor(bool gzip) {
        if (deflateInit2(&z_, 6, Z_DEFLATED, gzip ? -15 : 15, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
            throw std::runtime_error("deflateInit2 failed");
        }
    }
    ~Compressor() { deflateEnd(&z_); }
    Compressor(const Compressor&) = delete;
    Compressor& operator=(const Compressor&) = delete;

    // Appends `body` compressed to `out`.
    void compress(std::string_view body, std::string& out) {
        deflateReset(&z_);
        const std::size_t start = out.size();
        out.resize(start + deflateBound(&z_, body.size()) + 32);
        z_.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(body.data()));
        z_.avail_in = static_cast<uInt>(body.size());
        z_.next_out = reinterpret_cast<Bytef*>(out.data() + start);
        z_.avail_out = static_cast<uInt>(out.size() - start);
        // Pekko's compressAndFlush (NO_FLUSH, then SYNC_FLUSH), then finish.
        for (const int flush : {Z_NO_FLUSH, Z_SYNC_FLUSH, Z_FINISH}) {
            const int rc = deflate(&z_, flush);
            if (rc != Z_OK && rc != Z_STREAM_END && rc != Z_BUF_ERROR) {
                throw std::runtime_error("deflate failed");
            }
        }
        out.resize(out.size() - z_.avail_out);
    }

  private:
    z_stream z_{};
};

}  // namespace

std::string encode_body(std::string_view body, ContentCoding coding) {
    const bool gzip = coding == ContentCoding::gzip;
    std::string out;
    if (gzip) {
        thread_local Compressor raw(true);
        out.assign("\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x00", 10);
        raw.compress(body, out);
    } else {
        thread_local Compressor zlib(false);
        zlib.compress(body, out);
    }
    if (gzip) {
        const std::uint32_t crc = util::crc32(body);
        const auto size = static_cast<std::uint32_t>(body.size());
        for (const std::uint32_t word : {crc, size}) {
            for (int i = 0; i < 4; ++i) out += static_cast<char>((word >> (8 * i)) & 0xFF);
        }
    }
    return out;
}

}  // namespace cantonlite::http
