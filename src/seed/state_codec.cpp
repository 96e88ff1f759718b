// The state file's codec (docs/state-files.md). A file is a 32-byte header (the magic, the format,
// the CRC-32 of the payload, the payload's size; little-endian) and the payload: the body's size,
// the body, then the tables of the texts, the sets of parties and the templates the body names by
// index. The body is an image of the ledger: the network's facts, every contract as it stands, a
// forked network's base, the history (nodes name contracts by creation sequence), the Scan
// snapshots as rows of contracts, what the Splice views keep beyond the active contracts, the
// completions, the clock, and the seed context (labels, aliases, the snapshot schedule). Reading
// builds the contracts and updates as they were and restores the store and its views from them
// at once (LedgerStore::restore, SpliceViews::restore), which derive every index in one pass:
// nothing is appended again. Values are written from their packed bytes, each interned id (the
// process's own) replaced by its text's index.
#include "state_codec.hpp"

#include <zlib.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <exception>
#include <future>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <stdexcept>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include <boost/container/small_vector.hpp>
#include <boost/unordered/unordered_flat_map.hpp>

#include "cantonlite/model/packed_reader.hpp"
#include "cantonlite/seed/state_file.hpp"
#include "cantonlite/splice/payloads.hpp"
#include "cantonlite/splice/splice_views.hpp"
#include "cantonlite/util/crc32.hpp"
#include "cantonlite/util/huge_pages.hpp"
#include "cantonlite/util/prefault.hpp"
#include "cantonlite/util/whole_file.hpp"

namespace cantonlite::seed {
namespace {

using model::Timestamp;
using model::Value;

constexpr std::size_t header_size = state_file_header_size;
// Daml values nest at most 100 levels; a deeper one is not a value cantonlite wrote.
constexpr int max_value_depth = 200;

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

// Writes `number` at `to`, 7 bits a byte, the lowest first; returns how many bytes it took.
// REQUIRES: room for sizeof(Wide<Number>) * 8 / 7 + 1 bytes.
template <class Number>
std::size_t put_varint(char* to, Number number) {
    auto v = static_cast<Wide<Number>>(number);
    std::size_t n = 0;
    while (v >= 0x80) {
        to[n++] = static_cast<char>(static_cast<std::uint8_t>(v) | 0x80);
        v >>= 7;
    }
    to[n++] = static_cast<char>(v);
    return n;
}
// A signed number as the unsigned one a varint takes: 0, -1, 1, -2, ... as 0, 1, 2, 3, ...
std::uint64_t zigzag(std::int64_t n) {
    return (static_cast<std::uint64_t>(n) << 1) ^ static_cast<std::uint64_t>(n >> 63);
}

// ---- writing ----

// The file, its texts kept apart: each distinct text once, in a table after the body, which names
// it by its index (a party's id, a template's name, a record's labels are written thousands of
// times).
class FileFlusher;

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
        room(sizeof(Wide<Number>) * 8 / 7 + 1);
        used_ += put_varint(out_.data() + used_, number);
    }
    void integer(std::int64_t n) { varint(zigzag(n)); }
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
    void name(model::Name n) { varint(index_of(n)); }
    void time(Timestamp t) { integer(t.micros); }
    // A Numeric's units, zigzagged as a packed value keeps them.
    void numeric(model::Decimal d) {
        const model::Int128 units = d.units();
        varint((static_cast<model::UInt128>(units) << 1) ^
               static_cast<model::UInt128>(units >> 127));
    }
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
    // Room for a 4-byte number written later (fill): a chunk's size, known once it is written.
    // Returns where it is in the file.
    std::size_t hole() {
        room(4);
        used_ += 4;
        ++holes_;
        return size() - 4;
    }
    void fill(std::size_t at, std::uint32_t v) {
        if (at < base_ + flushed_)
            throw std::logic_error("a hole of the state file was written out");
        put_le(out_, at - base_, v, 4);
        --holes_;
    }
    // Sends what is written so far beyond the body's size to `flusher` from now on, at each
    // flush(): written out while the rest is encoded. The bytes it wrote are not kept: the
    // encoding goes on in two buffers of at most `buffer_bytes` in turn (see grow()).
    void stream_to(FileFlusher& flusher, std::size_t buffer_bytes) {
        flusher_ = &flusher;
        buffer_bytes_ = buffer_bytes;
    }
    // Sends the bytes written since the last flush to the flusher, if any: they are final (no
    // hole in them is open).
    void flush();
    // The file's size so far.
    [[nodiscard]] std::size_t size() const { return base_ + used_; }

    // A set of parties, as its index in the table of sets: each distinct set once, its names in
    // their order (a node's witnesses, a contract's stakeholders repeat thousands of times).
    // The texts a set or a template names take their places in the table of texts at its first
    // use, not when the tables are written: a reader interns the texts in their order while it
    // reads the body (In), and the sets and templates come first.
    void set(model::NameSet names) {
        const auto [it, added] = index_of_set_.try_emplace(names.id(), sets_.size());
        if (added) {
            sets_.push_back(names);
            for (const model::Name n : names) (void)index_of(n);
        }
        varint(it->second);
    }
    // A template, as its index in the table of templates.
    void template_ref(model::TemplateRef t) {
        const auto [it, added] = index_of_template_.try_emplace(t.id(), templates_.size());
        if (added) {
            templates_.push_back(t);
            const model::TemplateId id = t.get();
            for (const model::Name n :
                 {id.package_id, id.module_name, id.entity_name, id.package_name})
                (void)index_of(n);
        }
        varint(it->second);
    }

    // The file: the header's room, the body's size, the body written so far, then the tables of
    // its texts, its sets and its templates. The body is written where it stays: no copy of it is
    // made. A streamed file's (stream_to) is its first body_start bytes only: the rest went to
    // the flusher.
    std::string finish() && {
        // A streamed file's last parts go out as they are made: the body's end now, the table of
        // texts (about 15 MiB of a 37 MiB file) every MiB, so that little is left to write and
        // sync once the file is encoded.
        flush();
        const std::size_t body_end = size();
        std::string head;
        if (flusher_ == nullptr) {
            put_le(out_, header_size, body_end - body_start, 8);
        } else {
            head.assign(body_start, '\0');
            put_le(head, header_size, body_end - body_start, 8);
        }
        // The sets and templates first, which name texts; they follow the texts in the file.
        std::string tables;
        const auto put = [&tables](std::uint64_t number) {
            std::array<char, 10> bytes{};
            tables.append(bytes.data(), put_varint(bytes.data(), number));
        };
        put(sets_.size());
        for (const model::NameSet names : sets_) {
            put(names.size());
            for (const model::Name n : names) put(index_of(n));
        }
        put(templates_.size());
        for (const model::TemplateRef t : templates_) {
            const model::TemplateId id = t.get();
            for (const model::Name n :
                 {id.package_id, id.module_name, id.entity_name, id.package_name})
                put(index_of(n));
        }
        // The Names' texts, each a cache miss, read in one loop whose reads do not wait on each
        // other: at their first use, amid the encoding, each was a whole wait on memory (a tenth
        // of a save's encoding).
        for (const auto& [index, n] : names_unread_) texts_[index] = n.view();
        varint(texts_.size());
        std::size_t text_bytes = 0;
        for (const std::string_view t : texts_) {
            varint(t.size());
            text_bytes += t.size();
        }
        flush();
        if (flusher_ == nullptr) out_.resize(used_ + text_bytes + tables.size());  // exactly
        constexpr std::size_t flush_each = std::size_t{1} << 20;
        for (const std::string_view t : texts_) {
            room(t.size());
            std::memcpy(out_.data() + used_, t.data(), t.size());
            used_ += t.size();
            if (used_ - flushed_ >= flush_each) flush();
        }
        room(tables.size());
        std::memcpy(out_.data() + used_, tables.data(), tables.size());
        used_ += tables.size();
        flush();
        if (flusher_ != nullptr) return head;
        out_.resize(used_);
        return std::move(out_);
    }

    // Where the body starts: after the header and the body's size.
    static constexpr std::size_t body_start = header_size + 8;

  private:
    // Makes room for `n` more bytes: out_ grows ahead of used_, not a byte at a time.
    void room(std::size_t n) {
        if (out_.size() - used_ < n) grow(n);
    }
    void grow(std::size_t n);
    // Goes on in spare_, with the bytes not yet flushed: out_'s others were sent to the flusher.
    void turn(std::size_t n);
    std::size_t add(std::string_view text) {
        texts_.push_back(text);
        return texts_.size() - 1;
    }
    // A Name's index in the table of texts, given at its first use.
    std::uint32_t index_of(model::Name n) {
        const std::uint32_t id = n.id();
        if (id >= names_) {  // interned since the file began
            const std::size_t names = std::max<std::size_t>(id + 1, 2 * names_);
            util::ZeroedArray<std::uint32_t> more(names);
            std::memcpy(more.data(), index_of_name_.data(), names_ * sizeof(std::uint32_t));
            index_of_name_ = std::move(more);
            names_ = names;
        }
        std::uint32_t& index = index_of_name_[id];
        if (index == 0) {
            index = static_cast<std::uint32_t>(add({})) + 1;  // its text read by finish()
            names_unread_.emplace_back(index - 1, n);
        }
        return index - 1;
    }

