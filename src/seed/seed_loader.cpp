#include "cantonlite/seed/seed_loader.hpp"

#include <fstream>
#include <sstream>

#include "cantonlite/model/json_fields.hpp"

namespace cantonlite::seed {
namespace {

using model::JsonObject;

model::Lsu parse_lsu(const JsonObject& o) {
    o.reject_unknown_keys(
        {"topology_freeze_time", "upgrade_time", "successor_physical_synchronizer_id"});
    return model::Lsu{
        .topology_freeze_time = o.timestamp("topology_freeze_time"),
        .upgrade_time = o.timestamp("upgrade_time"),
        .successor_physical_synchronizer_id = o.string("successor_physical_synchronizer_id"),
    };
}

model::Network parse_network(const JsonObject& o) {
    o.reject_unknown_keys({"dso_party", "lsu"});
    model::Network network{.dso_party = o.string("dso_party")};
    if (const auto lsu = o.optional_object("lsu")) network.lsu = parse_lsu(*lsu);
    return network;
}

}  // namespace

std::unique_ptr<store::LedgerStore> load_seed(const nlohmann::json& document,
                                              const std::string& source) {
    try {
        const JsonObject root(document, "");
        root.reject_unknown_keys({"network"});
        return std::make_unique<store::LedgerStore>(parse_network(root.object("network")));
    } catch (const model::JsonFieldError& e) {
        throw SeedError(source + ": " + e.what());
    }
}

std::unique_ptr<store::LedgerStore> load_seed_file(const std::filesystem::path& path) {
    std::ifstream in(path);
    if (!in) throw SeedError(path.string() + ": cannot be read");
    std::stringstream text;
    text << in.rdbuf();
    const nlohmann::json document = nlohmann::json::parse(text.str(), nullptr, false);
    if (document.is_discarded()) throw SeedError(path.string() + ": is not valid JSON");
    return load_seed(document, path.string());
}

}  // namespace cantonlite::seed
