#include "listener.hpp"

#include <cerrno>

#include <spdlog/spdlog.h>
#include <boost/asio/post.hpp>
#include <boost/asio/strand.hpp>

namespace cantonlite::net {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;

Listener::Listener(asio::io_context& ioc, const tcp::endpoint& endpoint,
                   std::shared_ptr<SessionHub> hub)
    : ioc_(ioc),
      acceptor_(asio::make_strand(ioc)),
      hub_(std::move(hub)),
      backoff_(acceptor_.get_executor()) {
    acceptor_.open(endpoint.protocol());
    acceptor_.set_option(asio::socket_base::reuse_address(true));
    acceptor_.bind(endpoint);
    acceptor_.listen(asio::socket_base::max_listen_connections);
    port_ = acceptor_.local_endpoint().port();
}

void Listener::run() {
    accept();
}

void Listener::close() {
    asio::post(acceptor_.get_executor(), [self = shared_from_this()] {
        boost::system::error_code ignored;
        self->acceptor_.close(ignored);
        self->backoff_.cancel();
    });
}

void Listener::accept() {
    const bool room = hub_->has_room_or_wait([self = shared_from_this()] {
        asio::post(self->acceptor_.get_executor(), [self] {
            if (self->acceptor_.is_open()) self->accept();
        });
    });
    if (!room) return;  // at max_connections: resumed when a session closes
    acceptor_.async_accept(
        asio::make_strand(ioc_),
        [self = shared_from_this()](boost::system::error_code ec, tcp::socket socket) {
            if (ec == asio::error::operation_aborted || !self->acceptor_.is_open()) return;
            if (ec) return self->on_accept_error(ec);
            if (!self->hub_->stopping()) {
                std::make_shared<Session>(std::move(socket), self->hub_)->start();
            }
            self->accept();
        });
}

void Listener::on_accept_error(const boost::system::error_code& ec) {
    const int e = ec.value();
    const bool exhausted = ec.category() == boost::system::system_category() &&
                           (e == EMFILE || e == ENFILE || e == ENOBUFS || e == ENOMEM);
    ++failures_since_report_;
    const auto now = std::chrono::steady_clock::now();
    if (now - last_report_ >= report_interval) {
        spdlog::warn("accept failed: {} ({} time(s) since the last report){}", ec.message(),
                     failures_since_report_,
                     exhausted ? "; pausing accepts until descriptors are free" : "");
        last_report_ = now;
        failures_since_report_ = 0;
    }
    if (!exhausted) return accept();  // a connection reset before it was accepted, and the like
    // The pending connections stay in the kernel's backlog meanwhile.
    backoff_.expires_after(accept_backoff);
    backoff_.async_wait([self = shared_from_this()](boost::system::error_code wait_ec) {
        if (wait_ec || !self->acceptor_.is_open()) return;
        self->accept();
    });
}

}  // namespace cantonlite::net
