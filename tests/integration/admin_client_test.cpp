// The admin commands (apply, time, snapshot, revert, reset) against a real server on a free port
// whose /_cantonlite/v1/ area is a fake that records requests and answers canned JSON.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cantonlite/app/admin_client.hpp"
#include "cantonlite/app/cli.hpp"
#include "cantonlite/http/area.hpp"
#include "cantonlite/http/router.hpp"
#include "cantonlite/net/http_client.hpp"
#include "cantonlite/net/server.hpp"

namespace cantonlite::testing::admin_client_test {
namespace {

using json = nlohmann::json;
using namespace std::chrono_literals;

// One request the fake saw.
struct Seen {
    std::string method;
    std::string target;
    std::string body;
    std::optional<std::string> authorization;
    std::optional<std::string> content_type;
    std::optional<std::string> host;
};

// What the fake areas share: the requests seen, and an answer to give instead of the canned one.
class FakeAdmin {
  public:
    http::Response answer(const http::Request& request, http::Response canned) {
        const std::lock_guard lock(mutex_);
        const auto header = [&](std::string_view name) -> std::optional<std::string> {
            const auto v = request.header(name);
            return v ? std::optional<std::string>(*v) : std::nullopt;
        };
        seen_.push_back(Seen{.method = request.method,
                             .target = request.target,
                             .body = request.body,
                             .authorization = header("Authorization"),
                             .content_type = header("Content-Type"),
                             .host = header("Host")});
        if (next_) {
            http::Response r = std::move(*next_);
            next_.reset();
            return r;
        }
        return canned;
    }

    void answer_next_with(http::Response response) {
        const std::lock_guard lock(mutex_);
        next_ = std::move(response);
    }

    [[nodiscard]] std::vector<Seen> seen() const {
        const std::lock_guard lock(mutex_);
        return seen_;
    }

  private:
    mutable std::mutex mutex_;
    std::vector<Seen> seen_;
    std::optional<http::Response> next_;
};

const json steps_answer = {{"ledger_end", 7}, {"results", json::array({{{"step", "mint"}}})}};
const json time_answer = {{"now", "2025-01-01T00:00:00Z"}, {"ledger_end", 7}};
const json snapshot_answer = {{"id", "3"}, {"ledger_end", 7}};
const json revert_answer = {{"reverted_to", "3"}, {"ledger_end", 5}};
const json reset_answer = {{"ledger_end", 0}};

// The admin API as the client sees it, under `prefix` ("/_cantonlite/v1/").
class FakeAdminArea : public http::Area {
  public:
    FakeAdminArea(const std::string& prefix, FakeAdmin& admin)
        : Area(prefix, prefix.substr(0, prefix.size() - 1)) {
        const auto canned = [&admin](int status, json body) {
            return [&admin, status, body](const http::RequestContext& c) {
                return admin.answer(c.request, http::Response::json(status, body.dump()));
            };
        };
        add_route("POST", "/steps", canned(200, steps_answer));
        add_route("GET", "/time", canned(200, time_answer));
        add_route("POST", "/time", canned(200, time_answer));
        add_route("POST", "/snapshots", canned(200, snapshot_answer));
        add_route("POST", "/reset", canned(200, reset_answer));
        add_route("POST", "/snapshots/{id}/revert", [&admin](const http::RequestContext& c) {
            const std::string& id = c.params.get("id");
            http::Response canned =
                id == "3" ? http::Response::json(200, revert_answer.dump())
                          : http::Response::json(404, http::error_body("no snapshot " + id));
            return admin.answer(c.request, std::move(canned));
        });
    }

