#include "replay/timing/gap_reread.hpp"

#include <algorithm>

namespace tapdiffgen::core {
namespace {

// About the time a concurrent writer's commit takes to land, and the shortest poll wait.
constexpr GapReread::Seconds kFirstRereadAfter{0.01};

GapReread::Clock::duration rereadTicks(GapReread::Seconds seconds) {
    return std::chrono::duration_cast<GapReread::Clock::duration>(seconds);
}

}  // namespace

GapReread::GapReread(Seconds longest)
    : shortest_(std::min(kFirstRereadAfter, longest)), longest_(longest), wait_(shortest_) {}

bool GapReread::due(int64_t from, Clock::time_point readAt, Clock::time_point now) {
    if (range_ != from) {
        range_ = from;
        wait_ = shortest_;
        next_ = readAt + rereadTicks(wait_);
    }
    return now >= next_;
}

void GapReread::stillGapped(Clock::time_point now) {
    wait_ = std::min(longest_, wait_ * 2);
    next_ = now + rereadTicks(wait_);
}

}  // namespace tapdiffgen::core
