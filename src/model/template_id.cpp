#include "cantonlite/model/template_id.hpp"

#include <vector>

namespace cantonlite::model {

std::string TemplateId::to_string() const {
    return package_id.str().append(":").append(module_name).append(":").append(entity_name);
}

std::string TemplateId::qualified_name() const {
    return module_name.str().append(":").append(entity_name);
}

bool TemplateId::same_template(const TemplateId& other) const {
    return package_name == other.package_name && module_name == other.module_name &&
           entity_name == other.entity_name;
}

TemplateRef::TemplateRef(const TemplateId& id)
    : names_(std::vector<Name>{id.package_id, id.module_name, id.entity_name, id.package_name}) {}

TemplateId TemplateRef::get() const {
    if (names_.empty()) return {};
    return {.package_id = names_[0],
            .module_name = names_[1],
            .entity_name = names_[2],
            .package_name = names_[3]};
}

}  // namespace cantonlite::model
