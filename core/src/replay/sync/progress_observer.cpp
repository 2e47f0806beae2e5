#include "replay/sync/progress_observer.hpp"

#include <cstdio>

#include "singer/metric_line.hpp"
#include "util/log.hpp"

namespace tapdiffgen::core {
namespace {

std::string wholeNumber(double value) {
    char text[32];
    std::snprintf(text, sizeof(text), "%.0f", value);
    return text;
}

std::string duration(double seconds) {
    if (seconds < 10) {
        char text[32];
        std::snprintf(text, sizeof(text), "%.1f s", seconds);
        return text;
    }
    if (seconds < 120) return wholeNumber(seconds) + " s";
    if (seconds < 7200) return wholeNumber(seconds / 60) + " min";
    return wholeNumber(seconds / 3600) + " h";
}

}  // namespace

ProgressObserver::ProgressObserver(const SyncOptions& options, const RunClock& clock,
                                   const RunLedger& ledger)
    : options_(options), clock_(clock), ledger_(ledger) {}

void ProgressObserver::replayStepped(LagProbe& lag, bool last) {
    const auto now = std::chrono::steady_clock::now();
    if (!last &&
        now - lastProgress_ < std::chrono::duration<double>(options_.progressIntervalSeconds)) {
        return;
    }
    const uint64_t events = ledger_.events();
    // An idle following run reports nothing new, and its lag query would double its cost.
    if (!last && options_.follow && events == eventsAtLastProgress_) return;
    lastProgress_ = now;
    eventsAtLastProgress_ = events;
    const double elapsed = clock_.elapsedSeconds();
    const double rate = elapsed > 0 ? static_cast<double>(events) / elapsed : 0;
    std::string line = "progress: " + std::to_string(events) + " events, " +
                       std::to_string(ledger_.records()) + " records, " +
                       std::to_string(static_cast<uint64_t>(rate)) + " events/s";
    if (!last) {
        const std::optional<int64_t> behind = lag.idsBehindHead();
        line += behind ? ", lag " + std::to_string(*behind) + " ids behind the diffgen head"
                       : ", no stream replaying";
    }
    log::info(line);
    for (size_t stream = 0; stream < streams_.size(); ++stream) reportRecords(stream);
}

void ProgressObserver::snapshotStarted(size_t stream, uint64_t rowsDone,
                                       std::optional<uint64_t> rowsEstimated) {
    Snapshot& snapshot = snapshots_[stream];
    snapshot.rowsBefore = snapshot.rowsDone = rowsDone;
    snapshot.estimate = rowsEstimated;
    snapshot.started = snapshot.lastReport = std::chrono::steady_clock::now();
}

void ProgressObserver::snapshotProgress(size_t stream, uint64_t rowsDone,
                                        std::optional<uint64_t> rowsEstimated) {
    Snapshot& snapshot = snapshots_[stream];
    snapshot.rowsDone = rowsDone;
    snapshot.estimate = rowsEstimated;
    const auto now = std::chrono::steady_clock::now();
    if (now - snapshot.lastReport <
        std::chrono::duration<double>(options_.snapshotProgressSeconds)) {
        return;
    }
    snapshot.lastReport = now;
    reportSnapshot(stream, snapshot);
}

double ProgressObserver::Snapshot::rate() const {
    const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - started;
    return elapsed.count() > 0 ? static_cast<double>(rowsThisRun()) / elapsed.count() : 0;
}

void ProgressObserver::reportSnapshot(size_t stream, const Snapshot& snapshot) const {
    const auto done = static_cast<int64_t>(snapshot.rowsDone);
    // No estimate reads as 0: neither a share nor a time left.
    const auto estimate = static_cast<int64_t>(snapshot.estimate.value_or(0));
    std::string line = "snapshot of '" + streams_[stream] + "': " + std::to_string(done);
    if (estimate >= done && estimate > 0) {
        line += " of about " + std::to_string(estimate) + " rows (" +
                wholeNumber(100.0 * static_cast<double>(done) / static_cast<double>(estimate)) +
                "%)";
    } else {
        line += " rows";
    }
    const double perSecond = snapshot.rate();
    line += ", " + wholeNumber(perSecond) + " rows/s";
    if (estimate > done && perSecond > 0) {
        line += ", about " + duration(static_cast<double>(estimate - done) / perSecond) + " left";
    }
    log::info(line);
    reportRecords(stream);
}

void ProgressObserver::snapshotDone(size_t stream) {
    const auto found = snapshots_.find(stream);
    if (found == snapshots_.end()) return;
    const Snapshot& snapshot = found->second;
    const std::chrono::duration<double> elapsed =
        std::chrono::steady_clock::now() - snapshot.started;
    log::info("snapshot of '" + streams_[stream] + "' done: " + std::to_string(snapshot.rowsDone) +
              " rows, " + std::to_string(snapshot.rowsThisRun()) + " of them in this run, in " +
              duration(elapsed.count()) + " (" + wholeNumber(snapshot.rate()) + " rows/s)");
    reportRecords(stream);
    snapshots_.erase(found);
}

void ProgressObserver::reportRecords(size_t stream) const {
    log::info(counterMetricLine("record_count", static_cast<int64_t>(ledger_.records(stream)),
                                {{"stream", streams_[stream]}}));
}

}  // namespace tapdiffgen::core
