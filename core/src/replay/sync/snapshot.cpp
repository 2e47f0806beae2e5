#include "replay/sync/snapshot.hpp"

#include <thread>

#include "replay/scan/horizon_tracker.hpp"
#include "singer/json_text.hpp"
#include "util/log.hpp"

namespace tapdiffgen::core {
namespace {

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

}  // namespace

bool runSnapshot(DialectConnection& connection, MessageWriter& writer, StreamRuntime& stream,
                 TapState& state, const SyncOptions& options, RunLedger& ledger) {
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
    const std::string snapshotTime = utcNowIso();
    const RecordRenderer& renderer = *stream.renderer;
    connection.scanTable(
        definition.table, renderer.columnNames(), &renderer.columnKinds(), definition.key,
        options.pageSize, [&](const TdgRowBatch& batch) {
            for (int64_t row = 0; row < batch.num_rows; ++row) {
                ledger.addRecords(stream.index, stream.output->writeRow(
                                                    writer, batch.cells + row * batch.num_columns,
                                                    snapshotTime, snapshotTime));
            }
        });
    stream.cursor = headId;
    state.setBookmark(definition.name, headId);
    writer.writeState(state.toJson());
    return true;
}

}  // namespace tapdiffgen::core
