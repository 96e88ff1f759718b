#pragma once
// How a fuzzer's bytes become an HTTP request (tests/fuzz): a readable text, so that the seed
// corpus is the test suite's own requests and the fuzzer mutates them as text.
//
//   POST /api/scan/v0/holdings/state        <- the request line: method, target
//   Content-Type: application/json          <- header lines, up to an empty line
//
//   {"migration_id": 0, ...}                <- the body: everything after the empty line

#include <cstdlib>
#include <iostream>
#include <string>
#include <string_view>

#include <zlib.h>

#include "cantonlite/http/request.hpp"
#include "cantonlite/http/response.hpp"

namespace cantonlite::fuzz {

// The answer of a handled request: a write waiting for the journal answers through `deferred`
// (at once, without a journal).
inline http::Response answered(http::Response r) {
    if (!r.deferred) return r;
    http::Response done;
    r.deferred([&done](http::Response d) { done = std::move(d); });
    return done;
}

inline http::Request request_of(std::string_view text) {
    http::Request r;
    const auto line = [&]() {
        const std::size_t end = text.find('\n');
        std::string_view l = text.substr(0, end);
        text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
        if (!l.empty() && l.back() == '\r') l.remove_suffix(1);
        return l;
    };
    const std::string_view first = line();
    const std::size_t space = first.find(' ');
    r.method = std::string(first.substr(0, space));
    r.target = space == std::string_view::npos ? "/" : std::string(first.substr(space + 1));
    if (r.method == "HEAD") {  // as the session hands it on
        r.method = "GET";
        r.head = true;
    }
    while (!text.empty()) {
        const std::string_view h = line();
        if (h.empty()) break;
        const std::size_t colon = h.find(':');
        if (colon == std::string_view::npos) continue;
        std::string_view value = h.substr(colon + 1);
        while (!value.empty() && value.front() == ' ') value.remove_prefix(1);
        r.headers.push_back({std::string(h.substr(0, colon)), std::string(value)});
    }
    r.body = std::string(text);
    return r;
}

// The text of a request, for the seed corpus.
inline std::string text_of(const std::string& method, const std::string& target,
                           const std::vector<http::Header>& headers, const std::string& body) {
    std::string out = method + " " + target + "\n";
    for (const http::Header& h : headers) out += h.name + ": " + h.value + "\n";
    return out + "\n" + body;
}

// A gzip or zlib stream (by its header) inflated; aborts when it does not inflate.
inline std::string inflated(const std::string& data) {
    z_stream z{};
    if (inflateInit2(&z, 15 + 32) != Z_OK) return {};  // gzip or zlib, by its header
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
    z.avail_in = static_cast<uInt>(data.size());
    std::string out;
    int rc = Z_OK;
    while (rc == Z_OK) {
        char chunk[16384];
        z.next_out = reinterpret_cast<Bytef*>(chunk);
        z.avail_out = sizeof chunk;
        rc = inflate(&z, Z_NO_FLUSH);
        out.append(chunk, sizeof chunk - z.avail_out);
    }
    inflateEnd(&z);
    if (rc != Z_STREAM_END) {
        std::cerr << "a compressed body does not inflate\n";
        std::abort();
    }
    return out;
}

}  // namespace cantonlite::fuzz
