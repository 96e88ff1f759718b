// cantonlite_bench: how fast and how lean the daemon is, as ratios to baselines measured in the
// same run on the same machine (absolute numbers differ between machines; ratios much less):
//   - throughput of every operation's example request (`cantonlite describe --json`) over
//     keep-alive connections, as a ratio to GET /api/scan/livez, the cheapest route;
//   - start-up time (spawn to first answer) and peak memory (VmHWM) of the daemon on a seed, as
//     ratios to parsing that seed's JSON alone (nlohmann, in a child process).
// Every answer must have the status its example expects; any other is counted and makes the run
// fail (exit 1), so `--quick` doubles as an end-to-end check of the examples.
//
// Usage: cantonlite_bench --bin PATH [--seed FILE]... [--generate P,M,K] [--seconds S]
//                         [--connections C] [--quick]
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "http_client.hpp"

extern char** environ;

namespace {

using Clock = std::chrono::steady_clock;
using nlohmann::json;
namespace fs = std::filesystem;

struct Options {
    std::string bin;
    std::vector<std::string> seeds;
    std::string generate = "1000,100000,10000";  // parties, amulets, updates; "" for none
    double seconds = 2.0;
    int connections = 4;
};

// --- processes ---

std::string run_capture(const std::string& command) {
    std::FILE* pipe = ::popen(command.c_str(), "r");
    if (pipe == nullptr) throw std::runtime_error("cannot run " + command);
    std::string out;
    char buffer[65536];
    std::size_t n;
    while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) out.append(buffer, n);
    if (::pclose(pipe) != 0) throw std::runtime_error("failed: " + command);
    return out;
}

std::string shell_quote(const std::string& s) {
    std::string out = "'";
    for (const char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

// A line "VmHWM:   1234 kB" of /proc/<pid>/status, in KiB.
long status_kib(pid_t pid, const std::string& key) {
    std::ifstream in("/proc/" + std::to_string(pid) + "/status");
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind(key + ":", 0) == 0) return std::stol(line.substr(key.size() + 1));
    }
    return -1;
}

// A port below the ephemeral range (32768-), where the daemons of other tests (--port 0) never
// land, that nothing listens on now.
std::uint16_t free_port(int attempt) {
    const int first = 20000 + (static_cast<int>(::getpid()) * 7 + attempt * 1009) % 12000;
    for (int port = first; port < 32768; ++port) {
        try {
            cantonlite::testing::HttpConnection probe(static_cast<std::uint16_t>(port));
        } catch (const std::runtime_error&) {
            return static_cast<std::uint16_t>(port);  // connection refused: free
        }
    }
    throw std::runtime_error("no free port");
}

// `cantonlite serve` on a seed, quiet, until destroyed.
class Daemon {
  public:
    // Retries on another port when the daemon exits before answering (a port taken meanwhile).
    Daemon(const std::string& bin, const std::string& seed) {
        for (int attempt = 0; attempt < 5; ++attempt) {
            if (start(bin, seed, attempt)) return;
        }
        throw std::runtime_error("the daemon did not come up on " + seed);
    }
    ~Daemon() {
        if (pid_ > 0) {
            ::kill(pid_, SIGTERM);
            ::waitpid(pid_, nullptr, 0);
        }
    }
    Daemon(const Daemon&) = delete;
    Daemon& operator=(const Daemon&) = delete;

    std::uint16_t port() const { return port_; }
    double startup_seconds() const { return startup_; }
    long peak_kib() const { return status_kib(pid_, "VmHWM"); }