  protected:
    [[nodiscard]] http::Response render_error(const http::ApiError& error,
                                              const http::Request& /*request*/) const override {
        return http::Response::json(400, http::error_body(error.what()));
    }
    [[nodiscard]] http::Response render_decode_error(
        const http::DecodeError& error) const override {
        return http::Response::json(400, http::error_body(error.what()));
    }
};

// A real server on 127.0.0.1:<free port> with the fake under /_cantonlite/v1/ and under
// /prefix/_cantonlite/v1/ (a daemon behind a path prefix).
class AdminServer {
  public:
    AdminServer() {
        router_.mount(std::make_unique<FakeAdminArea>("/_cantonlite/v1/", admin_));
        router_.mount(std::make_unique<FakeAdminArea>("/prefix/_cantonlite/v1/", admin_));
        server_ = std::make_unique<net::Server>(
            net::ServerOptions{.address = "127.0.0.1", .port = 0}, router_);
        server_->start();
    }
    ~AdminServer() {
        server_->stop();
        server_->wait();
    }
    AdminServer(const AdminServer&) = delete;
    AdminServer& operator=(const AdminServer&) = delete;

    [[nodiscard]] std::uint16_t port() const { return server_->port(); }
    [[nodiscard]] std::string url() const { return "http://127.0.0.1:" + std::to_string(port()); }
    FakeAdmin& admin() { return admin_; }

  private:
    FakeAdmin admin_;
    http::Router router_;
    std::unique_ptr<net::Server> server_;
};

// The outcome of one admin command.
struct Outcome {
    int exit_code = -1;
    std::string out;
    std::string err;
};

using Env = std::map<std::string, std::string>;

Outcome run_admin(const std::vector<std::string>& args, const Env& env = {},
                  const std::string& stdin_text = "") {
    const app::CommandLine cli = app::parse_command_line(args);
    std::istringstream in(stdin_text);
    std::ostringstream out;
    std::ostringstream err;
    const auto getenv = [&env](const char* name) -> const char* {
        const auto it = env.find(name);
        return it == env.end() ? nullptr : it->second.c_str();
    };
    const int code = app::run_admin_command(cli, in, out, err, getenv);
    return Outcome{code, out.str(), err.str()};
}

std::string write_temp_file(const std::string& name, const std::string& content) {
    const std::filesystem::path path = std::filesystem::path(::testing::TempDir()) / name;
    std::ofstream(path) << content;
    return path.string();
}

// A port nothing listens on: bound once by the kernel's choice, then released.
std::uint16_t closed_port() {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = 0;
    ::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
    socklen_t len = sizeof addr;
    ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
    ::close(fd);
    return ntohs(addr.sin_port);
}

TEST(AdminClient, ApplyPostsTheFileAndPrintsTheAnswer) {
    AdminServer server;
    const std::string steps = R"([{"mint": {"party": "alice", "amount": "10.0"}}])";
    const std::string file = write_temp_file("apply_steps.json", steps);

    const Outcome r = run_admin({"apply", file, "--url", server.url(), "--token", "t0k"});

    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, steps_answer.dump(2) + "\n");
    EXPECT_EQ(r.err, "");
    const auto seen = server.admin().seen();
    ASSERT_EQ(seen.size(), 1U);
    EXPECT_EQ(seen[0].method, "POST");
    EXPECT_EQ(seen[0].target, "/_cantonlite/v1/steps");
    EXPECT_EQ(seen[0].body, steps);
    EXPECT_EQ(seen[0].content_type, "application/json");
    EXPECT_EQ(seen[0].authorization, "Bearer t0k");
    EXPECT_EQ(seen[0].host, "127.0.0.1:" + std::to_string(server.port()));
}

TEST(AdminClient, ApplyDashReadsStdin) {
    AdminServer server;
    const std::string step = R"({"advance_time": "PT1H"})";

    const Outcome r = run_admin({"apply", "-", "--url", server.url()}, {}, step);

    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, steps_answer.dump(2) + "\n");
    const auto seen = server.admin().seen();
    ASSERT_EQ(seen.size(), 1U);
    EXPECT_EQ(seen[0].body, step);
}

