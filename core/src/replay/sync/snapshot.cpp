#include "replay/sync/snapshot.hpp"

#include <thread>

#include "replay/output/schema_watch.hpp"
#include "replay/output/table_change.hpp"
#include "replay/scan/horizon_tracker.hpp"
#include "singer/json_text.hpp"
#include "util/log.hpp"

namespace tapdiffgen::core {
namespace {

// Scans of a table that changed again each time, before the run gives up.
constexpr int kMaxScans = 5;

// Waits until no transaction can still commit a diffgen id <= headId.
bool waitForHead(DialectConnection& connection, const StreamRuntime& stream, int64_t headId,
                 const SyncOptions& options) {
    EventPage probe = connection.readDiffgenPage(options.diffgen, headId, headId, 1,
                                                 {stream.definition->journalName});
    HorizonTracker tracker(connection, options.horizonSettleSeconds, 0);
    PendingRange range;
    range.to = headId;
    range.mark = probe.mark();
    range.readAt = std::chrono::steady_clock::now();
    tracker.addPending(range);
    auto deadline =
        std::chrono::steady_clock::now() + std::chrono::seconds(options.horizonWaitSeconds);
    while (tracker.takeFinal().empty()) {
        if (std::chrono::steady_clock::now() >= deadline) return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
    return true;
}

// Reads every row of the stream's table, the same rows again after a change of its columns.
void scanRows(DialectConnection& connection, RunScope& run, StreamRuntime& stream,
              const std::string& snapshotTime) {
    SchemaWatch schemas(connection, run.writer, run.outputs, run.clock);
    std::vector<StreamRuntime*> only{&stream};
    schemas.refresh(only);
    for (int scan = 1;; ++scan) {
        const StreamDefinition& definition = *stream.definition;
        const RecordRenderer& renderer = *stream.renderer;
        try {
            connection.scanTable(
                definition.table, renderer.columnNames(), &renderer.columnKinds(), definition.key,
                run.options.pageSize, [&](const TdgRowBatch& batch) {
                    for (int64_t row = 0; row < batch.num_rows; ++row) {
                        const TdgCell* cells = batch.cells + row * batch.num_columns;
                        if (const size_t column = renderer.misfit(cells);
                            column != RecordRenderer::npos) {
                            throw TableChanged("table '" + definition.tableName +
                                               "': " + renderer.misfitText(cells, column));
                        }
                        run.ledger.addRecords(
                            stream.index,
                            stream.output->writeRow(run.writer, cells, snapshotTime, snapshotTime));
                    }
                });
            return;
        } catch (const DialectError& failure) {
            if (!mayMeanTableChanged(failure) || scan == kMaxScans) throw;
            if (!schemas.refresh(only)) throw;
        } catch (const TableChanged& changed) {
            if (scan == kMaxScans || !schemas.refresh(only)) changed.rethrowAsFailure();
        }
        log::info("stream '" + stream.definition->name +
                  "': the snapshot starts again with the table's new columns");
    }
}

}  // namespace

bool runSnapshot(DialectConnection& connection, RunScope& run, StreamRuntime& stream) {
    const SyncOptions& options = run.options;
    const StreamDefinition& definition = *stream.definition;
    const int64_t headId = connection.maxDiffgenId(options.diffgen).value_or(0);
    if (!waitForHead(connection, stream, headId, options)) {
        log::warning("stream '" + definition.name +
                     "': transactions that may still journal "
                     "changes were running for more than horizon_wait_seconds; the snapshot is "
                     "postponed to the next run");
        return false;
    }
    log::info("stream '" + definition.name + "': snapshot of table '" + definition.tableName +
              "', then replay after diffgen id " + std::to_string(headId));
    scanRows(connection, run, stream, utcNowIso());
    stream.cursor = headId;
    run.state.setBookmark(stream.definition->name, headId);
    run.writer.writeState(run.state.toJson());
    return true;
}

}  // namespace tapdiffgen::core
