#include "cantonlite/model/name_set.hpp"

#include "interner.hpp"

namespace cantonlite::model {
namespace {

// Never destroyed, like the Names it holds.
detail::Interner<Name>& table() {
    static auto* const sets = new detail::Interner<Name>;
    return *sets;
}

}  // namespace

void detail::release_retired_name_set_tables() {
    table().release_retired();
}

NameSet::NameSet(std::span<const Name> names) : id_(names.empty() ? 0 : table().intern(names)) {}

std::span<const Name> NameSet::names() const {
    return table().get(id_);
}

}  // namespace cantonlite::model
