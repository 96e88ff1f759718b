// The state file's codec. A file is a 32-byte header (the magic, the format, the CRC-32 of the
// payload, the payload's size; little-endian) and the payload: the body's size, the body (the
// network's facts, its genesis time, a forked network's base (the contracts it started with), its
// history and Scan snapshots in the order they were made,
// the command completions, the clock, and the seed context: labels, aliases, the snapshot
// schedule), then the table of the texts the body names by index. Reading replays the
// history into a new store through its own appends, so that every index and view is made as it
// was; what answers a request is then what it was in the daemon that saved it. Values are written
// from their packed bytes, each interned id (the process's own) replaced by its text's index.
#include "state_codec.hpp"

#include <zlib.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstring>
#include <deque>
#include <future>
#include <limits>
#include <optional>
#include <unordered_map>
#include <utility>

#include <boost/unordered/unordered_flat_map.hpp>

#include "cantonlite/model/packed_reader.hpp"
#include "cantonlite/seed/state_file.hpp"
#include "cantonlite/splice/splice_views.hpp"

namespace cantonlite::seed {
namespace {

using model::Timestamp;
using model::Value;

constexpr std::size_t header_size = state_file_header_size;
// Daml values nest at most 100 levels; a deeper one is not a value cantonlite wrote.
constexpr int max_value_depth = 200;

std::uint32_t crc_of(std::string_view bytes) {
    return static_cast<std::uint32_t>(
        crc32_z(crc32_z(0, Z_NULL, 0), reinterpret_cast<const Bytef*>(bytes.data()), bytes.size()));
}

// Little-endian numbers of the header and the payload.
void put_le(std::string& out, std::size_t at, std::uint64_t v, int width) {
    for (int i = 0; i < width; ++i)
        out[at + static_cast<std::size_t>(i)] = static_cast<char>((v >> (8 * i)) & 0xFF);
}
std::uint64_t get_le(std::string_view bytes, std::size_t at, int width) {
    std::uint64_t v = 0;
    for (int i = 0; i < width; ++i)
        v |= std::uint64_t{static_cast<unsigned char>(bytes[at + static_cast<std::size_t>(i)])}
             << (8 * i);
    return v;
}

// A varint's number: 64 bits, or 128 for a 128-bit one.
template <class Number>
using Wide = std::conditional_t<(sizeof(Number) > 8), model::UInt128, std::uint64_t>;

// ---- writing ----

// The file, its texts kept apart: each distinct text once, in a table after the body, which names
// it by its index (a party's id, a template's name, a record's labels are written thousands of
// times).
class Out {
  public:
    // Room for `expected` bytes from the start: a state file of 36 MB written into a buffer that
    // doubled from nothing spent a quarter of its time copying the buffer as it grew.
    explicit Out(std::size_t expected) { out_.reserve(std::max(expected, body_start)); }

    void byte(std::uint8_t b) {
        room(1);
        out_[used_++] = static_cast<char>(b);
    }
    // A number of up to 64 bits, or of 128 (a Numeric's), 7 bits a byte.
    template <class Number>
    void varint(Number number) {
        auto v = static_cast<Wide<Number>>(number);
        room(sizeof v * 8 / 7 + 1);
        while (v >= 0x80) {
            out_[used_++] = static_cast<char>(static_cast<std::uint8_t>(v) | 0x80);
            v >>= 7;
        }
        out_[used_++] = static_cast<char>(v);
    }
    void integer(std::int64_t n) {
        varint((static_cast<std::uint64_t>(n) << 1) ^ static_cast<std::uint64_t>(n >> 63));
    }
    // A size, then the bytes themselves (a text within a value: rarely repeated).
    void bytes(std::string_view b) {
        varint(b.size());
        room(b.size());
        std::memcpy(out_.data() + used_, b.data(), b.size());
        used_ += b.size();
    }
    void boolean(bool b) { byte(b ? 1 : 0); }
    // A text, with a Name's text as that Name: one index for both.
    void text(std::string_view s) {
        if (const auto n = model::Name::find(s)) return name(*n);
        const auto it = index_.find(s);
        if (it != index_.end()) return varint(it->second);
        const std::string_view copy = copies_.emplace_back(s);  // the caller's may go first
        index_.emplace(copy, texts_.size());
        varint(add(copy));
    }
    // A Name, by way of a table by its id (no text hashed): most texts written are Names, many
    // of them thousands of times.
    void name(model::Name n) {
        const std::uint32_t id = n.id();
        if (id >= index_of_name_.size())
            index_of_name_.resize(std::max<std::size_t>(id + 1, 2 * index_of_name_.size()));
        std::uint32_t& index = index_of_name_[id];
        if (index == 0) index = static_cast<std::uint32_t>(add(n.view())) + 1;
        varint(index - 1);
    }
    void time(Timestamp t) { integer(t.micros); }
    template <class Range>
    void texts(const Range& items) {
        varint(std::size(items));
        for (const auto& item : items) {
            if constexpr (std::is_same_v<std::decay_t<decltype(item)>, model::Name>) {
                name(item);
            } else {
                text(item);
            }
        }
    }
    void text_map(const std::map<std::string, std::string>& m) {
        varint(m.size());
        for (const auto& [k, v] : m) {
            text(k);
            text(v);
        }
    }
    // The file: the header's room, the body's size, the body written so far, then the table of
    // its texts. The body is written where it stays: no copy of it is made.
    std::string finish() && {
        put_le(out_, header_size, used_ - body_start, 8);
        varint(texts_.size());
        std::size_t text_bytes = 0;
        for (const std::string_view t : texts_) {
            varint(t.size());
            text_bytes += t.size();
        }
        out_.resize(used_ + text_bytes);
        for (const std::string_view t : texts_) {
            std::memcpy(out_.data() + used_, t.data(), t.size());
            used_ += t.size();
        }
        return std::move(out_);
    }