  private:
    bool start(const std::string& bin, const std::string& seed, int attempt) {
        port_ = free_port(attempt);
        const std::string port = std::to_string(port_);
        std::vector<std::string> args{bin,  "serve",       "--seed", seed,           "--port",
                                      port, "--log-level", "warn",   "--io-threads", "2"};
        std::vector<char*> argv;
        for (auto& a : args) argv.push_back(a.data());
        argv.push_back(nullptr);
        posix_spawn_file_actions_t actions;
        posix_spawn_file_actions_init(&actions);
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
        const auto begin = Clock::now();
        const int spawned =
            posix_spawn(&pid_, bin.c_str(), &actions, nullptr, argv.data(), environ);
        posix_spawn_file_actions_destroy(&actions);
        if (spawned != 0) throw std::runtime_error("cannot start " + bin);
        while (!answers()) {
            if (::waitpid(pid_, nullptr, WNOHANG) == pid_) {
                pid_ = -1;
                return false;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
        startup_ = std::chrono::duration<double>(Clock::now() - begin).count();
        return true;
    }

    bool answers() const {
        try {
            const auto r = cantonlite::testing::fetch(port_, "GET", "/api/scan/livez");
            return r && r->status == 200;
        } catch (const std::runtime_error&) {
            return false;
        }
    }

    std::uint16_t port_ = 0;
    pid_t pid_ = -1;
    double startup_ = 0;
};

// Parsing the seed's JSON alone, in a child process: {seconds, peak KiB}.
std::pair<double, long> parse_baseline(const std::string& seed) {
    int fds[2];
    if (::pipe(fds) != 0) throw std::runtime_error("pipe");
    const pid_t child = ::fork();
    if (child == 0) {
        ::close(fds[0]);
        const auto start = Clock::now();
        std::ifstream in(seed, std::ios::binary);
        const json document = json::parse(in);
        const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
        const std::string out =
            std::to_string(seconds) + " " + std::to_string(status_kib(::getpid(), "VmHWM"));
        (void)!::write(fds[1], out.data(), out.size());
        (void)document;
        ::_exit(0);
    }
    ::close(fds[1]);
    char buffer[128] = {};
    (void)!::read(fds[0], buffer, sizeof buffer - 1);
    ::close(fds[0]);
    ::waitpid(child, nullptr, 0);
    std::istringstream in(buffer);
    double seconds = 0;
    long kib = 0;
    in >> seconds >> kib;
    return {seconds, kib};
}

// --- load ---

struct Example {
    std::string label;  // "op 3 POST /api/scan/v0/holdings/state"
    std::string request;
    int expect = 200;
};

struct Load {
    double per_second = 0;
    double p50_ms = 0;
    double p99_ms = 0;
    long unexpected = 0;
};

Load run_load(std::uint16_t port, const Example& e, double seconds, int connections) {
    std::atomic<long> done{0};
    std::atomic<long> unexpected{0};
    std::vector<std::vector<double>> latencies(static_cast<std::size_t>(connections));
    const auto deadline = Clock::now() + std::chrono::duration<double>(seconds);
    const auto start = Clock::now();
    std::vector<std::thread> threads;
    for (int t = 0; t < connections; ++t) {
        threads.emplace_back([&, t] {
            cantonlite::testing::HttpConnection c(port);
            auto& mine = latencies[static_cast<std::size_t>(t)];
            while (Clock::now() < deadline) {
                const auto sent = Clock::now();
                const auto r = c.send(e.request) ? c.read_response() : std::nullopt;
                if (!r) {
                    ++unexpected;
                    return;
                }
                mine.push_back(
                    std::chrono::duration<double, std::milli>(Clock::now() - sent).count());
                if (r->status != e.expect) ++unexpected;
                ++done;
            }
        });
    }
    for (auto& t : threads) t.join();
    const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
    std::vector<double> all;
    for (const auto& l : latencies) all.insert(all.end(), l.begin(), l.end());
    std::sort(all.begin(), all.end());
    const auto at = [&](double q) {
        return all.empty() ? 0.0 : all[static_cast<std::size_t>(q * (all.size() - 1))];
    };
    return {.per_second = static_cast<double>(done) / elapsed,
            .p50_ms = at(0.5),
            .p99_ms = at(0.99),
            .unexpected = unexpected};
}

// The example requests of the loaded network, one per operation and path, with their tokens.
std::vector<Example> examples_of(const Options& o, const std::string& seed) {
    const json described = json::parse(
        run_capture(shell_quote(o.bin) + " describe --json --seed " + shell_quote(seed)));
    std::map<std::string, std::string> tokens;
    std::vector<Example> out;
    std::map<std::string, bool> seen;
    for (const json& e : described.at("examples")) {
        const int expect = e.value("expect_status", 200);
        const std::string method = e.at("method");
        const std::string path = e.at("path");
        const std::string shape =
            std::to_string(e.value("op", 0)) + method + path.substr(0, path.find_first_of("?{"));
        if (expect / 100 != 2 || seen[shape]) continue;
        seen[shape] = true;
        std::string headers;
        if (e.contains("user") && e.at("user").is_string()) {
            const std::string user = e.at("user");
            if (!tokens.contains(user)) {
                std::string token = run_capture(shell_quote(o.bin) + " token --user " +
                                                shell_quote(user) + " --seed " + shell_quote(seed));
                while (!token.empty() && std::isspace(static_cast<unsigned char>(token.back())))
                    token.pop_back();
                tokens[user] = token;
            }
            headers = "Authorization: Bearer " + tokens[user] + "\r\n";
        }
        const std::string body =
            e.contains("body") && !e.at("body").is_null() ? e.at("body").dump() : "";
        out.push_back({.label = "op " + std::to_string(e.value("op", 0)) + " " + method + " " +
                                path.substr(0, 60),
                       .request = cantonlite::testing::make_request(method, path, body, headers),
                       .expect = expect});
    }
    return out;
}

std::string fixed(double v, int digits) {
    std::ostringstream s;
    s << std::fixed << std::setprecision(digits) << v;
    return s.str();
}

// One seed: start-up and memory, then every example's throughput. Returns the unexpected answers.
long bench_seed(const Options& o, const std::string& seed) {
    const auto [parse_seconds, parse_kib] = parse_baseline(seed);
    const Daemon daemon(o.bin, seed);
    const long daemon_kib = daemon.peak_kib();
    std::cout
        << "\n## " << seed << " (" << fs::file_size(seed) / 1024 << " KiB)\n\n"
        << "| measure | daemon | baseline: JSON parse of the seed | ratio |\n|---|---|---|---|\n"
        << "| start-up (s) | " << fixed(daemon.startup_seconds(), 3) << " | "
        << fixed(parse_seconds, 3) << " | "
        << fixed(daemon.startup_seconds() / std::max(parse_seconds, 1e-6), 1) << " |\n"
        << "| peak memory (MiB) | " << fixed(daemon_kib / 1024.0, 1) << " | "
        << fixed(parse_kib / 1024.0, 1) << " | "
        << fixed(static_cast<double>(daemon_kib) / std::max(parse_kib, 1L), 2) << " |\n\n";

    const Example livez{.label = "baseline GET /api/scan/livez",
                        .request = cantonlite::testing::make_request("GET", "/api/scan/livez")};
    const Load base = run_load(daemon.port(), livez, o.seconds, o.connections);
    long unexpected = base.unexpected;
    std::cout << "| request (" << o.connections << " connections) | req/s | p50 ms | p99 ms | "
              << "ratio to livez |\n|---|---|---|---|---|\n"
              << "| " << livez.label << " | " << fixed(base.per_second, 0) << " | "
              << fixed(base.p50_ms, 3) << " | " << fixed(base.p99_ms, 3) << " | 1.00 |\n";
    for (const Example& e : examples_of(o, seed)) {
        const Load l = run_load(daemon.port(), e, o.seconds, o.connections);
        unexpected += l.unexpected;
        std::cout << "| " << e.label << " | " << fixed(l.per_second, 0) << " | "
                  << fixed(l.p50_ms, 3) << " | " << fixed(l.p99_ms, 3) << " | "
                  << fixed(l.per_second / std::max(base.per_second, 1e-9), 2)
                  << (l.unexpected ? " (" + std::to_string(l.unexpected) + " unexpected)" : "")
                  << " |\n";
    }
    return unexpected;
}

Options parse_options(int argc, char** argv) {
    Options o;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        const auto value = [&]() -> std::string {
            if (i + 1 >= argc) throw std::runtime_error(a + " needs a value");
            return argv[++i];
        };
        if (a == "--bin") {
            o.bin = value();
        } else if (a == "--seed") {
            o.seeds.push_back(value());
        } else if (a == "--generate") {
            o.generate = value();
        } else if (a == "--seconds") {
            o.seconds = std::stod(value());
        } else if (a == "--connections") {
            o.connections = std::stoi(value());
        } else if (a == "--quick") {
            o.seconds = 0.1;
            o.connections = 2;
            o.generate = "20,500,200";
        } else {
            throw std::runtime_error("unknown argument " + a);
        }
    }
    if (o.bin.empty()) throw std::runtime_error("--bin PATH is required");
    return o;
}

}  // namespace

