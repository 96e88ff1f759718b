#pragma once
// GET /metrics: the daemon's counters and gauges in Prometheus' text exposition format (0.0.4).
//
// - Requests by area, route template and status, with a latency histogram per route template.
//   The series are laid out at start-up from the router's routes, and a label never holds a raw
//   path, so their number stays bounded: (routes + one "unmatched" per area) × statuses seen.
// - The ledger: its end, the active contracts by template, the admin API's writes by kind and
//   the snapshots saved.
// - The process: resident and virtual memory, CPU time, open descriptors, open connections.
//
// Recording a request is lock-free (relaxed atomic increments, a lookup in a map built at
// start-up and only read after), so it adds next to nothing to an API request.

#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "cantonlite/http/area.hpp"
#include "cantonlite/http/router.hpp"
#include "cantonlite/journal/journal.hpp"
#include "cantonlite/net/server.hpp"
#include "cantonlite/seed/live_network.hpp"

namespace cantonlite::app {

// The request series. Thread-safe: index() at start-up, then record() and write() from any thread.
class RequestMetrics {
  public:
    // The latency buckets' upper bounds, in microseconds (100 µs to 10 s).
    static constexpr std::array<std::int64_t, 16> bucket_micros{
        100,    250,     500,     1'000,   2'500,     5'000,     10'000,    25'000,
        50'000, 100'000, 250'000, 500'000, 1'000'000, 2'500'000, 5'000'000, 10'000'000};

    RequestMetrics();
    ~RequestMetrics();
    RequestMetrics(const RequestMetrics&) = delete;
    RequestMetrics& operator=(const RequestMetrics&) = delete;

    // Lays out a series per route of every area of `router`, and one "unmatched" per area; the
    // routes of a router indexed before share their series.
    // REQUIRES: start-up, before the first record(); every area mounted; `router` outlives this.
    void index(const http::Router& router);

    // Counts one answered request (the server's access hook).
    void record(const net::AccessRecord& record);

    // Appends the cantonlite_http_requests_total and cantonlite_http_request_duration_seconds
    // families: every series that has counted a request.
    void write(std::string& out) const;

  private:
    struct Series;
    Series& series_of(const net::AccessRecord& record);

    std::vector<std::unique_ptr<Series>> series_;
    // By the address of the route's pattern, or of the area's prefix when no route matched.
    std::unordered_map<const char*, Series*> by_key_;
    Series* unrouted_ = nullptr;  // answered outside every area (an undecodable path, a 413)
};

// What else /metrics shows. Each source may be empty.
struct MetricsSources {
    const RequestMetrics* requests = nullptr;
    const seed::LiveNetwork* network = nullptr;        // read under its gate (the router holds it)
    const http::FaultTable* faults = nullptr;          // the router's
    std::function<std::size_t()> open_connections;     // the server's, once it exists
    std::function<journal::Journal::Stats()> journal;  // the daemon's journal, when it has one
};

// The whole exposition, in the text format.
[[nodiscard]] std::string render_metrics(const MetricsSources& sources);

// GET /metrics, the network page at GET /, and the real services' 404 for any path no other area
// serves. Its prefix is "/",
// the shortest there is: it answers only what no other area does. It keeps the request series.
class RootArea : public http::Area {
  public:
    // `network` and `faults` (either may be null) must outlive the area.
    explicit RootArea(const seed::LiveNetwork* network, const http::FaultTable* faults = nullptr);

    // /metrics answers while faults are set.
    [[nodiscard]] bool takes_faults() const override { return false; }

    // Lays out the request series over every area of `router`, this one included.
    // REQUIRES: start-up, every area mounted.
    void index(const http::Router& router) { requests_.index(router); }

    [[nodiscard]] RequestMetrics& requests() { return requests_; }

    // The server's count of open connections. REQUIRES: start-up, before the server starts.
    void set_open_connections(std::function<std::size_t()> count) {
        sources_.open_connections = std::move(count);
    }
    // The journal's figures. REQUIRES: start-up, before the server starts.
    void set_journal(std::function<journal::Journal::Stats()> stats) {
        sources_.journal = std::move(stats);
    }

  protected:
    [[nodiscard]] http::Response render_error(const http::ApiError& error,
                                              const http::Request& request) const override;
    [[nodiscard]] http::Response render_decode_error(const http::DecodeError& error) const override;

  private:
    RequestMetrics requests_;
    MetricsSources sources_;
};

// The root area of `router`; nullptr when it has none (make_router over a store alone).
[[nodiscard]] RootArea* find_root_area(const http::Router& router);

// The Content-Type of the exposition.
inline constexpr std::string_view metrics_content_type = "text/plain; version=0.0.4; charset=utf-8";

}  // namespace cantonlite::app
