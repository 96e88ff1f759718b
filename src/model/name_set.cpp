#include "cantonlite/model/name_set.hpp"

#include "interner.hpp"

namespace cantonlite::model {
namespace {

// Never destroyed, like the Names it holds.
detail::Interner<Name>& name_set_table() {
    static auto* const sets = new detail::Interner<Name>;
    return *sets;
}

}  // namespace

void detail::release_retired_name_set_tables() {
    name_set_table().release_retired();
}

NameSet::NameSet(std::span<const Name> names)
    : id_(names.empty() ? 0 : name_set_table().intern(names)) {}

std::span<const Name> NameSet::names() const {
    return name_set_table().get(id_);
}

}  // namespace cantonlite::model
