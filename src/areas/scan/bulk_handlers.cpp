// Scan's bulk storage (pre-alpha in scan.yaml; seed/scan_bulk.hpp): GET /v0/history/bulk/acs
// (listBulkAcsSnapshotObjects), POST /v0/history/bulk/updates (listBulkUpdateHistoryObjects) and
// the download of their objects, GET /v0/history/bulk/download/{object_key}. Every ACS snapshot of
// cantonlite's Scan is one in bulk storage, and the updates between two snapshots (from the start
// of the history to the first) are one segment of the update history; objects are made when asked
// for, as Splice's SingleAcsSnapshotBulkStorage and UpdateHistorySegmentBulkStorage write them:
// the created events of /v2/state/acs, or the updates of /v2/updates, one per line with sorted
// keys, in zstd frames.
#include <algorithm>
#include <functional>
#include <memory>
#include <mutex>

#include <nlohmann/json.hpp>

#include "cantonlite/areas/scan/scan_handlers.hpp"
#include "cantonlite/areas/scan/scan_json.hpp"
#include "cantonlite/areas/splice_request.hpp"
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

// `text` (lines) as Scan's objects, as S3ZstdObjects cuts them: zstd frames of about 12 MiB of
// text, an object closed once it holds 128 MiB or more; one empty object for no text.
std::vector<BulkObject> objects_of(std::string_view text,
                                   const std::function<std::string(std::size_t)>& key_of) {
    std::vector<BulkObject> objects;
    std::string frames;
    const auto put = [&] {
        BulkObject o{.key = key_of(objects.size()), .bytes = std::move(frames), .digest = {}};
        o.digest = seed::bulk_digest(o.bytes);
        objects.push_back(std::move(o));
        frames.clear();
    };
    for (std::string_view rest = text; !rest.empty();) {
        std::size_t take = std::min(rest.size(), seed::bulk_frame_size);
        if (take < rest.size()) take = rest.find('\n', take - 1) + 1;
        frames += seed::zstd_compress_frames(rest.substr(0, take));
        rest.remove_prefix(take);
        if (frames.size() >= max_object_bytes) put();
    }
    if (!frames.empty() || objects.empty()) put();
    return objects;
}

// A JSON object written by cantonlite, as circe's noSpacesSortKeys writes it (nlohmann's objects
// keep their keys sorted), then a new line.
void append_sorted_line(std::string& text, const std::string& item) {
    text +=
        nlohmann::json::parse(item).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    text += '\n';
}

// The objects of one snapshot. The last snapshot asked for is kept, so that a listing and the
// downloads after it make them once (keyed by the snapshot's rows, which it holds: a snapshot
// taken anew after a revert has other rows).
using Objects = std::shared_ptr<const std::vector<BulkObject>>;  // shared with the cache

Objects acs_objects(const Store& store, const store::Snapshot& snapshot) {
    static std::mutex mutex;
    static std::shared_ptr<const store::AcsRows> cached_rows;
    static Objects cached;
    {
        const std::lock_guard lock(mutex);
        if (cached_rows == snapshot.acs_data()) return cached;
    }
    std::string text;
    std::string item;
    for (const model::ContractPtr& c : snapshot.acs.rows) {
        item.clear();
        append_active_contract(item, *c,
                               detail::created_in_update_id(store, *c, snapshot.migration_id));
        append_sorted_line(text, item);
    }
    auto objects = std::make_shared<std::vector<BulkObject>>(objects_of(
        text, [&](std::size_t n) { return seed::bulk_acs_key(snapshot.record_time, n); }));
    const std::lock_guard lock(mutex);
    cached_rows = snapshot.acs_data();
    cached = objects;
    return objects;
}

// A segment of the update history in bulk storage: the updates after one snapshot up to the
// next one (the first from the start of the history), in a folder named by their record times,
// as UpdateHistoryBulkStorage dumps them (its segments end at its bulk snapshots; the first
// starts at CantonTimestamp.MinValue).
struct Segment {
    model::Timestamp from;
    model::Timestamp to;
    std::optional<std::pair<std::int64_t, model::Timestamp>> after;  // nullopt: the start
    std::pair<std::int64_t, model::Timestamp> last;                  // its end: the snapshot's
    store::SnapshotPtr end;  // the snapshot that ends it, while it lasts the same updates

    // "<from>~<to>/", as S3 lists a folder.
    [[nodiscard]] std::string folder() const {
        return model::format_instant(from) + "~" + model::format_instant(to) + "/";
    }
};

