#include "cantonlite/interactive/transaction_hash.hpp"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "cantonlite/model/ids.hpp"

namespace cantonlite::interactive {
namespace {

// HashPurpose.PreparedSubmission: at the start of the transaction, metadata and final hashes only.
constexpr std::int32_t prepared_submission_purpose = 48;
// The node and metadata encodings' version byte, which V2 writes and V3 dropped.
constexpr unsigned char v2_encoding_version = 1;

enum NodeTag : unsigned char {
    create_tag = 0,
    exercise_tag = 1,
    fetch_tag = 2,
    rollback_tag = 3,
    query_by_key_tag = 4
};

// Canton's HashBuilder: big-endian integers, length-prefixed bytes and strings, 00/01 optionals,
// count-prefixed lists; sub-hashes raw.
class Encoder {
  public:
    std::string bytes;

    void byte(unsigned char b) { bytes.push_back(static_cast<char>(b)); }
    void boolean(bool b) { byte(b ? 1 : 0); }
    void int32(std::int32_t v) {
        const auto u = static_cast<std::uint32_t>(v);
        for (int shift = 24; shift >= 0; shift -= 8) byte(static_cast<unsigned char>(u >> shift));
    }
    void int64(std::int64_t v) {
        const auto u = static_cast<std::uint64_t>(v);
        for (int shift = 56; shift >= 0; shift -= 8) byte(static_cast<unsigned char>(u >> shift));
    }
    void length(std::size_t n) { int32(static_cast<std::int32_t>(n)); }
    void string(std::string_view s) {
        length(s.size());
        bytes.append(s);
    }
    void hash(const Hash& h) { bytes.append(reinterpret_cast<const char*>(h.data()), h.size()); }
    void raw(std::string_view b) { bytes.append(b); }
    void purpose() { int32(prepared_submission_purpose); }

    // A set of parties: sorted, each once.
    template <class Strings>
    void string_set(const Strings& list) {
        std::vector<std::string_view> sorted(list.begin(), list.end());
        std::sort(sorted.begin(), sorted.end());
        sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
        length(sorted.size());
        for (const std::string_view s : sorted) string(s);
    }

    // A contract id: its hex digits as bytes, length-prefixed.
    void contract_id(std::string_view hex) {
        if (hex.size() % 2 != 0) throw HashError("contract id " + std::string(hex) + " is not hex");
        std::string decoded;
        decoded.reserve(hex.size() / 2);
        const auto nibble = [&](char c) -> int {
            if (c >= '0' && c <= '9') return c - '0';
            if (c >= 'a' && c <= 'f') return c - 'a' + 10;
            if (c >= 'A' && c <= 'F') return c - 'A' + 10;
            throw HashError("contract id " + std::string(hex) + " is not hex");
        };
        for (std::size_t i = 0; i < hex.size(); i += 2)
            decoded.push_back(static_cast<char>(nibble(hex[i]) * 16 + nibble(hex[i + 1])));
        string(decoded);
    }

    // The dotted module and entity names, each as a list of its segments.
    void identifier(const wire::Identifier& id) {
        string(id.package_id());
        dotted(id.module_name());
        dotted(id.entity_name());
    }

    void optional_identifier(bool present, const wire::Identifier& id) {
        boolean(present);
        if (present) identifier(id);
    }

    void value(const wire::Value& v);

