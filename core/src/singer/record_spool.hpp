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
    /// Bytes of the records' members (what their rows rendered to), all records together.
    size_t memberBytes() const;
    /// Writes every record to `sink`, in order, and empties the spool.
    void writeTo(RecordSink& sink);
    /// Drops every record; the memory stays, for the next page's records.
    void clear();

private:
    // Where a record is: its block, then offsets into it of the stream name, the members,
    // time_extracted and the end.
    struct Record {
        size_t block;
        size_t stream;
        size_t members;
        size_t timeExtracted;
        size_t end;
    };

    // A share of a page is several MiB of text. Kept in blocks of a fixed size, it is never
    // copied to grow, and never held twice while it grows, as one string doubling would be.
    std::vector<std::string> blocks_;
    size_t block_ = 0;  // the block being written, when blocks_ is not empty
    std::vector<Record> records_;
    Record open_{};

    std::string& blockForRecord();
};

}  // namespace tapdiffgen::core
