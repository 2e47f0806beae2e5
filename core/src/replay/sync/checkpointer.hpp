// The one writer of STATE messages, and the one place that decides when a STATE is due
// (Debezium's OffsetCommitPolicy in spirit):
//   - when the run starts from a state, that state, so the target holds it before any record;
//   - after each page of the replay, each replaying (or stopped) stream's bookmark moved up to
//     its cursor, but never past an id a pending range holds back (scan/horizon_tracker.hpp),
//     and never backwards;
//   - after each chunk of a snapshot, the state with the snapshot's position;
//   - at the log's head, the last STATE again once state_interval_seconds passed since the
//     replay's last one, so a following target sees the tap alive;
//   - at the end (or a stop while a reconnect waits), the state as it stands.
// A STATE identical to the last one is not written again (MessageWriter), and every STATE
// written is told to the observers with each stream's bookmark.
#pragma once

#include <chrono>
#include <vector>

#include "replay/observe/run_observer.hpp"
#include "replay/scan/horizon_tracker.hpp"
#include "replay/sync/stream_runtime.hpp"
#include "singer/message_writer.hpp"
#include "state/tap_state.hpp"

namespace tapdiffgen::core {

class Checkpointer {
public:
    /// All must outlive it.
    Checkpointer(MessageWriter& writer, TapState& state, const std::vector<StreamRuntime>& streams,
                 RunObserver& observer, double stateIntervalSeconds);

    /// The state as it stands (a snapshot's position, the start, the end of a stopped run).
    void commit();
    /// After a page of the replay: the bookmarks of the replaying and stopped streams, held back
    /// behind `horizon`'s pending ranges.
    void commitReplay(const HorizonTracker& horizon);
    /// The replay starts (again, after a reconnect): its state interval starts now.
    void startInterval() { lastReplayStateAt_ = std::chrono::steady_clock::now(); }
    /// At the log's head: the last STATE again when the state interval has passed.
    void keepFresh();
    /// When keepFresh() writes next.
    std::chrono::steady_clock::time_point nextFreshAt() const;

private:
    MessageWriter& writer_;
    TapState& state_;
    const std::vector<StreamRuntime>& streams_;
    RunObserver& observer_;
    std::chrono::duration<double> interval_;
    std::chrono::steady_clock::time_point lastReplayStateAt_ = std::chrono::steady_clock::now();

    bool write();
    void tellBookmarks();
};

}  // namespace tapdiffgen::core
