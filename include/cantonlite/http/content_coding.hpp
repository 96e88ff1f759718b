#pragma once
// Response compression as Pekko HTTP's `encodeResponse` directive does it (CodingDirectives,
// ContentNegotiation's EncodingNegotiator, Coders.Gzip and Coders.Deflate): the Splice apps wrap
// every route in it.

#include <string>
#include <string_view>
#include <vector>

#include "cantonlite/http/request.hpp"

namespace cantonlite::http {

// The coding Pekko picks for a request, from its Accept-Encoding headers.
enum class ContentCoding {
    identity,      // no header, "*", or identity preferred: the body as it is
    gzip,          // Content-Encoding: gzip
    deflate,       // Content-Encoding: deflate (a zlib stream)
    unacceptable,  // nothing the server has is acceptable ("identity;q=0"): 406
};

// encodeResponse's choice among identity, gzip and deflate, in that order of preference on a tie.
// A coding the client does not list gets q = 0, identity included; "*" stands for the rest. When
// no coding has q > 0 the body stays as it is, unless the client excluded identity itself
// (unacceptable). A header Pekko cannot parse (a q above 1) counts as absent.
[[nodiscard]] ContentCoding negotiate_coding(const std::vector<Header>& headers);

// The 406 body for `unacceptable`: "Resource representation is only available with these
// Content-Encodings:\nidentity\ngzip\ndeflate".
[[nodiscard]] std::string unacceptable_coding_text();

// "gzip" / "deflate".
[[nodiscard]] std::string_view coding_name(ContentCoding coding);

// `body` compressed as Pekko's GzipCompressor (a 10-byte header with mtime 0 and OS 0, raw
// deflate at level 6 flushed with SYNC_FLUSH then finished, CRC-32 and size) or
// DeflateCompressor (the same within a zlib stream) writes it. REQUIRES: gzip or deflate.
[[nodiscard]] std::string encode_body(std::string_view body, ContentCoding coding);

}  // namespace cantonlite::http
