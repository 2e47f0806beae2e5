// How long a following run waits before it reads the log again when nothing woke it: briefly
// right after a read that found events (more tend to follow), then twice as long after each
// empty read, up to poll_interval_seconds, so an idle tap costs one light query per interval.
#pragma once

#include <chrono>

namespace tapdiffgen::core {

class PollSchedule {
public:
    using Seconds = std::chrono::duration<double>;

    explicit PollSchedule(Seconds longest);

    /// After a read: whether it found new events.
    void afterRead(bool foundEvents);
    Seconds nextWait() const { return current_; }

private:
    Seconds shortest_;
    Seconds longest_;
    Seconds current_;
};

}  // namespace tapdiffgen::core
