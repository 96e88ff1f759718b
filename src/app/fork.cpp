// cantonlite fork (docs/fork.md): pages a Scan's public API and hands its answers to the seed
// layer's ForkBuilder. Every request is retried on a transient failure (no answer, 429, 502, 503,
// 504) with a bounded backoff; any other failure ends the fork, naming the request, and nothing
// is written.
#include "cantonlite/app/fork.hpp"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <future>
#include <map>
#include <mutex>
#include <ostream>
#include <sstream>
#include <utility>
#include <vector>

#include <boost/asio/post.hpp>
#include <boost/asio/thread_pool.hpp>
#include <boost/asio/use_future.hpp>
#include <nlohmann/json.hpp>

#include "cantonlite/app/exit_codes.hpp"
#include "cantonlite/http/path.hpp"
#include "cantonlite/model/timestamp.hpp"
#include "cantonlite/net/http_client.hpp"
#include "cantonlite/seed/fork.hpp"
#include "cantonlite/seed/scan_bulk.hpp"
#include "cantonlite/util/whole_file.hpp"
#include "scan_dump.hpp"

namespace cantonlite::app {
namespace {

using json = nlohmann::json;
using Clock = std::chrono::steady_clock;

constexpr std::string_view default_scan_path = "/api/scan";
constexpr int acs_page_size = 1000;     // Scan's largest
constexpr int updates_page_size = 500;  // two encodings of each page are fetched
constexpr std::int64_t max_migration_probe = 64;

// A request failed for good: what() names it and says why.
class FetchError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

// What an error answer says: Scan's {"error": "..."}, else the body's first 300 characters.
std::string answer_text(const std::string& body) {
    const json parsed = json::parse(body, nullptr, false);
    if (parsed.is_object() && parsed.contains("error") && parsed["error"].is_string())
        return parsed["error"].get<std::string>();
    std::string text = body.substr(0, 300);
    for (char& c : text)
        if (c == '\n' || c == '\r') c = ' ';
    return text.empty() ? "(empty body)" : text;
}

std::string seconds(Clock::duration d) {
    char text[32];
    std::snprintf(
        text, sizeof text, "%.1f s",
        std::chrono::duration<double>(d).count());  // NOLINT(cppcoreguidelines-pro-type-vararg)
    return text;
}

// The Scan's public API at one base URL.
class ScanClient {
  public:
    ScanClient(net::Url url, net::ClientOptions options, const std::atomic<bool>& stop,
               std::ostream& err, const char* command)
        : url_(std::move(url)),
          options_(std::move(options)),
          stop_(stop),
          err_(err),
          command_(command) {
        if (url_.base_path.empty()) url_.base_path = default_scan_path;
    }

    // The body of the 200 answer to `method path`; nullopt for a 404 when `absent_ok`. Throws
    // FetchError.
    std::optional<std::string> call_text(const std::string& method, const std::string& path,
                                         const std::string& body = {}, bool absent_ok = false) {
        const std::string name = method + " " + where(path);
        net::ClientResponse response = send(request_to(method, path, body), name);
        if (response.status == 404 && absent_ok) return std::nullopt;
        return ok_body(std::move(response), name);
    }

    // A listing of Scan's bulk objects (GET `path`, /v0/history/bulk/...); nullopt when the
    // Scan does not serve them (404, or 501 where its bulk storage is off). Throws FetchError.
    std::optional<json> bulk_listing(const std::string& path) {
        const std::string name = "GET " + where(path);
        net::ClientResponse response = send(request_to("GET", path, {}), name);
        if (response.status == 404 || response.status == 501) return std::nullopt;
        json parsed = json::parse(ok_body(std::move(response), name), nullptr, false);
        if (!parsed.is_object()) throw FetchError(name + ": the answer is not a JSON object");
        return parsed;
    }

