#include "cantonlite/model/network.hpp"

namespace cantonlite::model {

TemplateId Network::template_id(std::string_view package_name, std::string_view module_name,
                                std::string_view entity_name) const {
    return TemplateId{.package_id = Name(package_ids.at(std::string(package_name))),
                      .module_name = Name(module_name),
                      .entity_name = Name(entity_name),
                      .package_name = Name(package_name)};
}

const User* Network::find_user(std::string_view id) const {
    for (const User& u : users) {
        if (u.id == id) return &u;
    }
    return nullptr;
}

std::map<std::string, std::string> default_package_ids() {
    const std::string amulet = "dbeda50efee6c5e53959638ef5422116723a9a6137fcdd4d2d82544291726a88";
    const std::string wallet = "10c31d3a0cdb5deea37c93f1c664866a4e3f5da88406805a7defb8b8de685bfc";
    return {
        {"splice-amulet", amulet},
        {"splice-amulet-name-service",
         "6159bb3accbf71406a8749f5e687a650e9c5422228b56d8cc0e9b174233f80c8"},
        {"splice-wallet", wallet},
        {"splice-dso-governance",
         "3b372c1b3665da6b09b69a0c89d9c721ef06ebbab88f08541b2a6ff2c3450ef3"},
        // The token standard's interface packages (1.0.0), implemented by splice-amulet.
        {"splice-api-token-holding-v1",
         "718a0f77e505a8de22f188bd4c87fe74101274e9d4cb1bfac7d09aec7158d35b"},
        {"splice-api-token-transfer-instruction-v1",
         "55ba4deb0ad4662c4168b39859738a0e91388d252286480c7331b3f71a517281"},
        {"splice-api-token-allocation-instruction-v1",
         "275064aacfe99cea72ee0c80563936129563776f67415ef9f13e4297eecbc520"},
        // Interfaces only: nothing here implements them, but the wallet SDK filters on them.
        {"splice-api-token-allocation-v1",
         "93c942ae2b4c2ba674fb152fe38473c507bda4e82b4e4c5da55a552a9d8cce1d"},
        {"splice-api-token-allocation-request-v1",
         "6fe848530b2404017c4a12874c956ad7d5c8a419ee9b040f96b5c13172d2e193"},
    };
}

}  // namespace cantonlite::model
