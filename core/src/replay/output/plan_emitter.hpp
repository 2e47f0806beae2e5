// Turns a page's plans into RECORD messages. The rows of the page's events are read again by
// key (TableReader); a row the re-pull returns is emitted as it is now, whatever the event (a
// delete included: the key may have shifted to another row in the same statement); a key it
// does not return is a row that is gone by now, and becomes a tombstone.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "replay/observe/run_observer.hpp"
#include "replay/output/stream_channel.hpp"
#include "replay/output/table_reader.hpp"
#include "replay/scan/page_plan.hpp"
#include "singer/message_writer.hpp"

namespace tapdiffgen::core {

class PlanEmitter {
public:
    /// Reads rows with `reader`, writes tombstones to `writer` and tells `observer` the records
    /// written; all must outlive the emitter.
    PlanEmitter(TableReader& reader, MessageWriter& writer, RunObserver& observer)
        : reader_(reader), writer_(writer), observer_(observer) {}

    /// One stream's plan for a page.
    using Part = KeyRead;

    /// Emits everything the plans ask for; timeExtracted goes on every record.
    void emit(const std::vector<Part>& parts, const std::string& timeExtracted);
    void emit(size_t index, StreamChannel& stream, const StreamPlan& plan,
              const std::string& timeExtracted) {
        emit({Part{index, &stream, &plan}}, timeExtracted);
    }

private:
    TableReader& reader_;
    MessageWriter& writer_;
    RunObserver& observer_;

    /// Writes the tombstone of a row the re-pull did not find; returns the records written.
    uint64_t emitGone(StreamChannel& stream, const DrivingEvent& event,
                      const std::string& timeExtracted);
};

}  // namespace tapdiffgen::core
