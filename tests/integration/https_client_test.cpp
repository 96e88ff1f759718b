// The HTTP client's URLs, TLS and retries, against servers of the test's own on loopback: a TLS
// server whose CA and certificates are made here with OpenSSL, and a plain one that follows a
// script (an answer, a close or a reset per connection).
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read_until.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/asio/ssl/stream.hpp>
#include <boost/asio/write.hpp>

#include "cantonlite/net/http_client.hpp"

namespace cantonlite::testing::https_client_test {
namespace {

namespace asio = boost::asio;
namespace ssl = asio::ssl;
using tcp = asio::ip::tcp;
using net::ClientError;
using net::ClientOptions;
using net::ClientRequest;
using net::ClientResponse;
using net::RetryPolicy;
using namespace std::chrono_literals;

// The ClientError `f` throws ("(no ClientError)" when it throws none).
std::string failure_of(const std::function<void()>& f) {
    try {
        f();
    } catch (const ClientError& e) {
        return e.what();
    }
    return "(no ClientError)";
}

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

ClientOptions quick_options() {
    ClientOptions options;
    options.connect_timeout = 2s;
    options.response_timeout = 2s;
    return options;
}

const std::string ok_answer =
    "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 11\r\n"
    "Connection: close\r\n\r\n{\"ok\":true}";

std::string answer_with(int status, const std::string& extra_headers = "") {
    return "HTTP/1.1 " + std::to_string(status) + " X\r\nContent-Length: 2\r\n" + extra_headers +
           "Connection: close\r\n\r\n" + std::to_string(status).substr(0, 2);
}

// ---- parse_url

TEST(ParseUrl, AcceptsHttpAndHttpsWithTheirDefaults) {
    std::string why;
    auto url = net::parse_url("http://localhost", &why);
    ASSERT_TRUE(url) << why;
    EXPECT_FALSE(url->tls);
    EXPECT_EQ(url->host, "localhost");
    EXPECT_EQ(url->port, 80);
    EXPECT_EQ(url->base_path, "");

    url = net::parse_url("https://scan.sv-1.example.com", &why);
    ASSERT_TRUE(url) << why;
    EXPECT_TRUE(url->tls);
    EXPECT_EQ(url->host, "scan.sv-1.example.com");
    EXPECT_EQ(url->port, 443);
    EXPECT_EQ(url->base_path, "");

    url = net::parse_url("HTTPS://Scan.Example:8443/", nullptr);
    ASSERT_TRUE(url);
    EXPECT_TRUE(url->tls);
    EXPECT_EQ(url->host, "Scan.Example");
    EXPECT_EQ(url->port, 8443);
    EXPECT_EQ(url->base_path, "");
}

TEST(ParseUrl, KeepsTheBasePathWithoutItsTrailingSlash) {
    auto url = net::parse_url("http://127.0.0.1:5012/api/scan/", nullptr);
    ASSERT_TRUE(url);
    EXPECT_EQ(url->host, "127.0.0.1");
    EXPECT_EQ(url->port, 5012);
    EXPECT_EQ(url->base_path, "/api/scan");

    url = net::parse_url("https://h:65535/a/b", nullptr);
    ASSERT_TRUE(url);
    EXPECT_EQ(url->port, 65535);
    EXPECT_EQ(url->base_path, "/a/b");
}

TEST(ParseUrl, TakesAnIpv6AddressInBrackets) {
    auto url = net::parse_url("http://[::1]:8080", nullptr);
    ASSERT_TRUE(url);
    EXPECT_EQ(url->host, "::1");
    EXPECT_EQ(url->port, 8080);
    EXPECT_EQ(url->base_path, "");

    url = net::parse_url("https://[2001:db8::1]/scan", nullptr);
    ASSERT_TRUE(url);
    EXPECT_TRUE(url->tls);
    EXPECT_EQ(url->host, "2001:db8::1");
    EXPECT_EQ(url->port, 443);
    EXPECT_EQ(url->base_path, "/scan");
}

TEST(ParseUrl, RejectsEverythingElseSayingWhy) {
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"", "\"\": not an http:// or https:// URL"},
        {"ftp://h", "\"ftp://h\": not an http:// or https:// URL"},
        {"localhost:8080", "\"localhost:8080\": not an http:// or https:// URL"},
        {"http:/h", "\"http:/h\": not an http:// or https:// URL"},
        {"http://user:pw@h", "\"http://user:pw@h\": user information (user@host) is not accepted"},
        {"http://h/x?a=1", "\"http://h/x?a=1\": a query or fragment is not accepted"},
        {"http://h/#top", "\"http://h/#top\": a query or fragment is not accepted"},
        {"http://", "\"http://\": no host"},
        {"http://:80", "\"http://:80\": no host"},
        {"https:///scan", "\"https:///scan\": no host"},
        {"http://h:0", "\"http://h:0\": bad port \"0\" (1 to 65535)"},
        {"http://h:65536", "\"http://h:65536\": bad port \"65536\" (1 to 65535)"},
        {"http://h:", "\"http://h:\": bad port \"\" (1 to 65535)"},
        {"http://h:80a", "\"http://h:80a\": bad port \"80a\" (1 to 65535)"},
        {"http://h:-1", "\"http://h:-1\": bad port \"-1\" (1 to 65535)"},
        {"http://h:0000080", "\"http://h:0000080\": bad port \"0000080\" (1 to 65535)"},
        {"http://[::1", "\"http://[::1\": the IPv6 address has no closing ']'"},
        {"http://[]:80", "\"http://[]:80\": bad IPv6 address \"\""},
        {"http://[zz::1]", "\"http://[zz::1]\": bad IPv6 address \"zz::1\""},
        {"http://[fe80::1%eth0]", "\"http://[fe80::1%eth0]\": bad IPv6 address \"fe80::1%eth0\""},
        {"http://[::1]8080", "\"http://[::1]8080\": unexpected \"8080\" after the IPv6 address"},
        {"http://::1:8080",
         "\"http://::1:8080\": an IPv6 address must be in brackets "
         "(http://[::1]:8080)"},
        {"http://a b", "\"http://a b\": bad host name \"a b\""},
        {"http://h%41", "\"http://h%41\": bad host name \"h%41\""},
        {"http://h/a b", "\"http://h/a b\": a space, control character or '\\' in the path"},
        {"http://h/a\nb", "\"http://h/a?b\": a space, control character or '\\' in the path"},
    };
    for (const auto& [text, expected] : cases) {
        std::string why;
        EXPECT_FALSE(net::parse_url(text, &why)) << text;
        EXPECT_EQ(why, expected) << text;
    }
    EXPECT_FALSE(net::parse_url("gopher://h", nullptr));  // `why` may be null
}

