// libFuzzer target: the request parsers that sit in front of every handler, on arbitrary bytes,
// each against an independent reading where there is one:
// - read_java_json, the reading behind the ledger's and the Splice apps' bodies, refuses as
//   malformed exactly what jawn refuses;
// - jawn_error (the JSON verdict of the Splice apps and Canton) agrees with nlohmann on what is
//   JSON, nlohmann reading the text as Java holds it (java_json_text), but for numbers nlohmann
//   cannot hold (jawn keeps those);
// - the Splice body decoder and every ledger request decoder answer or throw a DecodeError;
// - the java.time parsers and Daml's conversion never fail but with a message, and what they
//   accept converts;
// - circe's Long, the Accept-Encoding negotiation and the Content-Type check never crash, and a
//   compressed body inflates back to itself.
#include <cstdint>
#include <cstdlib>
#include <initializer_list>
#include <iostream>
#include <string>
#include <variant>

#include <zlib.h>
#include <nlohmann/json.hpp>

#include "cantonlite/areas/circe.hpp"
#include "cantonlite/areas/java_time.hpp"
#include "cantonlite/areas/ledger/read_requests.hpp"
#include "cantonlite/areas/ledger/relaxed_json.hpp"
#include "cantonlite/areas/ledger/transaction_request.hpp"
#include "cantonlite/areas/splice_request.hpp"
#include "cantonlite/http/api_error.hpp"
#include "cantonlite/http/content_coding.hpp"
#include "cantonlite/http/java_json.hpp"
#include "cantonlite/http/jawn.hpp"
#include "fuzz_input.hpp"
#include "fuzz_targets.hpp"

namespace cantonlite::fuzz::fuzz_parsers {

namespace {

using namespace cantonlite;

[[noreturn]] void fail(const std::string& why, std::string_view input) {
    std::cerr << why << " on: " << std::string(input.substr(0, 500)) << "\n";
    std::abort();
}

}  // namespace

int initialize() {
    return 0;
}

int test_one_input(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);

    // JSON: what jawn refuses, nlohmann refuses; what jawn reads, nlohmann reads as a Java service
    // does (java_json_text: bytes that are not UTF-8 and lone surrogates' escapes replaced), but
    // for a number beyond a double (1e400), which jawn keeps and nlohmann cannot. nlohmann stops at
    // a NUL byte; the decoders ask jawn then.
    const bool has_nul = text.find('\0') != std::string_view::npos;
    if (const auto verdict = http::jawn_error(text)) {
        // nlohmann skips a byte order mark; the decoders ask jawn then.
        if (!has_nul && !http::starts_with_byte_order_mark(text) && nlohmann::json::accept(text)) {
            fail("jawn refuses what nlohmann reads: " + *verdict, text);
        }
    } else {
        bool read = !has_nul;
        try {
            (void)nlohmann::json::parse(http::java_json_text(text));
        } catch (const nlohmann::json::out_of_range&) {
        } catch (const std::exception&) {
            read = false;
        }
        if (!read) fail("jawn reads what nlohmann refuses", text);
    }

    // The reading behind the ledger's and the Splice apps' bodies agrees with jawn: malformed
    // exactly where jawn refuses the text (unless it nests too deep to be parsed at all).
    {
        const auto read = http::read_java_json(text);
        const auto* refused = std::get_if<http::JsonRefusal>(&read);
        const bool too_deep = refused && refused->reason == http::JsonRefusal::Reason::too_deep;
        const bool malformed = refused && refused->reason == http::JsonRefusal::Reason::malformed;
        if (!too_deep && malformed != http::jawn_error(text).has_value())
            fail("read_java_json and jawn disagree", text);
    }

    // A request carrying the bytes as its body: decoded, or a rejection, never anything else.
    http::Request request{.method = "POST", .target = "/", .body = std::string(text)};
    request.headers.push_back({"Content-Type", "application/json"});
    try {
        const nlohmann::json body = areas::json_body(request);
        (void)areas::optional_int64_member(body, "after");
    } catch (const http::DecodeError&) {
    }

    // The same bytes as the body of each of the ledger's requests: decoded or a DecodeError. Each
    // decoder starts by reading the body (relaxed::parse_body); a body it refuses is fed to that
    // reading alone, as the eight decoders would each refuse it there alike (feeding all eight
    // made this target 3.6 times slower).
    const std::string_view body = text;
    bool ledger_reads = true;
    try {
        (void)areas::ledger::relaxed::parse_body(body);
    } catch (const http::DecodeError&) {
        ledger_reads = false;
    }
    if (ledger_reads) {
        for (const auto& decode : std::initializer_list<void (*)(std::string_view)>{
                 [](std::string_view b) { (void)areas::ledger::decode_transaction_by_offset(b); },
                 [](std::string_view b) { (void)areas::ledger::decode_update_by_offset(b); },
                 [](std::string_view b) { (void)areas::ledger::decode_update_by_id(b); },
                 [](std::string_view b) { (void)areas::ledger::decode_updates(b); },
                 [](std::string_view b) { (void)areas::ledger::decode_updates_page(b); },
                 [](std::string_view b) { (void)areas::ledger::decode_active_contracts(b); },
                 [](std::string_view b) { (void)areas::ledger::decode_active_contracts_page(b); },
                 [](std::string_view b) {
                     (void)areas::ledger::decode_events_by_contract_id(b);
                 }}) {
            try {
                decode(body);
            } catch (const http::DecodeError&) {
            }
        }
    }

    // Dates: a message, or an instant that converts or says why not.
    const auto t = areas::parse_guardrail_date_time(text);
    if (const auto* value = std::get_if<areas::JavaDateTime>(&t)) {
        (void)areas::daml_timestamp(*value);
    } else if (std::get<std::string>(t).empty()) {
        fail("a date-time refused without a message", text);
    }
    (void)areas::parse_java_instant(text);

    // Numbers, codings, types.
    (void)areas::circe_long(nlohmann::json(std::string(text)));
    const std::vector<http::Header> headers{{"Accept-Encoding", std::string(text)}};
    (void)http::negotiate_coding(headers);
    for (const auto coding : {http::ContentCoding::gzip, http::ContentCoding::deflate}) {
        if (fuzz::inflated(http::encode_body(text, coding)) != text)
            fail("compression lost bytes", text);
    }
    http::Request typed{.method = "POST", .target = "/", .body = "{}"};
    typed.headers.push_back({"Content-Type", std::string(text)});
    try {
        (void)areas::json_body(typed);
    } catch (const http::DecodeError&) {
    }
    return 0;
}

}  // namespace cantonlite::fuzz::fuzz_parsers
