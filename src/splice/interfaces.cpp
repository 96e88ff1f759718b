#include "cantonlite/splice/interfaces.hpp"

#include <algorithm>
#include <array>

#include <nlohmann/json.hpp>

#include "cantonlite/model/value_json.hpp"
#include "cantonlite/splice/templates.hpp"

namespace cantonlite::splice {
namespace {

using Json = nlohmann::ordered_json;

using model::value_json;
using model::ValueEncoding;
using templates::allocation_factory_v1;
using templates::amulet;
using templates::external_party_amulet_rules;
using templates::holding_v1;
using templates::locked_amulet;
using templates::transfer_factory_v1;

// The member at `path` of a Ledger API JSON record, or nullptr.
const Json* at(const Json& v, std::initializer_list<const char*> path) {
    const Json* cur = &v;
    for (const char* key : path) {
        if (!cur->is_object()) return nullptr;
        const auto it = cur->find(key);
        if (it == cur->end()) return nullptr;
        cur = &*it;
    }
    return cur;
}

std::optional<Json> parse_argument(const Contract& c) {
    Json v = Json::parse(value_json(c.argument, ValueEncoding::ledger), nullptr, false);
    if (v.is_discarded()) return std::nullopt;
    return v;
}

// Splice.Amulet's amuletInstrumentId and amuletMetadata, from an Amulet record.
std::optional<Json> amulet_holding_view(const Json& amulet) {
    const Json* dso = at(amulet, {"dso"});
    const Json* owner = at(amulet, {"owner"});
    const Json* amount = at(amulet, {"amount", "initialAmount"});
    const Json* round = at(amulet, {"amount", "createdAt", "number"});
    const Json* rate = at(amulet, {"amount", "ratePerRound", "rate"});
    if (!dso || !owner || !amount || !round || !rate || !rate->is_string()) return std::nullopt;
    Json values = Json::object();
    values["amulet.splice.lfdecentralizedtrust.org/created-in-round"] = *round;
    values["amulet.splice.lfdecentralizedtrust.org/rate-per-round"] =
        daml_show_numeric(rate->get<std::string>());
    Json view = Json::object();
    view["owner"] = *owner;
    view["instrumentId"] = Json{{"admin", *dso}, {"id", "Amulet"}};
    view["amount"] = *amount;
    view["lock"] = nullptr;
    view["meta"] = Json{{"values", std::move(values)}};
    return view;
}

std::optional<std::string> amulet_view(const Contract& c) {
    const auto argument = parse_argument(c);
    if (!argument) return std::nullopt;
    const auto view = amulet_holding_view(*argument);
    return view ? std::optional(view->dump()) : std::nullopt;
}

std::optional<std::string> locked_amulet_view(const Contract& c) {
    const auto argument = parse_argument(c);
    const Json* inner = argument ? at(*argument, {"amulet"}) : nullptr;
    auto view = inner ? amulet_holding_view(*inner) : std::nullopt;
    const Json* holders = argument ? at(*argument, {"lock", "holders"}) : nullptr;
    const Json* expires_at = argument ? at(*argument, {"lock", "expiresAt"}) : nullptr;
    if (!view || !holders || !expires_at) return std::nullopt;
    // optContext is a trailing None when absent: the encoder drops trailing Nones of a record
    // (canton-ledger-behavior.md §6), so the Lock's expiresAfter and context go with it.
    const Json* context = at(*argument, {"lock", "optContext"});
    Json lock = Json::object();
    lock["holders"] = *holders;
    lock["expiresAt"] = *expires_at;  // Some lock.expiresAt
    if (context && !context->is_null()) {
        lock["expiresAfter"] = nullptr;
        lock["context"] = *context;
    }
    (*view)["lock"] = std::move(lock);
    return view->dump();
}

// TransferFactoryView / AllocationFactoryView: admin = dso, meta = emptyMetadata.
std::optional<std::string> factory_view(const Contract& c) {
    const auto argument = parse_argument(c);
    const Json* dso = argument ? at(*argument, {"dso"}) : nullptr;
    if (!dso) return std::nullopt;
    Json view = Json::object();
    view["admin"] = *dso;
    view["meta"] = Json{{"values", Json::object()}};
    return view.dump();
}

// AmuletTransferInstruction's TransferInstructionView: no original instruction, the transfer as
// stored (its inputs the locked amulet), pending the receiver's acceptance, empty meta.
std::optional<std::string> transfer_instruction_view(const Contract& c) {
    const auto argument = parse_argument(c);
    const Json* transfer = argument ? at(*argument, {"transfer"}) : nullptr;
    if (!transfer) return std::nullopt;
    Json view = Json::object();
    view["originalInstructionCid"] = nullptr;
    view["transfer"] = *transfer;
    view["status"] = Json{{"tag", "TransferPendingReceiverAcceptance"}, {"value", Json::object()}};
    view["meta"] = Json{{"values", Json::object()}};
    return view.dump();
}

constexpr std::array instances{
    InterfaceInstance{holding_v1, amulet, &amulet_view},
    InterfaceInstance{holding_v1, locked_amulet, &locked_amulet_view},
    InterfaceInstance{transfer_factory_v1, external_party_amulet_rules, &factory_view},
    InterfaceInstance{templates::transfer_instruction_v1, templates::amulet_transfer_instruction,
                      &transfer_instruction_view},
    InterfaceInstance{allocation_factory_v1, external_party_amulet_rules, &factory_view},
};

}  // namespace

std::span<const InterfaceInstance> interface_instances() {
    return instances;
}

bool is_known_interface(std::string_view package, std::string_view module,
                        std::string_view entity) {
    // Every interface of the token standard's v1 packages, implemented here or not.
    constexpr std::array declared{templates::holding_v1,
                                  templates::transfer_factory_v1,
                                  templates::transfer_instruction_v1,
                                  templates::allocation_factory_v1,
                                  templates::allocation_instruction_v1,
                                  templates::allocation_v1,
                                  templates::allocation_request_v1};
    return std::any_of(declared.begin(), declared.end(),
                       [&](const QualifiedRef& i) { return i.names(package, module, entity); });
}

std::string daml_show_numeric(std::string_view numeric) {
    std::string s(numeric);
    const std::size_t point = s.find('.');
    if (point == std::string::npos) return s + ".0";
    const std::size_t last = s.find_last_not_of('0');
    s.erase(last + 1);
    if (s.back() == '.') s += '0';
    return s;
}

}  // namespace cantonlite::splice
