#include "cantonlite/net/http_client.hpp"

#include <algorithm>
#include <cctype>
#include <random>
#include <thread>
#include <utility>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/address.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/asio/ssl/error.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/error.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/http/write.hpp>
#include <boost/beast/ssl/ssl_stream.hpp>

#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

namespace cantonlite::net {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace bhttp = beast::http;
namespace ssl = asio::ssl;
using tcp = asio::ip::tcp;

namespace {

// The read buffer's room: beast's largest read.
constexpr std::size_t read_buffer_bytes = 64 * 1024;

std::string seconds_text(std::chrono::milliseconds d) {
    if (d.count() % 1000 == 0) return std::to_string(d.count() / 1000) + " s";
    return std::to_string(d.count()) + " ms";
}

// The Host header: "host:port", with an IPv6 address in brackets.
std::string host_header(const ClientRequest& request) {
    const bool ipv6 = request.host.find(':') != std::string::npos;
    return (ipv6 ? "[" + request.host + "]" : request.host) + ":" + std::to_string(request.port);
}

// Runs the operations started on `ioc` until they are done; the io_context is reused afterwards.
void run_all(asio::io_context& ioc) {
    ioc.restart();
    ioc.run();
}

// OpenSSL's reason alone ("certificate verify failed"), without Asio's " (SSL routines)".
std::string error_text(beast::error_code ec) {
    if (ec.category() == asio::error::get_ssl_category()) {
        if (const char* reason = ERR_reason_error_string(static_cast<unsigned long>(ec.value())))
            return reason;
    }
    return ec.message();
}

// The one line of a failed exchange (after connecting, and after the handshake under TLS).
std::string exchange_failure(beast::error_code ec, const ClientOptions& options) {
    if (ec == beast::error::timeout)
        return "no whole answer within " + seconds_text(options.response_timeout);
    if (ec == bhttp::error::end_of_stream || ec == bhttp::error::partial_message ||
        ec == asio::error::eof || ec == asio::error::connection_reset ||
        ec == ssl::error::stream_truncated) {
        return "the connection was closed before a whole answer arrived";
    }
    if (ec == bhttp::error::body_limit) {
        return "the answer is longer than " + std::to_string(options.max_body_bytes) + " bytes";
    }
    return error_text(ec);
}

// The one line of a failed TLS handshake; `verify_result` is OpenSSL's verdict on the chain.
std::string handshake_failure(beast::error_code ec, long verify_result, const std::string& host,
                              const ClientOptions& options) {
    if (ec == beast::error::timeout) {
        return "no TLS handshake with " + host + " within " +
               seconds_text(options.response_timeout);
    }
    std::string why;
    if (verify_result != X509_V_OK) {
        why = std::string("certificate verify failed (") +
              X509_verify_cert_error_string(verify_result) + ")";
    } else if (ec == asio::error::eof || ec == asio::error::connection_reset ||
               ec == ssl::error::stream_truncated) {
        why = "the connection was closed";
    } else {
        why = error_text(ec);
    }
    return "TLS handshake with " + host + " failed: " + why;
}

// Resolves and connects under options.connect_timeout. Throws ClientError.
void connect(beast::tcp_stream& stream, asio::io_context& ioc, const ClientRequest& request,
             const ClientOptions& options) {
    beast::error_code ec;

    // Name lookup is getaddrinfo, bounded by the resolver's own timeouts.
    tcp::resolver resolver(ioc);
    const tcp::resolver::results_type endpoints =
        resolver.resolve(request.host, std::to_string(request.port), ec);
    if (ec) throw ClientError("cannot resolve \"" + request.host + "\": " + ec.message());

    stream.expires_after(options.connect_timeout);
    stream.async_connect(endpoints,
                         [&ec](beast::error_code e, const tcp::endpoint& /*unused*/) { ec = e; });
    run_all(ioc);
    if (ec == beast::error::timeout)
        throw ClientError("no connection within " + seconds_text(options.connect_timeout));
    if (ec) throw ClientError(ec.message());
}

bhttp::request<bhttp::string_body> beast_request(const ClientRequest& request) {
    bhttp::request<bhttp::string_body> req;
    if (const bhttp::verb verb = bhttp::string_to_verb(request.method);
        verb != bhttp::verb::unknown) {
        req.method(verb);
    } else {
        req.method_string(request.method);
    }
    req.target(request.target);
    req.version(11);
    req.set(bhttp::field::host, host_header(request));
    for (const http::Header& h : request.headers) req.insert(h.name, h.value);
    req.body() = request.body;
    req.keep_alive(false);
    req.prepare_payload();
    return req;
}

// Writes `request` and reads the whole answer on a connected stream (TCP or TLS), under the
// deadline already set on it. Throws ClientError.
template <class Stream>
ClientResponse exchange(Stream& stream, asio::io_context& ioc, const ClientRequest& request,
                        const ClientOptions& options) {
    beast::error_code ec;
    const bhttp::request<bhttp::string_body> req = beast_request(request);
    bhttp::async_write(stream, req, [&ec](beast::error_code e, std::size_t /*unused*/) { ec = e; });
    run_all(ioc);
    if (ec) throw ClientError(exchange_failure(ec, options));

    // beast reads as much as the buffer has room for (at most 64 KiB), and a flat_buffer that
    // starts empty never grows past 512 bytes when the parser consumes each read whole: a Scan
    // page of 3 MB took 6 000 reads, each re-arming the deadline's timer.
    beast::flat_buffer buffer;
    buffer.reserve(read_buffer_bytes);
    bhttp::response_parser<bhttp::string_body> parser;
    parser.body_limit(options.max_body_bytes);
    if (req.method() == bhttp::verb::head) parser.skip(true);
    const auto done = [&ec](beast::error_code e, std::size_t /*unused*/) { ec = e; };
    // The header first (a body over the limit fails here): a body of known length that comes
    // (not a HEAD's) is read into room for it and body_padding.
    bhttp::async_read_header(stream, buffer, parser, done);
    run_all(ioc);
    if (ec) throw ClientError(exchange_failure(ec, options));
    if (!parser.is_done()) {
        if (const auto length = parser.content_length())
            parser.get().body().reserve(*length + body_padding);
        bhttp::async_read(stream, buffer, parser, done);
        run_all(ioc);
        if (ec) throw ClientError(exchange_failure(ec, options));
    }

    bhttp::response<bhttp::string_body> res = parser.release();
    ClientResponse out;
    out.status = static_cast<int>(res.result_int());
    if (const auto it = res.find(bhttp::field::content_type); it != res.end()) {
        out.content_type = std::string(it->value());
    }
    if (const auto it = res.find(bhttp::field::retry_after); it != res.end()) {
        out.retry_after = std::string(it->value());
    }
    out.body = std::move(res.body());
    if (out.body.capacity() < out.body.size() + body_padding)  // chunked: its length came last
        out.body.reserve(out.body.size() + body_padding);
    return out;
}

bool is_ip_address(const std::string& host) {
    beast::error_code ec;
    (void)asio::ip::make_address(host, ec);
    return !ec;
}

// The client's TLS context: the system's trust anchors, those of options.ca_file, and the
// server's certificate always verified. Throws ClientError.
ssl::context tls_context(const ClientOptions& options) {
    ssl::context ctx(ssl::context::tls_client);
    beast::error_code ec;
    ctx.set_default_verify_paths(ec);
    if (ec) throw ClientError("cannot read the system's trust store: " + error_text(ec));
    if (!options.ca_file.empty()) {
        ctx.load_verify_file(options.ca_file, ec);
        if (ec) {
            throw ClientError("cannot load the CA file \"" + options.ca_file +
                              "\": " + error_text(ec));
        }
    }
    ctx.set_verify_mode(ssl::verify_peer);
    return ctx;
}

// Connects, shakes hands, exchanges and closes with close_notify. The certificate must name
// the host: OpenSSL checks it during the handshake (the check of Asio's host_name_verification,
// X509_check_host or X509_check_ip), so a mismatch has its own verify result ("hostname
// mismatch") for the error line. Throws ClientError.
ClientResponse send_tls(asio::io_context& ioc, const ClientRequest& request,
                        const ClientOptions& options) {
    ssl::context ctx = tls_context(options);
    beast::ssl_stream<beast::tcp_stream> stream(ioc, ctx);
    SSL* const ssl = stream.native_handle();
    bool named = false;
    if (is_ip_address(request.host)) {
        named = X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl), request.host.c_str()) == 1;
    } else {
        SSL_set_hostflags(ssl, X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS);
        // SNI, for servers with several names; never sent for an address (RFC 6066).
        named = SSL_set1_host(ssl, request.host.c_str()) == 1 &&
                SSL_set_tlsext_host_name(ssl, request.host.c_str()) == 1;
    }
    if (!named) throw ClientError("cannot check TLS certificates for \"" + request.host + "\"");

