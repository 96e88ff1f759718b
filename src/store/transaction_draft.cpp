#include "cantonlite/store/transaction_draft.hpp"

#include <cassert>

#include "cantonlite/model/ids.hpp"

namespace cantonlite::store {

model::PackedValue packed_of(const std::optional<model::PackedValue>& packed,
                             const model::Value& value) {
    return packed ? *packed : model::pack(value);
}

model::Value value_of(const std::optional<model::PackedValue>& packed, const model::Value& value) {
    return packed ? model::unpack(*packed) : value;
}

int TransactionDraft::add(int parent, std::variant<CreateDraft, ExerciseDraft> event) {
    assert(parent < static_cast<int>(nodes.size()));
    // Room for a whole transfer (six nodes) and its kin at once, rather than four moves of the
    // nodes as the vector doubles.
    if (nodes.empty()) nodes.reserve(8);
    nodes.push_back(NodeDraft{.parent = parent, .event = std::move(event)});
    return static_cast<int>(nodes.size()) - 1;
}

void TransactionDraft::set_result(int node_id, model::Value result) {
    std::get<ExerciseDraft>(nodes.at(static_cast<std::size_t>(node_id)).event).result =
        std::move(result);
}

void TransactionDraft::set_result(int node_id, model::PackedValue result) {
    std::get<ExerciseDraft>(nodes.at(static_cast<std::size_t>(node_id)).event).packed_result =
        std::move(result);
}

std::string TransactionDraft::contract_id_of(int node_id) const {
    const auto index = static_cast<std::size_t>(node_id);
    if (contract_id_cache.size() <= index) contract_id_cache.resize(index + 1);
    if (contract_id_cache[index].empty())
        contract_id_cache[index] = contract_id_salt.empty()
                                       ? model::make_contract_id(update_id, node_id)
                                       : model::make_contract_id(contract_id_salt, node_id);
    return contract_id_cache[index];
}

}  // namespace cantonlite::store
