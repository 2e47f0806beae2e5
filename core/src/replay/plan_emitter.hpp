// Turns a stream's page plan into RECORD messages: tombstones for deletes, and one batched
// re-pull per chunk of keys for inserts and updates. A key the re-pull does not return is a
// row that is gone by now, and becomes a tombstone too.
#pragma once

#include <cstdint>
#include <string>

#include "plugin/dialect_connection.hpp"
#include "replay/page_plan.hpp"
#include "replay/stream_runtime.hpp"
#include "singer/message_writer.hpp"

namespace tapdiffgen::core {

struct EmitCounters {
    uint64_t records = 0;
    uint64_t repullQueries = 0;
};

class PlanEmitter {
public:
    PlanEmitter(DialectConnection& connection, MessageWriter& writer, int64_t keysPerFetch)
        : connection_(connection), writer_(writer), keysPerFetch_(keysPerFetch) {}

    /// Emits everything `plan` asks for; timeExtracted goes on every record.
    void emit(StreamRuntime& stream, const StreamPlan& plan, const std::string& timeExtracted);

    const EmitCounters& counters() const { return counters_; }

private:
    DialectConnection& connection_;
    MessageWriter& writer_;
    int64_t keysPerFetch_;
    EmitCounters counters_;

    void emitTombstone(StreamRuntime& stream, const DrivingEvent& event, std::string_view deletedAt,
                       const std::string& timeExtracted);
    void repull(StreamRuntime& stream, const StreamPlan& plan, size_t begin, size_t end,
                const std::string& timeExtracted);
};

}  // namespace tapdiffgen::core
