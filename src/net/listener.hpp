#pragma once
// Listener: the one acceptor of a server; starts a Session per accepted connection.

#include <cstdint>
#include <memory>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>

#include "session.hpp"

namespace cantonlite::net {

// Accepts connections until closed. Each connection gets its own strand. Owned by its pending
// accept (shared_ptr) and by the Server.
class Listener : public std::enable_shared_from_this<Listener> {
  public:
    // Opens, binds and listens. Throws boost::system::system_error on failure.
    Listener(boost::asio::io_context& ioc, const boost::asio::ip::tcp::endpoint& endpoint,
             std::shared_ptr<SessionHub> hub);

    void run();    // starts the accept loop
    void close();  // stops accepting; safe from any thread

    [[nodiscard]] std::uint16_t port() const { return port_; }

  private:
    void accept();

    boost::asio::io_context& ioc_;
    boost::asio::ip::tcp::acceptor acceptor_;
    std::shared_ptr<SessionHub> hub_;
    std::uint16_t port_ = 0;
};

}  // namespace cantonlite::net
