#include "replay/timing/run_clock.hpp"

#include <algorithm>
#include <thread>

#include "replay/timing/stop_signal.hpp"

namespace tapdiffgen::core {
namespace {

// A stop signal is seen within this long while the run sleeps.
constexpr std::chrono::milliseconds kSleepSlice{50};

RunClock::Clock::duration limitOf(int64_t seconds) {
    if (seconds <= 0) return RunClock::Clock::duration::max();
    return std::chrono::duration_cast<RunClock::Clock::duration>(std::chrono::seconds(seconds));
}

}  // namespace

RunClock::RunClock(int64_t maxRunSeconds, int64_t idleExitSeconds)
    : started_(Clock::now()),
      lastActivity_(started_),
      maxRun_(limitOf(maxRunSeconds)),
      idleExit_(limitOf(idleExitSeconds)) {}

double RunClock::elapsedSeconds() const {
    return std::chrono::duration<double>(Clock::now() - started_).count();
}

double RunClock::idleSeconds() const {
    return std::chrono::duration<double>(Clock::now() - lastActivity_).count();
}

bool RunClock::shouldStop() {
    if (!stopReason_.empty()) return true;
    const auto now = Clock::now();
    if (stopRequested()) {
        stopReason_ = std::string("stopped by ") + stopSignalName();
    } else if (now - started_ >= maxRun_) {
        stopReason_ = "max_run_seconds reached";
    } else if (now - lastActivity_ >= idleExit_) {
        stopReason_ = "idle_exit_seconds reached";
    }
    return !stopReason_.empty();
}

void RunClock::stop(const std::string& reason) {
    if (stopReason_.empty()) stopReason_ = reason;
}

RunClock::Clock::duration RunClock::untilLimit() const {
    const auto now = Clock::now();
    auto left = Clock::duration::max();
    if (maxRun_ != Clock::duration::max()) left = std::min(left, started_ + maxRun_ - now);
    if (idleExit_ != Clock::duration::max()) left = std::min(left, lastActivity_ + idleExit_ - now);
    return std::max(left, Clock::duration::zero());
}

bool RunClock::sleepFor(std::chrono::duration<double> duration) {
    const auto until = Clock::now() + std::chrono::duration_cast<Clock::duration>(duration);
    while (!shouldStop()) {
        const auto now = Clock::now();
        if (now >= until) return true;
        std::this_thread::sleep_for(std::min<Clock::duration>(until - now, kSleepSlice));
    }
    return false;
}

}  // namespace tapdiffgen::core
