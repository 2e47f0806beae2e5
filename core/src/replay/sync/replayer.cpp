#include "replay/sync/replayer.hpp"

#include <algorithm>
#include <climits>
#include <thread>

#include "maps/datetime.hpp"
#include "replay/scan/page_plan.hpp"
#include "replay/scan/snapshot_signal.hpp"
#include "replay/timing/stop_signal.hpp"
#include "singer/json_text.hpp"
#include "util/log.hpp"

namespace tapdiffgen::core {
namespace {

int64_t highestBookmark(const TapState& state, const std::vector<StreamRuntime>& streams) {
    int64_t highest = 0;
    for (const auto& stream : streams) {
        highest = std::max(highest, state.bookmark(stream.name).value_or(0));
    }
    return highest;
}

// A ts_created that is not ISO 8601 (a driver's own text) tells no time; one without an
// offset is taken as UTC.
std::optional<double> epochSecondsOf(const char* tsCreated) {
    if (tsCreated == nullptr) return std::nullopt;
    const std::optional<maps::Value> parsed = maps::parseIsoDateTime(tsCreated, false);
    if (!parsed) return std::nullopt;
    const int64_t utcMicros =
        parsed->integer - static_cast<int64_t>(parsed->offsetSeconds) * maps::kMicrosPerSecond;
    return static_cast<double>(utcMicros) / static_cast<double>(maps::kMicrosPerSecond);
}

}  // namespace

Replayer::Replayer(RunScope& run, DialectConnection& connection, PageReadAhead* readAhead,
                   RepullSessions repulls)
    : run_(run),
      options_(run.options),
      streams_(run.streams),
      connection_(connection),
      readAhead_(readAhead),
      horizon_(connection, options_.horizonSettleSeconds, highestBookmark(run.state, run.streams)),
      journal_(connection, options_.diffgen, run.observer),
      reader_(connection, run.writer, run.outputs, run.clock, run.observer, options_.keysPerFetch,
              std::move(repulls)),
      emitter_(reader_, run.writer, run.observer),
      poll_(std::chrono::duration<double>(options_.pollIntervalSeconds)),
      gapReread_(std::chrono::duration<double>(options_.pollIntervalSeconds)),
      pageSizer_(options_.pageSize, options_.backlogPages) {
    auto pageStreams = std::make_shared<PageStreams>();
    for (const auto& stream : streams_)
        pageStreams->add(stream.definition->journalName, stream.keyRule);
    pageStreams_ = std::move(pageStreams);
    for (const auto& stream : streams_) states_.push_back(&stream);
}

void Replayer::start() { run_.checkpointer.startInterval(); }

// With other work between pages (a snapshot's chunks), a replay at the log's head or held by
// pending ranges returns at once instead of waiting: the chunks are its wait.
Replayer::Step Replayer::step(bool otherWork) {
    if (run_.clock.shouldStop()) return Step::Stopped;
    if (holdsTooMuch()) {
        if (otherWork) return Step::Paused;
        if (options_.follow) {
            if (!waitWhileHoldingTooMuch()) return Step::Stopped;
        } else {
            waitForPendingRanges(std::chrono::seconds(options_.horizonWaitSeconds));
            if (run_.clock.shouldStop()) return Step::Stopped;
            if (holdsTooMuch()) {
                run_.clock.stop("transactions still hold diffgen ids after " +
                                std::to_string(options_.horizonWaitSeconds) + " s");
                return Step::Stopped;
            }
        }
    }
    pageEvents_ = 0;
    const bool more = readNextPage();
    atHead_ = !more;
    drainFinalRanges();
    checkpoint();
    run_.observer.replayStepped(*this, false);
    poll_.afterRead(pageEvents_ > 0);
    if (more) return Step::More;
    if (!options_.follow) return Step::Drained;
    if (!otherWork) waitForNewEvents();
    return Step::More;
}

void Replayer::finish(bool drained) {
    if (drained && horizon_.pendingCount() > 0) {
        waitForPendingRanges(std::chrono::seconds(options_.horizonWaitSeconds));
        if (horizon_.pendingCount() > 0) {
            log::warning(
                "diffgen ids below the log's head may still be committed by running "
                "transactions; the bookmark stays before them and the next run "
                "reads them again");
        }
    }
    checkpoint();
    run_.observer.replayStepped(*this, true);
}

// At the log's head: waits for the next read, writing a STATE now and then meanwhile.
void Replayer::waitForNewEvents() {
    // Records whose STATE is held back by a pending range must not wait in the buffer.
    run_.writer.flush();
    keepStateFresh();
    const std::chrono::duration<double> untilState =
        run_.checkpointer.nextFreshAt() - std::chrono::steady_clock::now();
    // A driver that is told of commits wakes the run; the wait can then last the whole
    // interval. Otherwise the run sleeps by the poll schedule.
    if (!waitForSignal(
            std::min(std::chrono::duration<double>(options_.pollIntervalSeconds), untilState))) {
        run_.clock.sleepFor(std::min(poll_.nextWait(), untilState));
    }
    keepStateFresh();
    // A reset of the log shows no gap: new ids simply fall below the cursors.
    snapshotAgain(journal_.checkAtHead(
        replayingStreams(), std::chrono::duration<double>(options_.stateIntervalSeconds)));
}

// Waits in slices, so that a stop signal or a time limit is seen soon; false when the driver
// cannot wait.
bool Replayer::waitForSignal(std::chrono::duration<double> budget) {
    constexpr std::chrono::milliseconds kSlice{250};
    const auto until = std::chrono::steady_clock::now() +
                       std::chrono::duration_cast<std::chrono::steady_clock::duration>(budget);
    do {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
            until - std::chrono::steady_clock::now());
        std::optional<bool> changed =
            connection_.waitForChange(std::max<int64_t>(0, std::min(left, kSlice).count()));
        if (!changed) return false;
        if (*changed) return true;
    } while (!run_.clock.shouldStop() && std::chrono::steady_clock::now() < until);
    return true;
}

