// Keeps each stream's definition true to its table while the run goes on (docs/schema-changes.md).
//
// Before a page's rows are read, the tables the page touches are described again, all in one
// call: the page's one extra round trip (an idle poll reads no page and costs nothing). A table
// whose columns changed gets its new definition, renderer and output, its stream maps compiled
// again, and a new SCHEMA before any record of the page. A change made between that description
// and the read shows in the read itself (model/table_changed.hpp); the reader then asks again and
// reads the page's remaining rows with the new columns.
#pragma once

#include <vector>

#include "plugin/dialect_connection.hpp"
#include "replay/output/stream_channel.hpp"
#include "replay/timing/run_clock.hpp"
#include "singer/message_writer.hpp"

namespace tapdiffgen::core {

class SchemaWatch {
public:
    /// Describes on `connection`, writes SCHEMA messages to `writer`; all must outlive it.
    SchemaWatch(DialectConnection& connection, MessageWriter& writer, const StreamOutputs& outputs,
                RunClock& clock)
        : connection_(connection), writer_(writer), outputs_(outputs), clock_(clock) {}

    /// Describes the tables of `streams` in one call and applies each change; returns whether
    /// any table changed. A table that does not exist is waited for a while, as MariaDB drops a
    /// table and creates it again in two statements; SchemaChangeError when it stays missing,
    /// or when a change is one a running stream cannot follow (its key). A stream whose maps no
    /// longer compile stops the run with their error (maps::StreamMapError).
    bool refresh(const std::vector<StreamChannel*>& streams);

private:
    DialectConnection& connection_;
    MessageWriter& writer_;
    const StreamOutputs& outputs_;
    RunClock& clock_;

    std::vector<std::vector<ColumnDescription>> describe(
        const std::vector<StreamChannel*>& streams);
    void apply(StreamChannel& stream, std::vector<ColumnDescription> columns);
};

}  // namespace tapdiffgen::core
