#include "cantonlite/model/contract.hpp"

#include <algorithm>

#include "cantonlite/model/ids.hpp"
#include "cantonlite/model/value_json.hpp"

namespace cantonlite::model {
namespace {

std::vector<std::string> sorted_unique(std::vector<std::string> parties) {
    std::sort(parties.begin(), parties.end());
    parties.erase(std::unique(parties.begin(), parties.end()), parties.end());
    return parties;
}

}  // namespace

// An opaque blob in the spirit of the ledger's (a serialized contract instance): version,
// contract id, template id and the argument, so it is unique and stable for the contract.
std::string created_event_blob(const Contract& c) {
    return base64_encode(
        "\n\x03"
        "2.1\x12" +
        c.contract_id + "\x1a" + c.template_id.to_string() + "\"" +
        value_json(c.argument, ValueEncoding::protobuf));
}

ContractPtr make_contract(std::string contract_id, TemplateId template_id, const Value& argument,
                          std::vector<std::string> signatories, std::vector<std::string> observers,
                          Timestamp created_at, std::int64_t created_offset, int created_node_id) {
    auto c = std::make_shared<Contract>();
    c->contract_id = std::move(contract_id);
    c->template_id = std::move(template_id);
    c->signatories = sorted_unique(std::move(signatories));
    std::vector<std::string> only_observers;
    for (auto& o : sorted_unique(std::move(observers))) {
        if (!std::binary_search(c->signatories.begin(), c->signatories.end(), o)) {
            only_observers.push_back(std::move(o));
        }
    }
    c->observers = std::move(only_observers);
    std::vector<std::string> all = c->signatories;
    all.insert(all.end(), c->observers.begin(), c->observers.end());
    c->stakeholders = sorted_unique(std::move(all));
    c->created_at = created_at;
    c->created_offset = created_offset;
    c->created_node_id = created_node_id;
    c->argument = pack(argument);
    return c;
}

}  // namespace cantonlite::model