void Replayer::keepStateFresh() { run_.checkpointer.keepFresh(); }

// Following, with as many held ids as memory allows: reads no further until transactions end
// (never dropping an id). Returns false when the run must end meanwhile.
bool Replayer::waitWhileHoldingTooMuch() {
    if (!warnedHoldingTooMuch_) {
        log::warning(std::to_string(horizon_.pendingCount()) + " id ranges with " +
                     std::to_string(horizon_.heldIds()) +
                     " ids are held by transactions that may still commit diffgen ids; reading "
                     "pauses until they end");
        warnedHoldingTooMuch_ = true;
    }
    while (holdsTooMuch()) {
        if (!run_.clock.sleepFor(std::chrono::duration<double>(options_.pollIntervalSeconds))) {
            return false;
        }
        drainFinalRanges();
        checkpoint();
        keepStateFresh();
    }
    warnedHoldingTooMuch_ = false;
    return true;
}

bool Replayer::holdsTooMuch() const {
    return horizon_.pendingCount() >= options_.maxPendingRanges ||
           horizon_.heldIds() >= options_.maxHeldIds;
}

// Reads and emits one page; returns false when every stream is at the log's head.
bool Replayer::readNextPage() {
    int64_t lowest = INT64_MAX;
    for (const auto& stream : streams_) {
        if (stream.replaying) lowest = std::min(lowest, stream.cursor);
    }
    if (lowest == INT64_MAX) return false;
    StreamSet active(streams_.size());
    int64_t upTo = INT64_MAX;
    for (size_t i = 0; i < streams_.size(); ++i) {
        if (!streams_[i].replaying) continue;
        if (streams_[i].cursor == lowest) {
            active.add(i);
        } else {
            upTo = std::min(upTo, streams_[i].cursor);
        }
    }
    PageQuery query{options_.diffgen, lowest, upTo, pageSizer_.limit(active.size()),
                    journalNames(active)};
    FetchedPage read = readPage(query);
    const EventPage& page = read.page;
    const bool full = static_cast<int64_t>(page.size()) >= query.limit;
    pageEvents_ = page.size();
    run_.observer.pageRead(pageReadOf(read, full));
    if (!page.empty()) run_.clock.noteActivity();

    const int64_t lastId = page.empty() ? lowest : page[page.size() - 1].id;
    const int64_t readThrough = full ? lastId : (upTo != INT64_MAX ? upTo : lastId);
    // A range the page does not prove gapless may have lost events to a prune meanwhile.
    const bool provenGapless =
        readThrough == lastId && (page.empty() || page.rangeRowCount() == lastId - lowest);
    if (!provenGapless) {
        const std::vector<size_t> again = journal_.checkAfterGap(streamsIn(active));
        snapshotAgain(again);
        if (!again.empty()) active = withoutStreams(active, again);
    }
    const PagePlan plan = planOf(read, active);
    const StreamSet stopping = stopStreams(plan, active);
    if (full) {
        pageSizer_.noteFullPage();
        const int64_t next = pageSizer_.limit(active.size());
        if (next != query.limit) {
            log::debug("diffgen pages of " + std::to_string(next) + " events over " +
                       std::to_string(active.size()) + " tables from now on: a full page of " +
                       std::to_string(query.limit) + " means a backlog");
            query.limit = next;
        }
    }
    // A full page is most likely followed by the page after it for the same streams.
    if (readAhead_ != nullptr && full && lastId < upTo) {
        query.afterId = lastId;
        readAhead_->start(std::move(query),
                          PlanRequest{pageStreams_, active, options_.skipBadEvents});
    }
    emitPlan(plan, active);
    takeSignals(snapshotSignals(page, states_, active));
    settleRange(lowest, readThrough, lastId, page, active);
    for (size_t i : active.indices()) {
        if (!stopping.contains(i)) streams_[i].cursor = readThrough;
    }
    return full || upTo != INT64_MAX;
}

