#include "replay/sync/sync_coordinator.hpp"

#include <sstream>

#include "replay/sessions/page_read_ahead.hpp"
#include "replay/sessions/repull_session.hpp"
#include "replay/sync/replayer.hpp"
#include "replay/sync/snapshot_runner.hpp"
#include "replay/timing/stop_signal.hpp"
#include "singer/batch_writer.hpp"
#include "singer/json_text.hpp"
#include "singer/metric_line.hpp"
#include "util/log.hpp"

namespace tapdiffgen::core {
namespace {

DialectError reconnectFailed(const DialectError& lost, const DialectError& failure) {
    return DialectError(lost.status(),
                        std::string(lost.what()) + "; reconnecting failed: " + failure.what(),
                        lost.sqlstate(), false);
}

// The sessions besides the replay's own that re-pulls are shared with: one replay's worth, so a
// reconnect starts them afresh too.
class OtherRepullSessions {
public:
    OtherRepullSessions(const ConnectionFactory& connections, int64_t sessions) {
        for (int64_t i = 1; i < sessions; ++i) {
            owned_.push_back(std::make_unique<RepullSession>(
                [&connections] { return connections.connect(SessionRole::Repull); }));
        }
    }
    RepullSessions sessions() const {
        RepullSessions sessions;
        for (const auto& session : owned_) sessions.push_back(session.get());
        return sessions;
    }

private:
    std::vector<std::unique_ptr<RepullSession>> owned_;
};

}  // namespace

SyncCoordinator::SyncCoordinator(const TapConfig& config, const ConnectionFactory& connections,
                                 const std::vector<StreamDefinition>& definitions, TapState& state,
                                 SyncMode mode)
    : connections_(connections),
      mode_(mode),
      options_(syncOptionsFrom(config)),
      outputs_(config, definitions),
      streams_(streamRuntimesOf(definitions, outputs_)),
      state_(state),
      clock_(options_.maxRunSeconds, options_.idleExitSeconds),
      backoff_(options_.reconnectAttempts, options_.reconnectMaxWaitSeconds),
      progress_(options_, clock_, ledger_),
      checkpointer_(writer_, state_, streams_, observers_, options_.stateIntervalSeconds),
      scope_{options_, writer_, streams_, outputs_, state_, checkpointer_, clock_, observers_} {
    // The ledger first: the progress lines read its counts of the same call.
    observers_.add(ledger_);
    observers_.add(progress_);
    if (streams_.empty()) log::warning("no stream is selected: nothing to sync");
    if (config.batch && mode == SyncMode::Replay) {
        checkBatchStorage(*config.batch);
        writer_.writeBatches(*config.batch);
    }
    for (StreamRuntime& stream : streams_) {
        const std::optional<int64_t> bookmark = state_.bookmark(stream.definition->name);
        stream.cursor = bookmark.value_or(0);
        stream.awaitsSnapshot = !bookmark && stream.definition->startFrom != StartFrom::Beginning;
        stream.replaying = !stream.awaitsSnapshot;
    }
}

void SyncCoordinator::run(std::unique_ptr<DialectConnection> connection) {
    std::vector<std::string> names;
    names.reserve(streams_.size());
    for (const StreamRuntime& stream : streams_) names.push_back(stream.name);
    observers_.runStarted(names);
    enterPhase(RunPhase::Starting);
    writeSchemas();
    if (mode_ == SyncMode::TestSchemas) {
        enterPhase(RunPhase::Ended);
        return;
    }
    if (mode_ == SyncMode::TestRecords) {
        emitFirstEvents(*connection);
        enterPhase(RunPhase::Ended);
        return;
    }
    if (!state_.empty()) checkpointer_.commit();
    installStopHandlers();
    runPhases(connection);
    enterPhase(RunPhase::Ended);
    report();
    // The other streams ran to their end and the final STATE is written; the run fails.
    const std::vector<std::string>& stopped = ledger_.stoppedStreams();
    if (!stopped.empty()) {
        std::string message = stopped.front();
        if (stopped.size() > 1) {
            message += " (and " + std::to_string(stopped.size() - 1) +
                       " more stopped streams, logged above)";
        }
        throw BadEventError(0, message);
    }
}

void SyncCoordinator::writeSchemas() {
    for (const StreamRuntime& stream : streams_) stream.output->writeSchemas(writer_);
}

// --test: the record of each stream's first event, through the same plan and output as a sync.
void SyncCoordinator::emitFirstEvents(DialectConnection& connection) {
    TableReader reader(connection, writer_, outputs_, clock_, observers_, 1);
    PlanEmitter emitter(reader, writer_, observers_);
    for (StreamRuntime& stream : streams_) {
        EventPage page = connection.readDiffgenPage(options_.diffgen, 0, INT64_MAX, 1,
                                                    {stream.definition->journalName});
        observers_.journalQueried();
        PageStreams only;
        only.add(stream.definition->journalName, stream.keyRule);
        PagePlan::Options planning;
        planning.readFor = StreamSet(1, {0});
        planning.skipBadEvents = true;
        PagePlan plan(page, only, planning);
        emitter.emit(stream.index, stream, plan.streams()[0], utcNowIso());
    }
}

// The replay and the snapshots on one connection; a retryable loss is followed by a reconnect
// with backoff, from the last safe STATE, and they start again where it says they stand.
void SyncCoordinator::runPhases(std::unique_ptr<DialectConnection>& connection) {
    for (;;) {
        const uint64_t queriesBefore = ledger_.diffgenQueries() + ledger_.records();
        bool connecting = false;
        try {
            if (!connection) {
                connecting = true;
                connection = connections_.connect();
                connecting = false;
                resumeFromState();
            }
            replay(*connection);
            return;
        } catch (const DialectError& failure) {
            connection.reset();
            // A connection that did work works again: the next loss starts afresh.
            if (ledger_.diffgenQueries() + ledger_.records() > queriesBefore) backoff_.reset();
            if (!waitToReconnect(failure, connecting)) return;
        }
    }
}

// The replay and the snapshots take turns on this connection, page and chunk, until the log
// is drained and no snapshot is left (or, following, until a stop).
void SyncCoordinator::replay(DialectConnection& connection) {
    std::optional<PageReadAhead> readAhead;
    if (options_.readAhead) {
        readAhead.emplace([this] { return connections_.connect(SessionRole::ReadAhead); });
    }
    OtherRepullSessions repulls(connections_, options_.repullSessions);
    Replayer replayer(scope_, connection, readAhead ? &*readAhead : nullptr, repulls.sessions());
    SnapshotRunner snapshots(scope_, connection);
    replayer.start();
    enterPhase(snapshots.readingChunks() ? RunPhase::Snapshot : RunPhase::CatchUp);
    bool drained = false;
    for (;;) {
        const bool chunked = snapshots.step();
        const Replayer::Step step = replayer.step(snapshots.readingChunks());
        if (snapshots.readingChunks()) {
            enterPhase(RunPhase::Snapshot);
        } else {
            enterPhase(options_.follow && replayer.atHead() ? RunPhase::Following
                                                            : RunPhase::CatchUp);
        }
        if (step == Replayer::Step::Stopped) break;
        if (step != Replayer::Step::Drained || chunked) continue;
        if (!snapshots.busy()) {
            drained = true;
            break;
        }
        // Only heads are awaited: their checks are spaced out, and so is this loop.
        if (!clock_.sleepFor(std::chrono::milliseconds(100))) break;
    }
    replayer.finish(drained);
    if (readAhead) {
        log::debug("diffgen pages read ahead on the second session: " +
                   std::to_string(readAhead->pagesServed()) + " used, " +
                   std::to_string(readAhead->readsDropped()) + " dropped");
    }
    if (options_.repullSessions > 1) {
        log::debug(
            "re-pull shares on other sessions: " + std::to_string(ledger_.sharesElsewhere()) +
            " read there, " + std::to_string(ledger_.sharesTakenBack()) + " taken back");
    }
}

bool SyncCoordinator::waitToReconnect(const DialectError& failure, bool connecting) {
    const std::optional<std::chrono::seconds> wait =
        failure.retryable() ? backoff_.nextWait() : std::nullopt;
    if (!wait) {
        if (connecting && loss_) throw reconnectFailed(*loss_, failure);
        throw failure;
    }
    observers_.retried(connecting && loss_ ? RetryCause::ConnectFailed
                                           : RetryCause::ConnectionLost);
    if (connecting && loss_) {
        log::warning(std::string("reconnect failed: ") + failure.what() + "; next try in " +
                     std::to_string(wait->count()) + " s");
    } else {
        loss_ = failure;
        log::warning(std::string("connection lost: ") + failure.what() + "; reconnecting in " +
                     std::to_string(wait->count()) + " s (attempt " +
                     std::to_string(backoff_.attempt()) + " of " +
                     std::to_string(backoff_.attempts()) + ")");
    }
    // A stop or a time limit during the wait ends the run with the last safe STATE, which was
    // written before the loss.
    if (clock_.sleepFor(*wait)) return true;
    checkpointer_.commit();
    return false;
}

void SyncCoordinator::resumeFromState() {
    for (auto& stream : streams_) {
        if (stream.replaying) stream.cursor = state_.bookmark(stream.definition->name).value_or(0);
    }
}

void SyncCoordinator::enterPhase(RunPhase phase) {
    if (phase_ == phase) return;
    phase_ = phase;
    observers_.phaseChanged(phase);
}

void SyncCoordinator::report() const {
    const double seconds = clock_.elapsedSeconds();
    std::ostringstream summary;
    summary << "sync done: " << ledger_.events() << " events, " << ledger_.records() << " records, "
            << ledger_.diffgenQueries() << " diffgen queries, " << ledger_.repullQueries()
            << " re-pull queries in " << seconds << " s";
    if (ledger_.skippedEvents() > 0) {
        summary << ", " << ledger_.skippedEvents() << " bad events skipped (on_bad_event skip)";
    }
    if (!clock_.stopReason().empty()) summary << " (" << clock_.stopReason() << ")";
    log::info(summary.str());
    log::info(timerMetricLine("sync_duration", seconds, {{"status", "succeeded"}}));
}

}  // namespace tapdiffgen::core
