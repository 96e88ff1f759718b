#pragma once
// The filter engine of the ledger's read side: the validation of an EventFormat / TransactionFormat
// (FormatValidator), the check of its identifiers against the participant's packages, and the
// Reader that decides which events a request sees and what it renders of them
// (../shared/docs/reference/canton-ledger-behavior.md §3.2, §3.3, §3.5).

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "cantonlite/areas/ledger/transaction_json.hpp"
#include "cantonlite/areas/ledger/transaction_request.hpp"
#include "cantonlite/model/contract.hpp"
#include "cantonlite/model/lf_type.hpp"
#include "cantonlite/store/ledger_store.hpp"

namespace cantonlite::areas::ledger {

// 400 INVALID_ARGUMENT "The submitted request has invalid arguments: <what>".
[[noreturn]] void throw_invalid_argument(const std::string& what);
// 400 INVALID_FIELD "The submitted command has a field with invalid value: Invalid field
// <field>: <message>" (FieldValidator.invalidField), context field_name.
[[noreturn]] void throw_invalid_field(const std::string& field, const std::string& message);
// 400 MISSING_FIELD "The submitted command is missing a mandatory field: <field>".
[[noreturn]] void throw_missing_field(const std::string& field);
// An update id's validation (requireNonEmptyString, requireLedgerString, UpdateId): 400
// MISSING_FIELD when empty, INVALID_ARGUMENT when not hex.
void check_update_id(const std::string& id);

using model::lf_party_error;

// FormatValidator.validate(EventFormat): both selectors empty, bad party keys, filters without
// their identifier, package-id references. Throws ApiError (400).
void validate_event_format(const EventFormat& events);
// FormatValidator.validate(TransactionFormat): shape, then event_format, then the event format.
// Returns the event format. Throws ApiError (400).
const EventFormat& validate_transaction_format(const TransactionFormat& format);

// checkUnknownIdentifiers: package names, templates and interfaces the participant does not know.
// Throws ApiError (404).
void check_known(const store::LedgerStore& store, const EventFormat& events);

// The parties an event format reads as (filtersByParty keys), for authorization.
[[nodiscard]] std::vector<std::string> parties_of(const EventFormat& events);

// What matching filters ask to be rendered of an event.
struct Projection {
    bool blob = false;
    std::vector<InterfaceView> interfaces;  // with includeInterfaceView, one per interface

    void add_interface(const InterfaceView& v);
    void add(const Projection& other);
};

// One party's filter, merged from its cumulative entries (FV validateFilters; an interface filter
// stands for the templates implementing the interface, EventProjectionProperties).
struct PartyFilter {
    struct ByInterface {
        InterfaceView view;  // the instance and its interface id, resolved once per request
        bool include_view;
        bool blob;
    };
    bool wildcard = false;
    bool wildcard_blob = false;
    std::map<std::string, bool, std::less<>>
        templates;  // "<package name>:<Module>:<Entity>" -> blob
    std::vector<ByInterface> interfaces;

    [[nodiscard]] std::optional<Projection> match(const model::TemplateId& t) const;
};

// A validated event format, resolved against the network: one filter per party and the any-party
// one. REQUIRES (make): the format passed validate_event_format and check_known.
struct Reader {
    std::map<std::string, PartyFilter, std::less<>> by_party;
    std::optional<PartyFilter> any_party;

    [[nodiscard]] static Reader make(const EventFormat& events, const model::Network& network);
};

// Whether one of the parties of the sorted list `sorted` is a reader's party.
[[nodiscard]] bool intersects(std::span<const model::Name> sorted, const Reader& r);

// The parties of `candidates` the reader asks for (all of them for an any-party reader).
[[nodiscard]] std::vector<model::Name> visible(std::span<const model::Name> candidates,
                                               const Reader& r);

// Whether a filter of one of `parties` matches `t`, and what those filters ask to render.
[[nodiscard]] std::optional<Projection> matches(const Reader& r,
                                                std::span<const model::Name> parties,
                                                const model::TemplateId& t);

// What `r` sees of `tx` in `shape`: its events in node order (none when nothing is visible).
[[nodiscard]] TransactionView project(const store::Transaction& tx, const Reader& r,
                                      TransactionShape shape);

// A contract as a stakeholder-based reader sees it outside a transaction (the ACS, reassignments,
// events by contract id): the stakeholders it may see and what its filters render; nullopt when
// no filter of a visible stakeholder matches the template.
struct ContractView {
    std::vector<model::Name> witness_parties;
    bool blob = false;
    std::vector<InterfaceView> interfaces;  // sorted by interface id
};
[[nodiscard]] std::optional<ContractView> view_contract(const Reader& r, const model::Contract& c);

}  // namespace cantonlite::areas::ledger
