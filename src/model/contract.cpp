#include "cantonlite/model/contract.hpp"

#include <algorithm>

#include "cantonlite/model/ids.hpp"
#include "cantonlite/model/value_json.hpp"

namespace cantonlite::model {
// An opaque blob in the spirit of the ledger's (a serialized contract instance): version,
// contract id, template id and the argument, so it is unique and stable for the contract.
std::string created_event_blob(const Contract& c) {
    return base64_encode(
        "\n\x03"
        "2.1\x12" +
        c.contract_id.str() + "\x1a" + c.template_id.to_string() + "\"" +
        value_json(c.argument, ValueEncoding::protobuf));
}

ContractPtr make_contract(std::string_view contract_id, TemplateId template_id,
                          const Value& argument, std::vector<std::string> signatories,
                          std::vector<std::string> observers, Timestamp created_at,
                          std::int64_t created_offset, int created_node_id) {
    auto c = std::make_shared<Contract>();
    c->contract_id = Name(contract_id);
    c->template_id = std::move(template_id);
    c->signatories = NameSet::sorted(signatories);
    std::vector<Name> only_observers;
    for (const Name o : NameSet::sorted(observers)) {
        if (!c->signatories.contains(o)) only_observers.push_back(o);
    }
    c->observers = NameSet(only_observers);
    std::vector<Name> stakeholders;
    stakeholders.reserve(c->signatories.size() + c->observers.size());
    std::merge(c->signatories.begin(), c->signatories.end(), c->observers.begin(),
               c->observers.end(), std::back_inserter(stakeholders));
    c->stakeholders = NameSet(stakeholders);
    c->created_at = created_at;
    c->created_offset = created_offset;
    c->created_node_id = created_node_id;
    c->argument = pack(argument);
    return c;
}

}  // namespace cantonlite::model
