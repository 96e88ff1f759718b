#pragma once
// The updates of the history: transactions (trees of created and exercised nodes), reassignments
// and migrations. Immutable once appended; shared by pointer with readers.

#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
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
// 48 bytes: the exercised contract's stakeholders rather than the contract, and the template and
// interface as TemplateRefs.
struct ExercisedNode {
    Name contract_id;
    model::TemplateRef template_ref;  // the template that defines the choice
    model::TemplateRef interface;     // the interface it was exercised through, if has_interface
    Name choice;
    model::PackedValue choice_argument;
    bool consuming = false;
    bool has_interface = false;
    model::NameSet acting_parties;  // sorted
    model::PackedValue exercise_result;
    model::NameSet stakeholders;  // the exercised contract's
    int last_descendant = 0;      // the largest node id of this node's subtree (itself if none)

    [[nodiscard]] model::TemplateId template_id() const { return template_ref.get(); }
    [[nodiscard]] std::optional<model::TemplateId> interface_id() const {
        return has_interface ? std::optional(interface.get()) : std::nullopt;
    }
};
static_assert(sizeof(ExercisedNode) <= 48);

// One node of a transaction. An exercise is kept apart, after the nodes: it is ten times the size
// of a create, and most nodes of a ledger are creates.
struct Node {
    std::variant<CreatedNode, const ExercisedNode*> event;
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
    const auto* e = std::get_if<const ExercisedNode*>(&n.event);
    return e ? *e : nullptr;
}

// The nodes of a transaction, in pre-order. They live in the block of the update that holds the
// list, followed by their exercises and then the exercises' values (LedgerStore builds it: one
// heap block a transaction, where a vector, each exercise and each value took one of their own).
// The list ends the lifetimes of the nodes and exercises; the block goes with the update.
class NodeList {
  public:
    NodeList() = default;
    // Adopts `size` nodes constructed at `nodes`, then `exercises` exercises right after them.
    NodeList(Node* nodes, std::uint32_t size, std::uint32_t exercises) noexcept
        : nodes_(nodes), size_(size), exercises_(exercises) {}
    NodeList(const NodeList&) = delete;
    NodeList& operator=(const NodeList&) = delete;
    NodeList(NodeList&& other) noexcept
        : nodes_(std::exchange(other.nodes_, nullptr)),
          size_(std::exchange(other.size_, 0)),
          exercises_(std::exchange(other.exercises_, 0)) {}
    NodeList& operator=(NodeList&& other) noexcept {
        NodeList gone(std::move(*this));
        nodes_ = std::exchange(other.nodes_, nullptr);
        size_ = std::exchange(other.size_, 0);
        exercises_ = std::exchange(other.exercises_, 0);
        return *this;
    }
    ~NodeList() {
        auto* exercises = reinterpret_cast<ExercisedNode*>(nodes_ + size_);
        std::destroy_n(exercises, exercises_);
        std::destroy_n(nodes_, size_);
    }

    [[nodiscard]] std::size_t size() const { return size_; }
    [[nodiscard]] bool empty() const { return size_ == 0; }
    const Node& operator[](std::size_t i) const { return nodes_[i]; }
    [[nodiscard]] const Node& at(std::size_t i) const {
        if (i >= size_) throw std::out_of_range("no such node");
        return nodes_[i];
    }
    [[nodiscard]] const Node* begin() const { return nodes_; }
    [[nodiscard]] const Node* end() const { return nodes_ + size_; }
    [[nodiscard]] const Node& front() const { return nodes_[0]; }
    [[nodiscard]] const Node& back() const { return nodes_[size_ - 1]; }

  private:
    Node* nodes_ = nullptr;
    std::uint32_t size_ = 0;
    std::uint32_t exercises_ = 0;
};

// A committed transaction.
struct Transaction {
    Offset offset = 0;
    Name command_id;            // empty when none
    Name workflow_id;           // empty when none
    model::NameSet submitters;  // act-as parties of the submission, in the order given
    Name synchronizer_id;
    Name id_namespace;  // the network's: the update id is derived from it and the offset
    std::int32_t migration_id = 0;
    // The hash its external parties signed (the 32 bytes in lower-case hex, as Canton's JSON
    // writes it), when it was executed by interactive submission; empty otherwise.
    Name external_transaction_hash;
    // The traffic its submission paid (no Splice transaction's costs 2^31 bytes): 32 bits, so
    // that an Update stays within 80 bytes.
    std::int32_t traffic_cost = no_traffic_cost;
    model::Timestamp effective_at;
    model::Timestamp record_time;
    NodeList nodes;  // in pre-order: nodes[i].node_id == i

    // make_update_id(id_namespace, offset): computed, not kept (32 bytes an update).
    [[nodiscard]] model::UpdateId update_id() const {
        return model::UpdateId::of(id_namespace.view(), offset);
    }

    static constexpr std::int32_t no_traffic_cost = std::numeric_limits<std::int32_t>::min();
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
    model::ContractPtr contract;
    Kind kind = Kind::unassign;  // beside the Names
    Name submitter;
    Name source_synchronizer;
    Name target_synchronizer;
    Name unassign_id;
    Name id_namespace;  // as a transaction's
    std::int64_t reassignment_counter = 0;
    std::int64_t migration_id = 0;  // of the source (unassign) or the target (assign)
    model::Timestamp record_time;

    [[nodiscard]] model::UpdateId update_id() const {
        return model::UpdateId::of(id_namespace.view(), offset);
    }
};

// A hard synchronizer migration: from here on the network runs under `migration_id`, whose ACS was
// re-imported from the previous one (see ImportUpdate).
struct Migration {
    Offset offset = 0;
    Name id_namespace;  // as a transaction's
    std::int64_t migration_id = 0;
    model::Timestamp record_time;
    std::size_t imported_contracts = 0;

    [[nodiscard]] model::UpdateId update_id() const {
        return model::UpdateId::of(id_namespace.view(), offset);
    }
};

// 80 bytes. A transaction shares its heap block with its shared_ptr's counts and its nodes
// (LedgerStore); a reassignment or a migration takes a block of 96 alone.
using Update = std::variant<Transaction, Reassignment, Migration>;
static_assert(sizeof(Update) <= 80);
using UpdatePtr = std::shared_ptr<const Update>;

// The update of `tx` with `nodes` (in pre-order), in one heap block (NodeList). Each exercise
// node's exercise is the next of `exercises`, in node order; its pointer in `nodes` is not read.
[[nodiscard]] UpdatePtr transaction_update(Transaction tx, std::vector<Node> nodes,
                                           std::vector<ExercisedNode> exercises);

[[nodiscard]] Offset offset_of(const Update& update);
// Computed from the update's namespace and offset (a SHA-256).
[[nodiscard]] model::UpdateId update_id_of(const Update& update);
// The namespace its id derives from (the network's, unless it kept the id it came with).
[[nodiscard]] Name id_namespace_of(const Update& update);
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
