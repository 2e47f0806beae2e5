#include "replay/timing/poll_schedule.hpp"

#include <algorithm>

namespace tapdiffgen::core {
namespace {

constexpr PollSchedule::Seconds kShortestWait{0.01};

}  // namespace

PollSchedule::PollSchedule(Seconds longest)
    : shortest_(std::min(kShortestWait, longest)), longest_(longest), current_(shortest_) {}

void PollSchedule::afterRead(bool foundEvents) {
    current_ = foundEvents ? shortest_ : std::min(longest_, current_ * 2);
}

}  // namespace tapdiffgen::core
