#pragma once
// The requests of the JSON Ledger API's read side (openapi.yaml: GetUpdateByOffsetRequest,
// GetUpdateByIdRequest, GetUpdatesRequest, GetUpdatesPageRequest, GetActiveContractsRequest,
// GetActiveContractsPageRequest, GetEventsByContractIdRequest), decoded as Canton's JSON API
// decodes them: relaxed (relaxed_json.hpp). Every decoder throws http::DecodeError.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "cantonlite/areas/ledger/transaction_request.hpp"
#include "cantonlite/http/request.hpp"

namespace cantonlite::areas::ledger {

struct UpdateByOffsetRequest {
    std::int64_t offset = 0;
    std::optional<UpdateFormat> update_format;
};

struct UpdateByIdRequest {
    std::string update_id;
    std::optional<UpdateFormat> update_format;
};

// GetUpdateByHashRequest (Canton 3.6): the hash's bytes.
struct UpdateByHashRequest {
    std::string transaction_hash;
    std::optional<UpdateFormat> update_format;
};

// LegacyDTOs.GetUpdatesRequest: the proto request plus the deprecated filter/verbose.
struct UpdatesRequest {
    std::int64_t begin_exclusive = 0;
    std::optional<std::int64_t> end_inclusive;
    std::optional<EventFormat> filter;  // TransactionFilter (no verbose of its own)
    bool verbose = false;
    std::optional<UpdateFormat> update_format;
    bool descending_order = false;
};

struct UpdatesPageRequest {
    std::optional<std::int64_t> begin_offset_exclusive;
    std::optional<std::int64_t> end_offset_inclusive;
    std::optional<std::int32_t> max_page_size;
    std::optional<UpdateFormat> update_format;
    bool descending_order = false;
    std::optional<std::string> page_token;  // base64 text
};

// LegacyDTOs.GetActiveContractsRequest.
struct ActiveContractsRequest {
    std::optional<EventFormat> filter;
    bool verbose = false;
    std::int64_t active_at_offset = 0;
    std::optional<EventFormat> event_format;
    std::optional<std::string> stream_continuation_token;  // base64 text
};

struct ActiveContractsPageRequest {
    std::optional<std::int64_t> active_at_offset;
    std::optional<EventFormat> event_format;
    std::optional<std::int32_t> max_page_size;
    std::optional<std::string> page_token;  // base64 text
};

struct EventsByContractIdRequest {
    std::string contract_id;
    std::optional<EventFormat> event_format;
};

// The query parameters of the HTTP list endpoints (Endpoints.inStreamListParamsAndDescription).
struct StreamListParams {
    std::optional<std::int64_t> limit;
    std::optional<std::int64_t> stream_idle_timeout_ms;
};

[[nodiscard]] UpdateByOffsetRequest decode_update_by_offset(std::string_view body);
[[nodiscard]] UpdateByIdRequest decode_update_by_id(std::string_view body);
[[nodiscard]] UpdateByHashRequest decode_update_by_hash(std::string_view body);
[[nodiscard]] UpdatesRequest decode_updates(std::string_view body);
[[nodiscard]] UpdatesPageRequest decode_updates_page(std::string_view body);
[[nodiscard]] ActiveContractsRequest decode_active_contracts(std::string_view body);
[[nodiscard]] ActiveContractsPageRequest decode_active_contracts_page(std::string_view body);
[[nodiscard]] EventsByContractIdRequest decode_events_by_contract_id(std::string_view body);
// "Invalid value for: query parameter limit" when a parameter is not a Long.
[[nodiscard]] StreamListParams decode_stream_list_params(const http::Request& request);

// An optional Int query parameter as tapir's Codec[Int] reads it (Integer.parseInt): 400 text
// "Invalid value for: query parameter <name>" otherwise.
[[nodiscard]] std::optional<std::int32_t> decode_int_query_param(const http::Request& request,
                                                                 std::string_view name);

}  // namespace cantonlite::areas::ledger
