#include "replay/plan_emitter.hpp"

#include <algorithm>
#include <vector>

#include "replay/row_key.hpp"

namespace tapdiffgen::core {

void PlanEmitter::emit(const std::vector<Part>& parts, const std::string& timeExtracted) {
    const size_t chunkSize = static_cast<size_t>(std::max<int64_t>(1, keysPerFetch_));
    std::vector<Chunk> chunks;
    for (const Part& part : parts) {
        for (const DrivingEvent& event : part.plan->tombstones) {
            emitTombstone(*part.stream, event, event.tsCreated, timeExtracted);
        }
        for (size_t begin = 0; begin < part.plan->upserts.size(); begin += chunkSize) {
            size_t end = std::min(part.plan->upserts.size(), begin + chunkSize);
            chunks.push_back(
                Chunk{part.stream, part.plan, begin, end, std::vector<bool>(end - begin, false)});
        }
    }
    if (chunks.empty()) return;

    std::vector<FetchSpec> fetches;
    fetches.reserve(chunks.size());
    for (Chunk& chunk : chunks) {
        FetchSpec& fetch = fetches.emplace_back();
        const StreamDefinition& definition = *chunk.stream->definition;
        fetch.table = &definition.table;
        fetch.columns = &chunk.stream->renderer.columnNames();
        fetch.columnKinds = &chunk.stream->renderer.columnKinds();
        fetch.key = &definition.key;
        fetch.keys.reserve((chunk.end - chunk.begin) * definition.key.columns.size());
        for (size_t i = chunk.begin; i < chunk.end; ++i) {
            const DrivingEvent& event = chunk.plan->upserts[i];
            if (event.keyParts.empty()) {
                fetch.keys.push_back(event.key);
            } else {
                fetch.keys.insert(fetch.keys.end(), event.keyParts.begin(), event.keyParts.end());
            }
        }
        fetch.onBatch = [this, &chunk, &timeExtracted](const TdgRowBatch& batch) {
            for (int64_t row = 0; row < batch.num_rows; ++row) {
                emitRow(chunk, batch.cells + row * batch.num_columns, timeExtracted);
            }
        };
    }
    counters_.repullQueries += chunks.size();
    connection_.fetchRowsMany(fetches);
    for (Chunk& chunk : chunks) {
        for (size_t i = chunk.begin; i < chunk.end; ++i) {
            if (!chunk.found[i - chunk.begin]) {
                emitTombstone(*chunk.stream, chunk.plan->upserts[i], timeExtracted, timeExtracted);
            }
        }
    }
}

void PlanEmitter::emitTombstone(StreamRuntime& stream, const DrivingEvent& event,
                                std::string_view deletedAt, const std::string& timeExtracted) {
    if (stream.mapper) {
        const uint64_t written = stream.mapper->emitTombstone(
            writer_, event.key, event.keyParts, event.tsCreated, deletedAt, timeExtracted);
        stream.recordCount += written;
        counters_.records += written;
        return;
    }
    std::string& out = writer_.beginRecord(stream.definition->name);
    stream.renderer.appendTombstone(out, event.key, event.keyParts, event.tsCreated, deletedAt);
    writer_.endRecord(timeExtracted);
    ++stream.recordCount;
    ++counters_.records;
}

// A row whose key was not asked for in this chunk (a case-insensitive collation matching another
// spelling), or that came twice, is not this event's row: skipped rather than emitted.
void PlanEmitter::emitRow(Chunk& chunk, const TdgCell* cells, const std::string& timeExtracted) {
    StreamRuntime& stream = *chunk.stream;
    const RecordRenderer& renderer = stream.renderer;
    auto match = chunk.plan->upsertIndex.find(
        canonicalKeyOfRow(cells, renderer.keyPositions(), stream.definition->key));
    if (match == chunk.plan->upsertIndex.end() || match->second < chunk.begin ||
        match->second >= chunk.end || chunk.found[match->second - chunk.begin]) {
        return;
    }
    chunk.found[match->second - chunk.begin] = true;
    if (stream.mapper) {
        const uint64_t written = stream.mapper->emitRow(
            writer_, cells, chunk.plan->upserts[match->second].tsCreated, timeExtracted);
        stream.recordCount += written;
        counters_.records += written;
        return;
    }
    std::string& out = writer_.beginRecord(stream.definition->name);
    renderer.appendRow(out, cells, chunk.plan->upserts[match->second].tsCreated);
    writer_.endRecord(timeExtracted);
    ++stream.recordCount;
    ++counters_.records;
}

}  // namespace tapdiffgen::core
