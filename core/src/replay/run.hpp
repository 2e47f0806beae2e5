// One sync run, from the first page to the `sync done` line: it owns what lasts across
// reconnects (the clock and its stop reasons, the counters, the one reconnect policy) and makes
// a Replayer for each connection. runOptionsFrom() is the one place the settings become
// options.
#pragma once

#include <functional>
#include <memory>
#include <vector>

#include "config/tap_config.hpp"
#include "plugin/dialect_connection.hpp"
#include "replay/backoff.hpp"
#include "replay/replayer.hpp"
#include "replay/run_clock.hpp"
#include "replay/snapshot.hpp"
#include "replay/stream_runtime.hpp"
#include "singer/message_writer.hpp"
#include "state/tap_state.hpp"

namespace tapdiffgen::core {

struct RunOptions {
    ReplayOptions replay;
    SnapshotOptions snapshot;
    int64_t maxRunSeconds = 0;
    int64_t idleExitSeconds = 0;
    int64_t reconnectAttempts = 5;
    int64_t reconnectMaxWaitSeconds = 30;
    /// Sessions a page's re-pulls are shared between, the replay's own one included.
    int64_t repullSessions = 1;
};

RunOptions runOptionsFrom(const TapConfig& config);

class Run {
public:
    using Connect = std::function<std::unique_ptr<DialectConnection>()>;

    /// The clock starts here. connect opens a new connection after a lost one;
    /// connectReadAhead, when given, the second session each replay reads pages ahead on;
    /// connectRepull, when given, each of the other sessions re-pulls are shared with.
    Run(RunOptions options, Connect connect, MessageWriter& writer,
        std::vector<StreamRuntime>& streams, TapState& state, Connect connectReadAhead = {},
        Connect connectRepull = {});

    const RunOptions& options() const { return options_; }

    /// Replays until the log is drained (or, following, until a stop). A retryable loss of
    /// the connection is followed by a reconnect with backoff, from the last safe STATE; the
    /// records after it may be emitted twice, which targets absorb by upserting on the key.
    /// Throws the loss when no attempt is left.
    void replay(std::unique_ptr<DialectConnection>& connection);

    /// Logs the `sync done` summary and the run's METRIC lines.
    void report() const;

private:
    RunOptions options_;
    Connect connect_;
    Connect connectReadAhead_;
    Connect connectRepull_;
    MessageWriter& writer_;
    std::vector<StreamRuntime>& streams_;
    TapState& state_;
    RunClock clock_;
    Backoff backoff_;
    ReplayStats stats_;

    void resumeFromState();
};

}  // namespace tapdiffgen::core
