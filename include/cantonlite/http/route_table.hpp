#pragma once
// RouteTable: the routes of one area, matched by method and percent-decoded path segments.

#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cantonlite/http/request.hpp"
#include "cantonlite/http/response.hpp"

namespace cantonlite::http {

// The decoded values of a route's {param} segments.
class PathParams {
  public:
    void add(std::string name, std::string value);

    // The value of parameter `name`. REQUIRES: the matched route declares {name}.
    [[nodiscard]] const std::string& get(std::string_view name) const;

  private:
    std::vector<std::pair<std::string, std::string>> values_;
};

// What a handler sees of one request.
struct RequestContext {
    const Request& request;
    const PathParams& params;
};

using Handler = std::function<Response(const RequestContext&)>;

// A list of (method, path pattern, handler). Patterns are paths whose segments are literals or
// "{name}" parameters: "/api/scan/v0/voterequests/{vote_request_contract_id}". Built at start-up,
// then only read: concurrent match() calls are safe.
class RouteTable {
  public:
    struct Route {
        std::string method;
        std::string pattern;
        std::vector<std::string> segments;  // "{name}" for parameters
        Handler handler;
        // The handler writes the ledger, taking the writers' lock itself: the router must not
        // hold the readers' lock around it.
        bool writes = false;
    };

    // The outcome of a lookup. handler is set when a route matched; otherwise `allowed` lists the
    // methods of the routes whose pattern matches the path (empty: the path is unknown).
    struct Match {
        const Handler* handler = nullptr;
        const std::string* pattern = nullptr;  // the matched route's pattern, with handler
        PathParams params;
        std::vector<std::string> allowed;
        bool writes = false;  // the matched route's
    };

    // Adds a route. Throws std::invalid_argument for a pattern that does not start with '/', an
    // empty or malformed segment, or a (method, pattern) pair that is already there.
    void add(std::string method, std::string pattern, Handler handler, bool writes = false);

    // Looks up decoded path segments. Where several patterns match, the most specific wins: the one
    // with a literal at the first segment where they differ.
    [[nodiscard]] Match match(std::string_view method,
                              const std::vector<std::string>& segments) const;

    [[nodiscard]] const std::vector<Route>& routes() const { return routes_; }

  private:
    std::vector<Route> routes_;
};

}  // namespace cantonlite::http
