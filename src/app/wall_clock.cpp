#include "cantonlite/app/wall_clock.hpp"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "cantonlite/model/packed_value.hpp"
#include "cantonlite/splice/splice_views.hpp"

namespace cantonlite::app {
namespace {

constexpr std::int64_t micros_per_second = 1'000'000;

// A round's opensAt and targetClosesAt as its payload has them (micros).
bool open_at(const model::Contract& round, model::Timestamp t) {
    const model::Value v = model::unpack(round.argument);
    std::int64_t opens = 0;
    std::int64_t closes = 0;
    for (std::size_t i = 0; i < v.labels.size(); ++i) {
        if (v.labels[i] == "opensAt") opens = v.items[i].number;
        if (v.labels[i] == "targetClosesAt") closes = v.items[i].number;
    }
    return opens <= t.micros && t.micros < closes;
}

}  // namespace

model::Timestamp start_at_wall_clock(seed::LiveNetwork& network, model::Timestamp wall) {
    const model::Timestamp second{wall.micros / micros_per_second * micros_per_second};
    if (network.store().now() < second) (void)network.set_time(second);
    const model::Timestamp t = network.store().now();
    const auto rounds = splice::views(network.store()).open_rounds();
    if (std::none_of(rounds.begin(), rounds.end(),
                     [&](const store::ContractState& r) { return open_at(*r.contract, t); })) {
        (void)network.apply_steps(nlohmann::json{
            {"step", "open_mining_round"},
            {"opens_at",
             model::format_instant(model::Timestamp{t.micros - 60 * micros_per_second})},
            {"target_closes_at",
             model::format_instant(model::Timestamp{t.micros + 24 * 3600 * micros_per_second})}});
    }
    return network.store().now();
}

}  // namespace cantonlite::app