  private:
    void dotted(std::string_view name) {
        std::vector<std::string_view> parts;
        std::size_t start = 0;
        while (true) {
            const std::size_t dot = name.find('.', start);
            parts.push_back(name.substr(start, dot == std::string_view::npos ? dot : dot - start));
            if (dot == std::string_view::npos) break;
            start = dot + 1;
        }
        length(parts.size());
        for (const std::string_view p : parts) string(p);
    }
};

// LfValueHashBuilder: a type tag, then the value.
void Encoder::value(const wire::Value& v) {
    using Sum = wire::Value::SumCase;
    switch (v.sum_case()) {
        case Sum::kUnit:
            return byte(0x00);
        case Sum::kBool:
            byte(0x01);
            return boolean(v.bool_());
        case Sum::kInt64:
            byte(0x02);
            return int64(v.int64());
        case Sum::kNumeric:
            byte(0x03);
            return string(v.numeric());
        case Sum::kTimestamp:
            byte(0x04);
            return int64(v.timestamp());
        case Sum::kDate:
            byte(0x05);
            return int32(v.date());
        case Sum::kParty:
            byte(0x06);
            return string(v.party());
        case Sum::kText:
            byte(0x07);
            return string(v.text());
        case Sum::kContractId:
            byte(0x08);
            return contract_id(v.contract_id());
        case Sum::kOptional:
            byte(0x09);
            boolean(v.optional().has_value());
            if (v.optional().has_value()) value(v.optional().value());
            return;
        case Sum::kList:
            byte(0x0a);
            length(static_cast<std::size_t>(v.list().elements_size()));
            for (const wire::Value& e : v.list().elements()) value(e);
            return;
        case Sum::kTextMap: {
            // Daml's TextMap is sorted by key (SortedLookupList).
            std::vector<const wire::TextMap::Entry*> entries;
            for (const auto& e : v.text_map().entries()) entries.push_back(&e);
            std::stable_sort(entries.begin(), entries.end(),
                             [](const auto* a, const auto* b) { return a->key() < b->key(); });
            byte(0x0b);
            length(entries.size());
            for (const auto* e : entries) {
                string(e->key());
                value(e->value());
            }
            return;
        }
        case Sum::kGenMap:
            byte(0x0f);
            length(static_cast<std::size_t>(v.gen_map().entries_size()));
            for (const auto& e : v.gen_map().entries()) {
                value(e.key());
                value(e.value());
            }
            return;
        case Sum::kRecord:
            byte(0x0c);
            optional_identifier(v.record().has_record_id(), v.record().record_id());
            length(static_cast<std::size_t>(v.record().fields_size()));
            for (const auto& f : v.record().fields()) {
                // An empty label is no label (Canton's ValueValidator).
                boolean(!f.label().empty());
                if (!f.label().empty()) string(f.label());
                value(f.value());
            }
            return;
        case Sum::kVariant:
            byte(0x0d);
            optional_identifier(v.variant().has_variant_id(), v.variant().variant_id());
            string(v.variant().constructor());
            return value(v.variant().value());
        case Sum::kEnum:
            byte(0x0e);
            optional_identifier(v.enum_().has_enum_id(), v.enum_().enum_id());
            return string(v.enum_().constructor());
        case Sum::SUM_NOT_SET:
            break;
    }
    throw HashError("a value without its sum");
}

// The node hashes of one transaction (NodeHashBuilder), from its nodes by id and its seeds.
class NodeHasher {
  public:
    NodeHasher(const wire::DamlTransaction& t, HashingScheme scheme) : scheme_(scheme) {
        for (const auto& n : t.nodes()) nodes_[n.node_id()] = &n;
        for (const auto& s : t.node_seeds()) seeds_[std::to_string(s.node_id())] = &s.seed();
    }

    // Each node is hashed once, under one parent or as one root: a node named twice would make
    // the work grow with the paths rather than the nodes.
    Hash hash(const std::string& node_id, int depth = 0) {
        if (depth > max_depth)
            throw HashError("the transaction nests deeper than " + std::to_string(max_depth) +
                            " nodes");
        if (!hashed_.insert(node_id).second)
            throw HashError("node " + node_id + " appears twice in the transaction");
        const auto it = nodes_.find(node_id);
        if (it == nodes_.end() || !it->second->has_v1())
            throw HashError("no node " + node_id + " in the transaction");
        const wire::Node& node = it->second->v1();
        Encoder e;
        switch (node.node_type_case()) {
            case wire::Node::kCreate:
                create(e, node.create(), seed_of(node_id, true));
                break;
            case wire::Node::kExercise:
                exercise(e, node.exercise(), node_id, depth);
                break;
            case wire::Node::kFetch:
                fetch(e, node.fetch());
                break;
            case wire::Node::kRollback:
                if (scheme_ == HashingScheme::v2) e.byte(v2_encoding_version);
                e.byte(rollback_tag);
                children(e, node.rollback().children(), depth);
                break;
            case wire::Node::kQueryByKey:
                query_by_key(e, node.query_by_key());
                break;
            case wire::Node::NODE_TYPE_NOT_SET:
                throw HashError("node " + node_id + " has no type");
        }
        return model::sha256(e.bytes);
    }