    // The bytes of a bulk object at `url` (absolute: Scan's download URL, or a bucket's), and
    // its key: what follows /bulk/download/ in the path, else its last two steps. Throws
    // FetchError.
    std::string download(const std::string& url, std::string* key) {
        const std::size_t query = url.find('?');
        std::string why;
        const auto parsed = net::parse_url(url.substr(0, query), &why);
        const std::string name = "GET " + url;
        if (!parsed) throw FetchError(name + ": " + why);
        std::string path = parsed->base_path;
        const std::size_t marker = path.find("/bulk/download/");
        std::string_view encoded_key = path;
        if (marker != std::string::npos) {
            encoded_key.remove_prefix(marker + 15);
        } else {
            const std::size_t last = path.rfind('/');
            const std::size_t before = last == 0 ? 0 : path.rfind('/', last - 1);
            encoded_key.remove_prefix(before + 1);
        }
        const std::optional<std::string> decoded = http::percent_decode(encoded_key);
        if (!decoded) throw FetchError(name + ": the object's key has a malformed %-escape");
        *key = *decoded;
        net::ClientRequest request{.host = parsed->host,
                                   .port = parsed->port,
                                   .tls = parsed->tls,
                                   .target = path.empty() ? "/" : path};
        if (query != std::string::npos) request.target += url.substr(query);
        return ok_body(send(request, name), name);
    }

    // The answer to `method path`, parsed; nullopt for a 404 when `absent_ok`. Throws FetchError.
    std::optional<json> call(const std::string& method, const std::string& path,
                             const std::string& body = {}, bool absent_ok = false) {
        const std::optional<std::string> text = call_text(method, path, body, absent_ok);
        if (!text) return std::nullopt;
        json parsed = json::parse(*text, nullptr, false);
        if (parsed.is_discarded() || !parsed.is_object())
            throw FetchError(method + " " + where(path) + ": the answer is not a JSON object");
        return parsed;
    }

    [[nodiscard]] std::string where(const std::string& path) const {
        const bool ipv6 = url_.host.find(':') != std::string::npos;
        return std::string(url_.tls ? "https://" : "http://") +
               (ipv6 ? "[" + url_.host + "]" : url_.host) + ":" + std::to_string(url_.port) +
               url_.base_path + path;
    }
    [[nodiscard]] std::size_t requests() const { return requests_; }

  private:
    [[nodiscard]] net::ClientRequest request_to(const std::string& method, const std::string& path,
                                                const std::string& body) const {
        net::ClientRequest request{.method = method,
                                   .host = url_.host,
                                   .port = url_.port,
                                   .tls = url_.tls,
                                   .target = url_.base_path + path};
        if (!body.empty()) {
            request.headers.push_back({"Content-Type", "application/json"});
            request.body = body;
        }
        return request;
    }

    // Sends `request` (`name` in messages), retrying a transient failure. Throws FetchError.
    net::ClientResponse send(const net::ClientRequest& request, const std::string& name) {
        try {
            net::ClientResponse response = net::send_with_retries(
                request, options_, net::RetryPolicy{}, &stop_,
                [&](int attempt, const std::string& reason, std::chrono::milliseconds wait) {
                    const std::lock_guard lock(err_mutex_);
                    err_ << "cantonlite: " << command_ << ": " << name << ": " << reason
                         << "; trying again in " << wait.count() << " ms (try " << attempt + 1
                         << " of " << net::RetryPolicy{}.max_attempts << ")\n";
                });
            ++requests_;
            return response;
        } catch (const net::ClientError& e) {
            throw FetchError(name + ": " + e.what());
        }
    }

    static std::string ok_body(net::ClientResponse response, const std::string& name) {
        if (response.status != 200) {
            throw FetchError(name + ": HTTP " + std::to_string(response.status) + ": " +
                             answer_text(response.body));
        }
        return std::move(response.body);
    }

