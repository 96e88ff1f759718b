#pragma once
// TemplateId: a Daml template or interface, by package id, module and entity, with its package
// name.

#include <string>
#include <string_view>

namespace cantonlite::model {

struct TemplateId {
    std::string package_id;    // 64 hex digits
    std::string module_name;   // "Splice.Amulet"
    std::string entity_name;   // "Amulet"
    std::string package_name;  // "splice-amulet"

    // Package-id form, as every response writes it: "<package id>:<Module>:<Entity>".
    [[nodiscard]] std::string to_string() const;

    // "<Module>:<Entity>": the part that names the template across package versions.
    [[nodiscard]] std::string qualified_name() const;

    // True when both name the same template of the same package name (any package version).
    [[nodiscard]] bool same_template(const TemplateId& other) const;

    bool operator==(const TemplateId&) const = default;
};

}  // namespace cantonlite::model