    // Where the body starts: after the header and the body's size.
    static constexpr std::size_t body_start = header_size + 8;

  private:
    // Makes room for `n` more bytes: out_ grows ahead of used_, not a byte at a time.
    void room(std::size_t n) {
        if (out_.size() - used_ < n)
            out_.resize(std::max({2 * out_.size(), used_ + n, std::size_t{4096}}));
    }
    std::size_t add(std::string_view text) {
        texts_.push_back(text);
        return texts_.size() - 1;
    }

    std::string out_ = std::string(body_start, '\0');  // the file: its first used_ bytes
    std::size_t used_ = body_start;
    std::vector<std::string_view> texts_;       // by index: Names' texts and copies_
    std::vector<std::uint32_t> index_of_name_;  // by Name id: its text's index + 1, or 0
    // The texts that are no Name's, each once.
    boost::unordered_flat_map<std::string_view, std::size_t> index_;
    std::deque<std::string> copies_;
};

// Writes packed bytes as they are, but for each Name id (a party, a contract id, a record label, a
// text-map key, a text kept as a Name), which is written as its text's index in the table.
void write_packed(Out& out, model::packed::Reader& in) {
    using Kind = Value::Kind;
    if (static_cast<std::uint8_t>(in.position()[0]) == model::packed::name_text_tag) {
        out.byte(in.byte());
        out.name(in.name());
        return;
    }
    const Kind kind = in.kind();
    out.byte(static_cast<std::uint8_t>(kind));
    switch (kind) {
        case Kind::unit:
            return;
        case Kind::boolean:
            out.byte(in.byte());
            return;
        case Kind::int64:
        case Kind::timestamp:
        case Kind::date:
            out.integer(in.integer());
            return;
        case Kind::numeric: {
            const model::Int128 n = in.decimal().units();
            out.varint((static_cast<model::UInt128>(n) << 1) ^
                       static_cast<model::UInt128>(n >> 127));
            return;
        }
        case Kind::text:
        case Kind::enumeration:
            out.bytes(in.text());
            return;
        case Kind::party:
        case Kind::contract_id:
            out.name(in.name());
            return;
        case Kind::optional: {
            const std::uint8_t some = in.byte();
            out.byte(some);
            if (some != 0) write_packed(out, in);
            return;
        }
        case Kind::list:
        case Kind::gen_map: {
            const std::size_t n = in.count();
            out.varint(n);
            for (std::size_t i = 0; i < n * (kind == Kind::gen_map ? 2 : 1); ++i)
                write_packed(out, in);
            return;
        }
        case Kind::text_map:
        case Kind::record: {
            const std::size_t n = in.count();
            out.varint(n);
            for (std::size_t i = 0; i < n; ++i) {
                out.name(in.name());
                write_packed(out, in);
            }
            return;
        }
        case Kind::variant:
            out.bytes(in.text());
            write_packed(out, in);
            return;
    }
}

void write_value(Out& out, const model::PackedValue& v) {
    model::packed::Reader in(v.bytes());
    write_packed(out, in);
}

void write_template(Out& out, const model::TemplateId& t) {
    out.name(t.package_id);
    out.name(t.module_name);
    out.name(t.entity_name);
    out.name(t.package_name);
}

void write_network(Out& out, const model::Network& n) {
    out.text(n.dso_party);
    out.varint(n.svs.size());
    for (const auto& sv : n.svs) {
        out.text(sv.name);
        out.text(sv.party);
    }
    out.text(n.synchronizer_id);
    out.texts(n.other_synchronizers);
    out.text(n.ans_acronym);
    out.text(n.participant_id);
    out.text(n.validator_party);
    out.text(n.validator_user);
    out.text_map(n.parties);
    out.text_map(n.external_keys);
    out.text_map(n.package_ids);
    out.boolean(n.lsu.has_value());
    if (n.lsu) {
        out.time(n.lsu->topology_freeze_time);
        out.time(n.lsu->upgrade_time);
        out.text(n.lsu->successor_physical_synchronizer_id);
    }
    out.varint(n.users.size());
    for (const model::User& u : n.users) {
        out.text(u.id);
        out.text(u.party);
        out.boolean(u.wallet);
        out.texts(u.rights.can_act_as);
        out.texts(u.rights.can_read_as);
        out.boolean(u.rights.can_read_as_any_party);
        out.boolean(u.rights.participant_admin);
        out.text(u.validator);
        out.boolean(u.party_hosted);
        out.boolean(u.deactivated);
        out.integer(u.resource_version);
    }
    out.boolean(n.auth.hs256_secret.has_value());
    if (n.auth.hs256_secret) out.text(*n.auth.hs256_secret);
    out.varint(n.auth.rs256_keys.size());
    for (const model::RsaKey& k : n.auth.rs256_keys) {
        out.text(k.kid);
        out.text(k.pem);
    }
    out.text(n.auth.jwks_json);
    out.text(n.auth.audience);
    out.boolean(n.auth.ledger_auth);
    out.text(n.id_namespace);
}

// The parent of each node (-1 for a root), from the exercises' subtrees.
std::vector<int> parents_of(const store::Transaction& tx) {
    std::vector<int> parents(tx.nodes.size(), -1);
    std::vector<int> open;  // the exercises whose subtree the walk is in
    for (std::size_t i = 0; i < tx.nodes.size(); ++i) {
        const int id = static_cast<int>(i);
        while (!open.empty() &&
               store::exercised(tx.nodes[static_cast<std::size_t>(open.back())])->last_descendant <
                   id)
            open.pop_back();
        parents[i] = open.empty() ? -1 : open.back();
        if (store::exercised(tx.nodes[i]) != nullptr) open.push_back(id);
    }
    return parents;
}

enum class UpdateTag : std::uint8_t { transaction = 0, reassignment = 1, migration = 2 };
enum class NodeTag : std::uint8_t { created = 0, exercised = 1 };

// The id an update kept from the network it was forked from; "" when its id is derived.
std::string kept_id_of(model::Name id_source) {
    const std::string_view source = id_source.view();
    if (!source.starts_with(model::kept_update_id_prefix)) return {};
    return std::string(source.substr(model::kept_update_id_prefix.size()));
}

// The kept id written as kept_id_of gave it, read back; nullopt when it was "".
std::optional<model::UpdateId> kept_id(const std::string& text) {
    if (text.empty()) return std::nullopt;
    const auto id = model::UpdateId::parse(text);
    if (!id) throw StateError("is damaged: an update id is not 1220 and 64 hex digits");
    return id;
}

void write_created(Out& out, const model::Contract& k) {
    out.name(k.contract_id);
    write_template(out, k.template_id());
    out.texts(k.signatories);
    out.texts(k.stakeholders);
    write_value(out, k.argument);
}

// A fork's base, as runs of contracts created at the same time on the same synchronizer (the one
// they were on at the fork: a contract that moved since names it in its first unassignment).
void write_fork_base(Out& out, const store::LedgerStore& store) {
    out.integer(store.fork_base_migration_id());
    const std::vector<model::ContractPtr> base = store.fork_base();
    const auto synchronizer_of = [&store](const model::Contract& c) -> std::string {
        const std::vector<store::Offset> moves = store.reassignments_of(c.contract_id.view());
        if (!moves.empty()) {
            return std::get<store::Reassignment>(*store.update_at(moves.front()))
                .source_synchronizer.str();
        }
        return store.contract(c.contract_id.view())->synchronizer_id.str();
    };
    struct Run {
        std::size_t first;  // contract
        std::string synchronizer;
        std::string created_in;  // the source's update that created them; "" when not named
    };
    std::vector<Run> runs;
    for (std::size_t i = 0; i < base.size(); ++i) {
        std::string synchronizer = synchronizer_of(*base[i]);
        const auto created_in = store.fork_base_created_in(base[i]->contract_id.view());
        std::string created_in_text = created_in ? created_in->str() : std::string();
        if (runs.empty() || base[i]->created_at != base[runs.back().first]->created_at ||
            synchronizer != runs.back().synchronizer || created_in_text != runs.back().created_in)
            runs.push_back(Run{i, std::move(synchronizer), std::move(created_in_text)});
    }
    out.varint(runs.size());
    for (std::size_t r = 0; r < runs.size(); ++r) {
        const std::size_t end = r + 1 < runs.size() ? runs[r + 1].first : base.size();
        out.time(base[runs[r].first]->created_at);
        out.text(runs[r].synchronizer);
        out.text(runs[r].created_in);
        out.varint(end - runs[r].first);
        for (std::size_t i = runs[r].first; i < end; ++i) write_created(out, *base[i]);
    }
}

void write_transaction(Out& out, const store::Transaction& tx) {
    out.byte(static_cast<std::uint8_t>(UpdateTag::transaction));
    out.text(kept_id_of(tx.id_namespace));
    out.name(tx.command_id);
    out.name(tx.workflow_id);
    out.texts(tx.submitters);
    out.name(tx.synchronizer_id);
    out.name(tx.external_transaction_hash);
    out.integer(tx.traffic_cost);
    out.time(tx.effective_at);
    out.time(tx.record_time);
    const std::vector<int> parents = parents_of(tx);
    out.varint(tx.nodes.size());
    for (std::size_t i = 0; i < tx.nodes.size(); ++i) {
        out.varint(static_cast<std::uint64_t>(parents[i] + 1));
        const store::Node& node = tx.nodes[i];
        if (const store::CreatedNode* c = store::created(node)) {
            const model::Contract& k = *c->contract;
            out.byte(static_cast<std::uint8_t>(NodeTag::created));
            write_created(out, k);
        } else {
            const store::ExercisedNode& e = *store::exercised(node);
            out.byte(static_cast<std::uint8_t>(NodeTag::exercised));
            out.name(e.contract_id);
            write_template(out, e.template_id());
            out.boolean(e.has_interface);
            if (e.has_interface) write_template(out, e.interface.get());
            out.name(e.choice);
            write_value(out, e.choice_argument);
            out.boolean(e.consuming);
            out.boolean(e.stakeholders.empty());  // an unknown contract's (a fork's)
            out.texts(e.acting_parties);
            write_value(out, e.exercise_result);
        }
    }
}

void write_update(Out& out, const store::Update& update) {
    if (const auto* tx = std::get_if<store::Transaction>(&update))
        return write_transaction(out, *tx);
    if (const auto* r = std::get_if<store::Reassignment>(&update)) {
        out.byte(static_cast<std::uint8_t>(UpdateTag::reassignment));
        const std::string kept = kept_id_of(r->id_namespace);
        out.text(kept);
        if (!kept.empty()) out.name(r->unassign_id);
        out.boolean(r->kind == store::Reassignment::Kind::assign);
        out.name(r->contract->contract_id);
        out.name(r->submitter);
        out.name(r->target_synchronizer);
        out.time(r->record_time);
        return;
    }
    const auto& m = std::get<store::Migration>(update);
    out.byte(static_cast<std::uint8_t>(UpdateTag::migration));
    out.time(m.record_time);
}

void write_completion(Out& out, const store::CommandCompletion& c) {
    out.integer(c.offset);
    out.text(c.user_id);
    out.text(c.command_id);
    out.text(c.submission_id);
    out.texts(c.act_as);
    out.time(c.record_time);
    out.text(c.deduplication_kind);
    out.integer(c.deduplication_value);
    out.integer(c.deduplication_nanos);
}

// ---- reading ----

class In {
  public:
    // Reads the table of texts after the body of `payload`, then stands at the body's start.
    explicit In(std::string_view payload) {
        if (payload.size() < 8) fail("it ends inside a record");
        const std::uint64_t body_size = get_le(payload, 0, 8);
        if (body_size > payload.size() - 8) fail("its body is larger than the file");
        bytes_ = payload.substr(8 + body_size);  // the table
        texts_.resize(count());
        // The sizes first, kept in the views (no vector of sizes: freeing one so early would
        // raise glibc's mmap threshold, and the load's larger blocks would then stay resident as
        // heap holes), then the texts.
        for (std::string_view& text : texts_) {
            const std::uint64_t size = varint();
            need(size);
            text = std::string_view(bytes_.data(), size);
        }
        for (std::string_view& text : texts_) {
            need(text.size());
            text = bytes_.substr(at_, text.size());
            at_ += text.size();
        }
        if (at_ != bytes_.size()) fail("bytes follow its table of texts");
        bytes_ = payload.substr(8, body_size);
        at_ = 0;
    }