// The segments of the history so far, in time order: one per snapshot.
std::vector<Segment> segments_of(const Store& store) {
    static const model::Timestamp min_value = *model::parse_timestamp("0001-01-01T00:00:00Z");
    std::vector<Segment> out;
    for (const auto& [migration, time] : store.snapshot_times()) {
        Segment s{.from = out.empty() ? min_value : out.back().to,
                  .to = time,
                  .after = out.empty() ? std::nullopt : std::optional(out.back().last),
                  .last = {migration, time},
                  .end = store.snapshot(migration, time, false)};
        out.push_back(std::move(s));
    }
    return out;
}

// The compact_json objects of a segment (none when it holds no update: Scan writes no folder for
// it). The last few segments asked for are kept, keyed by their ending snapshot.
Objects update_objects(const Store& store, const Segment& segment) {
    struct Kept {
        store::SnapshotPtr end;
        model::Timestamp from;
        Objects objects;
    };
    static std::mutex mutex;
    static std::vector<Kept> kept;  // the latest last
    constexpr std::size_t keep = 8;
    {
        const std::lock_guard lock(mutex);
        for (const Kept& k : kept) {
            if (k.end == segment.end && k.from == segment.from) return k.objects;
        }
    }
    std::string text;
    std::string item;
    std::optional<std::pair<std::int64_t, model::Timestamp>> after = segment.after;
    constexpr std::size_t page = 1000;
    for (bool more = true; more;) {
        const std::vector<store::UpdatePtr> updates = store.history_page(after, page);
        more = updates.size() >= page;
        for (const store::UpdatePtr& u : updates) {
            const std::pair position{store::migration_id_of(*u), store::record_time_of(*u)};
            if (position > segment.last) {
                more = false;
                break;
            }
            item.clear();
            append_update_history_item_v2(item, *u, DamlValueEncoding::compact_json);
            append_sorted_line(text, item);
            after = position;
        }
    }
    auto objects = std::make_shared<std::vector<BulkObject>>();
    if (!text.empty()) {
        *objects = objects_of(text, [&](std::size_t n) {
            return seed::bulk_updates_key(segment.from, segment.to, "compact_json", n);
        });
    }
    const std::lock_guard lock(mutex);
    kept.push_back(Kept{.end = segment.end, .from = segment.from, .objects = objects});
    if (kept.size() > keep) kept.erase(kept.begin());
    return objects;
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

// "object_refs": [{"url", "digest"}] of `objects`, each url this Scan's download of it.
void append_object_refs(std::string& out, const Context& ctx,
                        const std::vector<const BulkObject*>& objects, bool first_field) {
    http::append_key(out, "object_refs", first_field);
    out += '[';
    bool first = true;
    for (const BulkObject* o : objects) {
        if (!first) out += ',';
        first = false;
        out += "{\"url\":";
        // The client's Host, as circe writes a string (not UTF-8: U+FFFD).
        out += http::circe_json_string(download_url(ctx, o->key));
        http::append_string_field(out, "digest", o->digest);
        out += '}';
    }
    out += ']';
}

// The object stored under `key` (null when there is none), and the objects it is among.
struct Stored {
    Objects among;
    const BulkObject* object = nullptr;
};
Stored object_at(const Store& store, const std::string& key) {
    const auto parsed = seed::parse_bulk_key(key);
    const auto in = [&key](Objects objects) {
        for (const BulkObject& o : *objects) {
            if (o.key == key) return Stored{.among = objects, .object = &o};
        }
        return Stored{};
    };
    if (parsed && parsed->kind == seed::BulkKey::Kind::acs) {
        if (const auto t = model::parse_timestamp(parsed->folder)) {
            for (const auto& [migration, time] : store.snapshot_times()) {
                if (time != *t) continue;
                if (Stored found = in(acs_objects(store, *store.snapshot(migration, time, false)));
                    found.object != nullptr)
                    return found;
            }
        }
    } else if (parsed && parsed->encoding == "compact_json") {
        for (const Segment& s : segments_of(store)) {
            if (s.folder() == parsed->folder + "/") return in(update_objects(store, s));
        }
    }
    return {};
}

}  // namespace

http::Response get_bulk_acs(const Store& store, const Context& ctx) {
    const model::Timestamp at =
        detail::ledger_time(detail::date_time_param(ctx, "at_or_before_record_time"));
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
    const Objects objects = acs_objects(store, *snapshot);
    std::vector<const BulkObject*> refs;
    for (const BulkObject& o : *objects) refs.push_back(&o);
    append_object_refs(out, ctx, refs, false);
    out += '}';
    return http::Response::json(200, std::move(out));
}

