#include "cantonlite/model/contract.hpp"

#include <algorithm>

#include "cantonlite/model/ids.hpp"
#include "cantonlite/model/value_json.hpp"

namespace cantonlite::model {
namespace {

std::vector<Name> sorted_unique(const std::vector<std::string>& texts) {
    std::vector<Name> parties(texts.begin(), texts.end());
    std::sort(parties.begin(), parties.end());
    parties.erase(std::unique(parties.begin(), parties.end()), parties.end());
    parties.shrink_to_fit();
    return parties;
}

}  // namespace

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
    c->signatories = sorted_unique(signatories);
    for (const Name o : sorted_unique(observers)) {
        if (!std::binary_search(c->signatories.begin(), c->signatories.end(), o)) {
            c->observers.push_back(o);
        }
    }
    c->observers.shrink_to_fit();
    c->stakeholders.reserve(c->signatories.size() + c->observers.size());
    std::merge(c->signatories.begin(), c->signatories.end(), c->observers.begin(),
               c->observers.end(), std::back_inserter(c->stakeholders));
    c->created_at = created_at;
    c->created_offset = created_offset;
    c->created_node_id = created_node_id;
    c->argument = pack(argument);
    return c;
}

}  // namespace cantonlite::model
