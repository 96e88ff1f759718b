#include "cantonlite/model/template_id.hpp"

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

}  // namespace cantonlite::model
