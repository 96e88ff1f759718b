#pragma once
// Router: sends each request to the area whose path prefix it carries.

#include <memory>
#include <shared_mutex>
#include <string>
#include <utility>
#include <vector>

#include "cantonlite/http/area.hpp"
#include "cantonlite/http/faults.hpp"
#include "cantonlite/http/request.hpp"
#include "cantonlite/http/response.hpp"
#include "cantonlite/util/shared_gate.hpp"

namespace cantonlite::http {

// The areas of one server, by path prefix ("/v2/", "/api/scan/", "/api/validator/").
// Built at start-up, then only read: handle() is safe from any number of threads.
class Router {
  public:
    // Adds an area; one that takes_faults() consults faults(). REQUIRES: start-up (before the
    // first handle()); no other area has its prefix.
    void mount(std::unique_ptr<Area> area);

    // Answers any request; never throws. An undecodable path is a 400 text/plain; a path under no
    // area's prefix is the real services' 404 JSON. A `traceparent` request header is echoed, as
    // the Splice apps do.
    [[nodiscard]] Response handle(const Request& request) const;

    [[nodiscard]] const std::vector<std::unique_ptr<Area>>& areas() const { return areas_; }

    // The ledger's readers/writers lock: held shared while a route of an area that
    // reads_ledger() answers, unless the route writes (Area::attach_read_gate), for the areas
    // mounted and to be mounted. REQUIRES: start-up; `gate` outlives the router.
    void set_read_gate(util::SharedGate* gate);

    // The faults a test asked for, on the routes of the areas that take them.
    [[nodiscard]] FaultTable& faults() { return *faults_; }
    // Makes this router's areas consult `table` (another router's), not a table of their own.
    // REQUIRES: start-up, before the first mount(); `table` outlives the router.
    void use_faults(FaultTable& table) { faults_ = &table; }

    // Name-based virtual hosts, as nginx's server_name: once any is added, a request goes whole
    // to the router of its Host (the name without its port, in any case), and a Host no router is
    // added for gets the real services' 404. REQUIRES: start-up; `router` outlives this one.
    void add_host(std::string name, const Router* router);

  private:
    std::vector<std::unique_ptr<Area>> areas_;
    util::SharedGate* gate_ = nullptr;
    FaultTable own_faults_;
    FaultTable* faults_ = &own_faults_;
    std::vector<std::pair<std::string, const Router*>> hosts_;  // compared case-insensitively
};

}  // namespace cantonlite::http