    net::Url url_;
    net::ClientOptions options_;
    const std::atomic<bool>& stop_;
    std::ostream& err_;
    const char* command_;  // "fork" or "dump", in messages
    std::atomic<std::size_t> requests_ = 0;
    std::mutex err_mutex_;
};

// The progress line: on a terminal it rewrites itself; with --progress it adds a line a second.
class Progress {
  public:
    Progress(std::ostream& err, bool shown, bool terminal, const char* command)
        : err_(err), shown_(shown || terminal), terminal_(terminal), command_(command) {}

    void show(const std::string& phase, std::size_t done, const std::string& unit,
              const std::string& more = {}) {
        const auto now = Clock::now();
        if (!shown_ || now - last_ < std::chrono::seconds(1)) return;
        if (phase != phase_) {
            phase_ = phase;
            phase_start_ = now;
            phase_base_ = done;
        }
        last_ = now;
        const double secs = std::chrono::duration<double>(now - phase_start_).count();
        const double rate = secs > 0 ? static_cast<double>(done - phase_base_) / secs : 0;
        std::ostringstream line;
        line << "cantonlite: " << command_ << ": " << phase << ": " << done << " " << unit << " ("
             << static_cast<std::uint64_t>(rate) << "/s)" << more;
        err_ << (terminal_ ? "\r\033[K" : "") << line.str() << (terminal_ ? "" : "\n");
        err_.flush();
        dirty_ = terminal_;
    }
    // ", about N s left": the time the updates from `from` to `to` (record times) would take at
    // the pace so far, now at `at`; "" past `to` or before any progress.
    [[nodiscard]] std::string time_left(model::Timestamp from, model::Timestamp to,
                                        const std::string& at) const {
        const auto now_at = model::parse_timestamp(at);
        if (!now_at || !(from < *now_at) || !(*now_at < to)) return {};
        const double done = static_cast<double>(now_at->micros - from.micros) /
                            static_cast<double>(to.micros - from.micros);
        const double spent = std::chrono::duration<double>(Clock::now() - phase_start_).count();
        return ", about " +
               seconds(std::chrono::duration_cast<Clock::duration>(
                   std::chrono::duration<double>(spent * (1 - done) / done))) +
               " left";
    }
    // Ends a rewritten line before other output.
    void end_line() {
        if (dirty_) err_ << '\n';
        dirty_ = false;
    }

