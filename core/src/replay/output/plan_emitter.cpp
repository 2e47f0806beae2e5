#include "replay/output/plan_emitter.hpp"

namespace tapdiffgen::core {

// A stream of deletions only (tombstones_only) re-pulls to learn that a row still exists, and
// emits nothing for it. The sink runs on the thread of the session that read the row.
void PlanEmitter::emit(const std::vector<Part>& parts, const std::string& timeExtracted) {
    const KeyedRowSink writeRow = [&timeExtracted](const KeyRead& read, size_t event,
                                                   RecordSink& sink,
                                                   const TdgCell* cells) -> uint64_t {
        if (read.stream->keyRule.tombstonesOnly) return 0;
        return read.stream->output->writeRow(sink, cells, read.plan->events[event].tsCreated,
                                             timeExtracted);
    };
    const std::vector<KeysFound> found = reader_.readKeys(parts, writeRow);
    for (size_t p = 0; p < parts.size(); ++p) {
        const Part& part = parts[p];
        if (part.plan->events.empty()) continue;
        uint64_t tombstones = 0;
        for (size_t i = 0; i < part.plan->events.size(); ++i) {
            if (!found[p].found[i])
                tombstones += emitGone(*part.stream, part.plan->events[i], timeExtracted);
        }
        observer_.recordsWritten(part.index, found[p].records, tombstones);
    }
}

// A row the re-pull did not find is gone: deleted at its delete event's time, or, when its
// latest event was an insert or update, at some time since, which only the read tells.
uint64_t PlanEmitter::emitGone(StreamChannel& stream, const DrivingEvent& event,
                               const std::string& timeExtracted) {
    const std::string_view deletedAt =
        event.op == TDG_OP_DELETE ? event.tsCreated : std::string_view(timeExtracted);
    return stream.output->writeTombstone(writer_, event.key, event.tsCreated, deletedAt,
                                         timeExtracted);
}

}  // namespace tapdiffgen::core
