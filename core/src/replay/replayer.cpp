#include "replay/replayer.hpp"

#include <algorithm>
#include <climits>
#include <thread>

#include "replay/page_plan.hpp"
#include "replay/stop_signal.hpp"
#include "singer/json_text.hpp"
#include "singer/metric_line.hpp"
#include "util/log.hpp"

namespace tapdiffgen::core {
namespace {

int64_t highestBookmark(const TapState& state, const std::vector<StreamRuntime>& streams) {
    int64_t highest = 0;
    for (const auto& stream : streams) {
        highest = std::max(highest, state.bookmark(stream.definition->name).value_or(0));
    }
    return highest;
}

}  // namespace

Replayer::Replayer(DialectConnection& connection, MessageWriter& writer,
                   std::vector<StreamRuntime>& streams, TapState& state, ReplayOptions options,
                   RunClock& clock, ReplayStats& stats, PageReadAhead* readAhead,
                   RepullSessions repulls)
    : connection_(connection),
      readAhead_(readAhead),
      writer_(writer),
      streams_(streams),
      state_(state),
      options_(std::move(options)),
      horizon_(connection, options_.horizonSettleSeconds, highestBookmark(state, streams)),
      journal_(connection, options_.diffgen),
      emitter_(connection, writer, options_.keysPerFetch, std::move(repulls)),
      clock_(clock),
      stats_(stats),
      poll_(std::chrono::duration<double>(options_.pollIntervalSeconds)),
      pageSizer_(options_.pageSize, options_.backlogPages) {
    auto pageStreams = std::make_shared<PageStreams>();
    for (const auto& stream : streams_)
        pageStreams->add(stream.definition->journalName, stream.keyRule);
    pageStreams_ = std::move(pageStreams);
}

void Replayer::run() {
    lastProgress_ = lastStateAt_ = std::chrono::steady_clock::now();
    bool drained = false;
    while (!drained) {
        if (clock_.shouldStop()) break;
        if (options_.follow && holdsTooMuch()) {
            if (!waitWhileHoldingTooMuch()) break;
        } else if (holdsTooMuch()) {
            waitForPendingRanges(std::chrono::seconds(options_.horizonWaitSeconds));
            if (clock_.shouldStop()) break;
            if (holdsTooMuch()) {
                clock_.stop("transactions still hold diffgen ids after " +
                            std::to_string(options_.horizonWaitSeconds) + " s");
                break;
            }
        }
        const uint64_t eventsBefore = stats_.events;
        const bool more = readNextPage();
        drainFinalRanges();
        writeState();
        reportProgress(false);
        poll_.afterRead(stats_.events > eventsBefore);
        if (more) continue;
        if (!options_.follow) {
            drained = true;
        } else {
            waitForNewEvents();
        }
    }
    if (drained && horizon_.pendingCount() > 0) {
        waitForPendingRanges(std::chrono::seconds(options_.horizonWaitSeconds));
        if (horizon_.pendingCount() > 0) {
            log::warning(
                "diffgen ids below the log's head may still be committed by running "
                "transactions; the bookmark stays before them and the next run "
                "reads them again");
        }
    }
    writeState();
    reportProgress(true);
}

// At the log's head: waits for the next read, writing a STATE now and then meanwhile.
void Replayer::waitForNewEvents() {
    // Records whose STATE is held back by a pending range must not wait in the buffer.
    writer_.flush();
    keepStateFresh();
    const auto stateDue =
        lastStateAt_ + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                           std::chrono::duration<double>(options_.stateIntervalSeconds));
    const std::chrono::duration<double> untilState = stateDue - std::chrono::steady_clock::now();
    // A driver that is told of commits wakes the run; the wait can then last the whole
    // interval. Otherwise the run sleeps by the poll schedule.
    if (!waitForSignal(
            std::min(std::chrono::duration<double>(options_.pollIntervalSeconds), untilState))) {
        clock_.sleepFor(std::min(poll_.nextWait(), untilState));
    }
    keepStateFresh();
    // A reset of the log shows no gap: new ids simply fall below the cursors.
    journal_.checkAtHead(replayingStreams(),
                         std::chrono::duration<double>(options_.stateIntervalSeconds));
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
    } while (!clock_.shouldStop() && std::chrono::steady_clock::now() < until);
    return true;
}

