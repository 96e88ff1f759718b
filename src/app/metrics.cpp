#include "cantonlite/app/metrics.hpp"

#include "cantonlite/app/network_page.hpp"

#include <unistd.h>

#include <charconv>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>

#include <sys/resource.h>

namespace cantonlite::app {
namespace {

constexpr int lowest_status = 100;
constexpr int highest_status = 599;
constexpr std::string_view unmatched = "unmatched";

// The area label: a short name for the areas this daemon mounts, else the prefix itself.
std::string area_label(std::string_view prefix) {
    if (prefix == "/v2/") return "ledger";
    if (prefix == "/api/scan/") return "scan";
    if (prefix == "/api/validator/") return "validator";
    if (prefix == "/_cantonlite/v1/") return "admin";
    if (prefix == "/") return "root";
    return std::string(prefix);
}

// A label value as the text format writes it: backslash, double quote and line feed escaped.
void append_label_value(std::string& out, std::string_view value) {
    for (const char c : value) {
        if (c == '\\') {
            out += "\\\\";
        } else if (c == '"') {
            out += "\\\"";
        } else if (c == '\n') {
            out += "\\n";
        } else {
            out += c;
        }
    }
}

template <class Number>
void append_number(std::string& out, Number n) {
    char buffer[32];
    const auto end = std::to_chars(buffer, buffer + sizeof buffer, n).ptr;
    out.append(buffer, end);
}

void append_family(std::string& out, std::string_view name, std::string_view type,
                   std::string_view help) {
    out += "# HELP ";
    out += name;
    out += ' ';
    out += help;
    out += "\n# TYPE ";
    out += name;
    out += ' ';
    out += type;
    out += '\n';
}

// `name{labels} value`; `labels` already written as `a="x",b="y"` (may be empty).
template <class Number>
void append_sample(std::string& out, std::string_view name, std::string_view labels, Number value) {
    out += name;
    if (!labels.empty()) {
        out += '{';
        out += labels;
        out += '}';
    }
    out += ' ';
    append_number(out, value);
    out += '\n';
}

std::string labels_of(std::initializer_list<std::pair<std::string_view, std::string_view>> pairs) {
    std::string out;
    for (const auto& [name, value] : pairs) {
        if (!out.empty()) out += ',';
        out += name;
        out += "=\"";
        append_label_value(out, value);
        out += '"';
    }
    return out;
}

// The `le` label of each of RequestMetrics::bucket_micros, as Prometheus' clients write them.
constexpr std::array<std::string_view, RequestMetrics::bucket_micros.size()> bucket_labels{
    "0.0001", "0.00025", "0.0005", "0.001", "0.0025", "0.005", "0.01", "0.025",
    "0.05",   "0.1",     "0.25",   "0.5",   "1",      "2.5",   "5",    "10"};

// The process's own figures, from /proc/self and getrusage.
struct ProcessFigures {
    std::uint64_t resident_bytes = 0;
    std::uint64_t virtual_bytes = 0;
    double cpu_seconds = 0;
    std::size_t open_fds = 0;
    double start_time_seconds = 0;
};

// The process's start time in seconds since the epoch: field 22 of /proc/self/stat (clock ticks
// after boot) placed on the wall clock through /proc/uptime. Read once: it does not change, and
// reading it again would move it by the rounding of the two clocks.
double process_start_time() {
    static const double start = [] {
        std::ifstream stat("/proc/self/stat");
        std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
        const std::size_t comm_end = text.rfind(')');
        std::ifstream uptime_file("/proc/uptime");
        double uptime = 0;
        if (comm_end == std::string::npos || !(uptime_file >> uptime)) return 0.0;
        std::istringstream fields(text.substr(comm_end + 2));
        std::string field;
        for (int i = 3; i <= 22 && (fields >> field); ++i) {
            if (i != 22) continue;
            const double ticks = std::stod(field);
            const double since_boot = ticks / static_cast<double>(::sysconf(_SC_CLK_TCK));
            return static_cast<double>(std::time(nullptr)) - uptime + since_boot;
        }
        return 0.0;
    }();
    return start;
}

ProcessFigures process_figures() {
    ProcessFigures f;
    const auto page = static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
    std::ifstream statm("/proc/self/statm");
    std::uint64_t pages = 0;
    std::uint64_t resident = 0;
    if (statm >> pages >> resident) {
        f.virtual_bytes = pages * page;
        f.resident_bytes = resident * page;
    }
    rusage usage{};
    if (::getrusage(RUSAGE_SELF, &usage) == 0) {
        f.cpu_seconds = static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
                        static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
    }
    std::error_code ec;
    for (auto it = std::filesystem::directory_iterator("/proc/self/fd", ec);
         !ec && it != std::filesystem::directory_iterator(); it.increment(ec)) {
        ++f.open_fds;
    }
    if (f.open_fds > 0) --f.open_fds;  // the iterator's own descriptor
    f.start_time_seconds = process_start_time();
    return f;
}

}  // namespace

struct RequestMetrics::Series {
    std::string labels;  // area="...",method="...",route="..."
    std::array<std::atomic<std::uint64_t>, highest_status - lowest_status + 2> by_status{};
    std::array<std::atomic<std::uint64_t>, bucket_micros.size() + 1> buckets{};  // last: +Inf
    std::atomic<std::uint64_t> micros{0};
    std::atomic<std::uint64_t> count{0};

