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
#include "replay/horizon_tracker.hpp"
#include "replay/journal_watch.hpp"
#include "replay/page_read_ahead.hpp"
#include "replay/page_sizer.hpp"
#include "replay/plan_emitter.hpp"
#include "replay/poll_schedule.hpp"
#include "replay/run_clock.hpp"
#include "replay/stream_runtime.hpp"
#include "singer/message_writer.hpp"
#include "state/tap_state.hpp"

namespace tapdiffgen::core {

struct ReplayOptions {
    TableRef diffgen;
    int64_t pageSize = 10000;
    /// Pages of a backlog, after the first full one (PageSizer).
    BacklogPages backlogPages;
    bool skipBadEvents = false;
    double horizonSettleSeconds = 10;
    int64_t horizonWaitSeconds = 30;
    size_t maxPendingRanges = 16;
    /// Ids of pending ranges kept for deduplication (8 bytes each) before reading stops.
    size_t maxHeldIds = 1000000;
    int64_t keysPerFetch = 10000;
    double progressIntervalSeconds = 10;
    /// After the log's head, keep reading new events until the run's clock says stop.
    bool follow = false;
    double pollIntervalSeconds = 1;
    double stateIntervalSeconds = 30;
};

/// Counts over the whole run, across reconnects (each Replayer adds to them).
struct ReplayStats {
    uint64_t events = 0;
    uint64_t records = 0;
    uint64_t diffgenQueries = 0;
    uint64_t repullQueries = 0;
    uint64_t lateEvents = 0;
    /// Bad events passed over under on_bad_event: skip (each also warned about).
    uint64_t skippedEvents = 0;
};

/// The replay over one connection; a reconnect makes a new one, while the clock and the
/// counters, which belong to the run, carry on.
class Replayer {
public:
    /// readAhead, when given, reads the next page of a backlog on its own session meanwhile;
    /// a page's re-pulls are shared with the sessions of `repulls`.
    Replayer(DialectConnection& connection, MessageWriter& writer,
             std::vector<StreamRuntime>& streams, TapState& state, ReplayOptions options,
             RunClock& clock, ReplayStats& stats, PageReadAhead* readAhead = nullptr,
             RepullSessions repulls = {});

    const EmitCounters& emitCounters() const { return emitter_.counters(); }

    /// Runs until the log is drained or the clock says stop (its stopReason() says why).
    /// Writes STATE after every page whose bookmarks changed and once at the end.
    void run();

private:
    DialectConnection& connection_;
    PageReadAhead* readAhead_;  // null: every page is read on connection_
    MessageWriter& writer_;
    std::vector<StreamRuntime>& streams_;
    TapState& state_;
    ReplayOptions options_;
    HorizonTracker horizon_;
    JournalWatch journal_;
    PlanEmitter emitter_;
    std::shared_ptr<const PageStreams> pageStreams_;
    RunClock& clock_;
    ReplayStats& stats_;
    uint64_t repullQueriesCounted_ = 0;
    std::chrono::steady_clock::time_point lastProgress_;
    uint64_t eventsAtLastProgress_ = 0;
    std::chrono::steady_clock::time_point lastStateAt_;
    PollSchedule poll_;
    PageSizer pageSizer_;
    bool warnedHoldingTooMuch_ = false;

    bool readNextPage();
    /// The page read ahead for `query` when there is one, else read now.
    PageRead readPage(const PageQuery& query);
    /// The plan of a page read for the streams `accept` marks: the one made with it on the
    /// read-ahead's thread when that was for the same streams, else made now.
    PagePlan planOf(PageRead& read, const std::vector<bool>& accept);
    /// Plans a page read for the streams `accept` marks; `late` for a range read again once
    /// its late commits are final.
    PagePlan planPage(const EventPage& page, const std::vector<bool>& accept,
                      std::optional<LateRead> late = std::nullopt);
    /// Emits a planned page's records for the streams `accept` marks.
    void emitPlan(const PagePlan& plan, const std::vector<bool>& accept);
    void settleRange(int64_t from, int64_t readThrough, int64_t lastId, const EventPage& page,
                     const std::vector<size_t>& active);
    void emitLateEvents(const PendingRange& range);
    void drainFinalRanges();
    bool holdsTooMuch() const;
    bool waitWhileHoldingTooMuch();
    void waitForNewEvents();
    bool waitForSignal(std::chrono::duration<double> budget);
    void keepStateFresh();
    void waitForPendingRanges(std::chrono::duration<double> budget);
    void writeState();
    void reportProgress(bool force);
    std::string lagText();
    std::vector<bool> acceptMask(const std::vector<size_t>& streams) const;
    std::vector<const StreamRuntime*> streamsAt(const std::vector<size_t>& streams) const;
    std::vector<const StreamRuntime*> replayingStreams() const;
    std::vector<std::string> journalNames(const std::vector<size_t>& streams) const;
};

}  // namespace tapdiffgen::core
