#include "listener.hpp"

#include <spdlog/spdlog.h>
#include <boost/asio/post.hpp>
#include <boost/asio/strand.hpp>

namespace cantonlite::net {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;

Listener::Listener(asio::io_context& ioc, const tcp::endpoint& endpoint,
                   std::shared_ptr<SessionHub> hub)
    : ioc_(ioc), acceptor_(asio::make_strand(ioc)), hub_(std::move(hub)) {
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
    });
}

void Listener::accept() {
    acceptor_.async_accept(
        asio::make_strand(ioc_),
        [self = shared_from_this()](boost::system::error_code ec, tcp::socket socket) {
            if (ec == asio::error::operation_aborted || !self->acceptor_.is_open()) return;
            if (ec) {
                // Out of descriptors and the like: the listener itself is fine, keep accepting.
                spdlog::warn("accept failed: {}", ec.message());
            } else if (!self->hub_->stopping()) {
                std::make_shared<Session>(std::move(socket), self->hub_)->start();
            }
            self->accept();
        });
}

}  // namespace cantonlite::net
