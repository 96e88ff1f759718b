#include "scan_dump.hpp"

#include <algorithm>
#include <system_error>
#include <utility>

#include <nlohmann/json.hpp>

#include "cantonlite/seed/scan_bulk.hpp"
#include "cantonlite/util/whole_file.hpp"

namespace cantonlite::app {

// An object of the dump, as the manifest names it. (Not of the anonymous namespace: DumpWriter's
// Impl, which has external linkage, holds some.)
struct DumpObject {
    std::string key;
    std::string digest;
    std::size_t items = 0;  // contracts or updates
    std::string encoding = "compact_json";
};

namespace {

using json = nlohmann::json;
namespace fs = std::filesystem;

constexpr int manifest_format = 1;
constexpr std::size_t max_object_text = std::size_t{4} << 30;  // what one object may expand to
constexpr std::size_t acs_lines_per_page = 1000;
constexpr std::size_t update_lines_per_page = 500;

json object_json(const DumpObject& o, const char* items) {
    json out = {{"key", o.key}, {"digest", o.digest}, {items, o.items}};
    if (std::string_view(items) == "updates") out["encoding"] = o.encoding;
    return out;
}

// A key of the dump: relative, without "." or ".." steps (it names a file under the folder).
bool safe_key(const std::string& key) {
    if (key.empty() || key.front() == '/' || key.find('\\') != std::string::npos) return false;
    for (const auto& step : fs::path(key)) {
        if (step == "." || step == ".." || step.empty()) return false;
    }
    return true;
}

void write_whole(const fs::path& path, std::string_view bytes) {
    std::error_code ec;
    fs::create_directories(path.parent_path(), ec);
    if (ec) throw DumpError(path.parent_path().string() + ": cannot be made: " + ec.message());
    if (const auto failed = util::write_file_atomically(path, bytes)) throw DumpError(*failed);
}

}  // namespace

struct DumpWriter::Impl {
    // One run of objects: the ACS, or the updates in one encoding.
    struct Run {
        std::string encoding;
        std::string text;    // lines not yet in a frame
        std::string frames;  // frames not yet in an object
        std::size_t text_items = 0;
        std::size_t frame_items = 0;
        std::vector<DumpObject> objects;  // written, under their staging keys
    };

    fs::path dir;
    fs::path staging;
    std::size_t object_size;
    std::size_t frame_size;
    bool committed = false;
    seed::ForkSource source;
    std::vector<std::pair<model::Timestamp, std::int64_t>> rounds;
    std::vector<std::pair<std::int64_t, model::Timestamp>> snapshots;
    Run acs{.encoding = "compact_json"};
    Run compact{.encoding = "compact_json"};
    Run typed{.encoding = "protobuf_json"};
    seed::ForkCounts counts;
    std::optional<model::Timestamp> last_update;  // record time
    bool acs_from_bulk = false;                   // Scan's objects: their keys sorted

    // The staging key of a run's object n.
    [[nodiscard]] std::string staging_key(const Run& run, std::size_t n) const {
        if (&run == &acs) return seed::bulk_acs_key(source.snapshot_time, n);
        return "updates/" + run.encoding + "_" + std::to_string(n) + ".zstd";
    }

    void put_object(Run& run, std::string_view bytes, std::size_t items) {
        DumpObject o{.key = staging_key(run, run.objects.size()),
                     .digest = seed::bulk_digest(bytes),
                     .items = items,
                     .encoding = run.encoding};
        write_whole(staging / o.key, bytes);
        run.objects.push_back(std::move(o));
    }

