#include "cantonlite/areas/admin/admin_area.hpp"

#include <algorithm>
#include <cctype>
#include <exception>
#include <fstream>
#include <mutex>
#include <string>
#include <type_traits>

#include <openssl/crypto.h>
#include <spdlog/spdlog.h>

#include "cantonlite/http/json_nesting.hpp"
#include "cantonlite/model/timestamp.hpp"
#include "cantonlite/seed/state_file.hpp"
#include "cantonlite/util/whole_file.hpp"
#include "fault_rules_json.hpp"

namespace cantonlite::areas::admin {
namespace {

using http::ApiError;
using http::ErrorKind;

ErrorKind kind_of_status(int status) {
    switch (status) {
        case 400:
            return ErrorKind::invalid_argument;
        case 403:
            return ErrorKind::permission_denied;
        case 404:
            return ErrorKind::not_found;
        case 409:
            return ErrorKind::already_exists;
        case 503:
            return ErrorKind::unavailable;
        default:
            return ErrorKind::internal;
    }
}

// The request's body as JSON; an empty body is `empty`. Throws DecodeError.
nlohmann::json body_json(const http::Request& request, const nlohmann::json& empty) {
    if (request.body.empty()) return empty;
    if (http::nests_deeper_than(request.body)) {
        throw http::DecodeError("the body is not valid JSON: nesting deeper than " +
                                std::to_string(http::max_json_nesting) + " levels");
    }
    try {
        return nlohmann::json::parse(request.body);
    } catch (const nlohmann::json::exception& e) {
        throw http::DecodeError(std::string("the body is not valid JSON: ") + e.what());
    }
}

http::Response ok(const nlohmann::json& answer) {
    return http::Response::json(
        200, answer.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}

// The body of POST /time: exactly one of {"advance": "<ISO-8601 duration>"} and
// {"set": "<RFC 3339 time>"}.
seed::Written set_time(seed::LiveNetwork& network, const nlohmann::json& body) {
    if (!body.is_object()) throw http::DecodeError("the body must be a JSON object");
    for (const auto& [key, _] : body.items()) {
        if (key != "advance" && key != "set") {
            throw http::DecodeError("unknown key '" + key + "' (give advance or set)");
        }
    }
    if (body.contains("advance") == body.contains("set")) {
        throw http::DecodeError(
            R"(give exactly one of {"advance": "PT1H"} and {"set": "2025-01-01T00:00:00Z"})");
    }
    const std::string key = body.contains("advance") ? "advance" : "set";
    const nlohmann::json& value = body.at(key);
    if (!value.is_string()) throw http::DecodeError(key + " must be a string");
    const std::string& text = value.get_ref<const std::string&>();
    if (key == "advance") return network.advance_time(text);
    const auto t = model::parse_timestamp(text);
    if (!t) {
        throw http::DecodeError("set: '" + text +
                                "' is not an RFC 3339 time such as 2025-01-01T00:00:00Z");
    }
    return network.set_time(*t);
}

// Adds the rule of a POST /faults body; returns it as added (nothing matched yet). Throws
// DecodeError.
http::FaultRuleState add_fault(http::FaultTable& faults, const nlohmann::json& body) {
    http::FaultRuleState added{.rule = fault_rule_from_json(body)};
    try {
        added.id = faults.add(added.rule);
    } catch (const std::invalid_argument& e) {
        throw http::DecodeError(e.what());
    }
    return added;
}

}  // namespace

bool is_loopback_address(const std::string& address) {
    return address == "localhost" || address == "::1" || address == "[::1]" ||
           address.rfind("127.", 0) == 0;
}

AdminArea::AdminArea(seed::LiveNetwork& network, http::FaultTable& faults, AdminOptions options)
    : http::Area("/_cantonlite/v1/", "/_cantonlite/v1"),
      network_(network),
      faults_(faults),
      options_(std::move(options)) {
    route("POST", "/steps", [this](const http::RequestContext& ctx) {
        return run(
            [&] { return network_.apply_steps(body_json(ctx.request, nlohmann::json::array())); });
    });
    route("GET", "/time", [this](const http::RequestContext& /*ctx*/) {
        return run([&] { return network_.time(); });
    });
    route("POST", "/time", [this](const http::RequestContext& ctx) {
        return run([&] { return set_time(network_, body_json(ctx.request, nullptr)); });
    });
    route("GET", "/snapshots", [this](const http::RequestContext& /*ctx*/) {
        return run([&] {
            nlohmann::json answer = network_.snapshots();
            answer["persisted"] = persisted_snapshots();
            return answer;
        });
    });
    route("POST", "/snapshots", [this](const http::RequestContext& ctx) {
        return run([&] { return take_snapshot(body_json(ctx.request, nlohmann::json::object())); });
    });
    route("POST", "/snapshots/{id}/revert", [this](const http::RequestContext& ctx) {
        return run([&] {
            const std::string& id = ctx.params.get("id");
            // A persisted snapshot's name starts with a letter; an id is a number.
            if (valid_snapshot_name(id)) return revert_to_persisted(id);
            return network_.revert(id);
        });
    });
    route("GET", "/state", [this](const http::RequestContext& /*ctx*/) {
        // The network as it stands, as a state file (docs/state-files.md): `serve --load-state`
        // starts from it, POST /state loads it.
        http::Response r;
        r.content_type = "application/octet-stream";
        r.headers.push_back({"Content-Disposition", "attachment; filename=\"cantonlite.state\""});
        r.body = network_.state();
        return r;
    });
    route("POST", "/state", [this](const http::RequestContext& ctx) {
        return run(
            [&] { return network_.load_state_bytes(ctx.request.body, "the state file sent"); });
    });
    route("POST", "/reset", [this](const http::RequestContext& /*ctx*/) {
        return run([&] {
            seed::Written written = network_.reset();
            faults_.clear();
            return written;
        });
    });
    route("POST", "/faults", [this](const http::RequestContext& ctx) {
        return run(
            [&] { return fault_rule_json(add_fault(faults_, body_json(ctx.request, nullptr))); });
    });
    route("GET", "/faults", [this](const http::RequestContext& /*ctx*/) {
        return run([&] {
            nlohmann::json rules = nlohmann::json::array();
            for (const http::FaultRuleState& rule : faults_.rules()) {
                rules.push_back(fault_rule_json(rule));
            }
            return nlohmann::json{{"faults", std::move(rules)}};
        });
    });
    route("DELETE", "/faults", [this](const http::RequestContext& /*ctx*/) {
        return run([&] { return nlohmann::json{{"cleared", faults_.clear()}}; });
    });
    route("DELETE", "/faults/{id}", [this](const http::RequestContext& ctx) {
        return run([&] {
            const std::string& id = ctx.params.get("id");
            const bool digits =
                !id.empty() && id.size() < 20 &&
                std::all_of(id.begin(), id.end(), [](char c) { return c >= '0' && c <= '9'; });
            if (!digits || !faults_.remove(std::stoull(id))) {
                throw ApiError(ErrorKind::not_found, "", "no fault rule '" + id + "'");
            }
            return nlohmann::json{{"deleted", id}};
        });
    });
    route("GET", "/network", [this](const http::RequestContext& /*ctx*/) {
        const std::shared_lock lock(network_.gate());
        return http::Response::json(200, options_.describe(network_.store()));
    });
    route("GET", "/overview", [this](const http::RequestContext& /*ctx*/) {
        if (!options_.overview) throw ApiError(ErrorKind::not_found, "", "no overview here");
        const std::shared_lock lock(network_.gate());
        return http::Response::json(200, options_.overview(network_.store()));
    });
    route("GET", "/explore/{what}", [this](const http::RequestContext& ctx) {
        const std::string& what = ctx.params.get("what");
        if (!options_.explore) throw ApiError(ErrorKind::not_found, "", "no explorer here");
        const std::string key = ctx.request.query_param(what == "search" ? "q" : "id").value_or("");
        std::optional<std::string> found;
        {
            const std::shared_lock lock(network_.gate());
            try {
                found = options_.explore(network_.store(), what, key);
            } catch (const std::invalid_argument& e) {
                throw ApiError(ErrorKind::not_found, "", e.what());
            }
        }
        if (!found) {
            throw ApiError(ErrorKind::not_found, "",
                           what == "search" ? "nothing is named '" + key + "'"
                                            : "no " + what + " '" + key + "'");
        }
        return http::Response::json(200, std::move(*found));
    });
}

seed::Written AdminArea::take_snapshot(const nlohmann::json& body) {
    if (!body.is_object()) throw http::DecodeError("the body must be a JSON object");
    for (const auto& [key, _] : body.items()) {
        if (key != "name" && key != "persist")
            throw http::DecodeError("unknown key '" + key + "' (give name and persist)");
    }
    const nlohmann::json persist = body.value("persist", nlohmann::json(false));
    if (!persist.is_boolean()) throw http::DecodeError("persist must be true or false");
    if (!persist.get<bool>()) {
        if (body.contains("name"))
            throw http::DecodeError("a name is for a persisted snapshot: give persist: true too");
        return network_.take_snapshot();
    }
    const nlohmann::json name = body.value("name", nlohmann::json());
    if (!name.is_string() || !valid_snapshot_name(name.get<std::string>())) {
        throw http::DecodeError(
            "a persisted snapshot needs a name: a letter, then letters, digits, '.', '-' or '_' "
            "(at most 100)");
    }
    if (options_.state_dir.empty()) {
        throw http::DecodeError(
            "no state_dir is configured (--state-dir, CANTONLITE_STATE_DIR) to persist it in");
    }
    const std::filesystem::path file = snapshot_file(name.get<std::string>());
    std::error_code error;
    std::filesystem::create_directories(options_.state_dir, error);
    if (error)
        throw ApiError(ErrorKind::internal, "",
                       options_.state_dir.string() + ": " + error.message());
    auto [written, saved] = network_.take_snapshot_to_file(file);
    if (saved.error) throw ApiError(ErrorKind::internal, "", *saved.error);
    {
        const std::lock_guard lock(persisted_mutex_);
        persisted_[name.get<std::string>()] =
            Persisted{.snapshot_id = written.answer.at("id").get<std::string>(),
                      .header = std::move(saved.header),
                      .written = std::filesystem::last_write_time(file, error)};
    }
    written.answer["name"] = name;
    written.answer["file"] = file.string();
    return written;
}

std::optional<std::string> AdminArea::in_memory_snapshot(const std::string& name) const {
    Persisted persisted;
    {
        const std::lock_guard lock(persisted_mutex_);
        const auto it = persisted_.find(name);
        if (it == persisted_.end()) return std::nullopt;
        persisted = it->second;
    }
    const std::filesystem::path file = snapshot_file(name);
    std::error_code error;
    if (std::filesystem::last_write_time(file, error) != persisted.written || error)
        return std::nullopt;
    std::ifstream in(file, std::ios::binary);
    std::string header(persisted.header.size(), '\0');
    if (!in.read(header.data(), static_cast<std::streamsize>(header.size())) ||
        header != persisted.header)
        return std::nullopt;
    return persisted.snapshot_id;
}

seed::Written AdminArea::revert_to_persisted(const std::string& name) {
    if (const auto id = in_memory_snapshot(name)) {
        try {
            seed::Written written = network_.revert(*id);
            written.answer["name"] = name;
            return written;
        } catch (const seed::WriteError& e) {
            if (e.status() != 404) throw;  // a revert or reset dropped it since: load the file
        }
    }
    const std::filesystem::path file = snapshot_file(name);
    // Mapped under a read lease (no other process can truncate it while it loads), else read:
    // reading a 37 MB file took a fifth of the revert.
    std::optional<util::MappedFile> mapped;
    std::optional<util::FileBytes> read;
    if (!options_.state_dir.empty()) {
        mapped = util::MappedFile::open_leased(file);
        if (!mapped) read = util::read_file_bytes(file);
    }
    if (!mapped && !read) {
        throw ApiError(ErrorKind::not_found, "",
                       "no snapshot '" + name + "'" +
                           (options_.state_dir.empty() ? " (no state_dir is configured)"
                                                       : " in " + options_.state_dir.string()));
    }
    seed::Written written =
        network_.load_state_bytes(mapped ? mapped->bytes() : read->view(), file.string());
    written.answer["name"] = name;
    return written;
}

nlohmann::json AdminArea::persisted_snapshots() const {
    nlohmann::json out = nlohmann::json::array();
    std::error_code error;
    if (options_.state_dir.empty() || !std::filesystem::is_directory(options_.state_dir, error))
        return out;
    std::vector<std::pair<std::string, std::uintmax_t>> found;
    for (const auto& entry : std::filesystem::directory_iterator(options_.state_dir, error)) {
        const std::string stem = entry.path().stem().string();
        if (entry.path().extension() == ".state" && valid_snapshot_name(stem))
            found.emplace_back(stem, entry.file_size(error));
    }
    std::sort(found.begin(), found.end());
    for (const auto& [name, bytes] : found) out.push_back({{"name", name}, {"bytes", bytes}});
    return out;
}

std::filesystem::path AdminArea::snapshot_file(const std::string& name) const {
    return options_.state_dir / (name + ".state");
}

bool valid_snapshot_name(std::string_view name) {
    return !name.empty() && name.size() <= 100 &&
           std::isalpha(static_cast<unsigned char>(name[0])) &&
           std::all_of(name.begin(), name.end(), [](char c) {
               return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' ||
                      c == '_';
           });
}

void AdminArea::route(std::string method, std::string_view path, http::Handler handler) {
    // Every route of the admin API takes the admin token (or a loopback listener), before its
    // handler reads anything.
    add_route(std::move(method), path,
              [this, handler = std::move(handler)](const http::RequestContext& ctx) {
                  authorize(ctx.request);
                  return handler(ctx);
              });
}

void AdminArea::authorize(const http::Request& request) const {
    if (options_.open) return;
    if (options_.token.empty()) {
        throw ApiError(ErrorKind::permission_denied, "",
                       "the admin API is closed on a non-loopback listener: set admin.token "
                       "(CANTONLITE_ADMIN_TOKEN, --admin-token) and send it as a bearer token");
    }
    const auto given = request.bearer_token();
    if (!given || given->size() != options_.token.size() ||
        CRYPTO_memcmp(given->data(), options_.token.data(), given->size()) != 0) {
        throw ApiError(ErrorKind::permission_denied, "",
                       "this admin API needs the header Authorization: Bearer <admin.token>");
    }
}

template <class F>
http::Response AdminArea::run(F&& operation) const {
    try {
        auto result = operation();
        if constexpr (std::is_same_v<decltype(result), seed::Written>) {
            if (!result.ticket) return ok(result.answer);
            // Acknowledged once its journal record is durable; the io thread does not wait.
            http::Response pending;
            pending.deferred = [this,
                                written = std::move(result)](http::Response::Completion done) {
                network_.when_durable(written, [this, done = std::move(done),
                                                answer = written.answer](std::exception_ptr error) {
                    if (!error) return done(ok(answer));
                    try {
                        std::rethrow_exception(error);
                    } catch (const seed::WriteError& e) {  // the sync failed
                        spdlog::error("admin write: {}", e.what());
                        done(render_error(ApiError(kind_of_status(e.status()), "", e.what()), {}));
                    } catch (const std::exception& e) {
                        spdlog::error("admin write: {}", e.what());
                        done(render_error(ApiError(ErrorKind::internal, "", e.what()), {}));
                    }
                });
            };
            return pending;
        } else {
            return ok(result);
        }
    } catch (const seed::WriteError& e) {
        throw ApiError(kind_of_status(e.status()), "", e.what());
    }
}

http::Response AdminArea::render_error(const http::ApiError& error,
                                       const http::Request& /*request*/) const {
    return http::Response::json(http::http_status(error.kind()), http::error_body(error.what()));
}

http::Response AdminArea::render_decode_error(const http::DecodeError& error) const {
    return http::Response::json(400, http::error_body(error.what()));
}

}  // namespace cantonlite::areas::admin