  private:
    std::ostream& err_;
    bool shown_;
    bool terminal_;
    bool dirty_ = false;
    const char* command_;
    std::string phase_;
    Clock::time_point phase_start_ = Clock::now();
    Clock::time_point last_ = Clock::now();
    std::size_t phase_base_ = 0;
};

std::string url_encode(const std::string& text) {
    std::string out;
    for (const char c : text) {
        if (std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.' ||
            c == '~') {
            out += c;
        } else {
            char hex[4];
            std::snprintf(hex, sizeof hex, "%%%02X",  // NOLINT(cppcoreguidelines-pro-type-vararg)
                          static_cast<unsigned char>(c));
            out += hex;
        }
    }
    return out;
}

model::Timestamp timestamp_of(const json& answer, const std::string& what) {
    if (!answer.contains("record_time") || !answer["record_time"].is_string())
        throw FetchError(what + ": the answer has no record_time");
    const auto t = model::parse_timestamp(answer["record_time"].get<std::string>());
    if (!t) throw FetchError(what + ": the record_time is no date-time");
    return *t;
}

// What fork_network fetched, besides what went to its sink.
struct Forked {
    seed::ForkCounts counts;
    model::Timestamp snapshot;
    std::int64_t migration = 0;
    std::string release = "splice-0.9";  // the release line the source serves
    bool whole_history = false;          // every update the source had, none cut by --updates
    bool bulk_acs = false;               // the ACS came as Scan's bulk objects
};

Forked fork_network(ScanClient& scan, const ForkSpec& spec, Progress& progress,
                    const std::atomic<bool>& stop, ForkSink& builder) {
    const auto check_stop = [&stop] {
        if (stop.load()) throw FetchError("stopped (Ctrl-C)");
    };
    // The DSO party, and the global synchronizer (where the AmuletRules are).
    const json dso = *scan.call("GET", "/v0/dso-party-id");
    if (!dso.contains("dso_party_id") || !dso["dso_party_id"].is_string())
        throw FetchError("GET " + scan.where("/v0/dso-party-id") + ": no dso_party_id");
    const json rules = *scan.call("POST", "/v0/amulet-rules", "{}");
    const json* update =
        rules.contains("amulet_rules_update") ? &rules["amulet_rules_update"] : nullptr;
    if (update == nullptr || !update->contains("domain_id") || !(*update)["domain_id"].is_string())
        throw FetchError("POST " + scan.where("/v0/amulet-rules") + ": no domain_id");
    // The synchronizer upgrade announced, if any (Scan before 0.5 has no /v0/lsu: none).
    std::optional<model::Lsu> lsu;
    if (const auto answer = scan.call("GET", "/v0/lsu", {}, true);
        answer && answer->contains("lsu") && (*answer)["lsu"].is_object()) {
        const json& l = (*answer)["lsu"];
        const auto freeze = model::parse_timestamp(l.value("topologyFreezeTime", ""));
        const auto upgrade = model::parse_timestamp(l.value("upgradeTime", ""));
        if (!freeze || !upgrade || !l.contains("successorPhysicalSynchronizerId") ||
            !l["successorPhysicalSynchronizerId"].is_string())
            throw FetchError("GET " + scan.where("/v0/lsu") + ": the lsu is not as Scan's");
        lsu = model::Lsu{.topology_freeze_time = *freeze,
                         .upgrade_time = *upgrade,
                         .successor_physical_synchronizer_id =
                             l["successorPhysicalSynchronizerId"].get<std::string>()};
    }
    Forked out;

    // The latest snapshot at or before --at, of the latest migration that has one; and the
    // latest of all, which the progress line takes for where the history ends.
    constexpr std::string_view end_of_time = "9999-12-31T23:59:59Z";
    const std::string before = spec.at.value_or(std::string(end_of_time));
    std::optional<std::pair<std::int64_t, model::Timestamp>> snapshot;
    std::optional<model::Timestamp> latest;
    for (std::int64_t m = 0, misses = 0; m < max_migration_probe && misses < 2; ++m) {
        check_stop();
        const auto snapshot_before = [&](std::string_view t) -> std::optional<model::Timestamp> {
            const std::string path =
                "/v0/state/acs/snapshot-timestamp?before=" + url_encode(std::string(t)) +
                "&migration_id=" + std::to_string(m);
            const auto answer = scan.call("GET", path, {}, true);
            if (!answer) return std::nullopt;
            return timestamp_of(*answer, "GET " + scan.where(path));
        };
        const std::optional<model::Timestamp> last = snapshot_before(end_of_time);
        if (!last) {
            ++misses;
            continue;
        }
        misses = 0;
        latest = latest ? std::max(*latest, *last) : *last;
        if (const auto chosen = spec.at ? snapshot_before(before) : last) snapshot = {m, *chosen};
    }
    if (!snapshot)
        throw FetchError("GET " + scan.where("/v0/state/acs/snapshot-timestamp") +
                         ": no ACS snapshot before " + before + " in migrations 0 to " +
                         std::to_string(max_migration_probe - 1));
    out.migration = snapshot->first;
    out.snapshot = snapshot->second;
    // Scan's bulk objects of the ACS, where it serves them and the sink takes them: of the
    // latest bulk snapshot at or before the one chosen, which is a snapshot of some migration.
    std::vector<std::pair<std::string, std::string>> bulk;  // (url, digest)
    if (spec.bulk && builder.takes_bulk_objects()) {
        const std::string path = "/v0/history/bulk/acs?at_or_before_record_time=" +
                                 url_encode(model::format_instant(out.snapshot));
        if (const auto listing = scan.bulk_listing(path)) {
            const model::Timestamp at = timestamp_of(*listing, "GET " + scan.where(path));
            std::optional<std::int64_t> migration;
            for (std::int64_t m = out.migration; m >= 0 && !migration && at != out.snapshot; --m) {
                const std::string probe =
                    "/v0/state/acs/snapshot-timestamp?before=" +
                    url_encode(model::format_instant(model::Timestamp{at.micros + 1})) +
                    "&migration_id=" + std::to_string(m);
                if (const auto answer = scan.call("GET", probe, {}, true);
                    answer && timestamp_of(*answer, "GET " + scan.where(probe)) == at)
                    migration = m;
            }
            if (at == out.snapshot) migration = out.migration;
            const json& refs =
                listing->contains("object_refs") ? (*listing)["object_refs"] : json();
            if (migration && refs.is_array() && !refs.empty()) {
                for (const json& ref : refs) {
                    if (!ref.is_object() || !ref.contains("url") || !ref["url"].is_string() ||
                        !ref.contains("digest") || !ref["digest"].is_string())
                        throw FetchError("GET " + scan.where(path) +
                                         ": an object_ref without a url and digest");
                    bulk.emplace_back(ref["url"].get<std::string>(),
                                      ref["digest"].get<std::string>());
                }
                out.migration = *migration;
                out.snapshot = at;
                out.bulk_acs = true;
            }
        }
    }
    builder.start(seed::ForkSource{.dso_party = dso["dso_party_id"].get<std::string>(),
                                   .synchronizer_id = (*update)["domain_id"].get<std::string>(),
                                   .migration_id = out.migration,
                                   .snapshot_time = out.snapshot,
                                   .lsu = lsu});

    // The source's round at a snapshot (Scan's summary computes holdings as of it): the fork
    // numbers its rounds from it. A Scan without the v0 summary leaves it to the rounds' contracts.
    // Of a party that holds nothing (the DSO is a stakeholder of every amulet: all are read).
    const std::string nobody = "cantonlite-fork::1220" + std::string(64, '0');
    const auto note_round = [&](std::int64_t migration, const model::Timestamp& t) {
        const json request = {{"migration_id", migration},
                              {"record_time", model::format_instant(t)},
                              {"owner_party_ids", {nobody}}};
        const auto answer = scan.call("POST", "/v0/holdings/summary", request.dump(), true);
        if (answer && answer->contains("computed_as_of_round") &&
            (*answer)["computed_as_of_round"].is_number_integer())
            builder.add_round_at(t, (*answer)["computed_as_of_round"].get<std::int64_t>());
    };
    note_round(out.migration, out.snapshot);

    // The ACS at the snapshot: its bulk objects, each checked against its digest; else page by
    // page, /v2/state/acs since Splice 0.9, /v1/state/acs before (a 404 of the first page says
    // which).
    for (const auto& [url, digest] : bulk) {
        check_stop();
        std::string key;
        std::string object = scan.download(url, &key);
        if (const std::string got = seed::bulk_digest(object); got != digest) {
            throw FetchError("GET " + url + ": the object's digest is " + got +
                             ", its listing says " + digest);
        }
        builder.add_acs_object(key, std::move(object), digest);
        progress.show("ACS", builder.counts().contracts, "contracts");
    }
    if (out.bulk_acs) {  // the release line, which the ACS pages would have told
        if (!scan.call("POST", "/v2/state/acs",
                       json{{"migration_id", out.migration},
                            {"record_time", model::format_instant(out.snapshot)},
                            {"page_size", 1}}
                           .dump(),
                       true))
            out.release = "splice-0.6";
    }
    std::string acs_path = "/v2/state/acs";
    const auto acs_request = [&](const std::string& page_token) {  // as JSON; "": the first page
        json request = {{"migration_id", out.migration},
                        {"record_time", model::format_instant(out.snapshot)},
                        {"page_size", acs_page_size}};
        if (!page_token.empty()) request["after"] = json::parse(page_token);
        return request.dump();
    };
    // The next page is fetched and parsed while this one is built, on one thread that lives as
    // long as the fork rather than a thread per page: each page's memory is then freed to the
    // allocator's arena of that thread and used again by the next page, not faulted in afresh (a
    // 100k fork took 240 000 page faults with a thread and a parser per page, 73 000 without).
    seed::AnswerParsers parsers;
    boost::asio::thread_pool fetcher(1);  // joined before what its work refers to goes
    const auto fetch = [&fetcher](auto work) {
        return boost::asio::post(fetcher, boost::asio::use_future(std::move(work)));
    };
    std::future<seed::ForkAnswer> next_acs_page;
    for (bool first = true; !out.bulk_acs; first = false) {
        check_stop();
        std::optional<seed::ForkAnswer> answer;
        if (first) {
            std::optional<std::string> served =
                scan.call_text("POST", acs_path, acs_request(""), true);
            if (!served) {
                acs_path = "/v1/state/acs";
                out.release = "splice-0.6";
                served = scan.call_text("POST", acs_path, acs_request(""));
            }
            answer.emplace(std::move(*served), "an ACS page", &parsers);
        } else {
            answer.emplace(next_acs_page.get());
        }
        const std::string token = seed::ForkBuilder::acs_page_token_of(*answer);
        if (!token.empty()) {
            next_acs_page = fetch([&scan, &acs_path, &acs_request, &parsers, token] {
                return seed::ForkAnswer(*scan.call_text("POST", acs_path, acs_request(token)),
                                        "an ACS page", &parsers);
            });
        }
        (void)builder.add_acs_page(*answer);
        progress.show("ACS", builder.counts().contracts, "contracts");
        if (token.empty()) break;
    }

    // The source's later snapshots, found walking back from where the history has reached (Scan
    // answers the latest snapshot at or before a time, of one migration), each migration as far
    // as the last walk went.
    std::map<std::int64_t, model::Timestamp> walked{{out.migration, out.snapshot}};
    const auto snapshots_until = [&](std::int64_t migration, std::optional<model::Timestamp> upto) {
        const auto bound = walked.find(migration);
        std::vector<model::Timestamp> found;
        std::string before = upto ? model::format_instant(*upto) : "9999-12-31T23:59:59Z";
        for (;;) {
            check_stop();
            const std::string path =
                "/v0/state/acs/snapshot-timestamp?before=" + url_encode(before) +
                "&migration_id=" + std::to_string(migration);
            const auto answer = scan.call("GET", path, {}, true);
            if (!answer) break;
            const model::Timestamp t = timestamp_of(*answer, "GET " + scan.where(path));
            if (bound != walked.end() && t <= bound->second) break;
            found.push_back(t);
            before = model::format_instant(model::Timestamp{t.micros - 1});
        }
        for (auto it = found.rbegin(); it != found.rend(); ++it) {
            builder.add_snapshot_time(migration, *it);
            note_round(migration, *it);
        }
        // What later walks stop at: as far as this one went.
        std::optional<model::Timestamp> reached = upto;
        if (!found.empty()) reached = std::max(reached.value_or(found.front()), found.front());
        if (reached) {
            model::Timestamp& mark = walked.try_emplace(migration, *reached).first->second;
            mark = std::max(mark, *reached);
        }
    };

    // The updates after it, each page in both encodings (types and labels; model/scan_values.hpp).
    // Each page in protobuf_json, and in compact_json too while the labels of its records are
    // not known yet (seed::RecordLabels); the next page is fetched and parsed, and its positions
    // read, while this one is built.
    struct UpdatePage {
        std::optional<seed::ForkAnswer> typed;
        seed::ForkPage preview;  // its positions
        json request;            // for the same page in compact_json
    };
    const auto fetch_page = [&scan, &parsers](std::pair<std::int64_t, std::string> from,
                                              std::int64_t size) {
        UpdatePage page;
        page.request = {
            {"after", {{"after_migration_id", from.first}, {"after_record_time", from.second}}},
            {"page_size", size},
            {"daml_value_encoding", "protobuf_json"}};
        page.typed.emplace(*scan.call_text("POST", "/v2/updates", page.request.dump()),
                           "an update page", &parsers);
        page.preview = seed::ForkBuilder::positions_of(*page.typed);
        page.request["daml_value_encoding"] = "compact_json";
        return page;
    };
    std::pair<std::int64_t, std::string> after{out.migration, model::format_instant(out.snapshot)};
    const std::int64_t limit = spec.updates.value_or(std::numeric_limits<std::int64_t>::max());
    const auto taken = [&builder] { return static_cast<std::int64_t>(builder.counts().updates); };
    const auto fetch_from = [&](const std::pair<std::int64_t, std::string>& from,
                                std::int64_t have) -> std::future<UpdatePage> {
        if (have >= limit) return {};
        const std::int64_t size = std::min<std::int64_t>(updates_page_size, limit - have);
        return fetch([fetch_page, from, size] { return fetch_page(from, size); });
    };
    std::future<UpdatePage> next = fetch_from(after, 0);
    while (next.valid()) {
        check_stop();
        const UpdatePage current = next.get();
        // The snapshots this page's updates reach: of a migration the page leaves, all of them.
        const seed::ForkPage& preview = current.preview;
        if (preview.positions.empty()) break;
        std::map<std::int64_t, model::Timestamp> reached;
        for (const auto& [migration, time] : preview.positions) {
            if (const auto t = model::parse_timestamp(time)) reached[migration] = *t;
        }
        for (auto it = reached.begin(); it != reached.end(); ++it) {
            const bool moved_on = std::next(it) != reached.end();
            snapshots_until(it->first, moved_on ? std::nullopt : std::optional(it->second));
        }
        if (!reached.empty() && reached.begin()->first > after.first)
            snapshots_until(after.first, std::nullopt);  // the migration the history left
        next = fetch_from(preview.positions.back(),
                          taken() + static_cast<std::int64_t>(preview.items));
        const std::string labelled =
            builder.labels_known(*current.typed)
                ? std::string()
                : *scan.call_text("POST", "/v2/updates", current.request.dump());
        const seed::ForkPage page = builder.add_updates_page(*current.typed, labelled);
        if (page.positions.empty()) break;
        after = page.positions.back();
        if (after != preview.positions.back()) {  // the history grew between the two answers
            if (next.valid()) next.wait();
            next = fetch_from(after, taken());
        }
        progress.show(
            "updates", builder.counts().updates, "updates",
            ", at " + after.second + progress.time_left(out.snapshot, *latest, after.second));
    }
    progress.end_line();
    // With the whole history, the snapshots after its last update are the source's too.
    out.whole_history = static_cast<std::int64_t>(builder.counts().updates) < limit;
    if (out.whole_history) snapshots_until(after.first, std::nullopt);
    out.counts = builder.counts();
    return out;
}

}  // namespace

namespace {

// Runs `fetch` (a fork or a dump; `command` names it in messages): one line for a failure,
// never a crash. Returns whether it finished.
template <typename Fetch>
bool fetched(const char* command, std::ostream& err, Progress& progress, Fetch&& fetch) {
    try {
        fetch();
        progress.end_line();
        return true;
    } catch (const std::exception& e) {  // FetchError, ForkError, DumpError, whatever else
        progress.end_line();
        err << "cantonlite: " << command << ": " << e.what() << "; nothing written\n";
        return false;
    }
}

void say_skipped(const char* command, std::ostream& err, const seed::ForkCounts& counts) {
    if (counts.skipped_assignments > 0) {
        err << "cantonlite: " << command << ": " << counts.skipped_assignments
            << " assignments of contracts in flight at the snapshot were left out\n";
    }
}

}  // namespace

int run_fork(const ForkSpec& spec, std::ostream& err, const std::atomic<bool>& stop,
             std::string* release) {
    const auto started = Clock::now();
    Progress progress(err, spec.progress, ::isatty(STDERR_FILENO) == 1, "fork");
    seed::WrittenStateFile written;
    Forked forked;
    std::string from;  // "N requests" or "the dump of URL"
    if (!spec.dump_dir.empty()) {
        DumpRead read;
        const bool ok = fetched("fork", err, progress, [&] {
            read = fork_from_dump(
                spec.dump_dir, spec.out, spec.updates,
                [&](const std::string& phase, std::size_t done) {
                    progress.show(phase, done, phase == "ACS" ? "contracts" : "updates");
                },
                [&stop] { return stop.load(); });
        });
        if (!ok) return exit_failed;
        written = std::move(read.written);
        forked.counts = read.counts;
        forked.snapshot = read.snapshot;
        forked.migration = read.migration;
        forked.release = read.release;
        from = "from the dump of " + read.source;
    } else {
        std::string why;
        const std::optional<net::Url> url = net::parse_url(spec.scan_url, &why);
        if (!url) {
            err << "cantonlite: --scan: " << why << '\n';
            return exit_failed;
        }
        ScanClient scan(*url, net::ClientOptions{.ca_file = spec.ca_file}, stop, err, "fork");
        BuilderSink builder;
        const bool ok = fetched("fork", err, progress, [&] {
            forked = fork_network(scan, spec, progress, stop, builder);
            written = builder.finish(forked.whole_history, spec.out);
        });
        if (!ok) return exit_failed;
        from = std::to_string(scan.requests()) + " requests";
    }
    if (written.error) {
        err << "cantonlite: fork: " << *written.error << '\n';
        return exit_failed;
    }
    err << "cantonlite: fork: wrote " << spec.out << ": " << forked.counts.contracts
        << " contracts of the ACS at " << model::format_instant(forked.snapshot) << " (migration "
        << forked.migration << "), " << forked.counts.updates << " updates after it, " << from
        << ", in " << seconds(Clock::now() - started) << '\n';
    say_skipped("fork", err, forked.counts);
    if (release != nullptr) *release = forked.release;
    if (spec.how_to_serve) {
        err << "cantonlite: fork: serve it with: cantonlite serve --load-state " << spec.out
            << " --release " << forked.release << '\n';
    }
    return exit_ok;
}

int run_dump(const ForkSpec& spec, std::ostream& err, const std::atomic<bool>& stop) {
    std::string why;
    const std::optional<net::Url> url = net::parse_url(spec.scan_url, &why);
    if (!url) {
        err << "cantonlite: --scan: " << why << '\n';
        return exit_failed;
    }
    const auto started = Clock::now();
    ScanClient scan(*url, net::ClientOptions{.ca_file = spec.ca_file}, stop, err, "dump");
    Progress progress(err, spec.progress, ::isatty(STDERR_FILENO) == 1, "dump");
    Forked forked;
    const bool ok = fetched("dump", err, progress, [&] {
        DumpWriter writer(spec.dump_dir);
        forked = fork_network(scan, spec, progress, stop, writer);
        writer.commit(scan.where(""), forked.release, forked.whole_history);
    });
    if (!ok) return exit_failed;
    err << "cantonlite: dump: wrote " << spec.dump_dir << ": " << forked.counts.contracts
        << " contracts of the ACS at " << model::format_instant(forked.snapshot) << " (migration "
        << forked.migration << (forked.bulk_acs ? ", Scan's bulk objects" : "") << "), "
        << forked.counts.updates << " updates after it, " << scan.requests() << " requests, in "
        << seconds(Clock::now() - started) << '\n';
    err << "cantonlite: dump: fork it with: cantonlite fork --dump " << spec.dump_dir
        << " --out FILE\n";
    return exit_ok;
}

}  // namespace cantonlite::app