    // A create node's encoding; `seed` null for an input contract's.
    void create(Encoder& e, const wire::Create& c, const std::string* seed) const {
        begin(e, c.lf_version(), create_tag);
        e.boolean(seed != nullptr);
        if (seed != nullptr) e.raw(*seed);
        e.contract_id(c.contract_id());
        e.string(c.package_name());
        e.identifier(c.template_id());
        e.value(c.argument());
        e.string_set(c.signatories());
        e.string_set(c.stakeholders());
        if (scheme_ != HashingScheme::v2)
            optional_key(e, c.has_key(), c.key());
        else if (c.has_key())
            keys_need_v3();
    }

  private:
    static constexpr int max_depth = 1000;

    // The node's first bytes: V2's encoding version, the LF version (V2 hashes "2.1" only), the
    // tag.
    void begin(Encoder& e, const std::string& lf_version, NodeTag tag) const {
        if (scheme_ == HashingScheme::v2) {
            if (lf_version != "2.1") keys_need_v3();
            e.byte(v2_encoding_version);
        }
        e.string(lf_version);
        e.byte(tag);
    }

    [[noreturn]] static void keys_need_v3() {
        throw HashError(
            "Cannot hash node with LF serialization version V2 using hashing scheme V2. Does the "
            "transaction use contract keys? Please using hashing scheme V3 or higher.");
    }

    const std::string* seed_of(const std::string& node_id, bool required) const {
        const auto it = seeds_.find(node_id);
        if (it == seeds_.end()) {
            if (required) throw HashError("no seed for node " + node_id);
            return nullptr;
        }
        if (it->second->size() != 32)
            throw HashError("the seed of node " + node_id + " is not 32 bytes");
        return it->second;
    }

    void key_with_maintainers(Encoder& e, const wire::GlobalKeyWithMaintainers& k) const {
        e.string(k.key().package_name());
        e.identifier(k.key().template_id());
        e.value(k.key().key());
        if (k.key().hash().size() != 32) throw HashError("a contract key's hash is not 32 bytes");
        e.raw(k.key().hash());
        e.string_set(k.maintainers());
    }

    void optional_key(Encoder& e, bool present, const wire::GlobalKeyWithMaintainers& k) const {
        e.boolean(present);
        if (present) key_with_maintainers(e, k);
    }

    void exercise(Encoder& e, const wire::Exercise& x, const std::string& node_id, int depth) {
        begin(e, x.lf_version(), exercise_tag);
        e.raw(*seed_of(node_id, true));  // mandatory: not an optional
        e.contract_id(x.contract_id());
        e.string(x.package_name());
        e.identifier(x.template_id());
        e.string_set(x.signatories());
        e.string_set(x.stakeholders());
        e.string_set(x.acting_parties());
        e.optional_identifier(x.has_interface_id(), x.interface_id());
        e.string(x.choice_id());
        e.value(x.chosen_value());
        e.boolean(x.consuming());
        e.boolean(x.has_exercise_result());
        if (x.has_exercise_result()) e.value(x.exercise_result());
        e.string_set(x.choice_observers());
        if (scheme_ != HashingScheme::v2) {
            e.boolean(x.by_key());
            optional_key(e, x.has_key(), x.key());
        } else if (x.has_key() || x.by_key()) {
            keys_need_v3();
        }
        children(e, x.children(), depth);
    }

    // Fetch hashes its interface before its acting parties, unlike its proto.
    void fetch(Encoder& e, const wire::Fetch& f) const {
        begin(e, f.lf_version(), fetch_tag);
        e.contract_id(f.contract_id());
        e.string(f.package_name());
        e.identifier(f.template_id());
        e.string_set(f.signatories());
        e.string_set(f.stakeholders());
        e.optional_identifier(f.has_interface_id(), f.interface_id());
        e.string_set(f.acting_parties());
        if (scheme_ != HashingScheme::v2) {
            e.boolean(f.by_key());
            optional_key(e, f.has_key(), f.key());
        } else if (f.has_key() || f.by_key()) {
            keys_need_v3();
        }
    }

