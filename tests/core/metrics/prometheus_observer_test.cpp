// PrometheusObserver: the calls of a run in, the text format a scrape reads out.
#include "metrics/prometheus_observer.hpp"

#include <doctest/doctest.h>
#include <prometheus/text_serializer.h>

#include <atomic>
#include <map>
#include <sstream>
#include <thread>

using tapdiffgen::core::PageRead;
using tapdiffgen::core::PrometheusObserver;
using tapdiffgen::core::RepullDone;
using tapdiffgen::core::RetryCause;
using tapdiffgen::core::RunPhase;

namespace {

// The samples of a scrape by their series, as written: `name{label="value",...}` -> value.
std::map<std::string, double> scrape(const PrometheusObserver& observer) {
    const std::string text = prometheus::TextSerializer().Serialize(observer.Collect());
    std::map<std::string, double> samples;
    std::istringstream lines(text);
    std::string line;
    while (std::getline(lines, line)) {
        if (line.empty() || line[0] == '#') continue;
        const size_t space = line.rfind(' ');
        REQUIRE(space != std::string::npos);
        samples[line.substr(0, space)] = std::stod(line.substr(space + 1));
    }
    return samples;
}

bool has(const std::map<std::string, double>& samples, const std::string& series) {
    return samples.count(series) > 0;
}

PageRead page(uint64_t events, int64_t lastId, double oldestEpochSeconds, bool full,
              double seconds = 0.002) {
    PageRead read;
    read.events = events;
    if (events > 0) {
        read.lastId = lastId;
        read.oldestEventEpochSeconds = oldestEpochSeconds;
    }
    read.full = full;
    read.seconds = seconds;
    return read;
}

struct Clocked {
    double now = 1000000;
    PrometheusObserver observer{[this] { return now; }};
};

}  // namespace

TEST_CASE("metrics: the phase is one gauge per phase, 1 for the current one") {
    Clocked run;
    auto samples = scrape(run.observer);
    CHECK(samples[R"(tap_diffgen_run_phase{phase="starting"})"] == 1);
    CHECK(samples[R"(tap_diffgen_run_phase{phase="following"})"] == 0);
    run.observer.phaseChanged(RunPhase::Following);
    samples = scrape(run.observer);
    CHECK(samples[R"(tap_diffgen_run_phase{phase="starting"})"] == 0);
    CHECK(samples[R"(tap_diffgen_run_phase{phase="snapshot"})"] == 0);
    CHECK(samples[R"(tap_diffgen_run_phase{phase="catch_up"})"] == 0);
    CHECK(samples[R"(tap_diffgen_run_phase{phase="following"})"] == 1);
    CHECK(samples[R"(tap_diffgen_run_phase{phase="ended"})"] == 0);
}

TEST_CASE("metrics: records and tombstones are counted per stream") {
    Clocked run;
    run.observer.runStarted({"orders", "items"});
    run.observer.recordsWritten(0, 5, 0);
    run.observer.recordsWritten(0, 0, 2);
    run.observer.recordsWritten(1, 3, 1);
    const auto samples = scrape(run.observer);
    CHECK(samples.at(R"(tap_diffgen_records_total{stream="orders"})") == 7);
    CHECK(samples.at(R"(tap_diffgen_tombstones_total{stream="orders"})") == 2);
    CHECK(samples.at(R"(tap_diffgen_records_total{stream="items"})") == 4);
    CHECK(samples.at(R"(tap_diffgen_tombstones_total{stream="items"})") == 1);
}

TEST_CASE("metrics: events behind are the ids between the bookmark and the log's head") {
    Clocked run;
    run.observer.runStarted({"orders", "items"});
    run.observer.journalHeadSeen(100);
    // No bookmark yet: no figure rather than a made-up one.
    auto samples = scrape(run.observer);
    CHECK(samples.at("tap_diffgen_journal_head_id") == 100);
    CHECK_FALSE(has(samples, R"(tap_diffgen_events_behind{stream="orders"})"));

    run.observer.checkpointed({40, std::nullopt});
    samples = scrape(run.observer);
    CHECK(samples.at(R"(tap_diffgen_bookmark_id{stream="orders"})") == 40);
    CHECK(samples.at(R"(tap_diffgen_events_behind{stream="orders"})") == 60);
    CHECK_FALSE(has(samples, R"(tap_diffgen_events_behind{stream="items"})"));

    // The head moves on while the run writes nothing (the probe's reads).
    run.observer.journalHeadSeen(250);
    CHECK(scrape(run.observer).at(R"(tap_diffgen_events_behind{stream="orders"})") == 210);
    run.observer.checkpointed({250, 250});
    samples = scrape(run.observer);
    CHECK(samples.at(R"(tap_diffgen_events_behind{stream="orders"})") == 0);
    CHECK(samples.at(R"(tap_diffgen_events_behind{stream="items"})") == 0);
    // A head seen before the latest STATE cannot make the figure negative.
    run.observer.checkpointed({260, 260});
    CHECK(scrape(run.observer).at(R"(tap_diffgen_events_behind{stream="orders"})") == 0);
    // A dropped bookmark (the stream is snapshotted again) drops its figures.
    run.observer.checkpointed({260, std::nullopt});
    samples = scrape(run.observer);
    CHECK_FALSE(has(samples, R"(tap_diffgen_bookmark_id{stream="items"})"));
    CHECK_FALSE(has(samples, R"(tap_diffgen_events_behind{stream="items"})"));
}