    connect(beast::get_lowest_layer(stream), ioc, request, options);

    // One deadline for the handshake and the exchange: writing the request and reading the answer.
    beast::get_lowest_layer(stream).expires_after(options.response_timeout);
    beast::error_code ec;
    stream.async_handshake(ssl::stream_base::client, [&ec](beast::error_code e) { ec = e; });
    run_all(ioc);
    if (ec) {
        throw ClientError(handshake_failure(ec, SSL_get_verify_result(ssl), request.host, options));
    }
    ClientResponse out = exchange(stream, ioc, request, options);

    // Politely, briefly: the answer is had, so a failed or truncated close_notify is no error.
    constexpr std::chrono::milliseconds shutdown_timeout{1'000};
    beast::get_lowest_layer(stream).expires_after(
        std::min(options.response_timeout, shutdown_timeout));
    stream.async_shutdown([](beast::error_code /*ignored*/) {});
    run_all(ioc);
    return out;
}

}  // namespace

ClientResponse send_request(const ClientRequest& request, const ClientOptions& options) {
    asio::io_context ioc;
    if (request.tls) return send_tls(ioc, request, options);

    beast::tcp_stream stream(ioc);
    connect(stream, ioc, request, options);

    // One deadline for the whole exchange: writing the request and reading the answer.
    stream.expires_after(options.response_timeout);
    ClientResponse out = exchange(stream, ioc, request, options);

    beast::error_code ignored;
    stream.socket().shutdown(tcp::socket::shutdown_both, ignored);
    return out;
}