TEST(AdminClient, ApplyRefusesInvalidJsonWithoutSending) {
    AdminServer server;
    const std::string file = write_temp_file("apply_broken.json", R"([{"mint": )");

    const Outcome r = run_admin({"apply", file, "--url", server.url()});

    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(r.err.rfind("cantonlite: " + file + ": is not valid JSON: ", 0), 0U) << r.err;
    EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << "one line: " << r.err;
    EXPECT_TRUE(server.admin().seen().empty());
}

TEST(AdminClient, ApplyRefusesInvalidJsonOnStdin) {
    AdminServer server;

    const Outcome r = run_admin({"apply", "-", "--url", server.url()}, {}, "not json");

    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(r.err.rfind("cantonlite: stdin: is not valid JSON: ", 0), 0U) << r.err;
    EXPECT_TRUE(server.admin().seen().empty());
}

TEST(AdminClient, ApplyRefusesJsonThatIsNoStep) {
    AdminServer server;
    const std::string file = write_temp_file("apply_number.json", "42");

    const Outcome r = run_admin({"apply", file, "--url", server.url()});

    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(r.err,
              "cantonlite: " + file + ": must be one step (an object) or an array of steps\n");
    EXPECT_TRUE(server.admin().seen().empty());
}

TEST(AdminClient, ApplyOfAMissingFileIsAUsageError) {
    AdminServer server;
    const std::string file = ::testing::TempDir() + "/no-such-steps.json";

    const Outcome r = run_admin({"apply", file, "--url", server.url()});

    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(r.err, "cantonlite: " + file + ": cannot be read\n");
    EXPECT_TRUE(server.admin().seen().empty());
}

TEST(AdminClient, TimeAloneGetsTheTime) {
    AdminServer server;

    const Outcome r = run_admin({"time", "--url", server.url()});

    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, time_answer.dump(2) + "\n");
    const auto seen = server.admin().seen();
    ASSERT_EQ(seen.size(), 1U);
    EXPECT_EQ(seen[0].method, "GET");
    EXPECT_EQ(seen[0].target, "/_cantonlite/v1/time");
    EXPECT_EQ(seen[0].body, "");
    EXPECT_FALSE(seen[0].authorization.has_value());
}

TEST(AdminClient, TimeAdvancePostsTheDuration) {
    AdminServer server;

    const Outcome r = run_admin({"time", "--advance", "PT1H", "--url", server.url()});

    EXPECT_EQ(r.exit_code, 0) << r.err;
    const auto seen = server.admin().seen();
    ASSERT_EQ(seen.size(), 1U);
    EXPECT_EQ(seen[0].method, "POST");
    EXPECT_EQ(seen[0].target, "/_cantonlite/v1/time");
    EXPECT_EQ(json::parse(seen[0].body), (json{{"advance", "PT1H"}}));
    EXPECT_EQ(seen[0].content_type, "application/json");
}

TEST(AdminClient, TimeSetPostsTheTimestamp) {
    AdminServer server;

    const Outcome r = run_admin({"time", "--set", "2026-02-03T04:05:06Z", "--url", server.url()});

    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, time_answer.dump(2) + "\n");
    const auto seen = server.admin().seen();
    ASSERT_EQ(seen.size(), 1U);
    EXPECT_EQ(json::parse(seen[0].body), (json{{"set", "2026-02-03T04:05:06Z"}}));
}

TEST(AdminClient, SnapshotPrintsOnlyTheId) {
    AdminServer server;

    const Outcome r = run_admin({"snapshot", "--url", server.url()});

    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, "3\n");
    const auto seen = server.admin().seen();
    ASSERT_EQ(seen.size(), 1U);
    EXPECT_EQ(seen[0].method, "POST");
    EXPECT_EQ(seen[0].target, "/_cantonlite/v1/snapshots");
    EXPECT_EQ(seen[0].body, "");
}

TEST(AdminClient, SnapshotWithoutAnIdInTheAnswerFails) {
    AdminServer server;
    server.admin().answer_next_with(http::Response::json(200, R"({"ledger_end":7})"));

    const Outcome r = run_admin({"snapshot", "--url", server.url()});

    EXPECT_EQ(r.exit_code, 1);
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(r.err, "cantonlite: 200: the answer has no snapshot id: {\"ledger_end\":7}\n");
}