void Replayer::keepStateFresh() {
    const auto now = std::chrono::steady_clock::now();
    if (now - lastStateAt_ < std::chrono::duration<double>(options_.stateIntervalSeconds)) return;
    writer_.repeatState();
    lastStateAt_ = now;
}

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
        if (!clock_.sleepFor(std::chrono::duration<double>(options_.pollIntervalSeconds))) {
            return false;
        }
        drainFinalRanges();
        writeState();
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
    std::vector<size_t> active;
    int64_t upTo = INT64_MAX;
    for (size_t i = 0; i < streams_.size(); ++i) {
        if (!streams_[i].replaying) continue;
        if (streams_[i].cursor == lowest) {
            active.push_back(i);
        } else {
            upTo = std::min(upTo, streams_[i].cursor);
        }
    }
    PageQuery query{options_.diffgen, lowest, upTo, pageSizer_.limit(active.size()),
                    journalNames(active)};
    PageRead read = readPage(query);
    const EventPage& page = read.page;
    ++stats_.diffgenQueries;
    stats_.events += page.size();
    if (!page.empty()) clock_.noteActivity();

    const bool full = static_cast<int64_t>(page.size()) >= query.limit;
    const int64_t lastId = page.empty() ? lowest : page[page.size() - 1].id;
    const int64_t readThrough = full ? lastId : (upTo != INT64_MAX ? upTo : lastId);
    // A range the page does not prove gapless may have lost events to a prune meanwhile.
    const bool provenGapless =
        readThrough == lastId && (page.empty() || page.rangeRowCount() == lastId - lowest);
    if (!provenGapless) journal_.checkAfterGap(streamsAt(active));
    const std::vector<bool> accept = acceptMask(active);
    const PagePlan plan = planOf(read, accept);
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
                          PlanRequest{pageStreams_, accept, options_.skipBadEvents});
    }
    emitPlan(plan, accept);
    settleRange(lowest, readThrough, lastId, page, active);
    for (size_t i : active) streams_[i].cursor = readThrough;
    return full || upTo != INT64_MAX;
}

PageRead Replayer::readPage(const PageQuery& query) {
    if (readAhead_ != nullptr) {
        if (std::optional<PageRead> read = readAhead_->take(query)) return std::move(*read);
    }
    PageRead read;
    read.page = query.readOn(connection_);
    return read;
}

PagePlan Replayer::planOf(PageRead& read, const std::vector<bool>& accept) {
    if (!read.plan || read.plannedFor != accept) return planPage(read.page, accept);
    stats_.skippedEvents += read.plan->eventsSkipped();
    return std::move(*read.plan);
}

PagePlan Replayer::planPage(const EventPage& page, const std::vector<bool>& accept,
                            std::optional<LateRead> late) {
    PagePlan::Options planOptions;
    planOptions.readFor = accept;
    planOptions.skipBadEvents = options_.skipBadEvents;
    planOptions.late = late;
    PagePlan plan(page, *pageStreams_, planOptions);
    if (late) stats_.lateEvents += plan.eventsConsidered();
    stats_.skippedEvents += plan.eventsSkipped();
    return plan;
}

void Replayer::emitPlan(const PagePlan& plan, const std::vector<bool>& accept) {
    const std::string timeExtracted = utcNowIso();
    uint64_t recordsBefore = emitter_.counters().records;
    std::vector<PlanEmitter::Part> parts;
    for (size_t i = 0; i < streams_.size(); ++i) {
        if (accept[i]) parts.push_back({&streams_[i], &plan.streams()[i]});
    }
    emitter_.emit(parts, timeExtracted);
    stats_.records += emitter_.counters().records - recordsBefore;
    stats_.repullQueries += emitter_.counters().repullQueries - repullQueriesCounted_;
    repullQueriesCounted_ = emitter_.counters().repullQueries;
}

