#pragma once
// Contract: one created contract, its argument kept once in packed form.

#include <memory>
#include <string>
#include <vector>

#include "cantonlite/model/name.hpp"
#include "cantonlite/model/name_set.hpp"
#include "cantonlite/model/packed_value.hpp"
#include "cantonlite/model/template_id.hpp"
#include "cantonlite/model/timestamp.hpp"
#include "cantonlite/model/value.hpp"

namespace cantonlite::model {

// Immutable after make_contract(); shared by pointer between the store's indexes and readers, so
// it may be read from any thread without a lock.
// 40 bytes, so that with its shared_ptr's counts it takes a heap block of 64: the template as a
// TemplateRef, the creating offset in 32 bits (a ledger holds fewer updates: LedgerStore).
struct Contract {
    Name contract_id;
    TemplateRef template_ref;
    NameSet signatories;               // sorted, unique
    NameSet stakeholders;              // signatories and observers, sorted, unique
    int created_node_id = 0;           // node of the create within its transaction
    std::uint32_t created_offset = 0;  // offset of the creating transaction
    Timestamp created_at;              // ledger effective time of the creating transaction

    // The create argument; each response writes the JSON encoding it serves from it
    // (model/value_json.hpp): Scan's create_arguments (codegen), Splice Contract.payload
    // (api_compressed), import updates (protobuf), the Ledger API's createArgument (ledger).
    PackedValue argument;

    [[nodiscard]] TemplateId template_id() const { return template_ref.get(); }
    // The observers: the stakeholders that are no signatory, sorted (not kept).
    [[nodiscard]] std::vector<Name> observers() const;
};
static_assert(sizeof(Contract) <= 40);

using ContractPtr = std::shared_ptr<const Contract>;

// The contract's created-event blob: base64, opaque to clients, the same on every call. Made on
// demand rather than stored: only a few responses carry it, and a ledger holds millions.
[[nodiscard]] std::string created_event_blob(const Contract& c);

// Builds a contract and packs its argument. Sorts and de-duplicates the parties.
// The same with the argument packed already.
[[nodiscard]] ContractPtr make_contract(std::string_view contract_id, TemplateId template_id,
                                        PackedValue argument,
                                        const std::vector<std::string>& signatories,
                                        const std::vector<std::string>& observers,
                                        Timestamp created_at, std::int64_t created_offset = 0,
                                        int created_node_id = 0);
[[nodiscard]] ContractPtr make_contract(std::string_view contract_id, TemplateId template_id,
                                        const Value& argument,
                                        const std::vector<std::string>& signatories,
                                        const std::vector<std::string>& observers,
                                        Timestamp created_at, std::int64_t created_offset = 0,
                                        int created_node_id = 0);

}  // namespace cantonlite::model
