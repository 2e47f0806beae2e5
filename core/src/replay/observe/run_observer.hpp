// What a sync tells those who watch it. Every count, progress line and timing of a run goes
// through these calls (Debezium's event listeners and metrics beans in spirit): the pipeline
// says what happened once, and each watcher (the `sync done` summary and METRIC lines, the
// `progress:` lines, the Prometheus endpoint) keeps what it needs. This header sits at the
// bottom of replay/: it includes nothing of the folders beside it.
//
// Calls come from the run's own thread, except where a call says otherwise; a watcher that is
// read from another thread (the metrics endpoint) guards its own state.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tapdiffgen::core {

/// Where a run stands.
enum class RunPhase {
    /// Connecting, checking the log, writing the schemas.
    Starting,
    /// Reading a table in chunks (between the replay's pages, when both run).
    Snapshot,
    /// Replaying the log behind its head.
    CatchUp,
    /// At the log's head, waiting for new events (follow mode).
    Following,
    /// The last STATE is written.
    Ended,
};

/// Why a connection or a read was tried again.
enum class RetryCause {
    /// The run's connection was lost and is opened again.
    ConnectionLost,
    /// Opening a connection failed and is tried again.
    ConnectFailed,
    /// A re-pull share's session failed; the run's own session read it instead.
    RepullSessionFailed,
};

/// One page of the log as it was read.
struct PageRead {
    /// Events in the page (0 at the head).
    uint64_t events = 0;
    /// The highest id read (the page's last), when the page had any.
    std::optional<int64_t> lastId;
    /// ts_created of the page's oldest event, as seconds since the epoch, when known.
    std::optional<double> oldestEventEpochSeconds;
    /// Whether the page was full, so that more events wait behind it.
    bool full = false;
    /// The read's duration.
    double seconds = 0;
};

/// The rows re-pulled for one stream's share of a page.
struct RepullDone {
    size_t stream = 0;
    /// Keys asked for, and queries it took.
    uint64_t keys = 0;
    uint64_t queries = 0;
    double seconds = 0;
};

/// How far the replay is behind the log's head, found by reading the head (one cheap query):
/// a watcher asks only when it reports it.
class LagProbe {
public:
    virtual ~LagProbe() = default;
    /// Ids between the slowest replaying stream's cursor and the log's head; absent when no
    /// stream replays.
    virtual std::optional<int64_t> idsBehindHead() = 0;
};

class RunObserver {
public:
    virtual ~RunObserver() = default;

    /// Once, before any other call: the selected streams, by their index in the run.
    virtual void runStarted(const std::vector<std::string>& streams) { (void)streams; }
    virtual void phaseChanged(RunPhase phase) { (void)phase; }

    /// A page of the log was read (also an empty one, at the head).
    virtual void pageRead(const PageRead& page) { (void)page; }
    /// A query of the log that is not a page: bounds, gap re-reads, the first events of --test.
    virtual void journalQueried() {}
    /// The log's newest id as last seen, from any read that sees it. The metrics' head probe
    /// (metrics/head_probe.hpp) also makes this call, on a thread of its own, to its own
    /// observer only.
    virtual void journalHeadSeen(int64_t newestId) { (void)newestId; }
    /// Events of a planned page that were late (below a bookmark), or bad and passed over
    /// under on_bad_event: skip.
    virtual void eventsLate(uint64_t count) { (void)count; }
    virtual void eventsSkipped(uint64_t count) { (void)count; }

    virtual void rowsRepulled(const RepullDone& repull) { (void)repull; }
    /// A re-pull share was read on another session (true), or taken back after its session
    /// failed (false).
    virtual void repullShareMoved(bool readElsewhere) { (void)readElsewhere; }
    /// Records written for a stream: rows as they are now, and tombstones.
    virtual void recordsWritten(size_t stream, uint64_t rows, uint64_t tombstones) {
        (void)stream, (void)rows, (void)tombstones;
    }

