#include "http_client.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstring>
#include <stdexcept>

#include "cantonlite/http/request.hpp"

namespace cantonlite::testing {

std::optional<std::string> RawResponse::header(std::string_view name) const {
    for (const auto& [k, v] : headers) {
        if (http::iequals(k, name)) return v;
    }
    return std::nullopt;
}

int connect_raw(std::uint16_t port) {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0) return -1;
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(port);
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::connect(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof addr) != 0) {
        const int error = errno;
        ::close(fd);
        errno = error;
        return -1;
    }
    return fd;
}

HttpConnection::HttpConnection(std::uint16_t port) : fd_(connect_raw(port)) {
    if (fd_ < 0) throw std::runtime_error(std::string("connect failed: ") + std::strerror(errno));
}

HttpConnection::~HttpConnection() {
    if (fd_ >= 0) ::close(fd_);
}

bool HttpConnection::send(std::string_view bytes) {
    while (!bytes.empty()) {
        const ssize_t n = ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL);
        if (n <= 0) return false;
        bytes.remove_prefix(static_cast<std::size_t>(n));
    }
    return true;
}

bool HttpConnection::fill(std::chrono::steady_clock::time_point deadline) {
    if (eof_) return false;
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) return false;
    pollfd p{.fd = fd_, .events = POLLIN, .revents = 0};
    if (::poll(&p, 1, static_cast<int>(left.count())) <= 0) return false;
    char chunk[16384];
    const ssize_t n = ::recv(fd_, chunk, sizeof chunk, 0);
    if (n <= 0) {
        eof_ = true;
        return false;
    }
    buffer_.append(chunk, static_cast<std::size_t>(n));
    return true;
}

std::optional<RawResponse> HttpConnection::read_response(std::chrono::milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    std::size_t header_end;
    while ((header_end = buffer_.find("\r\n\r\n")) == std::string::npos) {
        if (!fill(deadline)) return std::nullopt;
    }
    RawResponse r;
    const std::string head = buffer_.substr(0, header_end);
    std::size_t line_end = head.find("\r\n");
    const std::string status_line = head.substr(0, line_end);
    r.status = std::stoi(status_line.substr(9, 3));
    while (line_end != std::string::npos) {
        const std::size_t start = line_end + 2;
        line_end = head.find("\r\n", start);
        const std::string line = head.substr(
            start, line_end == std::string::npos ? std::string::npos : line_end - start);
        const std::size_t colon = line.find(':');
        if (colon == std::string::npos) continue;
        std::string value = line.substr(colon + 1);
        while (!value.empty() && value.front() == ' ') value.erase(0, 1);
        r.headers.emplace_back(line.substr(0, colon), value);
    }
    const std::size_t length =
        r.header("Content-Length") ? std::stoul(*r.header("Content-Length")) : 0;
    const bool has_body = r.status >= 200 && r.status != 204 && r.status != 304;
    const std::size_t total = header_end + 4 + (has_body ? length : 0);
    while (buffer_.size() < total) {
        if (!fill(deadline)) return std::nullopt;
    }
    r.body = buffer_.substr(header_end + 4, total - header_end - 4);
    buffer_.erase(0, total);
    return r;
}

bool HttpConnection::closed_by_peer(std::chrono::milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (!eof_ && fill(deadline)) {
    }
    return eof_;
}

std::string make_request(std::string_view method, std::string_view target, std::string_view body,
                         std::string_view extra_headers) {
    std::string r =
        std::string(method) + " " + std::string(target) + " HTTP/1.1\r\nHost: 127.0.0.1\r\n";
    r += extra_headers;
    if (!body.empty() || method == "POST")
        r += "Content-Length: " + std::to_string(body.size()) + "\r\n";
    r += "\r\n";
    r += body;
    return r;
}

std::optional<RawResponse> fetch(std::uint16_t port, std::string_view method,
                                 std::string_view target, std::string_view body,
                                 std::string_view extra_headers) {
    HttpConnection c(port);
    if (!c.send(make_request(method, target, body, extra_headers))) return std::nullopt;
    return c.read_response();
}

}  // namespace cantonlite::testing
