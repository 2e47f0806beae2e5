#include "replay/plan_emitter.hpp"

#include <algorithm>
#include <vector>

#include "replay/row_key.hpp"

namespace tapdiffgen::core {

void PlanEmitter::emit(StreamRuntime& stream, const StreamPlan& plan,
                       const std::string& timeExtracted) {
    for (const DrivingEvent& event : plan.tombstones) {
        emitTombstone(stream, event, event.tsCreated, timeExtracted);
    }
    size_t chunk = static_cast<size_t>(std::max<int64_t>(1, keysPerFetch_));
    for (size_t begin = 0; begin < plan.upserts.size(); begin += chunk) {
        repull(stream, plan, begin, std::min(plan.upserts.size(), begin + chunk), timeExtracted);
    }
}

void PlanEmitter::emitTombstone(StreamRuntime& stream, const DrivingEvent& event,
                                std::string_view deletedAt, const std::string& timeExtracted) {
    std::string& out = writer_.beginRecord(stream.definition->name);
    stream.renderer.appendTombstone(out, event.key, event.tsCreated, deletedAt);
    writer_.endRecord(timeExtracted);
    ++stream.recordCount;
    ++counters_.records;
}

void PlanEmitter::repull(StreamRuntime& stream, const StreamPlan& plan, size_t begin, size_t end,
                         const std::string& timeExtracted) {
    std::vector<std::string> keys;
    keys.reserve(end - begin);
    for (size_t i = begin; i < end; ++i) keys.push_back(plan.upserts[i].key);
    std::vector<bool> found(end - begin, false);
    const RecordRenderer& renderer = stream.renderer;
    const size_t keyIndex = renderer.keyIndex();
    const std::string& streamName = stream.definition->name;

    auto onBatch = [&](const TdgRowBatch& batch) {
        for (int64_t row = 0; row < batch.num_rows; ++row) {
            const TdgCell* cells = batch.cells + row * batch.num_columns;
            auto match = plan.upsertIndex.find(
                normalizeKeyCell(cells[keyIndex], stream.keyRule.caseInsensitive));
            // A row whose key was not asked for (a case-insensitive collation matching another
            // spelling) is not this event's row: skip it rather than emit a stranger.
            if (match == plan.upsertIndex.end() || match->second < begin || match->second >= end ||
                found[match->second - begin]) {
                continue;
            }
            found[match->second - begin] = true;
            std::string& out = writer_.beginRecord(streamName);
            renderer.appendRow(out, cells, plan.upserts[match->second].tsCreated);
            writer_.endRecord(timeExtracted);
            ++stream.recordCount;
            ++counters_.records;
        }
    };
    ++counters_.repullQueries;
    connection_.fetchRows(stream.definition->table, renderer.columnNames(),
                          stream.definition->keyColumn, keys, onBatch);
    for (size_t i = begin; i < end; ++i) {
        if (!found[i - begin]) emitTombstone(stream, plan.upserts[i], timeExtracted, timeExtracted);
    }
}

}  // namespace tapdiffgen::core
