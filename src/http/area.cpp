#include "cantonlite/http/area.hpp"

#include <algorithm>
#include <exception>
#include <optional>
#include <shared_mutex>
#include <utility>

#include <spdlog/spdlog.h>

#include <nlohmann/json.hpp>
#include "cantonlite/http/path.hpp"

namespace cantonlite::http {
namespace {

std::string join(const std::vector<std::string>& items, std::string_view separator) {
    std::string out;
    for (const std::string& item : items) {
        if (!out.empty()) out += separator;
        out += item;
    }
    return out;
}

}  // namespace

std::string circe_json_string(std::string_view text) {
    // circe's Printer: `"`, `\`, \b \f \n \r \t, the other ISO control characters (U+0000-U+001F,
    // U+007F-U+009F) as \u00xx; everything else as UTF-8. Bytes that are not UTF-8 were decoded
    // by Java into U+FFFD before they reached a message.
    const std::string valid = nlohmann::json(text).dump(
        -1, ' ', false, nlohmann::json::error_handler_t::replace);  // "..." with U+FFFD
    std::string out;
    out.reserve(valid.size() + 8);
    for (std::size_t i = 0; i < valid.size(); ++i) {
        const auto c = static_cast<unsigned char>(valid[i]);
        if (c == 0x7F) {
            out += "\\u007f";
        } else if (c == 0xC2 && i + 1 < valid.size() &&
                   static_cast<unsigned char>(valid[i + 1]) >= 0x80 &&
                   static_cast<unsigned char>(valid[i + 1]) <= 0x9F) {
            static constexpr char hex[] = "0123456789abcdef";
            const auto low = static_cast<unsigned char>(valid[++i]);
            out += "\\u00";
            out += hex[low >> 4];
            out += hex[low & 0xF];
        } else {
            out += static_cast<char>(c);
        }
    }
    return out;
}

std::string error_body(std::string_view message, ErrorLayout layout) {
    std::string out = layout == ErrorLayout::indented ? "{\n  \"error\" : " : "{\"error\":";
    out += circe_json_string(message);
    out += layout == ErrorLayout::indented ? "\n}" : "}";
    return out;
}

std::string effective_uri(const Request& request) {
    const auto host = request.header("Host");
    return host ? "http://" + std::string(*host) + request.target : request.target;
}

Response not_found_response(const Request& request) {
    return Response::json(
        404, error_body("The requested resource could not be found: " + effective_uri(request),
                        ErrorLayout::indented));
}

Response method_not_allowed_response(const std::vector<std::string>& allowed) {
    Response response =
        Response::text(405, "HTTP method not allowed, supported methods: " + join(allowed, ", "));
    response.headers.push_back({"Allow", join(allowed, ", ")});
    return response;
}

Area::Area(std::string prefix, std::string base)
    : prefix_(std::move(prefix)),
      prefix_segments_(split_path(prefix_).value_or(std::vector<std::string>{})),
      base_(std::move(base)) {
    // A prefix names whole segments and ends with '/': "/api/scan/" -> {"api", "scan"}.
    if (!prefix_segments_.empty() && prefix_segments_.back().empty()) prefix_segments_.pop_back();
}

bool Area::serves(const std::vector<std::string>& segments) const {
    if (prefix_segments_.empty()) return true;  // the root area ("/"): every path, "/" too
    return segments.size() > prefix_segments_.size() &&
           std::equal(prefix_segments_.begin(), prefix_segments_.end(), segments.begin());
}

void Area::add_route(std::string method, std::string_view path, Handler handler, bool writes) {
    routes_.add(std::move(method), base_ + std::string(path), std::move(handler), writes);
}

Response Area::handle(const Request& request, const std::vector<std::string>& segments) const {
    const RouteTable::Match match = routes_.match(request.method, segments);
    if (match.handler == nullptr) return render_unmatched(request, match.allowed);
    std::optional<FaultDecision> fault;
    if (faults_ != nullptr && faults_->armed()) {
        fault = faults_->decide(request.method, *match.pattern, request.path());
    }
    Response response;
    if (fault && fault->reset) {
        response.reset = true;
    } else if (fault && fault->error_status != 0) {
        response = render_fault(fault->error_status, request, fault->rule);
    } else if (read_gate_ != nullptr && !match.writes) {
        // Every write whole or not at all (LiveNetwork); a write route takes the writers' side.
        const std::shared_lock lock(*read_gate_);
        response = answer(*match.handler, match.params, request);
    } else {
        response = answer(*match.handler, match.params, request);
    }
    if (fault) response.delay = fault->delay;
    response.route = *match.pattern;
    return response;
}

Response Area::render_unmatched(const Request& request,
                                const std::vector<std::string>& allowed) const {
    return allowed.empty() ? not_found_response(request) : method_not_allowed_response(allowed);
}

Response Area::render_fault(int status, const Request& request, std::uint64_t /*rule*/) const {
    // Splice's answers: Scan's rate limiter (HttpRateLimiter), the ErrorHandler's catch-all, and
    // Pekko's request timeout as HttpErrorHandler words it.
    switch (status) {
        case 429:
            return render_error(ApiError(ErrorKind::too_many_requests, "", "Too Many Requests"),
                                request);
        case 503:
            return render_error(
                ApiError(ErrorKind::unavailable, "",
                         "The server is taking too long to respond to the (" + request.method +
                             ") request at " + effective_uri(request)),
                request);
        default:
            return render_error(ApiError(ErrorKind::internal, "", "An unexpected error occurred."),
                                request);
    }
}

Response Area::answer(const Handler& handler, const PathParams& params,
                      const Request& request) const {
    try {
        return handler(RequestContext{.request = request, .params = params});
    } catch (const ApiError& e) {
        if (http_status(e.kind()) >= 500)
            spdlog::error("{} {}: {}", request.method, request.target, e.what());
        return render_error(e, request);
    } catch (const DecodeError& e) {
        return render_decode_error(e);
    } catch (const std::exception& e) {
        spdlog::error("{} {}: unexpected error: {}", request.method, request.target, e.what());
        return render_error(ApiError(ErrorKind::internal, "", "An unexpected error occurred."),
                            request);
    }
}

}  // namespace cantonlite::http