TEST_CASE("metrics: seconds behind grow at each scrape until the STATE covers the page") {
    Clocked run;
    run.observer.runStarted({"orders"});
    run.observer.checkpointed({10});
    CHECK(scrape(run.observer).at(R"(tap_diffgen_seconds_behind{stream="orders"})") == 0);

    // A page up to id 20 whose oldest event was created 30 s ago; its STATE is not written
    // (the run is blocked on its output, say): the age keeps growing with the clock alone.
    run.observer.pageRead(page(10, 20, run.now - 30, false));
    CHECK(scrape(run.observer).at(R"(tap_diffgen_seconds_behind{stream="orders"})") == 30);
    run.now += 5;
    CHECK(scrape(run.observer).at(R"(tap_diffgen_seconds_behind{stream="orders"})") == 35);

    run.observer.checkpointed({20});
    CHECK(scrape(run.observer).at(R"(tap_diffgen_seconds_behind{stream="orders"})") == 0);
    // An empty page at the head changes nothing.
    run.observer.pageRead(page(0, 0, 0, false));
    CHECK(scrape(run.observer).at(R"(tap_diffgen_seconds_behind{stream="orders"})") == 0);
}

TEST_CASE("metrics: in a backlog the last full page stays the measure after its STATE") {
    Clocked run;
    run.observer.runStarted({"orders", "items"});
    run.observer.checkpointed({0, 0});
    run.observer.pageRead(page(100, 100, run.now - 600, true));
    run.observer.checkpointed({100, 100});
    // Events wait unread behind the full page: the stream is not caught up.
    CHECK(scrape(run.observer).at(R"(tap_diffgen_seconds_behind{stream="orders"})") == 600);
    run.observer.pageRead(page(100, 200, run.now - 500, true));
    run.observer.checkpointed({200, 150});
    auto samples = scrape(run.observer);
    CHECK(samples.at(R"(tap_diffgen_seconds_behind{stream="orders"})") == 500);
    CHECK(samples.at(R"(tap_diffgen_seconds_behind{stream="items"})") == 500);
    // The page that reached the head (not full) and its STATE: caught up.
    run.observer.pageRead(page(7, 207, run.now - 1, false));
    run.observer.checkpointed({207, 207});
    samples = scrape(run.observer);
    CHECK(samples.at(R"(tap_diffgen_seconds_behind{stream="orders"})") == 0);
    CHECK(samples.at(R"(tap_diffgen_seconds_behind{stream="items"})") == 0);
}

TEST_CASE("metrics: a stream behind the others is measured by its own oldest page") {
    Clocked run;
    run.observer.runStarted({"orders", "items"});
    run.observer.checkpointed({0, 0});
    run.observer.pageRead(page(10, 10, run.now - 90, false));
    run.observer.pageRead(page(10, 20, run.now - 60, false));
    run.observer.checkpointed({20, 10});
    const auto samples = scrape(run.observer);
    CHECK(samples.at(R"(tap_diffgen_seconds_behind{stream="orders"})") == 0);
    CHECK(samples.at(R"(tap_diffgen_seconds_behind{stream="items"})") == 60);
}

