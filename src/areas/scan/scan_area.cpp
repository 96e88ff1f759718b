#include "cantonlite/areas/scan/scan_area.hpp"

#include "cantonlite/areas/scan/scan_handlers.hpp"

namespace cantonlite::areas::scan {

ScanArea::ScanArea(const store::LedgerStore& store, const ApiProfile& profile)
    : SpliceArea("/api/scan/", "/api/scan") {
    // Splice 0.9 removed the v0 and v1 holdings/state and state/acs (splice-0.9/SOURCE.md).
    const bool splice_0_6 = profile.release == Release::splice_0_6;
    const auto with_store = [&store](auto handler) {
        return [&store, handler](const http::RequestContext& ctx) { return handler(store, ctx); };
    };
    // scan.yaml, in the order of the spec's paths. Scan has no auth (splice-behavior.md §5.1): a
    // token is accepted and ignored.
    add_route("GET", "/livez", is_live);
    add_route("GET", "/v0/dso-party-id", with_store(get_dso_party_id));
    add_route("GET", "/v0/lsu", with_store(get_lsu));
    add_route("POST", "/v0/backfilling/import-updates", with_store(post_import_updates));
    add_route("POST", "/v2/updates", with_store(post_updates_v2));
    add_route("GET", "/v2/updates/{update_id}", with_store(get_update_by_id_v2));
    add_route("GET", "/v2/updates/hash/{hash}", with_store(get_update_by_hash));
    add_route("GET", "/v0/state/acs/snapshot-timestamp", with_store(get_snapshot_timestamp));
    add_route("GET", "/v0/state/acs/snapshot-timestamp-after",
              with_store(get_snapshot_timestamp_after));
    if (splice_0_6) {
        add_route("POST", "/v1/state/acs", with_store(post_state_acs_v1));
        add_route("POST", "/v0/holdings/state", with_store(post_holdings_state_v0));
        add_route("POST", "/v1/holdings/state", with_store(post_holdings_state_v1));
    } else {
        add_route("POST", "/v2/state/acs", with_store(post_state_acs_v2));
        add_route("POST", "/v2/holdings/state", with_store(post_holdings_state_v2));
    }
    add_route("POST", "/v0/holdings/summary", with_store(post_holdings_summary_v0));
    add_route("POST", "/v1/holdings/summary", with_store(post_holdings_summary_v1));
    add_route("POST", "/v0/open-and-issuing-mining-rounds",
              with_store(post_open_and_issuing_mining_rounds));
    add_route("POST", "/v0/amulet-rules", with_store(post_amulet_rules));
    add_route("GET", "/v0/featured-apps/{provider_party_id}", with_store(get_featured_app_right));
    add_route("GET", "/v0/ans-entries/by-name/{name}", with_store(get_ans_entry_by_name));
    add_route("GET", "/v0/transfer-command-counter/{party}",
              with_store(get_transfer_command_counter));
    add_route("GET", "/v0/transfer-preapprovals/by-party/{party}",
              with_store(get_transfer_preapproval));
    add_route("GET", "/v0/voterequests/{vote_request_contract_id}", with_store(get_vote_request));
    add_route("GET", "/v0/admin/sv/voterequests", with_store(list_vote_requests));
    add_route("GET", "/v0/history/bulk/acs", with_store(get_bulk_acs));
    add_route("POST", "/v0/history/bulk/updates", with_store(post_bulk_updates));
    if (!splice_0_6) {
        add_route("POST", "/v0/history/bulk/checksums", with_store(post_bulk_checksums));
        add_route("GET", "/v0/history/bulk/progress", with_store(get_bulk_progress));
    }
    // Not in scan.yaml: where its listings send clients
    // (BulkStorageObjects.objectKeyFromDownloadUrl).
    add_route("GET", "/v0/history/bulk/download/{object_key}", with_store(get_bulk_download));
}

}  // namespace cantonlite::areas::scan