// ---- TLS

struct FreeKey {
    void operator()(EVP_PKEY* key) const { EVP_PKEY_free(key); }
};
struct FreeCert {
    void operator()(X509* cert) const { X509_free(cert); }
};
using Key = std::unique_ptr<EVP_PKEY, FreeKey>;
using Cert = std::unique_ptr<X509, FreeCert>;

void check(bool ok, const char* what) {
    if (!ok) throw std::runtime_error(std::string("OpenSSL: ") + what + " failed");
}

Key new_key() {
    Key key(EVP_EC_gen("P-256"));
    check(key != nullptr, "EVP_EC_gen");
    return key;
}

void add_extension(X509* cert, X509* issuer, int nid, const std::string& value) {
    X509V3_CTX ctx;
    X509V3_set_ctx_nodb(&ctx);
    X509V3_set_ctx(&ctx, issuer, cert, nullptr, nullptr, 0);
    X509_EXTENSION* ext = X509V3_EXT_conf_nid(nullptr, &ctx, nid, value.c_str());
    check(ext != nullptr, "X509V3_EXT_conf_nid");
    check(X509_add_ext(cert, ext, -1) == 1, "X509_add_ext");
    X509_EXTENSION_free(ext);
}

// A certificate for `key` with common name `cn`, valid from an hour ago for a day: a CA's
// (self-signed) when `issuer` is null, else a server's for `alt_names`, signed by the issuer.
Cert make_cert(EVP_PKEY* key, const std::string& cn, X509* issuer, EVP_PKEY* issuer_key,
               const std::string& alt_names) {
    static long serial = 1;
    Cert cert(X509_new());
    check(cert != nullptr, "X509_new");
    X509* c = cert.get();
    check(X509_set_version(c, X509_VERSION_3) == 1, "X509_set_version");
    check(ASN1_INTEGER_set(X509_get_serialNumber(c), serial++) == 1, "ASN1_INTEGER_set");
    check(X509_gmtime_adj(X509_getm_notBefore(c), -3600) != nullptr, "X509_gmtime_adj");
    check(X509_gmtime_adj(X509_getm_notAfter(c), 86400) != nullptr, "X509_gmtime_adj");
    check(X509_set_pubkey(c, key) == 1, "X509_set_pubkey");
    check(X509_NAME_add_entry_by_txt(X509_get_subject_name(c), "CN", MBSTRING_ASC,
                                     reinterpret_cast<const unsigned char*>(cn.c_str()), -1, -1,
                                     0) == 1,
          "X509_NAME_add_entry_by_txt");
    X509* const signer = issuer != nullptr ? issuer : c;
    check(X509_set_issuer_name(c, X509_get_subject_name(signer)) == 1, "X509_set_issuer_name");
    if (issuer == nullptr) {
        add_extension(c, signer, NID_basic_constraints, "critical,CA:TRUE");
        add_extension(c, signer, NID_key_usage, "critical,keyCertSign,cRLSign");
        add_extension(c, signer, NID_subject_key_identifier, "hash");
    } else {
        add_extension(c, signer, NID_basic_constraints, "critical,CA:FALSE");
        add_extension(c, signer, NID_key_usage, "critical,digitalSignature");
        add_extension(c, signer, NID_ext_key_usage, "serverAuth");
        add_extension(c, signer, NID_subject_alt_name, alt_names);
        add_extension(c, signer, NID_authority_key_identifier, "keyid:always");
    }
    check(X509_sign(c, issuer != nullptr ? issuer_key : key, EVP_sha256()) > 0, "X509_sign");
    return cert;
}

