#pragma once
// The request of POST /v2/updates/transaction-by-offset, decoded as Canton's JSON API decodes it.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cantonlite::areas::ledger {

// A template or interface reference "<package>:<Module.Path>:<Entity>" as written; the package part
// may be a package name reference "#name" or (rejected later by validation) a package id.
struct Identifier {
    std::string package;  // "#splice-amulet" or a package id
    std::string module_name;
    std::string entity_name;
};

// One entry of Filters.cumulative (openapi.yaml CumulativeFilter / IdentifierFilter).
struct CumulativeFilter {
    enum class Kind { empty, wildcard, template_filter, interface_filter };
    Kind kind = Kind::empty;
    std::optional<Identifier> identifier;  // templateId / interfaceId; absent when not given
    bool include_created_event_blob = false;
    bool include_interface_view = false;
};

struct Filters {
    std::vector<CumulativeFilter> cumulative;
};

struct EventFormat {
    std::map<std::string, Filters> filters_by_party;
    std::optional<Filters> filters_for_any_party;
    bool verbose = false;
};

enum class TransactionShape { unspecified, acs_delta, ledger_effects };

struct TransactionFormat {
    std::optional<EventFormat> event_format;
    TransactionShape transaction_shape = TransactionShape::unspecified;
};

// TopologyFormat: includeParticipantAuthorizationEvents, when set, with its parties ([] = all).
struct TopologyFormat {
    std::optional<std::vector<std::string>> participant_authorization_parties;
};

struct UpdateFormat {
    std::optional<TransactionFormat> include_transactions;
    std::optional<EventFormat> include_reassignments;
    std::optional<TopologyFormat> include_topology_events;
};

struct TransactionByOffsetRequest {
    std::int64_t offset = 0;                      // missing: 0 (the relaxed codec's default)
    std::vector<std::string> requesting_parties;  // missing or null: []
    std::optional<TransactionFormat> transaction_format;  // missing or null: none
};

// GetTransactionByIdRequest (Canton 3.5, deprecated): the same, found by the update id.
struct TransactionByIdRequest {
    std::string update_id;                        // missing: "" (the relaxed codec's default)
    std::vector<std::string> requesting_parties;  // missing or null: []
    std::optional<TransactionFormat> transaction_format;  // missing or null: none
};

// Decodes the body as Canton 3.5's JSON API does
// (../shared/docs/reference/canton-ledger-behavior.md §5.4): relaxed (missing
// Seq/Map/Option/Boolean/Long/String fields take their defaults, unknown fields are ignored), paths
// relative to the innermost relaxed object. Throws http::DecodeError whose what() is the whole
// text/plain body: "Invalid value for: body (<detail>)".
[[nodiscard]] TransactionByOffsetRequest decode_transaction_by_offset(std::string_view body);
[[nodiscard]] TransactionByIdRequest decode_transaction_by_id(std::string_view body);

}  // namespace cantonlite::areas::ledger
