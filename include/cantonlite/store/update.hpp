#pragma once
// The updates of the history: transactions (trees of created and exercised nodes), reassignments
// and migrations. Immutable once appended; shared by pointer with readers.

#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "cantonlite/model/contract.hpp"
#include "cantonlite/model/ids.hpp"
#include "cantonlite/model/name_set.hpp"
#include "cantonlite/model/packed_value.hpp"
#include "cantonlite/model/template_id.hpp"
#include "cantonlite/model/timestamp.hpp"
#include "cantonlite/model/value.hpp"

namespace cantonlite::store {

using Offset = std::int64_t;
using Party = std::string;
using model::Name;

// A node that creates a contract.
struct CreatedNode {
    model::ContractPtr contract;
};

// A node that exercises a choice on a contract.
// 72 bytes, so that its heap block is 80 (a mint has one): the exercised contract's stakeholders
// rather than the contract, and the interface as a TemplateId with a flag.
struct ExercisedNode {
    Name contract_id;
    model::TemplateId template_id;  // the template that defines the choice
    model::TemplateId interface;    // the interface it was exercised through, if has_interface
    Name choice;
    model::PackedValue choice_argument;
    bool consuming = false;
    bool has_interface = false;
    model::NameSet acting_parties;  // sorted
    model::PackedValue exercise_result;
    model::NameSet stakeholders;  // the exercised contract's
    int last_descendant = 0;      // the largest node id of this node's subtree (itself if none)

    [[nodiscard]] std::optional<model::TemplateId> interface_id() const {
        return has_interface ? std::optional(interface) : std::nullopt;
    }
};
static_assert(sizeof(ExercisedNode) <= 72);

// One node of a transaction. An exercise is boxed: it is ten times the size of a create, and
// most nodes of a ledger are creates. The transaction owns it (readers share the transaction).
struct Node {
    std::variant<CreatedNode, std::unique_ptr<ExercisedNode>> event;
    int node_id = 0;  // pre-order index within the transaction (after the event: 32 bytes, not 40)
    // Parties that see this node (LEDGER_EFFECTS): its informees and those of its ancestors.
    // Sorted.
    model::NameSet witnesses;
};

// The node's create or exercise; nullptr when it is the other.
[[nodiscard]] inline const CreatedNode* created(const Node& n) {
    return std::get_if<CreatedNode>(&n.event);
}
[[nodiscard]] inline const ExercisedNode* exercised(const Node& n) {
    const auto* boxed = std::get_if<std::unique_ptr<ExercisedNode>>(&n.event);
    return boxed ? boxed->get() : nullptr;
}

// A committed transaction.
struct Transaction {
    Offset offset = 0;
    model::UpdateId update_id;
    Name command_id;            // empty when none
    Name workflow_id;           // empty when none
    model::NameSet submitters;  // act-as parties of the submission, in the order given
    Name synchronizer_id;
    model::Timestamp effective_at;
    model::Timestamp record_time;
    std::int64_t migration_id = 0;
    std::vector<Node> nodes;  // in pre-order: nodes[i].node_id == i
    std::int64_t traffic_cost = no_traffic_cost;

    static constexpr std::int64_t no_traffic_cost = std::numeric_limits<std::int64_t>::min();
    [[nodiscard]] std::optional<std::int64_t> paid_traffic_cost() const {
        return traffic_cost == no_traffic_cost ? std::nullopt : std::optional(traffic_cost);
    }
};

// The largest node id of node `id`'s subtree: the node itself when it is a create.
[[nodiscard]] int last_descendant(const Transaction& tx, int id);
// The node ids of the roots of `tx`, in execution order (read from the pre-order, not stored).
[[nodiscard]] std::vector<int> roots(const Transaction& tx);
// The node ids of the immediate children of node `id`, in execution order.
[[nodiscard]] std::vector<int> children(const Transaction& tx, int id);

// One half of a contract's move between synchronizers.
struct Reassignment {
    enum class Kind { unassign, assign };

    Offset offset = 0;
    model::UpdateId update_id;
    model::ContractPtr contract;
    Kind kind = Kind::unassign;  // beside the Names
    Name submitter;
    Name source_synchronizer;
    Name target_synchronizer;
    Name unassign_id;
    std::int64_t reassignment_counter = 0;
    std::int64_t migration_id = 0;  // of the source (unassign) or the target (assign)
    model::Timestamp record_time;
};

// A hard synchronizer migration: from here on the network runs under `migration_id`, whose ACS was
// re-imported from the previous one (see ImportUpdate).
struct Migration {
    Offset offset = 0;
    model::UpdateId update_id;
    std::int64_t migration_id = 0;
    model::Timestamp record_time;
    std::size_t imported_contracts = 0;
};

// 120 bytes: with a shared_ptr's counts, a heap block of 144.
using Update = std::variant<Transaction, Reassignment, Migration>;
static_assert(sizeof(Update) <= 120);
using UpdatePtr = std::shared_ptr<const Update>;

[[nodiscard]] Offset offset_of(const Update& update);
[[nodiscard]] const model::UpdateId& update_id_of(const Update& update);
[[nodiscard]] model::Timestamp record_time_of(const Update& update);
// The migration id an update belongs to (a reassignment: that of its source or target).
[[nodiscard]] std::int64_t migration_id_of(const Update& update);

// A contract re-imported into a migration (Scan's import updates, op 2).
struct ImportUpdate {
    model::ContractPtr contract;
    std::int64_t migration_id = 0;
    std::string synchronizer_id;
};

}  // namespace cantonlite::store
