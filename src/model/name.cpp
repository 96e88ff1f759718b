#include "cantonlite/model/name.hpp"

#include "interner.hpp"

namespace cantonlite::model {
namespace {

// Never destroyed: a Name may be read by any static's destructor.
detail::Interner<char>& name_table() {
    static auto* const names = new detail::Interner<char>;
    return *names;
}

}  // namespace

Name::Name(std::string_view text) : id_(text.empty() ? 0 : name_table().intern(text)) {}

std::optional<Name> Name::find(std::string_view text) {
    if (text.empty()) return Name();
    const auto id = name_table().find(text);
    if (!id) return std::nullopt;
    return from_id(*id);
}

void Name::intern_all(std::span<const std::string_view> texts, Name* out) {
    static_assert(sizeof(Name) == sizeof(std::uint32_t));
    std::vector<std::uint32_t> ids(texts.size());
    name_table().intern_all(texts, ids.data());
    for (std::size_t i = 0; i < ids.size(); ++i) out[i] = from_id(ids[i]);
}

void Name::reserve(std::size_t more) {
    name_table().reserve(more);
}

void Name::release_retired_tables() {
    name_table().release_retired();
    detail::release_retired_name_set_tables();
}

std::string_view Name::view() const {
    const auto text = name_table().get(id_);
    return {text.data(), text.size()};
}

}  // namespace cantonlite::model
