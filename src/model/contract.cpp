#include "cantonlite/model/contract.hpp"

#include <algorithm>
#include <iterator>

#include "cantonlite/model/ids.hpp"
#include "cantonlite/model/value_json.hpp"

namespace cantonlite::model {
// An opaque blob in the spirit of the ledger's (a serialized contract instance): version,
// contract id, template id and the argument, so it is unique and stable for the contract.
std::string created_event_blob(const Contract& c) {
    return base64_encode(
        "\n\x03"
        "2.1\x12" +
        c.contract_id.str() + "\x1a" + c.template_id().to_string() + "\"" +
        value_json(c.argument, ValueEncoding::protobuf));
}

std::vector<Name> Contract::observers() const {
    std::vector<Name> out;
    std::set_difference(stakeholders.begin(), stakeholders.end(), signatories.begin(),
                        signatories.end(), std::back_inserter(out));
    return out;
}

ContractPtr make_contract(std::string_view contract_id, TemplateId template_id,
                          const Value& argument, const std::vector<std::string>& signatories,
                          const std::vector<std::string>& observers, Timestamp created_at,
                          std::int64_t created_offset, int created_node_id) {
    return make_contract(contract_id, std::move(template_id), pack(argument), signatories,
                         observers, created_at, created_offset, created_node_id);
}

ContractPtr make_contract(std::string_view contract_id, TemplateId template_id,
                          PackedValue argument, const std::vector<std::string>& signatories,
                          const std::vector<std::string>& observers, Timestamp created_at,
                          std::int64_t created_offset, int created_node_id) {
    auto c = std::make_shared<Contract>();
    c->contract_id = Name(contract_id);
    c->template_ref = TemplateRef(template_id);
    c->signatories = NameSet::sorted(signatories);
    const NameSet all_observers = NameSet::sorted(observers);
    std::vector<Name> stakeholders;
    stakeholders.reserve(c->signatories.size() + all_observers.size());
    std::set_union(c->signatories.begin(), c->signatories.end(), all_observers.begin(),
                   all_observers.end(), std::back_inserter(stakeholders));
    c->stakeholders = NameSet(stakeholders);
    c->created_at = created_at;
    c->created_offset = static_cast<std::uint32_t>(created_offset);
    c->created_node_id = created_node_id;
    c->argument = std::move(argument);
    return c;
}

}  // namespace cantonlite::model
