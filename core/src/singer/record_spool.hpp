// Records rendered ahead of their turn: kept in memory, in order, until writeTo() hands them to
// the sink they belong in, exactly as if they had been written there at first. Rows another
// session re-pulls meanwhile wait here, so the output's order does not depend on which session
// was faster.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "singer/record_sink.hpp"

namespace tapdiffgen::core {

class RecordSpool : public RecordSink {
public:
    std::string& beginRecord(std::string_view stream) override;
    void endRecord(std::string_view timeExtracted) override;

    size_t size() const { return records_.size(); }
    /// Writes every record to `sink`, in order, and empties the spool.
    void writeTo(RecordSink& sink);
    /// Drops every record.
    void clear();

private:
    // Offsets into text_: stream name, then the members, then time_extracted.
    struct Record {
        size_t stream;
        size_t members;
        size_t timeExtracted;
        size_t end;
    };

    std::string text_;
    std::vector<Record> records_;
    Record open_{};
};

}  // namespace tapdiffgen::core
