#include "util/heap_setup.hpp"

#include <cstdint>
#include <cstdlib>

#if defined(__GLIBC__)
#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace tapdiffgen::core {

#if defined(__GLIBC__) && !defined(__SANITIZE_ADDRESS__)
namespace {

constexpr int kMiB = 1 << 20;
// Room the heap takes beyond each request: the first growth reserves it (address space only,
// nothing is touched), so that the huge-page advice below covers a whole run's heap.
constexpr int kHeapStep = 128 * kMiB;
// Blocks above this still get their own mapping; below it, a freed block is reused in place.
constexpr int kOwnMappingFrom = 32 * kMiB;
// Free memory at the heap's top is handed back only beyond this.
constexpr int kKeptFree = 256 * kMiB;
constexpr uintptr_t kHugePage = 2 * kMiB;

// The heap glibc grows with brk, from the probe's huge page up to the break. The probe is
// larger than the heap has free at its top, so the heap grows by kHeapStep now and the advice
// covers all of it.
void adviseHugePages() {
    const size_t probeSize = mallinfo2().keepcost + kHugePage;
    void* probe = std::malloc(probeSize);
    const auto first = reinterpret_cast<uintptr_t>(probe);
    const auto top = reinterpret_cast<uintptr_t>(sbrk(0));
    // Not in the brk heap (brk refused, or another allocator answered): nothing to advise.
    if (probe != nullptr && first < top && top - first <= probeSize + 2 * uintptr_t{kHeapStep}) {
        const uintptr_t begin = (first + kHugePage - 1) & ~(kHugePage - 1);
        if (begin < top) madvise(reinterpret_cast<void*>(begin), top - begin, MADV_HUGEPAGE);
    }
    std::free(probe);
}

}  // namespace

void setUpHeap() {
    // One arena: other threads' arenas are mappings of their own, outside the advised heap.
    mallopt(M_ARENA_MAX, 1);
    mallopt(M_MMAP_THRESHOLD, kOwnMappingFrom);
    mallopt(M_TRIM_THRESHOLD, kKeptFree);
    mallopt(M_TOP_PAD, kHeapStep);
    adviseHugePages();
}
#else
void setUpHeap() {}
#endif

}  // namespace tapdiffgen::core
