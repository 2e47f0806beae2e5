#include "replay/sync/table_snapshot.hpp"

#include <algorithm>

#include "singer/json_text.hpp"
#include "util/log.hpp"

namespace tapdiffgen::core {

int64_t ChunkSizer::nextRows() const {
    if (rowsSeen_ == 0) return std::min(maxRows_, kFirstChunkRows);
    const uint64_t rowBytes = std::max<uint64_t>(1, bytesSeen_ / rowsSeen_);
    const uint64_t fitting = std::max<uint64_t>(1, kChunkBytes / rowBytes);
    return static_cast<int64_t>(std::min<uint64_t>(static_cast<uint64_t>(maxRows_), fitting));
}

void ChunkSizer::noteChunk(int64_t rows, uint64_t bytes) {
    rowsSeen_ += static_cast<uint64_t>(rows);
    bytesSeen_ += bytes;
}

TableSnapshot::TableSnapshot(RunScope& run, TableReader& reader, DialectConnection& connection,
                             StreamRuntime& stream, const SnapshotPosition& position)
    : run_(run),
      reader_(reader),
      stream_(stream),
      sinceId_(position.sinceId),
      afterKey_(position.afterKey.empty()
                    ? ChunkKey()
                    : ChunkKey::fromTexts(position.afterKey, stream.definition->key,
                                          stream.definition->name)),
      sizer_(run.options.pageSize),
      rowsDone_(static_cast<uint64_t>(position.rows)) {
    // A table never analysed may have a negative estimate: none.
    const std::optional<int64_t> estimate = connection.estimateRows(stream.definition->table);
    if (estimate && *estimate >= 0) estimate_ = static_cast<uint64_t>(*estimate);
    run_.observer.snapshotStarted(stream.index, rowsDone_, estimate_);
    const StreamDefinition& definition = *stream.definition;
    if (afterKey_.empty()) {
        log::info("stream '" + definition.name + "': snapshot of table '" + definition.tableName +
                  "' in chunks, its changes replayed after diffgen id " + std::to_string(sinceId_) +
                  " meanwhile");
    } else {
        log::info("stream '" + definition.name + "': the snapshot of table '" +
                  definition.tableName + "' resumes after key " + afterKey_.display() + " (" +
                  std::to_string(position.rows) +
                  " rows done), its changes replayed after "
                  "diffgen id " +
                  std::to_string(stream.cursor));
    }
}

bool TableSnapshot::readChunk() {
    const int64_t maxRows = sizer_.nextRows();
    const std::string readAt = utcNowIso();
    uint64_t records = 0;
    // The request borrows afterKey_'s cells for the whole call: the last key goes elsewhere.
    ChunkKey last;
    const ChunkRowSink sink{[&](const TdgCell* cells) {
                                records +=
                                    stream_.output->writeRow(run_.writer, cells, readAt, readAt);
                            },
                            [&](const TdgCell* lastRow) {
                                run_.observer.recordsWritten(stream_.index, records, 0);
                                records = 0;
                                last.capture(lastRow, stream_.renderer->keyPositions());
                            }};
    const ChunkRead read =
        reader_.readChunk(stream_, afterKey_.cells(), maxRows, run_.options.pageSize, sink);
    if (records > 0) run_.observer.recordsWritten(stream_.index, records, 0);
    if (!read.whole && read.rows > 0) afterKey_ = std::move(last);
    sizer_.noteChunk(read.rows, read.bytes);
    rowsDone_ += static_cast<uint64_t>(read.rows);
    run_.clock.noteActivity();
    const bool done = read.whole || read.rows < maxRows;
    recordPosition(done);
    run_.observer.snapshotProgress(stream_.index, rowsDone_, estimate_);
    if (done) run_.observer.snapshotDone(stream_.index);
    return done;
}

void TableSnapshot::recordPosition(bool done) {
    const std::string& name = stream_.definition->name;
    if (done) {
        run_.state.clearSnapshot(name);
        return;
    }
    run_.state.setSnapshot(
        name, SnapshotPosition{sinceId_, afterKey_.texts(), static_cast<int64_t>(rowsDone_)});
}

}  // namespace tapdiffgen::core