TEST(AdminClient, RevertPostsToTheSnapshot) {
    AdminServer server;

    const Outcome r = run_admin({"revert", "3", "--url", server.url()});

    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, revert_answer.dump(2) + "\n");
    const auto seen = server.admin().seen();
    ASSERT_EQ(seen.size(), 1U);
    EXPECT_EQ(seen[0].method, "POST");
    EXPECT_EQ(seen[0].target, "/_cantonlite/v1/snapshots/3/revert");
}

TEST(AdminClient, RevertOfAnUnknownSnapshotPrintsTheErrorAndExits1) {
    AdminServer server;

    const Outcome r = run_admin({"revert", "7", "--url", server.url()});

    EXPECT_EQ(r.exit_code, 1);
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(r.err, "cantonlite: 404: no snapshot 7\n");
}

TEST(AdminClient, RevertEncodesTheIdAsOneSegment) {
    AdminServer server;

    const Outcome r = run_admin({"revert", "a/b c", "--url", server.url()});

    EXPECT_EQ(r.err, "cantonlite: 404: no snapshot a/b c\n");
    const auto seen = server.admin().seen();
    ASSERT_EQ(seen.size(), 1U);
    EXPECT_EQ(seen[0].target, "/_cantonlite/v1/snapshots/a%2Fb%20c/revert");
}

TEST(AdminClient, ResetPostsAnEmptyBody) {
    AdminServer server;

    const Outcome r = run_admin({"reset", "--url", server.url()});

    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, reset_answer.dump(2) + "\n");
    const auto seen = server.admin().seen();
    ASSERT_EQ(seen.size(), 1U);
    EXPECT_EQ(seen[0].method, "POST");
    EXPECT_EQ(seen[0].target, "/_cantonlite/v1/reset");
    EXPECT_EQ(seen[0].body, "");
    EXPECT_FALSE(seen[0].content_type.has_value());
}

TEST(AdminClient, ErrorStatusesPrintTheErrorOfTheJsonBody) {
    AdminServer server;
    server.admin().answer_next_with(
        http::Response::json(409, http::error_body("step 2: contract archived\nalready")));

    const Outcome r = run_admin({"reset", "--url", server.url()});

    EXPECT_EQ(r.exit_code, 1);
    EXPECT_EQ(r.err, "cantonlite: 409: step 2: contract archived already\n");
}

TEST(AdminClient, ErrorStatusesWithoutAJsonErrorPrintTheRawBody) {
    AdminServer server;
    server.admin().answer_next_with(http::Response::text(502, "bad\ngateway\n"));

    const Outcome r = run_admin({"reset", "--url", server.url()});

    EXPECT_EQ(r.exit_code, 1);
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(r.err, "cantonlite: 502: bad gateway\n");
}

TEST(AdminClient, AnAnswerThatIsNotJsonFails) {
    AdminServer server;
    server.admin().answer_next_with(http::Response::text(200, "hello"));

    const Outcome r = run_admin({"reset", "--url", server.url()});

    EXPECT_EQ(r.exit_code, 1);
    EXPECT_EQ(r.err, "cantonlite: 200: the answer is not JSON: hello\n");
}

TEST(AdminClient, AForbiddenAnswerExits1) {
    AdminServer server;
    server.admin().answer_next_with(
        http::Response::json(403, http::error_body("admin token required")));

    const Outcome r = run_admin({"snapshot", "--url", server.url()});

    EXPECT_EQ(r.exit_code, 1);
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(r.err, "cantonlite: 403: admin token required\n");
}

