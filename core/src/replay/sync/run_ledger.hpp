// What a run did, counted once and in one place across reconnects: the `sync done` summary,
// the progress lines and the METRIC lines are read from it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tapdiffgen::core {

class RunLedger {
public:
    explicit RunLedger(size_t streams) : records_(streams, 0) {}

    void addRecords(size_t stream, uint64_t count) {
        records_[stream] += count;
        allRecords_ += count;
    }
    uint64_t records() const { return allRecords_; }
    uint64_t records(size_t stream) const { return records_[stream]; }

    uint64_t events = 0;
    uint64_t diffgenQueries = 0;
    uint64_t repullQueries = 0;
    uint64_t lateEvents = 0;
    /// Bad events passed over under on_bad_event: skip (each also warned about).
    uint64_t skippedEvents = 0;
    /// One line per stream stopped at a key it cannot read: the run ends non-zero with them.
    std::vector<std::string> stoppedStreams;
    /// Re-pull shares read on another session, and shares whose session failed.
    uint64_t sharesElsewhere = 0;
    uint64_t sharesTakenBack = 0;

private:
    std::vector<uint64_t> records_;
    uint64_t allRecords_ = 0;
};

}  // namespace tapdiffgen::core
