// The one reconnect policy of a run: waits of 1, 2, 4, ... seconds up to a bound, for a number
// of attempts in a row. Progress after a reconnect (a page read) gives the attempts back, so a
// following run that loses its connection now and then is not worn down over the days.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>

namespace tapdiffgen::core {

class Backoff {
public:
    Backoff(int64_t attempts, int64_t maxWaitSeconds);

    /// Counts one more attempt; returns the wait before it, or nullopt when none is left.
    std::optional<std::chrono::seconds> nextWait();
    /// The attempt counted by the last nextWait() (1 for the first).
    int64_t attempt() const { return attempt_; }
    int64_t attempts() const { return attempts_; }
    /// The connection works again: the next loss starts from the first attempt.
    void reset() { attempt_ = 0; }

private:
    int64_t attempts_;
    int64_t maxWaitSeconds_;
    int64_t attempt_ = 0;
};

}  // namespace tapdiffgen::core