    std::uint8_t byte() {
        need(1);
        return static_cast<std::uint8_t>(bytes_[at_++]);
    }
    // An unsigned number of 64 or 128 bits, 7 bits a byte.
    template <class Unsigned = std::uint64_t>
    Unsigned varint() {
        Unsigned v = 0;
        for (unsigned shift = 0;; shift += 7) {
            if (shift >= sizeof v * 8) fail("a number is too long");
            const std::uint8_t b = byte();
            v |= Unsigned{b & 0x7FU} << shift;
            if ((b & 0x80U) == 0) return v;
        }
    }
    std::int64_t integer() {
        const std::uint64_t v = varint();
        return static_cast<std::int64_t>((v >> 1) ^ (~(v & 1) + 1));
    }
    // A size, then that many bytes, in place.
    std::string_view bytes() {
        const std::size_t n = count();
        const std::string_view out = bytes_.substr(at_, n);
        at_ += n;
        return out;
    }
    // A buffer the reader of a value reuses.
    std::string& scratch() { return scratch_; }
    bool boolean() {
        const std::uint8_t b = byte();
        if (b > 1) fail("a flag is neither 0 nor 1");
        return b == 1;
    }
    std::string_view text_view() { return texts_[text_index()]; }
    std::string text() { return std::string(text_view()); }
    // A text as a Name, interned once per text of the table (templates' names repeat on every
    // node).
    model::Name name() {
        const std::size_t i = text_index();
        if (names_.size() < texts_.size()) names_.resize(texts_.size());
        if (!names_[i]) names_[i] = model::Name(texts_[i]);
        return *names_[i];
    }
    // A time of years 0 to 9999, as a seed's (RFC 3339) can be.
    Timestamp time() {
        const Timestamp t{integer()};
        if (t < earliest() || t > latest()) fail("a time is beyond the year 9999");
        return t;
    }
    static Timestamp earliest() {
        static const Timestamp t = *model::parse_timestamp("0000-01-01T00:00:00+23:59");
        return t;
    }
    static Timestamp latest() {
        static const Timestamp t = *model::parse_timestamp("9999-12-31T23:59:59.999999-23:59");
        return t;
    }
    // A count of items that take at least a byte each: no more than the bytes left.
    std::size_t count() {
        const std::uint64_t n = varint();
        if (n > bytes_.size() - at_) fail("a count is larger than the bytes left");
        return static_cast<std::size_t>(n);
    }
    std::vector<std::string> texts() {
        std::vector<std::string> out(count());
        for (std::string& s : out) s = text();
        return out;
    }
    std::map<std::string, std::string> text_map() {
        std::map<std::string, std::string> out;
        for (std::size_t n = count(); n > 0; --n) {
            std::string k = text();
            out[std::move(k)] = text();
        }
        return out;
    }
    [[nodiscard]] std::size_t text_count() const { return texts_.size(); }
    [[nodiscard]] bool at_end() const { return at_ == bytes_.size(); }
    [[noreturn]] static void fail(const std::string& what) {
        throw StateError("is damaged: " + what);
    }

