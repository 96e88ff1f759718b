#include "test_server.hpp"

#include <chrono>
#include <condition_variable>
#include <mutex>

#include "cantonlite/app/application.hpp"
#include "cantonlite/seed/seed_loader.hpp"

namespace cantonlite::testing {

struct TestServer::Log {
    mutable std::mutex mutex;
    mutable std::condition_variable grew;
    std::vector<std::string> held;   // logged, not yet flushed
    std::vector<std::string> lines;  // flushed
    std::size_t flushes = 0;
};

nlohmann::json small_seed() {
    return {{"network",
             {{"dso_party", "DSO::1220ca19"},
              {"lsu",
               {{"topology_freeze_time", "2030-01-15T12:00:00Z"},
                {"upgrade_time", "2030-01-15T14:00:00.5Z"},
                {"successor_physical_synchronizer_id", "global-domain::1220ab::34-1"}}}}}};
}

TestServer::TestServer(net::ServerOptions options, const nlohmann::json& seed)
    : store_(seed::load_seed(seed, "test seed")),
      router_(app::make_router(*store_)),
      log_(std::make_shared<Log>()) {
    options.address = "127.0.0.1";
    options.port = 0;
    options.access_log = [log = log_](const net::AccessRecord& r) {
        const std::lock_guard lock(log->mutex);
        log->held.push_back(std::string(r.method) + " " + std::string(r.target) + " " +
                            std::to_string(r.status) + " " + std::to_string(r.bytes));
    };
    // As the daemon's access log: lines are held until the server flushes them.
    options.access_log_flush = [log = log_] {
        {
            const std::lock_guard lock(log->mutex);
            log->lines.insert(log->lines.end(), log->held.begin(), log->held.end());
            log->held.clear();
            ++log->flushes;
        }
        log->grew.notify_all();
    };
    server_ = std::make_unique<net::Server>(options, *router_);
    server_->start();
}

TestServer::~TestServer() {
    server_->stop();
    server_->wait();
}

std::vector<std::string> TestServer::access_lines(std::size_t count) const {
    std::unique_lock lock(log_->mutex);
    log_->grew.wait_for(lock, std::chrono::seconds(5), [&] { return log_->lines.size() >= count; });
    return log_->lines;
}

std::size_t TestServer::access_flushes() const {
    const std::lock_guard lock(log_->mutex);
    return log_->flushes;
}

}  // namespace cantonlite::testing
