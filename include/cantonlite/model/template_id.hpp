#pragma once
// TemplateId: a Daml template or interface, by package id, module and entity, with its package
// name.

#include <string>
#include <string_view>

#include "cantonlite/model/name.hpp"
#include "cantonlite/model/name_set.hpp"

namespace cantonlite::model {

// "<package name>:<Module>:<Entity>": a template or interface across its package's versions.
struct QualifiedRef {
    std::string_view package_name;
    std::string_view module_name;
    std::string_view entity_name;

    [[nodiscard]] bool names(std::string_view package, std::string_view module,
                             std::string_view entity) const {
        return package_name == package && module_name == module && entity_name == entity;
    }
};

// Its parts are interned: a ledger names a handful of templates millions of times, so an id is
// 16 bytes.
struct TemplateId {
    Name package_id;    // 64 hex digits
    Name module_name;   // "Splice.Amulet"
    Name entity_name;   // "Amulet"
    Name package_name;  // "splice-amulet"

    // Package-id form, as every response writes it: "<package id>:<Module>:<Entity>".
    [[nodiscard]] std::string to_string() const;

    // "<Module>:<Entity>": the part that names the template across package versions.
    [[nodiscard]] std::string qualified_name() const;

    // True when both name the same template of the same package name (any package version).
    [[nodiscard]] bool same_template(const TemplateId& other) const;

    bool operator==(const TemplateId&) const = default;
};

// A TemplateId in 4 bytes, for what a ledger keeps by the million (an exercise node names two):
// its four names interned as one sequence. The default is the default TemplateId.
class TemplateRef {
  public:
    TemplateRef() = default;
    explicit TemplateRef(const TemplateId& id);
    [[nodiscard]] TemplateId get() const;
    // A key for sets: equal ids, equal templates.
    [[nodiscard]] std::uint32_t id() const { return names_.id(); }
    bool operator==(const TemplateRef&) const = default;

  private:
    NameSet names_;
};

}  // namespace cantonlite::model

template <>
struct std::hash<cantonlite::model::TemplateRef> {
    std::size_t operator()(cantonlite::model::TemplateRef t) const noexcept { return t.id(); }
};