std::string pem_of(X509* cert) {
    BIO* bio = BIO_new(BIO_s_mem());
    check(bio != nullptr && PEM_write_bio_X509(bio, cert) == 1, "PEM_write_bio_X509");
    char* data = nullptr;
    const long size = BIO_get_mem_data(bio, &data);
    std::string pem(data, static_cast<std::size_t>(size));
    BIO_free(bio);
    return pem;
}

// Answers `answer` to the first request of each connection, over TLS with `cert` and `key`, on
// 127.0.0.1 and a free port, from a thread of its own.
class TlsServer {
  public:
    TlsServer(X509* cert, EVP_PKEY* key, std::string answer) : answer_(std::move(answer)) {
        check(SSL_CTX_use_certificate(context_.native_handle(), cert) == 1,
              "SSL_CTX_use_certificate");
        check(SSL_CTX_use_PrivateKey(context_.native_handle(), key) == 1, "SSL_CTX_use_PrivateKey");
        acceptor_.open(tcp::v4());
        acceptor_.bind(tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0));
        acceptor_.listen();
        accept_next();
        thread_ = std::thread([this] { io_.run(); });
    }
    TlsServer(const TlsServer&) = delete;
    TlsServer& operator=(const TlsServer&) = delete;
    ~TlsServer() {
        io_.stop();
        thread_.join();
    }

    [[nodiscard]] std::uint16_t port() const { return acceptor_.local_endpoint().port(); }

  private:
    struct Connection {
        Connection(tcp::socket socket, ssl::context& context)
            : stream(std::move(socket), context) {}
        ssl::stream<tcp::socket> stream;
        std::string request;
    };

    void accept_next() {
        acceptor_.async_accept([this](boost::system::error_code ec, tcp::socket socket) {
            if (ec) return;
            serve(std::make_shared<Connection>(std::move(socket), context_));
            accept_next();
        });
    }

    // Failed handshakes (the client refusing the certificate) just end the connection.
    void serve(const std::shared_ptr<Connection>& c) {
        c->stream.async_handshake(
            ssl::stream_base::server, [this, c](boost::system::error_code ec) {
                if (ec) return;
                asio::async_read_until(
                    c->stream, asio::dynamic_buffer(c->request), "\r\n\r\n",
                    [this, c](boost::system::error_code e, std::size_t /*unused*/) {
                        if (e) return;
                        asio::async_write(c->stream, asio::buffer(answer_),
                                          [c](boost::system::error_code w, std::size_t /*unused*/) {
                                              if (w) return;
                                              c->stream.async_shutdown(
                                                  [c](boost::system::error_code /*unused*/) {});
                                          });
                    });
            });
    }

    asio::io_context io_;
    ssl::context context_{ssl::context::tls_server};
    tcp::acceptor acceptor_{io_};
    std::string answer_;
    std::thread thread_;
};

