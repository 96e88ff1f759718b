#pragma once
// Zeroed arrays for large tables probed at random, in transparent huge pages; a state file's load
// in them.

#include <sys/mman.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <new>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

// jemalloc's control interface, when the executable is linked with it (CANTONLITE_JEMALLOC): a
// weak reference, null under glibc's malloc (the sanitizer trees, the test executables).
extern "C" int mallctl(const char* name, void* oldp, std::size_t* oldlenp, void* newp,
                       std::size_t newlen) __attribute__((weak));

namespace cantonlite::util {

inline constexpr std::size_t huge_page_bytes = std::size_t{2} << 20;

// `n` items of an implicit-lifetime type, all bytes zero. From 2 MiB up, the memory is mapped
// from the kernel, which hands out zeroed pages: no pass writes the zeros, and each page is
// faulted in at its first use. It is aligned to a huge page, and the kernel is asked to back it
// with huge pages (MADV_HUGEPAGE): a table of millions of slots probed at random otherwise misses
// the TLB at nearly every probe (a million-amulet seed load spent 0.4 s more in the Names'
// probes than ten 100k loads did). Smaller arrays come from the heap.
template <class T>
class ZeroedArray {
    static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>);

  public:
    ZeroedArray() = default;
    explicit ZeroedArray(std::size_t n) {
        const std::size_t bytes = n * sizeof(T);
        if (bytes < huge_page_bytes) {
            small_ = std::make_unique<T[]>(n);
            data_ = small_.get();
            return;
        }
        // Mapped with a huge page of slack, used from its first huge-page boundary on (the slack
        // is never touched, so never resident).
        mapped_ = bytes + huge_page_bytes;
        void* p =
            ::mmap(nullptr, mapped_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED) throw std::bad_alloc();
        map_ = static_cast<char*>(p);
        const auto at = reinterpret_cast<std::uintptr_t>(p);
        const auto aligned = (at + huge_page_bytes - 1) & ~(huge_page_bytes - 1);
        data_ = reinterpret_cast<T*>(aligned);
        (void)::madvise(data_, bytes, MADV_HUGEPAGE);
    }
    ZeroedArray(ZeroedArray&& other) noexcept { swap(other); }
    ZeroedArray& operator=(ZeroedArray&& other) noexcept {
        ZeroedArray(std::move(other)).swap(*this);
        return *this;
    }
    ~ZeroedArray() {
        if (map_ != nullptr) ::munmap(map_, mapped_);
    }

    T& operator[](std::size_t i) const { return data_[i]; }
    T* data() const { return data_; }

  private:
    void swap(ZeroedArray& other) noexcept {
        std::swap(small_, other.small_);
        std::swap(map_, other.map_);
        std::swap(mapped_, other.mapped_);
        std::swap(data_, other.data_);
    }
    std::unique_ptr<T[]> small_;
    char* map_ = nullptr;
    std::size_t mapped_ = 0;
    T* data_ = nullptr;
};

// While a large state file loads, jemalloc maps its arenas' new memory in transparent huge pages
// (madvise): on this VM first touching 4 KiB pages was a third of a load (100 000 amulets: 233
// against 159 ms; 300 000: 624 against 425 ms). It costs memory: each arena's first 2 MiB, and
// what a huge page holds beyond what is used (100 000 amulets: 97 MB resident against 78, still
// below the seed load's 104). Not for a small file, whose network those 2 MiB an arena would
// double, nor for a seed's load (the bytes per amulet of issue 12), nor once the last load that
// asked is done. Does nothing without jemalloc.
class HugePagesWhileLoading {
  public:
    static constexpr std::uintmax_t from_file_bytes = std::uintmax_t{16} << 20;

    explicit HugePagesWhileLoading(std::uintmax_t file_bytes) {
        if (file_bytes < from_file_bytes || mallctl == nullptr) return;
        const std::lock_guard lock(mutex_);
        if (loads_++ == 0) hook();
        asked_ = true;
    }
    ~HugePagesWhileLoading() {
        if (!asked_) return;
        const std::lock_guard lock(mutex_);
        if (--loads_ == 0) unhook();
    }
    HugePagesWhileLoading(const HugePagesWhileLoading&) = delete;
    HugePagesWhileLoading& operator=(const HugePagesWhileLoading&) = delete;

  private:
    // jemalloc's hooks for an arena's memory (jemalloc.h's extent_hooks_t, 5.x: nine functions,
    // the first of which maps new memory).
    struct ExtentHooks {
        using Alloc = void*(ExtentHooks*, void*, std::size_t, std::size_t, bool*, bool*, unsigned);
        Alloc* alloc;
        std::array<void*, 8> others;
    };

    static std::string hooks_of(unsigned arena) {
        return "arena." + std::to_string(arena) + ".extent_hooks";
    }
    // REQUIRES: mutex_ held.
    static void hook() {
        unsigned arenas = 0;
        std::size_t size = sizeof(arenas);
        ExtentHooks* defaults = nullptr;
        std::size_t hooks_size = sizeof(defaults);
        if (mallctl("arenas.narenas", &arenas, &size, nullptr, 0) != 0 ||
            mallctl(hooks_of(0).c_str(), &defaults, &hooks_size, nullptr, 0) != 0 ||
            defaults == nullptr)
            return;
        original_ = defaults;
        hooks_ = *defaults;
        hooks_.alloc = [](ExtentHooks* /*hooks*/, void* at, std::size_t bytes, std::size_t align,
                          bool* zero, bool* commit, unsigned arena) -> void* {
            void* memory = original_->alloc(original_, at, bytes, align, zero, commit, arena);
            if (memory != nullptr) (void)::madvise(memory, bytes, MADV_HUGEPAGE);
            return memory;
        };
        ExtentHooks* ours = &hooks_;
        for (unsigned i = 0; i < arenas; ++i) {
            // (Setting them creates an arena not made yet, with them: a load's threads take new
            // ones.)
            if (mallctl(hooks_of(i).c_str(), nullptr, nullptr, &ours, sizeof(ours)) == 0)
                hooked_.push_back(i);
        }
    }
    // REQUIRES: mutex_ held.
    static void unhook() {
        for (const unsigned i : hooked_)
            (void)mallctl(hooks_of(i).c_str(), nullptr, nullptr, &original_, sizeof(original_));
        hooked_.clear();
    }

    static inline std::mutex mutex_;
    static inline int loads_ = 0;                    // guarded by mutex_
    static inline std::vector<unsigned> hooked_;     // guarded by mutex_
    static inline ExtentHooks* original_ = nullptr;  // jemalloc's own, set before hooks_ is used
    static inline ExtentHooks hooks_{};
    bool asked_ = false;
};

}  // namespace cantonlite::util
