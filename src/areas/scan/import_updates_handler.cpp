// POST /v0/backfilling/import-updates (splice-behavior.md op 2).
#include "cantonlite/areas/scan/scan_handlers.hpp"
#include "cantonlite/areas/scan/scan_json.hpp"
#include "cantonlite/areas/splice_request.hpp"

namespace cantonlite::areas::scan {

http::Response post_import_updates(const Store& store, const Context& ctx) {
    const nlohmann::json body = json_body(ctx.request);
    const std::int64_t migration_id = int64_member(body, "migration_id");
    const std::string after = string_member(body, "after_update_id");
    const std::size_t limit = page_limit(int32_member(body, "limit"));
    std::string out = R"({"transactions":[)";
    bool first = true;
    for (const store::ImportUpdate& update : store.import_updates(migration_id, after, limit)) {
        if (!first) out += ',';
        first = false;
        append_import_update(out, update);
    }
    out += "]}";
    return http::Response::json(200, std::move(out));
}

}  // namespace cantonlite::areas::scan
