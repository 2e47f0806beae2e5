#include "replay/timing/backoff.hpp"

#include <algorithm>

namespace tapdiffgen::core {

Backoff::Backoff(int64_t attempts, int64_t maxWaitSeconds)
    : attempts_(attempts), maxWaitSeconds_(maxWaitSeconds) {}

std::optional<std::chrono::seconds> Backoff::nextWait() {
    if (attempt_ >= attempts_) return std::nullopt;
    ++attempt_;
    const int64_t doubling = int64_t{1} << std::min<int64_t>(attempt_ - 1, 20);
    return std::chrono::seconds(std::min(maxWaitSeconds_, doubling));
}

}  // namespace tapdiffgen::core
