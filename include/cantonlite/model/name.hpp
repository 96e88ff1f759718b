#pragma once
// Name: an interned identifier (party, contract id, record label, synchronizer, ...), 4 bytes.

#include <compare>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace cantonlite::model {

// A string kept once for the whole process: every Name with the same text is the same 4-byte
// handle, so a ledger that mentions a party a million times holds its 80 characters once.
// Names are never freed (a daemon serves one network; a reset re-interns the same texts).
// Thread-safe: interning takes a lock, reading a Name's text does not. Plain value.
class Name {
  public:
    constexpr Name() = default;  // the empty text
    // Interns `text` (the first call with a text allocates; later ones only look it up).
    explicit Name(std::string_view text);

    // The Name of `text` if it was ever interned; nullopt otherwise (nothing is interned).
    [[nodiscard]] static std::optional<Name> find(std::string_view text);
    // Frees what lock-free readers needed while the tables of Names and NameSets grew.
    // REQUIRES: no other thread uses Names or NameSets, as after loading a seed at start-up.
    static void release_retired_tables();
    // The Names of `texts`, into out[0] to out[size - 1]: as Name(text) of each, faster for many
    // texts at once (a state file's table). `hashes`, when given, holds hash_of() of each text,
    // computed ahead (on another thread).
    static void intern_all(std::span<const std::string_view> texts, Name* out,
                           std::span<const std::uint32_t> hashes = {});
    // How many Names there are: each id() is below it (as long as no other is interned).
    [[nodiscard]] static std::uint32_t count();
    // What the table of Names hashes `text` by.
    [[nodiscard]] static std::uint32_t hash_of(std::string_view text);
    // Makes room for `more` new Names at once (a seed load knows roughly how many it brings).
    static void reserve(std::size_t more);
    // Makes room for new texts of `bytes` bytes in all, in one block of memory that interning
    // them then fills from its start: returned, so that its pages may be faulted in on another
    // thread meanwhile (util::prefault).
    static std::span<char> reserve_text_room(std::size_t bytes);

    // The text; valid for the life of the process.
    [[nodiscard]] std::string_view view() const;
    operator std::string_view() const { return view(); }  // NOLINT: a Name reads as its text
    [[nodiscard]] std::string str() const { return std::string(view()); }
    [[nodiscard]] bool empty() const { return id_ == 0; }
    [[nodiscard]] std::uint32_t id() const { return id_; }
    // The Name whose id() is `id`. REQUIRES: `id` came from id() in this process.
    [[nodiscard]] static Name from_id(std::uint32_t id) {
        Name n;
        n.id_ = id;
        return n;
    }

    friend bool operator==(Name a, Name b) { return a.id_ == b.id_; }
    friend bool operator==(Name a, std::string_view b) { return a.view() == b; }
    // Texts joined with a Name's text, for messages.
    friend std::string operator+(std::string a, Name b) { return a.append(b.view()); }
    friend std::string operator+(Name a, std::string_view b) { return a.str().append(b); }
    // By text, so that sorted Names are in the order of their texts.
    friend std::strong_ordering operator<=>(Name a, Name b) {
        return a.id_ == b.id_ ? std::strong_ordering::equal : a.view() <=> b.view();
    }

  private:
    std::uint32_t id_ = 0;
};

// The texts of `names`, in order.
template <typename Names>
[[nodiscard]] std::vector<std::string> texts(const Names& names) {
    std::vector<std::string> out;
    out.reserve(names.size());
    for (const Name n : names) out.emplace_back(n.view());
    return out;
}

}  // namespace cantonlite::model

template <>
struct std::hash<cantonlite::model::Name> {
    std::size_t operator()(cantonlite::model::Name n) const noexcept { return n.id(); }
};
