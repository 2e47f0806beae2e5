// Time taken, in milliseconds of the steady clock, for the checks that bound a wait.
#pragma once

#include <chrono>
#include <cstdint>

namespace tapdiffgen::conformance {

using Clock = std::chrono::steady_clock;

inline int64_t millisecondsBetween(Clock::time_point from, Clock::time_point to) {
    return std::chrono::duration_cast<std::chrono::milliseconds>(to - from).count();
}

inline int64_t millisecondsSince(Clock::time_point start) {
    return millisecondsBetween(start, Clock::now());
}

}  // namespace tapdiffgen::conformance
