#pragma once
// Faulting memory in ahead of its use.

#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <span>

namespace cantonlite::util {

// Faults in the whole pages of `memory` as a write to each would, without writing (Linux 5.14's
// MADV_POPULATE_WRITE): on another thread, while this one fills the memory from its start, the
// fills find their pages there rather than trapping at each. Its contents do not change. False
// when the kernel could not (before Linux 5.14), and nothing was done.
inline bool prefault(std::span<char> memory) {
#ifdef MADV_POPULATE_WRITE
    const auto page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
    const auto begin = (reinterpret_cast<std::uintptr_t>(memory.data()) + page - 1) & ~(page - 1);
    const auto end =
        (reinterpret_cast<std::uintptr_t>(memory.data()) + memory.size()) & ~(page - 1);
    return end <= begin ||
           ::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_POPULATE_WRITE) == 0;
#else
    (void)memory;
    return false;
#endif
}

}  // namespace cantonlite::util
