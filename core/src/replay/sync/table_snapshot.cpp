#include "replay/sync/table_snapshot.hpp"

#include <algorithm>

#include "replay/output/schema_watch.hpp"
#include "replay/output/table_change.hpp"
#include "singer/json_text.hpp"
#include "util/log.hpp"

namespace tapdiffgen::core {
namespace {

// Reads of one chunk whose table changed again each time, before the run gives up.
constexpr int kMaxChunkReads = 5;

// What a batch's rows weigh in memory and on the wire, near enough to size chunks by.
uint64_t batchBytes(const TdgRowBatch& batch) {
    uint64_t bytes = 0;
    const int64_t cells = batch.num_rows * batch.num_columns;
    for (int64_t i = 0; i < cells; ++i) bytes += sizeof(TdgCell) + batch.cells[i].size;
    return bytes;
}

}  // namespace

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

TableSnapshot::TableSnapshot(RunScope& run, DialectConnection& connection, StreamRuntime& stream,
                             const SnapshotPosition& position)
    : run_(run),
      connection_(connection),
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
    uint64_t bytes = 0;
    bool whole = false;
    const int64_t rows = readRowsFollowingChanges(maxRows, bytes, whole);
    sizer_.noteChunk(rows, bytes);
    rowsDone_ += static_cast<uint64_t>(rows);
    run_.clock.noteActivity();
    const bool done = whole || rows < maxRows;
    recordPosition(done);
    run_.observer.snapshotProgress(stream_.index, rowsDone_, estimate_);
    if (done) run_.observer.snapshotDone(stream_.index);
    return done;
}

// A chunk whose table changed under it (table_change.hpp) is read again from the same key with
// the table's new columns, under a new SCHEMA; the rows written before the change stay written,
// and are written again, which a replica takes as the same rows.
int64_t TableSnapshot::readRowsFollowingChanges(int64_t maxRows, uint64_t& bytes, bool& whole) {
    SchemaWatch schemas(connection_, run_.writer, run_.outputs, run_.clock);
    const std::vector<StreamChannel*> only{&stream_};
    for (int read = 1;; ++read) {
        try {
            return readRows(maxRows, bytes, whole);
        } catch (const DialectError& failure) {
            if (!mayMeanTableChanged(failure) || read == kMaxChunkReads) throw;
            if (!schemas.refresh(only)) throw;
        } catch (const TableChanged& changed) {
            if (read == kMaxChunkReads || !schemas.refresh(only)) changed.rethrowAsFailure();
        }
        log::info("stream '" + stream_.definition->name +
                  "': the snapshot reads its chunk again with the table's new columns");
        bytes = 0;
    }
}

// Each row is written as soon as it arrives, so that memory holds a batch at most.
int64_t TableSnapshot::readRows(int64_t maxRows, uint64_t& bytes, bool& whole) {
    const RecordRenderer& renderer = *stream_.renderer;
    const ScanSpec scan{&stream_.definition->table, &renderer.columnNames(),
                        &renderer.columnKinds(), &stream_.definition->key, 0};
    const std::string readAt = utcNowIso();
    int64_t rows = 0;
    uint64_t records = 0;
    // The request borrows afterKey_'s cells for the whole call: the last key goes elsewhere.
    ChunkKey last;
    const auto onBatch = [&](const TdgRowBatch& batch) {
        for (int64_t row = 0; row < batch.num_rows; ++row) {
            const TdgCell* cells = batch.cells + row * batch.num_columns;
            throwIfMisfit(renderer, stream_.definition->tableName, cells);
            records += stream_.output->writeRow(run_.writer, cells, readAt, readAt);
        }
        run_.observer.recordsWritten(stream_.index, records, 0);
        records = 0;
        if (batch.num_rows > 0) {
            last.capture(batch.cells + (batch.num_rows - 1) * batch.num_columns,
                         renderer.keyPositions());
        }
        rows += batch.num_rows;
        bytes += batchBytes(batch);
    };
    const std::vector<TdgCell> after = afterKey_.cells();
    if (connection_.scanChunk(scan, after, maxRows, onBatch)) {
        if (rows > 0) afterKey_ = std::move(last);
        return rows;
    }
    log::info("the " + connection_.plugin().dialect() +
              " plugin cannot read a table in chunks (scan_chunk, ABI revision 5): the "
              "snapshot of '" +
              stream_.definition->name +
              "' is one scan of the table, which starts again from its first row if it is "
              "interrupted");
    whole = true;
    connection_.scanTable(
        ScanSpec{scan.table, scan.columns, scan.columnKinds, scan.key, run_.options.pageSize},
        onBatch);
    return rows;
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