    // The file from its byte base_: its first used_ bytes. Unless it is streamed, base_ is 0.
    std::string out_ = std::string(body_start, '\0');
    std::size_t used_ = body_start;
    std::size_t base_ = 0;
    // A streamed file's other buffer: it held the bytes before base_, sent to the flusher; those
    // up to spare_sent_ (in all bytes sent) were still to be written when out_ took over.
    std::string spare_;
    std::size_t spare_sent_ = 0;
    std::size_t sent_ = 0;   // bytes sent to the flusher
    std::size_t holes_ = 0;  // not yet filled: no byte from the first may go to the flusher
    std::size_t buffer_bytes_ = 0;
    // By index: the texts of copies_, and of Names once finish() has read them.
    std::vector<std::string_view> texts_;
    std::vector<std::pair<std::uint32_t, model::Name>> names_unread_;  // texts_ index, Name
    // By Name id: its text's index + 1, or 0; as many as there were Names at the start (zeroed
    // by the kernel: no pass zeroes it, nor copies it as it grows).
    std::size_t names_ = model::Name::count();
    util::ZeroedArray<std::uint32_t> index_of_name_{names_};
    // The texts that are no Name's, each once.
    boost::unordered_flat_map<std::string_view, std::size_t> index_;
    std::deque<std::string> copies_;
    std::vector<model::NameSet> sets_;                                    // by index
    boost::unordered_flat_map<std::uint32_t, std::size_t> index_of_set_;  // by NameSet id
    std::vector<model::TemplateRef> templates_;                           // by index
    boost::unordered_flat_map<std::uint32_t, std::size_t> index_of_template_;
    FileFlusher* flusher_ = nullptr;
    std::size_t flushed_ = body_start;  // out_'s bytes before it went to flusher_ (or were not to)
};

// The parts of a state file Out finished, appended to its file on a thread of their own, which
// also computes their CRC: the file is written, and its checksum computed, while the rest is
// encoded. Every 8 MiB written are sent to the disk (AtomicFile::start_writeback), so that the
// final sync waits for the last ones only: sending each part of about 1 MiB instead stalled the
// thread on the disk's queue (a persisted snapshot of 37 MiB took 120 ms, against 90 ms).
class FileFlusher {
  public:
    static constexpr std::size_t send_each = std::size_t{8} << 20;

    explicit FileFlusher(util::AtomicFile& file) : file_(file), thread_([this] { run(); }) {}
    FileFlusher(const FileFlusher&) = delete;
    FileFlusher& operator=(const FileFlusher&) = delete;
    ~FileFlusher() { (void)finish(); }

    // Appends `n` bytes at `data`, which stay there until written().
    void push(const char* data, std::size_t n) {
        {
            const std::lock_guard lock(mutex_);
            parts_.emplace_back(data, n);
        }
        wake_.notify_one();
    }
    // Waits until the first `bytes` bytes pushed are written (theirs may then move).
    void written(std::size_t bytes) {
        std::unique_lock lock(mutex_);
        done_.wait(lock, [&] { return written_ >= bytes; });
    }
    // Bytes written: all pushed, once finish() returned.
    [[nodiscard]] std::size_t bytes() {
        const std::lock_guard lock(mutex_);
        return written_;
    }
    // Waits for every part, ends the thread, and returns the CRC-32 of all the parts' bytes.
    std::uint32_t finish() {
        {
            const std::lock_guard lock(mutex_);
            stopping_ = true;
        }
        wake_.notify_one();
        if (thread_.joinable()) thread_.join();
        return crc_;
    }

  private:
    void run() {
        std::unique_lock lock(mutex_);
        for (;;) {
            wake_.wait(lock, [this] { return !parts_.empty() || stopping_; });
            if (parts_.empty()) return;
            const std::string_view part = parts_.front();
            parts_.pop_front();
            lock.unlock();
            crc_ = util::crc32(part, crc_);
            file_.write(part);
            unsent_ += part.size();
            if (unsent_ >= send_each) {
                file_.start_writeback();
                unsent_ = 0;
            }
            lock.lock();
            written_ += part.size();
            done_.notify_all();
        }
    }

    util::AtomicFile& file_;
    std::mutex mutex_;
    std::condition_variable wake_;  // a part, or the end
    std::condition_variable done_;  // no part left
    std::deque<std::string_view> parts_;
    std::size_t written_ = 0;  // bytes
    bool stopping_ = false;
    std::uint32_t crc_ = 0;
    std::size_t unsent_ = 0;  // bytes written since the last were sent to the disk
    std::thread thread_;      // last: started once the rest is ready
};

void Out::flush() {
    if (flusher_ == nullptr || used_ == flushed_) return;
    flusher_->push(out_.data() + flushed_, used_ - flushed_);
    sent_ += used_ - flushed_;
    flushed_ = used_;
}

void Out::grow(std::size_t n) {
    // A streamed file turns to its other buffer once half of this one is sent: its bytes are
    // touched, and faulted in, once (a buffer of the whole file spent a third of a persisted
    // snapshot's encoding zeroing and faulting in pages). What no hole holds back goes first.
    if (holes_ == 0) flush();
    if (flusher_ != nullptr && out_.size() >= buffer_bytes_ && 2 * flushed_ >= out_.size() &&
        used_ - flushed_ + n <= buffer_bytes_) {
        turn(n);
        return;
    }
    std::size_t size = std::max({2 * out_.size(), used_ + n, std::size_t{4096}});
    // Within the room reserved, no further than it: doubling past it would copy the buffer.
    if (used_ + n <= out_.capacity()) {
        size = std::min(size, out_.capacity());
    } else if (flusher_ != nullptr) {
        flusher_->written(sent_);  // the parts the flusher writes are in out_, which moves
    }
    out_.resize(size);
}

void Out::turn(std::size_t n) {
    flusher_->written(spare_sent_);
    const std::size_t unsent = used_ - flushed_;
    if (spare_.size() < unsent + n) spare_.resize(std::max(out_.size(), unsent + n));
    std::memcpy(spare_.data(), out_.data() + flushed_, unsent);
    base_ += flushed_;
    used_ = unsent;
    flushed_ = 0;
    out_.swap(spare_);
    spare_sent_ = sent_;
}

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

enum class UpdateTag : std::uint8_t { transaction = 0, reassignment = 1, migration = 2 };
// An exercise whose values are a DevNet tap's is written as their facts (tap), any other whole.
enum class NodeTag : std::uint8_t { created = 0, exercised = 1, tap = 2 };

// Items a reader decodes on two threads (read_chunks): their count and how many a chunk holds,
// then each chunk as its size in bytes (4, little-endian) and its items. item() comes before each.
class Chunks {
  public:
    static constexpr std::size_t items_each = 4096;

    Chunks(Out& out, std::size_t count) : out_(out), count_(count) {
        out.varint(count);
        out.varint(items_each);
    }
    void item() {
        if (written_++ % items_each != 0) return;
        close();
        out_.flush();  // all before the next chunk's hole is final
        hole_ = out_.hole();
    }
    void finish() {
        close();
        if (written_ != count_) throw std::logic_error("a chunked section lost count");
    }

  private:
    void close() {
        if (hole_ == no_hole) return;
        const std::size_t size = out_.size() - hole_ - 4;
        if (size > std::numeric_limits<std::uint32_t>::max())
            throw std::logic_error("a chunk of the state file is larger than 4 GiB");
        out_.fill(hole_, static_cast<std::uint32_t>(size));
        hole_ = no_hole;
    }
    static constexpr std::size_t no_hole = std::numeric_limits<std::size_t>::max();
    Out& out_;
    std::size_t count_;
    std::size_t written_ = 0;
    std::size_t hole_ = no_hole;  // where the open chunk's size goes
};

// The creation sequence of each contract the writer met (the store's contracts are shared: a
// node, a move, an import and a snapshot's row name the same one), found by the store's index of
// contract ids: a table of them by address, made for each file, took a tenth of its time.
class Sequences {
  public:
    explicit Sequences(const store::LedgerStore& store) : store_(store) {}
    void reserve(std::size_t n) { in_order_.reserve(n); }
    // The contract of the next sequence, `sequence`.
    void add(const model::Contract* c, std::uint64_t sequence) {
        if (sequence != in_order_.size()) throw std::logic_error("contracts out of sequence");
        in_order_.push_back(c);
    }
    [[nodiscard]] std::uint32_t of(const model::ContractPtr& c) const {
        const std::optional<std::uint32_t> sequence = store_.sequence_of_locked(c->contract_id);
        if (!sequence || *sequence >= in_order_.size() || in_order_[*sequence] != c.get())
            throw std::logic_error("a contract the store does not hold");
        return *sequence;
    }
    // The same, of the contract a create node created: the history meets those in creation
    // order, so nearly each is the one after the last found here (no lookup by address).
    [[nodiscard]] std::uint32_t of_created(const model::ContractPtr& c) {
        if (next_ < in_order_.size() && in_order_[next_] == c.get()) return next_++;
        const std::uint32_t sequence = of(c);
        next_ = sequence + 1;
        return sequence;
    }

