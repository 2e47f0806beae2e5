// The one home of a sync, Debezium's coordinator in spirit. It writes each stream's SCHEMA,
// then, on the run's connection, replays the log (which, following, goes on until a stop)
// and takes the streams' snapshots a chunk at a time between its pages
// (replay/sync/snapshot_runner.hpp). Both run under one reconnect policy: a lost connection
// is opened again with backoff and the run resumes from its last safe STATE, a snapshot it
// interrupted from its last chunk. The clock and the ledger belong to the run, so the time
// limits and the counts hold across reconnects; the `sync done` summary and the METRIC lines
// come from them at the end.
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "catalog/stream_definition.hpp"
#include "config/tap_config.hpp"
#include "plugin/connection_factory.hpp"
#include "replay/sync/run_ledger.hpp"
#include "replay/sync/run_scope.hpp"
#include "replay/sync/stream_runtime.hpp"
#include "replay/sync/sync_options.hpp"
#include "replay/timing/backoff.hpp"
#include "replay/timing/run_clock.hpp"
#include "singer/message_writer.hpp"
#include "state/tap_state.hpp"

namespace tapdiffgen::core {

/// What the command line asks of a sync.
enum class SyncMode {
    /// SCHEMAs, snapshots, the replay, STATE: a sync.
    Replay,
    /// --test: SCHEMAs and the record of each stream's first event; no STATE.
    TestRecords,
    /// --test=schema: SCHEMAs only.
    TestSchemas,
};

class SyncCoordinator {
public:
    /// Sets up the selected streams of `definitions` (their maps compiled and checked, before
    /// any output). The clock starts here.
    SyncCoordinator(const TapConfig& config, const ConnectionFactory& connections,
                    const std::vector<StreamDefinition>& definitions, TapState& state,
                    SyncMode mode);

    /// Runs the sync, starting on `connection`. Throws the loss when no reconnect attempt is
    /// left, and whatever stops a run (a bad event, a journal that lost changes).
    void run(std::unique_ptr<DialectConnection> connection);

private:
    const ConnectionFactory& connections_;
    const SyncMode mode_;
    const SyncOptions options_;
    MessageWriter writer_;
    StreamOutputs outputs_;
    std::vector<StreamRuntime> streams_;
    TapState& state_;
    RunClock clock_;
    Backoff backoff_;
    RunLedger ledger_;
    RunScope scope_;
    std::optional<DialectError> loss_;

    void writeSchemas();
    void emitFirstEvents(DialectConnection& connection);
    void runPhases(std::unique_ptr<DialectConnection>& connection);
    void replay(DialectConnection& connection);
    /// After a lost connection: whether to try again (after waiting), or to end the run with
    /// its last safe STATE (a stop or a time limit during the wait). Throws when no attempt is
    /// left.
    bool waitToReconnect(const DialectError& failure, bool connecting);
    void resumeFromState();
    void report() const;
};

}  // namespace tapdiffgen::core