// One CA for every test, its PEM in a temporary file; server certificates signed by it.
class HttpsClient : public ::testing::Test {
  protected:
    static void SetUpTestSuite() {
        ca_key_ = new_key().release();
        ca_cert_ = make_cert(ca_key_, "cantonlite test CA", nullptr, nullptr, "").release();
        ca_file_ = new std::filesystem::path(
            std::filesystem::temp_directory_path() /
            ("cantonlite-https-test-" + std::to_string(::getpid()) + "-ca.pem"));
        std::ofstream(*ca_file_) << pem_of(ca_cert_);
    }
    static void TearDownTestSuite() {
        std::filesystem::remove(*ca_file_);
        delete ca_file_;
        X509_free(ca_cert_);
        EVP_PKEY_free(ca_key_);
    }

    // A server whose certificate names `alt_names` ("DNS:localhost,IP:127.0.0.1").
    static std::unique_ptr<TlsServer> server_for(const std::string& alt_names,
                                                 const std::string& answer = ok_answer) {
        const Key key = new_key();
        const Cert cert = make_cert(key.get(), "server", ca_cert_, ca_key_, alt_names);
        return std::make_unique<TlsServer>(cert.get(), key.get(), answer);
    }

    static ClientRequest get(const std::string& host, std::uint16_t port) {
        ClientRequest request;
        request.host = host;
        request.port = port;
        request.tls = true;
        request.target = "/api/scan/version";
        return request;
    }

    static ClientOptions trusting_the_ca() {
        ClientOptions options = quick_options();
        options.ca_file = ca_file_->string();
        return options;
    }

    static inline EVP_PKEY* ca_key_ = nullptr;
    static inline X509* ca_cert_ = nullptr;
    static inline std::filesystem::path* ca_file_ = nullptr;
};

TEST_F(HttpsClient, GetsAnAnswerFromAServerTheCaVouchesFor) {
    const auto server = server_for("DNS:localhost,IP:127.0.0.1");
    for (const std::string host : {"127.0.0.1", "localhost"}) {
        const ClientResponse response =
            net::send_request(get(host, server->port()), trusting_the_ca());
        EXPECT_EQ(response.status, 200) << host;
        EXPECT_EQ(response.content_type, "application/json") << host;
        EXPECT_EQ(response.body, "{\"ok\":true}") << host;
    }
}

TEST_F(HttpsClient, RefusesACertificateWithoutTheCa) {
    const auto server = server_for("DNS:localhost,IP:127.0.0.1");
    const std::string why = failure_of(
        [&] { (void)net::send_request(get("127.0.0.1", server->port()), quick_options()); });
    EXPECT_EQ(why.rfind("TLS handshake with 127.0.0.1 failed: certificate verify failed (", 0), 0U)
        << why;
    EXPECT_TRUE(contains(why, "local issuer certificate")) << why;
}

TEST_F(HttpsClient, RefusesACertificateForAnotherHost) {
    const auto server = server_for("DNS:other.example,IP:10.9.8.7");
    EXPECT_EQ(failure_of([&] {
                  (void)net::send_request(get("localhost", server->port()), trusting_the_ca());
              }),
              "TLS handshake with localhost failed: certificate verify failed (hostname mismatch)");
    EXPECT_EQ(failure_of([&] {
                  (void)net::send_request(get("127.0.0.1", server->port()), trusting_the_ca());
              }),
              "TLS handshake with 127.0.0.1 failed: certificate verify failed (IP address "
              "mismatch)");
}

