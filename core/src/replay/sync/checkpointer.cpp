#include "replay/sync/checkpointer.hpp"

#include <algorithm>

namespace tapdiffgen::core {

Checkpointer::Checkpointer(MessageWriter& writer, TapState& state,
                           const std::vector<StreamRuntime>& streams, RunObserver& observer,
                           double stateIntervalSeconds)
    : writer_(writer),
      state_(state),
      streams_(streams),
      observer_(observer),
      interval_(stateIntervalSeconds) {}

void Checkpointer::commit() { write(); }

void Checkpointer::commitReplay(const HorizonTracker& horizon) {
    for (size_t i = 0; i < streams_.size(); ++i) {
        const StreamRuntime& stream = streams_[i];
        if (!stream.replaying && !stream.stopped) continue;
        int64_t safe = stream.cursor;
        if (auto held = horizon.holdFor(i)) safe = std::min(safe, *held);
        // A bookmark never moves backwards: an older run already proved everything below it.
        const int64_t previous = state_.bookmark(stream.name).value_or(0);
        state_.setBookmark(stream.name, std::max(previous, safe));
    }
    if (write()) lastReplayStateAt_ = std::chrono::steady_clock::now();
}

void Checkpointer::keepFresh() {
    const auto now = std::chrono::steady_clock::now();
    if (now - lastReplayStateAt_ < interval_) return;
    writer_.repeatState();
    lastReplayStateAt_ = now;
    if (!writer_.lastState().empty()) tellBookmarks();
}

std::chrono::steady_clock::time_point Checkpointer::nextFreshAt() const {
    return lastReplayStateAt_ +
           std::chrono::duration_cast<std::chrono::steady_clock::duration>(interval_);
}

bool Checkpointer::write() {
    if (!writer_.writeState(state_.toJson())) return false;
    tellBookmarks();
    return true;
}

void Checkpointer::tellBookmarks() {
    std::vector<std::optional<int64_t>> bookmarks;
    bookmarks.reserve(streams_.size());
    for (const StreamRuntime& stream : streams_) bookmarks.push_back(state_.bookmark(stream.name));
    observer_.checkpointed(bookmarks);
}

}  // namespace tapdiffgen::core
