// start_from: snapshot, for a stream with no bookmark: emit every current row of its table,
// then replay the log from the id that was the head when the snapshot began.
//
// Order matters: the head id M is read first, then the tap waits until every transaction that
// could still commit an id <= M has ended, and only then reads the table. A change journalled
// at an id <= M is therefore visible to the table read, and every later change is replayed.
#pragma once

#include "plugin/dialect_connection.hpp"
#include "replay/sync/run_ledger.hpp"
#include "replay/sync/stream_runtime.hpp"
#include "replay/sync/sync_options.hpp"
#include "singer/message_writer.hpp"
#include "state/tap_state.hpp"

namespace tapdiffgen::core {

/// Returns false (and logs why) when the snapshot could not start safely this run; the stream
/// then keeps no bookmark and tries again next run. Its records are counted in `ledger`.
bool runSnapshot(DialectConnection& connection, MessageWriter& writer, StreamRuntime& stream,
                 TapState& state, const SyncOptions& options, RunLedger& ledger);

}  // namespace tapdiffgen::core