TEST_F(HttpsClient, SaysWhenTheCaFileCannotBeLoaded) {
    ClientOptions options = quick_options();
    options.ca_file = ca_file_->string() + ".missing";
    const std::string why =
        failure_of([&] { (void)net::send_request(get("127.0.0.1", 1), options); });
    EXPECT_EQ(why,
              "cannot load the CA file \"" + options.ca_file + "\": No such file or directory");
}

// ---- a plain server following a script, for the retries

// What the scripted server does with one connection.
struct Turn {
    enum Kind { answer, close_after_request, reset, answer_at_once } kind = answer;
    std::string text;  // the raw HTTP answer
};

Turn answering(std::string text) {
    return Turn{Turn::answer, std::move(text)};
}

// Plays connection i with script[i] (the last turn again once the script is done), on
// 127.0.0.1 and a free port, from a thread of its own.
class ScriptedServer {
  public:
    explicit ScriptedServer(std::vector<Turn> script) : script_(std::move(script)) {
        acceptor_.open(tcp::v4());
        acceptor_.bind(tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0));
        acceptor_.listen();
        accept_next();
        thread_ = std::thread([this] { io_.run(); });
    }
    ScriptedServer(const ScriptedServer&) = delete;
    ScriptedServer& operator=(const ScriptedServer&) = delete;
    ~ScriptedServer() {
        io_.stop();
        thread_.join();
    }

    [[nodiscard]] std::uint16_t port() const { return acceptor_.local_endpoint().port(); }
    [[nodiscard]] int connections() const { return connections_.load(); }

  private:
    struct Connection {
        explicit Connection(tcp::socket s) : socket(std::move(s)) {}
        tcp::socket socket;
        std::string request;
    };

    void accept_next() {
        acceptor_.async_accept([this](boost::system::error_code ec, tcp::socket socket) {
            if (ec) return;
            const auto i = static_cast<std::size_t>(connections_++);
            play(script_[std::min(i, script_.size() - 1)],
                 std::make_shared<Connection>(std::move(socket)));
            accept_next();
        });
    }

    void play(const Turn& turn, const std::shared_ptr<Connection>& c) {
        boost::system::error_code ignored;
        if (turn.kind == Turn::reset) {
            c->socket.set_option(asio::socket_base::linger(true, 0), ignored);
            c->socket.close(ignored);
            return;
        }
        if (turn.kind == Turn::answer_at_once) {
            write_and_close(turn, c);
            return;
        }
        asio::async_read_until(c->socket, asio::dynamic_buffer(c->request), "\r\n\r\n",
                               [&turn, c](boost::system::error_code e, std::size_t) {
                                   if (e) return;
                                   if (turn.kind == Turn::close_after_request) {
                                       boost::system::error_code ignored;
                                       c->socket.shutdown(tcp::socket::shutdown_both, ignored);
                                       c->socket.close(ignored);
                                       return;
                                   }
                                   write_and_close(turn, c);
                               });
    }

    static void write_and_close(const Turn& turn, const std::shared_ptr<Connection>& c) {
        asio::async_write(c->socket, asio::buffer(turn.text),
                          [c](boost::system::error_code /*unused*/, std::size_t /*unused*/) {
                              boost::system::error_code ignored;
                              c->socket.shutdown(tcp::socket::shutdown_both, ignored);
                              c->socket.close(ignored);
                          });
    }

    std::vector<Turn> script_;
    std::atomic<int> connections_{0};
    asio::io_context io_;
    tcp::acceptor acceptor_{io_};
    std::thread thread_;
};

// The retries seen through on_retry.
struct Retry {
    int attempt;
    std::string reason;
    std::chrono::milliseconds backoff;
};

class Retries : public ::testing::Test {
  protected:
    ClientResponse send(std::uint16_t port, const RetryPolicy& policy,
                        const std::atomic<bool>* stop = nullptr) {
        ClientRequest request;
        request.host = "127.0.0.1";
        request.port = port;
        request.target = "/api/scan/v0/updates";
        return net::send_with_retries(
            request, quick_options(), policy, stop,
            [this](int attempt, const std::string& reason, std::chrono::milliseconds backoff) {
                retries.push_back({attempt, reason, backoff});
                if (on_retry) on_retry();
            });
    }

