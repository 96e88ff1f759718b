// libFuzzer target: any request to the daemon's router, with every area mounted over the live
// default network (the admin API open, as on loopback). Every request gets an answer: no crash,
// no exception out of the router, no 500, and a body that parses as JSON wherever the answer says
// application/json (inflated first when it is compressed).
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <string>

#include <spdlog/spdlog.h>
#include <zlib.h>
#include <nlohmann/json.hpp>

#include "cantonlite/app/application.hpp"
#include "cantonlite/app/describe.hpp"
#include "cantonlite/app/explorer.hpp"
#include "cantonlite/interactive/prepared_transaction.hpp"
#include "cantonlite/seed/live_network.hpp"
#include "fuzz_input.hpp"
#include "fuzz_targets.hpp"

namespace cantonlite::fuzz::fuzz_router {

namespace {

using namespace cantonlite;

struct Daemon {
    Daemon()
        : network(
              seed::LiveNetwork::load_file(CANTONLITE_SOURCE_DIR "/config/default-network.json")),
          router(app::make_router(
              *network, areas::admin::AdminOptions{.open = true,
                                                   .describe =
                                                       [](const store::LedgerStore& s) {
                                                           return app::describe_json(s).dump();
                                                       },
                                                   .explore = app::explore_text})) {}
    std::unique_ptr<seed::LiveNetwork> network;
    std::unique_ptr<http::Router> router;
};

[[noreturn]] void fail(const http::Request& r, const http::Response& a, const std::string& why) {
    std::cerr << why << ": " << r.method << " " << r.target << " -> " << a.status << " "
              << a.content_type << "\n"
              << a.body.substr(0, 2000) << "\n";
    std::abort();
}

}  // namespace

int initialize() {
    spdlog::set_level(spdlog::level::off);
    interactive::silence_protobuf_logs();
    return 0;
}

int test_one_input(const std::uint8_t* data, std::size_t size) {
    static Daemon daemon;
    static long requests = 0;
    // Writes accumulate; start again from the seed now and then, as a test run's reset would.
    if (++requests % 2000 == 0) daemon = Daemon();
    const http::Request request =
        fuzz::request_of(std::string_view(reinterpret_cast<const char*>(data), size));
    const http::Response response = fuzz::answered(daemon.router->handle(request));
    if (response.status >= 500) fail(request, response, "a 5xx for a request");
    if (response.content_type == "application/json") {
        const auto coding = response.header("Content-Encoding");
        const std::string body = coding ? fuzz::inflated(response.body) : response.body;
        if (!nlohmann::json::accept(body)) fail(request, response, "invalid JSON");
    }
    return 0;
}

}  // namespace cantonlite::fuzz::fuzz_router