TEST_CASE("metrics: latencies are histograms in seconds") {
    Clocked run;
    run.observer.runStarted({"orders"});
    run.observer.pageRead(page(3, 3, run.now, false, 0.004));
    run.observer.pageRead(page(0, 0, 0, false, 0.2));
    RepullDone repull;
    repull.stream = 0;
    repull.keys = 3;
    repull.queries = 1;
    repull.seconds = 0.03;
    run.observer.rowsRepulled(repull);
    const auto samples = scrape(run.observer);
    CHECK(samples.at("tap_diffgen_page_read_seconds_count") == 2);
    CHECK(samples.at("tap_diffgen_page_read_seconds_sum") == doctest::Approx(0.204));
    CHECK(samples.at(R"(tap_diffgen_page_read_seconds_bucket{le="0.005"})") == 1);
    CHECK(samples.at(R"(tap_diffgen_page_read_seconds_bucket{le="0.25"})") == 2);
    CHECK(samples.at(R"(tap_diffgen_repull_seconds_count{stream="orders"})") == 1);
    CHECK(samples.at(R"(tap_diffgen_repull_seconds_bucket{stream="orders",le="0.025"})") == 0);
    CHECK(samples.at(R"(tap_diffgen_repull_seconds_bucket{stream="orders",le="0.05"})") == 1);
    CHECK(samples.at(R"(tap_diffgen_repull_keys_total{stream="orders"})") == 3);
    CHECK(samples.at(R"(tap_diffgen_repull_queries_total{stream="orders"})") == 1);
    CHECK(samples.at("tap_diffgen_events_read_total") == 3);
    CHECK(samples.at("tap_diffgen_journal_queries_total") == 2);
}

TEST_CASE("metrics: snapshot progress, retries, shares and stopped streams") {
    Clocked run;
    run.observer.runStarted({"orders"});
    auto samples = scrape(run.observer);
    CHECK_FALSE(has(samples, R"(tap_diffgen_snapshot_rows_done{stream="orders"})"));
    CHECK(samples.at(R"(tap_diffgen_retries_total{cause="connection_lost"})") == 0);
    run.observer.snapshotProgress(0, 500, 1200);
    run.observer.snapshotProgress(0, 1190, 1200);
    run.observer.snapshotDone(0);
    run.observer.retried(RetryCause::ConnectionLost);
    run.observer.retried(RetryCause::ConnectionLost);
    run.observer.retried(RetryCause::ConnectFailed);
    run.observer.repullShareMoved(true);
    run.observer.repullShareMoved(false);
    run.observer.eventsLate(4);
    run.observer.eventsSkipped(2);
    run.observer.journalQueried();
    run.observer.streamStopped(0, "stream 'orders': a key it cannot read");
    samples = scrape(run.observer);
    CHECK(samples.at(R"(tap_diffgen_snapshot_rows_done{stream="orders"})") == 1190);
    CHECK(samples.at(R"(tap_diffgen_snapshot_rows_estimated{stream="orders"})") == 1200);
    CHECK(samples.at(R"(tap_diffgen_retries_total{cause="connection_lost"})") == 2);
    CHECK(samples.at(R"(tap_diffgen_retries_total{cause="connect_failed"})") == 1);
    CHECK(samples.at(R"(tap_diffgen_retries_total{cause="repull_session_failed"})") == 0);
    CHECK(samples.at(R"(tap_diffgen_repull_shares_total{outcome="read_elsewhere"})") == 1);
    CHECK(samples.at(R"(tap_diffgen_repull_shares_total{outcome="taken_back"})") == 1);
    CHECK(samples.at("tap_diffgen_events_late_total") == 4);
    CHECK(samples.at("tap_diffgen_events_skipped_total") == 2);
    CHECK(samples.at("tap_diffgen_journal_queries_total") == 1);
    CHECK(samples.at(R"(tap_diffgen_stream_stopped{stream="orders"})") == 1);
}

TEST_CASE("metrics: a scrape on another thread sees whole updates") {
    Clocked run;
    run.observer.runStarted({"orders"});
    std::atomic<bool> done{false};
    std::thread scraper([&] {
        while (!done) {
            const auto samples = scrape(run.observer);
            const auto behind = samples.find(R"(tap_diffgen_events_behind{stream="orders"})");
            if (behind != samples.end()) CHECK(behind->second >= 0);
        }
    });
    for (int64_t id = 1; id <= 2000; ++id) {
        run.observer.journalHeadSeen(id + 10);
        run.observer.pageRead(page(1, id, run.now, false));
        run.observer.recordsWritten(0, 1, 0);
        run.observer.checkpointed({id});
    }
    done = true;
    scraper.join();
    const auto samples = scrape(run.observer);
    CHECK(samples.at(R"(tap_diffgen_records_total{stream="orders"})") == 2000);
    CHECK(samples.at(R"(tap_diffgen_events_behind{stream="orders"})") == 10);
}
