#pragma once
// Listener: the one acceptor of a server; starts a Session per accepted connection.

#include <chrono>
#include <cstdint>
#include <memory>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>

#include "session.hpp"

namespace cantonlite::net {

// Accepts connections until closed. Each connection gets its own strand. Owned by its pending
// accept (shared_ptr) and by the Server. When the process is out of descriptors (or memory for
// sockets), it pauses accepting for `accept_backoff` and tries again, logging the condition at most
// once per `report_interval` with the number of failures since the last report: it neither spins
// nor floods the log, and serves again as soon as descriptors are free.
class Listener : public std::enable_shared_from_this<Listener> {
  public:
    // Opens, binds and listens. Throws boost::system::system_error on failure.
    Listener(boost::asio::io_context& ioc, const boost::asio::ip::tcp::endpoint& endpoint,
             std::shared_ptr<SessionHub> hub);

    void run();    // starts the accept loop
    void close();  // stops accepting; safe from any thread

    static constexpr std::chrono::milliseconds accept_backoff{50};
    static constexpr std::chrono::seconds report_interval{1};

    [[nodiscard]] std::uint16_t port() const { return port_; }

  private:
    void accept();
    // An accept failed with `ec`: pause (resource exhaustion) or go on, and report boundedly.
    void on_accept_error(const boost::system::error_code& ec);

    boost::asio::io_context& ioc_;
    boost::asio::ip::tcp::acceptor acceptor_;
    std::shared_ptr<SessionHub> hub_;
    std::uint16_t port_ = 0;
    boost::asio::steady_timer backoff_;  // on the acceptor's strand
    std::chrono::steady_clock::time_point last_report_{};
    std::uint64_t failures_since_report_ = 0;
};

}  // namespace cantonlite::net