  private:
    std::size_t text_index() {
        const std::uint64_t i = varint();
        if (i >= texts_.size()) fail("a text is not in the table");
        return static_cast<std::size_t>(i);
    }
    void need(std::uint64_t n) const {
        if (n > bytes_.size() - at_) fail("it ends inside a record");
    }
    std::string_view bytes_;
    std::size_t at_ = 0;
    std::vector<std::string_view> texts_;
    std::vector<std::optional<model::Name>> names_;  // by text, once asked for
    std::string scratch_;
};

template <class Number>
void put_varint(std::string& out, Number number) {
    auto v = static_cast<Wide<Number>>(number);
    while (v >= 0x80) {
        out += static_cast<char>(static_cast<std::uint8_t>(v) | 0x80);
        v >>= 7;
    }
    out += static_cast<char>(v);
}
void put_integer(std::string& out, std::int64_t n) {
    put_varint(out, (static_cast<std::uint64_t>(n) << 1) ^ static_cast<std::uint64_t>(n >> 63));
}

// Reads a value written by write_packed into `out` in pack()'s form, each text index that stands
// for a Name replaced by this process's Name id; checks it as a seed's values are checked (kinds,
// nesting, the range of numerics, times and dates).
void read_packed(In& in, std::string& out, int depth = 0) {
    using Kind = Value::Kind;
    if (depth > max_value_depth) In::fail("a value nests too deep");
    const std::uint8_t tag = in.byte();
    out += static_cast<char>(tag);
    if (tag == model::packed::name_text_tag) return put_varint(out, in.name().id());
    if (tag > static_cast<std::uint8_t>(Kind::enumeration)) In::fail("a value of no known kind");
    switch (static_cast<Kind>(tag)) {
        case Kind::unit:
            return;
        case Kind::boolean:
        case Kind::optional: {
            const bool set = in.boolean();
            out += static_cast<char>(set);
            if (tag == static_cast<std::uint8_t>(Kind::optional) && set)
                read_packed(in, out, depth + 1);
            return;
        }
        case Kind::int64:
            return put_integer(out, in.integer());
        case Kind::timestamp:
            return put_integer(out, in.time().micros);
        case Kind::date: {
            // Days since the epoch of years 1 to 9999, as a Daml Date.
            constexpr std::int64_t first = -719162;
            constexpr std::int64_t last = 2932896;
            const std::int64_t days = in.integer();
            if (days < first || days > last) In::fail("a date is beyond the year 9999");
            return put_integer(out, days);
        }
        case Kind::numeric: {
            const model::UInt128 zigzag = in.varint<model::UInt128>();
            const auto units = static_cast<model::Int128>((zigzag >> 1) ^ (~(zigzag & 1) + 1));
            // A Numeric has at most 38 digits: 28 before the point and 10 after.
            constexpr model::Int128 limit =
                static_cast<model::Int128>(10'000'000'000'000'000'000ULL) *
                10'000'000'000'000'000'000ULL;
            if (units >= limit || units <= -limit) In::fail("a number has more than 38 digits");
            return put_varint(out, zigzag);
        }
        case Kind::text:
        case Kind::enumeration: {
            const std::string_view text = in.bytes();
            put_varint(out, text.size());
            out += text;
            return;
        }
        case Kind::party:
        case Kind::contract_id:
            return put_varint(out, in.name().id());
        case Kind::list:
        case Kind::gen_map: {
            const std::size_t n = in.count();
            put_varint(out, n);
            for (std::size_t i = 0;
                 i < n * (tag == static_cast<std::uint8_t>(Kind::gen_map) ? 2 : 1); ++i)
                read_packed(in, out, depth + 1);
            return;
        }
        case Kind::text_map:
        case Kind::record: {
            const std::size_t n = in.count();
            put_varint(out, n);
            for (std::size_t i = 0; i < n; ++i) {
                put_varint(out, in.name().id());
                read_packed(in, out, depth + 1);
            }
            return;
        }
        case Kind::variant: {
            const std::string_view constructor = in.bytes();
            put_varint(out, constructor.size());
            out += constructor;
            return read_packed(in, out, depth + 1);
        }
    }
}

// A value written by write_packed, packed for this process.
model::PackedValue read_value(In& in) {
    std::string& bytes = in.scratch();
    bytes.clear();
    read_packed(in, bytes);
    return model::PackedValue::adopt(bytes);
}

model::TemplateId read_template(In& in) {
    model::TemplateId t;
    t.package_id = in.name();
    t.module_name = in.name();
    t.entity_name = in.name();
    t.package_name = in.name();
    return t;
}

model::Network read_network(In& in) {
    model::Network n;
    n.dso_party = in.text();
    for (std::size_t i = in.count(); i > 0; --i) {
        model::SuperValidator sv;
        sv.name = in.text();
        sv.party = in.text();
        n.svs.push_back(std::move(sv));
    }
    n.synchronizer_id = in.text();
    n.other_synchronizers = in.texts();
    n.ans_acronym = in.text();
    n.participant_id = in.text();
    n.validator_party = in.text();
    n.validator_user = in.text();
    n.parties = in.text_map();
    n.external_keys = in.text_map();
    n.package_ids = in.text_map();
    if (in.boolean()) {
        model::Lsu lsu;
        lsu.topology_freeze_time = in.time();
        lsu.upgrade_time = in.time();
        lsu.successor_physical_synchronizer_id = in.text();
        n.lsu = std::move(lsu);
    }
    for (std::size_t i = in.count(); i > 0; --i) {
        model::User u;
        u.id = in.text();
        u.party = in.text();
        u.wallet = in.boolean();
        u.rights.can_act_as = in.texts();
        u.rights.can_read_as = in.texts();
        u.rights.can_read_as_any_party = in.boolean();
        u.rights.participant_admin = in.boolean();
        u.validator = in.text();
        u.party_hosted = in.boolean();
        u.deactivated = in.boolean();
        u.resource_version = in.integer();
        n.users.push_back(std::move(u));
    }
    if (in.boolean()) n.auth.hs256_secret = in.text();
    for (std::size_t i = in.count(); i > 0; --i) {
        model::RsaKey k;
        k.kid = in.text();
        k.pem = in.text();
        n.auth.rs256_keys.push_back(std::move(k));
    }
    n.auth.jwks_json = in.text();
    n.auth.audience = in.text();
    n.auth.ledger_auth = in.boolean();
    n.id_namespace = in.text();
    return n;
}

// A create written by write_created, its contract id put in `contract_id`.
store::CreateDraft read_created(In& in, std::string& contract_id) {
    contract_id = in.text();
    store::CreateDraft c;
    c.template_id = read_template(in);
    c.signatories = in.texts();
    c.observers = in.texts();  // the stakeholders: the same set with the signatories
    c.packed_argument = read_value(in);
    return c;
}

// Adds the fork's base written by write_fork_base to `store`.
void read_fork_base(In& in, store::LedgerStore& store) {
    const std::int64_t migration = in.integer();
    if (migration < 0) In::fail("a migration id is negative");
    for (std::size_t runs = in.count(); runs > 0; --runs) {
        store::TransactionDraft d;
        d.effective_at = in.time();
        d.record_time = d.effective_at;
        d.synchronizer_id = in.text();
        if (const auto created_in = kept_id(in.text())) {
            d.update_id = *created_in;
            d.keeps_update_id = true;
        }
        const std::size_t n = in.count();
        d.nodes.reserve(n);
        d.contract_id_cache.resize(n);
        for (std::size_t i = 0; i < n; ++i)
            d.nodes.push_back(store::NodeDraft{.event = read_created(in, d.contract_id_cache[i])});
        try {
            store.add_fork_base(d, migration);
        } catch (const store::AppendError& e) {
            In::fail(std::string("the fork's base does not load: ") + e.what());
        }
    }
    if (migration != 0 && store.fork_base().empty()) {
        try {
            store.add_fork_base(store::TransactionDraft{}, migration);
        } catch (const store::AppendError& e) {
            In::fail(std::string("the fork's base does not load: ") + e.what());
        }
    }
}

// The draft that commits the transaction written at `offset` again, with the same contract ids.
store::TransactionDraft read_transaction(In& in, const store::LedgerStore& store,
                                         store::Offset offset) {
    store::TransactionDraft d;
    d.offset = offset;
    if (const auto kept = kept_id(in.text())) {
        d.update_id = *kept;
        d.keeps_update_id = true;
    } else {
        d.update_id = store.id_for(offset);
    }
    d.command_id = in.text();
    d.workflow_id = in.text();
    d.submitters = in.texts();
    d.synchronizer_id = in.text();
    d.external_transaction_hash = in.text();
    const std::int64_t traffic = in.integer();
    if (traffic != store::Transaction::no_traffic_cost) d.paid_traffic_cost = traffic;
    d.effective_at = in.time();
    d.record_time = in.time();
    const std::size_t n = in.count();
    d.nodes.reserve(n);
    d.contract_id_cache.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        const std::uint64_t parent = in.varint();
        if (parent > i) In::fail("a node's parent comes after it");
        store::NodeDraft node{.parent = static_cast<int>(parent) - 1};
        const std::uint8_t tag = in.byte();
        if (tag == static_cast<std::uint8_t>(NodeTag::created)) {
            node.event = read_created(in, d.contract_id_cache[i]);
        } else if (tag == static_cast<std::uint8_t>(NodeTag::exercised)) {
            store::ExerciseDraft e;
            e.contract_id = in.text();
            e.template_id = read_template(in);
            if (in.boolean()) e.interface_id = read_template(in);
            e.choice = in.text();
            e.packed_argument = read_value(in);
            e.consuming = in.boolean();
            e.contract_unknown = in.boolean();
            e.acting_parties = in.texts();
            e.packed_result = read_value(in);
            node.event = std::move(e);
        } else {
            In::fail("a node of no known kind");
        }
        d.nodes.push_back(std::move(node));
    }
    return d;
}

// Replays the update written at `offset` into `store`.
void read_update(In& in, store::LedgerStore& store, store::Offset offset) {
    const std::uint8_t tag = in.byte();
    if (tag == static_cast<std::uint8_t>(UpdateTag::transaction)) {
        store.append_transaction(read_transaction(in, store, offset));
    } else if (tag == static_cast<std::uint8_t>(UpdateTag::reassignment)) {
        std::optional<store::LedgerStore::KeptIds> kept;
        if (const auto id = kept_id(in.text()))
            kept = store::LedgerStore::KeptIds{.update_id = *id, .unassign_id = in.text()};
        const bool assign = in.boolean();
        const std::string contract_id = in.text();
        const std::string submitter = in.text();
        const std::string target = in.text();
        const Timestamp t = in.time();
        if (assign) {
            store.assign(contract_id, submitter, t, kept);
        } else {
            store.unassign(contract_id, target, submitter, t, kept);
        }
    } else if (tag == static_cast<std::uint8_t>(UpdateTag::migration)) {
        store.migrate(in.time());
    } else {
        In::fail("an update of no known kind");
    }
}

// The payload of `bytes` once its header and checksum are checked. Throws StateError.
std::string_view payload_of(std::string_view bytes) {
    if (bytes.size() < state_file_magic.size() ||
        bytes.substr(0, state_file_magic.size()) != state_file_magic)
        throw StateError("is not a cantonlite state file");
    if (bytes.size() < header_size) throw StateError("is truncated: its header is cut short");
    const auto format = static_cast<std::uint32_t>(get_le(bytes, 16, 4));
    if (format != state_file_format) {
        throw StateError("is a state file of format " + std::to_string(format) +
                         (format > state_file_format ? ", newer than" : ", which is not") +
                         " the format this cantonlite reads (" + std::to_string(state_file_format) +
                         ")");
    }
    const auto crc = static_cast<std::uint32_t>(get_le(bytes, 20, 4));
    const std::uint64_t size = get_le(bytes, 24, 8);
    const std::uint64_t have = bytes.size() - header_size;
    if (have < size) {
        throw StateError("is truncated: it has " + std::to_string(have) + " of its " +
                         std::to_string(size) + " bytes");
    }
    if (have > size)
        throw StateError("is damaged: " + std::to_string(have - size) + " bytes follow its end");
    const std::string_view payload = bytes.substr(header_size);
    if (crc_of(payload) != crc)
        throw StateError("is damaged: its checksum does not match its contents");
    return payload;
}

}  // namespace

