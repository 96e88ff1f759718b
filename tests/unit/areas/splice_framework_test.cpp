// The Splice apps' HTTP framework, route by route: Pekko HTTP's rejections and encodeResponse,
// guardrail's JSON unmarshaller, circe's error layouts. Sources (Splice 0.6.12, pekko-http 1.2,
// jawn 1.6, circe 0.14.9): HttpAdminService.scala (notFoundRoute, handleRejections,
// encodeResponse), HttpErrorHandler.scala 131-142 (thrown errors: Json.toString, spaces2),
// guardrail AkkaHttpGenerator.scala 161-175 (returned errors: Printer.noSpaces), AuthExtractor
// .scala 59-89 (403, noSpaces), RejectionHandler.scala 173-314, CodingDirectives.scala 61-178,
// ContentNegotiation.scala 164-221, Encoder.scala 36-85, GzipCompressor.scala, jawn Parser.scala.
#include <string>

#include <gtest/gtest.h>
#include <zlib.h>

#include "areas/validator/validator_test_support.hpp"
#include "cantonlite/areas/circe.hpp"
#include "cantonlite/http/content_coding.hpp"
#include "cantonlite/http/jawn.hpp"

namespace cantonlite::areas::splice_framework_test {
namespace {

using http::Header;
using http::Response;
using scan::scantest::is_rejection;
namespace scantest = scan::scantest;
namespace valtest = validator::valtest;
using validator::valtest::api;
using validator::valtest::token_of;
using json = nlohmann::json;

const std::string import_updates = "/api/scan/v0/backfilling/import-updates";
const std::string import_body = R"({"migration_id":1,"after_update_id":"","limit":10})";

// ---- Content-Type: guardrail's forContentTypes(application/json) ---------------------------

struct TypeCase {
    std::string name;
    std::string content_type;  // "" sends none
    std::string body;
    int status;
    std::string text;  // the rejection's text; "" for 200
};

class SpliceContentType : public testing::TestWithParam<TypeCase> {};

TEST_P(SpliceContentType, IsCheckedBeforeTheBody) {
    const TypeCase& c = GetParam();
    std::vector<Header> headers;
    if (!c.content_type.empty()) headers.push_back({"Content-Type", c.content_type});

    const Response response = api().send("POST", import_updates, c.body, headers);

    if (c.status == 200) {
        EXPECT_EQ(response.status, 200) << response.body;
    } else {
        EXPECT_TRUE(is_rejection(response, c.status, c.text));
    }
}

std::string unsupported(const std::string& type) {
    return "The request's Content-Type [" + type +
           "] is not supported. Expected:\napplication/json";
}

INSTANTIATE_TEST_SUITE_P(
    Pekko, SpliceContentType,
    testing::Values(
        TypeCase{"NoneWithABody", "", import_body, 415, unsupported("application/octet-stream")},
        TypeCase{"TextPlain", "text/plain", import_body, 415, unsupported("text/plain")},
        TypeCase{"CurlsDefaultFormType", "application/x-www-form-urlencoded", import_body, 415,
                 unsupported("application/x-www-form-urlencoded")},
        TypeCase{"TextWithCharset", "text/plain; charset=utf-8", import_body, 415,
                 unsupported("text/plain; charset=UTF-8")},
        TypeCase{"JsonApi", "application/vnd.api+json", import_body, 415,
                 unsupported("application/vnd.api+json")},
        TypeCase{"NotAMediaType", "json", import_body, 415,
                 unsupported("application/octet-stream")},
        TypeCase{"JsonWithCharset", "application/json; charset=utf-8", import_body, 200, ""},
        TypeCase{"JsonOtherCase", "Application/JSON", import_body, 200, ""},
        TypeCase{"NoneAndEmpty", "", "", 400, "Request entity expected but not supplied"},
        TypeCase{"TextAndEmpty", "text/plain", "", 415, unsupported("text/plain")},
        TypeCase{"JsonAndEmpty", "application/json", "", 400,
                 "Request entity expected but not supplied"}),
    [](const testing::TestParamInfo<TypeCase>& info) { return info.param.name; });

// ---- malformed JSON: jawn's messages --------------------------------------------------------

struct JawnCase {
    std::string body;
    std::string message;
};

class JawnMessage : public testing::TestWithParam<JawnCase> {};

TEST_P(JawnMessage, IsJawns) {
    EXPECT_EQ(http::jawn_error(GetParam().body).value_or("<parsed>"), GetParam().message)
        << GetParam().body;
}

INSTANTIATE_TEST_SUITE_P(
    Jawn16, JawnMessage,
    testing::Values(
        JawnCase{"{", "exhausted input"}, JawnCase{R"({"a":)", "exhausted input"},
        JawnCase{R"({"a":1)", "exhausted input"}, JawnCase{"[1,", "exhausted input"},
        JawnCase{"\"", "exhausted input"}, JawnCase{"\"abc", "exhausted input"},
        JawnCase{"   ", "exhausted input"}, JawnCase{"nul", "exhausted input"},
        JawnCase{"tru", "exhausted input"}, JawnCase{"-", "exhausted input"},
        JawnCase{"1.", "exhausted input"}, JawnCase{"", "exhausted input"},
        JawnCase{"not json", "expected null got 'not js...' (line 1, column 1)"},
        JawnCase{"x", "expected json value got 'x' (line 1, column 1)"},
        JawnCase{"hello world", "expected json value got 'hello ...' (line 1, column 1)"},
        JawnCase{R"({"a":1,})", R"(expected " got '}' (line 1, column 8))"},
        JawnCase{"{a:1}", R"(expected " got 'a:1}' (line 1, column 2))"},
        JawnCase{R"({"a" 1})", "expected : got '1}' (line 1, column 6)"},
        JawnCase{"[1 2]", "expected ] or , got '2]' (line 1, column 4)"},
        JawnCase{"[1,]", "expected json value got ']' (line 1, column 4)"},
        JawnCase{R"({"a":1 "b":2})", R"(expected } or , got '"b":2}' (line 1, column 8))"},
        JawnCase{R"({"a":01})", "expected } or , got '1}' (line 1, column 7)"},
        JawnCase{"01", "expected whitespace or eof got '1' (line 1, column 2)"},
        JawnCase{R"({"a":1} trailing)",
                 "expected whitespace or eof got 'traili...' (line 1, column 9)"},
        JawnCase{R"({"a":1}})", "expected whitespace or eof got '}' (line 1, column 8)"},
        JawnCase{R"({"a":"\x"})", R"(illegal escape sequence (\x) got '\...' (line 1, column 7))"},
        JawnCase{R"({"a":tru})", "expected true got 'tru}' (line 1, column 6)"},
        JawnCase{"{\n  \"a\": 1,\n  }", R"(expected " got '}' (line 3, column 3))"},
        JawnCase{R"({"a":[1,{"b":null}],"c":"é"})", "<parsed>"},
        JawnCase{std::string("{}\0x", 4), "expected whitespace or eof got '" +
                                              std::string("\0x", 2) + "' (line 1, column 3)"}));

TEST(SpliceMalformedBody, IsPekkosRejectionAroundJawnsMessage) {
    const Response response = api().send("POST", import_updates, R"({"migration_id":1,})",
                                         {{"Content-Type", "application/json"}});

    EXPECT_TRUE(is_rejection(response, 400,
                             "The request content was malformed:\nexpected \" got '}' (line 1, "
                             "column 19)"));
}

// Java decodes the body's bytes as UTF-8 with replacement: a byte that is not UTF-8 in a string
// does not stop jawn (the text is then whatever the field means: here an unknown update id).
TEST(SpliceMalformedBody, BytesThatAreNotUtf8AreReadAsJavaReadsThem) {
    const Response response = api().send(
        "POST", import_updates, "{\"migration_id\":1,\"after_update_id\":\"\xff\",\"limit\":10}",
        {{"Content-Type", "application/json"}});

    EXPECT_EQ(response.status, 200) << response.body;
}

// jawn keeps the escape of a lone surrogate (Java writes it out as '?'), which nlohmann refuses
// (found by fuzz_parsers): the body decodes.
TEST(SpliceMalformedBody, ALoneSurrogateEscapeIsReadAsJavaReadsIt) {
    const Response response = api().send(
        "POST", import_updates, R"({"migration_id":1,"after_update_id":"\uDADD","limit":10})",
        {{"Content-Type", "application/json"}});

    EXPECT_EQ(response.status, 200) << response.body;
}

// Java keeps a byte order mark as U+FEFF, where jawn expects a value; nlohmann skips it (found by
// fuzz_parsers).
TEST(SpliceMalformedBody, AByteOrderMarkIsMalformed) {
    const Response response = api().send("POST", import_updates, "\xEF\xBB\xBF" + import_body,
                                         {{"Content-Type", "application/json"}});

    EXPECT_TRUE(is_rejection(response, 400,
                             "The request content was malformed:\nexpected json value got "
                             "'\xEF\xBB\xBF{\"mig...' (line 1, column 1)"))
        << response.body;
}

// Found by fuzz_parsers: nlohmann ends its input at a NUL byte, jawn does not.
TEST(SpliceMalformedBody, ANulByteAfterTheValueIsMalformed) {
    const Response response =
        api().send("POST", import_updates, import_body + std::string("\0x", 2),
                   {{"Content-Type", "application/json"}});

    EXPECT_TRUE(is_rejection(response, 400,
                             "The request content was malformed:\nexpected whitespace or eof got "
                             "'" +
                                 std::string("\0x", 2) + "' (line 1, column 51)"));
}

// Printing or copying a value recurses once per level: bodies nesting beyond a thousand levels are
// refused before they are parsed (3 million levels crashed the daemon; FIDELITY S3).
TEST(SpliceMalformedBody, NestingBeyondAThousandLevelsIsRefused) {
    const auto body_nesting = [](std::size_t levels) {
        return R"({"migration_id":1,"after_update_id":)" + std::string(levels - 1, '[') +
               std::string(levels - 1, ']') + R"(,"limit":10})";
    };

    const Response refused = api().send("POST", import_updates, body_nesting(1001),
                                        {{"Content-Type", "application/json"}});
    const Response read = api().send("POST", import_updates, body_nesting(1000),
                                     {{"Content-Type", "application/json"}});

    EXPECT_TRUE(is_rejection(
        refused, 400, "The request content was malformed:\nnesting deeper than 1000 levels"));
    EXPECT_EQ(read.status, 400);
    EXPECT_TRUE(read.body.find("with wrong type, expecting string") != std::string::npos)
        << read.body.substr(0, 200);
}

TEST(SpliceMalformedBody, ANumberBeyondADoubleIsRejected) {
    const Response response = api().send(
        "POST", import_updates, R"({"migration_id":1,"after_update_id":"","limit":10,"x":1e400})",
        {{"Content-Type", "application/json"}});

    EXPECT_TRUE(
        is_rejection(response, 400, "The request content was malformed:\nnumber out of range"));
}

// circe's Decoder[Long]: JsonNumber.toLong over BiggerDecimal, for numbers and for strings
// (Decoder.scala decodeLong; JsonNumber.fromString).
TEST(CirceLong, ReadsWholeNumbersInAnyForm) {
    const auto long_of = [](const json& v) { return circe_long(v); };
    EXPECT_EQ(long_of(json::parse("5")), 5);
    EXPECT_EQ(long_of(json::parse("5.00")), 5);
    EXPECT_EQ(long_of(json::parse("1e2")), 100);
    EXPECT_EQ(long_of(json("05")), 5);
    EXPECT_EQ(long_of(json("0.5e1")), 5);
    EXPECT_EQ(long_of(json("-0")), 0);
    EXPECT_EQ(long_of(json("-9223372036854775808")), std::numeric_limits<std::int64_t>::min());
    EXPECT_EQ(long_of(json("9223372036854775807")), std::numeric_limits<std::int64_t>::max());
    for (const char* bad :
         {" 5", "5 ", "+5", "", "5.", ".5", "1e-1", "0x10", "abc", "9223372036854775808", "5.5"}) {
        EXPECT_FALSE(long_of(json(bad)).has_value()) << bad;
    }
    EXPECT_FALSE(long_of(json::parse("5.5")).has_value());
    EXPECT_FALSE(long_of(json::parse("9223372036854775808")).has_value());
    EXPECT_FALSE(long_of(json(true)).has_value());
    EXPECT_FALSE(long_of(json()).has_value());
}

// ---- error layout per route -----------------------------------------------------------------

const std::string indented_prefix = "{\n  \"error\" : \"";

testing::AssertionResult laid_out(const Response& response, int status, const std::string& error,
                                  bool indented) {
    const std::string expected =
        indented ? indented_prefix + error + "\"\n}" : R"({"error":")" + error + "\"}";
    if (response.status == status && response.content_type == "application/json" &&
        response.body == expected) {
        return testing::AssertionSuccess();
    }
    return testing::AssertionFailure()
           << "expected " << status << " '" << expected << "', got " << response.status << " '"
           << response.content_type << "' '" << response.body << "'";
}

json holdings(const std::string& time, const std::string& match, int page_size = 10) {
    json body = scantest::holdings_request(0, time, {scantest::alice}, page_size);
    if (!match.empty()) body["record_time_match"] = match;
    return body;
}

TEST(SpliceErrorLayout, ThrownErrorsAreIndented) {
    const std::string state = "/api/scan/v0/holdings/state";
    EXPECT_TRUE(laid_out(api().post(state, holdings(valtest::first_snapshot, "", 0)), 400,
                         "Limit must be at least 1.", true));
    EXPECT_TRUE(laid_out(api().post(state, scantest::holdings_request(0, valtest::first_snapshot,
                                                                      json::array(), 10)),
                         400,
                         "Expected 'ownerPartyIds' to contain at least one item, but contained "
                         "none.",
                         true));
    EXPECT_TRUE(laid_out(api().get("/api/scan/v0/transfer-command-counter/foo"), 400,
                         "Invalid unique identifier `foo` with missing namespace.", true));
    EXPECT_TRUE(laid_out(api().post(state, holdings("2025-01-02T00:00:01Z", "")), 404,
                         "Failed to find ACS snapshot for migration id 0 at 2025-01-02T00:00:01Z",
                         true));
    EXPECT_TRUE(laid_out(api().get("/api/scan/v0/no-such-thing"), 404,
                         "The requested resource could not be found: "
                         "http://localhost:7575/api/scan/v0/no-such-thing",
                         true));
    EXPECT_TRUE(
        laid_out(api().get("/api/validator/v0/wallet/transfer-offers", {token_of(api(), "carol")}),
                 404, "No wallet found for user 'carol' for operation 'listTransferOffers'", true));
    // Codec.tryDecode: a date-time Daml cannot hold, thrown as INVALID_ARGUMENT.
    EXPECT_TRUE(laid_out(api().post(state, holdings("+10000-01-01T00:00:00Z", "")), 400,
                         "Failed to decode: cannot convert instant +10000-01-01T00:00:00Z into "
                         "Timestamp:out of bound Timestamp 253402300800000000",
                         true));
}

TEST(SpliceErrorLayout, ReturnedErrorsAreCompact) {
    // queryWithOptionalAtOrBefore's Left: the request's OffsetDateTime as Java prints it.
    EXPECT_TRUE(laid_out(api().post("/api/scan/v0/holdings/state",
                                    holdings("2024-06-01T00:00:00+02:00", "at_or_before")),
                         404, "No snapshots found before 2024-06-01T00:00+02:00", false));
    EXPECT_TRUE(laid_out(api().get("/api/scan/v0/ans-entries/by-name/nobody.unverified.ans"), 404,
                         "No ans entry found for name: nobody.unverified.ans", false));
    EXPECT_TRUE(
        laid_out(api().send("POST", "/api/validator/v0/wallet/buy-traffic-requests/none/status", "",
                            {token_of(api(), "alice")}),
                 404, "Couldn't find buy traffic request with tracking id none", false));
    EXPECT_TRUE(
        laid_out(api().get("/api/validator/v0/wallet/transfer-offers", {token_of(api(), "erin")}),
                 403, "Authorization Failed for erin", false));
}

// ---- encodeResponse ---------------------------------------------------------------------------

std::string inflate(const std::string& data, bool gzip) {
    z_stream z{};
    EXPECT_EQ(inflateInit2(&z, gzip ? 16 + 15 : 15), Z_OK);
    std::string out(1 << 20, '\0');
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
    z.avail_in = static_cast<uInt>(data.size());
    z.next_out = reinterpret_cast<Bytef*>(out.data());
    z.avail_out = static_cast<uInt>(out.size());
    EXPECT_EQ(inflate(&z, Z_FINISH), Z_STREAM_END);
    out.resize(out.size() - z.avail_out);
    inflateEnd(&z);
    return out;
}

Response get_encoded(const std::string& target, const std::string& accept) {
    return api().get(target, {{"Accept-Encoding", accept}});
}

const std::string dso_party_id = "/api/scan/v0/dso-party-id";

TEST(SpliceEncoding, GzipWhenAskedAndTheSameJsonInside) {
    const Response plain = api().get(dso_party_id);
    const Response gzipped = get_encoded(dso_party_id, "gzip, deflate, br");

    ASSERT_EQ(gzipped.status, 200);
    EXPECT_EQ(gzipped.header("Content-Encoding"), "gzip");
    EXPECT_EQ(gzipped.content_type, "application/json");
    EXPECT_EQ(gzipped.body.substr(0, 10), std::string("\x1f\x8b\x08\0\0\0\0\0\0\0", 10));
    EXPECT_EQ(inflate(gzipped.body, true), plain.body);
    EXPECT_FALSE(plain.header("Content-Encoding").has_value());
}

TEST(SpliceEncoding, DeflateIsAZlibStream) {
    const Response response = get_encoded(dso_party_id, "deflate");

    EXPECT_EQ(response.header("Content-Encoding"), "deflate");
    EXPECT_EQ(inflate(response.body, false), api().get(dso_party_id).body);
}

struct Negotiation {
    std::string accept;
    std::string coding;  // "" identity, "406" refused
};

class SpliceNegotiation : public testing::TestWithParam<Negotiation> {};

TEST_P(SpliceNegotiation, FollowsPekkosEncodingNegotiator) {
    const Response response = get_encoded(dso_party_id, GetParam().accept);

    if (GetParam().coding == "406") {
        EXPECT_TRUE(is_rejection(response, 406,
                                 "Resource representation is only available with these "
                                 "Content-Encodings:\nidentity\ngzip\ndeflate"));
        return;
    }
    EXPECT_EQ(response.status, 200);
    EXPECT_EQ(response.header("Content-Encoding").value_or(""), GetParam().coding)
        << GetParam().accept;
}

INSTANTIATE_TEST_SUITE_P(
    Pekko, SpliceNegotiation,
    testing::Values(
        Negotiation{"", ""}, Negotiation{"gzip", "gzip"}, Negotiation{"deflate", "deflate"},
        Negotiation{"gzip;q=0", ""}, Negotiation{"identity;q=0", "406"}, Negotiation{"*", ""},
        Negotiation{"*;q=0", "406"}, Negotiation{"br", ""}, Negotiation{"deflate, gzip", "gzip"},
        Negotiation{"gzip;q=0.5, deflate", "deflate"}, Negotiation{"gzip, identity", ""},
        Negotiation{"gzip, *", ""}, Negotiation{"*;q=0.5, gzip", "gzip"},
        Negotiation{"gzip, identity;q=0", "gzip"}, Negotiation{"GZIP", "gzip"},
        Negotiation{"x-gzip", ""}, Negotiation{"gzip;q=2", ""}));

TEST(SpliceEncoding, JsonErrorsAreCompressedAndRejectionsAreNot) {
    const Response thrown = get_encoded("/api/scan/v0/transfer-command-counter/foo", "gzip");
    EXPECT_EQ(thrown.status, 400);
    EXPECT_EQ(thrown.header("Content-Encoding"), "gzip");
    EXPECT_EQ(inflate(thrown.body, true),
              indented_prefix + "Invalid unique identifier `foo` with missing namespace.\"\n}");

    const Response unknown = get_encoded("/api/scan/v0/no-such-thing", "gzip");
    EXPECT_EQ(unknown.status, 404);
    EXPECT_EQ(unknown.header("Content-Encoding"), "gzip");

    const Response rejected =
        api().send("POST", import_updates, import_body, {{"Accept-Encoding", "gzip"}});
    EXPECT_EQ(rejected.status, 415);
    EXPECT_FALSE(rejected.header("Content-Encoding").has_value());

    const Response wrong_method =
        api().send("DELETE", dso_party_id, "", {{"Accept-Encoding", "gzip"}});
    EXPECT_EQ(wrong_method.status, 405);
    EXPECT_FALSE(wrong_method.header("Content-Encoding").has_value());

    const Response unauthenticated =
        get_encoded("/api/validator/v0/wallet/transfer-offers", "gzip");
    EXPECT_EQ(unauthenticated.status, 401);
    EXPECT_FALSE(unauthenticated.header("Content-Encoding").has_value());

    // livez has no entity (HttpEntity.Empty, no content type): nothing to encode.
    const Response live = get_encoded("/api/scan/livez", "gzip");
    EXPECT_EQ(live.status, 200);
    EXPECT_EQ(live.body, "");
    EXPECT_FALSE(live.header("Content-Encoding").has_value());
}

// The bytes Java's GzipCompressor wrote for {"error":"x"} on OpenJDK 17 (zlib 1.2.13, level 6,
// SYNC_FLUSH then finish): header, deflate, 03 00, CRC-32 and size.
TEST(SpliceEncoding, GzipBytesMatchPekkosCompressor) {
    const std::string expected_hex =
        "1f8b0800000000000000"
        "aa564a2d2aca2f52b252aa50aa05000000ffff"
        "0300"
        "bd263fa1"
        "0d000000";
    const std::string encoded = http::encode_body(R"({"error":"x"})", http::ContentCoding::gzip);
    std::string hex;
    for (const char c : encoded) {
        static constexpr char digits[] = "0123456789abcdef";
        hex += digits[static_cast<unsigned char>(c) >> 4];
        hex += digits[static_cast<unsigned char>(c) & 0xF];
    }
    EXPECT_EQ(hex, expected_hex);
}

}  // namespace
}  // namespace cantonlite::areas::splice_framework_test
