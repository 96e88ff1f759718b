#include "cantonlite/app/admin_client.hpp"

#include <charconv>
#include <istream>
#include <iterator>
#include <optional>
#include <ostream>
#include <utility>

#include <nlohmann/json.hpp>

#include "cantonlite/app/examples.hpp"
#include "cantonlite/app/exit_codes.hpp"
#include "cantonlite/http/request.hpp"
#include "cantonlite/net/http_client.hpp"
#include "cantonlite/seed/state_file.hpp"
#include "cantonlite/util/whole_file.hpp"

namespace cantonlite::app {
namespace {

using json = nlohmann::json;

constexpr std::string_view admin_prefix = "/_cantonlite/v1";
constexpr std::size_t max_error_chars = 1000;  // of a raw (non-JSON) error body

// One admin API call: method, path under admin_prefix, body ("" for none) and its type.
struct AdminCall {
    std::string method;
    std::string path;
    std::string body;
    std::string content_type = "application/json";
};

// The bytes of FILE. Throws UsageError (exit 2) when it cannot be read.
std::string read_file(const std::string& file) {
    std::optional<std::string> bytes = util::read_file(file);
    if (!bytes) throw UsageError(file + ": cannot be read");
    return std::move(*bytes);
}

[[noreturn]] void bad_url(std::string_view text, std::string_view source) {
    throw UsageError(std::string(source) + ": must look like http://HOST:PORT, got \"" +
                     std::string(text) + "\"");
}

std::uint16_t parse_port(std::string_view digits, std::string_view text, std::string_view source) {
    unsigned value = 0;
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
    if (digits.empty() || ec != std::errc() || end != digits.data() + digits.size() || value == 0 ||
        value > 65535) {
        throw UsageError(std::string(source) + ": the port must be from 1 to 65535, got \"" +
                         std::string(text) + "\"");
    }
    return static_cast<std::uint16_t>(value);
}

// `text` on one line: line breaks become spaces, the ends are trimmed, long texts are cut.
std::string one_line(std::string_view text, std::size_t max_chars) {
    std::string out;
    for (const char c : text) out += (c == '\n' || c == '\r') ? ' ' : c;
    const std::size_t begin = out.find_first_not_of(" \t");
    if (begin == std::string::npos) return "";
    out = out.substr(begin, out.find_last_not_of(" \t") - begin + 1);
    if (out.size() > max_chars) out = out.substr(0, max_chars) + "...";
    return out;
}

// What an error answer says: the message of an {"error": "..."} body, else the body itself.
std::string error_text(const std::string& body) {
    const json parsed = json::parse(body, nullptr, false);
    if (parsed.is_object() && parsed.contains("error") && parsed["error"].is_string()) {
        return one_line(parsed["error"].get_ref<const std::string&>(), std::string::npos);
    }
    const std::string raw = one_line(body, max_error_chars);
    return raw.empty() ? "(empty body)" : raw;
}

std::string env_value(const std::function<const char*(const char*)>& getenv, const char* name) {
    const char* value = getenv(name);
    return value == nullptr ? std::string() : std::string(value);
}

AdminUrl resolve_url(const CommandLine& cli,
                     const std::function<const char*(const char*)>& getenv) {
    if (cli.url) return parse_admin_url(*cli.url, "--url");
    const std::string env = env_value(getenv, "CANTONLITE_URL");
    if (!env.empty()) return parse_admin_url(env, "CANTONLITE_URL");
    return parse_admin_url(default_admin_url, "the default URL");
}

// The steps apply sends, as text: FILE's, or `in`'s for "-". Throws UsageError (exit 2) when the
// input cannot be read or is not one step object or an array of them.
std::string read_steps(const std::string& file, std::istream& in) {
    const bool from_stdin = file == "-";
    const std::string name = from_stdin ? "stdin" : file;
    std::string text;
    if (from_stdin) {
        text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
        if (in.bad()) throw UsageError(name + ": cannot be read");
    } else {
        text = read_file(file);
    }
    json steps;
    try {
        steps = json::parse(text);
    } catch (const json::exception& e) {  // parse_error, or out_of_range (1e400)
        throw UsageError(name + ": is not valid JSON: " + e.what());
    }
    if (!steps.is_object() && !steps.is_array()) {
        throw UsageError(name + ": must be one step (an object) or an array of steps");
    }
    return text;  // as written: the daemon reads the same numbers and strings
}

// The call of an admin command. Throws UsageError (exit 2) for apply's input.
AdminCall make_call(const CommandLine& cli, std::istream& in) {
    switch (cli.command) {
        case Command::apply:
            return {"POST", "/steps", read_steps(cli.file, in)};
        case Command::time:
            if (cli.advance) return {"POST", "/time", json{{"advance", *cli.advance}}.dump()};
            if (cli.set) return {"POST", "/time", json{{"set", *cli.set}}.dump()};
            return {"GET", "/time", ""};
        case Command::snapshot:
            return {"POST", "/snapshots", ""};
        case Command::revert:
            return {"POST", "/snapshots/" + encode_path_segment(cli.snapshot_id) + "/revert", ""};
        case Command::reset:
            return {"POST", "/reset", ""};
        case Command::state_save:
            return {"GET", "/state", ""};
        case Command::state_load:
            return {"POST", "/state", read_file(cli.file), "application/octet-stream"};
        default:
            break;
    }
    throw UsageError("not an admin command");
}

net::ClientRequest make_request(const AdminUrl& url, const AdminCall& call,
                                const std::optional<std::string>& token) {
    net::ClientRequest request{.method = call.method,
                               .host = url.host,
                               .port = url.port,
                               .target = url.base_path + std::string(admin_prefix) + call.path,
                               .headers = {{"Accept", "application/json"},
                                           {"User-Agent", "cantonlite/" CANTONLITE_VERSION}},
                               .body = call.body};
    if (!call.body.empty()) request.headers.push_back({"Content-Type", call.content_type});
    if (token) request.headers.push_back({"Authorization", "Bearer " + *token});
    return request;
}

// Prints a successful answer: the id of a new snapshot, or the JSON indented. Returns the exit
// code.
int print_answer(const CommandLine& cli, const net::ClientResponse& response, std::ostream& out,
                 std::ostream& err) {
    if (cli.command == Command::state_save) {  // the file, written whole or not at all
        if (!response.body.starts_with(seed::state_file_magic)) {
            err << "cantonlite: " << response.status << ": the answer is not a state file\n";
            return exit_failed;
        }
        if (const auto error = util::write_file_atomically(cli.file, response.body)) {
            err << "cantonlite: " << *error << '\n';
            return exit_failed;
        }
        out << cli.file << '\n';
        return out ? exit_ok : exit_failed;
    }
    const json answer = json::parse(response.body, nullptr, false);
    if (answer.is_discarded()) {
        err << "cantonlite: " << response.status
            << ": the answer is not JSON: " << one_line(response.body, max_error_chars) << '\n';
        return exit_failed;
    }
    if (cli.command == Command::snapshot) {
        const auto id = answer.is_object() ? answer.find("id") : answer.end();
        if (id == answer.end() || !(id->is_string() || id->is_number_integer())) {
            err << "cantonlite: " << response.status
                << ": the answer has no snapshot id: " << answer.dump() << '\n';
            return exit_failed;
        }
        out << (id->is_string() ? id->get<std::string>() : id->dump()) << '\n';
    } else {
        out << answer.dump(2, ' ', false, json::error_handler_t::replace) << '\n';
    }
    out.flush();
    return out ? exit_ok : exit_failed;
}

}  // namespace

AdminUrl parse_admin_url(std::string_view text, std::string_view source) {
    constexpr std::string_view http = "http://";
    constexpr std::string_view https = "https://";
    if (text.size() >= https.size() && http::iequals(text.substr(0, https.size()), https)) {
        throw UsageError(std::string(source) +
                         ": https is not supported; cantonlite serves plain HTTP");
    }
    if (text.size() < http.size() || !http::iequals(text.substr(0, http.size()), http))
        bad_url(text, source);
    if (text.find_first_of("?#") != std::string_view::npos) bad_url(text, source);

    AdminUrl url{.text = std::string(text)};
    std::string_view rest = text.substr(http.size());
    const std::size_t slash = rest.find('/');
    const std::string_view authority = rest.substr(0, slash);
    std::string_view path = slash == std::string_view::npos ? "" : rest.substr(slash);
    if (authority.find('@') != std::string_view::npos) bad_url(text, source);

    std::string_view port;
    bool has_port = false;
    if (authority.starts_with('[')) {  // [IPv6]
        const std::size_t close = authority.find(']');
        if (close == std::string_view::npos) bad_url(text, source);
        url.host = std::string(authority.substr(1, close - 1));
        const std::string_view after = authority.substr(close + 1);
        if (!after.empty()) {
            if (after.front() != ':') bad_url(text, source);
            port = after.substr(1);
            has_port = true;
        }
    } else {
        const std::size_t colon = authority.find(':');
        url.host = std::string(authority.substr(0, colon));
        if (colon != std::string_view::npos) {
            port = authority.substr(colon + 1);
            has_port = true;
        }
    }
    if (url.host.empty()) bad_url(text, source);
    if (has_port) url.port = parse_port(port, text, source);

    while (path.ends_with('/')) path.remove_suffix(1);
    url.base_path = std::string(path);
    return url;
}

int run_admin_command(const CommandLine& cli, std::istream& in, std::ostream& out,
                      std::ostream& err, const std::function<const char*(const char*)>& getenv) {
    AdminUrl url;
    AdminCall call;
    try {
        url = resolve_url(cli, getenv);
        call = make_call(cli, in);
    } catch (const UsageError& e) {
        err << "cantonlite: " << e.what() << '\n';
        return exit_usage;
    }
    std::optional<std::string> token = cli.token;
    if (!token) {
        if (std::string env = env_value(getenv, "CANTONLITE_ADMIN_TOKEN"); !env.empty()) {
            token = std::move(env);
        }
    }

    net::ClientResponse response;
    try {
        net::ClientOptions options;
        if (cli.command == Command::state_save) options.max_body_bytes = 64ULL << 30;  // any state
        response = net::send_request(make_request(url, call, token), options);
    } catch (const net::ClientError& e) {
        err << "cantonlite: cannot reach " << url.text << ": " << e.what() << '\n';
        return exit_failed;
    }
    if (response.status < 200 || response.status > 299) {
        err << "cantonlite: " << response.status << ": " << error_text(response.body) << '\n';
        return exit_failed;
    }
    return print_answer(cli, response, out, err);
}

}  // namespace cantonlite::app
