#include "replay/run.hpp"

#include <optional>
#include <sstream>

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
    OtherRepullSessions(const Run::Connect& connect, int64_t sessions) {
        for (int64_t i = 1; connect && i < sessions; ++i) {
            owned_.push_back(std::make_unique<RepullSession>(connect));
        }
    }
    RepullSessions sessions() const {
        RepullSessions sessions;
        for (const auto& session : owned_) sessions.push_back(session.get());
        return sessions;
    }
    bool empty() const { return owned_.empty(); }

private:
    std::vector<std::unique_ptr<RepullSession>> owned_;
};

}  // namespace

RunOptions runOptionsFrom(const TapConfig& config) {
    RunOptions options;
    const TableRef diffgen = TableRef::parse(config.diffgenTable);
    options.replay.diffgen = diffgen;
    options.replay.pageSize = config.pageSize;
    options.replay.backlogPages = BacklogPages{config.maxPageSize, config.widestPageSize};
    options.replay.skipBadEvents = config.onBadEvent == BadEventPolicy::Skip;
    options.replay.horizonSettleSeconds = config.horizonSettleSeconds;
    options.replay.horizonWaitSeconds = config.horizonWaitSeconds;
    options.snapshot = SnapshotOptions{diffgen, config.pageSize, config.horizonSettleSeconds,
                                       config.horizonWaitSeconds};
    options.replay.follow = config.follow;
    options.replay.pollIntervalSeconds = config.pollIntervalSeconds;
    options.replay.stateIntervalSeconds = config.stateIntervalSeconds;
    options.maxRunSeconds = config.maxRunSeconds;
    options.idleExitSeconds = config.follow ? config.idleExitSeconds : 0;
    options.reconnectAttempts = config.reconnectAttempts;
    options.reconnectMaxWaitSeconds = config.reconnectMaxWaitSeconds;
    options.repullSessions = config.repullSessions;
    return options;
}

Run::Run(RunOptions options, Connect connect, MessageWriter& writer,
         std::vector<StreamRuntime>& streams, TapState& state, Connect connectReadAhead,
         Connect connectRepull)
    : options_(std::move(options)),
      connect_(std::move(connect)),
      connectReadAhead_(std::move(connectReadAhead)),
      connectRepull_(std::move(connectRepull)),
      writer_(writer),
      streams_(streams),
      state_(state),
      clock_(options_.maxRunSeconds, options_.idleExitSeconds),
      backoff_(options_.reconnectAttempts, options_.reconnectMaxWaitSeconds) {}

void Run::replay(std::unique_ptr<DialectConnection>& connection) {
    std::optional<DialectError> loss;
    for (;;) {
        const uint64_t queriesBefore = stats_.diffgenQueries;
        bool connecting = false;
        try {
            if (!connection) {
                connecting = true;
                connection = connect_();
                connecting = false;
                resumeFromState();
            }
            std::optional<PageReadAhead> readAhead;
            if (connectReadAhead_) readAhead.emplace(connectReadAhead_);
            OtherRepullSessions repulls(connectRepull_, options_.repullSessions);
            Replayer replayer(*connection, writer_, streams_, state_, options_.replay, clock_,
                              stats_, readAhead ? &*readAhead : nullptr, repulls.sessions());
            replayer.run();
            if (readAhead) {
                log::debug("diffgen pages read ahead on the second session: " +
                           std::to_string(readAhead->pagesServed()) + " used, " +
                           std::to_string(readAhead->readsDropped()) + " dropped");
            }
            if (!repulls.empty()) {
                const EmitCounters& counters = replayer.emitCounters();
                log::debug("re-pull shares on other sessions: " +
                           std::to_string(counters.sharesElsewhere) + " read there, " +
                           std::to_string(counters.sharesTakenBack) + " taken back");
            }
            return;
        } catch (const DialectError& failure) {
            connection.reset();
            // A connection that served pages works again: the next loss starts afresh.
            if (stats_.diffgenQueries > queriesBefore) backoff_.reset();
            const std::optional<std::chrono::seconds> wait =
                failure.retryable() ? backoff_.nextWait() : std::nullopt;
            if (!wait) {
                if (connecting && loss) throw reconnectFailed(*loss, failure);
                throw;
            }
            if (connecting && loss) {
                log::warning(std::string("reconnect failed: ") + failure.what() + "; next try in " +
                             std::to_string(wait->count()) + " s");
            } else {
                loss = failure;
                log::warning(std::string("connection lost: ") + failure.what() +
                             "; reconnecting in " + std::to_string(wait->count()) + " s (attempt " +
                             std::to_string(backoff_.attempt()) + " of " +
                             std::to_string(backoff_.attempts()) + ")");
            }
            // A stop or a time limit during the wait ends the run with the last safe STATE,
            // which was written before the loss.
            if (!clock_.sleepFor(*wait)) {
                writer_.writeState(state_.toJson());
                return;
            }
        }
    }
}

void Run::resumeFromState() {
    for (auto& stream : streams_) {
        if (stream.replaying) stream.cursor = state_.bookmark(stream.definition->name).value_or(0);
    }
}

void Run::report() const {
    const double seconds = clock_.elapsedSeconds();
    std::ostringstream summary;
    summary << "sync done: " << stats_.events << " events, " << stats_.records << " records, "
            << stats_.diffgenQueries << " diffgen queries, " << stats_.repullQueries
            << " re-pull queries in " << seconds << " s";
    if (stats_.skippedEvents > 0) {
        summary << ", " << stats_.skippedEvents << " bad events skipped (on_bad_event skip)";
    }
    if (!clock_.stopReason().empty()) summary << " (" << clock_.stopReason() << ")";
    log::info(summary.str());
    log::info(timerMetricLine("sync_duration", seconds, {{"status", "succeeded"}}));
}

}  // namespace tapdiffgen::core
