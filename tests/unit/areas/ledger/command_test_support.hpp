#pragma once
// Test helper for the command service and interactive submission: the live default network with
// the contracts and commands their tests name (the AmuletRules, the transfer factory, the open
// round; a tap, a transfer through the factory).

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "areas/admin/admin_test_support.hpp"
#include "cantonlite/model/timestamp.hpp"
#include "cantonlite/splice/splice_views.hpp"

namespace cantonlite::areas::ledger::commandtest {

using nlohmann::json;

inline const std::string carol =
    "carol::12204c26d9074c27d89ede59270c0ac14b71e071b15239519f75474b2f3ba63481f5";
inline const std::string rules_template = "#splice-amulet:Splice.AmuletRules:AmuletRules";
inline const std::string factory_interface =
    "#splice-api-token-transfer-instruction-v1:Splice.Api.Token.TransferInstructionV1:"
    "TransferFactory";
inline const std::string instruction_interface =
    "#splice-api-token-transfer-instruction-v1:Splice.Api.Token.TransferInstructionV1:"
    "TransferInstruction";
inline const std::string offer_template =
    "#splice-wallet:Splice.Wallet.TransferOffer:TransferOffer";

class CommandFixture : public admin::admintest::LiveFixture {
  protected:
    const splice::SpliceViews& views() const { return splice::views(network_->store()); }
    std::string rules() const { return views().amulet_rules()->contract->contract_id.str(); }
    std::string factory() const {
        return views().external_party_amulet_rules()->contract->contract_id.str();
    }
    std::string round() const {
        return views()
            .latest_usable_open_round(network_->store().now())
            ->contract->contract_id.str();
    }
    std::string dso() const { return network_->store().network().dso_party; }
    std::string now_text(std::int64_t plus_seconds = 0) const {
        return model::format_instant(
            model::Timestamp{network_->store().now().micros + plus_seconds * 1'000'000});
    }
    std::vector<std::string> amulets_of(const std::string& party) const {
        std::vector<std::string> out;
        for (const auto& c : views().unlocked_amulets_of(party))
            out.push_back(c->contract_id.str());
        return out;
    }

    static json exercise(const std::string& template_id, const std::string& cid,
                         const std::string& choice, const json& argument) {
        return {{"ExerciseCommand",
                 {{"templateId", template_id},
                  {"contractId", cid},
                  {"choice", choice},
                  {"choiceArgument", argument}}}};
    }
    static json commands(const json& command, const std::string& act_as, const std::string& id,
                         const std::vector<std::string>& disclosed = {}) {
        json body{{"commands", json::array({command})}, {"commandId", id}, {"actAs", {act_as}}};
        if (!disclosed.empty()) {
            body["disclosedContracts"] = json::array();
            for (const std::string& cid : disclosed)
                body["disclosedContracts"].push_back(
                    {{"contractId", cid}, {"createdEventBlob", ""}});
        }
        return body;
    }
    json tap_command(const std::string& receiver, const std::string& amount) const {
        return exercise(rules_template, rules(), "AmuletRules_DevNet_Tap",
                        {{"receiver", receiver}, {"amount", amount}, {"openRound", round()}});
    }
    // A transfer through the registry's factory (TransferFactory_Transfer), `context` its choice
    // context's values.
    json factory_transfer(const std::string& sender, const std::string& receiver,
                          const std::string& amount, const std::vector<std::string>& inputs,
                          json context = json::object()) const {
        return exercise(factory_interface, factory(), "TransferFactory_Transfer",
                        {{"expectedAdmin", dso()},
                         {"transfer",
                          {{"sender", sender},
                           {"receiver", receiver},
                           {"amount", amount},
                           {"instrumentId", {{"admin", dso()}, {"id", "Amulet"}}},
                           {"requestedAt", now_text(-60)},
                           {"executeBefore", now_text(24 * 3600)},
                           {"inputHoldingCids", inputs},
                           {"meta", {{"values", json::object()}}}}},
                         {"extraArgs",
                          {{"context", {{"values", std::move(context)}}},
                           {"meta", {{"values", json::object()}}}}}});
    }
    static json error_of(const http::Response& r) { return json::parse(r.body); }
};

}  // namespace cantonlite::areas::ledger::commandtest
