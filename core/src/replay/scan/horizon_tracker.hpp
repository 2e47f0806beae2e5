// Keeps the bookmark behind every diffgen id that may still appear.
//
// diffgen ids are allocated when a row is inserted but become visible when its transaction
// commits, so a page can show id 101 while id 100 is still in flight. After each page read over
// (from, to]:
//   - when the driver counted every id of the range (no gap), the range is final at once;
//   - otherwise the range is pending, with the horizon mark the driver took in the same
//     snapshot, until the driver says every transaction that could hold a missing id has ended
//     (or, for a driver that cannot tell, until horizon_settle_seconds have passed), or until
//     a read again finds every id of its gapped parts (the caller reads them again, emits the
//     late events of each part without a gap left at once, and says so: narrowOldest(),
//     takeOldest()).
// A pending range holds the bookmarks of its streams at its lower end. Once final, the range is
// read again and the events that committed late are emitted (the caller does that).
//
// A range read right after the newest pending one, for the same streams, joins it instead of
// queueing behind it, so a transaction held open for minutes costs one range whatever the
// number of pages read meanwhile. A joining part with gaps is kept to be read again, with the
// ids already emitted from it, and the joined range takes its newer mark: everything in flight
// when the older mark was taken has either ended or is still in flight at the newer mark. A
// joining part without gaps only moves the range's end. Memory grows with the ids of the
// parts with gaps, which heldIds() counts.
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <optional>
#include <utility>
#include <vector>

#include "plugin/dialect_connection.hpp"
#include "replay/scan/stream_set.hpp"

namespace tapdiffgen::core {

struct PendingRange {
    int64_t from = 0;  // exclusive
    int64_t to = 0;    // inclusive
    StreamSet streams;
    std::vector<int64_t> seenIds;  // ascending ids already emitted from the parts below
    /// The parts of (from, to] that have gaps, to read again once final; the parts between
    /// them were final when read, or when read again (empty: the whole range).
    std::vector<std::pair<int64_t, int64_t>> gappedParts;
    TdgHorizonMark mark{};
    std::chrono::steady_clock::time_point readAt;
};

class HorizonTracker {
public:
    /// finalThrough: every id <= it is known final (the highest bookmark of the input state).
    HorizonTracker(DialectConnection& connection, double settleSeconds, int64_t finalThrough);

    /// The ids of (from, to] are all final.
    void noteFinal(int64_t from, int64_t to);
    bool isFinalThrough(int64_t id) const { return id <= finalThrough_; }

    /// Queues `range`, or joins it to the newest pending range when it follows on from it.
    /// final: the range's own ids are all final (it is kept only to join the one before).
    void addPending(PendingRange range, bool final = false);
    /// Whether a range over (from, ...] for `streams` would join the newest pending range.
    bool joinsPending(int64_t from, const StreamSet& streams) const;
    size_t pendingCount() const { return pending_.size(); }
    /// The ids kept to recognise already emitted events when pending ranges are read again.
    size_t heldIds() const { return heldIds_; }

    /// Asks about the oldest pending ranges, in order, and returns those that are now final.
    std::vector<PendingRange> takeFinal();
    /// The oldest pending range; null when none is.
    const PendingRange* oldest() const { return pending_.empty() ? nullptr : &pending_.front(); }
    /// Removes the oldest pending range, which a read again proved to have no gap left.
    PendingRange takeOldest();
    /// The oldest pending range's gapped parts are now only `parts` (not empty): a read again
    /// found the others without a gap and emitted their late events.
    void narrowOldest(std::vector<std::pair<int64_t, int64_t>> parts);

    /// The lower end of the oldest pending range that holds `stream`, if any.
    std::optional<int64_t> holdFor(size_t stream) const;

private:
    DialectConnection& connection_;
    std::chrono::duration<double> settle_;
    int64_t finalThrough_;
    std::deque<PendingRange> pending_;
    size_t heldIds_ = 0;
    bool driverCannotTell_ = false;
    uint64_t checks_ = 0;

    bool isFinal(PendingRange& range);
    PendingRange popOldest();
};

}  // namespace tapdiffgen::core
