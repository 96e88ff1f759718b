// Out of file descriptors (a connection flood past `ulimit -n`): the listener pauses accepting and
// retries, logs the condition boundedly instead of once per failed accept (it used to spin at
// about 540 000 warnings a second), and serves again as soon as descriptors are free. Each ctest
// test runs in its own process, so lowering this process's descriptor limit touches no other test.
#include <dirent.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>
#include <spdlog/sinks/ringbuffer_sink.h>
#include <spdlog/spdlog.h>

#include "http_client.hpp"
#include "test_server.hpp"

namespace cantonlite::testing::descriptor_exhaustion_test {
namespace {

using namespace std::chrono_literals;

std::size_t open_descriptors() {
    std::size_t n = 0;
    if (DIR* d = ::opendir("/proc/self/fd")) {
        while (::readdir(d) != nullptr) ++n;
        ::closedir(d);
    }
    return n;
}

std::size_t count_accept_failures(spdlog::sinks::ringbuffer_sink_mt& sink) {
    const auto lines = sink.last_formatted();
    return static_cast<std::size_t>(std::count_if(lines.begin(), lines.end(), [](const auto& l) {
        return l.find("accept failed") != std::string::npos;
    }));
}

TEST(DescriptorExhaustion, TheListenerBacksOffLogsBoundedlyAndServesAgain) {
    const auto sink = std::make_shared<spdlog::sinks::ringbuffer_sink_mt>(100'000);
    const auto previous = spdlog::default_logger();
    spdlog::set_default_logger(std::make_shared<spdlog::logger>("exhaustion-test", sink));

    TestServer server(net::ServerOptions{.io_threads = 1});
    rlimit original{};
    ASSERT_EQ(::getrlimit(RLIMIT_NOFILE, &original), 0);
    rlimit lowered = original;
    lowered.rlim_cur = open_descriptors() + 6;
    ASSERT_EQ(::setrlimit(RLIMIT_NOFILE, &lowered), 0);

    // Connect until this process (clients and server share its limit) has no descriptor left;
    // the server's accepts then fail while connections wait in the backlog.
    std::vector<int> clients;
    for (int i = 0; i < 64; ++i) {
        const int fd = connect_raw(server.port());
        if (fd < 0) break;
        clients.push_back(fd);
    }
    ASSERT_FALSE(clients.empty());
    // Connections the kernel completed but the server could not accept keep failing; wait
    // (boundedly) for the first report, then watch a whole report interval.
    const auto until = std::chrono::steady_clock::now() + 10s;
    while (count_accept_failures(*sink) == 0 && std::chrono::steady_clock::now() < until) {
        std::this_thread::sleep_for(10ms);
    }
    ASSERT_GT(count_accept_failures(*sink), 0U) << "the server never ran out of descriptors";
    const std::size_t before = count_accept_failures(*sink);
    std::this_thread::sleep_for(1200ms);
    const std::size_t in_interval = count_accept_failures(*sink) - before;
    EXPECT_LE(in_interval, 2U) << "the accept loop reports every failure";
    const auto lines = sink->last_formatted();
    const auto report = std::find_if(lines.begin(), lines.end(), [](const auto& l) {
        return l.find("accept failed") != std::string::npos;
    });
    ASSERT_NE(report, lines.end());
    EXPECT_NE(report->find("Too many open files"), std::string::npos) << *report;
    EXPECT_NE(report->find("pausing accepts until descriptors are free"), std::string::npos);

    // Descriptors free again: the server accepts and answers.
    for (const int fd : clients) ::close(fd);
    ASSERT_EQ(::setrlimit(RLIMIT_NOFILE, &original), 0);
    const auto answer = fetch(server.port(), "GET", "/api/scan/livez");
    ASSERT_TRUE(answer.has_value());
    EXPECT_EQ(answer->status, 200);

    spdlog::set_default_logger(previous);
}

}  // namespace
}  // namespace cantonlite::testing::descriptor_exhaustion_test
