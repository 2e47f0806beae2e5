#include "metrics/prometheus_observer.hpp"

#include <algorithm>
#include <chrono>

namespace tapdiffgen::core {
namespace {

using prometheus::Counter;
using prometheus::Family;
using prometheus::Gauge;
using prometheus::Histogram;

// From a millisecond (a page at hand on a local server) to a minute (a re-pull of a large
// page over a slow link).
const Histogram::BucketBoundaries& latencyBuckets() {
    static const Histogram::BucketBoundaries buckets{
        0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60};
    return buckets;
}

constexpr size_t kMaxUncheckpointedPages = 100000;

double systemSeconds() {
    return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

const char* phaseLabel(RunPhase phase) {
    switch (phase) {
        case RunPhase::Starting:
            return "starting";
        case RunPhase::Snapshot:
            return "snapshot";
        case RunPhase::CatchUp:
            return "catch_up";
        case RunPhase::Following:
            return "following";
        case RunPhase::Ended:
            return "ended";
    }
    return "unknown";
}

const char* causeLabel(RetryCause cause) {
    switch (cause) {
        case RetryCause::ConnectionLost:
            return "connection_lost";
        case RetryCause::ConnectFailed:
            return "connect_failed";
        case RetryCause::RepullSessionFailed:
            return "repull_session_failed";
    }
    return "unknown";
}

Family<Gauge>& gauges(prometheus::Registry& registry, const std::string& name,
                      const std::string& help) {
    return prometheus::BuildGauge().Name(name).Help(help).Register(registry);
}

Family<Counter>& counters(prometheus::Registry& registry, const std::string& name,
                          const std::string& help) {
    return prometheus::BuildCounter().Name(name).Help(help).Register(registry);
}

Family<Histogram>& histograms(prometheus::Registry& registry, const std::string& name,
                              const std::string& help) {
    return prometheus::BuildHistogram().Name(name).Help(help).Register(registry);
}

}  // namespace

PrometheusObserver::PrometheusObserver(WallClock now)
    : now_(now ? std::move(now) : WallClock(systemSeconds)),
      registry_(std::make_shared<prometheus::Registry>()),
      phase_(gauges(*registry_, "tap_diffgen_run_phase",
                    "1 for the phase the run is in (starting, snapshot, catch_up, following, "
                    "ended), 0 for the others")),
      journalHead_(gauges(*registry_, "tap_diffgen_journal_head_id",
                          "The newest diffgen id last seen in the log")
                       .Add({})),
      eventsRead_(counters(*registry_, "tap_diffgen_events_read_total",
                           "Diffgen events read in the log's pages")
                      .Add({})),
      journalQueries_(counters(*registry_, "tap_diffgen_journal_queries_total",
                               "Queries of the diffgen log: pages, bounds, gap re-reads")
                          .Add({})),
      eventsLate_(counters(*registry_, "tap_diffgen_events_late_total",
                           "Events of a planned page found below a bookmark (read before)")
                      .Add({})),
      eventsSkipped_(counters(*registry_, "tap_diffgen_events_skipped_total",
                              "Bad events passed over under on_bad_event: skip")
                         .Add({})),
      pageReadSeconds_(histograms(*registry_, "tap_diffgen_page_read_seconds",
                                  "Time to read one page of the diffgen log")
                           .Add({}, latencyBuckets())),
      sharesMoved_(counters(*registry_, "tap_diffgen_repull_shares_total",
                            "Re-pull shares of a page read on another session (read_elsewhere) "
                            "or taken back by the run's session after theirs failed "
                            "(taken_back)")),
      retries_(counters(*registry_, "tap_diffgen_retries_total",
                        "Connections and reads tried again, by cause")),
      records_(counters(*registry_, "tap_diffgen_records_total",
                        "RECORD messages written, tombstones included")),
      tombstones_(counters(*registry_, "tap_diffgen_tombstones_total",
                           "Tombstone records written (rows deleted or gone)")),
      repulledKeys_(counters(*registry_, "tap_diffgen_repull_keys_total",
                             "Row keys asked for when re-pulling rows")),
      repullQueries_(
          counters(*registry_, "tap_diffgen_repull_queries_total", "Queries that re-pulled rows")),
      repullSeconds_(histograms(*registry_, "tap_diffgen_repull_seconds",
                                "Time to re-pull one stream's rows of a page")),
      snapshotRowsDone_(gauges(*registry_, "tap_diffgen_snapshot_rows_done",
                               "Rows of the table's snapshot read so far, over every run of it")),
      snapshotRowsEstimated_(gauges(*registry_, "tap_diffgen_snapshot_rows_estimated",
                                    "Rows of the snapshotted table as the database estimates "
                                    "them")),
      stopped_(gauges(*registry_, "tap_diffgen_stream_stopped",
                      "1 once the stream stopped for the rest of the run (a key it cannot read)")),
      bookmark_(gauges(*registry_, "tap_diffgen_bookmark_id",
                       "The stream's bookmark (a diffgen id) in the last STATE written")),
      eventsBehind_(gauges(*registry_, "tap_diffgen_events_behind",
                           "Diffgen ids between the stream's last STATE bookmark and the log's "
                           "head")),
      secondsBehind_(gauges(*registry_, "tap_diffgen_seconds_behind",
                            "Age of the oldest event read for the stream whose STATE is not "
                            "written yet; 0 when caught up")) {
    for (RunPhase phase : {RunPhase::Starting, RunPhase::Snapshot, RunPhase::CatchUp,
                           RunPhase::Following, RunPhase::Ended}) {
        phases_[phase] = &phase_.Add({{"phase", phaseLabel(phase)}});
    }
    phases_[RunPhase::Starting]->Set(1);
    for (RetryCause cause :
         {RetryCause::ConnectionLost, RetryCause::ConnectFailed, RetryCause::RepullSessionFailed}) {
        retries_.Add({{"cause", causeLabel(cause)}});
    }
    sharesMoved_.Add({{"outcome", "read_elsewhere"}});
    sharesMoved_.Add({{"outcome", "taken_back"}});
}

std::vector<prometheus::MetricFamily> PrometheusObserver::Collect() const {
    std::lock_guard lock(mutex_);
    updateSecondsBehind();
    return registry_->Collect();
}

void PrometheusObserver::runStarted(const std::vector<std::string>& streams) {
    std::lock_guard lock(mutex_);
    streams_.clear();
    streams_.reserve(streams.size());
    for (const std::string& name : streams) {
        const prometheus::Labels labels{{"stream", name}};
        StreamSeries series;
        series.name = name;
        series.records = &records_.Add(labels);
        series.tombstones = &tombstones_.Add(labels);
        series.repulledKeys = &repulledKeys_.Add(labels);
        series.repullQueries = &repullQueries_.Add(labels);
        series.repullSeconds = &repullSeconds_.Add(labels, latencyBuckets());
        series.stopped = &stopped_.Add(labels);
        streams_.push_back(std::move(series));
    }
}

void PrometheusObserver::phaseChanged(RunPhase phase) {
    std::lock_guard lock(mutex_);
    for (auto& [each, gauge] : phases_) gauge->Set(each == phase ? 1 : 0);
}

void PrometheusObserver::pageRead(const PageRead& page) {
    pageReadSeconds_.Observe(page.seconds);
    eventsRead_.Increment(static_cast<double>(page.events));
    journalQueries_.Increment();
    std::lock_guard lock(mutex_);
    backlogBehind_ = page.full;
    if (page.events > 0 && page.lastId) {
        pages_.push_back({*page.lastId, page.oldestEventEpochSeconds});
        // A bookmark held for long (a transaction kept open) keeps its pages: past the bound,
        // the oldest stays, which gives the age of the stream furthest behind.
        if (pages_.size() > kMaxUncheckpointedPages) pages_.erase(pages_.begin() + 1);
        if (!head_ || *head_ < *page.lastId) {
            head_ = *page.lastId;
            journalHead_.Set(static_cast<double>(*head_));
            for (StreamSeries& series : streams_) updateEventsBehind(series);
        }
    }
    dropCheckpointedPages();
}

void PrometheusObserver::journalQueried() { journalQueries_.Increment(); }

void PrometheusObserver::journalHeadSeen(int64_t newestId) {
    std::lock_guard lock(mutex_);
    head_ = newestId;
    journalHead_.Set(static_cast<double>(newestId));
    for (StreamSeries& series : streams_) updateEventsBehind(series);
}

void PrometheusObserver::eventsLate(uint64_t count) {
    eventsLate_.Increment(static_cast<double>(count));
}

void PrometheusObserver::eventsSkipped(uint64_t count) {
    eventsSkipped_.Increment(static_cast<double>(count));
}

void PrometheusObserver::rowsRepulled(const RepullDone& repull) {
    std::lock_guard lock(mutex_);
    StreamSeries* series = stream(repull.stream);
    if (series == nullptr) return;
    series->repulledKeys->Increment(static_cast<double>(repull.keys));
    series->repullQueries->Increment(static_cast<double>(repull.queries));
    series->repullSeconds->Observe(repull.seconds);
}

void PrometheusObserver::repullShareMoved(bool readElsewhere) {
    sharesMoved_.Add({{"outcome", readElsewhere ? "read_elsewhere" : "taken_back"}}).Increment();
}

void PrometheusObserver::recordsWritten(size_t stream, uint64_t rows, uint64_t tombstones) {
    std::lock_guard lock(mutex_);
    StreamSeries* series = this->stream(stream);
    if (series == nullptr) return;
    series->records->Increment(static_cast<double>(rows + tombstones));
    series->tombstones->Increment(static_cast<double>(tombstones));
}

void PrometheusObserver::snapshotProgress(size_t stream, uint64_t rowsDone,
                                          std::optional<uint64_t> rowsEstimated) {
    std::lock_guard lock(mutex_);
    StreamSeries* series = this->stream(stream);
    if (series == nullptr) return;
    const prometheus::Labels labels{{"stream", series->name}};
    if (series->snapshotRowsDone == nullptr)
        series->snapshotRowsDone = &snapshotRowsDone_.Add(labels);
    series->snapshotRowsDone->Set(static_cast<double>(rowsDone));
    if (rowsEstimated) {
        if (series->snapshotRowsEstimated == nullptr) {
            series->snapshotRowsEstimated = &snapshotRowsEstimated_.Add(labels);
        }
        series->snapshotRowsEstimated->Set(static_cast<double>(*rowsEstimated));
    }
}

// A finished snapshot's rows done stay as they are: the last figure of its progress.
void PrometheusObserver::snapshotDone(size_t stream) { (void)stream; }

void PrometheusObserver::streamStopped(size_t stream, const std::string& why) {
    (void)why;
    std::lock_guard lock(mutex_);
    StreamSeries* series = this->stream(stream);
    if (series == nullptr) return;
    series->stopped->Set(1);
    // Its bookmark moves no more: it holds no page, and its time behind is not kept.
    series->isStopped = true;
    if (series->secondsBehind != nullptr) {
        secondsBehind_.Remove(std::exchange(series->secondsBehind, nullptr));
    }
}

void PrometheusObserver::retried(RetryCause cause) {
    retries_.Add({{"cause", causeLabel(cause)}}).Increment();
}

void PrometheusObserver::checkpointed(const std::vector<std::optional<int64_t>>& bookmarks) {
    std::lock_guard lock(mutex_);
    for (size_t i = 0; i < bookmarks.size() && i < streams_.size(); ++i) {
        StreamSeries& series = streams_[i];
        series.bookmarkId = bookmarks[i];
        if (!bookmarks[i]) {
            // Dropped (the stream is snapshotted again): no figure rather than a stale one.
            if (series.bookmark != nullptr)
                bookmark_.Remove(std::exchange(series.bookmark, nullptr));
            if (series.eventsBehind != nullptr) {
                eventsBehind_.Remove(std::exchange(series.eventsBehind, nullptr));
            }
            if (series.secondsBehind != nullptr) {
                secondsBehind_.Remove(std::exchange(series.secondsBehind, nullptr));
            }
            continue;
        }
        const prometheus::Labels labels{{"stream", series.name}};
        if (series.bookmark == nullptr) series.bookmark = &bookmark_.Add(labels);
        if (series.secondsBehind == nullptr && !series.isStopped) {
            series.secondsBehind = &secondsBehind_.Add(labels);
        }
        series.bookmark->Set(static_cast<double>(*bookmarks[i]));
        updateEventsBehind(series);
    }
    dropCheckpointedPages();
}

PrometheusObserver::StreamSeries* PrometheusObserver::stream(size_t index) {
    return index < streams_.size() ? &streams_[index] : nullptr;
}

void PrometheusObserver::updateEventsBehind(StreamSeries& series) {
    if (!head_ || !series.bookmarkId) return;
    if (series.eventsBehind == nullptr) {
        series.eventsBehind = &eventsBehind_.Add({{"stream", series.name}});
    }
    series.eventsBehind->Set(
        static_cast<double>(std::max<int64_t>(0, *head_ - *series.bookmarkId)));
}

// A page stays while a stream's bookmark is below its last id. The newest page stays too while
// it was full: events wait behind it, unread, and they are no younger than it.
void PrometheusObserver::dropCheckpointedPages() {
    while (!pages_.empty()) {
        const UncheckpointedPage& oldest = pages_.front();
        if (backlogBehind_ && pages_.size() == 1) return;
        for (const StreamSeries& series : streams_) {
            if (!series.isStopped && series.bookmarkId && *series.bookmarkId < oldest.lastId) {
                return;
            }
        }
        pages_.pop_front();
    }
}

void PrometheusObserver::updateSecondsBehind() const {
    const double now = now_();
    for (const StreamSeries& series : streams_) {
        if (series.secondsBehind == nullptr) continue;
        double behind = 0;
        for (const UncheckpointedPage& page : pages_) {
            const bool unwritten = *series.bookmarkId < page.lastId;
            const bool backlogMarker = backlogBehind_ && &page == &pages_.back();
            if (!unwritten && !backlogMarker) continue;
            if (page.oldestEpochSeconds) behind = std::max(0.0, now - *page.oldestEpochSeconds);
            break;
        }
        series.secondsBehind->Set(behind);
    }
}

}  // namespace tapdiffgen::core