    // Compresses what the run holds into frames, and frames into objects, as far as they are
    // full, or all of it when `all`.
    void flush(Run& run, bool all) {
        if (run.text.size() >= frame_size || (all && !run.text.empty())) {
            run.frames += seed::zstd_compress_frames(run.text, frame_size);
            run.frame_items += run.text_items;
            run.text.clear();
            run.text_items = 0;
        }
        if (run.frames.size() >= object_size || (all && !run.frames.empty())) {
            put_object(run, run.frames, run.frame_items);
            run.frames.clear();
            run.frame_items = 0;
        }
    }
};

DumpWriter::DumpWriter(fs::path dir, std::size_t object_size, std::size_t frame_size)
    : impl_(std::make_unique<Impl>()) {
    std::error_code ec;
    if (fs::exists(dir, ec) && !(fs::is_directory(dir, ec) && fs::is_empty(dir, ec)))
        throw DumpError(dir.string() + ": exists and is not an empty folder; give a new one");
    impl_->staging = dir.string() + ".partial";
    fs::remove_all(impl_->staging, ec);
    if (!fs::create_directories(impl_->staging, ec) || ec)
        throw DumpError(impl_->staging.string() + ": cannot be made: " + ec.message());
    impl_->dir = std::move(dir);
    impl_->object_size = object_size;
    impl_->frame_size = frame_size;
}

DumpWriter::~DumpWriter() {
    if (impl_ && !impl_->committed) {
        std::error_code ignored;
        fs::remove_all(impl_->staging, ignored);
    }
}

void DumpWriter::start(const seed::ForkSource& source) {
    impl_->source = source;
}

seed::ForkPage DumpWriter::add_acs_page(const seed::ForkAnswer& answer) {
    Impl::Run& run = impl_->acs;
    seed::BulkPage page;
    try {
        page = seed::append_bulk_lines(answer.text(), "created_events", run.text);
    } catch (const seed::BulkError& e) {
        throw DumpError(std::string("an ACS page: ") + e.what());
    }
    run.text_items += page.items;
    impl_->counts.contracts += page.items;
    impl_->flush(run, false);
    return seed::ForkPage{.items = page.items, .next_page_token = page.next_page_token};
}

void DumpWriter::add_acs_object(const std::string& key, std::string object,
                                const std::string& digest) {
    const auto parsed = seed::parse_bulk_key(key);
    if (!safe_key(key) || !parsed || parsed->kind != seed::BulkKey::Kind::acs)
        throw DumpError("a bulk ACS object's key is not one: \"" + key + "\"");
    std::size_t contracts = 0;
    try {
        contracts = seed::bulk_lines(seed::zstd_decompress(object, max_object_text)).size();
    } catch (const seed::BulkError& e) {
        throw DumpError("the bulk object " + key + ": " + e.what());
    }
    write_whole(impl_->staging / key, object);
    impl_->acs_from_bulk = true;
    impl_->acs.objects.push_back(DumpObject{.key = key, .digest = digest, .items = contracts});
    impl_->counts.contracts += contracts;
}

void DumpWriter::add_round_at(model::Timestamp t, std::int64_t round) {
    impl_->rounds.emplace_back(t, round);
}

void DumpWriter::add_snapshot_time(std::int64_t migration, model::Timestamp t) {
    impl_->snapshots.emplace_back(migration, t);
}

seed::ForkPage DumpWriter::add_updates_page(const seed::ForkAnswer& typed,
                                            std::string_view labelled) {
    seed::ForkPage page = seed::ForkBuilder::positions_of(typed);
    try {
        (void)seed::append_bulk_lines(typed.text(), "transactions", impl_->typed.text);
        // The history may have grown between the two answers (typed first): the updates of the
        // typed one.
        std::string lines;
        const seed::BulkPage c = seed::append_bulk_lines(labelled, "transactions", lines);
        if (c.items < page.items) {
            throw DumpError("an update page: its compact_json answer holds fewer updates (" +
                            std::to_string(c.items) + ") than its protobuf_json one (" +
                            std::to_string(page.items) + ")");
        }
        std::size_t end = 0;
        for (std::size_t n = 0; n < page.items; ++n) end = lines.find('\n', end) + 1;
        impl_->compact.text.append(lines, 0, end);
    } catch (const seed::BulkError& e) {
        throw DumpError(std::string("an update page: ") + e.what());
    }
    impl_->typed.text_items += page.items;
    impl_->compact.text_items += page.items;
    impl_->counts.updates += page.items;
    if (!page.positions.empty()) {
        if (const auto t = model::parse_timestamp(page.positions.back().second))
            impl_->last_update = *t;
    }
    impl_->flush(impl_->typed, false);
    impl_->flush(impl_->compact, false);
    return page;
}

seed::ForkCounts DumpWriter::counts() const {
    return impl_->counts;
}

void DumpWriter::commit(const std::string& source_url, const std::string& release,
                        bool whole_history) {
    Impl& d = *impl_;
    d.flush(d.acs, true);
    d.flush(d.typed, true);
    d.flush(d.compact, true);
    // The updates' folder is named by the record times it spans.
    std::vector<DumpObject> updates;
    for (Impl::Run* run : {&d.compact, &d.typed}) {
        for (std::size_t n = 0; n < run->objects.size(); ++n) {
            DumpObject o = run->objects[n];
            const std::string key = seed::bulk_updates_key(
                d.source.snapshot_time, d.last_update.value_or(d.source.snapshot_time),
                run->encoding, n);
            std::error_code ec;
            fs::create_directories((d.staging / key).parent_path(), ec);
            fs::rename(d.staging / o.key, d.staging / key, ec);
            if (ec) throw DumpError((d.staging / key).string() + ": " + ec.message());
            o.key = key;
            updates.push_back(std::move(o));
        }
    }
    std::error_code ec;
    fs::remove(d.staging / "updates", ec);

    json manifest = {{"cantonlite_dump", manifest_format},
                     {"source", source_url},
                     {"release", release},
                     {"dso_party_id", d.source.dso_party},
                     {"synchronizer_id", d.source.synchronizer_id},
                     {"migration_id", d.source.migration_id},
                     {"record_time", model::format_instant(d.source.snapshot_time)},
                     {"whole_history", whole_history},
                     {"acs_from_bulk", d.acs_from_bulk},
                     {"contracts", d.counts.contracts},
                     {"updates", d.counts.updates}};
    if (d.source.lsu) {
        manifest["lsu"] = {
            {"topology_freeze_time", model::format_instant(d.source.lsu->topology_freeze_time)},
            {"upgrade_time", model::format_instant(d.source.lsu->upgrade_time)},
            {"successor_physical_synchronizer_id",
             d.source.lsu->successor_physical_synchronizer_id}};
    }
    manifest["rounds"] = json::array();
    for (const auto& [t, round] : d.rounds)
        manifest["rounds"].push_back({{"record_time", model::format_instant(t)}, {"round", round}});
    manifest["snapshots"] = json::array();
    for (const auto& [migration, t] : d.snapshots) {
        manifest["snapshots"].push_back(
            {{"migration_id", migration}, {"record_time", model::format_instant(t)}});
    }
    manifest["acs_objects"] = json::array();
    for (const DumpObject& o : d.acs.objects)
        manifest["acs_objects"].push_back(object_json(o, "contracts"));
    manifest["update_objects"] = json::array();
    for (const DumpObject& o : updates)
        manifest["update_objects"].push_back(object_json(o, "updates"));
    write_whole(d.staging / dump_manifest_name, manifest.dump(2) + "\n");

    // Into place: over an empty folder, or where there was none.
    fs::remove(d.dir, ec);
    fs::rename(d.staging, d.dir, ec);
    if (ec) throw DumpError(d.dir.string() + ": cannot be put in place: " + ec.message());
    d.committed = true;
}

namespace {

// What the manifest says, each field checked.
struct Manifest {
    seed::ForkSource source;
    std::string release;
    std::string source_url;
    bool whole_history = false;
    bool acs_from_bulk = true;  // absent: Scan's own objects, their keys sorted
    std::vector<std::pair<model::Timestamp, std::int64_t>> rounds;
    std::vector<std::pair<std::int64_t, model::Timestamp>> snapshots;
    std::vector<DumpObject> acs;
    std::vector<DumpObject> updates;
};

Manifest read_manifest(const fs::path& dir) {
    const fs::path path = dir / dump_manifest_name;
    const auto bytes = util::read_file(path);
    if (!bytes) {
        throw DumpError(path.string() +
                        ": cannot be read; a dump folder holds it (cantonlite dump writes it, "
                        "last: without it the dump is not whole)");
    }
    const json m = json::parse(*bytes, nullptr, false);
    const auto bad = [&](const std::string& why) { return DumpError(path.string() + ": " + why); };
    if (!m.is_object()) throw bad("not a JSON object");
    if (!m.contains("cantonlite_dump") || !m["cantonlite_dump"].is_number_integer())
        throw bad("not a dump's manifest (no cantonlite_dump)");
    if (m["cantonlite_dump"].get<std::int64_t>() != manifest_format) {
        throw bad("format " + m["cantonlite_dump"].dump() + ", this cantonlite reads format " +
                  std::to_string(manifest_format));
    }
    const auto text = [&](const json& o, const char* key) {
        if (!o.contains(key) || !o[key].is_string()) throw bad(std::string(key) + ": not a string");
        return o[key].get<std::string>();
    };
    const auto integer = [&](const json& o, const char* key) {
        if (!o.contains(key) || !o[key].is_number_integer() || o[key].get<std::int64_t>() < 0)
            throw bad(std::string(key) + ": not a whole number");
        return o[key].get<std::int64_t>();
    };
    const auto time = [&](const json& o, const char* key) {
        const auto t = model::parse_timestamp(text(o, key));
        if (!t) throw bad(std::string(key) + ": not a date-time");
        return *t;
    };
    const auto list = [&](const char* key) -> const json& {
        if (!m.contains(key) || !m[key].is_array()) throw bad(std::string(key) + ": not a list");
        return m[key];
    };
    Manifest out;
    out.source = seed::ForkSource{.dso_party = text(m, "dso_party_id"),
                                  .synchronizer_id = text(m, "synchronizer_id"),
                                  .migration_id = integer(m, "migration_id"),
                                  .snapshot_time = time(m, "record_time")};
    if (m.contains("lsu") && !m["lsu"].is_null()) {
        const json& l = m["lsu"];
        if (!l.is_object()) throw bad("lsu: not an object");
        out.source.lsu = model::Lsu{
            .topology_freeze_time = time(l, "topology_freeze_time"),
            .upgrade_time = time(l, "upgrade_time"),
            .successor_physical_synchronizer_id = text(l, "successor_physical_synchronizer_id")};
    }
    out.release = text(m, "release");
    out.source_url = text(m, "source");
    if (!m.contains("whole_history") || !m["whole_history"].is_boolean())
        throw bad("whole_history: not true or false");
    out.whole_history = m["whole_history"].get<bool>();
    if (m.contains("acs_from_bulk")) {
        if (!m["acs_from_bulk"].is_boolean()) throw bad("acs_from_bulk: not true or false");
        out.acs_from_bulk = m["acs_from_bulk"].get<bool>();
    }
    for (const json& r : list("rounds")) {
        if (!r.is_object()) throw bad("rounds: an item is not an object");
        out.rounds.emplace_back(time(r, "record_time"), integer(r, "round"));
    }
    for (const json& s : list("snapshots")) {
        if (!s.is_object()) throw bad("snapshots: an item is not an object");
        out.snapshots.emplace_back(integer(s, "migration_id"), time(s, "record_time"));
    }
    const auto objects = [&](const char* key, const char* items, seed::BulkKey::Kind kind) {
        std::vector<DumpObject> found;
        for (const json& o : list(key)) {
            if (!o.is_object()) throw bad(std::string(key) + ": an item is not an object");
            DumpObject d{.key = text(o, "key"),
                         .digest = text(o, "digest"),
                         .items = static_cast<std::size_t>(integer(o, items))};
            if (o.contains("encoding")) d.encoding = text(o, "encoding");
            const auto parsed = seed::parse_bulk_key(d.key);
            if (!safe_key(d.key) || !parsed || parsed->kind != kind)
                throw bad(std::string(key) + ": \"" + d.key + "\" is not a key of such an object");
            if (d.encoding != "compact_json" && d.encoding != "protobuf_json")
                throw bad(std::string(key) + ": " + d.key + ": no such encoding: " + d.encoding);
            found.push_back(std::move(d));
        }
        return found;
    };
    out.acs = objects("acs_objects", "contracts", seed::BulkKey::Kind::acs);
    out.updates = objects("update_objects", "updates", seed::BulkKey::Kind::updates);
    return out;
}

// The bytes of a dump's object, its digest checked.
std::string object_bytes(const fs::path& dir, const DumpObject& o) {
    const fs::path path = dir / o.key;
    auto bytes = util::read_file(path);
    if (!bytes) throw DumpError(path.string() + ": cannot be read");
    if (const std::string digest = seed::bulk_digest(*bytes); digest != o.digest) {
        throw DumpError(path.string() + ": its digest is " + digest + ", the dump says " +
                        o.digest + ": the object is damaged or not the one dumped");
    }
    return std::move(*bytes);
}

// The text of a dump's object, its digest checked.
std::string object_text(const fs::path& dir, const DumpObject& o) {
    try {
        return seed::zstd_decompress(object_bytes(dir, o), max_object_text);
    } catch (const seed::BulkError& e) {
        throw DumpError((dir / o.key).string() + ": " + e.what());
    }
}

// The lines of a run of objects, one after another.
class LineReader {
  public:
    LineReader(const fs::path& dir, std::vector<DumpObject> objects)
        : dir_(dir), objects_(std::move(objects)) {}
    // The next line; nullopt past the last.
    std::optional<std::string> next() {
        while (at_ == lines_.size()) {
            if (next_object_ == objects_.size()) return std::nullopt;
            text_ = object_text(dir_, objects_[next_object_++]);
            lines_ = seed::bulk_lines(text_);
            at_ = 0;
        }
        return std::string(lines_[at_++]);
    }
    [[nodiscard]] bool empty() const { return objects_.empty(); }

