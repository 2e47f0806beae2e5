// The clock of one sync run, from its start to its end across every reconnect: the time limits
// (max_run_seconds, idle_exit_seconds) and the reason the run stopped. A connection attempt
// never restarts it.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

namespace tapdiffgen::core {

class RunClock {
public:
    using Clock = std::chrono::steady_clock;

    /// maxRunSeconds, idleExitSeconds: 0 means no limit.
    RunClock(int64_t maxRunSeconds, int64_t idleExitSeconds);

    double elapsedSeconds() const;
    Clock::time_point started() const { return started_; }

    /// New events were read: the idle time starts again.
    void noteActivity() { lastActivity_ = Clock::now(); }
    double idleSeconds() const;

    /// Whether the run must end now (a stop signal, a time limit); the first reason found is
    /// kept as stopReason().
    bool shouldStop();
    const std::string& stopReason() const { return stopReason_; }
    /// Ends the run for `reason` (kept unless a reason was already found).
    void stop(const std::string& reason);

    /// Sleeps up to `duration`, in short slices so that a stop signal or a time limit ends the
    /// sleep early; returns false when it did (and the run must end).
    bool sleepFor(std::chrono::duration<double> duration);

    /// The longest a wait may last before a time limit falls due (Clock::duration::max() when
    /// there is none).
    Clock::duration untilLimit() const;

private:
    Clock::time_point started_;
    Clock::time_point lastActivity_;
    Clock::duration maxRun_;
    Clock::duration idleExit_;
    std::string stopReason_;
};

}  // namespace tapdiffgen::core