http::Response post_bulk_updates(const Store& store, const Context& ctx) {
    // The body as guardrail decodes it, field by field, then the handler's conversions in order.
    const nlohmann::json body = json_body(ctx.request);
    const JavaDateTime start = date_time_member(body, "start_record_time");
    const JavaDateTime end = date_time_member(body, "end_record_time");
    const std::optional<std::string> token = optional_string_member(body, "next_page_token");
    const std::int32_t page_size = int32_member(body, "page_size");
    const model::Timestamp after = detail::ledger_time(start);
    const model::Timestamp up_to = detail::ledger_time(end);
    const std::size_t limit = page_limit(page_size);

    // UpdateHistoryBulkStorage.getUpdatesBetweenDates: the folders in range, after the token, of
    // segments dumped whole, in S3's (lexicographic) order, at most `limit` of them; their
    // objects while they fit in `limit`, a folder whole or not at all.
    const std::vector<Segment> segments = segments_of(store);
    std::vector<std::pair<const Segment*, std::string>> folders;
    for (const Segment& s : segments) {
        std::string folder = s.folder();
        if (s.from < up_to && s.to > after && (!token || folder > *token))
            folders.emplace_back(&s, std::move(folder));
    }
    std::sort(folders.begin(), folders.end(),
              [](const auto& a, const auto& b) { return a.second < b.second; });
    std::vector<Objects> held;  // the folders listed, which `listed` points into
    std::vector<const BulkObject*> listed;
    const Segment* last = nullptr;
    std::size_t listed_folders = 0;
    for (const auto& [segment, folder] : folders) {
        if (listed_folders == limit) break;
        Objects objects = update_objects(store, *segment);
        if (objects->empty()) continue;  // no folder in storage
        ++listed_folders;
        if (listed.size() + objects->size() > limit) {
            if (listed.empty()) {
                throw ApiError(ErrorKind::invalid_argument, "",
                               "Limit of " + std::to_string(limit) +
                                   " is too low to return any objects, even from a single "
                                   "folder of objects");
            }
            break;
        }
        for (const BulkObject& o : *objects) listed.push_back(&o);
        held.push_back(std::move(objects));
        last = segment;
    }
    // The next page: the last folder listed while it ends before the end asked for; with nothing
    // listed, the same token again while storage has not reached that end (to be retried).
    std::optional<std::string> next;
    if (last != nullptr) {
        if (last->to < up_to) next = last->folder();
    } else if (segments.empty() || segments.back().to < up_to) {
        next = token;
    }

    std::string out = "{";
    append_object_refs(out, ctx, listed, true);
    if (next) {
        http::append_string_field(out, "next_page_token", *next);
    } else {
        http::append_null_field(out, "next_page_token");
    }
    out += '}';
    return http::Response::json(200, std::move(out));
}

http::Response get_bulk_download(const Store& store, const Context& ctx) {
    const std::string& key = ctx.params.get("object_key");
    const Stored stored = object_at(store, key);
    if (stored.object == nullptr)
        throw ApiError(ErrorKind::not_found, "", "Object not found: " + key).as_returned();
    http::Response r = http::Response::text(200, stored.object->bytes);
    r.content_type = "application/octet-stream";
    return r;
}

// Splice 0.9's internal endpoints, with which SVs compare what they dumped (BulkStorageReader):
// each object's checksum, in the keys' order, null for an object not in storage; and whether the
// dump has reached a record time. cantonlite's storage holds every snapshot's objects and every
// segment up to the latest snapshot, made when asked for.
http::Response post_bulk_checksums(const Store& store, const Context& ctx) {
    const nlohmann::json body = json_body(ctx.request);
    const std::vector<std::string> keys = string_array_member(body, "object_keys");
    std::string out = "{\"checksums\":[";
    for (std::size_t i = 0; i < keys.size(); ++i) {
        if (i > 0) out += ',';
        out += '{';
        if (const Stored stored = object_at(store, keys[i]); stored.object != nullptr) {
            http::append_string_field(out, "value", stored.object->digest, true);
        } else {
            http::append_null_field(out, "value", true);
        }
        out += '}';
    }
    out += "]}";
    return http::Response::json(200, std::move(out));
}

http::Response get_bulk_progress(const Store& store, const Context& ctx) {
    const model::Timestamp at = detail::ledger_time(detail::date_time_param(ctx, "record_time"));
    // Both the ACS snapshots and the update history's segments are dumped to the latest snapshot.
    bool beyond = false;
    for (const auto& [migration, time] : store.snapshot_times()) beyond = beyond || time >= at;
    return http::Response::json(
        200, std::string("{\"beyond_requested_record_time\":") + (beyond ? "true" : "false") + "}");
}

}  // namespace cantonlite::areas::scan
