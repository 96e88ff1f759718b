#include "cantonlite/app/localnet.hpp"

#include <array>
#include <string_view>
#include <utility>

#include "cantonlite/areas/ledger/ledger_area.hpp"
#include "cantonlite/areas/scan/registry_area.hpp"
#include "cantonlite/areas/scan/scan_area.hpp"
#include "cantonlite/areas/validator/validator_area.hpp"

namespace cantonlite::app {
namespace {

struct Role {
    std::string_view name;  // as the seed's users name their validator
    int digit;              // LocalNet's host ports are <digit><port suffix>: 2975, 3903, 4000
};

constexpr std::array<Role, 3> roles{{{model::localnet_validators[0], 2},
                                     {model::localnet_validators[1], 3},
                                     {model::localnet_validators[2], 4}}};

std::uint16_t port_of(const Role& role, int suffix) {
    return static_cast<std::uint16_t>(role.digit * 1000 + suffix);
}

}  // namespace

LocalNet make_localnet(const store::LedgerStore& store, util::SharedGate& gate, http::Router& main,
                       const areas::ApiProfile& profile) {
    LocalNet out;
    const auto router = [&](std::unique_ptr<http::Area> area) {
        auto r = std::make_unique<http::Router>();
        r->use_faults(main.faults());
        if (area) r->mount(std::move(area));
        r->set_read_gate(&gate);
        out.routers.push_back(std::move(r));
        return out.routers.back().get();
    };
    const auto listen = [&](std::uint16_t port, const http::Router* r) {
        out.listeners.push_back({.port = port, .router = r});
    };
    for (const Role& role : roles) {
        const std::string who = " (" + std::string(role.name) + ")";
        // The participant's JSON Ledger API (PARTICIPANT_JSON_API_PORT 975) and the validator's
        // admin API (VALIDATOR_ADMIN_API_PORT 903), published on the host.
        http::Router* ledger = router(std::make_unique<areas::ledger::LedgerArea>(store, profile));
        http::Router* validator = router(
            std::make_unique<areas::validator::ValidatorArea>(store, std::string(role.name)));
        listen(port_of(role, 975), ledger);
        listen(port_of(role, 903), validator);
        const std::string base = "http://localhost:";
        out.endpoints.push_back(
            {base + std::to_string(port_of(role, 975)) + "/v2", "the JSON Ledger API" + who});
        out.endpoints.push_back({base + std::to_string(port_of(role, 903)) + "/api/validator",
                                 "the validator API: wallet, scan-proxy" + who});
        // nginx on the role's UI port (APP_USER_UI_PORT 2000, ...), routing by host name.
        http::Router* hosts = router(nullptr);
        const std::uint16_t ui = port_of(role, 0);
        const std::string on = ".localhost:" + std::to_string(ui);
        if (role.digit == 4) {
            http::Router* scan = router(std::make_unique<areas::scan::ScanArea>(store, profile));
            scan->mount(std::make_unique<areas::scan::RegistryArea>(store));  // Scan's root
            hosts->add_host("scan.localhost", scan);
            hosts->add_host("wallet.localhost", validator);
            hosts->add_host("canton.localhost", ledger);
            out.endpoints.push_back({"http://scan" + on + "/api/scan", "Scan"});
            out.endpoints.push_back(
                {"http://wallet" + on + "/api/validator", "the validator API" + who});
            out.endpoints.push_back({"http://canton" + on + "/v2", "the JSON Ledger API" + who});
        } else {
            for (const char* name : {"localhost", "wallet.localhost", "ans.localhost"}) {
                hosts->add_host(name, validator);
            }
            hosts->add_host("json-ledger-api.localhost", ledger);
            hosts->add_host("canton.localhost", ledger);
            out.endpoints.push_back(
                {"http://wallet" + on + "/api/validator", "the validator API" + who});
            out.endpoints.push_back(
                {"http://json-ledger-api" + on + "/v2", "the JSON Ledger API" + who});
        }
        listen(ui, hosts);
    }
    return out;
}

}  // namespace cantonlite::app