TEST(AdminClient, UrlAndTokenComeFromTheEnvironment) {
    AdminServer server;

    const Outcome r =
        run_admin({"reset"}, {{"CANTONLITE_URL", server.url()}, {"CANTONLITE_ADMIN_TOKEN", "env"}});

    EXPECT_EQ(r.exit_code, 0) << r.err;
    const auto seen = server.admin().seen();
    ASSERT_EQ(seen.size(), 1U);
    EXPECT_EQ(seen[0].authorization, "Bearer env");
}

TEST(AdminClient, FlagsWinOverTheEnvironment) {
    AdminServer server;

    const Outcome r =
        run_admin({"reset", "--url", server.url(), "--token", "flag"},
                  {{"CANTONLITE_URL", "http://127.0.0.1:1"}, {"CANTONLITE_ADMIN_TOKEN", "env"}});

    EXPECT_EQ(r.exit_code, 0) << r.err;
    const auto seen = server.admin().seen();
    ASSERT_EQ(seen.size(), 1U);
    EXPECT_EQ(seen[0].authorization, "Bearer flag");
}

TEST(AdminClient, EmptyEnvironmentVariablesAreIgnored) {
    AdminServer server;

    const Outcome r = run_admin({"reset", "--url", server.url()}, {{"CANTONLITE_ADMIN_TOKEN", ""}});

    EXPECT_EQ(r.exit_code, 0) << r.err;
    const auto seen = server.admin().seen();
    ASSERT_EQ(seen.size(), 1U);
    EXPECT_FALSE(seen[0].authorization.has_value());
}

TEST(AdminClient, UrlPathPrefixAndTrailingSlashAreKept) {
    AdminServer server;

    const Outcome r = run_admin({"snapshot", "--url", server.url() + "/prefix/"});

    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, "3\n");
    const auto seen = server.admin().seen();
    ASSERT_EQ(seen.size(), 1U);
    EXPECT_EQ(seen[0].target, "/prefix/_cantonlite/v1/snapshots");
}

TEST(AdminClient, UnreachableDaemonExits1) {
    const std::string url = "http://127.0.0.1:" + std::to_string(closed_port());

    const Outcome r = run_admin({"time", "--url", url});

    EXPECT_EQ(r.exit_code, 1);
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(r.err, "cantonlite: cannot reach " + url + ": Connection refused\n");
}

TEST(AdminClient, HttpsIsAUsageError) {
    const Outcome flag = run_admin({"reset", "--url", "https://127.0.0.1:7575"});
    const Outcome env = run_admin({"reset"}, {{"CANTONLITE_URL", "HTTPS://localhost"}});

    EXPECT_EQ(flag.exit_code, 2);
    EXPECT_EQ(flag.err,
              "cantonlite: --url: https is not supported; cantonlite serves plain HTTP\n");
    EXPECT_EQ(env.exit_code, 2);
    EXPECT_EQ(env.err,
              "cantonlite: CANTONLITE_URL: https is not supported; cantonlite serves plain "
              "HTTP\n");
}

TEST(AdminClient, ABadUrlIsAUsageError) {
    const Outcome r = run_admin({"reset", "--url", "127.0.0.1:7575"});

    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(r.err,
              "cantonlite: --url: must look like http://HOST:PORT, got \"127.0.0.1:7575\"\n");
}

struct UrlCase {
    std::string text;
    std::string host;
    std::uint16_t port;
    std::string base_path;
};

class ParseAdminUrl : public ::testing::TestWithParam<UrlCase> {};

TEST_P(ParseAdminUrl, TakesItApart) {
    const UrlCase& c = GetParam();

    const app::AdminUrl url = app::parse_admin_url(c.text, "--url");

    EXPECT_EQ(url.text, c.text);
    EXPECT_EQ(url.host, c.host);
    EXPECT_EQ(url.port, c.port);
    EXPECT_EQ(url.base_path, c.base_path);
}