    static RetryPolicy tiny(int max_attempts = 6) {
        return RetryPolicy{.max_attempts = max_attempts, .first_backoff = 4ms, .max_backoff = 10ms};
    }

    std::vector<Retry> retries;
    std::function<void()> on_retry;
};

TEST_F(Retries, TriesAgainAfterTransientStatuses) {
    ScriptedServer server(
        {answering(answer_with(503)), answering(answer_with(503)), answering(ok_answer)});
    const ClientResponse response = send(server.port(), tiny());
    EXPECT_EQ(response.status, 200);
    EXPECT_EQ(response.body, "{\"ok\":true}");
    EXPECT_EQ(server.connections(), 3);
    ASSERT_EQ(retries.size(), 2U);
    EXPECT_EQ(retries[0].attempt, 1);
    EXPECT_EQ(retries[0].reason, "HTTP 503");
    EXPECT_EQ(retries[1].attempt, 2);
    EXPECT_EQ(retries[1].reason, "HTTP 503");
    // Half of the backoff to all of it, doubled after each failure.
    EXPECT_GE(retries[0].backoff, 2ms);
    EXPECT_LE(retries[0].backoff, 4ms);
    EXPECT_GE(retries[1].backoff, 4ms);
    EXPECT_LE(retries[1].backoff, 8ms);
}

TEST_F(Retries, EachTransientStatusIsRetriedAndNoOther) {
    ScriptedServer server({answering(answer_with(429)), answering(answer_with(502)),
                           answering(answer_with(504)), answering(answer_with(404))});
    EXPECT_EQ(send(server.port(), tiny()).status, 404);
    ASSERT_EQ(retries.size(), 3U);
    EXPECT_EQ(retries[0].reason, "HTTP 429");
    EXPECT_EQ(retries[1].reason, "HTTP 502");
    EXPECT_EQ(retries[2].reason, "HTTP 504");
    EXPECT_EQ(server.connections(), 4);
}

TEST_F(Retries, TriesAgainAfterAClosedOrResetConnection) {
    ScriptedServer server(
        {Turn{Turn::close_after_request, ""}, Turn{Turn::reset, ""}, answering(ok_answer)});
    EXPECT_EQ(send(server.port(), tiny()).status, 200);
    EXPECT_EQ(server.connections(), 3);
    ASSERT_EQ(retries.size(), 2U);
    EXPECT_EQ(retries[0].reason, "the connection was closed before a whole answer arrived");
    EXPECT_FALSE(retries[1].reason.empty());  // the reset is seen on writing or on reading
    EXPECT_NE(retries[1].reason.rfind("HTTP ", 0), 0U) << retries[1].reason;
}

TEST_F(Retries, ReturnsTheLastTransientAnswerOnceTheTriesAreSpent) {
    ScriptedServer server({answering(answer_with(503))});
    const ClientResponse response = send(server.port(), tiny(3));
    EXPECT_EQ(response.status, 503);
    EXPECT_EQ(server.connections(), 3);
    EXPECT_EQ(retries.size(), 2U);
}

TEST_F(Retries, ThrowsTheLastFailureOnceTheTriesAreSpent) {
    std::uint16_t port = 0;
    {
        // A port nobody listens on: taken, then let go.
        asio::io_context io;
        tcp::acceptor acceptor(io, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0));
        port = acceptor.local_endpoint().port();
    }
    EXPECT_EQ(failure_of([&] { (void)send(port, tiny(3)); }), "Connection refused");
    ASSERT_EQ(retries.size(), 2U);
    EXPECT_EQ(retries[1].attempt, 2);
    EXPECT_EQ(retries[1].reason, "Connection refused");
}

TEST_F(Retries, HonoursRetryAfterInSecondsUpToTheMaximumBackoff) {
    ScriptedServer server(
        {answering(answer_with(503, "Retry-After: 0\r\n")),
         answering(answer_with(429, "Retry-After: 3600\r\n")),
         answering(answer_with(503, "Retry-After: Fri, 31 Dec 1999 23:59:59 GMT\r\n")),
         answering(ok_answer)});
    EXPECT_EQ(send(server.port(), tiny()).status, 200);
    ASSERT_EQ(retries.size(), 3U);
    EXPECT_EQ(retries[0].backoff, 0ms);
    EXPECT_EQ(retries[1].backoff, 10ms);  // capped
    // A date is not honoured: the third failure's backoff (16 ms, capped), with jitter.
    EXPECT_GE(retries[2].backoff, 5ms);
    EXPECT_LE(retries[2].backoff, 10ms);
}

