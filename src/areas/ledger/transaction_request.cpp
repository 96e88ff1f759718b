#include "cantonlite/areas/ledger/transaction_request.hpp"

#include <nlohmann/json.hpp>

#include "cantonlite/areas/ledger/relaxed_json.hpp"

namespace cantonlite::areas::ledger {

using nlohmann::json;
using namespace relaxed;

TransactionByOffsetRequest decode_transaction_by_offset(std::string_view body) {
    const json value = parse_body(body);
    require_object(value, "offset");
    TransactionByOffsetRequest request;
    if (const json* offset = member(value, "offset"))
        request.offset = decode_long(*offset, "offset");
    request.requesting_parties =
        decode_strings(member(value, "requestingParties"), "requestingParties");
    request.transaction_format =
        optional_member(value, "transactionFormat", decode_transaction_format);
    return request;
}

TransactionByIdRequest decode_transaction_by_id(std::string_view body) {
    const json value = parse_body(body);
    require_object(value, "updateId");
    TransactionByIdRequest request;
    request.update_id = decode_string(member(value, "updateId"), "updateId");
    request.requesting_parties =
        decode_strings(member(value, "requestingParties"), "requestingParties");
    request.transaction_format =
        optional_member(value, "transactionFormat", decode_transaction_format);
    return request;
}

}  // namespace cantonlite::areas::ledger
