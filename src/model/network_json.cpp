#include "cantonlite/model/network_json.hpp"

namespace cantonlite::model {

void to_json(nlohmann::ordered_json& j, const Lsu& lsu) {
    j = nlohmann::ordered_json::object();
    j["topologyFreezeTime"] = format_offset_date_time(lsu.topology_freeze_time);
    j["upgradeTime"] = format_offset_date_time(lsu.upgrade_time);
    j["successorPhysicalSynchronizerId"] = lsu.successor_physical_synchronizer_id;
}

}  // namespace cantonlite::model
