#include "cantonlite/interactive/prepared_transaction.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>

#include <google/protobuf/stubs/logging.h>

#include "cantonlite/interactive/wire_value.hpp"
#include "cantonlite/model/ids.hpp"
#include "cantonlite/model/packed_value.hpp"

namespace cantonlite::interactive {
namespace {

using model::Value;

// Daml-LF 2.1, the version of every Splice package's transactions.
constexpr const char* lf_version = "2.1";
// "00" and 64 hex digits.
constexpr std::size_t discriminator_chars = 66;

// `v` with each contract id `renamed` names replaced.
Value renamed(Value v, const std::map<std::string, std::string>& names) {
    if (v.kind == Value::Kind::contract_id) {
        if (const auto it = names.find(v.text); it != names.end()) v.text = it->second;
        return v;
    }
    for (Value& item : v.items) item = renamed(std::move(item), names);
    return v;
}

std::vector<std::string> sorted_unique(std::vector<std::string> parties) {
    std::sort(parties.begin(), parties.end());
    parties.erase(std::unique(parties.begin(), parties.end()), parties.end());
    return parties;
}

// A create's stakeholders: its signatories and observers, sorted as strings.
std::vector<std::string> stakeholders_of(const store::CreateDraft& c) {
    std::vector<std::string> all = c.signatories;
    all.insert(all.end(), c.observers.begin(), c.observers.end());
    return sorted_unique(std::move(all));
}

template <class Strings>
void set_all(google::protobuf::RepeatedPtrField<std::string>* out, const Strings& in) {
    for (const auto& s : in) out->Add(std::string(s));
}

void set_template(wire::Identifier* out, const model::TemplateId& t) {
    out->set_package_id(t.package_id.str());
    out->set_module_name(t.module_name.str());
    out->set_entity_name(t.entity_name.str());
}

// Sorted as strings, as Canton's encoder sorts every party list (clients hash them in this order).
std::vector<std::string> texts(const model::NameSet& names) {
    std::vector<std::string> out;
    for (const auto& n : names) out.emplace_back(n.str());
    return sorted_unique(std::move(out));
}

// The create node of a contract that exists (an input contract): its full id, no seed.
wire::Create input_create(const model::Contract& c) {
    wire::Create out;
    out.set_lf_version(lf_version);
    out.set_contract_id(c.contract_id.str());
    const model::TemplateId t = c.template_id();
    out.set_package_name(t.package_name.str());
    set_template(out.mutable_template_id(), t);
    *out.mutable_argument() = to_wire(model::unpack(c.argument));
    set_all(out.mutable_signatories(), texts(c.signatories));
    set_all(out.mutable_stakeholders(), texts(c.stakeholders));
    return out;
}

}  // namespace

void silence_protobuf_logs() {
    google::protobuf::SetLogHandler(nullptr);  // discards them
}

std::string unsuffixed_contract_id(const std::string& contract_id) {
    return contract_id.substr(0, std::min(contract_id.size(), discriminator_chars));
}

wire::PreparedTransaction encode_prepared(const store::TransactionDraft& d,
                                          const PrepareInputs& in) {
    // The contracts this transaction creates, under their unsuffixed ids, and their creates.
    std::map<std::string, std::string> created;
    std::map<std::string, const store::CreateDraft*> creates;
    std::vector<std::vector<std::size_t>> children(d.nodes.size());
    for (std::size_t i = 0; i < d.nodes.size(); ++i) {
        if (d.nodes[i].parent >= 0)
            children.at(static_cast<std::size_t>(d.nodes[i].parent)).push_back(i);
        if (const auto* c = std::get_if<store::CreateDraft>(&d.nodes[i].event)) {
            const std::string cid = d.contract_id_of(static_cast<int>(i));
            created.emplace(cid, unsuffixed_contract_id(cid));
            creates.emplace(cid, c);
        }
    }
    const auto id_of = [&](const std::string& cid) {
        const auto it = created.find(cid);
        return it == created.end() ? cid : it->second;
    };
    // A draft's value, given as a Value or packed already (the steps a large seed repeats).
    const auto wire_of = [&](const std::optional<model::PackedValue>& packed, const Value& v) {
        return to_wire(renamed(store::value_of(packed, v), created));
    };

    wire::PreparedTransaction out;
    wire::DamlTransaction& t = *out.mutable_transaction();
    t.set_version(lf_version);
    std::map<std::string, model::ContractPtr> inputs;  // by id: sorted, as the metadata wants
    // The stakeholders and signatories of an exercised contract: one created above, or an input.
    const auto exercised = [&](const std::string& cid, std::vector<std::string>& signatories,
                               std::vector<std::string>& stakeholders) {
        if (const auto it = creates.find(cid); it != creates.end()) {
            signatories = sorted_unique(it->second->signatories);
            stakeholders = stakeholders_of(*it->second);
            return;
        }
        model::ContractPtr contract = in.contract ? in.contract(cid) : nullptr;
        if (!contract) throw std::invalid_argument("no contract " + cid + " to prepare against");
        signatories = texts(contract->signatories);
        stakeholders = texts(contract->stakeholders);
        inputs.emplace(cid, std::move(contract));
    };
    for (std::size_t i = 0; i < d.nodes.size(); ++i) {
        const store::NodeDraft& node = d.nodes[i];
        const std::string id = std::to_string(i);
        if (node.parent < 0) t.add_roots(id);
        auto* versioned = t.add_nodes();
        versioned->set_node_id(id);
        wire::Node& n = *versioned->mutable_v1();
        // Each create and exercise has a seed: the uuid's, node by node.
        auto* seed = t.add_node_seeds();
        seed->set_node_id(static_cast<std::int32_t>(i));
        const auto digest = model::sha256("cantonlite-seed/" + in.transaction_uuid + "/" + id);
        seed->set_seed(std::string(reinterpret_cast<const char*>(digest.data()), digest.size()));
        if (const auto* c = std::get_if<store::CreateDraft>(&node.event)) {
            wire::Create& w = *n.mutable_create();
            w.set_lf_version(lf_version);
            w.set_contract_id(id_of(d.contract_id_of(static_cast<int>(i))));
            w.set_package_name(c->template_id.package_name.str());
            set_template(w.mutable_template_id(), c->template_id);
            *w.mutable_argument() = wire_of(c->packed_argument, c->argument);
            set_all(w.mutable_signatories(), sorted_unique(c->signatories));
            set_all(w.mutable_stakeholders(), stakeholders_of(*c));
            continue;
        }
        const auto& x = std::get<store::ExerciseDraft>(node.event);
        wire::Exercise& w = *n.mutable_exercise();
        w.set_lf_version(lf_version);
        w.set_contract_id(id_of(x.contract_id));
        w.set_package_name(x.template_id.package_name.str());
        set_template(w.mutable_template_id(), x.template_id);
        std::vector<std::string> signatories, stakeholders;
        exercised(x.contract_id, signatories, stakeholders);
        set_all(w.mutable_signatories(), signatories);
        set_all(w.mutable_stakeholders(), stakeholders);
        set_all(w.mutable_acting_parties(), sorted_unique(x.acting_parties));
        if (x.interface_id) set_template(w.mutable_interface_id(), *x.interface_id);
        w.set_choice_id(x.choice);
        *w.mutable_chosen_value() = wire_of(x.packed_argument, x.argument);
        w.set_consuming(x.consuming);
        for (const std::size_t child : children[i]) w.add_children(std::to_string(child));
        *w.mutable_exercise_result() = wire_of(x.packed_result, x.result);
    }

    wire::Metadata& m = *out.mutable_metadata();
    set_all(m.mutable_submitter_info()->mutable_act_as(), sorted_unique(in.act_as));
    m.mutable_submitter_info()->set_command_id(in.command_id);
    m.set_synchronizer_id(in.synchronizer_id);
    m.set_mediator_group(0);
    m.set_transaction_uuid(in.transaction_uuid);
    m.set_preparation_time(static_cast<std::uint64_t>(in.preparation_time.micros));
    if (in.min_ledger_effective_time)
        m.set_min_ledger_effective_time(
            static_cast<std::uint64_t>(in.min_ledger_effective_time->micros));
    if (in.max_ledger_effective_time)
        m.set_max_ledger_effective_time(
            static_cast<std::uint64_t>(in.max_ledger_effective_time->micros));
    if (in.max_record_time)
        m.set_max_record_time(static_cast<std::uint64_t>(in.max_record_time->micros));
    for (const auto& [cid, contract] : inputs) {
        auto* input = m.add_input_contracts();
        *input->mutable_v1() = input_create(*contract);
        input->set_created_at(static_cast<std::uint64_t>(contract->created_at.micros));
        if (const auto blob = model::base64_decode(model::created_event_blob(*contract)))
            input->set_event_blob(*blob);
    }
    return out;
}

}  // namespace cantonlite::interactive
