// start_from: snapshot, for a stream with no bookmark: emit every current row of its table,
// then replay the log from the id that was the head when the snapshot began.
//
// Order matters: the head id M is read first, then the tap waits until every transaction that
// could still commit an id <= M has ended, and only then reads the table. A change journalled
// at an id <= M is therefore visible to the table read, and every later change is replayed.
//
// The table is described again first (SchemaWatch); a change of its columns during the scan
// (table_change.hpp) starts the scan again with the new columns, under a new SCHEMA, the rows
// written before it staying written.
#pragma once

#include "plugin/dialect_connection.hpp"
#include "replay/sync/run_scope.hpp"
#include "replay/sync/stream_runtime.hpp"

namespace tapdiffgen::core {

/// Returns false (and logs why) when the snapshot could not start safely this run; the stream
/// then keeps no bookmark and tries again next run. Its records are counted in the run's ledger.
bool runSnapshot(DialectConnection& connection, RunScope& run, StreamRuntime& stream);

}  // namespace tapdiffgen::core
