// Scan's update history as explorers backfill it: POST /v2/updates (getUpdateHistoryV2) and
// GET /v2/updates/{update_id} (getUpdateByIdV2); splice-behavior.md §3, §4.
#include <limits>

#include "cantonlite/areas/java_time.hpp"
#include "cantonlite/areas/scan/scan_handlers.hpp"
#include "cantonlite/areas/scan/scan_json.hpp"
#include "cantonlite/areas/splice_request.hpp"

namespace cantonlite::areas::scan {
namespace {

using http::ApiError;
using http::ErrorKind;

constexpr std::int64_t update_history_max_page_size = 1000;  // updateHistoryMaxPageSize

DamlValueEncoding encoding_of(std::string_view text) {
    return text == "protobuf_json" ? DamlValueEncoding::protobuf_json
                                   : DamlValueEncoding::compact_json;
}

// HttpScanHandler.parseTimestamp: Instant.parse, then Daml's Timestamp.fromInstant; either's
// failure is an IllegalArgumentException "Invalid timestamp: <message>" (400).
model::Timestamp parse_after_record_time(const std::string& text) {
    auto instant = parse_java_instant(text);
    std::variant<model::Timestamp, std::string> t =
        std::holds_alternative<std::string>(instant)
            ? std::variant<model::Timestamp, std::string>(std::get<std::string>(instant))
            : daml_timestamp(std::get<JavaDateTime>(instant));
    if (auto* error = std::get_if<std::string>(&t)) {
        throw ApiError(ErrorKind::invalid_argument, "", "Invalid timestamp: " + *error);
    }
    return std::get<model::Timestamp>(t);
}

}  // namespace

http::Response post_updates_v2(const Store& store, const Context& ctx) {
    const nlohmann::json body = json_body(ctx.request);
    std::optional<std::pair<std::int64_t, std::string>> after_text;
    if (const nlohmann::json* a = optional_object_member(body, "after")) {
        const auto field = [&](std::string_view key, std::string_view path) {
            const auto it = a->is_object() ? a->find(key) : a->end();
            if (it == a->end()) fail_missing(path);
            return *it;
        };
        const std::int64_t migration = decode_long(
            field("after_migration_id", "after.after_migration_id"), "after.after_migration_id");
        after_text.emplace(migration,
                           decode_string(field("after_record_time", "after.after_record_time"),
                                         "after.after_record_time"));
    }
    const std::int32_t page_size = int32_member(body, "page_size");
    const DamlValueEncoding encoding =
        encoding_of(enum_member(body, "daml_value_encoding", "DamlValueEncoding",
                                {"compact_json", "protobuf_json"}, "compact_json"));
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

namespace {

// ?daml_value_encoding=, as guardrail decodes it.
DamlValueEncoding encoding_param(const Context& ctx) {
    const auto text = ctx.request.query_param("daml_value_encoding");
    if (!text) return DamlValueEncoding::compact_json;
    // guardrail decodes a string parameter as a JSON string with circe: the path is empty.
    if (*text != "compact_json" && *text != "protobuf_json") {
        throw http::DecodeError(
            "The query parameter 'daml_value_encoding' was malformed:\nDecodingFailure at : " +
            *text + " not a member of DamlValueEncoding");
    }
    return encoding_of(*text);
}

}  // namespace

http::Response get_update_by_id_v2(const Store& store, const Context& ctx) {
    const std::string& update_id = ctx.params.get("update_id");
    const DamlValueEncoding encoding = encoding_param(ctx);
    const store::UpdatePtr update = store.update_by_id(update_id);
    if (!update) {
        throw ApiError(ErrorKind::not_found, "", "Transaction with id " + update_id + " not found")
            .as_returned();
    }
    std::string out;
    append_update_history_item_v2(out, *update, encoding);
    return http::Response::json(200, std::move(out));
}

http::Response get_update_by_hash(const Store& store, const Context& ctx) {
    const std::string& hash = ctx.params.get("hash");
    const DamlValueEncoding encoding = encoding_param(ctx);
    const auto offset = store.offset_of_external_hash(hash);
    const store::UpdatePtr update = offset ? store.update_at(*offset) : nullptr;
    if (!update) {
        throw ApiError(ErrorKind::not_found, "", "Transaction with hash " + hash + " not found")
            .as_returned();
    }
    std::string out;
    append_update_history_item_v2(out, *update, encoding);
    return http::Response::json(200, std::move(out));
}

}  // namespace cantonlite::areas::scan
