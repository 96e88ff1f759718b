#include "cantonlite/net/server.hpp"

#include <atomic>
#include <csignal>
#include <system_error>
#include <thread>
#include <vector>

#include <spdlog/spdlog.h>
#include <boost/asio/dispatch.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/address.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>

#include "listener.hpp"
#include "session.hpp"

namespace cantonlite::net {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;

struct Server::Impl {
    Impl(ServerOptions opts, const http::Router& router)
        : options(std::move(opts)),
          ioc(options.io_threads),
          signal_strand(asio::make_strand(ioc)),
          signals(signal_strand),
          grace(ioc) {
        // One hub per listener: its sessions answer through its router.
        hubs.push_back(std::make_shared<SessionHub>(router, options, ioc));
        ports.push_back(options.port);
        for (const auto& also : options.also_listen) {
            hubs.push_back(std::make_shared<SessionHub>(*also.router, options, ioc));
            ports.push_back(also.port);
        }
    }

    ServerOptions options;
    asio::io_context ioc;
    std::vector<std::shared_ptr<SessionHub>> hubs;
    std::vector<std::uint16_t> ports;  // as asked; each listener knows the one it bound
    std::vector<std::shared_ptr<Listener>> listeners;
    asio::strand<asio::io_context::executor_type> signal_strand;  // the signal set's
    asio::signal_set signals;
    asio::steady_timer grace;
    std::vector<std::thread> threads;
    std::atomic<bool> stop_requested{false};
    std::atomic<std::size_t> draining{0};  // hubs with sessions left, once stopping

    // Runs on an io thread: closes the acceptors and lets the sessions drain; when the grace
    // period is over first, closes the ones left. The io threads end when no work remains.
    void begin_stop() {
        for (const auto& l : listeners) l->close();
        grace.expires_after(options.shutdown_grace);
        grace.async_wait([this](boost::system::error_code ec) {
            if (ec) return;  // cancelled: every session finished in time
            spdlog::warn("shutdown grace of {} ms over; closing the remaining connections",
                         options.shutdown_grace.count());
            for (const auto& hub : hubs) hub->close_all();
        });
        draining.store(hubs.size());
        for (const auto& hub : hubs) {
            hub->begin_stop([this] {
                asio::post(ioc, [this] {
                    if (draining.fetch_sub(1) != 1) return;
                    grace.cancel();
                    // No signal is awaited any more: the io threads end with their work.
                    asio::dispatch(signal_strand, [this] {
                        boost::system::error_code ignored;
                        signals.cancel(ignored);
                    });
                });
            });
        }
    }

    // The first SIGINT or SIGTERM stops the server as stop() does (once its io threads run); one
    // after a stop closes the connections left at once. Awaited until every session is gone.
    void await_signal() {
        signals.async_wait([this](boost::system::error_code ec, int signal) {
            if (ec) return;  // cancelled: the stop is over
            if (!stop_requested.exchange(true)) {
                spdlog::info(
                    "received signal {}; stopping (another one closes the connections "
                    "left at once)",
                    signal);
                begin_stop();
            } else {
                spdlog::warn("received signal {} while stopping; closing the connections left",
                             signal);
                for (const auto& hub : hubs) hub->close_all();
            }
            await_signal();
        });
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
    std::vector<std::shared_ptr<Listener>> listeners;
    for (std::size_t i = 0; i < impl_->hubs.size(); ++i) {
        try {
            listeners.push_back(std::make_shared<Listener>(
                impl_->ioc, tcp::endpoint(address, impl_->ports[i]), impl_->hubs[i]));
        } catch (const boost::system::system_error& e) {
            // The ones bound so far close with `listeners`: nothing listens.
            throw std::system_error(e.code(), "cannot listen on " + impl_->options.address + ":" +
                                                  std::to_string(impl_->ports[i]));
        }
    }
    impl_->listeners = std::move(listeners);
    for (const auto& l : impl_->listeners) l->run();
    const int n = std::max(1, impl_->options.io_threads);
    for (int i = 0; i < n; ++i) impl_->threads.emplace_back([this] { impl_->ioc.run(); });
}

std::uint16_t Server::port(std::size_t i) const {
    return impl_->listeners.at(i)->port();
}

std::size_t Server::open_connections() const {
    std::size_t n = 0;
    for (const auto& hub : impl_->hubs) n += hub->size();
    return n;
}

void Server::stop() {
    if (impl_->listeners.empty() || impl_->stop_requested.exchange(true)) return;
    asio::post(impl_->ioc, [impl = impl_.get()] { impl->begin_stop(); });
}

void Server::stop_on_signals() {
    impl_->signals.add(SIGINT);
    impl_->signals.add(SIGTERM);
    impl_->await_signal();
}

void Server::wait() {
    for (auto& t : impl_->threads) {
        if (t.joinable()) t.join();
    }
    impl_->threads.clear();
    // A flush deferred onto the io_context is dropped when it was stopped.
    if (impl_->options.access_log_flush) impl_->options.access_log_flush();
}

}  // namespace cantonlite::net