int main(int argc, char** argv) {
    try {
        Options o = parse_options(argc, argv);
        ::signal(SIGPIPE, SIG_IGN);
        std::optional<fs::path> generated;
        if (!o.generate.empty()) {
            std::replace(o.generate.begin(), o.generate.end(), ',', ' ');
            std::istringstream sizes(o.generate);
            long parties = 0, amulets = 0, updates = 0;
            sizes >> parties >> amulets >> updates;
            generated = fs::temp_directory_path() /
                        ("cantonlite-bench-" + std::to_string(::getpid()) + ".json");
            std::ofstream(*generated) << run_capture(
                shell_quote(o.bin) + " generate --parties " + std::to_string(parties) +
                " --amulets " + std::to_string(amulets) + " --updates " + std::to_string(updates));
            o.seeds.push_back(generated->string());
        }
        std::cout << "# cantonlite_bench (" << std::thread::hardware_concurrency() << " cores, "
                  << o.seconds << " s per request)\n";
        long unexpected = 0;
        for (const std::string& seed : o.seeds) unexpected += bench_seed(o, seed);
        if (generated) fs::remove(*generated);
        if (unexpected > 0) {
            std::cerr << unexpected << " answers had an unexpected status\n";
            return 1;
        }
        return 0;
    } catch (const std::exception& e) {
        std::cerr << "cantonlite_bench: " << e.what() << "\n";
        return 2;
    }
}
