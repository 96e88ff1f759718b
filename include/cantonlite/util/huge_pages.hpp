#pragma once
// Zeroed arrays for large tables probed at random, in transparent huge pages.

#include <sys/mman.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>

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

}  // namespace cantonlite::util
