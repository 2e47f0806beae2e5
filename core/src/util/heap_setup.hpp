// How the tap's process lays out its heap, set once at start-up before any thread exists.
//
// A replay touches tens of MiB for the first time: pages of events, their plans, and rows
// rendered while other sessions re-pull. Touched 4 KiB at a time, that is one page fault per
// 4 KiB, and on a virtualised host a fault costs several microseconds: a 100,000-event run
// took about 12,000 of them, a quarter of the tap's CPU samples. So the heap is one arena, grown in
// large steps, kept for the run rather than handed back and faulted in again, and marked for
// transparent huge pages, which the kernel grants where its policy allows (`madvise` or
// `always` in /sys/kernel/mm/transparent_hugepage/enabled) and ignores otherwise.
#pragma once

namespace tapdiffgen::core {

/// Sets the allocator up as above. Call first thing in main(); without glibc's allocator (a
/// sanitizer's, another malloc) it does nothing.
void setUpHeap();

}  // namespace tapdiffgen::core
