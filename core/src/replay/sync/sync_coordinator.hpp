// The one home of a sync, Debezium's coordinator in spirit. It writes each stream's SCHEMA,
// then, on the run's connection, replays the log (which, following, goes on until a stop)
// and takes the streams' snapshots a chunk at a time between its pages
// (replay/sync/snapshot_runner.hpp). Both run under one reconnect policy: a lost connection
// is opened again with backoff and the run resumes from its last safe STATE, a snapshot it
// interrupted from its last chunk. The clock and the observers belong to the run, so the time
// limits and the counts hold across reconnects: every count goes to the run's observers
// (replay/observe/run_observer.hpp), among them its ledger, which the `sync done` summary and
// the METRIC lines are read from, and its progress lines.
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "catalog/stream_definition.hpp"
#include "config/tap_config.hpp"
#include "plugin/connection_factory.hpp"
#include "replay/observe/run_observer.hpp"
#include "replay/sync/checkpointer.hpp"
#include "replay/sync/progress_observer.hpp"
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

    /// Adds a watcher of the run, told every call after the ledger and the progress lines; call
    /// before run(). It must outlive the coordinator.
    void addObserver(RunObserver& observer) { observers_.add(observer); }

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
    RunObservers observers_;
    RunLedger ledger_;
    ProgressObserver progress_;
    Checkpointer checkpointer_;
    RunScope scope_;
    std::optional<DialectError> loss_;
    std::optional<RunPhase> phase_;

    void writeSchemas();
    void emitFirstEvents(DialectConnection& connection);
    void runPhases(std::unique_ptr<DialectConnection>& connection);
    void replay(DialectConnection& connection);
    /// After a lost connection: whether to try again (after waiting), or to end the run with
    /// its last safe STATE (a stop or a time limit during the wait). Throws when no attempt is
    /// left.
    bool waitToReconnect(const DialectError& failure, bool connecting);
    void resumeFromState();
    /// Tells the observers of a new phase; nothing when the run is in it already.
    void enterPhase(RunPhase phase);
    void report() const;
};

}  // namespace tapdiffgen::core