FetchedPage Replayer::readPage(const PageQuery& query) {
    if (readAhead_ != nullptr) {
        if (std::optional<FetchedPage> read = readAhead_->take(query)) return std::move(*read);
    }
    FetchedPage read;
    const auto started = std::chrono::steady_clock::now();
    read.page = query.readOn(connection_);
    read.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return read;
}

PageRead Replayer::pageReadOf(const FetchedPage& read, bool full) {
    const EventPage& page = read.page;
    PageRead told;
    told.events = page.size();
    told.full = full;
    told.seconds = read.seconds;
    if (!page.empty()) {
        told.lastId = page[page.size() - 1].id;
        told.oldestEventEpochSeconds = epochSecondsOf(page[0].ts_created);
    }
    return told;
}

PagePlan Replayer::planOf(FetchedPage& read, const StreamSet& streams) {
    if (!read.plan || read.plannedFor != streams) return planPage(read.page, streams);
    run_.observer.eventsSkipped(read.plan->eventsSkipped());
    return std::move(*read.plan);
}

PagePlan Replayer::planPage(const EventPage& page, const StreamSet& streams,
                            std::optional<LateRead> late) {
    PagePlan::Options planOptions;
    planOptions.readFor = streams;
    planOptions.skipBadEvents = options_.skipBadEvents;
    planOptions.late = late;
    PagePlan plan(page, *pageStreams_, planOptions);
    if (late) run_.observer.eventsLate(plan.eventsConsidered());
    run_.observer.eventsSkipped(plan.eventsSkipped());
    return plan;
}

// A stream whose key cannot be read stops before that event, alone: it leaves the scan, its
// cursor (and with it the bookmark) stays before the event, and the run ends non-zero once the
// other streams are done. Returns the streams stopped by this plan.
StreamSet Replayer::stopStreams(const PagePlan& plan, const StreamSet& streams) {
    StreamSet stopping(streams_.size());
    for (size_t i : streams.indices()) {
        const std::optional<StreamStop>& stop = plan.stops()[i];
        if (!stop) continue;
        StreamRuntime& stream = streams_[i];
        stream.replaying = false;
        stream.stopped = true;
        // Its events before this one are emitted with the plan, which a range read again late
        // only holds past the stream's bookmark.
        stream.cursor = stop->eventId - 1;
        stopping.add(i);
        log::error(stop->message + "; this stream stops before it, the others go on");
        run_.observer.streamStopped(i, stop->message);
    }
    return stopping;
}

