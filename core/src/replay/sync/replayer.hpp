// The sync: one scan of the diffgen log serves every selected stream.
//
// Each stream has a cursor (every id <= it was read for the stream). Each page reads after the
// lowest cursor C, for the streams standing at C only, and no further than the next stream's
// cursor: a stream that lags catches up on its own table names, then joins the shared scan. So
// the number of diffgen queries does not grow with the number of tables. After a page is
// emitted, its streams' cursors advance, and a STATE follows with each stream's safe bookmark
// (its cursor, held back by the horizon tracker while ids may still appear).
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "plugin/dialect_connection.hpp"
#include "replay/output/plan_emitter.hpp"
#include "replay/output/table_reader.hpp"
#include "replay/scan/horizon_tracker.hpp"
#include "replay/scan/journal_watch.hpp"
#include "replay/scan/page_sizer.hpp"
#include "replay/scan/snapshot_signal.hpp"
#include "replay/scan/stream_set.hpp"
#include "replay/sessions/page_read_ahead.hpp"
#include "replay/sync/run_scope.hpp"
#include "replay/timing/gap_reread.hpp"
#include "replay/timing/poll_schedule.hpp"

namespace tapdiffgen::core {

/// The replay over one connection; a reconnect makes a new one, while the clock and the
/// observers, which belong to the run, carry on.
class Replayer : private LagProbe {
public:
    /// readAhead, when given, reads the next page of a backlog on its own session meanwhile;
    /// a page's re-pulls are shared with the sessions of `repulls`.
    Replayer(RunScope& run, DialectConnection& connection, PageReadAhead* readAhead = nullptr,
             RepullSessions repulls = {});

    /// The replay a page at a time, so that the caller can do other work between pages:
    /// start(), then step() until the log is drained or the clock says stop (its stopReason()
    /// says why), then finish(). A STATE follows every page whose bookmarks changed, and the
    /// end.
    enum class Step {
        /// A page was read (or, following, the replay waited at the log's head): call again.
        More,
        /// Not read: pending ranges hold as many ids as allowed, and otherWork was true.
        Paused,
        /// Every stream is at the log's head (not following).
        Drained,
        /// The clock says stop.
        Stopped,
    };
    void start();
    /// Reads and emits the next page, and has the STATE written. otherWork: the caller has work
    /// between pages, so a replay at the log's head or held by pending ranges does not wait.
    Step step(bool otherWork);
    /// Whether the last step found every replaying stream at the log's head.
    bool atHead() const { return atHead_; }
    /// Waits for the pending ranges of a drained log, then writes the last STATE.
    void finish(bool drained);

private:
    RunScope& run_;
    const SyncOptions& options_;
    std::vector<StreamRuntime>& streams_;
    DialectConnection& connection_;
    PageReadAhead* readAhead_;  // null: every page is read on connection_
    HorizonTracker horizon_;
    JournalWatch journal_;
    TableReader reader_;
    PlanEmitter emitter_;
    std::shared_ptr<const PageStreams> pageStreams_;
    // The streams' states by index, as the scan sees them.
    std::vector<const StreamState*> states_;
    // Events of the page the current step read.
    uint64_t pageEvents_ = 0;
    bool atHead_ = false;
    PollSchedule poll_;
    GapReread gapReread_;
    PageSizer pageSizer_;
    bool warnedHoldingTooMuch_ = false;

    bool readNextPage();
    /// The page read ahead for `query` when there is one, else read now.
    FetchedPage readPage(const PageQuery& query);
    static PageRead pageReadOf(const FetchedPage& read, bool full);
    /// The plan of a page read for `streams`: the one made with it on the read-ahead's thread
    /// when that was for the same streams, else made now.
    PagePlan planOf(FetchedPage& read, const StreamSet& streams);
    /// Plans a page read for `streams`; `late` for a range read again once its late commits
    /// are final.
    PagePlan planPage(const EventPage& page, const StreamSet& streams,
                      std::optional<LateRead> late = std::nullopt);
    /// Emits a planned page's records for `streams`.
    StreamSet stopStreams(const PagePlan& plan, const StreamSet& streams);
    void emitPlan(const PagePlan& plan, const StreamSet& streams);
    void settleRange(int64_t from, int64_t readThrough, int64_t lastId, const EventPage& page,
                     const StreamSet& active);
    void emitLateEvents(const PendingRange& range);
    void emitLatePage(const PendingRange& range, const EventPage& page);
    void drainFinalRanges();
    bool takeFilledOldestRange();
    std::vector<std::pair<int64_t, int64_t>> emitFilledParts(const PendingRange& range);
    bool holdsTooMuch() const;
    bool waitWhileHoldingTooMuch();
    void waitForNewEvents();
    bool waitForSignal(std::chrono::duration<double> budget);
    void keepStateFresh();
    void waitForPendingRanges(std::chrono::duration<double> budget);
    void checkpoint();
    std::optional<int64_t> idsBehindHead() override;
    std::vector<const StreamState*> streamsIn(const StreamSet& streams) const;
    std::vector<const StreamState*> replayingStreams() const;
    std::vector<std::string> journalNames(const StreamSet& streams) const;
    void takeSignals(const std::vector<SnapshotSignal>& signals);
    /// Streams whose log no longer covers them and whose start_from is when_needed.
    void snapshotAgain(const std::vector<size_t>& streams);
    StreamSet withoutStreams(const StreamSet& streams, const std::vector<size_t>& left) const;
};

}  // namespace tapdiffgen::core
