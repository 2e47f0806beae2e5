// While a run reads the log: notices a prune or a reset that happens meanwhile, which the
// start-up checks (catalog/journal_checks.hpp) cannot see. Costs one read of the log's bounds
// (a few index reads) after a page whose id range is not proven gapless, and, following, one
// now and then at the log's head; nothing on a gapless page or an idle poll.
//
// The rules are JournalBounds::lostAfter's, the same as the start-up checks': with a prune
// record, an id past the cursor deleted is a prune; without one, a prune deletes the oldest
// events first, so when the log still holds an id at or below cursor + 1 after a page was
// read, nothing after the cursor had been deleted when the page was: the page saw every
// committed event of its range.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "plugin/dialect_connection.hpp"
#include "replay/model/stream_state.hpp"
#include "replay/observe/run_observer.hpp"

namespace tapdiffgen::core {

class JournalWatch {
public:
    /// Each read of the bounds tells `observer` the log's newest id.
    JournalWatch(DialectConnection& connection, TableRef diffgen, RunObserver& observer)
        : connection_(connection), diffgen_(std::move(diffgen)), observer_(observer) {}

    /// After a page read for `streams` (from their cursors on) whose range may have gaps:
    /// throws JournalError when events after a cursor are gone from the log, except for a
    /// stream whose start_from is when_needed: the indices of those are returned, for their
    /// tables to be snapshotted again.
    std::vector<size_t> checkAfterGap(const std::vector<const StreamState*>& streams);

    /// At the log's head, while following: at most once per `interval`, the same when the log
    /// was reset below `streams`' cursors.
    std::vector<size_t> checkAtHead(const std::vector<const StreamState*>& streams,
                                    std::chrono::duration<double> interval);

private:
    DialectConnection& connection_;
    TableRef diffgen_;
    RunObserver& observer_;
    bool cannotTell_ = false;
    std::chrono::steady_clock::time_point lastAtHead_ = std::chrono::steady_clock::now();

    std::vector<size_t> check(const std::vector<const StreamState*>& streams);
};

}  // namespace tapdiffgen::core
