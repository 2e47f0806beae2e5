// A run's watcher that keeps Prometheus metrics of it (docs/metrics.md lists them). Calls come
// from the run's thread and from the head probe's; scrapes come on the endpoint's threads, so
// everything the observer keeps besides the metrics themselves is under one mutex. The time
// behind is worked out at each scrape, so that it keeps growing while the run's thread is
// blocked (on a full stdout pipe, say) and tells nothing.
#pragma once

#include <prometheus/collectable.h>
#include <prometheus/counter.h>
#include <prometheus/family.h>
#include <prometheus/gauge.h>
#include <prometheus/histogram.h>
#include <prometheus/registry.h>

#include <deque>
#include <functional>
#include <map>
#include <mutex>

#include "replay/observe/run_observer.hpp"

namespace tapdiffgen::core {

class PrometheusObserver final : public RunObserver, public prometheus::Collectable {
public:
    /// Seconds since the epoch, now; tests give a clock of their own.
    using WallClock = std::function<double()>;

    explicit PrometheusObserver(WallClock now = {});

    /// The metrics as of now (the time behind brought up to date first).
    std::vector<prometheus::MetricFamily> Collect() const override;

    void runStarted(const std::vector<std::string>& streams) override;
    void phaseChanged(RunPhase phase) override;
    void pageRead(const PageRead& page) override;
    void journalQueried() override;
    /// Also called by the head probe, on its own thread.
    void journalHeadSeen(int64_t newestId) override;
    void eventsLate(uint64_t count) override;
    void eventsSkipped(uint64_t count) override;
    void rowsRepulled(const RepullDone& repull) override;
    void repullShareMoved(bool readElsewhere) override;
    void recordsWritten(size_t stream, uint64_t rows, uint64_t tombstones) override;
    void snapshotProgress(size_t stream, uint64_t rowsDone,
                          std::optional<uint64_t> rowsEstimated) override;
    void snapshotDone(size_t stream) override;
    void streamStopped(size_t stream, const std::string& why) override;
    void retried(RetryCause cause) override;
    void checkpointed(const std::vector<std::optional<int64_t>>& bookmarks) override;

private:
    // The series of one stream; those that need a bookmark are added once it has one.
    struct StreamSeries {
        std::string name;
        prometheus::Counter* records = nullptr;
        prometheus::Counter* tombstones = nullptr;
        prometheus::Counter* repulledKeys = nullptr;
        prometheus::Counter* repullQueries = nullptr;
        prometheus::Histogram* repullSeconds = nullptr;
        prometheus::Gauge* snapshotRowsDone = nullptr;
        prometheus::Gauge* snapshotRowsEstimated = nullptr;
        prometheus::Gauge* stopped = nullptr;
        prometheus::Gauge* bookmark = nullptr;
        prometheus::Gauge* eventsBehind = nullptr;
        prometheus::Gauge* secondsBehind = nullptr;
        std::optional<int64_t> bookmarkId;
        bool isStopped = false;
    };

    // A page with events whose STATE is not written yet for some stream: up to lastId, its
    // oldest event created at oldestEpochSeconds.
    struct UncheckpointedPage {
        int64_t lastId = 0;
        std::optional<double> oldestEpochSeconds;
    };

    WallClock now_;
    std::shared_ptr<prometheus::Registry> registry_;
    prometheus::Family<prometheus::Gauge>& phase_;
    prometheus::Gauge& journalHead_;
    prometheus::Counter& eventsRead_;
    prometheus::Counter& journalQueries_;
    prometheus::Counter& eventsLate_;
    prometheus::Counter& eventsSkipped_;
    prometheus::Histogram& pageReadSeconds_;
    prometheus::Family<prometheus::Counter>& sharesMoved_;
    prometheus::Family<prometheus::Counter>& retries_;
    prometheus::Family<prometheus::Counter>& records_;
    prometheus::Family<prometheus::Counter>& tombstones_;
    prometheus::Family<prometheus::Counter>& repulledKeys_;
    prometheus::Family<prometheus::Counter>& repullQueries_;
    prometheus::Family<prometheus::Histogram>& repullSeconds_;
    prometheus::Family<prometheus::Gauge>& snapshotRowsDone_;
    prometheus::Family<prometheus::Gauge>& snapshotRowsEstimated_;
    prometheus::Family<prometheus::Gauge>& stopped_;
    prometheus::Family<prometheus::Gauge>& bookmark_;
    prometheus::Family<prometheus::Gauge>& eventsBehind_;
    prometheus::Family<prometheus::Gauge>& secondsBehind_;

    mutable std::mutex mutex_;
    std::vector<StreamSeries> streams_;
    std::map<RunPhase, prometheus::Gauge*> phases_;
    std::optional<int64_t> head_;
    std::deque<UncheckpointedPage> pages_;
    /// The last page read was full: events wait unread behind it.
    bool backlogBehind_ = false;

    StreamSeries* stream(size_t index);
    void updateEventsBehind(StreamSeries& stream);
    void dropCheckpointedPages();
    void updateSecondsBehind() const;
};

}  // namespace tapdiffgen::core