    /// The replay finished a step: a page read and its STATE written, or a wait at the log's
    /// head; `last` once more after the run's final STATE. `lag` may be asked how far behind the
    /// head the replay is, during the call only.
    virtual void replayStepped(LagProbe& lag, bool last) { (void)lag, (void)last; }

    /// A snapshot starts in this run (afresh, or from where a STATE or an earlier connection
    /// left it): its rows done before, and the table's estimated rows.
    virtual void snapshotStarted(size_t stream, uint64_t rowsDone,
                                 std::optional<uint64_t> rowsEstimated) {
        (void)stream, (void)rowsDone, (void)rowsEstimated;
    }
    /// A snapshot's rows done so far (over every run of it) and the table's estimated rows.
    virtual void snapshotProgress(size_t stream, uint64_t rowsDone,
                                  std::optional<uint64_t> rowsEstimated) {
        (void)stream, (void)rowsDone, (void)rowsEstimated;
    }
    virtual void snapshotDone(size_t stream) { (void)stream; }

    /// A stream stopped for the rest of the run (a key it cannot read): `why` is its one line.
    virtual void streamStopped(size_t stream, const std::string& why) { (void)stream, (void)why; }
    virtual void retried(RetryCause cause) { (void)cause; }

    /// A STATE was written: each stream's bookmark (a diffgen id), by index; absent for a
    /// stream that has none yet.
    virtual void checkpointed(const std::vector<std::optional<int64_t>>& bookmarks) {
        (void)bookmarks;
    }
};

/// Hands each call to every watcher it holds, in order. Holds them by reference: they must
/// outlive it.
class RunObservers final : public RunObserver {
public:
    void add(RunObserver& observer) { observers_.push_back(&observer); }

    void runStarted(const std::vector<std::string>& streams) override {
        for (auto* o : observers_) o->runStarted(streams);
    }
    void phaseChanged(RunPhase phase) override {
        for (auto* o : observers_) o->phaseChanged(phase);
    }
    void pageRead(const PageRead& page) override {
        for (auto* o : observers_) o->pageRead(page);
    }
    void journalQueried() override {
        for (auto* o : observers_) o->journalQueried();
    }
    void journalHeadSeen(int64_t newestId) override {
        for (auto* o : observers_) o->journalHeadSeen(newestId);
    }
    void eventsLate(uint64_t count) override {
        for (auto* o : observers_) o->eventsLate(count);
    }
    void eventsSkipped(uint64_t count) override {
        for (auto* o : observers_) o->eventsSkipped(count);
    }
    void rowsRepulled(const RepullDone& repull) override {
        for (auto* o : observers_) o->rowsRepulled(repull);
    }
    void repullShareMoved(bool readElsewhere) override {
        for (auto* o : observers_) o->repullShareMoved(readElsewhere);
    }
    void recordsWritten(size_t stream, uint64_t rows, uint64_t tombstones) override {
        for (auto* o : observers_) o->recordsWritten(stream, rows, tombstones);
    }
    void replayStepped(LagProbe& lag, bool last) override {
        for (auto* o : observers_) o->replayStepped(lag, last);
    }
    void snapshotStarted(size_t stream, uint64_t rowsDone,
                         std::optional<uint64_t> rowsEstimated) override {
        for (auto* o : observers_) o->snapshotStarted(stream, rowsDone, rowsEstimated);
    }
    void snapshotProgress(size_t stream, uint64_t rowsDone,
                          std::optional<uint64_t> rowsEstimated) override {
        for (auto* o : observers_) o->snapshotProgress(stream, rowsDone, rowsEstimated);
    }
    void snapshotDone(size_t stream) override {
        for (auto* o : observers_) o->snapshotDone(stream);
    }
    void streamStopped(size_t stream, const std::string& why) override {
        for (auto* o : observers_) o->streamStopped(stream, why);
    }
    void retried(RetryCause cause) override {
        for (auto* o : observers_) o->retried(cause);
    }
    void checkpointed(const std::vector<std::optional<int64_t>>& bookmarks) override {
        for (auto* o : observers_) o->checkpointed(bookmarks);
    }

private:
    std::vector<RunObserver*> observers_;
};

}  // namespace tapdiffgen::core
