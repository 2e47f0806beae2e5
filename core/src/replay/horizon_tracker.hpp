// Keeps the bookmark behind every diffgen id that may still appear.
//
// diffgen ids are allocated when a row is inserted but become visible when its transaction
// commits, so a page can show id 101 while id 100 is still in flight. After each page read over
// (from, to]:
//   - when the driver counted every id of the range (no gap), the range is final at once;
//   - otherwise the range is pending, with the horizon mark the driver took in the same
//     snapshot, until the driver says every transaction that could hold a missing id has ended
//     (or, for a driver that cannot tell, until horizon_settle_seconds have passed).
// A pending range holds the bookmarks of its streams at its lower end. Once final, the range is
// read again and the events that committed late are emitted (the caller does that).
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <optional>
#include <vector>

#include "plugin/dialect_connection.hpp"

namespace tapdiffgen::core {

struct PendingRange {
    int64_t from = 0;  // exclusive
    int64_t to = 0;    // inclusive
    std::vector<size_t> streams;
    std::vector<int64_t> seenIds;  // ascending ids already emitted from this range
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

    void addPending(PendingRange range);
    size_t pendingCount() const { return pending_.size(); }

    /// Asks about the oldest pending ranges, in order, and returns those that are now final.
    std::vector<PendingRange> takeFinal();

    /// The lower end of the oldest pending range that holds `stream`, if any.
    std::optional<int64_t> holdFor(size_t stream) const;

    uint64_t checks() const { return checks_; }

private:
    DialectConnection& connection_;
    std::chrono::duration<double> settle_;
    int64_t finalThrough_;
    std::deque<PendingRange> pending_;
    bool driverCannotTell_ = false;
    uint64_t checks_ = 0;

    bool isFinal(PendingRange& range);
};

}  // namespace tapdiffgen::core