  private:
    const store::LedgerStore& store_;
    std::vector<const model::Contract*> in_order_;  // by sequence
    std::uint32_t next_ = 0;                        // the sequence of_created expects next
};

// The labels of a state file: (label, contract id), each contract's together, in the order they
// were set (SeedContext::restore_labels).
using Labels = std::vector<std::pair<model::Name, model::Name>>;

// Writes every contract ever created, in creation order, as it stands; returns their sequences.
// Lists their labels into `labels`: each active contract's in the order the contracts were
// created, or if a label names another contract, all by contract id (SeedContext::labels). Either
// order is the same for a network loaded from the file, and the first reads no contract id's text
// and sorts nothing: a network that labels each of its contracts (a generated one) took a fifth of
// its save's time to sort them by contract id.
Sequences write_contracts(Out& out, const store::LedgerStore& store, const SeedContext& context,
                          Labels& labels) {
    Sequences sequences(store);
    std::size_t count = 0;
    store.visit_created(0, [&count](std::uint64_t, const store::ContractState&) {
        ++count;
        return true;
    });
    sequences.reserve(count);
    labels.reserve(context.labelled_contracts());
    std::size_t labelled = 0;
    Chunks chunks(out, count);
    store.visit_created(0, [&](std::uint64_t sequence, const store::ContractState& state) {
        if (sequence >= count) return false;  // none is created under the readers' lock
        chunks.item();
        const model::Contract& k = *state.contract;
        sequences.add(&k, sequence);
        if (state.archived_at == 0 && context.each_label_of(k.contract_id, [&](model::Name label) {
                labels.emplace_back(label, k.contract_id);
            }))
            ++labelled;
        out.name(k.contract_id);
        out.template_ref(k.template_ref);
        out.set(k.signatories);
        out.set(k.stakeholders);
        out.varint(static_cast<std::uint32_t>(k.created_node_id));
        out.varint(k.created_offset);
        out.time(k.created_at);
        write_value(out, k.argument);
        out.varint(state.archived_at);
        out.name(state.synchronizer_id);
        return true;
    });
    chunks.finish();
    // (A contract id created twice counts twice.)
    if (labelled != context.labelled_contracts()) labels = context.labels();
    return sequences;
}

void write_transaction(Out& out, const store::Transaction& tx, Sequences& sequences) {
    out.byte(static_cast<std::uint8_t>(UpdateTag::transaction));
    out.name(tx.id_namespace);
    out.name(tx.command_id);
    out.name(tx.workflow_id);
    out.set(tx.submitters);
    out.name(tx.synchronizer_id);
    out.integer(tx.migration_id);
    out.name(tx.external_transaction_hash);
    out.integer(tx.traffic_cost);
    out.time(tx.effective_at);
    out.time(tx.record_time);
    out.varint(tx.nodes.size());
    for (const store::Node& node : tx.nodes) {
        out.set(node.witnesses);
        if (const store::CreatedNode* c = store::created(node)) {
            out.byte(static_cast<std::uint8_t>(NodeTag::created));
            out.varint(sequences.of_created(c->contract));
            continue;
        }
        const store::ExercisedNode& e = *store::exercised(node);
        static const model::Name tap_choice(splice::payloads::TapFacts::choice);
        const std::optional<splice::payloads::TapFacts> tap =
            e.choice == tap_choice
                ? splice::payloads::TapFacts::of(e.choice_argument, e.exercise_result)
                : std::nullopt;
        out.byte(static_cast<std::uint8_t>(tap ? NodeTag::tap : NodeTag::exercised));
        out.name(e.contract_id);
        out.template_ref(e.template_ref);
        out.boolean(e.has_interface);
        if (e.has_interface) out.template_ref(e.interface);
        out.name(e.choice);
        if (tap) {
            out.name(tap->receiver);
            out.numeric(tap->amount);
            out.name(tap->amulet);
        } else {
            write_value(out, e.choice_argument);
        }
        out.boolean(e.consuming);
        out.set(e.acting_parties);
        if (!tap) write_value(out, e.exercise_result);
        out.set(e.stakeholders);
        out.varint(static_cast<std::uint32_t>(e.last_descendant));
    }
}

void write_update(Out& out, const store::LedgerStore& store, const store::Update& update,
                  Sequences& sequences) {
    if (const auto* tx = std::get_if<store::Transaction>(&update))
        return write_transaction(out, *tx, sequences);
    if (const auto* r = std::get_if<store::Reassignment>(&update)) {
        out.byte(static_cast<std::uint8_t>(UpdateTag::reassignment));
        out.varint(sequences.of(r->contract));
        out.boolean(r->kind == store::Reassignment::Kind::assign);
        out.name(r->submitter);
        out.name(r->source_synchronizer);
        out.name(r->target_synchronizer);
        out.name(r->unassign_id);
        out.name(r->id_namespace);
        out.integer(r->reassignment_counter);
        out.integer(r->migration_id);
        out.time(r->record_time);
        return;
    }
    const auto& m = std::get<store::Migration>(update);
    out.byte(static_cast<std::uint8_t>(UpdateTag::migration));
    out.name(m.id_namespace);
    out.integer(m.migration_id);
    out.time(m.record_time);
    out.varint(m.imported_contracts);
    // The contracts it re-imported, and where each was.
    const std::vector<store::ImportUpdate> imports =
        store.import_updates(m.migration_id, "", std::numeric_limits<std::size_t>::max());
    out.varint(imports.size());
    for (const store::ImportUpdate& i : imports) {
        out.varint(sequences.of(i.contract));
        out.text(i.synchronizer_id);
    }
}

// The Scan snapshots in the order they were taken, each as its rows' creation sequences, or as
// "the rows of the one before" when they share them.
void write_snapshots(Out& out, const store::LedgerStore& store, const Sequences& sequences) {
    const auto times = store.snapshot_times();
    out.varint(times.size());
    const store::AcsRows* previous = nullptr;
    for (const auto& [migration, t] : times) {
        const store::SnapshotPtr snapshot = store.snapshot(migration, t, false);
        out.integer(migration);
        out.time(t);
        out.integer(snapshot->ledger_end);
        const bool shared = snapshot->acs_data().get() == previous;
        out.boolean(shared);
        previous = snapshot->acs_data().get();
        if (shared) continue;
        out.varint(snapshot->acs.rows.size());
        for (const model::ContractPtr& c : snapshot->acs.rows) out.varint(sequences.of(c));
    }
}