void Replayer::emitPlan(const PagePlan& plan, const StreamSet& streams) {
    const std::string timeExtracted = utcNowIso();
    std::vector<PlanEmitter::Part> parts;
    for (size_t i : streams.indices()) parts.push_back({i, &streams_[i], &plan.streams()[i]});
    emitter_.emit(parts, timeExtracted);
}

// Decides whether the ids just read over (from, readThrough] can still change.
void Replayer::settleRange(int64_t from, int64_t readThrough, int64_t lastId, const EventPage& page,
                           const StreamSet& active) {
    if (readThrough <= from) return;
    const bool eventsGapless =
        page.empty() ? from == lastId : page.rangeRowCount() == lastId - from;
    const bool headPartFinal = eventsGapless || horizon_.isFinalThrough(lastId);
    const bool tailPartFinal = readThrough == lastId || horizon_.isFinalThrough(readThrough);
    const bool final = headPartFinal && tailPartFinal;
    if (final) horizon_.noteFinal(from, readThrough);
    if (final && !horizon_.joinsPending(from, active)) return;
    PendingRange range;
    range.from = from;
    range.to = readThrough;
    range.streams = active;
    if (!final) {
        range.seenIds.reserve(page.size());
        for (const TdgEvent& event : page) range.seenIds.push_back(event.id);
    }
    range.mark = page.mark();
    range.readAt = std::chrono::steady_clock::now();
    horizon_.addPending(std::move(range), final);
}

// The oldest ranges whose gaps have filled go first (no horizon check needed), then those the
// horizon proves final.
void Replayer::drainFinalRanges() {
    while (takeFilledOldestRange()) {
    }
    for (const PendingRange& range : horizon_.takeFinal()) emitLateEvents(range);
}

// When the oldest pending range is due to be read again (timing/gap_reread.hpp): emits the late
// events of its gapped parts that have no gap left, and drops the range once none has. Returns
// whether it dropped the range.
bool Replayer::takeFilledOldestRange() {
    const PendingRange* oldest = horizon_.oldest();
    const auto now = std::chrono::steady_clock::now();
    if (oldest == nullptr || !gapReread_.due(oldest->from, oldest->readAt, now)) return false;
    std::vector<std::pair<int64_t, int64_t>> stillGapped = emitFilledParts(*oldest);
    if (stillGapped.empty()) {
        horizon_.takeOldest();
        return true;
    }
    horizon_.narrowOldest(std::move(stillGapped));
    gapReread_.stillGapped(now);
    return false;
}

// Reads each gapped part of `range` again, in one read each: a part whose every id is there now
// can get no more events, so its late events are emitted at once. Returns the other parts (and
// those wider than two pages, left to the horizon: following, parts are a few ids wide).
std::vector<std::pair<int64_t, int64_t>> Replayer::emitFilledParts(const PendingRange& range) {
    const std::vector<std::string> names = journalNames(range.streams);
    std::vector<std::pair<int64_t, int64_t>> stillGapped;
    for (const auto& [from, to] : range.gappedParts) {
        const int64_t width = to - from;
        if (width > 2 * options_.pageSize) {
            stillGapped.emplace_back(from, to);
            continue;
        }
        EventPage page = connection_.readDiffgenPage(options_.diffgen, from, to, width, names);
        run_.observer.journalQueried();
        const bool filled =
            !page.empty() && page[page.size() - 1].id == to && page.rangeRowCount() == width;
        if (filled) {
            emitLatePage(range, page);
        } else {
            stillGapped.emplace_back(from, to);
        }
    }
    return stillGapped;
}

// A range just became final: read it again and emit what committed after the first read.
void Replayer::emitLateEvents(const PendingRange& range) {
    const std::vector<std::string> names = journalNames(range.streams);
    for (const auto& [from, to] : range.gappedParts) {
        int64_t after = from;
        while (after < to) {
            EventPage page =
                connection_.readDiffgenPage(options_.diffgen, after, to, options_.pageSize, names);
            run_.observer.journalQueried();
            if (page.empty()) break;
            emitLatePage(range, page);
            after = page[page.size() - 1].id;
            if (static_cast<int64_t>(page.size()) < options_.pageSize) break;
        }
    }
}