TEST_F(Retries, AStopSetBeforehandSendsNothing) {
    ScriptedServer server({answering(ok_answer)});
    const std::atomic<bool> stop{true};
    EXPECT_EQ(failure_of([&] { (void)send(server.port(), tiny(), &stop); }), "stopped");
    EXPECT_EQ(server.connections(), 0);
}

TEST_F(Retries, AStopEndsALongBackoffPromptly) {
    ScriptedServer server({answering(answer_with(503))});
    const RetryPolicy patient{.max_attempts = 6, .first_backoff = 10s, .max_backoff = 10s};

    // Set as the backoff begins.
    std::atomic<bool> stop{false};
    on_retry = [&stop] { stop = true; };
    auto start = std::chrono::steady_clock::now();
    EXPECT_EQ(failure_of([&] { (void)send(server.port(), patient, &stop); }), "stopped");
    EXPECT_LT(std::chrono::steady_clock::now() - start, 1s);
    EXPECT_EQ(server.connections(), 1);

    // Set from another thread during the backoff: seen within a 100 ms slice.
    stop = false;
    on_retry = nullptr;
    start = std::chrono::steady_clock::now();
    std::thread stopper([&stop] {
        std::this_thread::sleep_for(20ms);
        stop = true;
    });
    EXPECT_EQ(failure_of([&] { (void)send(server.port(), patient, &stop); }), "stopped");
    stopper.join();
    EXPECT_LT(std::chrono::steady_clock::now() - start, 1s);
}

// An answer's body is read into a string with room for net::body_padding bytes more, so that a
// JSON parser that reads past the end (simdjson) parses it where it is, with no copy: of an
// answer with a Content-Length, of a chunked one and of one without a body; none for a HEAD's.
TEST(HttpClientBody, HasRoomForAParsersPaddingAfterIt) {
    const std::string large(300 * 1024, 'x');
    const std::string chunked =
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n"
        "6\r\n world\r\n0\r\n\r\n";
    ScriptedServer server(
        {answering("HTTP/1.1 200 OK\r\nContent-Length: " + std::to_string(large.size()) +
                   "\r\n\r\n" + large),
         answering(chunked), answering("HTTP/1.1 204 No Content\r\n\r\n"),
         // A HEAD's answer names the length of a body that does not come: no room is made for it.
         answering("HTTP/1.1 200 OK\r\nContent-Length: 9223372036854775807\r\n\r\n")});
    ClientRequest request;
    request.host = "127.0.0.1";
    request.port = server.port();
    const ClientResponse sized = net::send_request(request, quick_options());
    EXPECT_EQ(sized.status, 200);
    EXPECT_EQ(sized.body, large);
    EXPECT_GE(sized.body.capacity(), sized.body.size() + net::body_padding);
    const ClientResponse in_chunks = net::send_request(request, quick_options());
    EXPECT_EQ(in_chunks.body, "hello world");
    const ClientResponse empty = net::send_request(request, quick_options());
    EXPECT_EQ(empty.status, 204);
    EXPECT_EQ(empty.body, "");
    request.method = "HEAD";
    const ClientResponse head = net::send_request(request, quick_options());
    EXPECT_EQ(head.status, 200);
    EXPECT_EQ(head.body, "");
    EXPECT_LT(head.body.capacity(), 4096U);
}

TEST(HttpsClientHandshake, FailsAgainstAPlainServer) {
    ScriptedServer server({Turn{Turn::answer_at_once, ok_answer}});
    ClientRequest request;
    request.host = "127.0.0.1";
    request.port = server.port();
    request.tls = true;
    const std::string why = failure_of([&] { (void)net::send_request(request, quick_options()); });
    EXPECT_EQ(why.rfind("TLS handshake with 127.0.0.1 failed: ", 0), 0U) << why;
}

}  // namespace
}  // namespace cantonlite::testing::https_client_test