void write_views(Out& out, const splice::SpliceViews::Kept& kept) {
    out.varint(kept.buy_traffic.size());
    for (const auto& [key, events] : kept.buy_traffic) {
        out.name(key.first);
        out.text(key.second);
        out.varint(events.size());
        for (const splice::BuyTrafficEvent& e : events) {
            out.byte(static_cast<std::uint8_t>(e.status));
            out.text(e.update_id);
            out.text(e.reason);
            out.integer(e.offset);
        }
    }
    out.varint(kept.counters.size());
    for (const auto& [sender, id] : kept.counters) {
        out.name(sender);
        out.name(id);
    }
    out.varint(kept.votes.size());
    for (const auto& [tracking, id] : kept.votes) {
        out.text(tracking);
        out.name(id);
    }
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
    // Reads the tables after the body of `payload`, then stands at the body's start. Their
    // Names, sets and templates may still be in the making on another thread (Tables::make):
    // readers wait for those not made yet, and wait_interned() for all. `texts_new`: few of its
    // texts are interned yet (at start-up).
    In(std::string_view payload, bool texts_new) {
        if (payload.size() < 8) fail("it ends inside a record");
        const std::uint64_t body_size = get_le(payload, 0, 8);
        if (body_size > payload.size() - 8) fail("its body is larger than the file");
        bytes_ = payload.substr(8 + body_size);  // the table
        auto tables = std::make_shared<Tables>();
        tables_ = tables;
        std::vector<std::string_view>& texts = tables->texts;
        texts.resize(count());
        // The sizes first, kept in the views (no vector of sizes: freeing one so early would
        // raise glibc's mmap threshold, and the load's larger blocks would then stay resident as
        // heap holes), then the texts.
        for (std::string_view& text : texts) {
            const std::uint64_t size = varint();
            need(size);
            text = std::string_view(bytes_.data(), size);
        }
        for (std::string_view& text : texts) {
            need(text.size());
            text = bytes_.substr(at_, text.size());
            at_ += text.size();
        }
        // Every text as a Name: nearly all of them are Names (the few that are not cost a handful
        // of bytes). New texts' copies go into one block of fresh memory, whose pages another
        // thread faults in ahead of them (a fault each page took 7% of a start-up load). Into a
        // running daemon, most texts are there already: their room would stay resident, unused.
        const std::size_t n = texts.size();
        model::Name::reserve(n);
        std::future<void> prefaulted;
        if (texts_new) {
            std::size_t text_bytes = 0;
            for (const std::string_view text : texts) text_bytes += text.size() + 3;  // + length
            prefaulted =
                std::async(std::launch::async, [room = model::Name::reserve_text_room(text_bytes)] {
                    (void)util::prefault(room);
                });
        }
        tables->names.resize(n);
        names_ = tables->names.data();
        name_count_ = n;
        read_table_indexes(*tables);
        bytes_ = payload.substr(8, body_size);
        at_ = 0;
        // Of 4 096 texts or more, the Names, sets and templates are made on another thread while
        // the body is read, in the texts' order: a reader of one not made yet waits for it. At
        // start-up, the texts after the first third are hashed on a third thread meanwhile
        // (hashing 15 MiB of texts took a quarter of the interning).
        const bool pipelined = n >= 4096;
        tables->hashed_from = texts_new && pipelined ? n / 3 : n;
        tables->hashes.resize(n - tables->hashed_from);
        if (!tables->hashes.empty()) {
            tables->hashing = std::async(std::launch::async,
                                         [out = tables->hashes.data(),
                                          rest = std::span(texts).subspan(tables->hashed_from)] {
                                             for (std::size_t i = 0; i < rest.size(); ++i)
                                                 out[i] = model::Name::hash_of(rest[i]);
                                         });
        }
        if (!pipelined) {
            tables->make();
            if (prefaulted.valid()) prefaulted.get();
            wait_interned();
            return;
        }
        tables->making = std::async(
            std::launch::async, [t = tables.get(), prefaulted = std::move(prefaulted)]() mutable {
                t->make();
                if (prefaulted.valid()) prefaulted.get();
            });
    }

    // Waits until every Name, set and template is made (and throws what stopped that): then this
    // reader, and those made from it after, read each without waiting.
    void wait_interned() {
        if (tables_->making.valid()) tables_->making.get();
        ready_ = name_count_;
        sets_ready_ = tables_->sets.size();
        templates_ready_ = tables_->templates.size();
    }

    // A reader of `bytes` with the same tables (which it keeps).
    [[nodiscard]] In reader_of(std::string_view bytes) const { return In(bytes, tables_); }
    // Where it stands in its bytes.
    [[nodiscard]] const char* position() const { return bytes_.data() + at_; }
    // Frees the texts' views, once the file's bytes are gone: the names, sets and templates stay.
    // REQUIRES: no reader of this file's tables reads a text after it (text(), text_view()).
    void drop_texts() {
        std::vector<std::string_view>().swap(std::const_pointer_cast<Tables>(tables_)->texts);
    }
    // A reader of the next `size` bytes, with the same tables, for another thread; this one
    // skips them.
    In split(std::size_t size) {
        need(size);
        In part(bytes_.substr(at_, size), tables_);
        at_ += size;
        return part;
    }

    std::uint8_t byte() {
        need(1);
        return static_cast<std::uint8_t>(bytes_[at_++]);
    }
    // An unsigned number of 64 or 128 bits, 7 bits a byte.
    template <class Unsigned = std::uint64_t>
    Unsigned varint() {
        // Most numbers (text indexes, counts, sizes) take one byte.
        if (at_ < bytes_.size() && static_cast<std::uint8_t>(bytes_[at_]) < 0x80)
            return Unsigned{static_cast<std::uint8_t>(bytes_[at_++])};
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
    std::uint32_t fixed32() {
        need(4);
        at_ += 4;
        return static_cast<std::uint32_t>(get_le(bytes_, at_ - 4, 4));
    }
    // A buffer the reader of a value reuses.
    std::string& scratch() { return scratch_; }
    bool boolean() {
        const std::uint8_t b = byte();
        if (b > 1) fail("a flag is neither 0 nor 1");
        return b == 1;
    }
    std::string_view text_view() { return tables_->texts[text_index()]; }
    std::string text() { return std::string(text_view()); }
    model::Name name() {
        const std::size_t i = text_index();
        if (i >= ready_) [[unlikely]]
            wait_past(tables_->ready, i, ready_);
        return names_[i];
    }
    // Goes past a Name, checked to be in the table, without reading the table.
    void skip_name() { (void)text_index(); }
    model::NameSet set() {
        const std::size_t i = index_below(tables_->sets.size(), "a set of parties");
        if (i >= sets_ready_) [[unlikely]]
            wait_past(tables_->sets_ready, i, sets_ready_);
        return tables_->sets[i];
    }
    model::TemplateRef template_ref() {
        const std::size_t i = index_below(tables_->templates.size(), "a template");
        if (i >= templates_ready_) [[unlikely]]
            wait_past(tables_->templates_ready, i, templates_ready_);
        return tables_->templates[i];
    }
    // An index below `size` into a table of `what`s.
    std::size_t index_below(std::size_t size, const char* what) {
        const std::uint64_t i = varint();
        if (i >= size) fail(std::string(what) + " is not in its table");
        return static_cast<std::size_t>(i);
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
    // A count of items that take at least `bytes_each` bytes each: no more than the bytes left
    // allow.
    std::size_t count(std::size_t bytes_each = 1) {
        const std::uint64_t n = varint();
        if (n > (bytes_.size() - at_) / bytes_each) fail("a count is larger than the bytes left");
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
    [[nodiscard]] bool at_end() const { return at_ == bytes_.size(); }
    [[noreturn]] static void fail(const std::string& what) {
        throw StateError("is damaged: " + what);
    }

  private:
    // The tables after the body, which every reader of a part of it shares.
    struct Tables {
        std::vector<std::string_view> texts;
        std::vector<model::Name> names;             // by text: those before `ready` are made
        std::vector<model::NameSet> sets;           // those before `sets_ready` are made
        std::vector<model::TemplateRef> templates;  // those before `templates_ready` are made
        std::atomic<std::size_t> ready{0};
        std::atomic<std::size_t> sets_ready{0};
        std::atomic<std::size_t> templates_ready{0};
        // The texts each set names (those of set i from set_starts[i] to set_starts[i + 1]), and
        // each template's four.
        std::vector<std::uint32_t> set_texts;
        std::vector<std::size_t> set_starts;
        std::vector<std::uint32_t> template_texts;
        // The hashes of the texts from hashed_from on, which `hashing` computes.
        std::size_t hashed_from = 0;
        std::vector<std::uint32_t> hashes;
        mutable std::future<void> hashing;
        mutable std::future<void> making;  // last: its thread uses the rest until it ends

        // Interns the texts a step at a time, each step then `ready`, and after each makes the
        // sets and templates whose texts are all interned, in order.
        void make() {
            constexpr std::size_t step = 8192;
            const std::span<const std::string_view> all(texts);
            std::size_t made_sets = 0;
            std::size_t made_templates = 0;
            std::vector<model::Name> members;
            const auto interned = [](std::span<const std::uint32_t> indexes, std::size_t to) {
                return std::all_of(indexes.begin(), indexes.end(),
                                   [to](std::uint32_t i) { return i < to; });
            };
            try {
                for (std::size_t at = 0; at < all.size() || made_sets < sets.size() ||
                                         made_templates < templates.size();) {
                    if (at < all.size()) {
                        const std::size_t end = std::min(
                            {all.size(), at + step, at < hashed_from ? hashed_from : all.size()});
                        if (at < hashed_from) {
                            model::Name::intern_all(all.subspan(at, end - at), names.data() + at);
                        } else {
                            if (hashing.valid()) hashing.get();
                            model::Name::intern_all(
                                all.subspan(at, end - at), names.data() + at,
                                std::span(hashes).subspan(at - hashed_from, end - at));
                        }
                        at = end;
                        publish(ready, at);
                    }
                    const std::size_t sets_before = made_sets;
                    for (; made_sets < sets.size(); ++made_sets) {
                        const std::span<const std::uint32_t> set(
                            set_texts.data() + set_starts[made_sets],
                            set_starts[made_sets + 1] - set_starts[made_sets]);
                        if (!interned(set, at)) break;
                        members.clear();
                        for (const std::uint32_t i : set) members.push_back(names[i]);
                        sets[made_sets] = model::NameSet(members);
                    }
                    if (made_sets != sets_before) publish(sets_ready, made_sets);
                    const std::size_t templates_before = made_templates;
                    for (; made_templates < templates.size(); ++made_templates) {
                        const std::span<const std::uint32_t> parts(
                            template_texts.data() + 4 * made_templates, 4);
                        if (!interned(parts, at)) break;
                        model::TemplateId id;
                        id.package_id = names[parts[0]];
                        id.module_name = names[parts[1]];
                        id.entity_name = names[parts[2]];
                        id.package_name = names[parts[3]];
                        templates[made_templates] = model::TemplateRef(id);
                    }
                    if (made_templates != templates_before)
                        publish(templates_ready, made_templates);
                }
                std::vector<std::uint32_t>().swap(hashes);
                std::vector<std::uint32_t>().swap(set_texts);
                std::vector<std::size_t>().swap(set_starts);
                std::vector<std::uint32_t>().swap(template_texts);
            } catch (...) {
                // Readers waiting read empty ones; the load fails at wait_interned().
                publish(ready, names.size());
                publish(sets_ready, sets.size());
                publish(templates_ready, templates.size());
                throw;
            }
        }
        static void publish(std::atomic<std::size_t>& made, std::size_t count) {
            made.store(count, std::memory_order_release);
            made.notify_all();
        }
    };
    In(std::string_view bytes, std::shared_ptr<const Tables> tables)
        : bytes_(bytes),
          tables_(std::move(tables)),
          names_(tables_->names.data()),
          name_count_(tables_->names.size()),
          ready_(tables_->ready.load(std::memory_order_acquire)),
          sets_ready_(tables_->sets_ready.load(std::memory_order_acquire)),
          templates_ready_(tables_->templates_ready.load(std::memory_order_acquire)) {}

    // Waits until item `i` of a table is made: `made` counts those made, `seen` what this reader
    // saw of it.
    [[gnu::noinline]] static void wait_past(const std::atomic<std::size_t>& made, std::size_t i,
                                            std::size_t& seen) {
        for (std::size_t m = made.load(std::memory_order_acquire);;
             m = made.load(std::memory_order_acquire)) {
            if (i < m) {
                seen = m;
                return;
            }
            made.wait(m, std::memory_order_acquire);
        }
    }
    // The tables of sets and templates, which follow the texts, as the indexes of the texts they
    // name, into `t`.
    void read_table_indexes(Tables& t) {
        t.sets.resize(count());
        t.set_starts.reserve(t.sets.size() + 1);
        t.set_starts.push_back(0);
        for (std::size_t i = 0; i < t.sets.size(); ++i) {
            for (std::size_t names = count(); names > 0; --names)
                t.set_texts.push_back(static_cast<std::uint32_t>(text_index()));
            t.set_starts.push_back(t.set_texts.size());
        }
        t.templates.resize(count(4));
        t.template_texts.reserve(4 * t.templates.size());
        for (std::size_t i = 0; i < 4 * t.templates.size(); ++i)
            t.template_texts.push_back(static_cast<std::uint32_t>(text_index()));
        if (at_ != bytes_.size()) fail("bytes follow its tables");
    }

    std::size_t text_index() {
        const std::uint64_t i = varint();
        if (i >= name_count_) fail("a text is not in the table");
        return static_cast<std::size_t>(i);
    }
    void need(std::uint64_t n) const {
        if (n > bytes_.size() - at_) fail("it ends inside a record");
    }
    std::string_view bytes_;
    std::size_t at_ = 0;
    std::shared_ptr<const Tables> tables_;
    // tables_->names, read at every Name (one load, not three).
    const model::Name* names_ = nullptr;
    std::size_t name_count_ = 0;
    // How many Names, sets and templates it saw made (Tables::make).
    std::size_t ready_ = 0;
    std::size_t sets_ready_ = 0;
    std::size_t templates_ready_ = 0;
    std::string scratch_;
};

// The bytes read_packed writes into a buffer it reuses: room is made once a node, for the most
// the node can add, and then written by pointer (no check of the capacity at every byte).
class PackedOut {
  public:
    static constexpr bool keeps = true;
    explicit PackedOut(std::string& buffer) : buffer_(buffer) {
        if (buffer_.size() < 256) buffer_.resize(256);
    }
    // Room for a node's tag and a number of up to 128 bits, and `more` bytes.
    void room(std::size_t more = 0) {
        const std::size_t need = 1 + max_varint + more;
        if (buffer_.size() - used_ < need)
            buffer_.resize(std::max(2 * buffer_.size(), used_ + need));
    }
    void byte(std::uint8_t b) { buffer_[used_++] = static_cast<char>(b); }
    // REQUIRES: room(), for this number among the node's.
    template <class Number>
    void varint(Number number) {
        used_ += put_varint(buffer_.data() + used_, number);
    }
    void integer(std::int64_t n) { varint(zigzag(n)); }
    // A size and its bytes. REQUIRES: room(text.size()).
    void text(std::string_view text) {
        varint(text.size());
        std::memcpy(buffer_.data() + used_, text.data(), text.size());
        used_ += text.size();
    }
    [[nodiscard]] std::string_view view() const { return {buffer_.data(), used_}; }

  private:
    static constexpr std::size_t max_varint = 19;  // 128 bits, 7 a byte
    std::string& buffer_;
    std::size_t used_ = 0;
};

// Where read_packed goes past a value, checking it as it goes but keeping nothing, and reading no
// Name from the table (of a transaction at load, which is read when first asked for: reading each
// text index's Name took a tenth of a start-up load, a cache miss each).
struct PackedSkip {
    static constexpr bool keeps = false;
    void room(std::size_t = 0) {}
    void byte(std::uint8_t) {}
    template <class Number>
    void varint(Number) {}
    void integer(std::int64_t) {}
    void text(std::string_view) {}
};

// A text index of a value, as this process's Name id when `out` keeps it.
template <class Out>
std::uint32_t name_id(In& in) {
    if constexpr (Out::keeps) {
        return in.name().id();
    } else {
        in.skip_name();
        return 0;
    }
}

// The units a zigzagged Numeric stands for.
model::Int128 unzigzag(model::UInt128 zigzag) {
    return static_cast<model::Int128>((zigzag >> 1) ^ (~(zigzag & 1) + 1));
}

// A Numeric's units, zigzagged as packed values keep them: at most 38 digits, 28 before the point
// and 10 after.
model::UInt128 numeric_zigzag(In& in) {
    const model::UInt128 zigzag = in.varint<model::UInt128>();
    const model::Int128 units = unzigzag(zigzag);
    constexpr model::Int128 limit =
        static_cast<model::Int128>(10'000'000'000'000'000'000ULL) * 10'000'000'000'000'000'000ULL;
    if (units >= limit || units <= -limit) In::fail("a number has more than 38 digits");
    return zigzag;
}

// The same, as a Decimal.
model::Decimal read_numeric(In& in) {
    return model::Decimal::from_units(unzigzag(numeric_zigzag(in)));
}

// Reads a value written by write_packed into `out` in pack()'s form, each text index that stands
// for a Name replaced by this process's Name id; checks it as a seed's values are checked (kinds,
// nesting, the range of numerics, times and dates).
template <class Out>
void read_packed(In& in, Out& out, int depth = 0) {
    using Kind = Value::Kind;
    if (depth > max_value_depth) In::fail("a value nests too deep");
    const std::uint8_t tag = in.byte();
    out.room();
    out.byte(tag);
    if (tag == model::packed::name_text_tag) return out.varint(name_id<Out>(in));
    if (tag > static_cast<std::uint8_t>(Kind::enumeration)) In::fail("a value of no known kind");
    switch (static_cast<Kind>(tag)) {
        case Kind::unit:
            return;
        case Kind::boolean:
        case Kind::optional: {
            const bool set = in.boolean();
            out.byte(static_cast<std::uint8_t>(set));
            if (tag == static_cast<std::uint8_t>(Kind::optional) && set)
                read_packed(in, out, depth + 1);
            return;
        }
        case Kind::int64:
            return out.integer(in.integer());
        case Kind::timestamp:
            return out.integer(in.time().micros);
        case Kind::date: {
            // Days since the epoch of years 1 to 9999, as a Daml Date.
            constexpr std::int64_t first = -719162;
            constexpr std::int64_t last = 2932896;
            const std::int64_t days = in.integer();
            if (days < first || days > last) In::fail("a date is beyond the year 9999");
            return out.integer(days);
        }
        case Kind::numeric:
            return out.varint(numeric_zigzag(in));
        case Kind::text:
        case Kind::enumeration: {
            const std::string_view text = in.bytes();
            out.room(text.size());
            return out.text(text);
        }
        case Kind::party:
        case Kind::contract_id:
            return out.varint(name_id<Out>(in));
        case Kind::list:
        case Kind::gen_map: {
            const std::size_t n = in.count();
            out.varint(n);
            for (std::size_t i = 0;
                 i < n * (tag == static_cast<std::uint8_t>(Kind::gen_map) ? 2 : 1); ++i)
                read_packed(in, out, depth + 1);
            return;
        }
        case Kind::text_map:
        case Kind::record: {
            const std::size_t n = in.count();
            out.varint(n);
            for (std::size_t i = 0; i < n; ++i) {
                out.room();
                out.varint(name_id<Out>(in));
                read_packed(in, out, depth + 1);
            }
            return;
        }
        case Kind::variant: {
            const std::string_view constructor = in.bytes();
            out.room(constructor.size());
            out.text(constructor);
            return read_packed(in, out, depth + 1);
        }
    }
}

// A value written by write_packed, packed for this process.
model::PackedValue read_value(In& in) {
    PackedOut out(in.scratch());
    read_packed(in, out);
    return model::PackedValue::adopt(out.view());
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

// A number of up to 32 bits.
std::uint32_t read_u32(In& in) {
    const std::uint64_t v = in.varint();
    if (v > std::numeric_limits<std::uint32_t>::max()) In::fail("a number is beyond 32 bits");
    return static_cast<std::uint32_t>(v);
}
std::int32_t read_i32(In& in) {
    const std::int64_t v = in.integer();
    if (v < std::numeric_limits<std::int32_t>::min() ||
        v > std::numeric_limits<std::int32_t>::max())
        In::fail("a number is beyond 32 bits");
    return static_cast<std::int32_t>(v);
}

// Reads a section Chunks wrote: prepare(count, chunks, each) first (each chunk holds `each` items,
// the last one the rest), then decode(part, chunk, first, n)
// reads items first to first + n - 1 from `part`, chunk by chunk, on this thread and a second one.
// meanwhile() runs on this thread first, with `in` past the section, while the second thread
// starts on the chunks. `progress` hears of the items read, from this thread. Of the chunks that
// fail, the first's error is thrown, else meanwhile's.
template <class Prepare, class Decode, class Meanwhile = void (*)()>
void read_chunks(
    In& in, std::size_t min_item_bytes, const LoadProgress& progress, Prepare prepare,
    Decode decode, Meanwhile meanwhile = [] {}) {
    const std::size_t count = in.count(min_item_bytes);
    const std::uint64_t each = in.varint();
    if (each == 0 && count != 0) In::fail("a chunk holds no item");
    const std::size_t chunks = count == 0 ? 0 : (count - 1) / each + 1;
    prepare(count, chunks, static_cast<std::size_t>(each));
    std::vector<In> parts;
    parts.reserve(chunks);
    for (std::size_t k = 0; k < chunks; ++k) parts.push_back(in.split(in.fixed32()));
    std::vector<std::exception_ptr> errors(chunks);
    std::atomic<std::size_t> next{0};
    std::atomic<std::size_t> failed{chunks};  // the first chunk that failed; none after it is read
    std::atomic<std::size_t> read{0};
    const auto work = [&](bool reports) {
        for (std::size_t k; (k = next.fetch_add(1)) < chunks;) {
            if (k > failed.load()) break;
            const std::size_t first = k * each;
            const std::size_t n = std::min<std::size_t>(each, count - first);
            try {
                decode(parts[k], k, first, n);
                if (!parts[k].at_end()) In::fail("a chunk holds more than its items");
            } catch (...) {
                errors[k] = std::current_exception();
                for (std::size_t f = failed.load(); k < f && !failed.compare_exchange_weak(f, k);) {
                }
            }
            read += n;
            if (reports && progress) progress(read.load(), count);
        }
    };
    std::exception_ptr meanwhile_error;
    const auto run_meanwhile = [&] {
        try {
            meanwhile();
        } catch (...) {
            meanwhile_error = std::current_exception();
        }
    };
    if (chunks > 1) {
        auto helper = std::async(std::launch::async, work, false);
        run_meanwhile();
        work(true);
        helper.get();
    } else {
        run_meanwhile();
        work(true);
    }
    if (failed.load() < chunks) std::rethrow_exception(errors[failed.load()]);
    if (meanwhile_error) std::rethrow_exception(meanwhile_error);
}

void read_contract(In& in, store::ContractState& state) {
    auto c = std::make_shared<model::Contract>();
    c->contract_id = in.name();
    c->template_ref = in.template_ref();
    c->signatories = in.set();
    c->stakeholders = in.set();
    const std::uint32_t node = read_u32(in);
    if (node > std::numeric_limits<std::int32_t>::max()) In::fail("a node id is too large");
    c->created_node_id = static_cast<int>(node);
    c->created_offset = read_u32(in);
    c->created_at = in.time();
    c->argument = read_value(in);
    state.archived_at = read_u32(in);
    state.synchronizer_id = in.name();
    state.contract = std::move(c);
}

// The contracts written by write_contracts into `contracts`, and what the Splice views will read
// of each into `holdings` (while its argument is in cache).
// Returns how many of them a transaction made (counted while each is in cache).
std::size_t read_contracts(In& in, std::deque<store::ContractState>& contracts,
                           std::vector<splice::SpliceViews::Holding>& holdings) {
    std::atomic<std::size_t> made{0};
    read_chunks(
        in, 10, {},
        [&](std::size_t count, std::size_t, std::size_t) {
            contracts.resize(count);
            holdings.resize(count);
        },
        [&](In& part, std::size_t, std::size_t first, std::size_t n) {
            splice::SpliceViews::HoldingReader read_holding;
            std::size_t made_here = 0;
            for (std::size_t i = first; i < first + n; ++i) {
                read_contract(part, contracts[i]);
                holdings[i] = read_holding(contracts[i]);
                if (contracts[i].contract->created_offset != 0) ++made_here;
            }
            made += made_here;
        });
    return made.load();
}

// The contract of creation sequence `sequence`.
template <class Contracts>
const model::ContractPtr& contract_at(In& in, const Contracts& contracts) {
    const std::uint64_t sequence = in.varint();
    if (sequence >= contracts.size()) In::fail("a contract is not in its table");
    return contracts[static_cast<std::size_t>(sequence)].contract;
}

// The bytes of one chunk of the history whose transactions a load leaves to read on first use:
// the load's copy, or the file's own while they are lent (read_state's `lender`).
struct ChunkBytes {
    std::string owned;
    std::string_view borrowed;  // instead of `owned`, while the lender is held
    std::size_t unread = 0;     // its transactions not read yet
    [[nodiscard]] std::string_view bytes() const {
        return borrowed.empty() ? std::string_view(owned) : borrowed;
    }
};

// What the store's indexes need of the transactions a load leaves to read on first use
// (LedgerStore::Image), from one chunk of the history, and the chunk's bytes.
struct Unread {
    std::vector<std::pair<model::Name, store::Offset>> external_hashes;
    std::vector<std::pair<model::Name, store::Offset>> consumed;  // contract id, offset
    std::size_t creates = 0;
    ChunkBytes chunk;  // its `unread`: the chunk's transactions
};

// Reads the transaction at `offset` written by write_transaction (after its tag), checking it,
// and builds it; with `unread`, only checks it and keeps there what the indexes need, and returns
// nullptr (values checked, not kept: nothing is built). Each create must name the contract made
// there.
template <class Contracts>
store::UpdatePtr read_transaction(In& in, store::Offset offset, const Contracts& contracts,
                                  model::Name& id_namespace, Unread* unread = nullptr) {
    store::Transaction tx{.offset = offset};
    id_namespace = in.name();
    tx.command_id = in.name();
    tx.workflow_id = in.name();
    tx.submitters = in.set();
    tx.synchronizer_id = in.name();
    tx.migration_id = read_i32(in);
    tx.external_transaction_hash = in.name();
    tx.traffic_cost = read_i32(in);
    tx.effective_at = in.time();
    tx.record_time = in.time();
    const std::size_t n = in.count(2);
    if (n == 0) In::fail("a transaction has no node");
    std::vector<store::Node> nodes;
    std::vector<store::ExercisedNode> exercises;
    const auto value = [&in, unread] {
        if (unread == nullptr) return read_value(in);
        PackedSkip skip;
        read_packed(in, skip);
        return model::PackedValue();
    };
    if (unread == nullptr) {
        nodes.reserve(n);
    } else if (!tx.external_transaction_hash.empty()) {
        unread->external_hashes.emplace_back(tx.external_transaction_hash, offset);
    }
    // The last descendants of the exercises whose subtree the walk is in: a few, kept inline
    // (a vector's allocation per transaction was 1-2% of a start-up load).
    boost::container::small_vector<int, 16> open;
    for (std::size_t i = 0; i < n; ++i) {
        const int id = static_cast<int>(i);
        while (!open.empty() && open.back() < id) open.pop_back();
        store::Node node{.node_id = id, .witnesses = in.set()};
        const std::uint8_t tag = in.byte();
        if (tag == static_cast<std::uint8_t>(NodeTag::created)) {
            const model::ContractPtr& c = contract_at(in, contracts);
            if (c->created_offset != static_cast<std::uint64_t>(offset) || c->created_node_id != id)
                In::fail("contract " + c->contract_id.str() + " is not where it was made");
            if (unread != nullptr) {
                ++unread->creates;
                continue;
            }
            node.event = store::CreatedNode{c};
        } else if (tag == static_cast<std::uint8_t>(NodeTag::exercised) ||
                   tag == static_cast<std::uint8_t>(NodeTag::tap)) {
            store::ExercisedNode e;
            e.contract_id = in.name();
            e.template_ref = in.template_ref();
            e.has_interface = in.boolean();
            if (e.has_interface) e.interface = in.template_ref();
            e.choice = in.name();
            // A tap's facts stand where its argument would; its result is made from them too.
            const bool tap = tag == static_cast<std::uint8_t>(NodeTag::tap);
            if (!tap) {
                e.choice_argument = value();
            } else if (unread != nullptr) {  // checked, not kept
                in.skip_name();
                (void)numeric_zigzag(in);
                in.skip_name();
            } else {
                splice::payloads::TapFacts facts;
                facts.receiver = in.name();
                facts.amount = read_numeric(in);
                facts.amulet = in.name();
                e.choice_argument = facts.argument();
                e.exercise_result = facts.result();
            }
            e.consuming = in.boolean();
            e.acting_parties = in.set();
            if (!tap) e.exercise_result = value();
            e.stakeholders = in.set();
            const std::uint64_t last = in.varint();
            // A subtree within the transaction and within its parent's.
            if (last < i || last >= n ||
                (!open.empty() && last > static_cast<unsigned>(open.back())))
                In::fail("a node's subtree is out of place");
            e.last_descendant = static_cast<int>(last);
            open.push_back(e.last_descendant);
            if (unread != nullptr) {
                if (e.consuming) unread->consumed.emplace_back(e.contract_id, offset);
                continue;
            }
            exercises.push_back(std::move(e));
            node.event = static_cast<const store::ExercisedNode*>(nullptr);
        } else {
            In::fail("a node of no known kind");
        }
        nodes.push_back(std::move(node));
    }
    if (unread != nullptr) return nullptr;
    tx.id_namespace = id_namespace;
    return store::transaction_update(std::move(tx), std::move(nodes), std::move(exercises));
}

// The update at `offset` that is not a transaction, after its tag; a migration's imports go to
// `imports`.
store::UpdatePtr read_other_update(In& in, std::uint8_t tag, store::Offset offset,
                                   const std::deque<store::ContractState>& contracts,
                                   decltype(store::LedgerStore::Image::imports)& imports) {
    if (tag == static_cast<std::uint8_t>(UpdateTag::reassignment)) {
        store::Reassignment r{.offset = offset};
        r.contract = contract_at(in, contracts);
        r.kind =
            in.boolean() ? store::Reassignment::Kind::assign : store::Reassignment::Kind::unassign;
        r.submitter = in.name();
        r.source_synchronizer = in.name();
        r.target_synchronizer = in.name();
        r.unassign_id = in.name();
        r.id_namespace = in.name();
        r.reassignment_counter = in.integer();
        r.migration_id = in.integer();
        r.record_time = in.time();
        return std::make_shared<const store::Update>(std::move(r));
    }
    if (tag == static_cast<std::uint8_t>(UpdateTag::migration)) {
        store::Migration m{.offset = offset};
        m.id_namespace = in.name();
        m.migration_id = in.integer();
        m.record_time = in.time();
        m.imported_contracts = in.varint();
        auto& imported = imports[m.migration_id];
        imported.resize(in.count(2));
        for (auto& [sequence, synchronizer] : imported) {
            const std::uint64_t s = in.varint();
            if (s >= contracts.size()) In::fail("a contract is not in its table");
            sequence = static_cast<std::uint32_t>(s);
            synchronizer = in.name();
        }
        return std::make_shared<const store::Update>(std::move(m));
    }
    In::fail("an update of no known kind");
}

// The history's transactions, read on first use from the bytes of their chunks, which the load
// checked (LedgerStore::Image::decoder). A chunk's bytes go once each of its transactions is read.
// They are the load's copy, or the file's own while `lender` keeps them (a leased mapping at
// start-up), until stop_borrowing() copies the chunks still needed and gives the lender back.
class UnreadTransactions final : public store::History::Decoder {
  public:
    UnreadTransactions(In tables, std::size_t each, std::vector<ChunkBytes> chunks,
                       std::vector<std::uint32_t> positions, std::shared_ptr<const void> lender)
        : tables_(std::move(tables)),
          each_(each),
          chunks_(std::move(chunks)),
          positions_(std::move(positions)),
          lender_(std::move(lender)) {}

    store::UpdatePtr decode(store::Offset offset,
                            const std::deque<store::ContractState>& contracts) override {
        const std::lock_guard lock(mutex_);  // the chunk's bytes stay while they are read
        const auto i = static_cast<std::size_t>(offset - 1);
        ChunkBytes& chunk = chunks_.at(i / each_);
        if (chunk.unread == 0) throw std::logic_error("a transaction read twice");
        In in = tables_.reader_of(chunk.bytes().substr(positions_.at(i)));
        if (in.byte() != static_cast<std::uint8_t>(UpdateTag::transaction))
            throw std::logic_error("no transaction at offset " + std::to_string(offset));
        model::Name id_namespace;
        store::UpdatePtr tx = read_transaction(in, offset, contracts, id_namespace);
        if (--chunk.unread == 0) {
            std::string().swap(chunk.owned);
            chunk.borrowed = {};
        }
        return tx;
    }

    // Each chunk still needed is copied outside the lock (decode() goes on meanwhile: both only
    // read the lent bytes, which stay until the lender is handed back) and put in place under it.
    std::shared_ptr<const void> stop_borrowing() override {
        for (ChunkBytes& chunk : chunks_) {
            std::string_view borrowed;
            {
                const std::lock_guard lock(mutex_);
                if (chunk.unread != 0) borrowed = chunk.borrowed;
            }
            if (borrowed.empty()) continue;
            std::string copy(borrowed);
            const std::lock_guard lock(mutex_);
            if (chunk.unread == 0) continue;  // read whole meanwhile
            chunk.owned = std::move(copy);
            chunk.borrowed = {};
        }
        const std::lock_guard lock(mutex_);
        return std::move(lender_);
    }

  private:
    In tables_;
    std::size_t each_;
    std::vector<ChunkBytes> chunks_;        // never resized: stop_borrowing() walks it unlocked
    std::vector<std::uint32_t> positions_;  // of each transaction's tag in its chunk
    std::mutex mutex_;                      // over the chunks' bytes
    std::shared_ptr<const void> lender_;    // while some chunk borrows
};

void read_fork_base(In& in, store::LedgerStore::Image& image) {
    image.fork_base_size = in.varint();
    if (image.fork_base_size > image.contracts.size())
        In::fail("the fork's base holds more contracts than the ledger");
    image.fork_base_migration_id = in.integer();
    image.fork_base_created_in.resize(in.count(2));
    for (auto& [first, source] : image.fork_base_created_in) {
        first = read_u32(in);
        source = in.name();
    }
}

void read_snapshots(In& in, store::LedgerStore::Image& image) {
    std::shared_ptr<const store::AcsRows> rows;
    std::int64_t next_row = 1;
    for (std::size_t n = in.count(4); n > 0; --n) {
        const std::int64_t migration = in.integer();
        const Timestamp at = in.time();
        const std::int64_t ledger_end = in.integer();
        if (!in.boolean()) {
            std::vector<model::ContractPtr> contracts(in.count());
            for (model::ContractPtr& c : contracts) c = contract_at(in, image.contracts);
            rows = store::make_acs_rows(std::move(contracts));
        } else if (!rows) {
            In::fail("a Scan snapshot shares the rows of none");
        }
        image.snapshots.push_back(
            std::make_shared<const store::Snapshot>(migration, at, next_row, rows, ledger_end));
        next_row += static_cast<std::int64_t>(rows->rows.size());
    }
}

splice::SpliceViews::Kept read_views(In& in) {
    splice::SpliceViews::Kept kept;
    kept.buy_traffic.resize(in.count(3));
    for (auto& [key, events] : kept.buy_traffic) {
        key.first = in.name();
        key.second = in.text();
        events.resize(in.count(4));
        for (splice::BuyTrafficEvent& e : events) {
            const std::uint8_t status = in.byte();
            if (status > static_cast<std::uint8_t>(splice::BuyTrafficStatus::expired))
                In::fail("a buy-traffic event of no known kind");
            e.status = static_cast<splice::BuyTrafficStatus>(status);
            e.update_id = in.text();
            e.reason = in.text();
            e.offset = in.integer();
        }
    }
    kept.counters.resize(in.count(2));
    for (auto& [sender, id] : kept.counters) {
        sender = in.name();
        id = in.name();
    }
    kept.votes.resize(in.count(2));
    for (auto& [tracking, id] : kept.votes) {
        tracking = in.text();
        id = in.name();
    }
    return kept;
}

// The payload of `bytes` once its header is checked, and the checksum it should have. Throws
// StateError.
std::pair<std::string_view, std::uint32_t> payload_of(std::string_view bytes) {
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
    return {bytes.substr(header_size), crc};
}

// The reader of `bytes`, its tables read, once its checksum matches. Checksum::alongside computes
// it on another thread while the tables are read; a damaged file is still reported as such first.
In checked_reader(std::string_view bytes, Checksum when) {
    // Not a structured binding: clang does not capture one in a lambda before C++20's fix (P1091).
    const std::pair<std::string_view, std::uint32_t> checked = payload_of(bytes);
    const std::string_view payload = checked.first;
    const auto check = [crc = checked.second](std::uint32_t computed) {
        if (computed != crc)
            throw StateError("is damaged: its checksum does not match its contents");
    };
    if (when == Checksum::first) {
        check(util::crc32(payload));
        return In(payload, false);
    }
    auto checksum = std::async(std::launch::async, [payload] { return util::crc32(payload); });
    std::optional<In> in;
    std::exception_ptr table_error;
    try {
        in.emplace(payload, true);  // at start-up: its texts are new
    } catch (const StateError&) {
        table_error = std::current_exception();
    }
    check(checksum.get());
    if (table_error) std::rethrow_exception(table_error);
    return std::move(*in);
}

// Writes the header at the start of `head`, of a file of `size` bytes whose payload's CRC-32 is
// `crc`.
void seal_with(std::string& head, std::uint32_t crc, std::size_t size) {
    std::memcpy(head.data(), state_file_magic.data(), state_file_magic.size());
    put_le(head, 16, state_file_format, 4);
    put_le(head, 20, crc, 4);
    put_le(head, 24, size - header_size, 8);
}

// The room of a file kept in memory (write_state): as large as the last state file this process
// wrote, or 400 bytes an update, whichever is larger: a generated network's file takes 350
// (mostly mints), and the room is only reserved, so what goes unused is never touched. A file
// that outgrows its room is copied once.
std::atomic<std::size_t> last_state_size{0};

Out state_out(const store::LedgerStore& store) {
    return Out(std::max(last_state_size.load(std::memory_order_relaxed),
                        static_cast<std::size_t>(store.ledger_end()) * 400));
}

// Writes the state file of `store` and `context` into `out`; the file is out's finish() then.
void encode_state(Out& out, const store::LedgerStore& store, const SeedContext& context) {
    write_network(out, store.network());
    out.time(store.genesis_time());
    Labels labels;
    Sequences sequences = write_contracts(out, store, context, labels);
    // The fork's base: its first contracts.
    out.varint(store.fork_base().size());
    out.integer(store.fork_base_migration_id());
    const auto runs = store.fork_base_runs();
    out.varint(runs.size());
    for (const auto& [first, source] : runs) {
        out.varint(first);
        out.name(source);
    }
    const store::Offset end = store.ledger_end();
    Chunks updates(out, static_cast<std::size_t>(end));
    for (store::Offset o = 1; o <= end; ++o) {
        updates.item();
        write_update(out, store, *store.update_at(o), sequences);
    }
    updates.finish();
    write_snapshots(out, store, sequences);
    write_views(out, splice::views(store).kept());
    const std::vector<store::CommandCompletion> completions = store.completions_after(
        0, std::numeric_limits<std::size_t>::max(), [](const auto&) { return true; });
    out.varint(completions.size());
    for (const store::CommandCompletion& c : completions) write_completion(out, c);
    out.integer(store.migration_id());
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
    out.varint(labels.size());
    for (const auto& [label, contract] : labels) {
        out.name(label);
        out.name(contract);
    }
}

}  // namespace

void seal_state_file(std::string& file) {
    seal_with(file, util::crc32(std::string_view(file).substr(header_size)), file.size());
}

std::string write_state(const store::LedgerStore& store, const SeedContext& context) {
    Out out = state_out(store);
    encode_state(out, store, context);
    std::string file = std::move(out).finish();
    seal_state_file(file);
    last_state_size.store(file.size(), std::memory_order_relaxed);
    return file;
}

std::string write_state_file(const store::LedgerStore& store, const SeedContext& context,
                             util::AtomicFile& file, std::size_t buffer_bytes) {
    // The header and the body's size, written last; the body follows them.
    file.write(std::string(Out::body_start, '\0'));
    std::string head;
    std::uint32_t crc_after_size = 0;
    std::size_t after_size = 0;
    {
        Out out(buffer_bytes);
        FileFlusher flusher(file);  // after out, whose bytes it writes: it goes first
        out.stream_to(flusher, buffer_bytes);
        encode_state(out, store, context);
        head = std::move(out).finish();
        crc_after_size = flusher.finish();
        after_size = flusher.bytes();
    }
    // The payload's CRC: its body's size, then the rest the flusher summed.
    const std::uint32_t size_crc =
        util::crc32(std::string_view(head).substr(header_size, Out::body_start - header_size));
    const std::size_t size = Out::body_start + after_size;
    seal_with(head,
              static_cast<std::uint32_t>(
                  crc32_combine64(size_crc, crc_after_size, static_cast<z_off64_t>(after_size))),
              size);
    file.write_at(0, head);
    last_state_size.store(size, std::memory_order_relaxed);
    head.resize(header_size);
    return head;
}

WrittenStateFile commit_state_file(util::AtomicFile& file, std::string header) {
    if (auto error = file.commit()) return WrittenStateFile{.error = std::move(error)};
    return WrittenStateFile{.header = std::move(header)};
}

LoadedSeed read_state(std::string_view bytes, const LoadProgress& progress, Checksum checksum,
                      std::shared_ptr<const void> lender) {
    In in = checked_reader(bytes, checksum);
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
        store::LedgerStore::Image image;
        std::vector<splice::SpliceViews::Holding> holdings;
        const std::size_t made = read_contracts(in, image.contracts, holdings);
        read_fork_base(in, image);
        // What follows the history is read on this thread while a second one starts on the
        // history's chunks.
        splice::SpliceViews::Kept kept;
        std::vector<store::CommandCompletion> completions;
        const auto read_after_history = [&] {
            read_snapshots(in, image);
            kept = read_views(in);
            completions.resize(in.count(8));
            for (store::CommandCompletion& c : completions) {
                c.offset = in.integer();
                c.user_id = in.text();
                c.command_id = in.text();
                c.submission_id = in.text();
                c.act_as = in.texts();
                c.record_time = in.time();
                c.deduplication_kind = in.text();
                c.deduplication_value = in.integer();
                c.deduplication_nanos = read_i32(in);
            }
            image.migration_id = in.integer();
            image.now = in.time();
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
            std::vector<std::pair<model::Name, model::Name>> labels(in.count(2));
            for (auto& [label, contract] : labels) {
                label = in.name();
                contract = in.name();
            }
            if (!in.at_end()) In::fail("bytes follow the network's last record");
            // The labels' indexes, here while the second thread checks the history (alone at
            // the load's end, they took a twelfth of a 1M load with a core idle).
            try {
                context.restore_labels(labels);
            } catch (const std::invalid_argument& e) {
                In::fail(e.what());
            }
        };
        // The transactions are checked, not built: each is read from its chunk's bytes, kept
        // here, when first asked for (UnreadTransactions). The other updates, few, are read.
        // Each chunk's migrations' imports and what the indexes need apart, merged once all are
        // read.
        std::vector<decltype(image.imports)> imports;
        std::vector<Unread> unread;
        std::vector<std::uint32_t> positions;
        std::size_t each = 0;
        read_chunks(
            in, 3, progress,
            [&](std::size_t count, std::size_t chunks, std::size_t items_each) {
                image.history.resize(count);
                image.id_namespaces.resize(count);
                positions.resize(count);
                imports.resize(chunks);
                unread.resize(chunks);
                each = items_each;
            },
            [&](In& part, std::size_t chunk, std::size_t first, std::size_t n) {
                const char* const begin = part.position();
                Unread& left = unread[chunk];
                for (std::size_t i = first; i < first + n; ++i) {
                    const auto offset = static_cast<store::Offset>(i) + 1;
                    const std::size_t at = static_cast<std::size_t>(part.position() - begin);
                    const std::uint8_t tag = part.byte();
                    if (tag == static_cast<std::uint8_t>(UpdateTag::transaction)) {
                        (void)read_transaction(part, offset, image.contracts,
                                               image.id_namespaces[i], &left);
                        positions[i] = static_cast<std::uint32_t>(at);  // a chunk < 4 GiB
                        ++left.chunk.unread;
                        continue;
                    }
                    image.history[i] =
                        read_other_update(part, tag, offset, image.contracts, imports[chunk]);
                    image.id_namespaces[i] =
                        std::visit([](const auto& u) { return u.id_namespace; }, *image.history[i]);
                }
                if (left.chunk.unread != 0) {
                    const std::string_view chunk_bytes(
                        begin, static_cast<std::size_t>(part.position() - begin));
                    if (lender != nullptr) {
                        left.chunk.borrowed = chunk_bytes;
                    } else {
                        left.chunk.owned.assign(chunk_bytes);
                    }
                }
            },
            read_after_history);
        in.wait_interned();
        for (auto& of_chunk : imports) {
            for (auto& [migration, imported] : of_chunk) {
                if (!image.imports.emplace(migration, std::move(imported)).second)
                    In::fail("two migrations to one migration id");
            }
        }
        // Each contract made by a transaction is named by one of its creates (each names the
        // contract made there, so no two name one).
        std::size_t creates = 0;
        std::vector<ChunkBytes> left_chunks;
        left_chunks.reserve(unread.size());
        for (Unread& left : unread) {
            creates += left.creates;
            image.external_hashes.insert(image.external_hashes.end(), left.external_hashes.begin(),
                                         left.external_hashes.end());
            image.consumed.insert(image.consumed.end(), left.consumed.begin(), left.consumed.end());
            left_chunks.push_back(std::move(left.chunk));
        }
        if (creates != made) In::fail("a contract is made by no transaction");
        in.drop_texts();  // the file's bytes go when the load is done; the reader keeps its tables
        const bool borrows = std::any_of(left_chunks.begin(), left_chunks.end(),
                                         [](const auto& c) { return !c.borrowed.empty(); });
        image.decoder = std::make_unique<UnreadTransactions>(
            in.reader_of({}), each, std::move(left_chunks), std::move(positions),
            borrows ? std::move(lender) : nullptr);
        const std::size_t updates = image.history.size();

        // All is read: the store restores (a fork's update ids' index is built on another
        // thread meanwhile) while a second thread restores the views from the store's contracts
        // and the image's snapshots, which the store copies.
        try {
            splice::SpliceViews& views = *store.extension<splice::SpliceViews>();
            const std::span<const store::SnapshotPtr> snapshots = image.snapshots;
            store
                .restore(std::move(image),
                         [&](const std::deque<store::ContractState>& contracts) {
                             views.restore(std::move(kept), holdings, contracts, snapshots);
                         })
                .finish();
        } catch (const store::AppendError& e) {
            In::fail(std::string("the ledger does not restore: ") + e.what());
        }
        for (store::CommandCompletion& c : completions) store.add_completion(std::move(c));
        if (progress) progress(updates, updates);
        return loaded;
    } catch (const StateError&) {
        throw;
    } catch (const std::exception& e) {
        throw StateError(std::string("is damaged: ") + e.what());
    }
}

}  // namespace cantonlite::seed
