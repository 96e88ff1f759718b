// Scan's bulk storage (pre-alpha in scan.yaml; seed/scan_bulk.hpp): GET /v0/history/bulk/acs
// (listBulkAcsSnapshotObjects) and the download of its objects, GET
// /v0/history/bulk/download/{object_key}. Every ACS snapshot of cantonlite's Scan is one in bulk
// storage; its objects are made when asked for, as Splice's SingleAcsSnapshotBulkStorage writes
// them: the created events of /v2/state/acs, one per line with sorted keys, in zstd frames.
#include <memory>
#include <mutex>

#include <nlohmann/json.hpp>

#include "cantonlite/areas/scan/scan_handlers.hpp"
#include "cantonlite/areas/scan/scan_json.hpp"
#include "cantonlite/http/area.hpp"
#include "cantonlite/http/json_text.hpp"
#include "cantonlite/seed/scan_bulk.hpp"
#include "snapshot_support.hpp"

namespace cantonlite::areas::scan {
namespace {

using http::ApiError;
using http::ErrorKind;

constexpr std::string_view download_path = "/api/scan/v0/history/bulk/download/";
constexpr std::size_t max_object_bytes = std::size_t{128} << 20;  // Scan's bulkMaxFileSize

struct BulkObject {
    std::string key;
    std::string bytes;
    std::string digest;
};

// The objects of one snapshot. The last snapshot asked for is kept, so that a listing and the
// downloads after it make them once (keyed by the snapshot's rows, which it holds: a snapshot
// taken anew after a revert has other rows).
std::vector<BulkObject> acs_objects(const Store& store, const store::Snapshot& snapshot) {
    static std::mutex mutex;
    static std::shared_ptr<const store::AcsRows> cached_rows;
    static std::shared_ptr<const std::vector<BulkObject>> cached;
    {
        const std::lock_guard lock(mutex);
        if (cached_rows == snapshot.acs_data()) return *cached;
    }
    std::string text;
    std::string item;
    for (const model::ContractPtr& c : snapshot.acs.rows) {
        item.clear();
        append_active_contract(item, *c,
                               detail::created_in_update_id(store, *c, snapshot.migration_id));
        // noSpacesSortKeys: nlohmann's objects keep their keys sorted.
        text += nlohmann::json::parse(item).dump(-1, ' ', false,
                                                 nlohmann::json::error_handler_t::replace);
        text += '\n';
    }
    auto objects = std::make_shared<std::vector<BulkObject>>();
    std::string frames;
    const auto put = [&] {
        BulkObject o{.key = seed::bulk_acs_key(snapshot.record_time, objects->size()),
                     .bytes = std::move(frames),
                     .digest = {}};
        o.digest = seed::bulk_digest(o.bytes);
        objects->push_back(std::move(o));
        frames.clear();
    };
    for (std::string_view rest = text; !rest.empty();) {
        std::size_t take = std::min(rest.size(), seed::bulk_frame_size);
        if (take < rest.size()) take = rest.find('\n', take - 1) + 1;
        frames += seed::zstd_compress_frames(rest.substr(0, take));
        rest.remove_prefix(take);
        if (frames.size() >= max_object_bytes) put();
    }
    if (!frames.empty() || objects->empty()) put();
    const std::lock_guard lock(mutex);
    cached_rows = snapshot.acs_data();
    cached = objects;
    return *objects;
}

// Where this Scan serves an object: by the Host the client used.
std::string download_url(const Context& ctx, const std::string& key) {
    const std::string host = std::string(ctx.request.header("Host").value_or("localhost"));
    std::string url = "http://" + host + std::string(download_path);
    static constexpr char hex[] = "0123456789ABCDEF";
    for (const char ch : key) {  // URLEncoder.encode(key, UTF-8)
        const auto c = static_cast<unsigned char>(ch);
        if (std::isalnum(c) != 0 || c == '.' || c == '-' || c == '*' || c == '_') {
            url += ch;
        } else if (c == ' ') {
            url += '+';
        } else {
            url += '%';
            url += hex[c >> 4];
            url += hex[c & 15];
        }
    }
    return url;
}

}  // namespace

http::Response get_bulk_acs(const Store& store, const Context& ctx) {
    const auto param = ctx.request.query_param("at_or_before_record_time");
    if (!param) {
        throw http::DecodeError(
            "Request is missing required query parameter 'at_or_before_record_time'", 404);
    }
    auto time = parse_guardrail_date_time(*param);
    if (auto* error = std::get_if<std::string>(&time)) {
        throw http::DecodeError(
            "The query parameter 'at_or_before_record_time' was malformed:\nDecodingFailure at : " +
            *error);
    }
    const model::Timestamp at = detail::ledger_time(std::get<JavaDateTime>(time));
    // The latest snapshot at or before `at`, of any migration.
    const auto times = store.snapshot_times();
    if (times.empty()) {
        throw ApiError(ErrorKind::not_found, "", "no snapshot in bulk storage yet").as_returned();
    }
    store::SnapshotPtr snapshot;
    for (auto it = times.rbegin(); it != times.rend() && !snapshot; ++it) {
        if (it->second <= at) snapshot = store.snapshot(it->first, it->second, false);
    }
    if (!snapshot) {
        throw ApiError(ErrorKind::not_found, "",
                       "No snapshot objects found in bulk storage at expected timestamp at or "
                       "before " +
                           model::format_instant(at) +
                           ", this may be because the timestamp is before network genesis")
            .as_returned();
    }
    std::string out = "{";
    http::append_string_field(out, "record_time",
                              model::format_offset_date_time(snapshot->record_time), true);
    http::append_key(out, "object_refs");
    out += '[';
    bool first = true;
    for (const BulkObject& o : acs_objects(store, *snapshot)) {
        if (!first) out += ',';
        first = false;
        out += "{\"url\":";
        // The client's Host, as circe writes a string (not UTF-8: U+FFFD).
        out += http::circe_json_string(download_url(ctx, o.key));
        http::append_string_field(out, "digest", o.digest);
        out += '}';
    }
    out += "]}";
    return http::Response::json(200, std::move(out));
}

http::Response get_bulk_download(const Store& store, const Context& ctx) {
    const std::string& key = ctx.params.get("object_key");
    const auto parsed = seed::parse_bulk_key(key);
    const auto t = parsed && parsed->kind == seed::BulkKey::Kind::acs
                       ? model::parse_timestamp(parsed->folder)
                       : std::nullopt;
    if (t) {
        for (const auto& [migration, time] : store.snapshot_times()) {
            if (time != *t) continue;
            const store::SnapshotPtr snapshot = store.snapshot(migration, time, false);
            for (const BulkObject& o : acs_objects(store, *snapshot)) {
                if (o.key != key) continue;
                http::Response r = http::Response::text(200, o.bytes);
                r.content_type = "application/octet-stream";
                return r;
            }
        }
    }
    throw ApiError(ErrorKind::not_found, "", "Object not found: " + key).as_returned();
}

}  // namespace cantonlite::areas::scan