// Emits the events of a page of `range` read again that its first read did not see.
void Replayer::emitLatePage(const PendingRange& range, const EventPage& page) {
    const PagePlan plan = planPage(page, range.streams, LateRead{range.seenIds});
    stopStreams(plan, range.streams);
    emitPlan(plan, range.streams);
    takeSignals(snapshotSignals(page, states_, range.streams, range.seenIds));
}

void Replayer::waitForPendingRanges(std::chrono::duration<double> budget) {
    auto deadline = std::chrono::steady_clock::now() + budget;
    log::info("waiting up to " + std::to_string(static_cast<int>(budget.count())) +
              " s for transactions that may still commit diffgen ids");
    while (horizon_.pendingCount() > 0 && std::chrono::steady_clock::now() < deadline) {
        if (!run_.clock.sleepFor(std::chrono::milliseconds(200))) break;
        drainFinalRanges();
        checkpoint();
    }
}

void Replayer::checkpoint() { run_.checkpointer.commitReplay(horizon_); }

// How far the slowest stream is behind the log's head (one cheap max(id) query).
std::optional<int64_t> Replayer::idsBehindHead() {
    int64_t slowest = INT64_MAX;
    for (const auto& stream : streams_) {
        if (stream.replaying) slowest = std::min(slowest, stream.cursor);
    }
    if (slowest == INT64_MAX) return std::nullopt;
    const int64_t head = connection_.maxDiffgenId(options_.diffgen).value_or(0);
    run_.observer.journalHeadSeen(head);
    return std::max<int64_t>(0, head - slowest);
}

std::vector<const StreamState*> Replayer::streamsIn(const StreamSet& streams) const {
    std::vector<const StreamState*> in;
    in.reserve(streams.size());
    for (size_t i : streams.indices()) in.push_back(&streams_[i]);
    return in;
}

std::vector<const StreamState*> Replayer::replayingStreams() const {
    std::vector<const StreamState*> replaying;
    for (const auto& stream : streams_) {
        if (stream.replaying) replaying.push_back(&stream);
    }
    return replaying;
}

// Each read asks for the snapshot signals too (replay/scan/snapshot_signal.hpp).
std::vector<std::string> Replayer::journalNames(const StreamSet& streams) const {
    std::vector<std::string> names;
    names.reserve(streams.size() + 1);
    for (size_t i : streams.indices()) names.push_back(streams_[i].definition->journalName);
    names.emplace_back(kSnapshotSignal);
    return names;
}

// A signal read again (a run resumed from a STATE before it, or the same range once more)
// does not restart the snapshot it started.
void Replayer::takeSignals(const std::vector<SnapshotSignal>& signals) {
    for (const SnapshotSignal& signal : signals) {
        const std::string& name = streams_[signal.stream].definition->name;
        const std::optional<SnapshotPosition> running = run_.state.snapshot(name);
        if (running && running->sinceId >= signal.id) continue;
        log::info("stream '" + name + "': diffgen id " + std::to_string(signal.id) +
                  " asks for a snapshot; the table is read again while its changes replay");
        run_.state.setSnapshot(name, SnapshotPosition{signal.id, {}, 0});
    }
}

// The stream no longer replays: it waits for a head, as a stream without a bookmark does, and
// its STATE has no bookmark meanwhile, so that a run stopped now snapshots it next time.
void Replayer::snapshotAgain(const std::vector<size_t>& streams) {
    for (size_t i : streams) {
        StreamRuntime& stream = streams_[i];
        stream.replaying = false;
        stream.awaitsSnapshot = true;
        run_.state.dropBookmark(stream.definition->name);
    }
}

StreamSet Replayer::withoutStreams(const StreamSet& streams,
                                   const std::vector<size_t>& left) const {
    StreamSet kept(streams_.size());
    for (size_t i : streams.indices()) {
        if (std::find(left.begin(), left.end(), i) == left.end()) kept.add(i);
    }
    return kept;
}

}  // namespace tapdiffgen::core