// URLs

namespace {

bool starts_with_nocase(std::string_view text, std::string_view prefix) {
    if (text.size() < prefix.size()) return false;
    return std::equal(prefix.begin(), prefix.end(), text.begin(), [](char p, char t) {
        return std::tolower(static_cast<unsigned char>(t)) == p;
    });
}

bool is_digit(char c) {
    return c >= '0' && c <= '9';
}

// A DNS name or an IPv4 address: letters, digits, '-', '.' and '_'.
bool is_host_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || is_digit(c) || c == '-' ||
           c == '.' || c == '_';
}

// `text` in quotes, on one line whatever it holds.
std::string in_quotes(std::string_view text) {
    std::string out = "\"";
    for (const char c : text) {
        const auto u = static_cast<unsigned char>(c);
        out += u < 0x20 || u == 0x7f ? '?' : c;
    }
    return out + "\"";
}

}  // namespace

std::optional<Url> parse_url(std::string_view text, std::string* why) {
    const auto fail = [&](const std::string& problem) -> std::optional<Url> {
        if (why != nullptr) *why = in_quotes(text) + ": " + problem;
        return std::nullopt;
    };
    Url url;
    std::string_view rest;
    if (starts_with_nocase(text, "https://")) {
        url.tls = true;
        url.port = 443;
        rest = text.substr(8);
    } else if (starts_with_nocase(text, "http://")) {
        url.port = 80;
        rest = text.substr(7);
    } else {
        return fail("not an http:// or https:// URL");
    }
    if (rest.find_first_of("?#") != std::string_view::npos)
        return fail("a query or fragment is not accepted");
    const std::size_t slash = rest.find('/');
    const std::string_view authority = rest.substr(0, slash);
    std::string_view path = slash == std::string_view::npos ? "" : rest.substr(slash);
    if (authority.find('@') != std::string_view::npos)
        return fail("user information (user@host) is not accepted");

    std::optional<std::string_view> port_text;
    if (!authority.empty() && authority.front() == '[') {
        const std::size_t close = authority.find(']');
        if (close == std::string_view::npos) return fail("the IPv6 address has no closing ']'");
        url.host = std::string(authority.substr(1, close - 1));
        beast::error_code ec;
        (void)asio::ip::make_address_v6(url.host, ec);
        if (ec || url.host.find('%') != std::string::npos)
            return fail("bad IPv6 address " + in_quotes(url.host));
        const std::string_view after = authority.substr(close + 1);
        if (!after.empty() && after.front() != ':')
            return fail("unexpected " + in_quotes(after) + " after the IPv6 address");
        if (!after.empty()) port_text = after.substr(1);
    } else {
        const std::size_t colon = authority.find(':');
        if (colon != std::string_view::npos &&
            authority.find(':', colon + 1) != std::string_view::npos) {
            return fail("an IPv6 address must be in brackets (http://[::1]:8080)");
        }
        url.host = std::string(authority.substr(0, colon));
        if (url.host.empty()) return fail("no host");
        if (!std::all_of(url.host.begin(), url.host.end(), is_host_char))
            return fail("bad host name " + in_quotes(url.host));
        if (colon != std::string_view::npos) port_text = authority.substr(colon + 1);
    }
    if (port_text) {
        const std::string_view p = *port_text;
        unsigned long value = 0;
        if (!p.empty() && p.size() <= 5 && std::all_of(p.begin(), p.end(), is_digit))
            value = std::stoul(std::string(p));
        if (value < 1 || value > 65535) return fail("bad port " + in_quotes(p) + " (1 to 65535)");
        url.port = static_cast<std::uint16_t>(value);
    }

    while (!path.empty() && path.back() == '/') path.remove_suffix(1);
    if (std::any_of(path.begin(), path.end(), [](char c) {
            const auto u = static_cast<unsigned char>(c);
            return u <= 0x20 || u == 0x7f || c == '\\';
        })) {
        return fail("a space, control character or '\\' in the path");
    }
    url.base_path = std::string(path);
    return url;
}

