// The bad-input corpus: tests/bad_input/cases.json (its format: README.md there), one test per
// case. Each case is a request wrong in type, shape, size, encoding or credentials, sent to the
// daemon's router over the default network, and the answer the real service gives to it.
#include <algorithm>
#include <cctype>
#include <cstdint>
#include <fstream>
#include <future>
#include <map>
#include <memory>
#include <optional>
#include <ostream>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <gtest/gtest.h>
#include <spdlog/spdlog.h>
#include <nlohmann/json.hpp>

#include "cantonlite/app/application.hpp"
#include "cantonlite/app/describe.hpp"
#include "cantonlite/auth/jwt_signer.hpp"
#include "cantonlite/auth/jwt_verifier.hpp"
#include "cantonlite/http/request.hpp"
#include "cantonlite/http/response.hpp"
#include "cantonlite/seed/live_network.hpp"

namespace cantonlite::bad_input_test {
namespace {

using Json = nlohmann::ordered_json;

const std::string corpus_file = CANTONLITE_SOURCE_DIR "/tests/bad_input/cases.json";
const std::string text_type = "text/plain; charset=UTF-8";
const std::string json_type = "application/json";

// One case as gtest registers it: its name (group + case name) and its place in the table. Every
// process of the unit tests registers the corpus, so this stays cheap; resolve() does the rest.
struct BadInputCase {
    std::string name;
    const Json* group = nullptr;  // in table().json, which lives as long as the process
    const Json* item = nullptr;
};

void PrintTo(const BadInputCase& c, std::ostream* os) {
    *os << c.name;
}

// A case with its group's defaults, the vars and the expectation it uses applied.
struct ResolvedCase {
    std::string area;              // ledger, scan, validator or admin: from the target
    std::string category;          // wrong_type, bad_token, ... (README.md)
    std::string daemon;            // which router answers (daemon_named)
    std::string known_difference;  // set: the case is skipped, printing this
    std::string why;
    Json request;
    Json expect;
};

// ---- loading the table ----------------------------------------------------------------------

// The object or array `key` of `object`, or an empty one when absent (a reference: iterating the
// items of a temporary would outlive it).
const Json& member_of(const Json& object, const std::string& key) {
    static const Json none = Json::object();
    const auto it = object.find(key);
    return it == object.end() ? none : *it;
}

// The table's vars: each as a JSON value, and as the text that replaces "${name}" inside a string
// (a string var's text, another var's JSON).
struct Vars {
    Json values = Json::object();
    std::vector<std::pair<std::string, std::string>> texts;  // "${name}", replacement
};

// `text` with every ${name} of `vars` replaced.
std::string substituted_text(std::string text, const Vars& vars) {
    if (text.find("${") == std::string::npos) return text;
    for (const auto& [token, with] : vars.texts) {
        for (std::size_t at = text.find(token); at != std::string::npos;
             at = text.find(token, at + with.size())) {
            text.replace(at, token.size(), with);
        }
    }
    return text;
}

// `value` with its vars replaced: a string that is exactly "${name}" becomes the var's value.
Json substituted(const Json& value, const Vars& vars) {
    if (value.is_string()) {
        const auto& s = value.get_ref<const std::string&>();
        if (s.size() > 3 && s.starts_with("${") && s.ends_with("}")) {
            const std::string name = s.substr(2, s.size() - 3);
            if (vars.values.contains(name)) return vars.values.at(name);
        }
        return substituted_text(s, vars);
    }
    if (value.is_array()) {
        Json out = Json::array();
        for (const Json& item : value) out.push_back(substituted(item, vars));
        return out;
    }
    if (!value.is_object()) return value;
    Json out = Json::object();
    for (const auto& [key, item] : value.items())
        out[substituted_text(key, vars)] = substituted(item, vars);
    return out;
}

// The vars, each resolved against those before it.
Vars resolved_vars(const Json& table) {
    Vars vars;
    for (const auto& [name, value] : member_of(table, "vars").items()) {
        const Json resolved = substituted(value, vars);
        vars.values[name] = resolved;
        vars.texts.emplace_back("${" + name + "}", resolved.is_string()
                                                       ? resolved.get<std::string>()
                                                       : resolved.dump());
    }
    return vars;
}

std::string area_of(std::string_view target) {
    if (target.starts_with("/v2/")) return "ledger";
    if (target.starts_with("/api/scan/")) return "scan";
    if (target.starts_with("/api/validator/")) return "validator";
    return "admin";
}

bool is_test_name(std::string_view name) {
    return !name.empty() && std::all_of(name.begin(), name.end(),
                                        [](unsigned char c) { return std::isalnum(c) != 0; });
}

// `defaults` with `overrides` on top; a null override removes the key.
Json merged(Json defaults, const Json& overrides) {
    for (const auto& [key, value] : overrides.items()) {
        if (value.is_null()) {
            defaults.erase(key);
        } else {
            defaults[key] = value;
        }
    }
    return defaults;
}

const std::set<std::string> case_keys = {"name",    "category",         "why",   "daemon",
                                         "request", "known_difference", "expect"};
const std::set<std::string> request_keys = {"method", "target", "head", "headers",
                                            "token",  "json",   "body", "body_parts"};
const std::set<std::string> expect_keys = {
    "use",          "status",       "content_type", "body",          "body_prefix",
    "body_suffix",  "text",         "text_prefix",  "json",          "error",
    "error_prefix", "error_suffix", "canton",       "json_has_keys", "headers"};

void check_keys(const Json& object, const std::set<std::string>& known, const std::string& where,
                std::vector<std::string>& problems) {
    for (const auto& [key, _] : object.items()) {
        if (!known.contains(key)) problems.push_back(where + ": unknown key '" + key + "'");
    }
}

// The case's expectation, on top of the table's expectation it names with "use".
Json expectation_of(const Json& item, const Json& table, const std::string& name,
                    std::vector<std::string>& problems) {
    Json expect = item.value("expect", Json::object());
    if (!expect.contains("use")) return expect;
    const std::string use = expect["use"];
    const Json& templates = member_of(table, "expectations");
    if (!templates.contains(use)) problems.push_back(name + ": no expectation '" + use + "'");
    expect = merged(templates.value(use, Json::object()), expect);
    expect.erase("use");
    return expect;
}

// `item` of `group`, resolved. Adds what is wrong with it to `problems`.
ResolvedCase resolve_item(const std::string& name, const Json& group, const Json& item,
                          const Json& table, std::vector<std::string>& problems) {
    ResolvedCase c;
    check_keys(item, case_keys, name, problems);
    c.category = item.value("category", "");
    c.why = item.value("why", "");
    c.known_difference = item.value("known_difference", "");
    c.request =
        merged(group.value("request", Json::object()), item.value("request", Json::object()));
    check_keys(c.request, request_keys, name + " request", problems);
    c.area = area_of(c.request.value("target", ""));
    c.daemon = item.value("daemon", group.value("daemon", c.area == "admin" ? "admin" : "default"));
    c.expect = expectation_of(item, table, name, problems);
    check_keys(c.expect, expect_keys, name + " expect", problems);
    if (c.category.empty() || !c.request.contains("target") || !c.expect.contains("status")) {
        problems.push_back(name + ": needs a category, a request target and an expected status");
    }
    return c;
}

// The table as loaded: its JSON, vars, the cases to register, and what is wrong with it.
struct Table {
    Json json;
    Vars vars;
    std::vector<BadInputCase> cases;
    std::vector<std::string> problems;
};

// Every case's name is a unique test name; a bad one is renamed so the others still run.
void name_uniquely(std::vector<BadInputCase>& cases, std::vector<std::string>& problems) {
    std::set<std::string> seen;
    for (std::size_t i = 0; i < cases.size(); ++i) {
        BadInputCase& c = cases[i];
        if (is_test_name(c.name) && seen.insert(c.name).second) continue;
        problems.push_back("case " + std::to_string(i) + " '" + c.name +
                           "': the name is not unique or not alphanumeric");
        c.name = "Renamed" + std::to_string(i);
    }
}

std::unique_ptr<Table> load_table() {
    auto table = std::make_unique<Table>();
    std::ifstream file(corpus_file);
    if (file.is_open()) table->json = Json::parse(file, nullptr, false);
    if (!file.is_open() || table->json.is_discarded() || !table->json.contains("groups")) {
        table->problems.push_back(corpus_file + " is missing or not valid JSON");
        table->json = Json::object();
        return table;
    }
    table->vars = resolved_vars(table->json);
    for (const Json& group : table->json.at("groups")) {
        for (const Json& item : member_of(group, "cases")) {
            table->cases.push_back({.name = group.value("group", "") + item.value("name", ""),
                                    .group = &group,
                                    .item = &item});
        }
    }
    name_uniquely(table->cases, table->problems);
    return table;
}

const Table& table() {
    static const std::unique_ptr<Table> loaded = load_table();
    return *loaded;
}

// The case, resolved; what is wrong with it goes to `problems`.
ResolvedCase resolve(const BadInputCase& c, std::vector<std::string>& problems) {
    const Vars& vars = table().vars;
    ResolvedCase r =
        resolve_item(c.name, *c.group, substituted(*c.item, vars), table().json, problems);
    r.request = substituted(r.request, vars);
    r.expect = substituted(r.expect, vars);
    if (r.request.dump().find("${") != std::string::npos) {
        problems.push_back(c.name + ": a ${...} names no var");
    }
    return r;
}

// ---- the daemons ----------------------------------------------------------------------------

// The live default network and the daemon's router over it, built as `cantonlite serve` builds
// them (tests/fuzz/fuzz_router.cpp).
struct Daemon {
    std::unique_ptr<seed::LiveNetwork> network;
    std::unique_ptr<http::Router> router;
};

std::unique_ptr<Daemon> make_daemon(bool admin_open, std::string admin_token,
                                    const areas::ApiProfile& profile) {
    auto daemon = std::make_unique<Daemon>();
    daemon->network =
        seed::LiveNetwork::load_file(CANTONLITE_SOURCE_DIR "/config/default-network.json");
    areas::admin::AdminOptions admin{
        .open = admin_open,
        .token = std::move(admin_token),
        .describe = [](const store::LedgerStore& s) { return app::describe_json(s).dump(2); }};
    daemon->router = app::make_router(*daemon->network, std::move(admin), profile);
    return daemon;
}

// The daemon a case names, built on first use: "default" (splice-0.6, the admin API open, as on
// loopback), "admin" (the same, for the admin cases, whose mistakes could write), "splice-0.9",
// "admin-token" (admin API behind the bearer secret s3cret), "admin-closed" (no secret set).
// nullptr for another name. The tests run on one thread.
const Daemon* daemon_named(const std::string& name) {
    static std::map<std::string, std::unique_ptr<Daemon>> daemons;
    auto& daemon = daemons[name];
    if (daemon) return daemon.get();
    if (name == "default" || name == "admin") daemon = make_daemon(true, "", {});
    if (name == "splice-0.9")
        daemon = make_daemon(true, "", {.release = areas::Release::splice_0_9});
    if (name == "admin-token") daemon = make_daemon(false, "s3cret", {});
    if (name == "admin-closed") daemon = make_daemon(false, "", {});
    return daemon.get();
}

// ---- requests -------------------------------------------------------------------------------

// `key` of `spec` as seconds from now: nullopt when null; `fallback` when absent.
std::optional<std::int64_t> relative_time(const Json& spec, const std::string& key,
                                          std::optional<std::int64_t> fallback) {
    if (spec.contains(key)) {
        if (spec[key].is_null()) return std::nullopt;
        return auth::wall_clock_seconds() + spec[key].get<std::int64_t>();
    }
    return fallback ? std::optional(auth::wall_clock_seconds() + *fallback) : std::nullopt;
}

// The claims of a token `spec` (README.md "Tokens"): sub, aud, iat, exp, nbf, daml_user.
Json claims_of(const Json& spec, const model::Network& network) {
    Json claims = Json::object();
    const Json sub = spec.contains("sub") ? spec["sub"] : spec.value("user", Json());
    if (!sub.is_null()) claims["sub"] = sub;
    const Json aud = spec.contains("aud") ? spec["aud"] : Json::array({network.auth.audience});
    if (!aud.is_null()) claims["aud"] = aud;
    for (const auto& [key, fallback] :
         std::vector<std::pair<std::string, std::optional<std::int64_t>>>{
             {"iat", -10}, {"exp", 3600}, {"nbf", std::nullopt}}) {
        if (auto t = relative_time(spec, key, fallback)) claims[key] = *t;
    }
    if (spec.contains("daml_user"))
        claims["https://canton-network"] = {{"daml_user", spec["daml_user"]}};
    return claims;
}

// The Authorization value of a token `spec`: a user id, or an object (README.md "Tokens").
std::string authorization_of(const Json& token, const model::Network& network) {
    const Json spec = token.is_string() ? Json{{"user", token}} : token;
    const std::string alg = spec.value("alg", "HS256");
    const Json header = {{"alg", alg}, {"typ", "JWT"}};
    const Json claims = claims_of(spec, network);
    std::string jwt;
    if (alg == "none") {
        jwt = auth::base64url_encode(header.dump()) + "." + auth::base64url_encode(claims.dump()) +
              ".";
    } else {  // HS256 signed whatever alg the header names: another alg is refused either way
        const std::string secret = spec.value("secret", network.auth.hs256_secret.value_or(""));
        jwt = auth::sign_hs256(secret, header.dump(), claims.dump());
    }
    return spec.value("scheme", "Bearer") + " " + jwt;
}

std::string hex_bytes(std::string_view hex) {
    std::string out;
    for (std::size_t i = 0; i + 1 < hex.size(); i += 2) {
        out += static_cast<char>(std::stoi(std::string(hex.substr(i, 2)), nullptr, 16));
    }
    return out;
}

// body_parts: strings as they are, {"repeat": unit, "count": n}, {"hex": "ff00"}.
std::string body_of_parts(const Json& parts) {
    std::string body;
    for (const Json& part : parts) {
        if (part.is_string()) {
            body += part.get<std::string>();
        } else if (part.contains("hex")) {
            body += hex_bytes(part["hex"].get<std::string>());
        } else {
            const std::string unit = part.at("repeat");
            const std::size_t count = part.at("count");
            body.reserve(body.size() + unit.size() * count);
            for (std::size_t i = 0; i < count; ++i) body += unit;
        }
    }
    return body;
}

void set_header(std::vector<http::Header>& headers, const std::string& name, const Json& value) {
    std::erase_if(headers, [&](const http::Header& h) { return http::iequals(h.name, name); });
    if (!value.is_null()) headers.push_back({name, value.get<std::string>()});
}

http::Request request_of(const Json& r, const model::Network& network) {
    http::Request request{.method = r.value("method", "GET"), .target = r.at("target")};
    request.head = r.value("head", false);
    const bool has_body = r.contains("json") || r.contains("body") || r.contains("body_parts");
    if (r.contains("json")) request.body = r["json"].dump();
    if (r.contains("body")) request.body = r["body"].get<std::string>();
    if (r.contains("body_parts")) request.body = body_of_parts(r["body_parts"]);
    request.headers.push_back({"Host", "localhost:7575"});
    if (has_body) request.headers.push_back({"Content-Type", json_type});
    if (r.contains("token")) {
        request.headers.push_back({"Authorization", authorization_of(r["token"], network)});
    }
    for (const auto& [name, value] : member_of(r, "headers").items()) {
        set_header(request.headers, name, value);
    }
    return request;
}

// The router's answer; a deferred one (a journaled write) is waited for.
http::Response answer_of(const http::Router& router, const http::Request& request) {
    http::Response response = router.handle(request);
    if (!response.deferred) return response;
    std::promise<http::Response> done;
    auto future = done.get_future();
    response.deferred([&done](http::Response r) { done.set_value(std::move(r)); });
    return future.get();
}

// ---- expectations ---------------------------------------------------------------------------

// A body as a failure message shows it: at most 300 bytes.
std::string shown(std::string_view body) {
    if (body.size() <= 300) return std::string(body);
    return std::string(body.substr(0, 300)) + "... (" + std::to_string(body.size()) + " bytes)";
}

nlohmann::json plain(const Json& value) {
    return nlohmann::json::parse(value.dump());
}

// Collects the differences between an answer and its expectation.
class Mismatches {
  public:
    void add(const std::string& what) { found_.push_back(what); }
    void expect_equal(const std::string& what, const Json& expected, const Json& got) {
        if (plain(expected) != plain(got))
            add(what + ": expected " + shown(expected.dump()) + ", got " + shown(got.dump()));
    }
    [[nodiscard]] const std::vector<std::string>& found() const { return found_; }

