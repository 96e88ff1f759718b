#pragma once
// A transaction cantonlite interpreted, as the prepared transaction interactive submission answers
// (prepared_transaction.proto): its nodes in pre-order ("0", "1", …) with their seeds, the
// contracts it creates under their unsuffixed ids (the discriminator, as Canton prepares them:
// the suffix comes with the commit), every value in them likewise, and the metadata with the
// contracts it uses but does not create.

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "cantonlite/model/contract.hpp"
#include "cantonlite/model/timestamp.hpp"
#include "cantonlite/store/transaction_draft.hpp"
#include "prepared_transaction.pb.h"

namespace cantonlite::interactive {

struct PrepareInputs {
    std::vector<std::string> act_as;
    std::string command_id;
    std::string synchronizer_id;
    std::string transaction_uuid;  // also the seeds' salt
    model::Timestamp preparation_time;
    std::optional<model::Timestamp> min_ledger_effective_time;
    std::optional<model::Timestamp> max_ledger_effective_time;
    std::optional<model::Timestamp> max_record_time;
    // A contract the transaction uses and does not create (an exercised one), by id; null when
    // unknown.
    std::function<model::ContractPtr(const std::string&)> contract;
};

// A created contract's id in a prepared transaction: "00" and its 32-byte discriminator.
[[nodiscard]] std::string unsuffixed_contract_id(const std::string& contract_id);

// Throws std::invalid_argument for an exercise of a contract `contract` does not know.
[[nodiscard]] wire::PreparedTransaction encode_prepared(const store::TransactionDraft& draft,
                                                        const PrepareInputs& inputs);

// protobuf reports a refused parse (a string field that is not UTF-8) on stderr itself; a client's
// bad input is answered ("Cannot parse prepared_transaction"), not logged. Call once at start.
void silence_protobuf_logs();

}  // namespace cantonlite::interactive
