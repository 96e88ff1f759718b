#pragma once
// FaultTable: the faults a test asked for (the admin API's /faults): added latency, error answers
// and connection resets on the routes a rule names.

#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace cantonlite::http {

// A share of matched requests, in millionths: 0.25 is 250 000. Integers, so that shares add up
// exactly (ten requests at 0.1 inject exactly one fault).
inline constexpr std::uint32_t share_scale = 1'000'000;

// What a test asks for. A rule matches a request of `method` (empty: any) whose route template or
// path matches `route`, where '*' stands for any run of characters ("/api/scan/*", "*").
struct FaultRule {
    std::string route;
    std::string method;
    std::chrono::milliseconds latency{0};  // added before the answer, whatever the answer is
    int error_status = 0;                  // 429, 500 or 503; 0 with error_share 0
    std::uint32_t error_share = 0;         // of matched requests answered error_status
    std::uint32_t reset_share = 0;         // of matched requests whose connection is reset
    std::uint64_t times = 0;  // the rule matches this many requests, then none; 0: no end
};

// A rule as it stands: what it asks, its id, and what it did.
struct FaultRuleState {
    std::uint64_t id = 0;
    FaultRule rule;
    std::uint64_t matched = 0;  // requests it matched
    std::uint64_t delayed = 0;  // of them, delayed by its latency
    std::uint64_t errors = 0;   // answered error_status
    std::uint64_t resets = 0;   // reset
};

// What to do to one request.
struct FaultDecision {
    std::uint64_t rule = 0;
    std::chrono::milliseconds delay{0};
    int error_status = 0;  // 0: the route answers
    bool reset = false;    // close the connection without an answer
};

// Faults injected since start-up, for metrics; a clear does not reset them.
struct FaultCounts {
    std::uint64_t delayed = 0;
    std::uint64_t resets = 0;
    std::vector<std::pair<int, std::uint64_t>> errors;  // by status, ascending
};

// Thread-safe. With no rule, armed() is one relaxed load, and the request path does nothing more.
// Shares are deterministic: a rule with error_share s answers an error to its n-th matched request
// whenever floor(n*s) grows, so that 0.5 fails every second request and 0.1 every tenth; resets
// likewise, with their own count. When both fall on one request the reset wins and the error
// comes on the next one.
class FaultTable {
  public:
    // The routes rules may name: every (method, template) of the areas that take faults.
    // REQUIRES: start-up, before the first add().
    void add_routes(const std::vector<std::pair<std::string, std::string>>& routes);

    // Adds a rule; returns its id (1, 2, ...; never reused). Throws std::invalid_argument, with the
    // message a client is shown, for a route that names none of the routes (for that method), a
    // status other than 429, 500 and 503, a share above 1, shares adding up to more than 1, or a
    // latency over ten minutes.
    std::uint64_t add(FaultRule rule);
    // Removes one rule; false when there is none with that id.
    bool remove(std::uint64_t id);
    // Removes every rule; returns how many there were.
    std::size_t clear();

    [[nodiscard]] std::vector<FaultRuleState> rules() const;
    [[nodiscard]] FaultCounts counts() const;

    [[nodiscard]] bool armed() const { return armed_.load(std::memory_order_relaxed); }

    // The fault for a request of `method` that matched `route_template`, its path being `path`: of
    // the first rule, in the order they were added, that matches and has not run out of times.
    // nullopt when none does.
    [[nodiscard]] std::optional<FaultDecision> decide(std::string_view method,
                                                      std::string_view route_template,
                                                      std::string_view path);

  private:
    struct Entry {
        FaultRuleState state;
        std::uint64_t error_credit = 0;  // in millionths; an error is due at share_scale
        std::uint64_t reset_credit = 0;
    };

    std::atomic<bool> armed_{false};
    std::vector<std::pair<std::string, std::string>> routes_;  // set at start-up
    mutable std::mutex mutex_;
    std::vector<Entry> entries_;  // guarded by mutex_
    std::uint64_t next_id_ = 1;   // guarded by mutex_
    FaultCounts counts_;          // guarded by mutex_
};

// Whether `text` matches `pattern`, where '*' stands for any run of characters.
[[nodiscard]] bool glob_matches(std::string_view pattern, std::string_view text);

// Whether `path` is a path of route template `pattern`: each "{name}" segment stands for any one
// non-empty segment.
[[nodiscard]] bool template_matches(std::string_view pattern, std::string_view path);

}  // namespace cantonlite::http
