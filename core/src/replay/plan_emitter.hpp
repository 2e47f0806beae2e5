// Turns a page's plans into RECORD messages: tombstones for deletes, and one batched re-pull
// per chunk of keys for inserts and updates, every chunk of the page handed to the plugin at
// once (it may pipeline them). A key the re-pull does not return is a row that is gone by
// now, and becomes a tombstone too.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

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

    /// One stream's plan for a page.
    struct Part {
        StreamRuntime* stream;
        const StreamPlan* plan;
    };

    /// Emits everything the plans ask for; timeExtracted goes on every record.
    void emit(const std::vector<Part>& parts, const std::string& timeExtracted);
    void emit(StreamRuntime& stream, const StreamPlan& plan, const std::string& timeExtracted) {
        emit({Part{&stream, &plan}}, timeExtracted);
    }

    const EmitCounters& counters() const { return counters_; }

private:
    DialectConnection& connection_;
    MessageWriter& writer_;
    int64_t keysPerFetch_;
    EmitCounters counters_;

    void emitTombstone(StreamRuntime& stream, const DrivingEvent& event, std::string_view deletedAt,
                       const std::string& timeExtracted);
    // A chunk of one stream's upserts, [begin, end), and which of them the re-pull returned.
    struct Chunk {
        StreamRuntime* stream;
        const StreamPlan* plan;
        size_t begin;
        size_t end;
        std::vector<bool> found;
    };

    void emitRow(Chunk& chunk, const TdgCell* cells, const std::string& timeExtracted);
};

}  // namespace tapdiffgen::core
