#include "cantonlite/model/ids.hpp"

#include <openssl/evp.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdint>
#include <memory>
#include <span>
#include <stdexcept>

namespace cantonlite::model {

namespace {

// The multihash prefix of a SHA-256 (code 0x12, 32 bytes), as update ids start.
constexpr std::string_view sha256_multihash = "1220";

// Appends `bytes` in lower-case hex.
void append_hex(std::string& out, std::span<const unsigned char> bytes) {
    static constexpr char hex[] = "0123456789abcdef";
    const std::size_t at = out.size();
    out.resize(at + 2 * bytes.size());
    char* to = out.data() + at;
    for (const unsigned char b : bytes) {
        *to++ = hex[b >> 4];
        *to++ = hex[b & 0xF];
    }
}

// The SHA-256 implementation, fetched from the provider once: EVP_sha256() in EVP_Digest looks it
// up again on every call, which was a third of the hashing time of a seed load.
const EVP_MD* sha256_md() {
    static const std::unique_ptr<EVP_MD, decltype(&EVP_MD_free)> md(
        EVP_MD_fetch(nullptr, "SHA256", nullptr), &EVP_MD_free);
    if (!md) throw std::runtime_error("SHA-256 is not available");
    return md.get();
}

// A digest context per thread, reused across calls.
EVP_MD_CTX* thread_context() {
    thread_local const std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx(
        EVP_MD_CTX_new(), &EVP_MD_CTX_free);
    if (!ctx) throw std::runtime_error("SHA-256 failed");
    return ctx.get();
}

}  // namespace

std::array<unsigned char, 32> sha256(std::string_view data) {
    std::array<unsigned char, 32> digest{};
    unsigned int length = 0;
    EVP_MD_CTX* ctx = thread_context();
    if (EVP_DigestInit_ex2(ctx, sha256_md(), nullptr) != 1 ||
        EVP_DigestUpdate(ctx, data.data(), data.size()) != 1 ||
        EVP_DigestFinal_ex(ctx, digest.data(), &length) != 1 || length != digest.size()) {
        throw std::runtime_error("SHA-256 failed");
    }
    return digest;
}

std::string sha256_hex(std::string_view data) {
    std::string out;
    out.reserve(64);
    append_hex(out, sha256(data));
    return out;
}

std::string hex(std::string_view bytes) {
    std::string out;
    append_hex(out, {reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size()});
    return out;
}

std::string make_update_id(std::string_view namespace_, std::int64_t offset) {
    return UpdateId::of(namespace_, offset).str();
}

UpdateId UpdateId::of(std::string_view namespace_, std::int64_t offset) {
    if (namespace_.starts_with(kept_update_id_prefix)) {
        namespace_.remove_prefix(kept_update_id_prefix.size());
        return parse(namespace_).value_or(UpdateId());
    }
    // A write asks for the id of the same offset several times (its draft, the store's check,
    // the update-id index's hash, the answer): each thread keeps the last few ids it derived.
    struct Remembered {
        std::string namespace_;
        std::int64_t offset = -1;
        UpdateId id;
    };
    thread_local std::array<Remembered, 4> remembered;
    thread_local std::size_t next = 0;
    for (const Remembered& r : remembered) {
        if (r.offset == offset && r.namespace_ == namespace_) return r.id;
    }
    // "<namespace>/update/<offset>", written on the stack when it fits (a state file's load
    // derives a hundred thousand ids).
    constexpr std::string_view infix = "/update/";
    const std::size_t most = namespace_.size() + infix.size() + 20;  // 20: a 64-bit number
    std::array<char, 128> on_stack;
    std::string on_heap;
    char* const text =
        most <= on_stack.size() ? on_stack.data() : (on_heap.resize(most), on_heap.data());
    char* end = std::copy(namespace_.begin(), namespace_.end(), text);
    end = std::copy(infix.begin(), infix.end(), end);
    end = std::to_chars(end, text + most, offset).ptr;
    UpdateId id;
    id.hash_ = sha256(std::string_view(text, static_cast<std::size_t>(end - text)));
    Remembered& slot = remembered[next++ % remembered.size()];
    slot.namespace_.assign(namespace_);
    slot.offset = offset;
    slot.id = id;
    return id;
}

std::string kept_id_source(const UpdateId& id) {
    return std::string(kept_update_id_prefix) + id.str();
}

std::optional<UpdateId> UpdateId::parse(std::string_view text) {
    constexpr std::string_view prefix = sha256_multihash;
    if (text.size() != prefix.size() + 64 || !text.starts_with(prefix)) return std::nullopt;
    // Each lowercase hex digit's value, and 0x10 for any other byte. A fork's store derives an
    // update's id from its kept text at each probe of its index: no branch a digit.
    static constexpr std::array<std::uint8_t, 256> value = [] {
        std::array<std::uint8_t, 256> v{};
        v.fill(0x10);
        for (int c = '0'; c <= '9'; ++c)
            v[static_cast<std::size_t>(c)] = static_cast<std::uint8_t>(c - '0');
        for (int c = 'a'; c <= 'f'; ++c)
            v[static_cast<std::size_t>(c)] = static_cast<std::uint8_t>(c - 'a' + 10);
        return v;
    }();
    const auto* digits = reinterpret_cast<const unsigned char*>(text.data() + prefix.size());
    UpdateId id;
    unsigned bad = 0;
    for (std::size_t i = 0; i < id.hash_.size(); ++i) {
        const unsigned hi = value[digits[2 * i]];
        const unsigned lo = value[digits[2 * i + 1]];
        bad |= hi | lo;
        id.hash_[i] = static_cast<unsigned char>(hi << 4 | (lo & 0x0F));
    }
    if ((bad & 0x10) != 0) return std::nullopt;
    return id;
}

std::string UpdateId::str() const {
    std::string out(sha256_multihash);
    out.reserve(out.size() + 2 * hash_.size());
    append_hex(out, hash_);
    return out;
}

std::string make_contract_id(const UpdateId& update_id, int node_id) {
    return make_contract_id(update_id.str(), node_id);
}

std::string make_contract_id(std::string_view update_id, int node_id) {
    // sha256("discriminator/<update id>:<node>") and sha256("suffix/<update id>:<node>").
    constexpr std::string_view discriminator = "discriminator/";
    constexpr std::string_view suffix = "suffix/";
    const std::string node = std::to_string(node_id);
    std::string key;
    key.reserve(discriminator.size() + update_id.size() + 1 + node.size());
    key.append(discriminator).append(update_id).append(":").append(node);
    std::string out;
    out.reserve(2 + 64 + 4 + sha256_multihash.size() + 64);
    out.append("00");
    append_hex(out, sha256(key));
    out.append("ca10").append(sha256_multihash);
    key.replace(0, discriminator.size(), suffix);
    append_hex(out, sha256(key));
    return out;
}

std::string base64_encode(std::string_view bytes) {
    static constexpr char alphabet[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out((bytes.size() + 2) / 3 * 4, '=');
    char* o = out.data();
    const auto* in = reinterpret_cast<const unsigned char*>(bytes.data());
    std::size_t i = 0;
    for (; i + 2 < bytes.size(); i += 3) {
        const unsigned n = (unsigned{in[i]} << 16) | (unsigned{in[i + 1]} << 8) | in[i + 2];
        *o++ = alphabet[(n >> 18) & 63];
        *o++ = alphabet[(n >> 12) & 63];
        *o++ = alphabet[(n >> 6) & 63];
        *o++ = alphabet[n & 63];
    }
    if (i < bytes.size()) {
        const bool two = i + 1 < bytes.size();
        const unsigned n = (unsigned{in[i]} << 16) | (two ? unsigned{in[i + 1]} << 8 : 0U);
        *o++ = alphabet[(n >> 18) & 63];
        *o++ = alphabet[(n >> 12) & 63];
        if (two) *o = alphabet[(n >> 6) & 63];  // the rest stays '='
    }
    return out;
}

std::optional<std::string> base64_decode(std::string_view text) {
    // Each character's 6 bits, or 64 for one outside the alphabet ('=' is handled apart).
    static constexpr auto values = [] {
        std::array<std::uint8_t, 256> v{};
        v.fill(64);
        constexpr std::string_view alphabet =
            "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        for (std::size_t i = 0; i < alphabet.size(); ++i)
            v[static_cast<unsigned char>(alphabet[i])] = static_cast<std::uint8_t>(i);
        return v;
    }();
    if (text.size() % 4 != 0) return std::nullopt;
    if (text.empty()) return std::string();
    // One or two '=' end the last group, and only it.
    const std::size_t pad = text.back() != '=' ? 0 : text[text.size() - 2] == '=' ? 2 : 1;
    std::string out((text.size() / 4) * 3 - pad, '\0');
    char* o = out.data();
    const auto* in = reinterpret_cast<const unsigned char*>(text.data());
    const std::size_t whole = text.size() - (pad > 0 ? 4 : 0);
    for (std::size_t i = 0; i < whole; i += 4) {
        const unsigned a = values[in[i]], b = values[in[i + 1]], c = values[in[i + 2]],
                       d = values[in[i + 3]];
        if ((a | b | c | d) & 64) return std::nullopt;
        const unsigned n = (a << 18) | (b << 12) | (c << 6) | d;
        *o++ = static_cast<char>(n >> 16);
        *o++ = static_cast<char>((n >> 8) & 0xFF);
        *o++ = static_cast<char>(n & 0xFF);
    }
    if (pad > 0) {
        const unsigned char* g = in + whole;
        const unsigned a = values[g[0]], b = values[g[1]];
        const unsigned c = pad == 1 ? values[g[2]] : 0;
        if ((a | b | c) & 64) return std::nullopt;
        const unsigned n = (a << 18) | (b << 12) | (c << 6);
        *o++ = static_cast<char>(n >> 16);
        if (pad == 1) *o++ = static_cast<char>((n >> 8) & 0xFF);
    }
    return out;
}

}  // namespace cantonlite::model
