// The run's progress lines on stderr, each with a METRIC record_count line per stream: the
// replay's (events, records, rate and lag, every progress interval and at the end) and each
// snapshot's (rows done of the table's estimate, rate and time left, every snapshot progress
// interval, and a closing line). The counts are the ledger's, which hears every call first.
#pragma once

#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "replay/observe/run_observer.hpp"
#include "replay/sync/run_ledger.hpp"
#include "replay/sync/sync_options.hpp"
#include "replay/timing/run_clock.hpp"

namespace tapdiffgen::core {

class ProgressObserver final : public RunObserver {
public:
    /// `ledger` must be added to the run's observers before this one; all must outlive it.
    ProgressObserver(const SyncOptions& options, const RunClock& clock, const RunLedger& ledger);

    void runStarted(const std::vector<std::string>& streams) override { streams_ = streams; }
    void replayStepped(LagProbe& lag, bool last) override;
    void snapshotStarted(size_t stream, uint64_t rowsDone,
                         std::optional<uint64_t> rowsEstimated) override;
    void snapshotProgress(size_t stream, uint64_t rowsDone,
                          std::optional<uint64_t> rowsEstimated) override;
    void snapshotDone(size_t stream) override;

private:
    // One snapshot as this run takes it: rows done before it started here, and when.
    struct Snapshot {
        uint64_t rowsBefore = 0;
        uint64_t rowsDone = 0;
        std::optional<uint64_t> estimate;
        std::chrono::steady_clock::time_point started;
        std::chrono::steady_clock::time_point lastReport;

        uint64_t rowsThisRun() const { return rowsDone - rowsBefore; }
        double rate() const;
    };

    const SyncOptions& options_;
    const RunClock& clock_;
    const RunLedger& ledger_;
    std::vector<std::string> streams_;
    std::chrono::steady_clock::time_point lastProgress_ = std::chrono::steady_clock::now();
    uint64_t eventsAtLastProgress_ = 0;
    std::map<size_t, Snapshot> snapshots_;

    void reportSnapshot(size_t stream, const Snapshot& snapshot) const;
    void reportRecords(size_t stream) const;
};

}  // namespace tapdiffgen::core