    Series(std::string_view area, std::string_view method, std::string_view route)
        : labels(labels_of({{"area", area}, {"method", method}, {"route", route}})) {}
};

RequestMetrics::RequestMetrics() {
    series_.push_back(std::make_unique<Series>("none", "other", unmatched));
    unrouted_ = series_.back().get();
}

RequestMetrics::~RequestMetrics() = default;

void RequestMetrics::index(const http::Router& router) {
    // Several routers may mount areas of one kind (serve --localnet): their routes share a series.
    const auto series = [&](const std::string& area, std::string_view method,
                            std::string_view route) {
        auto s = std::make_unique<Series>(area, method, route);
        for (const auto& known : series_) {
            if (known->labels == s->labels) return known.get();
        }
        series_.push_back(std::move(s));
        return series_.back().get();
    };
    for (const auto& area : router.areas()) {
        const std::string label = area_label(area->prefix());
        by_key_.emplace(area->prefix().data(), series(label, "other", unmatched));
        for (const auto& route : area->routes().routes()) {
            by_key_.emplace(route.pattern.data(), series(label, route.method, route.pattern));
        }
    }
}

RequestMetrics::Series& RequestMetrics::series_of(const net::AccessRecord& record) {
    const std::string_view key = !record.route.empty() ? record.route : record.area;
    if (key.empty()) return *unrouted_;
    const auto it = by_key_.find(key.data());
    return it == by_key_.end() ? *unrouted_ : *it->second;
}

void RequestMetrics::record(const net::AccessRecord& record) {
    Series& s = series_of(record);
    const int status = record.status;
    const std::size_t slot = status >= lowest_status && status <= highest_status
                                 ? static_cast<std::size_t>(status - lowest_status)
                                 : s.by_status.size() - 1;
    s.by_status[slot].fetch_add(1, std::memory_order_relaxed);
    std::size_t bucket = 0;
    while (bucket < bucket_micros.size() && record.micros > bucket_micros[bucket]) ++bucket;
    s.buckets[bucket].fetch_add(1, std::memory_order_relaxed);
    s.micros.fetch_add(static_cast<std::uint64_t>(std::max<std::int64_t>(record.micros, 0)),
                       std::memory_order_relaxed);
    s.count.fetch_add(1, std::memory_order_relaxed);
}

void RequestMetrics::write(std::string& out) const {
    append_family(out, "cantonlite_http_requests_total", "counter",
                  "HTTP requests answered, by area, route (method and path template; other and "
                  "unmatched where no route matched) and status.");
    for (const auto& s : series_) {
        for (std::size_t i = 0; i < s->by_status.size(); ++i) {
            const std::uint64_t n = s->by_status[i].load(std::memory_order_relaxed);
            if (n == 0) continue;
            std::string status = i + 1 == s->by_status.size()
                                     ? std::string("other")
                                     : std::to_string(static_cast<int>(i) + lowest_status);
            append_sample(out, "cantonlite_http_requests_total",
                          s->labels + ",status=\"" + status + "\"", n);
        }
    }
    append_family(out, "cantonlite_http_request_duration_seconds", "histogram",
                  "Time from a request's header read to its response written, by area and route "
                  "template.");
    for (const auto& s : series_) {
        const std::uint64_t count = s->count.load(std::memory_order_relaxed);
        if (count == 0) continue;
        // Counted one by one while requests go on: the buckets are summed as read, and +Inf and
        // _count are that sum, so that the series is consistent in itself.
        std::uint64_t cumulative = 0;
        for (std::size_t b = 0; b < bucket_micros.size(); ++b) {
            cumulative += s->buckets[b].load(std::memory_order_relaxed);
            append_sample(out, "cantonlite_http_request_duration_seconds_bucket",
                          s->labels + ",le=\"" + std::string(bucket_labels[b]) + "\"", cumulative);
        }
        cumulative += s->buckets.back().load(std::memory_order_relaxed);
        append_sample(out, "cantonlite_http_request_duration_seconds_bucket",
                      s->labels + ",le=\"+Inf\"", cumulative);
        append_sample(out, "cantonlite_http_request_duration_seconds_sum", s->labels,
                      static_cast<double>(s->micros.load(std::memory_order_relaxed)) / 1e6);
        append_sample(out, "cantonlite_http_request_duration_seconds_count", s->labels, cumulative);
    }
}

std::string render_metrics(const MetricsSources& sources) {
    std::string out;
    out.reserve(16 * 1024);
    if (sources.requests != nullptr) sources.requests->write(out);
    if (sources.network != nullptr) {
        const store::LedgerStore& store = sources.network->store();
        append_family(out, "cantonlite_ledger_end_offset", "gauge",
                      "The ledger end: the offset of the latest update (0 when empty).");
        append_sample(out, "cantonlite_ledger_end_offset", "", store.ledger_end());
        append_family(out, "cantonlite_active_contracts", "gauge",
                      "Active contracts, by template (package name, module and entity).");
        for (const auto& [template_id, count] : store.active_counts()) {
            append_sample(out, "cantonlite_active_contracts",
                          labels_of({{"template", template_id}}), count);
        }
        const seed::LiveNetwork::Activity a = sources.network->activity();
        append_family(out, "cantonlite_admin_writes_total", "counter",
                      "Writes the admin API applied since start, by kind (steps, time, snapshot, "
                      "revert, reset); a journal's replay aside.");
        for (const auto& [kind, n] : {std::pair<std::string_view, std::uint64_t>{"steps", a.steps},
                                      {"time", a.time},
                                      {"snapshot", a.snapshots},
                                      {"revert", a.reverts},
                                      {"reset", a.resets}}) {
            append_sample(out, "cantonlite_admin_writes_total", labels_of({{"kind", kind}}), n);
        }
        append_family(out, "cantonlite_snapshots", "gauge",
                      "Snapshots saved now, that a revert can go back to.");
        append_sample(out, "cantonlite_snapshots", "", a.snapshots_saved);
    }
    if (sources.faults != nullptr) {
        const http::FaultCounts c = sources.faults->counts();
        append_family(out, "cantonlite_fault_rules", "gauge",
                      "Fault rules set now (the admin API's /faults).");
        append_sample(out, "cantonlite_fault_rules", "", sources.faults->rules().size());
        append_family(out, "cantonlite_faults_injected_total", "counter",
                      "Faults injected since start, by kind (latency, error with its status, "
                      "reset).");
        append_sample(out, "cantonlite_faults_injected_total", labels_of({{"kind", "latency"}}),
                      c.delayed);
        append_sample(out, "cantonlite_faults_injected_total", labels_of({{"kind", "reset"}}),
                      c.resets);
        for (const auto& [status, n] : c.errors) {
            append_sample(out, "cantonlite_faults_injected_total",
                          labels_of({{"kind", "error"}, {"status", std::to_string(status)}}), n);
        }
    }
    if (sources.journal) {
        const journal::Journal::Stats j = sources.journal();
        append_family(out, "cantonlite_journal_records_total", "counter",
                      "Journal records since start: this daemon's made durable, and the other "
                      "daemons' applied here (a journal in PostgreSQL shared by several).");
        append_sample(out, "cantonlite_journal_records_total",
                      labels_of({{"origin", "this_daemon"}}), j.records_written);
        append_sample(out, "cantonlite_journal_records_total",
                      labels_of({{"origin", "other_daemons"}}), j.records_followed);
        append_family(out, "cantonlite_journal_commits_total", "counter",
                      "Syncs (a file) or transactions (PostgreSQL) that made this daemon's "
                      "records durable; records per commit is the group commit's batch.");
        append_sample(out, "cantonlite_journal_commits_total", "", j.commits);
        append_family(out, "cantonlite_journal_turns_total", "counter",
                      "Turns to write this daemon took on a journal in PostgreSQL.");
        append_sample(out, "cantonlite_journal_turns_total", "", j.turns);
        append_family(out, "cantonlite_journal_available", "gauge",
                      "1 while the journal takes writes; 0 while PostgreSQL is away, or after the "
                      "journal failed.");
        append_sample(out, "cantonlite_journal_available", "", j.available ? 1 : 0);
    }
    if (sources.open_connections) {
        append_family(out, "cantonlite_open_connections", "gauge", "HTTP connections open now.");
        append_sample(out, "cantonlite_open_connections", "", sources.open_connections());
    }
    const ProcessFigures p = process_figures();
    append_family(out, "process_resident_memory_bytes", "gauge", "Resident memory size in bytes.");
    append_sample(out, "process_resident_memory_bytes", "", p.resident_bytes);
    append_family(out, "process_virtual_memory_bytes", "gauge", "Virtual memory size in bytes.");
    append_sample(out, "process_virtual_memory_bytes", "", p.virtual_bytes);
    append_family(out, "process_cpu_seconds_total", "counter",
                  "Total user and system CPU time spent in seconds.");
    append_sample(out, "process_cpu_seconds_total", "", p.cpu_seconds);
    append_family(out, "process_open_fds", "gauge", "Number of open file descriptors.");
    append_sample(out, "process_open_fds", "", p.open_fds);
    append_family(out, "process_start_time_seconds", "gauge",
                  "Start time of the process since unix epoch in seconds.");
    append_sample(out, "process_start_time_seconds", "", p.start_time_seconds);
    return out;
}

RootArea::RootArea(const seed::LiveNetwork* network, const http::FaultTable* faults)
    : http::Area("/", ""), sources_{.requests = &requests_, .network = network, .faults = faults} {
    add_route("GET", "/metrics", [this](const http::RequestContext& /*ctx*/) {
        http::Response response;
        response.status = 200;
        response.content_type = std::string(metrics_content_type);
        response.body = render_metrics(sources_);
        return response;
    });
    add_route("GET", "/", [](const http::RequestContext& /*ctx*/) {
        http::Response response;
        response.content_type = "text/html; charset=utf-8";
        response.body = std::string(network_page_html());
        response.headers.push_back({"Cache-Control", "no-store"});
        return response;
    });
}

RootArea* find_root_area(const http::Router& router) {
    for (const auto& area : router.areas()) {
        if (auto* root = dynamic_cast<RootArea*>(area.get())) return root;
    }
    return nullptr;
}

http::Response RootArea::render_error(const http::ApiError& error,
                                      const http::Request& /*request*/) const {
    return http::Response::text(http::http_status(error.kind()), error.what());
}

http::Response RootArea::render_decode_error(const http::DecodeError& error) const {
    return http::Response::text(400, error.what());
}

}  // namespace cantonlite::app