// Retries

namespace {

bool transient(int status) {
    return status == 429 || status == 502 || status == 503 || status == 504;
}

// The wait a 429 or 503 asks for in Retry-After, when in seconds (an HTTP date is not honoured).
std::optional<std::chrono::milliseconds> asked_wait(const ClientResponse& response) {
    if (response.status != 429 && response.status != 503) return std::nullopt;
    const std::string& text = response.retry_after;
    if (text.empty() || text.size() > 9 || !std::all_of(text.begin(), text.end(), is_digit))
        return std::nullopt;
    return std::chrono::seconds(std::stol(text));
}

// Between half of `backoff` and all of it, so that clients that failed together spread out.
std::chrono::milliseconds with_jitter(std::chrono::milliseconds backoff) {
    thread_local std::minstd_rand random(std::random_device{}());
    const std::int64_t all = std::max<std::int64_t>(backoff.count(), 0);
    std::uniform_int_distribution<std::int64_t> pick(all - all / 2, all);
    return std::chrono::milliseconds(pick(random));
}

bool stopped(const std::atomic<bool>* stop) {
    return stop != nullptr && stop->load();
}

// Sleeps `wait`, looking at `stop` every 100 ms at most; false when it was set.
bool wait_unless_stopped(std::chrono::milliseconds wait, const std::atomic<bool>* stop) {
    constexpr std::chrono::milliseconds slice{100};
    const auto end = std::chrono::steady_clock::now() + wait;
    for (;;) {
        if (stopped(stop)) return false;
        const auto now = std::chrono::steady_clock::now();
        if (now >= end) return true;
        std::this_thread::sleep_for(
            std::min<std::chrono::steady_clock::duration>(end - now, slice));
    }
}

}  // namespace

ClientResponse send_with_retries(const ClientRequest& request, const ClientOptions& options,
                                 const RetryPolicy& policy, const std::atomic<bool>* stop,
                                 const RetryObserver& on_retry) {
    const int attempts = std::max(policy.max_attempts, 1);
    const std::chrono::milliseconds cap =
        std::max(policy.max_backoff, std::chrono::milliseconds{0});
    std::chrono::milliseconds backoff =
        std::clamp(policy.first_backoff, std::chrono::milliseconds{0}, cap);
    for (int attempt = 1;; ++attempt) {
        if (stopped(stop)) throw ClientError("stopped");
        std::string reason;
        std::optional<std::chrono::milliseconds> asked;
        try {
            ClientResponse response = send_request(request, options);
            if (!transient(response.status) || attempt >= attempts) return response;
            reason = "HTTP " + std::to_string(response.status);
            asked = asked_wait(response);
        } catch (const ClientError& e) {
            if (attempt >= attempts) throw;
            reason = e.what();
        }
        const std::chrono::milliseconds wait = asked ? std::min(*asked, cap) : with_jitter(backoff);
        if (on_retry) on_retry(attempt, reason, wait);
        if (!wait_unless_stopped(wait, stop)) throw ClientError("stopped");
        backoff = backoff > cap / 2 ? cap : backoff * 2;
    }
}

}  // namespace cantonlite::net