    void query_by_key(Encoder& e, const wire::QueryByKey& q) const {
        if (scheme_ == HashingScheme::v2) keys_need_v3();
        e.string(q.lf_version());
        e.byte(query_by_key_tag);
        e.string(q.package_name());
        e.identifier(q.template_id());
        e.boolean(q.exhaustive());
        key_with_maintainers(e, q.key());
        e.length(static_cast<std::size_t>(q.result_size()));
        for (const std::string& cid : q.result()) e.contract_id(cid);
    }

    template <class Ids>
    void children(Encoder& e, const Ids& ids, int depth) {
        e.length(static_cast<std::size_t>(ids.size()));
        for (const std::string& id : ids) e.hash(hash(id, depth + 1));
    }

    HashingScheme scheme_;
    std::unordered_map<std::string, const wire::DamlTransaction::VersionedNode*> nodes_;
    std::unordered_map<std::string, const std::string*> seeds_;
    std::unordered_set<std::string> hashed_;
};

}  // namespace

std::string value_encoding(const wire::Value& value) {
    Encoder e;
    e.value(value);
    return std::move(e.bytes);
}

Hash transaction_hash(const wire::DamlTransaction& transaction, HashingScheme scheme) {
    NodeHasher nodes(transaction, scheme);
    Encoder e;
    e.purpose();
    e.string(transaction.version());
    e.length(static_cast<std::size_t>(transaction.roots_size()));
    for (const std::string& root : transaction.roots()) e.hash(nodes.hash(root));
    return model::sha256(e.bytes);
}

Hash metadata_hash(const wire::Metadata& metadata, HashingScheme scheme) {
    Encoder e;
    e.purpose();
    if (scheme == HashingScheme::v2) e.byte(v2_encoding_version);
    e.string_set(metadata.submitter_info().act_as());
    e.string(metadata.submitter_info().command_id());
    e.string(metadata.transaction_uuid());
    e.int32(static_cast<std::int32_t>(metadata.mediator_group()));
    e.string(metadata.synchronizer_id());
    e.boolean(metadata.has_min_ledger_effective_time());
    if (metadata.has_min_ledger_effective_time())
        e.int64(static_cast<std::int64_t>(metadata.min_ledger_effective_time()));
    e.boolean(metadata.has_max_ledger_effective_time());
    if (metadata.has_max_ledger_effective_time())
        e.int64(static_cast<std::int64_t>(metadata.max_ledger_effective_time()));
    e.int64(static_cast<std::int64_t>(metadata.preparation_time()));
    // The input contracts by contract id, each as a create node without a seed.
    std::vector<const wire::Metadata::InputContract*> inputs;
    for (const auto& c : metadata.input_contracts()) {
        if (!c.has_v1()) throw HashError("an input contract without its create node");
        inputs.push_back(&c);
    }
    std::stable_sort(inputs.begin(), inputs.end(), [](const auto* a, const auto* b) {
        return a->v1().contract_id() < b->v1().contract_id();
    });
    const wire::DamlTransaction none;
    const NodeHasher nodes(none, scheme);
    e.length(inputs.size());
    for (const auto* c : inputs) {
        e.int64(static_cast<std::int64_t>(c->created_at()));
        Encoder node;
        nodes.create(node, c->v1(), nullptr);
        e.hash(model::sha256(node.bytes));
    }
    if (scheme != HashingScheme::v2) {
        e.boolean(metadata.has_max_record_time());
        if (metadata.has_max_record_time())
            e.int64(static_cast<std::int64_t>(metadata.max_record_time()));
    }
    return model::sha256(e.bytes);
}

Hash prepared_transaction_hash(const wire::PreparedTransaction& prepared, HashingScheme scheme) {
    Encoder e;
    e.purpose();
    e.byte(static_cast<unsigned char>(scheme));
    e.hash(transaction_hash(prepared.transaction(), scheme));
    e.hash(metadata_hash(prepared.metadata(), scheme));
    return model::sha256(e.bytes);
}

}  // namespace cantonlite::interactive