// Decides whether the ids just read over (from, readThrough] can still change.
void Replayer::settleRange(int64_t from, int64_t readThrough, int64_t lastId, const EventPage& page,
                           const std::vector<size_t>& active) {
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

void Replayer::drainFinalRanges() {
    for (const PendingRange& range : horizon_.takeFinal()) emitLateEvents(range);
}

// A range just became final: read it again and emit what committed after the first read.
void Replayer::emitLateEvents(const PendingRange& range) {
    const std::vector<bool> accept = acceptMask(range.streams);
    const std::vector<std::string> names = journalNames(range.streams);
    for (const auto& [from, to] : range.gappedParts) {
        int64_t after = from;
        while (after < to) {
            EventPage page =
                connection_.readDiffgenPage(options_.diffgen, after, to, options_.pageSize, names);
            ++stats_.diffgenQueries;
            if (page.empty()) break;
            emitPlan(planPage(page, accept, LateRead{range.seenIds}), accept);
            after = page[page.size() - 1].id;
            if (static_cast<int64_t>(page.size()) < options_.pageSize) break;
        }
    }
}

void Replayer::waitForPendingRanges(std::chrono::duration<double> budget) {
    auto deadline = std::chrono::steady_clock::now() + budget;
    log::info("waiting up to " + std::to_string(static_cast<int>(budget.count())) +
              " s for transactions that may still commit diffgen ids");
    while (horizon_.pendingCount() > 0 && std::chrono::steady_clock::now() < deadline) {
        if (!clock_.sleepFor(std::chrono::milliseconds(200))) break;
        drainFinalRanges();
        writeState();
    }
}

void Replayer::writeState() {
    for (size_t i = 0; i < streams_.size(); ++i) {
        const StreamRuntime& stream = streams_[i];
        if (!stream.replaying) continue;
        int64_t safe = stream.cursor;
        if (auto held = horizon_.holdFor(i)) safe = std::min(safe, *held);
        // A bookmark never moves backwards: an older run already proved everything below it.
        int64_t previous = state_.bookmark(stream.definition->name).value_or(0);
        state_.setBookmark(stream.definition->name, std::max(previous, safe));
    }
    if (writer_.writeState(state_.toJson())) lastStateAt_ = std::chrono::steady_clock::now();
}

void Replayer::reportProgress(bool force) {
    auto now = std::chrono::steady_clock::now();
    if (!force &&
        now - lastProgress_ < std::chrono::duration<double>(options_.progressIntervalSeconds)) {
        return;
    }
    // An idle following run reports nothing new, and its lag query would double its cost.
    if (!force && options_.follow && stats_.events == eventsAtLastProgress_) return;
    lastProgress_ = now;
    eventsAtLastProgress_ = stats_.events;
    double elapsed = clock_.elapsedSeconds();
    double rate = elapsed > 0 ? static_cast<double>(stats_.events) / elapsed : 0;
    std::string line = "progress: " + std::to_string(stats_.events) + " events, " +
                       std::to_string(stats_.records) + " records, " +
                       std::to_string(static_cast<uint64_t>(rate)) + " events/s";
    if (!force) line += ", " + lagText();
    log::info(line);
    for (const auto& stream : streams_) {
        log::info(counterMetricLine("record_count", static_cast<int64_t>(stream.recordCount),
                                    {{"stream", stream.definition->name}}));
    }
}

// How far the slowest stream is behind the log's head (one cheap max(id) query).
std::string Replayer::lagText() {
    int64_t slowest = INT64_MAX;
    for (const auto& stream : streams_) {
        if (stream.replaying) slowest = std::min(slowest, stream.cursor);
    }
    if (slowest == INT64_MAX) return "no stream replaying";
    int64_t head = connection_.maxDiffgenId(options_.diffgen).value_or(0);
    return "lag " + std::to_string(std::max<int64_t>(0, head - slowest)) +
           " ids behind the diffgen head";
}

std::vector<bool> Replayer::acceptMask(const std::vector<size_t>& streams) const {
    std::vector<bool> accept(streams_.size(), false);
    for (size_t i : streams) accept[i] = true;
    return accept;
}

std::vector<const StreamRuntime*> Replayer::streamsAt(const std::vector<size_t>& streams) const {
    std::vector<const StreamRuntime*> at;
    at.reserve(streams.size());
    for (size_t i : streams) at.push_back(&streams_[i]);
    return at;
}

std::vector<const StreamRuntime*> Replayer::replayingStreams() const {
    std::vector<const StreamRuntime*> replaying;
    for (const auto& stream : streams_) {
        if (stream.replaying) replaying.push_back(&stream);
    }
    return replaying;
}

std::vector<std::string> Replayer::journalNames(const std::vector<size_t>& streams) const {
    std::vector<std::string> names;
    names.reserve(streams.size());
    for (size_t i : streams) names.push_back(streams_[i].definition->journalName);
    return names;
}

}  // namespace tapdiffgen::core
