#pragma once
// Area: one API family (ledger, scan, validator) with its route table and its error body shape.

#include <string>
#include <string_view>
#include <vector>

#include "cantonlite/http/api_error.hpp"
#include "cantonlite/http/faults.hpp"
#include "cantonlite/http/request.hpp"
#include "cantonlite/http/response.hpp"
#include "cantonlite/http/route_table.hpp"
#include "cantonlite/util/shared_gate.hpp"

namespace cantonlite::http {

// The base of the three areas. A subclass adds its routes in its constructor and says how its
// errors look; handle() is the one place where the area's handler errors are caught and rendered.
// Built at start-up, then only read: thread-safe for concurrent handle() calls.
class Area {
  public:
    // `prefix`: the path prefix the router sends here ("/api/scan/"). `base`: the server URL path
    // of the area's spec, prepended to every route pattern ("/api/scan"; "" for the ledger API).
    Area(std::string prefix, std::string base);
    virtual ~Area() = default;
    Area(const Area&) = delete;
    Area& operator=(const Area&) = delete;

    [[nodiscard]] const std::string& prefix() const { return prefix_; }

    // True when decoded path `segments` start with this area's prefix ("/api/sc%61n/…" does too).
    [[nodiscard]] bool serves(const std::vector<std::string>& segments) const;

    // The number of path segments of the prefix: the longest match wins.
    [[nodiscard]] std::size_t prefix_length() const { return prefix_segments_.size(); }
    [[nodiscard]] const RouteTable& routes() const { return routes_; }

    // True (the API areas) when the router must hold the ledger's readers' lock while this area
    // answers, so that a request sees every write whole or not at all; false for an area that
    // takes the lock itself (the admin API).
    [[nodiscard]] virtual bool reads_ledger() const { return true; }
    // The ledger's readers' lock, which handle() holds around each route's handler unless the
    // route writes (it takes the writers' side itself). REQUIRES: start-up, reads_ledger(); `gate`
    // outlives the area.
    void attach_read_gate(util::SharedGate* gate) { read_gate_ = gate; }
    // Whether empty path segments ("//v2/updates") are skipped, as tapir's server does (the ledger
    // API's), rather than kept, as Pekko's path directives do (the Splice apps').
    [[nodiscard]] virtual bool skips_empty_segments() const { return false; }

    // True (the API areas) when the faults a test asks for (the admin API's /faults) apply to
    // this area's routes; false for cantonlite's own (the admin API, /metrics), which must answer
    // while faults are set.
    [[nodiscard]] virtual bool takes_faults() const { return reads_ledger(); }

    // The faults to consult on each matched route. REQUIRES: start-up; `faults` outlives the area.
    void attach_faults(FaultTable* faults) { faults_ = faults; }

    // Answers a request whose path starts with prefix(); `segments` is its decoded path: the
    // route's handler, its errors rendered by the area. An area may wrap it (the Splice areas
    // compress as Pekko's encodeResponse). Never throws.
    [[nodiscard]] virtual Response handle(const Request& request,
                                          const std::vector<std::string>& segments) const;

  protected:
    // Adds `method base+path` (path as in the area's spec: "/v0/lsu"); `writes`: its handler
    // writes the ledger, and is not run under the readers' lock.
    void add_route(std::string method, std::string_view path, Handler handler, bool writes = false);

    // The area's body for a handler's ApiError (of `request`), and for a DecodeError.
    [[nodiscard]] virtual Response render_error(const ApiError& error,
                                                const Request& request) const = 0;
    [[nodiscard]] virtual Response render_decode_error(const DecodeError& error) const = 0;

    // The area's answer to a request no route takes: `allowed` lists the methods of the routes
    // whose pattern matches its path (empty: an unknown path). By default the Splice apps'
    // not_found_response() and method_not_allowed_response().
    [[nodiscard]] virtual Response render_unmatched(const Request& request,
                                                    const std::vector<std::string>& allowed) const;

    // The area's answer `status` (429, 500 or 503) that fault rule `rule` injects in place of the
    // route's own: by default the error of that status in render_error()'s shape, with the texts
    // the Splice apps answer.
    [[nodiscard]] virtual Response render_fault(int status, const Request& request,
                                                std::uint64_t rule) const;

  private:
    // The handler's answer, its errors rendered by the area.
    [[nodiscard]] Response answer(const Handler& handler, const PathParams& params,
                                  const Request& request) const;

    std::string prefix_;
    std::vector<std::string> prefix_segments_;
    std::string base_;
    RouteTable routes_;
    FaultTable* faults_ = nullptr;
    util::SharedGate* read_gate_ = nullptr;
};

// How circe prints the body {"error": message} of the Splice services: `compact` as guardrail
// marshals an error a handler returns ({"error":"..."}), `indented` as Json.toString (spaces2)
// prints the errors HttpErrorHandler catches and the not-found answer ({\n  "error" : "..."\n}).
enum class ErrorLayout { compact, indented };

// `text` as circe's printer writes a JSON string (quotes included): control characters, DEL and
// the C1 range as \u00xx escapes, bytes that are not UTF-8 as U+FFFD.
[[nodiscard]] std::string circe_json_string(std::string_view text);

// That body, serialized; bytes of the message that are not UTF-8 (a client's Host header) are
// written as U+FFFD.
[[nodiscard]] std::string error_body(std::string_view message,
                                     ErrorLayout layout = ErrorLayout::compact);

// 404 {"error" : "The requested resource could not be found: <uri>"} (indented), the real
// services' answer to a path no route matches; <uri> is the effective request URI
// ("http://<Host><target>").
[[nodiscard]] Response not_found_response(const Request& request);

// Pekko's effective request URI of `request`: "http://<Host><target>" (the target alone without a
// Host header).
[[nodiscard]] std::string effective_uri(const Request& request);

// 405 text/plain "HTTP method not allowed, supported methods: GET" with an Allow header.
[[nodiscard]] Response method_not_allowed_response(const std::vector<std::string>& allowed);

}  // namespace cantonlite::http