void seal_state_file(std::string& file) {
    const std::string_view payload = std::string_view(file).substr(header_size);
    std::memcpy(file.data(), state_file_magic.data(), state_file_magic.size());
    put_le(file, 16, state_file_format, 4);
    put_le(file, 20, crc_of(payload), 4);
    put_le(file, 24, payload.size(), 8);
}

std::string write_state(const store::LedgerStore& store, const SeedContext& context) {
    // As large as the last state file this process wrote, or about 330 bytes an update (a
    // generated network's, mostly mints), whichever is larger.
    static std::atomic<std::size_t> last_size{0};
    Out out(std::max(last_size.load(std::memory_order_relaxed),
                     static_cast<std::size_t>(store.ledger_end()) * 330));
    // The labels, in contract id order, are sorted on another thread while the history is
    // written: a fifth of the time of a network whose every contract is labelled (a generated
    // one's). Both only read, under the caller's lock.
    auto labels_sorted = std::async(std::launch::async, [&context] { return context.labels(); });
    write_network(out, store.network());
    out.time(store.genesis_time());
    // The Scan snapshots first: the replay takes each between the updates it came between.
    const auto times = store.snapshot_times();
    out.varint(times.size());
    for (const auto& [migration, t] : times) {
        out.integer(migration);
        out.time(t);
        out.integer(store.snapshot(migration, t, false)->ledger_end);
    }
    write_fork_base(out, store);
    const store::Offset end = store.ledger_end();
    out.varint(static_cast<std::uint64_t>(end));
    for (store::Offset o = 1; o <= end; ++o) write_update(out, *store.update_at(o));
    const std::vector<store::CommandCompletion> completions = store.completions_after(
        0, std::numeric_limits<std::size_t>::max(), [](const auto&) { return true; });
    out.varint(completions.size());
    for (const store::CommandCompletion& c : completions) write_completion(out, c);
    out.time(store.now());
    // The seed context.
    out.boolean(context.snapshot_interval_seconds().has_value());
    if (context.snapshot_interval_seconds()) out.integer(*context.snapshot_interval_seconds());
    out.integer(context.next_snapshot_seconds());
    out.time(context.start_time);
    out.text(context.dso_rules);
    out.text(context.amulet_rules);
    out.text(context.external_party_amulet_rules);
    out.text_map(context.wallet_installs);
    out.text_map(context.directory().aliases());
    const auto labels = labels_sorted.get();
    out.varint(labels.size());
    for (const auto& [label, contract] : labels) {
        out.name(label);
        out.name(contract);
    }
    std::string file = std::move(out).finish();
    seal_state_file(file);
    last_size.store(file.size(), std::memory_order_relaxed);
    return file;
}

