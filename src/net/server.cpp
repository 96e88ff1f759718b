#include "cantonlite/net/server.hpp"

#include <atomic>
#include <csignal>
#include <system_error>
#include <thread>
#include <vector>

#include <spdlog/spdlog.h>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/address.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>

#include "listener.hpp"
#include "session.hpp"

namespace cantonlite::net {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;

struct Server::Impl {
    Impl(ServerOptions opts, const http::Router& router)
        : options(std::move(opts)),
          ioc(options.io_threads),
          hub(std::make_shared<SessionHub>(router, options)),
          signals(ioc),
          grace(ioc) {}

    ServerOptions options;
    asio::io_context ioc;
    std::shared_ptr<SessionHub> hub;
    std::shared_ptr<Listener> listener;
    asio::signal_set signals;
    asio::steady_timer grace;
    std::vector<std::thread> threads;
    std::atomic<bool> stop_requested{false};

    // Runs on an io thread: closes the acceptor and lets the sessions drain; when the grace period
    // is over first, closes the ones left. The io threads end when no work remains.
    void begin_stop() {
        boost::system::error_code ignored;
        signals.cancel(ignored);
        listener->close();
        grace.expires_after(options.shutdown_grace);
        grace.async_wait([this](boost::system::error_code ec) {
            if (ec) return;  // cancelled: every session finished in time
            spdlog::warn("shutdown grace of {} ms over; closing the remaining connections",
                         options.shutdown_grace.count());
            hub->close_all();
        });
        hub->begin_stop([this] { asio::post(ioc, [this] { grace.cancel(); }); });
    }
};

Server::Server(ServerOptions options, const http::Router& router)
    : impl_(std::make_unique<Impl>(std::move(options), router)) {}

Server::~Server() {
    if (!impl_->threads.empty()) {
        impl_->ioc.stop();
        wait();
    }
}

void Server::start() {
    boost::system::error_code ec;
    const auto address = asio::ip::make_address(impl_->options.address, ec);
    if (ec) {
        throw std::system_error(std::make_error_code(std::errc::invalid_argument),
                                "invalid listen address '" + impl_->options.address + "'");
    }
    try {
        impl_->listener = std::make_shared<Listener>(
            impl_->ioc, tcp::endpoint(address, impl_->options.port), impl_->hub);
    } catch (const boost::system::system_error& e) {
        throw std::system_error(e.code(), "cannot listen on " + impl_->options.address + ":" +
                                              std::to_string(impl_->options.port));
    }
    impl_->listener->run();
    const int n = std::max(1, impl_->options.io_threads);
    for (int i = 0; i < n; ++i) impl_->threads.emplace_back([this] { impl_->ioc.run(); });
}

std::uint16_t Server::port() const {
    return impl_->listener->port();
}

std::size_t Server::open_connections() const {
    return impl_->hub->size();
}

void Server::stop() {
    if (!impl_->listener || impl_->stop_requested.exchange(true)) return;
    asio::post(impl_->ioc, [impl = impl_.get()] { impl->begin_stop(); });
}

void Server::stop_on_signals() {
    impl_->signals.add(SIGINT);
    impl_->signals.add(SIGTERM);
    impl_->signals.async_wait([this](boost::system::error_code ec, int signal) {
        if (ec) return;
        spdlog::info("received signal {}; stopping", signal);
        stop();
    });
}

void Server::wait() {
    for (auto& t : impl_->threads) {
        if (t.joinable()) t.join();
    }
    impl_->threads.clear();
}

}  // namespace cantonlite::net
