#pragma once
// The Daml interfaces the emulated Splice templates implement (the token standard's v1
// interfaces), and the view each implementation computes. Canton expands an interface filter to
// the templates implementing the interface and renders their views from these.

#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "cantonlite/model/contract.hpp"

namespace cantonlite::splice {

using model::Contract;
using model::QualifiedRef;
using model::TemplateId;

// One `interface instance I for T` of the emulated packages.
struct InterfaceInstance {
    QualifiedRef interface_ref;
    QualifiedRef template_ref;
    // The view of a T contract, in the Ledger API's JSON value encoding, computed from the
    // contract's createArgument; nullopt when the argument lacks a field the view reads.
    std::optional<std::string> (*view)(const Contract&);

    [[nodiscard]] bool implemented_by(const TemplateId& t) const {
        return template_ref.names(t.package_name, t.module_name, t.entity_name);
    }
};

// Every instance, grouped by interface.
[[nodiscard]] std::span<const InterfaceInstance> interface_instances();

// Whether `package:module:entity` names an interface of the token standard's v1 packages, which
// the network's participant has (implemented by an emulated template or not).
[[nodiscard]] bool is_known_interface(std::string_view package, std::string_view module,
                                      std::string_view entity);

// Daml's `show` of a Numeric, from its Ledger API string ("0.0038051800" -> "0.00380518",
// "1.0000000000" -> "1.0"): trailing zeros dropped, one fraction digit kept.
[[nodiscard]] std::string daml_show_numeric(std::string_view numeric);

}  // namespace cantonlite::splice
