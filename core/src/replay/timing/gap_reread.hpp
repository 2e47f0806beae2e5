// When a following run reads the oldest pending range again to see whether its gaps have
// filled. A gap is most often the id of a concurrent writer whose commit lands a millisecond
// after the page was read; once every id of the range is in the log, nothing can appear in it
// any more, whatever the transactions' horizon says, and the late events can be emitted at once
// instead of after the horizon check (which, without a wake-up, may take up to seconds). So the
// first read again is soon after the page, and each one that still finds a gap (a rolled-back
// id, a transaction held open) doubles the wait, up to poll_interval_seconds, so that a gap that
// lasts costs one light query per interval.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>

#include "replay/timing/poll_schedule.hpp"

namespace tapdiffgen::core {

class GapReread {
public:
    using Clock = std::chrono::steady_clock;
    using Seconds = std::chrono::duration<double>;

    explicit GapReread(Seconds longest);

    /// Whether the oldest pending range, which starts after `from` and was first read at
    /// `readAt`, is due to be read again at `now`. A range other than the last one asked about
    /// starts the schedule again.
    bool due(int64_t from, Clock::time_point readAt, Clock::time_point now);
    /// A read again at `now` still found a gap.
    void stillGapped(Clock::time_point now);
    Seconds nextWait() const { return waits_.nextWait(); }

private:
    /// The waits themselves: the poll's schedule, shortest after a new range, twice as long
    /// after each read again that still finds a gap.
    PollSchedule waits_;
    std::optional<int64_t> range_;
    Clock::time_point next_{};
};

}  // namespace tapdiffgen::core