  private:
    fs::path dir_;
    std::vector<DumpObject> objects_;
    std::size_t next_object_ = 0;
    std::string text_;
    std::vector<std::string_view> lines_;
    std::size_t at_ = 0;
};

std::vector<std::string_view> views(const std::vector<std::string>& lines) {
    return {lines.begin(), lines.end()};
}

}  // namespace

DumpRead fork_from_dump(const fs::path& dir, const fs::path& state_file,
                        std::optional<std::int64_t> updates,
                        const std::function<void(const std::string&, std::size_t)>& progress,
                        const std::function<bool()>& stopped) {
    const Manifest m = read_manifest(dir);
    const auto check_stop = [&] {
        if (stopped()) throw DumpError("stopped (Ctrl-C)");
    };
    // Every object is checked before anything is built: a damaged dump fails at once.
    for (const auto* run : {&m.acs, &m.updates}) {
        for (const DumpObject& o : *run) {
            check_stop();
            (void)object_bytes(dir, o);
        }
    }
    seed::ForkBuilder builder(m.source);
    for (const auto& [t, round] : m.rounds) builder.add_round_at(t, round);
    auto snapshots = m.snapshots;
    std::sort(snapshots.begin(), snapshots.end());
    for (const auto& [migration, t] : snapshots) builder.add_snapshot_time(migration, t);

    // The updates' objects: typed and labelled line by line when the dump has both encodings,
    // else compact_json alone (Scan's own).
    std::vector<DumpObject> compact_objects;
    std::vector<DumpObject> typed_objects;
    for (const DumpObject& o : m.updates)
        (o.encoding == "protobuf_json" ? typed_objects : compact_objects).push_back(o);
    const bool both = !typed_objects.empty();
    if (both && compact_objects.empty())
        throw DumpError((dir / dump_manifest_name).string() +
                        ": update objects in protobuf_json without their compact_json twins");
    // Reads the update pages, each in one or both encodings, to `take`, until it says no more.
    const auto read_updates = [&](const auto& take) {
        LineReader compact(dir, compact_objects);
        LineReader typed(dir, typed_objects);
        for (bool more = true; more;) {
            check_stop();
            std::vector<std::string> main_lines;  // typed when both, else compact
            std::vector<std::string> labelled_lines;
            while (main_lines.size() < update_lines_per_page) {
                auto c = compact.next();
                std::optional<std::string> t = both ? typed.next() : std::nullopt;
                if (both && c.has_value() != t.has_value()) {
                    throw DumpError((dir / dump_manifest_name).string() +
                                    ": the update objects of its two encodings hold other "
                                    "numbers of updates");
                }
                if (!c) {
                    more = false;
                    break;
                }
                if (c->empty()) continue;
                if (both) {
                    main_lines.push_back(std::move(*t));
                    labelled_lines.push_back(std::move(*c));
                } else {
                    main_lines.push_back(std::move(*c));
                }
            }
            if (main_lines.empty() || !take(main_lines, labelled_lines)) break;
        }
    };
    // Scan's ACS objects sort each record's keys: the record's order is learnt from the updates
    // first (ForkBuilder::learn_labels), where they show the same templates in both encodings. A
    // page whose every record sits where an earlier page taught its labels teaches nothing: its
    // compact_json twin is not read.
    if (m.acs_from_bulk && both) {
        read_updates([&](const std::vector<std::string>& typed_lines,
                         const std::vector<std::string>& labelled_lines) {
            const seed::ForkAnswer typed(seed::bulk_page("transactions", views(typed_lines)),
                                         "an update page");
            if (!builder.labels_known(typed)) {
                builder.learn_labels(typed.text(),
                                     seed::bulk_page("transactions", views(labelled_lines)));
            }
            return true;
        });
    }

    LineReader acs(dir, m.acs);
    for (bool more = true; more;) {
        check_stop();
        std::vector<std::string> lines;
        while (lines.size() < acs_lines_per_page) {
            auto line = acs.next();
            if (!line) {
                more = false;
                break;
            }
            if (!line->empty()) lines.push_back(std::move(*line));
        }
        if (!lines.empty())
            (void)builder.add_acs_page(seed::bulk_page("created_events", views(lines)));
        progress("ACS", builder.counts().contracts);
    }

    // The updates after the snapshot: those at or before it are left out (Scan's objects hold
    // whole segments), and at most `updates` are taken.
    const std::int64_t limit = updates.value_or(std::numeric_limits<std::int64_t>::max());
    const std::pair<std::int64_t, model::Timestamp> snapshot{m.source.migration_id,
                                                             m.source.snapshot_time};
    read_updates([&](std::vector<std::string>& main_lines,
                     std::vector<std::string>& labelled_lines) {
        const auto have = static_cast<std::int64_t>(builder.counts().updates);
        if (have >= limit) return false;
        // Those not after the snapshot first, then those past the limit. The page is parsed
        // once, and again only when it is cut.
        seed::ForkAnswer parsed(seed::bulk_page("transactions", views(main_lines)),
                                "an update page");
        const seed::ForkPage at = seed::ForkBuilder::positions_of(parsed);
        std::size_t skip = 0;
        while (skip < at.positions.size()) {
            const auto t = model::parse_timestamp(at.positions[skip].second);
            if (!t || std::pair{at.positions[skip].first, *t} > snapshot) break;
            ++skip;
        }
        const auto keep = [&](std::vector<std::string>& lines) {
            lines.erase(lines.begin(), lines.begin() + static_cast<std::ptrdiff_t>(skip));
            if (static_cast<std::int64_t>(lines.size()) > limit - have)
                lines.resize(static_cast<std::size_t>(limit - have));
        };
        const std::size_t lines = main_lines.size();
        keep(main_lines);
        if (both) keep(labelled_lines);
        if (main_lines.empty()) return true;
        if (!both) {
            (void)builder.add_compact_updates_page(
                main_lines.size() == lines ? parsed.text()
                                           : seed::bulk_page("transactions", views(main_lines)));
        } else {
            const seed::ForkAnswer page =
                main_lines.size() == lines
                    ? std::move(parsed)
                    : seed::ForkAnswer(seed::bulk_page("transactions", views(main_lines)),
                                       "an update page");
            (void)builder.add_updates_page(
                page, builder.labels_known(page)
                          ? std::string()
                          : seed::bulk_page("transactions", views(labelled_lines)));
        }
        progress("updates", builder.counts().updates);
        return true;
    });
    DumpRead out;
    out.counts = builder.counts();
    // The whole history: the dump's, not cut by `updates`.
    out.written = builder.finish(
        m.whole_history && static_cast<std::int64_t>(out.counts.updates) < limit, state_file);
    out.snapshot = m.source.snapshot_time;
    out.migration = m.source.migration_id;
    out.release = m.release;
    out.source = m.source_url;
    return out;
}

}  // namespace cantonlite::app
