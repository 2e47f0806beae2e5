// The tap's heap set-up (util/heap_setup.hpp), checked in a child process: it changes the
// allocator of the whole process, which the other tests in this one must not inherit.
#include <malloc.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include <doctest/doctest.h>
#include "util/heap_setup.hpp"

using tapdiffgen::core::setUpHeap;

namespace {

// The VmFlags of the mapping that holds the address `at`, from /proc/self/smaps; empty when
// none. An integer, not a pointer: GCC takes a pointer to fresh malloc'd memory passed as
// `const void*` for a read of it (-Wmaybe-uninitialized), and nothing here reads the memory.
std::string flagsOfMappingAt(uintptr_t at) {
    std::ifstream smaps("/proc/self/smaps");
    bool inside = false;
    for (std::string line; std::getline(smaps, line);) {
        uintptr_t begin = 0;
        uintptr_t end = 0;
        char dash = 0;
        std::istringstream range(line);
        if (range >> std::hex >> begin >> dash >> end && dash == '-') {
            inside = begin <= at && at < end;
        } else if (inside && line.rfind("VmFlags:", 0) == 0) {
            return line;
        }
    }
    return "";
}

// Runs `check` in a child; true when it returned true there.
template <typename Check>
bool inChild(const Check& check) {
    const pid_t child = fork();
    if (child == 0) _exit(check() ? 0 : 1);
    int status = 0;
    return child > 0 && waitpid(child, &status, 0) == child && WIFEXITED(status) &&
           WEXITSTATUS(status) == 0;
}

}  // namespace

#if defined(__GLIBC__) && !defined(__SANITIZE_ADDRESS__)
TEST_CASE("after the heap set-up, blocks of a page's size come from heap marked for huge pages") {
    // Before: a 16 MiB block is not in memory marked for huge pages.
    CHECK(inChild([] {
        char* block = static_cast<char*>(std::malloc(16 << 20));
        const bool marked =
            flagsOfMappingAt(reinterpret_cast<uintptr_t>(block) + (8 << 20)).find(" hg") !=
            std::string::npos;
        std::free(block);
        return !marked;
    }));
    CHECK(inChild([] {
        setUpHeap();
        const size_t ownMappings = mallinfo2().hblks;
        char* block = static_cast<char*>(std::malloc(16 << 20));
        // Its middle: the advice starts at the first whole huge page of the heap it grew.
        const bool marked =
            flagsOfMappingAt(reinterpret_cast<uintptr_t>(block) + (8 << 20)).find(" hg") !=
            std::string::npos;
        const bool inHeap = mallinfo2().hblks == ownMappings;  // not a mapping of its own
        std::free(block);
        return marked && inHeap;
    }));
}
#else
TEST_CASE("without glibc's own allocator the heap set-up leaves the allocator alone") {
    CHECK(inChild([] {
        char* before = static_cast<char*>(std::malloc(16 << 20));
        const std::string flags = flagsOfMappingAt(reinterpret_cast<uintptr_t>(before) + (8 << 20));
        std::free(before);
        setUpHeap();
        char* after = static_cast<char*>(std::malloc(16 << 20));
        const bool same = flagsOfMappingAt(reinterpret_cast<uintptr_t>(after) + (8 << 20)) == flags;
        std::free(after);
        return same;
    }));
}
#endif