LoadedSeed read_state(std::string_view bytes, const LoadProgress& progress) {
    In in(payload_of(bytes));
    model::Name::reserve(in.text_count());
    LoadedSeed loaded;
    {
        model::Network network = read_network(in);
        const Timestamp genesis = in.time();
        loaded.store = std::make_unique<store::LedgerStore>(std::move(network), genesis);
        splice::SpliceViews::attach(*loaded.store);
    }
    store::LedgerStore& store = *loaded.store;
    // Whatever the store or its views refuse of what the file says is damage too.
    try {
        struct Taken {
            std::int64_t migration;
            Timestamp at;
            std::int64_t ledger_end;
        };
        std::vector<Taken> taken(in.count());
        for (Taken& t : taken) t = Taken{in.integer(), in.time(), in.integer()};
        read_fork_base(in, store);
        std::size_t next_snapshot = 0;
        // Takes the snapshots that came after `end` updates.
        const auto take_due = [&](store::Offset end) {
            for (; next_snapshot < taken.size() && taken[next_snapshot].ledger_end <= end;
                 ++next_snapshot) {
                if (taken[next_snapshot].ledger_end != end ||
                    store.migration_id() != taken[next_snapshot].migration)
                    In::fail("a Scan snapshot is out of place");
                store.take_snapshot(taken[next_snapshot].at);
            }
        };
        const std::size_t updates = in.count();
        store.reserve(updates, updates);
        for (std::size_t i = 0; i < updates; ++i) {
            const auto offset = static_cast<store::Offset>(i) + 1;
            take_due(offset - 1);
            if (progress && i % 256 == 0) progress(i, updates);
            try {
                read_update(in, store, offset);
            } catch (const store::AppendError& e) {
                In::fail("update " + std::to_string(offset) + " does not replay: " + e.what());
            }
            if (store.ledger_end() != offset)
                In::fail("update " + std::to_string(offset) + " is lost");
        }
        take_due(static_cast<store::Offset>(updates));
        if (next_snapshot != taken.size()) In::fail("a Scan snapshot comes after the last update");
        for (std::size_t n = in.count(); n > 0; --n) {
            store::CommandCompletion c;
            c.offset = in.integer();
            c.user_id = in.text();
            c.command_id = in.text();
            c.submission_id = in.text();
            c.act_as = in.texts();
            c.record_time = in.time();
            c.deduplication_kind = in.text();
            c.deduplication_value = in.integer();
            c.deduplication_nanos = static_cast<std::int32_t>(in.integer());
            store.add_completion(std::move(c));
        }
        const Timestamp now = in.time();
        try {
            if (now > store.now()) store.advance_time(now);
        } catch (const store::AppendError& e) {
            In::fail(e.what());
        }
        // The seed context.
        std::optional<std::int64_t> interval;
        if (in.boolean()) {
            interval = in.integer();
            if (*interval < 1 || *interval > (std::int64_t{1} << 40))  // as a seed's
                In::fail("the snapshot interval is not 1 to 2^40 seconds");
        }
        loaded.context = std::make_unique<SeedContext>(store, interval);
        SeedContext& context = *loaded.context;
        const std::int64_t next_snapshot_seconds = in.integer();
        if (next_snapshot_seconds < In::earliest().micros / model::micros_per_second ||
            next_snapshot_seconds > In::latest().micros / model::micros_per_second)
            In::fail("the next snapshot is beyond the year 9999");
        context.restore_snapshot_schedule(interval, next_snapshot_seconds);
        context.start_time = in.time();
        context.dso_rules = in.text();
        context.amulet_rules = in.text();
        context.external_party_amulet_rules = in.text();
        context.wallet_installs = in.text_map();
        context.directory().replace_aliases(in.text_map());
        for (std::size_t n = in.count(); n > 0; --n) {
            const model::Name label = in.name();
            context.restore_label(label, in.name());
        }
        if (!in.at_end()) In::fail("bytes follow the network's last record");
        if (progress) progress(updates, updates);
        return loaded;
    } catch (const StateError&) {
        throw;
    } catch (const std::exception& e) {
        throw StateError(std::string("is damaged: ") + e.what());
    }
}

}  // namespace cantonlite::seed