  private:
    std::vector<std::string> found_;
};

bool expects_json(const Json& expect) {
    for (const char* key :
         {"json", "json_has_keys", "error", "error_prefix", "error_suffix", "canton"}) {
        if (expect.contains(key)) return true;
    }
    return false;
}

void check_text(const Json& expect, const http::Response& r, Mismatches& m) {
    const auto check = [&](const char* key, auto&& holds) {
        if (expect.contains(key) && !holds(expect[key].get<std::string>())) {
            m.add(std::string(key) + " '" + shown(expect[key].get<std::string>()) +
                  "' does not match '" + shown(r.body) + "'");
        }
    };
    check("body", [&](const std::string& s) { return r.body == s; });
    check("body_prefix", [&](const std::string& s) { return r.body.starts_with(s); });
    check("body_suffix", [&](const std::string& s) { return r.body.ends_with(s); });
    check("text", [&](const std::string& s) { return r.body == s; });
    check("text_prefix", [&](const std::string& s) { return r.body.starts_with(s); });
}

void check_error(const Json& expect, const Json& body, Mismatches& m) {
    if (!body.is_object() || body.size() != 1 || !body.contains("error") ||
        !body["error"].is_string()) {
        m.add("the body is not {\"error\": <string>}");
        return;
    }
    const std::string& error = body["error"].get_ref<const std::string&>();
    if (expect.contains("error")) m.expect_equal("error", expect["error"], body["error"]);
    if (expect.contains("error_prefix") &&
        !error.starts_with(expect["error_prefix"].get<std::string>())) {
        m.add("error '" + shown(error) + "' does not start with '" +
              expect["error_prefix"].get<std::string>() + "'");
    }
    if (expect.contains("error_suffix") &&
        !error.ends_with(expect["error_suffix"].get<std::string>())) {
        m.add("error '" + shown(error) + "' does not end with '" +
              expect["error_suffix"].get<std::string>() + "'");
    }
}

// The keys of a JsCantonError, in circe's order (canton-ledger-behavior.md §5.1).
const std::vector<std::string> canton_keys = {
    "code",      "cause",         "correlationId", "traceId",   "context",
    "resources", "errorCategory", "grpcCodeValue", "retryInfo", "definiteAnswer"};

// One key of a "canton" expectation: a JsCantonError key compared as JSON, or one of the partial
// checks cause_prefix, cause_contains, context_has, context_lacks, correlation_is_trace.
void check_canton_key(const std::string& key, const Json& want, const Json& e, Mismatches& m) {
    const std::string cause = e["cause"].is_string() ? e["cause"].get<std::string>() : "";
    const Json& context = e["context"];
    if (key == "cause_prefix") {
        if (!cause.starts_with(want.get<std::string>()))
            m.add("cause '" + shown(cause) + "' does not start with " + want.dump());
    } else if (key == "cause_contains") {
        if (cause.find(want.get<std::string>()) == std::string::npos)
            m.add("cause '" + shown(cause) + "' does not contain " + want.dump());
    } else if (key == "context_has") {
        for (const auto& [k, v] : want.items())
            m.expect_equal("context." + k, v, context.value(k, Json()));
    } else if (key == "context_lacks") {
        for (const Json& k : want) {
            if (context.is_object() && context.contains(k.get<std::string>()))
                m.add("context has " + k.dump());
        }
    } else if (key == "correlation_is_trace") {
        m.expect_equal("correlationId", e["traceId"], e["correlationId"]);
    } else if (std::find(canton_keys.begin(), canton_keys.end(), key) != canton_keys.end()) {
        m.expect_equal(key, want, e[key]);
    } else {
        m.add("the table names no JsCantonError key '" + key + "'");
    }
}

void check_canton(const Json& spec, const Json& e, Mismatches& m) {
    std::vector<std::string> keys;
    if (e.is_object()) {
        for (const auto& [key, _] : e.items()) keys.push_back(key);
    }
    if (keys != canton_keys) {
        m.add("the body is not a JsCantonError with its ten keys in order");
        return;
    }
    if (!e["traceId"].is_string() || e["traceId"].get<std::string>().empty()) m.add("no traceId");
    for (const auto& [key, want] : spec.items()) check_canton_key(key, want, e, m);
}

void check_json(const Json& expect, const http::Response& r, Mismatches& m) {
    const Json body = Json::parse(r.body, nullptr, false);
    if (body.is_discarded()) {
        m.add("the body is not JSON: " + shown(r.body));
        return;
    }
    if (expect.contains("json")) m.expect_equal("body", expect["json"], body);
    for (const Json& key : member_of(expect, "json_has_keys")) {
        if (!body.is_object() || !body.contains(key.get<std::string>()))
            m.add("no key " + key.dump());
    }
    if (expect.contains("error") || expect.contains("error_prefix") ||
        expect.contains("error_suffix")) {
        check_error(expect, body, m);
    }
    if (expect.contains("canton")) check_canton(expect["canton"], body, m);
}

void check_headers(const Json& expect, const http::Response& r, Mismatches& m) {
    for (const auto& [name, value] : member_of(expect, "headers").items()) {
        const auto got = r.header(name);
        const Json have = got ? Json(std::string(*got)) : Json();
        m.expect_equal("header " + name, value, have);
    }
}

testing::AssertionResult answers_as_expected(const Json& expect, const http::Response& r) {
    Mismatches m;
    m.expect_equal("status", expect.at("status"), r.status);
    std::string type = expect.value("content_type", "");
    if (!expect.contains("content_type") && expects_json(expect)) type = json_type;
    if (expect.contains("text") || expect.contains("text_prefix")) type = text_type;
    if (expect.contains("content_type") || !type.empty())
        m.expect_equal("content type", type, r.content_type);
    check_text(expect, r, m);
    if (expects_json(expect)) check_json(expect, r, m);
    check_headers(expect, r, m);
    if (m.found().empty()) return testing::AssertionSuccess();
    testing::AssertionResult failure = testing::AssertionFailure();
    for (const std::string& what : m.found()) failure << "\n  " << what;
    return failure << "\n  answer: " << r.status << " '" << r.content_type << "' " << shown(r.body);
}

// ---- the tests ------------------------------------------------------------------------------

class BadInputTest : public testing::TestWithParam<BadInputCase> {
  protected:
    // The refused tokens would each log a warning.
    static void SetUpTestSuite() {
        log_level_ = spdlog::get_level();
        spdlog::set_level(spdlog::level::err);
    }
    static void TearDownTestSuite() { spdlog::set_level(log_level_); }