INSTANTIATE_TEST_SUITE_P(
    Forms, ParseAdminUrl,
    ::testing::Values(UrlCase{"http://127.0.0.1:7575", "127.0.0.1", 7575, ""},
                      UrlCase{"http://127.0.0.1:7575/", "127.0.0.1", 7575, ""},
                      UrlCase{"HTTP://localhost:8080//", "localhost", 8080, ""},
                      UrlCase{"http://daemon", "daemon", 80, ""},
                      UrlCase{"http://h:1/canton/lite/", "h", 1, "/canton/lite"},
                      UrlCase{"http://[::1]:7575/x", "::1", 7575, "/x"},
                      UrlCase{"http://[::1]", "::1", 80, ""}));

class ParseAdminUrlRejects : public ::testing::TestWithParam<std::pair<std::string, std::string>> {
};

TEST_P(ParseAdminUrlRejects, WithOneLine) {
    const auto& [text, error] = GetParam();

    try {
        (void)app::parse_admin_url(text, "--url");
        ADD_FAILURE() << text << " parsed";
    } catch (const app::UsageError& e) {
        EXPECT_EQ(std::string(e.what()), error);
    }
}

INSTANTIATE_TEST_SUITE_P(
    Cases, ParseAdminUrlRejects,
    ::testing::Values(
        std::pair{"", "--url: must look like http://HOST:PORT, got \"\""},
        std::pair{"ftp://h:1", "--url: must look like http://HOST:PORT, got \"ftp://h:1\""},
        std::pair{"http://", "--url: must look like http://HOST:PORT, got \"http://\""},
        std::pair{"http://:7575", "--url: must look like http://HOST:PORT, got \"http://:7575\""},
        std::pair{"http://u:p@h:1",
                  "--url: must look like http://HOST:PORT, got \"http://u:p@h:1\""},
        std::pair{"http://h:1/?q=1",
                  "--url: must look like http://HOST:PORT, got \"http://h:1/?q=1\""},
        std::pair{"http://[::1", "--url: must look like http://HOST:PORT, got \"http://[::1\""},
        std::pair{"http://h:", "--url: the port must be from 1 to 65535, got \"http://h:\""},
        std::pair{"http://h:0", "--url: the port must be from 1 to 65535, got \"http://h:0\""},
        std::pair{"http://h:65536",
                  "--url: the port must be from 1 to 65535, got \"http://h:65536\""},
        std::pair{"http://h:8x", "--url: the port must be from 1 to 65535, got \"http://h:8x\""},
        std::pair{"https://h:1", "--url: https is not supported; cantonlite serves plain HTTP"}));

// The net client directly: its time bounds, which the admin commands cannot shorten.
TEST(HttpClient, GivesUpWhenNoAnswerComes) {
    // A listening socket that is never served: the kernel completes the connection, nobody reads.
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ASSERT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
    ASSERT_EQ(::listen(fd, 4), 0);
    socklen_t len = sizeof addr;
    ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
    const net::ClientRequest request{.host = "127.0.0.1", .port = ntohs(addr.sin_port)};

    try {
        (void)net::send_request(request, net::ClientOptions{.response_timeout = 200ms});
        ADD_FAILURE() << "answered";
    } catch (const net::ClientError& e) {
        EXPECT_EQ(std::string(e.what()), "no whole answer within 200 ms");
    }
    ::close(fd);
}

TEST(HttpClient, UnknownHostIsAClientError) {
    const net::ClientRequest request{.host = "no-such-host.invalid", .port = 80};

    EXPECT_THROW((void)net::send_request(request), net::ClientError);
}

TEST(HttpClient, ReturnsStatusContentTypeAndBody) {
    AdminServer server;
    const net::ClientRequest request{.method = "GET",
                                     .host = "127.0.0.1",
                                     .port = server.port(),
                                     .target = "/_cantonlite/v1/time"};

    const net::ClientResponse response = net::send_request(request);

    EXPECT_EQ(response.status, 200);
    EXPECT_EQ(response.content_type, "application/json");
    EXPECT_EQ(json::parse(response.body), time_answer);
}

}  // namespace
}  // namespace cantonlite::testing::admin_client_test
