// Scan's update history as explorers backfill it: POST /v2/updates (getUpdateHistoryV2) and
// GET /v2/updates/{update_id} (getUpdateByIdV2); splice-behavior.md §3, §4.
#include <cctype>
#include <limits>

#include "cantonlite/areas/scan/scan_handlers.hpp"
#include "cantonlite/areas/scan/scan_json.hpp"
#include "cantonlite/areas/splice_request.hpp"

namespace cantonlite::areas::scan {
namespace {

using http::ApiError;
using http::ErrorKind;

constexpr std::int64_t update_history_max_page_size = 1000;  // updateHistoryMaxPageSize

[[noreturn]] void decoding_failure(std::string_view path, std::string_view what) {
    throw http::DecodeError("The request content was malformed:\nDecodingFailure at ." +
                            std::string(path) + ": " + std::string(what));
}

DamlValueEncoding encoding_of(std::string_view text, bool& ok) {
    ok = true;
    if (text == "compact_json") return DamlValueEncoding::compact_json;
    if (text == "protobuf_json") return DamlValueEncoding::protobuf_json;
    ok = false;
    return DamlValueEncoding::compact_json;
}

DamlValueEncoding encoding_member(const nlohmann::json& body) {
    const auto it = body.find("daml_value_encoding");
    if (it == body.end() || it->is_null()) return DamlValueEncoding::compact_json;
    bool ok = false;
    const DamlValueEncoding e = it->is_string() ? encoding_of(it->get_ref<const std::string&>(), ok)
                                                : DamlValueEncoding::compact_json;
    if (!ok) {
        decoding_failure("daml_value_encoding", "Unknown value " + it->dump() +
                                                    " (valid values: compact_json, protobuf_json)");
    }
    return e;
}

// The index where java.time's ISO_INSTANT parser stops on `s`: the end of the longest prefix of
// the shape "yyyy-mm-ddThh:mm[:ss[.f…]](Z|±hh:mm)". Approximate for texts of the right shape
// whose fields are out of range.
std::size_t instant_error_index(std::string_view s) {
    std::size_t i = 0;
    const auto digits = [&](std::size_t n) {
        for (std::size_t k = 0; k < n; ++k, ++i) {
            if (i >= s.size() || std::isdigit(static_cast<unsigned char>(s[i])) == 0) return false;
        }
        return true;
    };
    const auto literal = [&](char c) {
        if (i < s.size() && s[i] == c) {
            ++i;
            return true;
        }
        return false;
    };
    if (!digits(4) || !literal('-') || !digits(2) || !literal('-') || !digits(2)) return i;
    if (!(literal('T') || literal('t')) || !digits(2) || !literal(':') || !digits(2)) return i;
    if (literal(':')) {
        if (!digits(2)) return i;
        if (literal('.')) {
            while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i])) != 0) ++i;
        }
    }
    return i;
}

// HttpScanHandler.parseTimestamp: Instant.parse, else IllegalArgumentException (400).
model::Timestamp parse_after_record_time(const std::string& text) {
    if (auto t = model::parse_timestamp(text)) return *t;
    // ISO_INSTANT also reads times without seconds ("2025-01-01T10:00Z").
    if (text.size() > 16 && text[13] == ':' &&
        (text[16] == 'Z' || text[16] == '+' || text[16] == '-')) {
        if (auto t = model::parse_timestamp(text.substr(0, 16) + ":00" + text.substr(16))) {
            return *t;
        }
    }
    throw ApiError(ErrorKind::invalid_argument, "",
                   "Invalid timestamp: Text '" + text + "' could not be parsed at index " +
                       std::to_string(instant_error_index(text)));
}

}  // namespace

http::Response post_updates_v2(const Store& store, const Context& ctx) {
    const nlohmann::json body = json_body(ctx.request);
    std::optional<std::pair<std::int64_t, std::string>> after_text;
    if (const auto it = body.find("after"); it != body.end() && !it->is_null()) {
        if (!it->is_object()) decoding_failure("after", "Object");
        const nlohmann::json& a = *it;
        const auto m = a.find("after_migration_id");
        if (m == a.end()) decoding_failure("after.after_migration_id", "Missing required field");
        if (!m->is_number_integer() ||
            (m->is_number_unsigned() &&
             m->get<std::uint64_t>() >
                 static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))) {
            decoding_failure("after.after_migration_id", "Long");
        }
        const auto t = a.find("after_record_time");
        if (t == a.end()) decoding_failure("after.after_record_time", "Missing required field");
        if (!t->is_string()) decoding_failure("after.after_record_time", "String");
        after_text.emplace(m->get<std::int64_t>(), t->get<std::string>());
    }
    const std::int32_t page_size = int32_member(body, "page_size");
    const DamlValueEncoding encoding = encoding_member(body);
    // The real order: the after record time is parsed first, the page size checked later.
    std::optional<std::pair<std::int64_t, model::Timestamp>> after;
    if (after_text) after.emplace(after_text->first, parse_after_record_time(after_text->second));
    const std::size_t limit = page_limit(page_size, update_history_max_page_size);
    std::string out = R"({"transactions":[)";
    bool first = true;
    for (const store::UpdatePtr& update : store.history_page(after, limit)) {
        if (!first) out += ',';
        first = false;
        append_update_history_item_v2(out, *update, encoding);
    }
    out += "]}";
    return http::Response::json(200, std::move(out));
}

http::Response get_update_by_id_v2(const Store& store, const Context& ctx) {
    const std::string& update_id = ctx.params.get("update_id");
    DamlValueEncoding encoding = DamlValueEncoding::compact_json;
    if (auto text = ctx.request.query_param("daml_value_encoding")) {
        bool ok = false;
        encoding = encoding_of(*text, ok);
        if (!ok) {
            throw http::DecodeError("The query parameter 'daml_value_encoding' was malformed:\n'" +
                                    *text + "' is not a valid DamlValueEncoding");
        }
    }
    const store::UpdatePtr update = store.update_by_id(update_id);
    if (!update) {
        throw ApiError(ErrorKind::not_found, "", "Transaction with id " + update_id + " not found");
    }
    std::string out;
    append_update_history_item_v2(out, *update, encoding);
    return http::Response::json(200, std::move(out));
}

}  // namespace cantonlite::areas::scan