  private:
    static inline spdlog::level::level_enum log_level_ = spdlog::level::info;
};

TEST_P(BadInputTest, IsAnsweredAsTheRealServiceAnswers) {
    std::vector<std::string> problems;
    const ResolvedCase c = resolve(GetParam(), problems);
    ASSERT_TRUE(problems.empty()) << problems.front();
    if (!c.known_difference.empty()) GTEST_SKIP() << "known difference: " << c.known_difference;
    const Daemon* daemon = daemon_named(c.daemon);
    ASSERT_NE(daemon, nullptr) << GetParam().name << ": no daemon '" << c.daemon << "'";
    const http::Request request = request_of(c.request, daemon->network->store().network());

    const http::Response response = answer_of(*daemon->router, request);

    EXPECT_TRUE(answers_as_expected(c.expect, response))
        << GetParam().name << " (" << c.area << ", " << c.category << "; " << c.why
        << "): " << request.method << " " << shown(request.target);
}

INSTANTIATE_TEST_SUITE_P(BadInput, BadInputTest, testing::ValuesIn(table().cases),
                         [](const testing::TestParamInfo<BadInputCase>& info) {
                             return info.param.name;
                         });

TEST(BadInputCorpus, IsWellFormed) {
    std::vector<std::string> problems = table().problems;
    for (const BadInputCase& c : table().cases) (void)resolve(c, problems);

    std::string listed;
    for (const std::string& p : problems) listed += "\n  " + p;
    EXPECT_TRUE(problems.empty()) << corpus_file << ":" << listed;
}

TEST(BadInputCorpus, HasAtLeastThreeHundredCasesCoveringEveryArea) {
    std::map<std::string, int> per_area;
    std::vector<std::string> problems;
    for (const BadInputCase& c : table().cases) ++per_area[resolve(c, problems).area];

    EXPECT_GE(table().cases.size(), 300U);
    for (const char* area : {"ledger", "scan", "validator", "admin"})
        EXPECT_GT(per_area[area], 0) << area;
}

}  // namespace
}  // namespace cantonlite::bad_input_test
