#include "cantonlite/http/router.hpp"

#include <algorithm>
#include <cassert>
#include <iterator>

#include "cantonlite/http/path.hpp"

namespace cantonlite::http {
namespace {

Response route(const std::vector<std::unique_ptr<Area>>& areas, const Request& request) {
    const auto raw = [](char c) {
        const auto b = static_cast<unsigned char>(c);
        return b < 0x21 || b >= 0x7F;
    };
    if (std::any_of(request.target.begin(), request.target.end(), raw)) {
        return Response::text(400, "Illegal request-target: invalid character in path");
    }
    const auto segments = split_path(request.path());
    if (!segments) {
        return Response::text(400, "Illegal request-target: invalid percent-encoding in path");
    }
    // The segments without empty ones, for the areas that skip them (only where a path has any).
    std::vector<std::string> compact;
    const bool has_empty = std::any_of(segments->begin(), segments->end(),
                                       [](const std::string& s) { return s.empty(); });
    if (has_empty) {
        std::copy_if(segments->begin(), segments->end(), std::back_inserter(compact),
                     [](const std::string& s) { return !s.empty(); });
    }
    const auto segments_for = [&](const Area& area) -> const std::vector<std::string>& {
        return has_empty && area.skips_empty_segments() ? compact : *segments;
    };
    const Area* best = nullptr;
    for (const auto& area : areas) {
        if (area->serves(segments_for(*area)) &&
            (best == nullptr || area->prefix_length() > best->prefix_length())) {
            best = area.get();
        }
    }
    if (best == nullptr) return not_found_response(request);
    Response response = best->handle(request, segments_for(*best));
    response.area = best->prefix();
    return response;
}

}  // namespace

void Router::mount(std::unique_ptr<Area> area) {
    assert(std::none_of(areas_.begin(), areas_.end(),
                        [&](const auto& a) { return a->prefix() == area->prefix(); }));
    if (area->takes_faults()) {
        std::vector<std::pair<std::string, std::string>> routes;
        for (const auto& r : area->routes().routes()) routes.emplace_back(r.method, r.pattern);
        faults_->add_routes(routes);
        area->attach_faults(faults_);
    }
    if (gate_ != nullptr && area->reads_ledger()) area->attach_read_gate(gate_);
    areas_.push_back(std::move(area));
}

void Router::set_read_gate(util::SharedGate* gate) {
    gate_ = gate;
    for (const auto& area : areas_) {
        if (area->reads_ledger()) area->attach_read_gate(gate);
    }
}

void Router::add_host(std::string name, const Router* router) {
    hosts_.emplace_back(std::move(name), router);
}

Response Router::handle(const Request& request) const {
    if (!hosts_.empty()) {
        std::string_view host = request.header("Host").value_or("");
        if (const auto colon = host.rfind(':');
            colon != std::string_view::npos && host.find(']', colon) == std::string_view::npos) {
            host = host.substr(0, colon);
        }
        for (const auto& [name, router] : hosts_) {
            if (iequals(name, host)) return router->handle(request);
        }
        return not_found_response(request);
    }
    Response response = route(areas_, request);
    const auto traceparent = request.header("traceparent");
    if (!traceparent) return response;
    if (response.deferred) {
        response.deferred = [inner = std::move(response.deferred),
                             echo = std::string(*traceparent)](Response::Completion done) {
            inner([done = std::move(done), echo](Response r) {
                r.headers.push_back({"traceparent", echo});
                done(std::move(r));
            });
        };
    } else {
        response.headers.push_back({"traceparent", std::string(*traceparent)});
    }
    return response;
}

}  // namespace cantonlite::http
