#include "cantonlite/areas/ledger/read_requests.hpp"

#include <limits>

#include <nlohmann/json.hpp>

#include "cantonlite/areas/ledger/relaxed_json.hpp"
#include "cantonlite/http/api_error.hpp"
#include "cantonlite/util/java_long.hpp"

namespace cantonlite::areas::ledger {
namespace {

using nlohmann::json;
using namespace relaxed;

std::optional<UpdateFormat> optional_update_format(const json& value) {
    return optional_member(value, "updateFormat", decode_update_format);
}

std::optional<EventFormat> optional_event_format(const json& value) {
    return optional_member(value, "eventFormat", decode_event_format);
}

std::optional<EventFormat> optional_filter(const json& value) {
    return optional_member(value, "filter", decode_transaction_filter);
}

// tapir's Codec[Long] of a query parameter: Java's Long.parseLong.
std::optional<std::int64_t> long_param(const http::Request& request, std::string_view name) {
    const auto text = request.query_param(name);
    if (!text) return std::nullopt;
    const auto value = util::java_parse_long(*text);
    if (!value) throw http::DecodeError("Invalid value for: query parameter " + std::string(name));
    return value;
}

}  // namespace

UpdateByOffsetRequest decode_update_by_offset(std::string_view body) {
    const json value = parse_body(body);
    require_object(value, "offset");
    UpdateByOffsetRequest request;
    if (const json* offset = member(value, "offset"))
        request.offset = decode_long(*offset, "offset");
    request.update_format = optional_update_format(value);
    return request;
}

UpdateByIdRequest decode_update_by_id(std::string_view body) {
    const json value = parse_body(body);
    require_object(value, "updateId");
    return UpdateByIdRequest{.update_id = decode_string(member(value, "updateId"), "updateId"),
                             .update_format = optional_update_format(value)};
}

UpdateByHashRequest decode_update_by_hash(std::string_view body) {
    const json value = parse_body(body);
    require_object(value, "transactionHash");
    return UpdateByHashRequest{
        .transaction_hash = decode_byte_string(member(value, "transactionHash"), "transactionHash"),
        .update_format = optional_update_format(value)};
}

UpdatesRequest decode_updates(std::string_view body) {
    const json value = parse_body(body);
    require_object(value, "beginExclusive");
    UpdatesRequest request;
    if (const json* begin = member(value, "beginExclusive"))
        request.begin_exclusive = decode_long(*begin, "beginExclusive");
    request.end_inclusive = decode_optional_long(member(value, "endInclusive"), "endInclusive");
    request.filter = optional_filter(value);
    request.verbose = decode_bool(member(value, "verbose"), "verbose");
    request.update_format = optional_update_format(value);
    request.descending_order = decode_bool(member(value, "descendingOrder"), "descendingOrder");
    return request;
}

UpdatesPageRequest decode_updates_page(std::string_view body) {
    const json value = parse_body(body);
    require_object(value, "beginOffsetExclusive");
    UpdatesPageRequest request;
    request.begin_offset_exclusive =
        decode_optional_long(member(value, "beginOffsetExclusive"), "beginOffsetExclusive");
    request.end_offset_inclusive =
        decode_optional_long(member(value, "endOffsetInclusive"), "endOffsetInclusive");
    request.max_page_size = decode_optional_int(member(value, "maxPageSize"), "maxPageSize");
    request.update_format = optional_update_format(value);
    request.descending_order = decode_bool(member(value, "descendingOrder"), "descendingOrder");
    request.page_token = decode_optional_string(member(value, "pageToken"), "pageToken");
    return request;
}

ActiveContractsRequest decode_active_contracts(std::string_view body) {
    const json value = parse_body(body);
    require_object(value, "filter");
    ActiveContractsRequest request;
    request.filter = optional_filter(value);
    request.verbose = decode_bool(member(value, "verbose"), "verbose");
    if (const json* at = member(value, "activeAtOffset"))
        request.active_at_offset = decode_long(*at, "activeAtOffset");
    request.event_format = optional_event_format(value);
    request.stream_continuation_token =
        decode_optional_string(member(value, "streamContinuationToken"), "streamContinuationToken");
    return request;
}

ActiveContractsPageRequest decode_active_contracts_page(std::string_view body) {
    const json value = parse_body(body);
    require_object(value, "activeAtOffset");
    ActiveContractsPageRequest request;
    request.active_at_offset =
        decode_optional_long(member(value, "activeAtOffset"), "activeAtOffset");
    request.event_format = optional_event_format(value);
    request.max_page_size = decode_optional_int(member(value, "maxPageSize"), "maxPageSize");
    request.page_token = decode_optional_string(member(value, "pageToken"), "pageToken");
    return request;
}

EventsByContractIdRequest decode_events_by_contract_id(std::string_view body) {
    const json value = parse_body(body);
    require_object(value, "contractId");
    return EventsByContractIdRequest{
        .contract_id = decode_string(member(value, "contractId"), "contractId"),
        .event_format = optional_event_format(value)};
}

std::optional<std::int32_t> decode_int_query_param(const http::Request& request,
                                                   std::string_view name) {
    const auto value = long_param(request, name);
    if (value && (*value < std::numeric_limits<std::int32_t>::min() ||
                  *value > std::numeric_limits<std::int32_t>::max())) {
        throw http::DecodeError("Invalid value for: query parameter " + std::string(name));
    }
    return value ? std::optional<std::int32_t>(static_cast<std::int32_t>(*value)) : std::nullopt;
}

StreamListParams decode_stream_list_params(const http::Request& request) {
    StreamListParams params;
    params.limit = long_param(request, "limit");
    params.stream_idle_timeout_ms = long_param(request, "stream_idle_timeout_ms");
    return params;
}

}  // namespace cantonlite::areas::ledger
