#pragma once
// TransactionDraft: a transaction as a step compiles it, before the store commits it.

#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "cantonlite/model/ids.hpp"
#include "cantonlite/model/packed_value.hpp"
#include "cantonlite/model/template_id.hpp"
#include "cantonlite/model/timestamp.hpp"
#include "cantonlite/model/value.hpp"
#include "cantonlite/store/update.hpp"

namespace cantonlite::store {

struct CreateDraft {
    model::TemplateId template_id;
    model::Value argument;
    std::vector<Party> signatories;
    std::vector<Party> observers;
    // The argument packed already (a state file's, read back): then `argument` is not read.
    std::optional<model::PackedValue> packed_argument;
};

struct ExerciseDraft {
    std::string contract_id;
    model::TemplateId template_id;  // the template that defines the choice
    std::optional<model::TemplateId> interface_id;
    std::string choice;
    model::Value argument;
    bool consuming = false;
    std::vector<Party> acting_parties;
    model::Value result;
    // The argument and result packed already (a state file's): then the Values are not read.
    std::optional<model::PackedValue> packed_argument;
    std::optional<model::PackedValue> packed_result;
    // The contract is not in this ledger: a forked network's update exercises one that its
    // source's Scan never showed (cantonlite fork: Scan holds only what the DSO party sees).
    // The store then checks nothing of it and archives nothing; the node's stakeholders are
    // unknown (empty). REQUIRES: the ledger has no contract of that id.
    bool contract_unknown = false;
};

// A draft node's value, given as a Value or packed already (`packed`, when set, stands for
// `value`): as the store keeps it, or as a Value.
[[nodiscard]] model::PackedValue packed_of(const std::optional<model::PackedValue>& packed,
                                           const model::Value& value);
[[nodiscard]] model::Value value_of(const std::optional<model::PackedValue>& packed,
                                    const model::Value& value);

struct NodeDraft {
    int parent = -1;  // -1 for a root
    std::variant<CreateDraft, ExerciseDraft> event;
};

// The nodes of a transaction in pre-order, with the metadata of its submission. Node ids are
// indexes into `nodes`; the contract id a create node will get is known in advance
// (contract_id_of), so exercise results can name contracts created below them.
struct TransactionDraft {
    Offset offset = 0;          // LedgerStore::next_offset() at the time of the draft
    model::UpdateId update_id;  // LedgerStore::id_for(offset), unless keeps_update_id
    // The update keeps `update_id`, the id it had on the network it was forked from (cantonlite
    // fork), rather than one derived from its offset.
    bool keeps_update_id = false;
    std::string command_id;
    std::string workflow_id;
    std::vector<Party> submitters;
    model::Timestamp effective_at;
    model::Timestamp record_time;
    std::string synchronizer_id;
    std::optional<std::int64_t> paid_traffic_cost;
    std::string external_transaction_hash;  // 64 hex digits; interactive submission's execute
    std::vector<NodeDraft> nodes;
    // What the contract ids derive from, when not the update id: a prepared transaction's uuid,
    // so that the transaction interpreted again at execute creates the same contracts.
    std::string contract_id_salt;

    // Appends a node under `parent` (-1: a new root) and returns its node id.
    // REQUIRES: nodes are added depth-first (pre-order); `parent` is an exercise node.
    int add(int parent, std::variant<CreateDraft, ExerciseDraft> event);

    // Sets the result of an exercise node added earlier (results often name its children).
    void set_result(int node_id, model::Value result);
    // The same, packed already.
    void set_result(int node_id, model::PackedValue result);

    // The contract id the create node `node_id` will get (computed once, then remembered).
    [[nodiscard]] std::string contract_id_of(int node_id) const;

    // contract_id_of's memory, by node id ("" until asked). Public only so that the draft stays an
    // aggregate (designated initializers); not for callers.
    mutable std::vector<std::string> contract_id_cache;
};

}  // namespace cantonlite::store
