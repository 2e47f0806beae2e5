#include "replay/timing/gap_reread.hpp"

namespace tapdiffgen::core {
namespace {

GapReread::Clock::duration rereadTicks(GapReread::Seconds seconds) {
    return std::chrono::duration_cast<GapReread::Clock::duration>(seconds);
}

}  // namespace

GapReread::GapReread(Seconds longest) : waits_(longest) {}

bool GapReread::due(int64_t from, Clock::time_point readAt, Clock::time_point now) {
    if (range_ != from) {
        range_ = from;
        waits_.afterRead(true);
        next_ = readAt + rereadTicks(waits_.nextWait());
    }
    return now >= next_;
}

void GapReread::stillGapped(Clock::time_point now) {
    waits_.afterRead(false);
    next_ = now + rereadTicks(waits_.nextWait());
}

}  // namespace tapdiffgen::core
