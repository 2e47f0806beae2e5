// What a run did, counted once and in one place across reconnects, from the calls it makes to
// its observers: the `sync done` summary, the counts of the progress lines and their METRIC
// lines, and the run's failure for its stopped streams are read from it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "replay/observe/run_observer.hpp"

namespace tapdiffgen::core {

class RunLedger final : public RunObserver {
public:
    void runStarted(const std::vector<std::string>& streams) override {
        records_.assign(streams.size(), 0);
    }
    void pageRead(const PageRead& page) override {
        ++diffgenQueries_;
        events_ += page.events;
    }
    void journalQueried() override { ++diffgenQueries_; }
    void eventsLate(uint64_t count) override { lateEvents_ += count; }
    void eventsSkipped(uint64_t count) override { skippedEvents_ += count; }
    void rowsRepulled(const RepullDone& repull) override { repullQueries_ += repull.queries; }
    void repullShareMoved(bool readElsewhere) override {
        ++(readElsewhere ? sharesElsewhere_ : sharesTakenBack_);
    }
    void recordsWritten(size_t stream, uint64_t rows, uint64_t tombstones) override {
        records_[stream] += rows + tombstones;
        allRecords_ += rows + tombstones;
    }
    void streamStopped(size_t stream, const std::string& why) override {
        (void)stream;
        stoppedStreams_.push_back(why);
    }

    uint64_t records() const { return allRecords_; }
    uint64_t records(size_t stream) const { return records_[stream]; }
    uint64_t events() const { return events_; }
    /// Pages of the log and its other queries that the run counts (gap re-reads).
    uint64_t diffgenQueries() const { return diffgenQueries_; }
    uint64_t repullQueries() const { return repullQueries_; }
    uint64_t lateEvents() const { return lateEvents_; }
    /// Bad events passed over under on_bad_event: skip (each also warned about).
    uint64_t skippedEvents() const { return skippedEvents_; }
    /// One line per stream stopped at a key it cannot read: the run ends non-zero with them.
    const std::vector<std::string>& stoppedStreams() const { return stoppedStreams_; }
    /// Re-pull shares read on another session, and shares whose session failed.
    uint64_t sharesElsewhere() const { return sharesElsewhere_; }
    uint64_t sharesTakenBack() const { return sharesTakenBack_; }

private:
    std::vector<uint64_t> records_;
    uint64_t allRecords_ = 0;
    uint64_t events_ = 0;
    uint64_t diffgenQueries_ = 0;
    uint64_t repullQueries_ = 0;
    uint64_t lateEvents_ = 0;
    uint64_t skippedEvents_ = 0;
    std::vector<std::string> stoppedStreams_;
    uint64_t sharesElsewhere_ = 0;
    uint64_t sharesTakenBack_ = 0;
};

}  // namespace tapdiffgen::core
